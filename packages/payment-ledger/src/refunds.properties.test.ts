import { findTransition, type PaymentState } from '@cartwright/commerce';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptIn, CAPTURE_ID, ledgerOf } from '../test/fixtures.ts';
import type { LedgerDecision, PaymentEffect } from './effects.ts';
import { describeMoney } from './money.ts';
import type { ProviderAnswer, ProviderRefund, ProviderRefundStatus } from './provider.ts';
import type { RefundLedger, RefundRecord, RefundStatus } from './records.ts';
import {
  applyRefundResponse,
  markRefundSent,
  mergeProviderRefunds,
  refundBalance,
  requestRefund,
} from './refunds.ts';

// Any interleaving of refund requests (random amounts, replayed keys, reused ids), sends,
// provider answers (confirmed, pending, failed, refused, lost, in progress, wrong amount) and
// provider reports (webhooks, reads) against one capture of EUR 12.90.

const LEDGER = ledgerOf(attemptIn('captured'));
const CAPTURED = LEDGER.captured.amount;
const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'];
const IDS = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'];

/** A provider answer to our refund; a refund object is built when applied, from the refund's own amount. */
type AnswerSpec =
  | { readonly outcome: 'done'; readonly status: ProviderRefundStatus; readonly rightAmount: boolean }
  | Exclude<ProviderAnswer<ProviderRefund>, { outcome: 'done' }>;

type Step =
  | { readonly kind: 'request'; readonly id: string; readonly key: string; readonly amount: number }
  | { readonly kind: 'send'; readonly id: string }
  | { readonly kind: 'answer'; readonly id: string; readonly answer: AnswerSpec }
  | {
      readonly kind: 'report';
      readonly id: string;
      readonly status: ProviderRefundStatus;
      readonly byCustomId: boolean;
    }
  | { readonly kind: 'dashboard'; readonly providerId: string; readonly amount: number };

const amountArb = fc.oneof(
  fc.integer({ min: 1, max: 400 }),
  fc.integer({ min: 1, max: CAPTURED + 100 }),
  fc.constantFrom(CAPTURED, CAPTURED + 1),
);
const providerStatusArb = fc.constantFrom<ProviderRefundStatus>(
  'COMPLETED',
  'PENDING',
  'FAILED',
  'CANCELLED',
);

const answerArb: fc.Arbitrary<AnswerSpec> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      outcome: fc.constant('done' as const),
      status: providerStatusArb,
      rightAmount: fc.oneof(
        { weight: 4, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'REFUND_AMOUNT_EXCEEDED',
        'CAPTURE_FULLY_REFUNDED',
        'PREVIOUS_REQUEST_IN_PROGRESS',
        'REFUND_NOT_ALLOWED',
      )
      .map((issue) => ({ outcome: 'refused' as const, status: 422, issue, detail: issue })),
  },
  { weight: 1, arbitrary: fc.constant({ outcome: 'not-found' as const }) },
  { weight: 2, arbitrary: fc.constant({ outcome: 'unknown' as const, reason: 'timeout' }) },
);

const decimal = (minor: number) => describeMoney({ amount: minor, currency: 'EUR', precision: 2 }).slice(4);

/** The provider's refund object for our refund `id`, with its own amount or one minor unit more. */
function report(
  ledger: RefundLedger,
  id: string,
  status: ProviderRefundStatus,
  rightAmount = true,
): ProviderRefund {
  const minor =
    (ledger.refunds.find((refund) => refund.id === id)?.amount.amount ?? 1) + (rightAmount ? 0 : 1);
  return {
    id: `P-${id}`,
    status,
    amount: { currency: 'EUR', value: decimal(minor) },
    captureId: CAPTURE_ID,
    customId: id,
  };
}

const ourStepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('request' as const),
      id: fc.constantFrom(...IDS),
      key: fc.constantFrom(...KEYS),
      amount: amountArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('send' as const), id: fc.constantFrom(...IDS) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      id: fc.constantFrom(...IDS),
      answer: answerArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      id: fc.constantFrom(...IDS),
      status: providerStatusArb,
      byCustomId: fc.boolean(),
    }),
  },
);

const dashboardArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('dashboard' as const),
  providerId: fc.constantFrom('D1', 'D2', 'D3'),
  amount: fc.integer({ min: 1, max: 600 }),
});

function apply(
  ledger: RefundLedger,
  step: Step,
): LedgerDecision & { accepted?: boolean; replayed?: boolean } {
  switch (step.kind) {
    case 'request': {
      const result = requestRefund(ledger, {
        refundId: step.id,
        idempotencyKey: step.key,
        amount: { amount: step.amount, currency: 'EUR', precision: 2 },
      });
      return result.ok ? { ...result.value, accepted: true } : { ledger, effects: [], accepted: false };
    }
    case 'send': {
      const result = markRefundSent(ledger, step.id);
      return { ledger: result.ok ? result.value.ledger : ledger, effects: [] };
    }
    case 'answer': {
      const answer: ProviderAnswer<ProviderRefund> =
        step.answer.outcome === 'done'
          ? { outcome: 'done', value: report(ledger, step.id, step.answer.status, step.answer.rightAmount) }
          : step.answer;
      const result = applyRefundResponse(ledger, step.id, answer);
      return result.ok ? result.value : { ledger, effects: [] };
    }
    case 'report': {
      const ours = ledger.refunds.find((refund) => refund.id === step.id);
      if (!ours) return { ledger, effects: [] };
      // Without the custom id the provider can only name a refund whose provider id we know.
      if (!step.byCustomId && ours.providerRefundId === null) return { ledger, effects: [] };
      const reported = {
        ...report(ledger, step.id, step.status),
        customId: step.byCustomId ? step.id : null,
      };
      return mergeProviderRefunds(ledger, [reported]);
    }
    case 'dashboard': {
      const reported: ProviderRefund = {
        id: step.providerId,
        status: 'COMPLETED',
        amount: { currency: 'EUR', value: decimal(step.amount) },
        captureId: CAPTURE_ID,
        customId: 'dashboard',
      };
      return mergeProviderRefunds(ledger, [reported]);
    }
  }
}

/** Sums by status, computed here from the records, independently of `refundBalance`. */
function sums(ledger: RefundLedger) {
  const total = (statuses: RefundStatus[]) =>
    ledger.refunds
      .filter((refund) => statuses.includes(refund.status))
      .reduce((sum, refund) => sum + refund.amount.amount, 0);
  return { confirmed: total(['confirmed']), pending: total(['reserved', 'sent', 'uncertain']) };
}

interface Step3 {
  readonly step: Step;
  readonly before: RefundLedger;
  readonly decision: ReturnType<typeof apply>;
}

function run(steps: readonly Step[]): Step3[] {
  let ledger = LEDGER;
  return steps.map((step) => {
    const decision = apply(ledger, step);
    const entry = { step, before: ledger, decision };
    ledger = decision.ledger;
    return entry;
  });
}

const byId = (ledger: RefundLedger, id: string): RefundRecord | undefined =>
  ledger.refunds.find((r) => r.id === id);
const PENDING: readonly RefundStatus[] = ['reserved', 'sent', 'uncertain'];
const stepsArb = fc.array(ourStepArb, { minLength: 1, maxLength: 40 });

