import {
  openRefundLedger,
  type RefundRequestFailure,
  refundBalance,
  requestRefund,
} from '@cartwright/payment-ledger';
import {
  countUnresolvedPaymentJobs,
  type Executor,
  findOrder,
  findPaymentAttempt,
  listPaymentAttempts,
  listPaymentAttemptsInStatus,
  listPaymentJobs,
  type PaymentAttemptRow,
} from '@cartwright/repository';
import { decodeChangeCursor, encodeChangeCursor, unknownCursor } from '../kernel/cursor.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import type { Services } from '../kernel/services.ts';
import { loadAttempt, storeDecision } from './attempts.ts';
import { OPEN_ATTEMPT_STATUSES, queueReconcile } from './cancellation.ts';

// What merchants and buyers do with an order's provider payment: read its ledger, ask for a
// reconciliation, request a refund, and come back from the provider's approval page. None of these
// marks anything paid: only the payment-worker's decisions on the provider's own answers do.

/** Statuses in which an attempt may still change by what the provider says. */
const OPEN_STATUSES = new Set(OPEN_ATTEMPT_STATUSES);

/** The ledger of an order: attempts with their capture, refunds, balance and recent jobs. */
export async function orderPaymentLedger(db: Executor, tenantId: string, orderId: string) {
  const order = await findOrder(db, tenantId, orderId);
  if (!order) return fail('NOT_FOUND', 'No order with this id exists in this shop.');
  return ok({
    orderId,
    paymentState: order.paymentState,
    attempts: await attemptViews(db, tenantId, await listPaymentAttempts(db, tenantId, orderId)),
    unresolved: await countUnresolvedPaymentJobs(db, tenantId),
  });
}

/** The merchant's view of attempts, each with its recent jobs. */
async function attemptViews(db: Executor, tenantId: string, rows: readonly PaymentAttemptRow[]) {
  const jobs = await listPaymentJobs(
    db,
    tenantId,
    rows.map((row) => row.id),
    100,
  );
  return rows.map((row) => attemptView(row, jobs));
}

