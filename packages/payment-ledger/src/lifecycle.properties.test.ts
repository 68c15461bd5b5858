import { findTransition, type PaymentState } from '@cartwright/commerce';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_URL,
  attemptIn,
  CAPTURE_ID,
  MERCHANT_ID,
  newAttempt,
  PROVIDER_ORDER_ID,
  type Reachable,
} from '../test/fixtures.ts';
import type { AttemptDecision, PaymentEffect } from './effects.ts';
import { orderPaymentState } from './payment-state.ts';
import {
  CAPTURE_STATUSES,
  PROVIDER_ORDER_STATUSES,
  type ProviderAnswer,
  type ProviderCapture,
  type ProviderOrder,
} from './provider.ts';
import {
  applyCaptureResponse,
  applyCreateResponse,
  CAPTURE_REFUSALS,
  prepareCapture,
} from './provider-calls.ts';
import { decideCancellation, reconcile } from './reconcile.ts';
import { ATTEMPT_STATUSES, type AttemptState, type LocalOrder, UNPAID_FINAL_STATUSES } from './records.ts';
import { ATTEMPT_TRANSITIONS, isAttemptTransition } from './transitions.ts';
import { ATTEMPT_EVENT_TYPES, decideWebhookEvent } from './webhooks.ts';

// Any sequence of provider answers (duplicated, lost, out of order, contradicting), webhooks,
// cancellations, capture jobs and local order changes, applied to one attempt. The invariants are
// checked after every step, so a violation names the shortest sequence that reaches it.

const captureArb: fc.Arbitrary<ProviderCapture> = fc.record({
  id: fc.constantFrom(CAPTURE_ID, CAPTURE_ID, 'OTHERCAPTURE'),
  status: fc.oneof(
    { weight: 3, arbitrary: fc.constant('COMPLETED' as const) },
    { weight: 2, arbitrary: fc.constant('PENDING' as const) },
    { weight: 2, arbitrary: fc.constantFrom(...CAPTURE_STATUSES) },
  ),
  // Mostly the receipt the attempt expects, sometimes each way it can differ.
  amount: fc.constantFrom(
    { currency: 'EUR', value: '12.90' },
    { currency: 'EUR', value: '12.90' },
    { currency: 'EUR', value: '12.90' },
    { currency: 'EUR', value: '12.00' },
    { currency: 'USD', value: '12.90' },
  ),
  customId: fc.constantFrom('a1', 'a1', null, 'a2'),
  merchantId: fc.constantFrom(MERCHANT_ID, MERCHANT_ID, MERCHANT_ID, null, 'OTHER'),
});

const orderArb: fc.Arbitrary<ProviderOrder> = fc.record({
  id: fc.constantFrom(PROVIDER_ORDER_ID, PROVIDER_ORDER_ID, PROVIDER_ORDER_ID, 'OTHERORDER'),
  status: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('APPROVED' as const, 'COMPLETED' as const) },
    { weight: 2, arbitrary: fc.constantFrom(...PROVIDER_ORDER_STATUSES) },
  ),
  approvalUrl: fc.constantFrom(APPROVAL_URL, APPROVAL_URL, APPROVAL_URL, null, 'http://pay.example/'),
  merchantId: fc.constantFrom(MERCHANT_ID, null),
  captures: fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(captureArb, { minLength: 1, maxLength: 2 }) },
  ),
});

const answerArb: fc.Arbitrary<ProviderAnswer<ProviderOrder>> = fc.oneof(
  { weight: 6, arbitrary: orderArb.map((value) => ({ outcome: 'done' as const, value })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(...Object.keys(CAPTURE_REFUSALS), 'SOMETHING_NEW')
      .map((issue) => ({ outcome: 'refused' as const, status: 422, issue, detail: issue })),
  },
  { weight: 1, arbitrary: fc.constant({ outcome: 'not-found' as const }) },
  { weight: 2, arbitrary: fc.constant({ outcome: 'unknown' as const, reason: 'timeout' }) },
);

const localOrderArb: fc.Arbitrary<LocalOrder> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<LocalOrder>({ state: 'open' }) },
  { weight: 2, arbitrary: fc.constant<LocalOrder>({ state: 'cancelled' }) },
  { weight: 1, arbitrary: fc.constant<LocalOrder>(null) },
);

