import type { PaymentState, StockReservation } from '@cartwright/commerce';
import {
  AttemptState,
  createAttempt,
  type LocalOrder,
  type PaymentAttempt,
  type PaymentEffect,
  RefundLedger,
} from '@cartwright/payment-ledger';
import {
  basisTables,
  type Executor,
  findOrder,
  findRevisioned,
  insertOrderActivity,
  insertPaymentAttempt,
  type OrderRow,
  type PaymentAttemptRow,
  queuePaymentJob,
  releaseOrderStock,
  updatePaymentAttempt,
} from '@cartwright/repository';
import * as v from 'valibot';
import { type Failure, fail } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';
import { transitionOrder } from '../orders/transitions.ts';
import { providerOf } from './providers.ts';

// An order's provider payment: the attempt rows and what the ledger's decisions do to them. Every
// decision is stored under the attempt's row lock, with its effects, in one transaction: jobs are
// rows, events go to the outbox, the order's payment state moves through commerce's machine.

/** Who the payment-worker's changes are attributed to. */
export const PAYMENT_ACTOR: Actor = { kind: 'system', process: 'payment-worker' };

/** An attempt row read back as the ledger's records. */
export interface LoadedAttempt {
  readonly row: PaymentAttemptRow;
  readonly attempt: PaymentAttempt;
  readonly state: AttemptState;
  readonly refunds: RefundLedger | null;
}

/** Reads a stored attempt as the ledger's records; a row that does not parse is a broken invariant. */
export function loadAttempt(row: PaymentAttemptRow): LoadedAttempt {
  const attempt: PaymentAttempt = {
    id: row.id,
    orderId: row.orderId,
    amount: { amount: row.amount, currency: row.currency, precision: row.precision },
    items: row.reserved,
    environment: row.environment,
    merchantId: row.merchantId,
    contractFixture: row.contractFixture,
    createdAt: row.createdAt.toISOString(),
    requestIds: { ...row.requestIds },
    adapterVersion: row.adapterVersion as PaymentAttempt['adapterVersion'],
  };
  return {
    row,
    attempt,
    state: v.parse(AttemptState, row.state),
    refunds: row.refunds === null ? null : v.parse(RefundLedger, row.refunds),
  };
}

/** The ledger's view of the attempt's order: its state, or null when it no longer exists. */
export async function localOrderOf(tx: Executor, tenantId: string, orderId: string): Promise<LocalOrder> {
  const order = await findOrder(tx, tenantId, orderId);
  return order ? { state: order.state as NonNullable<LocalOrder>['state'] } : null;
}

/**
 * Opens the provider payment of a just-placed order through `provider` (`paypal`, `app:<appId>`:
 * see `providers.ts`), in checkout's transaction: the immutable attempt (the order's total, the
 * currency's precision, the reserved SKU quantities, the account's environment and merchant, the
 * contract-fixture label) and its create job. A provider without an account cannot get here:
 * checkout refuses the method first.
 */
export async function openProviderAttempt(
  tx: Executor,
  services: Services,
  tenantId: string,
  order: OrderRow,
  reservations: readonly StockReservation[],
  provider: string,
): Promise<Failure | null> {
  const account = providerOf(services, { provider, currency: order.currency }).accountOf(tenantId);
  if (!account)
    return fail('PAYMENT_REQUIRED', 'This shop has no account with the payment provider configured.');
  const currency = await findRevisioned(tx, basisTables.currencies, tenantId, order.currency);
  if (!currency) throw new Error(`order currency ${order.currency} is not set up`);
  const total = (order.price as { total: { gross: number } }).total.gross;
  const created = createAttempt({
    id: services.ids.next(),
    orderId: order.id,
    amount: { amount: total, currency: order.currency, precision: currency.precision },
    items: reservations.map(({ productId, sku, quantity }) => ({ productId, sku, quantity })),
    environment: account.environment,
    merchantId: account.merchantId,
    contractFixture: account.contractFixture,
    createdAt: services.clock.now().toISOString(),
  });
  if (!created.ok) {
    return fail('PAYMENT_REQUIRED', `The order cannot be paid through the provider: ${created.detail}`);
  }
  const { attempt, state, effects } = created.value;
  await insertPaymentAttempt(tx, {
    tenantId,
    id: attempt.id,
    orderId: attempt.orderId,
    provider,
    environment: attempt.environment,
    adapterVersion: attempt.adapterVersion,
    contractFixture: attempt.contractFixture,
    amount: attempt.amount.amount,
    currency: attempt.amount.currency,
    precision: attempt.amount.precision,
    reserved: [...attempt.items],
    merchantId: attempt.merchantId,
    requestIds: { ...attempt.requestIds },
    status: state.status,
    providerOrderId: null,
    approvalUrl: null,
    state: { ...state },
    refunds: null,
    createdAt: new Date(attempt.createdAt),
    updatedAt: new Date(attempt.createdAt),
  });
  await applyEffects(tx, services, tenantId, effects);
  return null;
}

