import { receiptOf, verifyCaptureReceipt } from './capture.ts';
import { type AttemptDecision, decideAttempt, queue, unchanged } from './effects.ts';
import {
  CAPTURED_STATUSES,
  type CaptureStatus,
  type ProviderAnswer,
  type ProviderCapture,
  type ProviderOrder,
} from './provider.ts';
import {
  type AttemptState,
  type AttemptStatus,
  type LocalOrder,
  type PaymentAttempt,
  type RecordedCapture,
  UNPAID_FINAL_STATUSES,
} from './records.ts';

// The provider's answer to a read is the truth; every decision about an attempt that is not the
// direct answer to our own call goes through `settle`. It never asks for a second capture of an
// attempt that has one (the capture key is fixed, and a capture seen here is recorded instead),
// never captures for a cancelled order, and never lets a paid attempt fall back.

/** How the attempt's local order constrains a decision. */
export interface SettleContext {
  /** The local order is cancelled or gone: capture nothing, and money arriving now is late. */
  readonly orderClosed: 'cancelled' | 'missing' | null;
  /** A cancellation is being decided: capture nothing, give up what has no money. */
  readonly cancelling: boolean;
}

export const isUnpaidFinal = (status: AttemptStatus) =>
  UNPAID_FINAL_STATUSES.some((final) => final === status);

const isUncertain = (state: AttemptState, operation: 'create' | 'capture') =>
  state.status === 'uncertain' && state.uncertainOperation === operation;

const CAPTURE_PREFERENCE: readonly CaptureStatus[] = [...CAPTURED_STATUSES, 'PENDING', 'DECLINED', 'FAILED'];

/** The capture that says most about the money: a captured one before a pending one before a declined one. */
function pickCapture(captures: readonly ProviderCapture[]): ProviderCapture | undefined {
  for (const status of CAPTURE_PREFERENCE) {
    const found = captures.find((capture) => capture.status === status);
    if (found) return found;
  }
  return undefined;
}

const cancel = (attempt: PaymentAttempt, state: AttemptState) =>
  decideAttempt(attempt, state, { status: 'cancelled', stockReleased: true });

export function contextOf(localOrder: LocalOrder): SettleContext {
  if (localOrder === null) return { orderClosed: 'missing', cancelling: false };
  return { orderClosed: localOrder.state === 'cancelled' ? 'cancelled' : null, cancelling: false };
}

/** The one path from a provider read (or a capture's answer) to the attempt's next record. */
export function settle(
  attempt: PaymentAttempt,
  state: AttemptState,
  answer: ProviderAnswer<ProviderOrder>,
  context: SettleContext,
): AttemptDecision {
  const stop = context.cancelling || context.orderClosed !== null;
  // Nobody holds an approval link yet, so nothing can be captured: cancelling is safe.
  if (state.status === 'creating') return stop ? cancel(attempt, state) : unchanged(state);
  // The create's answer is unknown; its replay (queued when it became uncertain) settles it.
  if (isUncertain(state, 'create')) return unchanged(state);
  if (state.status === 'captured') return unchanged(state);
  switch (answer.outcome) {
    case 'unknown':
    case 'refused':
      return unchanged(state);
    case 'not-found':
      return settleNotFound(attempt, state);
    case 'done':
      return state.status === 'review'
        ? settleReview(attempt, state, answer.value)
        : settleOrder(attempt, state, answer.value, context, stop);
  }
}

function settleNotFound(attempt: PaymentAttempt, state: AttemptState): AttemptDecision {
  // A pending capture is money on its way, and a review is a person's: a 404 proves neither gone.
  if (state.status === 'awaiting_approval' || state.status === 'capturing' || isUncertain(state, 'capture')) {
    return decideAttempt(attempt, state, {
      status: 'expired',
      stockReleased: true,
      failure: 'INVALID_RESOURCE_ID',
    });
  }
  return unchanged(state);
}