type Step =
  | { readonly kind: 'create-answer'; readonly answer: ProviderAnswer<ProviderOrder> }
  | {
      readonly kind: 'capture-answer';
      readonly answer: ProviderAnswer<ProviderOrder>;
      readonly order: LocalOrder;
    }
  | { readonly kind: 'capture-job'; readonly order: LocalOrder }
  | { readonly kind: 'reconcile'; readonly answer: ProviderAnswer<ProviderOrder>; readonly order: LocalOrder }
  | { readonly kind: 'cancel'; readonly answer: ProviderAnswer<ProviderOrder> | null }
  | { readonly kind: 'webhook'; readonly eventType: string; readonly providerOrderId: string | null };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('create-answer' as const), answer: answerArb }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('capture-answer' as const),
      answer: answerArb,
      order: localOrderArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('capture-job' as const), order: localOrderArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('reconcile' as const),
      answer: answerArb,
      order: localOrderArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      answer: fc.option(answerArb, { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('webhook' as const),
      eventType: fc.constantFrom(...ATTEMPT_EVENT_TYPES),
      providerOrderId: fc.constantFrom(PROVIDER_ORDER_ID, null, 'OTHERORDER'),
    }),
  },
);

const { attempt } = newAttempt();
// Sequences start in every status the package reaches, each reached through its own decisions.
const START_STATES: readonly Reachable[] = [
  'creating',
  'creating',
  'awaiting_approval',
  'awaiting_approval',
  'capturing',
  'uncertain-create',
  'uncertain-capture',
  'pending_capture',
  'captured',
  'cancelled',
  'review',
];
const startArb = fc.constantFrom(...START_STATES).map((status) => attemptIn(status).state);

function apply(state: AttemptState, step: Step): AttemptDecision {
  switch (step.kind) {
    case 'create-answer':
      return applyCreateResponse(attempt, state, step.answer);
    case 'capture-answer':
      return applyCaptureResponse(attempt, state, step.answer, step.order);
    case 'capture-job': {
      const prepared = prepareCapture(attempt, state, step.order);
      return prepared.action === 'skip' ? prepared.decision : { state, effects: [] };
    }
    case 'reconcile':
      return reconcile(attempt, state, step.answer, step.order);
    case 'cancel':
      return decideCancellation(attempt, state, step.answer);
    case 'webhook': {
      const event = {
        id: 'WH',
        eventType: step.eventType,
        providerOrderId: step.providerOrderId,
        customId: 'a1',
        refund: null,
      };
      return { state, effects: decideWebhookEvent(attempt, state, null, event).effects };
    }
  }
}

/** The provider answer a step carries, if it is a definite one (something happened or did not). */
function definiteAnswer(step: Step): boolean {
  const answer = 'answer' in step ? step.answer : null;
  if (answer === null || answer.outcome === 'unknown') return false;
  // A refused read of the order tells nothing; a refused create or capture is definite.
  return !(answer.outcome === 'refused' && (step.kind === 'reconcile' || step.kind === 'cancel'));
}

interface Trace {
  readonly states: AttemptState[];
  readonly decisions: { step: Step; before: AttemptState; decision: AttemptDecision }[];
}

function run([initial, steps]: readonly [AttemptState, readonly Step[]]): Trace {
  const trace: Trace = { states: [initial], decisions: [] };
  let state = initial;
  for (const step of steps) {
    const decision = apply(state, step);
    trace.decisions.push({ step, before: state, decision });
    trace.states.push(decision.state);
    state = decision.state;
  }
  return trace;
}

const count = (trace: Trace, match: (effect: PaymentEffect) => boolean) =>
  trace.decisions.reduce((sum, { decision }) => sum + decision.effects.filter(match).length, 0);

const stepsArb = fc.tuple(startArb, fc.array(stepArb, { minLength: 1, maxLength: 30 }));
const isUnpaidFinal = (status: string) => UNPAID_FINAL_STATUSES.some((final) => final === status);

