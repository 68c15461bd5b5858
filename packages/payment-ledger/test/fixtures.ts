import { expect } from 'vitest';
import { createAttempt } from '../src/attempt.ts';
import type { AttemptDecision, PaymentEffect } from '../src/effects.ts';
import type { Money } from '../src/money.ts';
import type {
  CaptureStatus,
  ProviderAnswer,
  ProviderCapture,
  ProviderOrder,
  ProviderOrderStatus,
  ProviderRefund,
  ProviderRefundStatus,
} from '../src/provider.ts';
import { applyCaptureResponse, applyCreateResponse } from '../src/provider-calls.ts';
import { reconcile } from '../src/reconcile.ts';
import type { AttemptInput, AttemptState, LocalOrder, PaymentAttempt, RefundLedger } from '../src/records.ts';
import { openRefundLedger } from '../src/refunds.ts';

// Builders shared by the tests. Records in a given status are reached through the package's own
// decisions, never written by hand, so a test cannot start from a record the package never makes.

export const ATTEMPT_ID = 'a1';
export const ORDER_ID = 'o1';
export const PROVIDER_ORDER_ID = '5O190127TN364715T';
export const CAPTURE_ID = '3C679366HH908993F';
export const MERCHANT_ID = 'MERCHANT1';
export const APPROVAL_URL = `https://www.sandbox.paypal.com/checkoutnow?token=${PROVIDER_ORDER_ID}`;

export const eur = (amount: number): Money => ({ amount, currency: 'EUR', precision: 2 });

export function attemptInput(overrides: Partial<AttemptInput> = {}): AttemptInput {
  return {
    id: ATTEMPT_ID,
    orderId: ORDER_ID,
    amount: eur(1290),
    items: [{ productId: 'p1', sku: 'SKU-1', quantity: 2 }],
    environment: 'sandbox',
    merchantId: MERCHANT_ID,
    contractFixture: false,
    createdAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export interface Subject {
  readonly attempt: PaymentAttempt;
  readonly state: AttemptState;
}

export function newAttempt(overrides: Partial<AttemptInput> = {}): Subject {
  const created = createAttempt(attemptInput(overrides));
  if (!created.ok) throw new Error(`fixture attempt refused: ${created.detail}`);
  return { attempt: created.value.attempt, state: created.value.state };
}

export const OPEN_ORDER: LocalOrder = { state: 'open' };
export const CANCELLED_ORDER: LocalOrder = { state: 'cancelled' };

export const done = <T>(value: T): ProviderAnswer<T> => ({ outcome: 'done', value });
export const refused = (issue: string, status = 422): ProviderAnswer<never> => ({
  outcome: 'refused',
  status,
  issue,
  detail: issue,
});
export const notFound: ProviderAnswer<never> = { outcome: 'not-found' };
export const unknown: ProviderAnswer<never> = { outcome: 'unknown', reason: 'timeout' };

export function capture(
  overrides: Partial<ProviderCapture> & { status?: CaptureStatus } = {},
): ProviderCapture {
  return {
    id: CAPTURE_ID,
    status: 'COMPLETED',
    amount: { currency: 'EUR', value: '12.90' },
    customId: ATTEMPT_ID,
    merchantId: MERCHANT_ID,
    ...overrides,
  };
}

export function order(
  status: ProviderOrderStatus,
  captures: readonly ProviderCapture[] = [],
  overrides: Partial<ProviderOrder> = {},
): ProviderOrder {
  return {
    id: PROVIDER_ORDER_ID,
    status,
    approvalUrl: APPROVAL_URL,
    merchantId: MERCHANT_ID,
    captures,
    ...overrides,
  };
}

export const completedOrder = (overrides: Partial<ProviderCapture> = {}) =>
  order('COMPLETED', [capture(overrides)]);

export function refund(
  status: ProviderRefundStatus,
  value: string,
  overrides: Partial<ProviderRefund> = {},
): ProviderRefund {
  return {
    id: 'R1',
    status,
    amount: { currency: 'EUR', value },
    captureId: CAPTURE_ID,
    customId: null,
    ...overrides,
  };
}

/** Applies a decision to a subject, keeping the attempt. */
export const advance = (subject: Subject, decision: AttemptDecision): Subject => ({
  attempt: subject.attempt,
  state: decision.state,
});

export type Reachable =
  | 'creating'
  | 'awaiting_approval'
  | 'capturing'
  | 'uncertain-create'
  | 'uncertain-capture'
  | 'pending_capture'
  | 'captured'
  | 'declined'
  | 'failed'
  | 'expired'
  | 'cancelled'
  | 'review';

/** An attempt driven to `status` through the package's own decisions. */
export function attemptIn(status: Reachable, overrides: Partial<AttemptInput> = {}): Subject {
  const fresh = newAttempt(overrides);
  const { attempt } = fresh;
  const step = (subject: Subject, decision: (s: Subject) => AttemptDecision) =>
    advance(subject, decision(subject));
  const awaiting = step(fresh, (s) => applyCreateResponse(attempt, s.state, done(order('CREATED'))));
  const capturing = step(awaiting, (s) => reconcile(attempt, s.state, done(order('APPROVED')), OPEN_ORDER));
  switch (status) {
    case 'creating':
      return fresh;
    case 'awaiting_approval':
      return awaiting;
    case 'capturing':
      return capturing;
    case 'uncertain-create':
      return step(fresh, (s) => applyCreateResponse(attempt, s.state, unknown));
    case 'uncertain-capture':
      return step(capturing, (s) => applyCaptureResponse(attempt, s.state, unknown, OPEN_ORDER));
    case 'pending_capture':
      return step(capturing, (s) =>
        applyCaptureResponse(attempt, s.state, done(completedOrder({ status: 'PENDING' })), OPEN_ORDER),
      );
    case 'captured':
      return step(capturing, (s) =>
        applyCaptureResponse(attempt, s.state, done(completedOrder()), OPEN_ORDER),
      );
    case 'declined':
      return step(capturing, (s) =>
        applyCaptureResponse(attempt, s.state, done(completedOrder({ status: 'DECLINED' })), OPEN_ORDER),
      );
    case 'failed':
      return step(fresh, (s) => applyCreateResponse(attempt, s.state, refused('UNPROCESSABLE_ENTITY')));
    case 'expired':
      return step(awaiting, (s) => reconcile(attempt, s.state, notFound, OPEN_ORDER));
    case 'cancelled':
      return step(awaiting, (s) => reconcile(attempt, s.state, done(order('CREATED')), CANCELLED_ORDER));
    case 'review':
      return step(capturing, (s) =>
        applyCaptureResponse(
          attempt,
          s.state,
          done(completedOrder({ amount: { currency: 'EUR', value: '1.00' } })),
          OPEN_ORDER,
        ),
      );
  }
}

export function ledgerOf(subject: Subject): RefundLedger {
  const ledger = openRefundLedger(subject.attempt, subject.state);
  if (!ledger.ok) throw new Error(`fixture ledger refused: ${ledger.detail}`);
  return ledger.value;
}

export const kinds = (effects: readonly PaymentEffect[]) => effects.map((effect) => effect.kind);

/** The value of a result the test expects to succeed. */
export function succeeded<T>(
  result: { ok: true; value: T } | { ok: false; code: string; detail: string },
): T {
  if (!result.ok) expect.fail(`expected success, got ${result.code}: ${result.detail}`);
  return result.value;
}
