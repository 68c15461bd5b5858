import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { orderActivities, orders, products, stockReservations } from '../schema.ts';
import { findRow, insertRow, inTenant, listPage, reviseRows, selectRows } from './tenant-rows.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderActivityRow = typeof orderActivities.$inferSelect;
export type StockReservationRow = typeof stockReservations.$inferSelect;

export function insertOrder(tx: Executor, order: typeof orders.$inferInsert): Promise<OrderRow> {
  return insertRow(tx, orders, order);
}

/** The order, locked for the caller's transaction when `forUpdate`. */
export function findOrder(
  tx: Executor,
  tenantId: string,
  orderId: string,
  options: { forUpdate?: boolean } = {},
): Promise<OrderRow | undefined> {
  return findRow(tx, orders, tenantId, [eq(orders.id, orderId)], options.forUpdate ? 'update' : undefined);
}

/** The orders of these ids in one shop (one statement; missing ids are left out). */
export async function findOrders(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return selectRows(tx, orders, tenantId, { where: [inArray(orders.id, [...ids])] });
}

export function findOrderByIdempotencyKey(
  tx: Executor,
  tenantId: string,
  key: string,
): Promise<OrderRow | undefined> {
  return findRow(tx, orders, tenantId, [eq(orders.idempotencyKey, key)]);
}

export interface OrderQuery {
  readonly limit: number;
  /** Number of the last order of the previous page (newest first). */
  readonly beforeNumber?: number | undefined;
  readonly state?: string | undefined;
  readonly paymentState?: string | undefined;
  readonly deliveryState?: string | undefined;
  readonly customerId?: string | undefined;
  readonly tag?: string | undefined;
}

export function listOrders(tx: Executor, tenantId: string, query: OrderQuery): Promise<OrderRow[]> {
  const page = { after: query.beforeNumber, limit: query.limit };
  return listPage(tx, orders, tenantId, { key: orders.number, direction: 'desc' }, page, [
    query.state ? eq(orders.state, query.state) : undefined,
    query.paymentState ? eq(orders.paymentState, query.paymentState) : undefined,
    query.deliveryState ? eq(orders.deliveryState, query.deliveryState) : undefined,
    query.customerId ? eq(orders.customerId, query.customerId) : undefined,
    query.tag ? sql`${query.tag} = any(${orders.tags})` : undefined,
  ]);
}

/** Writes `changes` when the order is still at `revision`; returns the new row or undefined. */
export async function updateOrderAtRevision(
  tx: Executor,
  tenantId: string,
  orderId: string,
  revision: number,
  changes: Partial<Omit<typeof orders.$inferInsert, 'tenantId' | 'id' | 'revision'>>,
  at: Date,
): Promise<OrderRow | undefined> {
  const atRevision = [eq(orders.id, orderId), eq(orders.revision, revision)];
  const [row] = await reviseRows(tx, orders, tenantId, atRevision, changes, at);
  return row;
}

export function insertOrderActivity(
  tx: Executor,
  activity: typeof orderActivities.$inferInsert,
): Promise<OrderActivityRow> {
  return insertRow(tx, orderActivities, activity);
}

export function listOrderActivities(
  tx: Executor,
  tenantId: string,
  orderId: string,
): Promise<OrderActivityRow[]> {
  return selectRows(tx, orderActivities, tenantId, {
    where: [eq(orderActivities.orderId, orderId)],
    orderBy: [orderActivities.createdAt, orderActivities.id],
  });
}

export function listStockReservations(
  tx: Executor,
  tenantId: string,
  orderId: string,
): Promise<StockReservationRow[]> {
  return selectRows(tx, stockReservations, tenantId, {
    where: [eq(stockReservations.orderId, orderId)],
    orderBy: [stockReservations.sku],
  });
}

/**
 * Moves `quantity` of a product from available to reserved, only if that much is available: one
 * guarded UPDATE, so concurrent checkouts can never drive stock below zero.
 */
export async function reserveProductStock(
  tx: Executor,
  tenantId: string,
  productId: string,
  quantity: number,
): Promise<boolean> {
  const rows = await tx
    .update(products)
    .set({
      stockAvailable: sql`${products.stockAvailable} - ${quantity}`,
      stockReserved: sql`${products.stockReserved} + ${quantity}`,
    })
    .where(
      inTenant(
        products,
        tenantId,
        eq(products.id, productId),
        sql`${products.stockAvailable} >= ${quantity}`,
      ),
    )
    .returning({ id: products.id });
  return rows.length === 1;
}

export async function insertStockReservation(
  tx: Executor,
  reservation: typeof stockReservations.$inferInsert,
): Promise<void> {
  await tx.insert(stockReservations).values(reservation);
}

/**
 * Releases every still-reserved reservation of an order back to available stock, exactly once:
 * each reservation row flips from `reserved` to `released` in the same statement that is counted.
 * Returns what was released.
 */
export async function releaseOrderStock(
  tx: Executor,
  tenantId: string,
  orderId: string,
  at: Date,
): Promise<StockReservationRow[]> {
  const released = await tx
    .update(stockReservations)
    .set({ status: 'released', releasedAt: at, updatedAt: at })
    .where(
      inTenant(
        stockReservations,
        tenantId,
        eq(stockReservations.orderId, orderId),
        eq(stockReservations.status, 'reserved'),
      ),
    )
    .returning();
  // Product rows in id order, as checkout locks them, so a cancel never deadlocks with a checkout.
  const byProduct = [...released].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
  for (const reservation of byProduct) {
    await tx
      .update(products)
      .set({
        stockAvailable: sql`${products.stockAvailable} + ${reservation.quantity}`,
        stockReserved: sql`${products.stockReserved} - ${reservation.quantity}`,
      })
      .where(inTenant(products, tenantId, eq(products.id, reservation.productId)));
  }
  return released;
}