describe('attempt lifecycle (properties)', () => {
  it('releases stock at most once, only on giving up without money, never while an outcome is unknown', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        const trace = run(steps);
        expect(count(trace, (effect) => effect.kind === 'release-stock')).toBeLessThanOrEqual(1);
        for (const { step, before, decision } of trace.decisions) {
          const released = decision.effects.some((effect) => effect.kind === 'release-stock');
          expect(released).toBe(!before.stockReleased && decision.state.stockReleased);
          if (released) {
            expect(isUnpaidFinal(decision.state.status)).toBe(true);
            // Only the provider's definite answer gives stock back, or a cancellation (or closed
            // order) before any approval link exists; never a lost answer, a webhook or an
            // unanswered read of an order the buyer could pay.
            expect(definiteAnswer(step) || before.status === 'creating').toBe(true);
            if (!definiteAnswer(step)) expect(step.kind === 'cancel' || 'order' in step).toBe(true);
          }
        }
        for (const state of trace.states) {
          if (state.status === 'uncertain') expect(state.stockReleased).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps an uncertain attempt exactly as it is until a definite provider answer settles it', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const { step, before, decision } of run(steps).decisions) {
          if (before.status !== 'uncertain' || definiteAnswer(step)) continue;
          expect(decision.state).toEqual(before);
          expect(decision.effects.filter((effect) => effect.kind !== 'queue')).toEqual([]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('pays at most once, whatever is duplicated, lost or replayed, and only on a matching receipt', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        const trace = run(steps);
        const captured = (effect: PaymentEffect) =>
          effect.kind === 'emit' && effect.event === 'payment.captured';
        expect(count(trace, captured)).toBeLessThanOrEqual(1);
        expect(
          count(trace, (effect) => effect.kind === 'move-order-payment' && effect.to === 'paid'),
        ).toBeLessThanOrEqual(1);
        for (const { step, before, decision } of trace.decisions) {
          const paidNow = decision.effects.some(captured);
          expect(paidNow).toBe(!before.paid && decision.state.paid);
          if (!paidNow) continue;
          // The provider's own answer about the attempt's order showed the expected money.
          const answer = 'answer' in step ? step.answer : null;
          expect(answer?.outcome).toBe('done');
          if (answer?.outcome !== 'done') continue;
          expect(answer.value.id).toBe(before.providerOrderId);
          expect(decision.state.providerOrderId).toBe(before.providerOrderId);
          expect(decision.state.capture).toMatchObject({
            amount: { amount: 1290, currency: 'EUR', precision: 2 },
          });
          expect(answer.value.captures.some((capture) => capture.id === decision.state.capture?.id)).toBe(
            true,
          );
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never asks for a capture once one is recorded, nor for a closed order', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const { step, before, decision } of run(steps).decisions) {
          const queuesCapture = decision.effects.some(
            (effect) => effect.kind === 'queue' && effect.job === 'capture',
          );
          if (!queuesCapture) continue;
          expect(before.capture).toBeNull();
          expect(before.paid).toBe(false);
          const order = 'order' in step ? step.order : { state: 'open' };
          expect(order?.state).toBe('open');
          expect(step.kind).not.toBe('cancel');
        }
        for (const state of run(steps).states) {
          if (state.status === 'capturing') expect(state.capture).toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('moves only along the documented state machine, with flags that never turn back', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const { before, decision } of run(steps).decisions) {
          const after = decision.state;
          if (after.status !== before.status) {
            expect(
              isAttemptTransition(before.status, after.status),
              `${before.status} → ${after.status}`,
            ).toBe(true);
          }
          expect(after.paid || !before.paid).toBe(true);
          expect(after.stockReleased || !before.stockReleased).toBe(true);
          expect(after.uncertainOperation !== null).toBe(after.status === 'uncertain');
          if (after.paid) expect(after.capture).not.toBeNull();
        }
      }),
      { numRuns: 400 },
    );
  });

  it('only moves the order’s payment along commerce’s payment machine', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        const trace = run(steps);
        let payment: PaymentState = orderPaymentState(trace.states[0]!, null) ?? 'open';
        for (const { decision } of trace.decisions) {
          for (const effect of decision.effects) {
            if (effect.kind !== 'move-order-payment') continue;
            expect(findTransition('payment', payment, effect.to), `${payment} → ${effect.to}`).toBeDefined();
            payment = effect.to;
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('lets webhooks change nothing but queue a reconcile', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const { step, before, decision } of run(steps).decisions) {
          if (step.kind !== 'webhook') continue;
          expect(decision.state).toBe(before);
          for (const effect of decision.effects)
            expect(effect).toEqual({ kind: 'queue', job: 'reconcile', attemptId: 'a1' });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('explores every status and every documented move (so the properties above are not vacuous)', () => {
    const statuses = new Set<string>();
    const moves = new Set<string>();
    for (const sequence of fc.sample(stepsArb, { numRuns: 3000, seed: 20250301 })) {
      for (const { before, decision } of run(sequence).decisions) {
        statuses.add(decision.state.status);
        moves.add(`${before.status} → ${decision.state.status}`);
      }
    }
    expect([...statuses].sort()).toEqual([...ATTEMPT_STATUSES].sort());
    const documented = ATTEMPT_TRANSITIONS.map(({ from, to }) => `${from} → ${to}`);
    expect(documented.filter((move) => !moves.has(move))).toEqual([]);
  });
});