function attemptView(row: PaymentAttemptRow, jobs: Awaited<ReturnType<typeof listPaymentJobs>>) {
  const { state, refunds } = loadAttempt(row);
  return {
    id: row.id,
    status: state.status,
    provider: row.provider,
    environment: row.environment,
    contractFixture: row.contractFixture,
    adapterVersion: row.adapterVersion,
    amount: row.amount,
    currency: row.currency,
    precision: row.precision,
    providerOrderId: state.providerOrderId,
    approvalUrl: state.approvalUrl,
    capture: state.capture
      ? { id: state.capture.id, status: state.capture.status, amount: state.capture.amount?.amount ?? null }
      : null,
    paid: state.paid,
    stockReleased: state.stockReleased,
    review: state.review ? { reason: state.review.reason, mismatches: [...state.review.mismatches] } : null,
    failure: state.failure,
    refunds: (refunds?.refunds ?? []).map((refund) => ({
      id: refund.id,
      amount: refund.amount.amount,
      status: refund.status,
      providerRefundId: refund.providerRefundId,
      origin: refund.origin,
      kind: refund.kind,
      failure: refund.failure,
    })),
    balance: refunds ? refundBalance(refunds) : null,
    jobs: jobs
      .filter((job) => job.attemptId === row.id)
      .map((job) => ({
        id: job.id,
        kind: job.kind,
        status: job.status,
        tries: job.tries,
        error: job.error ?? null,
        createdAt: job.createdAt.toISOString(),
      })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Queues a reconciliation of every attempt of the order that the provider may still change. */
export async function reconcileOrderPayments(
  services: Services,
  tenantId: string,
  orderId: string,
): Promise<Result<{ orderId: string; queued: number }>> {
  return services.database.transaction(async (tx) => {
    const order = await findOrder(tx, tenantId, orderId);
    if (!order) return fail('NOT_FOUND', 'No order with this id exists in this shop.');
    let queued = 0;
    for (const row of await listPaymentAttempts(tx, tenantId, orderId)) {
      if (row.providerOrderId === null || !OPEN_STATUSES.has(row.status)) continue;
      if (await queueReconcile(tx, services, tenantId, row.id)) queued += 1;
    }
    return ok({ orderId, queued });
  });
}

/**
 * Reserves a refund of `amount` (minor units) against the remaining captured balance of the
 * order's captured attempt, under the attempt's row lock, and queues sending it. A replay of the
 * same Idempotency-Key answers the same refund; an amount past the balance is refused with the
 * remaining balance. Idempotency keys are scoped to the order.
 */
export async function requestOrderRefund(
  services: Services,
  tenantId: string,
  orderId: string,
  request: { readonly amount: number; readonly idempotencyKey: string },
) {
  return services.database.transaction(async (tx) => {
    const order = await findOrder(tx, tenantId, orderId);
    if (!order) return fail('NOT_FOUND', 'No order with this id exists in this shop.');
    const captured = (await listPaymentAttempts(tx, tenantId, orderId)).filter(
      (row) => row.status === 'captured',
    );
    const row = captured.at(-1);
    if (!row) return fail('CONFLICT', 'The order has no captured provider payment to refund.');
    const loaded = loadAttempt((await findPaymentAttempt(tx, tenantId, row.id, 'update'))!);
    const opened = loaded.refunds ? ok(loaded.refunds) : openRefundLedger(loaded.attempt, loaded.state);
    if (!opened.ok) return fail('CONFLICT', opened.detail);
    const open = opened.value;
    const requested = requestRefund(open, {
      refundId: services.ids.next(),
      idempotencyKey: request.idempotencyKey,
      amount: {
        amount: request.amount,
        currency: loaded.attempt.amount.currency,
        precision: loaded.attempt.amount.precision,
      },
    });
    if (!requested.ok) return refundRefusal(requested);
    const { ledger: after, refund, replayed, effects } = requested.value;
    if (!replayed) await storeDecision(tx, services, loaded, { refunds: after, effects });
    return ok({
      orderId,
      attemptId: loaded.attempt.id,
      refund: { id: refund.id, amount: refund.amount.amount, status: refund.status },
      replayed,
      balance: refundBalance(replayed ? open : after),
    });
  });
}

/** The ledger's refusal of a refund request as the API's problem. */
function refundRefusal(refused: RefundRequestFailure) {
  switch (refused.code) {
    case 'REFUND_EXCEEDS_BALANCE':
      return fail('REFUND_EXCEEDS_BALANCE', refused.detail, { extensions: { remaining: refused.remaining } });
    case 'INVALID_REFUND_AMOUNT':
    case 'AMOUNT_NOT_REPRESENTABLE':
      return fail('VALIDATION_FAILED', refused.detail, {
        errors: [{ pointer: '/amount', message: refused.detail }],
      });
    case 'INVALID_IDEMPOTENCY_KEY':
      return fail('VALIDATION_FAILED', refused.detail, {
        errors: [{ pointer: '/idempotencyKey', message: refused.detail }],
      });
    default:
      // A key reused for another amount, or an internal id clash: the request conflicts with a refund.
      return fail('CONFLICT', refused.detail, { extensions: { reason: refused.code } });
  }
}

/**
 * The buyer came back from the provider's approval page. The return proves nothing (anyone can
 * open the URL): it only asks the payment-worker to read the provider's order, which captures it
 * when the provider says it is approved. The `token` must be the attempt's provider order id.
 */
export async function returnFromProvider(
  services: Services,
  tenantId: string,
  attemptId: string,
  token: string,
): Promise<Result<{ attemptId: string; status: string }>> {
  return services.database.transaction(async (tx) => {
    const row = await findPaymentAttempt(tx, tenantId, attemptId, 'update');
    if (!row || row.providerOrderId === null || row.providerOrderId !== token) {
      return fail('NOT_FOUND', 'No payment is waiting for this return.');
    }
    if (OPEN_STATUSES.has(row.status)) await queueReconcile(tx, services, tenantId, row.id);
    return ok({ attemptId: row.id, status: row.status });
  });
}

/** The buyer's view of an order's payment: the newest attempt's status and where to approve it. */
export async function buyerPayment(db: Executor, tenantId: string, orderId: string) {
  const [latest] = (await listPaymentAttempts(db, tenantId, orderId)).reverse();
  if (!latest) return null;
  const { state } = loadAttempt(latest);
  return {
    attemptId: latest.id,
    status: state.status,
    approvalUrl: state.status === 'awaiting_approval' ? state.approvalUrl : null,
    amount: latest.amount,
    currency: latest.currency,
  };
}

/** Attempt statuses a merchant should look at: money uncertain, in review, or waiting at the provider. */
export const ATTENTION_STATUSES: readonly string[] = ['uncertain', 'review', 'pending_capture'];

/**
 * The shop's attempts in `statuses` (default: those needing attention), most recently changed
 * first, a page at a time (`before` is the previous page's `next`), with the shop's counts of
 * uncertain and failed payment jobs, whatever the filter.
 */
export async function listShopPayments(
  db: Executor,
  tenantId: string,
  query: { readonly statuses?: readonly string[]; readonly limit: number; readonly before?: string },
) {
  const cursor = query.before ? decodeChangeCursor(query.before) : undefined;
  if (query.before && !cursor) return unknownCursor('/before');
  const rows = await listPaymentAttemptsInStatus(db, tenantId, query.statuses ?? ATTENTION_STATUSES, {
    limit: query.limit + 1,
    ...(cursor ? { before: cursor } : {}),
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const views = await attemptViews(db, tenantId, page);
  return ok({
    items: page.map((row, index) => ({ orderId: row.orderId, ...views[index]! })),
    next: rows.length > query.limit && last ? encodeChangeCursor(last) : null,
    unresolved: await countUnresolvedPaymentJobs(db, tenantId),
  });
}