function settleOrder(
  attempt: PaymentAttempt,
  state: AttemptState,
  order: ProviderOrder,
  context: SettleContext,
  stop: boolean,
): AttemptDecision {
  const foreign = order.id !== state.providerOrderId;
  const late = context.orderClosed !== null || isUnpaidFinal(state.status);
  const capture = pickCapture(order.captures);
  if (capture) {
    const verdict = verifyCaptureReceipt(attempt, state, receiptOf(order, capture));
    const recorded: RecordedCapture = { id: capture.id, status: capture.status, amount: verdict.amount };
    switch (verdict.verdict) {
      case 'paid':
        if (context.orderClosed === 'missing') {
          return decideAttempt(attempt, state, {
            status: 'review',
            capture: recorded,
            review: { reason: 'order-missing', mismatches: [] },
          });
        }
        return late
          ? decideAttempt(attempt, state, {
              status: 'review',
              capture: recorded,
              paid: true,
              review: { reason: 'late-capture', mismatches: [] },
            })
          : decideAttempt(attempt, state, { status: 'captured', capture: recorded, paid: true });
      case 'mismatch':
        return decideAttempt(attempt, state, {
          status: 'review',
          capture: recorded,
          review: { reason: 'receipt-mismatch', mismatches: [...verdict.mismatches] },
        });
      case 'pending':
        if (late) {
          return decideAttempt(attempt, state, {
            status: 'review',
            capture: recorded,
            review: { reason: 'late-capture', mismatches: [] },
          });
        }
        if (state.status === 'pending_capture' && state.capture?.id === recorded.id) return unchanged(state);
        return decideAttempt(attempt, state, { status: 'pending_capture', capture: recorded });
      case 'declined':
        if (foreign || isUnpaidFinal(state.status)) return unchanged(state);
        return decideAttempt(attempt, state, {
          status: 'declined',
          capture: recorded,
          stockReleased: true,
          failure: `CAPTURE_${verdict.status}`,
        });
    }
  }

  if (foreign || isUnpaidFinal(state.status) || state.status === 'pending_capture') return unchanged(state);
  switch (order.status) {
    case 'APPROVED':
      // A capturing attempt's capture job owns the call (`prepareCapture` withdraws it for a closed order).
      if (state.status === 'capturing') return unchanged(state);
      return stop
        ? cancel(attempt, state)
        : decideAttempt(attempt, state, { status: 'capturing' }, [queue('capture', attempt)]);
    case 'CREATED':
    case 'SAVED':
    case 'PAYER_ACTION_REQUIRED':
      if (state.status === 'capturing') return unchanged(state);
      if (stop) return cancel(attempt, state);
      // An unknown capture of an order the buyer has not approved did not happen.
      return state.status === 'uncertain'
        ? decideAttempt(attempt, state, { status: 'awaiting_approval' })
        : unchanged(state);
    case 'VOIDED':
      return decideAttempt(attempt, state, {
        status: 'failed',
        stockReleased: true,
        failure: 'ORDER_VOIDED',
      });
    case 'COMPLETED':
      return decideAttempt(attempt, state, {
        status: 'review',
        review: { reason: 'provider-anomaly', mismatches: [] },
      });
  }
}

/** In review only a pending capture's progress is recorded; a late capture that completes is paid. */
function settleReview(attempt: PaymentAttempt, state: AttemptState, order: ProviderOrder): AttemptDecision {
  const known = state.capture;
  const capture = order.captures.find((candidate) => candidate.id === known?.id);
  if (!known || !capture || known.status !== 'PENDING' || capture.status === 'PENDING')
    return unchanged(state);
  const verdict = verifyCaptureReceipt(attempt, state, receiptOf(order, capture));
  const recorded: RecordedCapture = { id: capture.id, status: capture.status, amount: verdict.amount };
  const paid = verdict.verdict === 'paid' && state.review?.reason === 'late-capture';
  return decideAttempt(attempt, state, { capture: recorded, paid });
}

/**
 * Decides what the provider's current answer about the attempt's order means, given the local
 * order (null when it no longer exists). A captured, matching receipt pays the order once; a
 * capture for a cancelled order (or after the attempt gave up) is a late capture in review; an
 * APPROVED order without a capture queues the capture (never for a closed order); a 404 expires
 * an unpaid attempt; an unknown or refused read changes nothing.
 */
export function reconcile(
  attempt: PaymentAttempt,
  state: AttemptState,
  answer: ProviderAnswer<ProviderOrder>,
  localOrder: LocalOrder,
): AttemptDecision {
  return settle(attempt, state, answer, contextOf(localOrder));
}

export type CancellationOutcome =
  /** No money will be taken; the stock is released (now, or already earlier). */
  | 'cancelled'
  /** The provider captured: the order is paid; refund instead of cancelling the payment. */
  | 'captured'
  /** Money moved in a way a person must look at. */
  | 'review'
  /** An operation is in flight, uncertain or pending at the provider: decide again once it settles. */
  | 'wait';

export interface CancellationDecision extends AttemptDecision {
  readonly outcome: CancellationOutcome;
}

function outcomeOf(state: AttemptState): CancellationOutcome {
  if (isUnpaidFinal(state.status)) return 'cancelled';
  if (state.status === 'captured') return 'captured';
  if (state.status === 'review') return 'review';
  return 'wait';
}

/**
 * Decides a cancellation after reconciling with the provider's current answer (`null` when the
 * attempt has no provider order to read): an attempt with no money and nothing in flight is
 * cancelled and its stock released once; a capture found on the way wins (`captured`); anything
 * uncertain, in flight or pending keeps its reservation and answers `wait`.
 */
export function decideCancellation(
  attempt: PaymentAttempt,
  state: AttemptState,
  answer: ProviderAnswer<ProviderOrder> | null,
): CancellationDecision {
  const unknown: ProviderAnswer<ProviderOrder> = { outcome: 'unknown', reason: 'no provider answer' };
  const decision = settle(attempt, state, answer ?? unknown, { orderClosed: null, cancelling: true });
  return { ...decision, outcome: outcomeOf(decision.state) };
}
