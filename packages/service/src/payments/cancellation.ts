import {
  type Executor,
  hasQueuedPaymentJob,
  listPaymentAttempts,
  queuePaymentJob,
} from '@cartwright/repository';
import type { Services } from '../kernel/services.ts';

// Cancelling an order whose money is in the provider's hands: the provider is asked first. The
// order's own machine moves to cancelled at once (the merchant's decision stands), but its stock
// stays reserved until the payment-worker has read the provider: the reconciliation of an
// attempt whose order is cancelled captures nothing more, cancels an attempt with no money and
// nothing in flight and releases its stock once, and puts a capture it finds in payment review
// (the money is refunded, not forgotten). Only repository calls here, so the order machine can
// ask without depending on the rest of the payments feature.

/** Attempt statuses whose outcome the provider may still change. */
export const OPEN_ATTEMPT_STATUSES: readonly string[] = [
  'creating',
  'awaiting_approval',
  'capturing',
  'pending_capture',
  'uncertain',
];

/**
 * Queues a reconciliation of every open attempt of the order being cancelled, in the caller's
 * transaction. Answers true when there was one: the caller must then leave the stock reserved
 * (the reconciliation releases it once the provider confirms no money moved).
 */
export async function cancelProviderPayments(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
): Promise<boolean> {
  const open = (await listPaymentAttempts(tx, tenantId, orderId)).filter((row) =>
    OPEN_ATTEMPT_STATUSES.includes(row.status),
  );
  for (const row of open) await queueReconcile(tx, services, tenantId, row.id);
  return open.length > 0;
}

/**
 * Asks the payment-worker to read the provider's state of an attempt, unless a reconciliation is
 * already queued and not started. Answers whether it queued one.
 */
export async function queueReconcile(
  tx: Executor,
  services: Services,
  tenantId: string,
  attemptId: string,
): Promise<boolean> {
  if (await hasQueuedPaymentJob(tx, tenantId, attemptId, 'reconcile')) return false;
  await queuePaymentJob(tx, {
    tenantId,
    id: services.ids.next(),
    attemptId,
    kind: 'reconcile',
    availableAt: services.clock.now(),
  });
  return true;
}
