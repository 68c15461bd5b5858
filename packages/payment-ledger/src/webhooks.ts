import { type PaymentEffect, queue } from './effects.ts';
import type { ProviderRefund } from './provider.ts';
import type { AttemptState, PaymentAttempt, RefundLedger } from './records.ts';
import { mergeProviderRefunds } from './refunds.ts';

// Provider webhooks arrive at least once, possibly twice within milliseconds and in any order,
// and only after the service verified them with the provider and stored them in its inbox.
// Events about the order or its capture are triggers: the decision is to read the provider again
// (`reconcile`), so a stale PENDING after a COMPLETED, or a duplicate, cannot move anything. Refund
// events carry a refund object that can be merged directly, because refund merging is monotone.

/** Events about the provider order or its capture: answered by reading the provider again. */
export const ATTEMPT_EVENT_TYPES = [
  'CHECKOUT.ORDER.APPROVED',
  'CHECKOUT.ORDER.COMPLETED',
  'CHECKOUT.PAYMENT-APPROVAL.REVERSED',
  'PAYMENT.CAPTURE.COMPLETED',
  'PAYMENT.CAPTURE.PENDING',
  'PAYMENT.CAPTURE.DENIED',
  'PAYMENT.CAPTURE.DECLINED',
] as const;

/** Events whose resource is a refund (or a reversal, which has a refund's shape). */
export const REFUND_EVENT_TYPES = [
  'PAYMENT.CAPTURE.REFUNDED',
  'PAYMENT.CAPTURE.REVERSED',
  'PAYMENT.REFUND.PENDING',
  'PAYMENT.REFUND.FAILED',
] as const;

/** A verified provider event, read by the adapter into what the ledger needs. */
export interface ProviderWebhookEvent {
  readonly id: string;
  readonly eventType: string;
  /**
   * The provider order the event is about: the resource id of `CHECKOUT.ORDER.*`,
   * `supplementary_data.related_ids.order_id` of a capture, `order_id` of an approval reversal.
   */
  readonly providerOrderId: string | null;
  /** The resource's `custom_id` for order and capture events (our attempt id), when present. */
  readonly customId: string | null;
  /** The resource of a refund event. */
  readonly refund: ProviderRefund | null;
}

export type WebhookAction =
  /** Read the provider again: a reconcile job is queued. */
  | 'reconcile'
  /** The refund object was merged into the ledger (which may be unchanged: a repeat). */
  | 'merge-refund'
  /** Keep the event and apply it again later (the ledger is not open yet, or the refund cannot be placed yet). */
  | 'defer'
  /** Not this attempt's, not handled, or nothing left to learn. */
  | 'ignore';

export interface WebhookDecision {
  readonly action: WebhookAction;
  /** Why an event was deferred or ignored. */
  readonly reason: string | null;
  /** The ledger after the event: the given one, or merged for `merge-refund`. */
  readonly ledger: RefundLedger | null;
  readonly effects: readonly PaymentEffect[];
}

const isOneOf = (list: readonly string[], value: string) => list.includes(value);

/**
 * Decides a verified provider event for the attempt it names (and its refund ledger, once the
 * capture is recorded). Applying the same event again, or events in any order, changes nothing
 * twice: order and capture events only queue a reconcile, which decides from the provider's
 * current answer and the record; refund events merge monotonically.
 */
export function decideWebhookEvent(
  attempt: PaymentAttempt,
  state: AttemptState,
  ledger: RefundLedger | null,
  event: ProviderWebhookEvent,
): WebhookDecision {
  const answer = (action: WebhookAction, reason: string | null, effects: readonly PaymentEffect[] = []) => ({
    action,
    reason,
    ledger,
    effects,
  });
  if (
    event.providerOrderId !== null &&
    state.providerOrderId !== null &&
    event.providerOrderId !== state.providerOrderId
  ) {
    return answer('ignore', 'other-order');
  }

  if (isOneOf(ATTEMPT_EVENT_TYPES, event.eventType)) {
    if (event.customId !== null && event.customId !== attempt.id) return answer('ignore', 'other-attempt');
    // A paid attempt, or one a person reviews, has nothing to learn from order or capture events.
    if (state.status === 'captured' || state.status === 'review') return answer('ignore', 'settled');
    return answer('reconcile', null, [queue('reconcile', attempt)]);
  }

  if (isOneOf(REFUND_EVENT_TYPES, event.eventType)) {
    const refund = event.refund;
    if (!refund) return answer('ignore', 'no-refund');
    if (!ledger) return answer('defer', 'no-ledger', [queue('reconcile', attempt)]);
    if (refund.captureId !== null && refund.captureId !== ledger.captureId)
      return answer('ignore', 'other-capture');
    const kind = event.eventType === 'PAYMENT.CAPTURE.REVERSED' ? 'reversal' : 'refund';
    const merged = mergeProviderRefunds(ledger, [refund], kind);
    if (merged.deferred.length > 0) return answer('defer', 'unplaced-refund');
    return { action: 'merge-refund', reason: null, ledger: merged.ledger, effects: merged.effects };
  }

  return answer('ignore', 'unhandled-event-type');
}
