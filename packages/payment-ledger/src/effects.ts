import type { PaymentState } from '@cartwright/commerce';
import { orderPaymentState } from './payment-state.ts';
import type {
  AttemptState,
  PaymentAttempt,
  PaymentEnvironment,
  ReceiptMismatch,
  RefundLedger,
  RefundRecord,
  ReservedItem,
  ReviewReason,
} from './records.ts';

// Decisions answer a new record and the effects the service carries out, in the listed order,
// in the transaction that stores the record (jobs and events as outbox rows). The one-time
// effects (pay, release stock, review) are never chosen by a branch: `decideAttempt` derives them
// from the flags that turned in the new record, and a flag only turns once.

export type PaymentJob = 'create' | 'capture' | 'reconcile';

export interface PaymentCapturedPayload {
  readonly attemptId: string;
  readonly orderId: string;
  readonly providerOrderId: string;
  readonly captureId: string;
  readonly amount: number;
  readonly currency: string;
  readonly precision: number;
  readonly environment: PaymentEnvironment;
  readonly contractFixture: boolean;
  /** The order was cancelled or the attempt had given up when the money arrived (also in review). */
  readonly lateCapture: boolean;
}

export interface PaymentRefundedPayload {
  readonly attemptId: string;
  readonly orderId: string;
  readonly captureId: string;
  readonly refundId: string;
  readonly providerRefundId: string | null;
  readonly amount: number;
  readonly currency: string;
  readonly precision: number;
  readonly origin: RefundRecord['origin'];
  readonly kind: RefundRecord['kind'];
}

export type PaymentEffect =
  /** Enqueue provider work for the attempt (a durable job row). */
  | { readonly kind: 'queue'; readonly job: PaymentJob; readonly attemptId: string }
  /** Enqueue sending (or replaying) one refund. */
  | { readonly kind: 'queue'; readonly job: 'refund'; readonly attemptId: string; readonly refundId: string }
  /** Hand the attempt's reserved SKU quantities back to stock. */
  | {
      readonly kind: 'release-stock';
      readonly attemptId: string;
      readonly orderId: string;
      readonly items: readonly ReservedItem[];
    }
  /** Move the order's payment machine (commerce) to `to`, source `provider`; same state is a no-op. */
  | { readonly kind: 'move-order-payment'; readonly orderId: string; readonly to: PaymentState }
  | { readonly kind: 'emit'; readonly event: 'payment.captured'; readonly payload: PaymentCapturedPayload }
  | { readonly kind: 'emit'; readonly event: 'payment.refunded'; readonly payload: PaymentRefundedPayload }
  /** Put the order in front of a person: money moved where it should not have, or answers disagree. */
  | {
      readonly kind: 'move-order-to-payment-review';
      readonly attemptId: string;
      readonly orderId: string;
      readonly reason: ReviewReason;
      readonly detail: string;
      readonly mismatches: readonly ReceiptMismatch[];
    };

export type EffectKind = PaymentEffect['kind'];

/** Every effect kind, for documentation (`readme.test.ts` type-checks that it is complete). */
export const EFFECT_KINDS = [
  'queue',
  'release-stock',
  'move-order-payment',
  'emit',
  'move-order-to-payment-review',
] as const satisfies readonly EffectKind[];

export interface AttemptDecision {
  readonly state: AttemptState;
  readonly effects: readonly PaymentEffect[];
}

export interface LedgerDecision {
  readonly ledger: RefundLedger;
  readonly effects: readonly PaymentEffect[];
}

export const queue = (job: PaymentJob, attempt: PaymentAttempt): PaymentEffect => ({
  kind: 'queue',
  job,
  attemptId: attempt.id,
});

const REVIEW_DETAIL: Record<ReviewReason, string> = {
  'receipt-mismatch': 'the provider captured money, but its receipt does not match the attempt',
  'late-capture': 'the provider captured money after the order was cancelled or the attempt gave up',
  'order-missing': 'the provider captured money for an order that no longer exists',
  'provider-anomaly': 'the provider reports a completed order without a capture',
  'refund-mismatch': 'the provider reports a refund that does not match the ledger',
  'refund-contradiction': 'the provider reports a settled refund both completed and failed',
};

/** The review effect for `reason`; review is idempotent for the service (already in review: no-op). */
export function reviewEffect(
  ids: { readonly attemptId: string; readonly orderId: string },
  reason: ReviewReason,
  mismatches: readonly ReceiptMismatch[] = [],
): PaymentEffect {
  const fields = mismatches.map((mismatch) => mismatch.field).join(', ');
  return {
    kind: 'move-order-to-payment-review',
    attemptId: ids.attemptId,
    orderId: ids.orderId,
    reason,
    detail: fields ? `${REVIEW_DETAIL[reason]} (${fields})` : REVIEW_DETAIL[reason],
    mismatches,
  };
}

/** The unchanged record: the observation taught nothing new. */
export function unchanged(state: AttemptState): AttemptDecision {
  return { state, effects: [] };
}

/**
 * The new record (`before` with `changes`) and its effects: the order payment move when the
 * derived state changed, `payment.captured` when `paid` turned, `release-stock` when
 * `stockReleased` turned, review when a review began, then the queued jobs. The flags are kept
 * once set, whatever `changes` says, and `uncertainOperation` is cleared outside `uncertain`.
 */
export function decideAttempt(
  attempt: PaymentAttempt,
  before: AttemptState,
  changes: Partial<AttemptState>,
  queued: readonly PaymentEffect[] = [],
): AttemptDecision {
  const merged: AttemptState = { ...before, ...changes };
  const state: AttemptState = {
    ...merged,
    paid: before.paid || merged.paid,
    stockReleased: before.stockReleased || merged.stockReleased,
    uncertainOperation: merged.status === 'uncertain' ? merged.uncertainOperation : null,
  };
  const effects: PaymentEffect[] = [];
  const paymentBefore = orderPaymentState(before, null);
  const paymentAfter = orderPaymentState(state, null);
  if (paymentAfter !== null && paymentAfter !== paymentBefore) {
    effects.push({ kind: 'move-order-payment', orderId: attempt.orderId, to: paymentAfter });
  }
  if (state.paid && !before.paid) {
    // Only a verified capture sets `paid`; reaching here without one is a bug in this package.
    if (!state.capture || !state.providerOrderId) throw new Error('paid without a recorded capture');
    effects.push({
      kind: 'emit',
      event: 'payment.captured',
      payload: {
        attemptId: attempt.id,
        orderId: attempt.orderId,
        providerOrderId: state.providerOrderId,
        captureId: state.capture.id,
        amount: attempt.amount.amount,
        currency: attempt.amount.currency,
        precision: attempt.amount.precision,
        environment: attempt.environment,
        contractFixture: attempt.contractFixture,
        lateCapture: state.review?.reason === 'late-capture',
      },
    });
  }
  if (state.stockReleased && !before.stockReleased && attempt.items.length > 0) {
    effects.push({
      kind: 'release-stock',
      attemptId: attempt.id,
      orderId: attempt.orderId,
      items: attempt.items,
    });
  }
  if (state.review && !before.review) {
    effects.push(
      reviewEffect(
        { attemptId: attempt.id, orderId: attempt.orderId },
        state.review.reason,
        state.review.mismatches,
      ),
    );
  }
  effects.push(...queued);
  return { state, effects };
}
