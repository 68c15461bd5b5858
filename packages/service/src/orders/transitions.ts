import {
  checkTransition,
  MachineName,
  planStockReservations,
  releasesStock,
  reservesStock,
  type StateSnapshot,
  type StockReservation,
  type TransitionSource,
} from '@cartwright/commerce';
import {
  type Executor,
  findOrder,
  insertOrderActivity,
  insertStockReservation,
  listStockReservations,
  type OrderRow,
  releaseOrderStock,
  reserveProductStock,
  type StockReservationRow,
  updateOrderAtRevision,
} from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';
import { cancelProviderPayments } from '../payments/cancellation.ts';

export { MachineName };

export interface TransitionRequest {
  readonly machine: MachineName;
  readonly to: string;
  /** The order revision the caller read; omitted by flows, which act on the current state. */
  readonly revision?: number | undefined;
  readonly source: TransitionSource;
  readonly actor: Actor;
}

const stateColumn: Record<MachineName, 'state' | 'paymentState' | 'deliveryState'> = {
  order: 'state',
  payment: 'paymentState',
  delivery: 'deliveryState',
};

function snapshotOf(order: OrderRow): StateSnapshot {
  return v.parse(v.object({ order: v.string(), payment: v.string(), delivery: v.string() }), {
    order: order.state,
    payment: order.paymentState,
    delivery: order.deliveryState,
  }) as StateSnapshot;
}

/**
 * Moves one of an order's three state machines, in the caller's transaction: checks the move and
 * every guard (`@cartwright/commerce`), releases the stock reservation exactly once on cancel
 * (after the provider, when a provider payment is open: `payments/cancellation.ts`) and reserves
 * it again on reopen, refusing when stock is short; bumps the revision, writes an
 * activity entry and emits the transition event.
 */
export async function transitionOrder(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
  request: TransitionRequest,
): Promise<Result<OrderRow>> {
  const order = await findOrder(tx, tenantId, orderId, { forUpdate: true });
  if (!order) return fail('NOT_FOUND', 'No order with this id exists in this shop.');
  if (request.revision !== undefined && request.revision !== order.revision) {
    return fail('STALE_REVISION', `The order is at revision ${order.revision}, not ${request.revision}.`, {
      extensions: { expected: request.revision, actual: order.revision },
    });
  }
  const snapshot = snapshotOf(order);
  const step = checkTransition(snapshot, request.machine, request.to as never, { source: request.source });
  if (!step.ok) {
    return fail('TRANSITION_REFUSED', step.detail, {
      extensions: { reason: step.code, machine: request.machine },
    });
  }
  const { from, to, action, event } = step.value;
  const at = services.clock.now();
  let stock: 'released' | 'reserved' | 'held for the provider' | null = null;
  if (releasesStock(request.machine, from, to)) {
    // Money in the provider's hands is asked about first; its job releases the stock once.
    if (await cancelProviderPayments(tx, services, tenantId, orderId)) stock = 'held for the provider';
    else {
      await releaseOrderStock(tx, tenantId, orderId, at);
      stock = 'released';
    }
  } else if (reservesStock(request.machine, from, to)) {
    const short = await reserveAgain(tx, services, tenantId, orderId);
    if (short)
      return fail('INSUFFICIENT_STOCK', `Not enough stock of ${short} to reopen the order.`, {
        extensions: { sku: short },
      });
    stock = 'reserved';
  }
  const updated = await updateOrderAtRevision(
    tx,
    tenantId,
    orderId,
    order.revision,
    { [stateColumn[request.machine]]: to },
    at,
  );
  if (!updated) throw new Error('order row changed while locked');
  await insertOrderActivity(tx, {
    tenantId,
    id: services.ids.next(),
    orderId,
    kind: 'transition',
    author: request.actor,
    text: null,
    data: { machine: request.machine, from, to, action, source: request.source, stock },
    createdAt: at,
  });
  await recordEvent(tx, services, tenantId, request.actor, event, {
    orderId,
    number: order.number,
    machine: request.machine,
    from,
    to,
    action,
    revision: updated.revision,
  });
  return ok(updated);
}

/**
 * Reopening a cancelled order takes its stock again, all products or none (a savepoint undoes the
 * ones already taken), in product-id order like checkout, so the two never deadlock. Returns the
 * SKU that was short, or null.
 */
async function reserveAgain(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
): Promise<string | null> {
  const wanted = stockToTakeAgain(await listStockReservations(tx, tenantId, orderId));
  try {
    await tx.transaction(async (savepoint) => {
      for (const { productId, sku, quantity } of wanted) {
        if (!(await reserveProductStock(savepoint, tenantId, productId, quantity))) {
          throw new StockShortfall(sku);
        }
        await insertStockReservation(savepoint, {
          tenantId,
          id: services.ids.next(),
          orderId,
          productId,
          sku,
          quantity,
        });
      }
    });
    return null;
  } catch (error) {
    if (error instanceof StockShortfall) return error.sku;
    throw error;
  }
}

/**
 * What reopening an order reserves: each released product once, sorted by product id. Checkout
 * reserves a product in one row, each cancel releases the reserved row and each reopen reserves it
 * in a new one, so a product has one released row per earlier cancel, each with the order's whole
 * quantity: adding them up would take the stock again once per earlier cancel.
 */
function stockToTakeAgain(reservations: readonly StockReservationRow[]): StockReservation[] {
  const byProduct = new Map<string, StockReservation>();
  for (const { productId, sku, quantity, status } of reservations) {
    if (status === 'released') byProduct.set(productId, { productId, sku, quantity });
  }
  // One entry per product already: planning keeps each quantity and puts them in checkout's lock order.
  return planStockReservations([...byProduct.values()]);
}

class StockShortfall extends Error {
  constructor(readonly sku: string) {
    super(`not enough stock of ${sku}`);
  }
}
