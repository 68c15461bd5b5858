import { fail, ok, type Result } from '@cartwright/commerce';
import { type AttemptDecision, decideAttempt, queue, unchanged } from './effects.ts';
import { type MoneyCode, type ProviderMoney, toProviderValue } from './money.ts';
import type { ProviderAnswer, ProviderOrder } from './provider.ts';
import { contextOf, settle } from './reconcile.ts';
import type { AttemptState, LocalOrder, PaymentAttempt } from './records.ts';

// The two calls an attempt makes: create the provider order, capture it. Each is prepared from
// the record (what to send, with which fixed key) and its answer is decided here; a call whose
// answer is lost leaves the attempt `uncertain`, never failed, because the provider may have
// acted. The service stores the record before it sends, so a killed worker is an unknown answer.

export interface CreateOrderCommand {
  /** `PayPal-Request-Id`: a replay answers the order created first. */
  readonly requestId: string;
  /** Our attempt id as `custom_id`, echoed on captures, refunds and webhooks. */
  readonly customId: string;
  readonly amount: ProviderMoney;
}

/** What the create job sends: only while the attempt is creating or its create is uncertain. */
export function prepareCreate(
  attempt: PaymentAttempt,
  state: AttemptState,
): Result<CreateOrderCommand, 'NOT_CREATING' | MoneyCode> {
  const creating =
    state.status === 'creating' || (state.status === 'uncertain' && state.uncertainOperation === 'create');
  if (!creating)
    return fail('NOT_CREATING', `the attempt is ${state.status}; its provider order is not being created`);
  const value = toProviderValue(attempt.amount);
  if (!value.ok) return value;
  return ok({
    requestId: attempt.requestIds.create,
    customId: attempt.id,
    amount: { currency: attempt.amount.currency, value: value.value },
  });
}

// Provider order ids are upper-case letters and digits, at most 36 (contract §2).
const PROVIDER_ORDER_ID = /^[A-Z0-9]{1,36}$/;
const LOOPBACK_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?\//;

function isApprovalUrl(url: string, attempt: PaymentAttempt): boolean {
  return url.startsWith('https://') || (attempt.contractFixture && LOOPBACK_URL.test(url));
}

/**
 * Decides the create call's answer: an order with an id and an approval link awaits the buyer; a
 * refusal, or an order without a usable id or link, fails the attempt and releases its stock; an
 * unknown answer makes it uncertain and queues the replay (same key, so the same order). Answers
 * reaching an attempt that is no longer creating change nothing.
 */
export function applyCreateResponse(
  attempt: PaymentAttempt,
  state: AttemptState,
  answer: ProviderAnswer<ProviderOrder>,
): AttemptDecision {
  const creating =
    state.status === 'creating' || (state.status === 'uncertain' && state.uncertainOperation === 'create');
  if (!creating) return unchanged(state);
  const failed = (failure: string) =>
    decideAttempt(attempt, state, { status: 'failed', stockReleased: true, failure });
  switch (answer.outcome) {
    case 'unknown':
      return decideAttempt(attempt, state, { status: 'uncertain', uncertainOperation: 'create' }, [
        queue('create', attempt),
      ]);
    case 'refused':
      return failed(answer.issue);
    case 'not-found':
      return failed('INVALID_RESOURCE_ID');
    case 'done': {
      const order = answer.value;
      if (!PROVIDER_ORDER_ID.test(order.id)) return failed('INVALID_PROVIDER_ORDER_ID');
      if (order.approvalUrl === null || !isApprovalUrl(order.approvalUrl, attempt)) {
        // A replay answered after the buyer approved (or paid) carries no approval link: the
        // order exists and the buyer has been there, so reading it decides the rest.
        if (order.status === 'APPROVED' || order.status === 'COMPLETED') {
          return decideAttempt(
            attempt,
            state,
            { status: 'awaiting_approval', providerOrderId: order.id, approvalUrl: null },
            [queue('reconcile', attempt)],
          );
        }
        return failed('NO_APPROVAL_LINK');
      }
      return decideAttempt(attempt, state, {
        status: 'awaiting_approval',
        providerOrderId: order.id,
        approvalUrl: order.approvalUrl,
      });
    }
  }
}

export interface CaptureCommand {
  readonly providerOrderId: string;
  /** `PayPal-Request-Id`: the same for every try, so a retry answers the first capture. */
  readonly requestId: string;
}