/**
 * Stores a decision about a locked attempt (its new record and refund ledger) and carries out its
 * effects. Answers the row as written.
 */
export async function storeDecision(
  tx: Executor,
  services: Services,
  loaded: LoadedAttempt,
  decision: {
    readonly state?: AttemptState;
    readonly refunds?: RefundLedger | null;
    readonly effects: readonly PaymentEffect[];
  },
): Promise<PaymentAttemptRow> {
  const state = decision.state ?? loaded.state;
  const refunds = decision.refunds === undefined ? loaded.refunds : decision.refunds;
  const row = await updatePaymentAttempt(
    tx,
    loaded.row.tenantId,
    loaded.row.id,
    {
      status: state.status,
      providerOrderId: state.providerOrderId,
      approvalUrl: state.approvalUrl,
      state: { ...state },
      refunds: refunds === null ? null : { ...refunds },
    },
    services.clock.now(),
  );
  await applyEffects(tx, services, loaded.row.tenantId, decision.effects);
  return row;
}

/** Carries out the ledger's effects, in order, in the caller's transaction. */
async function applyEffects(
  tx: Executor,
  services: Services,
  tenantId: string,
  effects: readonly PaymentEffect[],
): Promise<void> {
  const at = services.clock.now();
  for (const effect of effects) {
    switch (effect.kind) {
      case 'queue':
        await queuePaymentJob(tx, {
          tenantId,
          id: services.ids.next(),
          attemptId: effect.attemptId,
          kind: effect.job,
          subjectId: effect.job === 'refund' ? effect.refundId : null,
          availableAt: at,
        });
        break;
      case 'release-stock':
        // Row-idempotent: a reservation flips from reserved to released once, whoever asks first.
        await releaseOrderStock(tx, tenantId, effect.orderId, at);
        break;
      case 'move-order-payment':
        await movePayment(tx, services, tenantId, effect.orderId, effect.to);
        break;
      case 'emit':
        await recordEvent(tx, services, tenantId, PAYMENT_ACTOR, effect.event, { ...effect.payload });
        break;
      case 'move-order-to-payment-review':
        await insertOrderActivity(tx, {
          tenantId,
          id: services.ids.next(),
          orderId: effect.orderId,
          kind: 'payment_review',
          author: PAYMENT_ACTOR,
          text: effect.detail,
          data: { attemptId: effect.attemptId, reason: effect.reason, mismatches: [...effect.mismatches] },
          createdAt: at,
        });
        await recordEvent(tx, services, tenantId, PAYMENT_ACTOR, 'payment.review', {
          attemptId: effect.attemptId,
          orderId: effect.orderId,
          reason: effect.reason,
        });
        break;
    }
  }
}

/**
 * Moves the order's payment machine as the provider (commerce checks the move). A move commerce
 * refuses is recorded on the order for a person to look at, never forced.
 */
async function movePayment(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
  to: PaymentState,
): Promise<void> {
  const order = await findOrder(tx, tenantId, orderId);
  if (!order || order.paymentState === to) return;
  const moved = await transitionOrder(tx, services, tenantId, orderId, {
    machine: 'payment',
    to,
    source: 'provider',
    actor: PAYMENT_ACTOR,
  });
  if (!moved.ok) {
    await insertOrderActivity(tx, {
      tenantId,
      id: services.ids.next(),
      orderId,
      kind: 'payment_review',
      author: PAYMENT_ACTOR,
      text: `The provider's payment state ${to} could not be applied: ${moved.detail}`,
      data: { to, from: order.paymentState, code: moved.code },
      createdAt: services.clock.now(),
    });
  }
}