describe('refund ledger (properties)', () => {
  it('never lets confirmed + pending refunds exceed the capture unless the provider contradicted itself, and keeps remaining exact', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const { decision } of run(steps)) {
          const { confirmed, pending } = sums(decision.ledger);
          // The one way past the capture is the provider's own: a refund it answered as failed
          // and later reports completed (the money did move). That is flagged for review once,
          // and nothing new fits any more; the ledger itself never reserves past the capture.
          const contradicted = decision.ledger.refunds.some((refund) => refund.flagged);
          if (!contradicted) expect(confirmed + pending).toBeLessThanOrEqual(CAPTURED);
          expect(refundBalance(decision.ledger)).toEqual({
            captured: CAPTURED,
            confirmed,
            pending,
            remaining: Math.max(0, CAPTURED - confirmed - pending),
            overcommitted: Math.max(0, confirmed + pending - CAPTURED),
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reserves a new refund exactly when it fits the remaining balance, and answers a replayed key with its refund', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const { step, before, decision } of run(steps)) {
          if (step.kind !== 'request') continue;
          const earlier = before.refunds.find((refund) => refund.idempotencyKey === step.key);
          if (earlier) {
            // A replay never reserves anything new: it answers the refund, or a conflict.
            expect(decision.ledger).toBe(before);
            expect(decision.replayed ?? false).toBe(
              earlier.amount.amount === step.amount && decision.accepted,
            );
            continue;
          }
          const fits = step.amount <= refundBalance(before).remaining && !byId(before, step.id);
          expect(decision.accepted).toBe(fits);
          expect(decision.ledger.refunds.length).toBe(before.refunds.length + (fits ? 1 : 0));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps an uncertain refund’s reservation until an answer or report about it settles it', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const { step, before, decision } of run(steps)) {
          for (const refund of before.refunds) {
            if (refund.status !== 'uncertain') continue;
            const now = byId(decision.ledger, refund.id);
            const aboutIt = 'id' in step && step.id === refund.id && step.kind !== 'request';
            if (!aboutIt) expect(now?.status).toBe('uncertain');
            if (now && !PENDING.includes(now.status))
              expect(step.kind === 'answer' || step.kind === 'report').toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never unsettles a refund, and confirms each refund at most once', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        const confirmations = new Map<string, number>();
        for (const { before, decision } of run(steps)) {
          for (const refund of before.refunds) {
            const now = byId(decision.ledger, refund.id);
            expect(now).toBeDefined();
            if (refund.status === 'confirmed') expect(now?.status).toBe('confirmed');
            if (refund.status === 'failed') expect(['failed', 'confirmed']).toContain(now?.status);
            expect(now?.amount).toEqual(refund.amount);
          }
          for (const effect of decision.effects) {
            if (effect.kind === 'emit' && effect.event === 'payment.refunded') {
              confirmations.set(
                effect.payload.refundId,
                (confirmations.get(effect.payload.refundId) ?? 0) + 1,
              );
            }
          }
        }
        for (const times of confirmations.values()) expect(times).toBe(1);
      }),
      { numRuns: 500 },
    );
  });

  it('only moves the order’s payment along commerce’s payment machine', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        let payment: PaymentState = 'paid';
        for (const { decision } of run(steps)) {
          for (const effect of decision.effects as PaymentEffect[]) {
            if (effect.kind !== 'move-order-payment') continue;
            expect(findTransition('payment', payment, effect.to), `${payment} → ${effect.to}`).toBeDefined();
            payment = effect.to;
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('with refunds made elsewhere: a new reservation never pushes confirmed + pending past the capture', () => {
    const mixedArb = fc.array(
      fc.oneof({ weight: 5, arbitrary: ourStepArb }, { weight: 1, arbitrary: dashboardArb }),
      {
        minLength: 1,
        maxLength: 40,
      },
    );
    fc.assert(
      fc.property(mixedArb, (steps) => {
        for (const { step, before, decision } of run(steps)) {
          const { confirmed, pending } = sums(decision.ledger);
          const balance = refundBalance(decision.ledger);
          expect(balance.remaining).toBe(Math.max(0, CAPTURED - confirmed - pending));
          expect(balance.overcommitted).toBe(Math.max(0, confirmed + pending - CAPTURED));
          if (step.kind === 'request' && decision.accepted && !decision.replayed) {
            const was = sums(before);
            expect(was.confirmed + was.pending + step.amount).toBeLessThanOrEqual(CAPTURED);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('explores every refund status (so the properties above are not vacuous)', () => {
    const seen = new Set<string>();
    for (const steps of fc.sample(stepsArb, { numRuns: 500, seed: 20250301 })) {
      for (const { decision } of run(steps))
        for (const refund of decision.ledger.refunds) seen.add(refund.status);
    }
    expect([...seen].sort()).toEqual(['confirmed', 'failed', 'reserved', 'sent', 'uncertain']);
  });
});