export type CaptureStep =
  | { readonly action: 'send'; readonly command: CaptureCommand }
  | { readonly action: 'skip'; readonly decision: AttemptDecision };

/**
 * What the capture job does: send the capture while the attempt is capturing and its order is
 * open. For an order cancelled (or gone) since the capture was queued it sends nothing and
 * withdraws the capture (back to awaiting approval, reconcile queued), so the cancellation can
 * settle; for an attempt that left `capturing` it does nothing.
 */
export function prepareCapture(
  attempt: PaymentAttempt,
  state: AttemptState,
  localOrder: LocalOrder,
): CaptureStep {
  if (state.status !== 'capturing' || state.providerOrderId === null) {
    return { action: 'skip', decision: unchanged(state) };
  }
  if (localOrder === null || localOrder.state === 'cancelled') {
    return {
      action: 'skip',
      decision: decideAttempt(attempt, state, { status: 'awaiting_approval' }, [queue('reconcile', attempt)]),
    };
  }
  return {
    action: 'send',
    command: { providerOrderId: state.providerOrderId, requestId: attempt.requestIds.capture },
  };
}

/** What a refused capture means, by the provider's issue (contract §2.4). */
export type CaptureRefusal = 'reconcile' | 'approval' | 'declined' | 'expired';

/**
 * Issues that may hide a capture that happened (reconcile), that mean the buyer has not approved
 * (yet), that decline the payment, or that mean the order is gone. Any other refusal is definite
 * and ends the attempt `failed`: a 4xx did nothing, and retrying it would only repeat it.
 */
export const CAPTURE_REFUSALS: Readonly<Record<string, CaptureRefusal>> = {
  ORDER_ALREADY_CAPTURED: 'reconcile',
  ORDER_COMPLETION_IN_PROGRESS: 'reconcile',
  ORDER_NOT_APPROVED: 'approval',
  PAYER_ACTION_REQUIRED: 'approval',
  INSTRUMENT_DECLINED: 'declined',
  REDIRECT_PAYER_FOR_ALTERNATE_FUNDING: 'declined',
  TRANSACTION_REFUSED: 'declined',
  PAYER_CANNOT_PAY: 'declined',
  MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED: 'declined',
  DECLINED_DUE_TO_RELATED_TXN: 'declined',
  COMPLIANCE_VIOLATION: 'declined',
  INVALID_RESOURCE_ID: 'expired',
  ORDER_EXPIRED: 'expired',
};

/**
 * Decides the capture call's answer. An order in the answer goes through reconciliation (the same
 * receipt check as any read); if that leaves a capturing (or uncertain) attempt capturing, the
 * answer showed no capture, so it becomes uncertain instead of capturing again off that answer.
 * A lost answer makes it uncertain and queues a reconcile: the provider is read before anything
 * is sent again. Refusals follow `CAPTURE_REFUSALS`.
 */
export function applyCaptureResponse(
  attempt: PaymentAttempt,
  state: AttemptState,
  answer: ProviderAnswer<ProviderOrder>,
  localOrder: LocalOrder,
): AttemptDecision {
  const uncertain = () =>
    decideAttempt(attempt, state, { status: 'uncertain', uncertainOperation: 'capture' }, [
      queue('reconcile', attempt),
    ]);
  if (answer.outcome === 'done' || answer.outcome === 'not-found') {
    const decision = settle(attempt, state, answer, contextOf(localOrder));
    const ours = state.status === 'capturing' || state.status === 'uncertain';
    return ours && decision.state.status === 'capturing' ? uncertain() : decision;
  }
  if (state.status !== 'capturing') return unchanged(state);
  if (answer.outcome === 'unknown') return uncertain();
  switch (Object.hasOwn(CAPTURE_REFUSALS, answer.issue) ? CAPTURE_REFUSALS[answer.issue] : 'failed') {
    case 'reconcile':
      return uncertain();
    case 'approval':
      return decideAttempt(attempt, state, { status: 'awaiting_approval' });
    case 'declined':
      return decideAttempt(attempt, state, {
        status: 'declined',
        stockReleased: true,
        failure: answer.issue,
      });
    case 'expired':
      return decideAttempt(attempt, state, { status: 'expired', stockReleased: true, failure: answer.issue });
    default:
      return decideAttempt(attempt, state, { status: 'failed', stockReleased: true, failure: answer.issue });
  }
}
