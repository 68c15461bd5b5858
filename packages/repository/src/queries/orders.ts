import { and, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { orderActivities, orders, products, stockReservations } from '../schema.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderActivityRow = typeof orderActivities.$inferSelect;
export type StockReservationRow = typeof stockReservations.$inferSelect;

export async function insertOrder(tx: Executor, order: typeof orders.$inferInsert): Promise<OrderRow> {
  const [row] = await tx.insert(orders).values(order).returning();
  return row!;
}

/** The order, locked for the caller's transaction when `forUpdate`. */
export async function findOrder(
  tx: Executor,
  tenantId: string,
  orderId: string,
  options: { forUpdate?: boolean } = {},
): Promise<OrderRow | undefined> {
  const query = tx
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** The orders of these ids in one shop (one statement; missing ids are left out). */
export async function findOrders(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), inArray(orders.id, [...ids])));
}

export async function findOrderByIdempotencyKey(
  tx: Executor,
  tenantId: string,
  key: string,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.idempotencyKey, key)));
  return row;
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

export async function listOrders(tx: Executor, tenantId: string, query: OrderQuery): Promise<OrderRow[]> {
  const conditions: SQL[] = [eq(orders.tenantId, tenantId)];
  if (query.beforeNumber !== undefined) conditions.push(lt(orders.number, query.beforeNumber));
  if (query.state) conditions.push(eq(orders.state, query.state));
  if (query.paymentState) conditions.push(eq(orders.paymentState, query.paymentState));
  if (query.deliveryState) conditions.push(eq(orders.deliveryState, query.deliveryState));
  if (query.customerId) conditions.push(eq(orders.customerId, query.customerId));
  if (query.tag) conditions.push(sql`${query.tag} = any(${orders.tags})`);
  return tx
    .select()
    .from(orders)
    .where(and(...conditions))
    .orderBy(desc(orders.number))
    .limit(query.limit);
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
  const [row] = await tx
    .update(orders)
    .set({ ...changes, revision: sql`${orders.revision} + 1`, updatedAt: at })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId), eq(orders.revision, revision)))
    .returning();
  return row;
}

export async function insertOrderActivity(
  tx: Executor,
  activity: typeof orderActivities.$inferInsert,
): Promise<OrderActivityRow> {
  const [row] = await tx.insert(orderActivities).values(activity).returning();
  return row!;
}

export async function listOrderActivities(
  tx: Executor,
  tenantId: string,
  orderId: string,
): Promise<OrderActivityRow[]> {
  return tx
    .select()
    .from(orderActivities)
    .where(and(eq(orderActivities.tenantId, tenantId), eq(orderActivities.orderId, orderId)))
    .orderBy(orderActivities.createdAt, orderActivities.id);
}

export async function listStockReservations(
  tx: Executor,
  tenantId: string,
  orderId: string,
): Promise<StockReservationRow[]> {
  return tx
    .select()
    .from(stockReservations)
    .where(and(eq(stockReservations.tenantId, tenantId), eq(stockReservations.orderId, orderId)))
    .orderBy(stockReservations.sku);
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
      and(
        eq(products.tenantId, tenantId),
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
      and(
        eq(stockReservations.tenantId, tenantId),
        eq(stockReservations.orderId, orderId),
        eq(stockReservations.status, 'reserved'),
      ),
    )
    .returning();
  for (const reservation of released) {
    await tx
      .update(products)
      .set({
        stockAvailable: sql`${products.stockAvailable} + ${reservation.quantity}`,
        stockReserved: sql`${products.stockReserved} - ${reservation.quantity}`,
      })
      .where(and(eq(products.tenantId, tenantId), eq(products.id, reservation.productId)));
  }
  return released;
}
