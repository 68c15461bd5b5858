import type { StockReservation } from '@cartwright/commerce';
import { type Executor, insertStockReservation, reserveProductStock } from '@cartwright/repository';
import type { Services } from '../kernel/services.ts';

/** Thrown inside the checkout transaction to roll it back; `checkout` answers INSUFFICIENT_STOCK. */
export class StockShortfall extends Error {
  constructor(readonly sku: string) {
    super(`not enough stock of ${sku}`);
  }
}

/**
 * Reserves an order's stock: a guarded decrement per product (never below zero) and its
 * reservation row, all or nothing. `reservations` come from `planStockReservations`, sorted by
 * product id, so concurrent checkouts lock products in one order.
 */
export async function reserveStock(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
  reservations: readonly StockReservation[],
): Promise<void> {
  for (const { productId, sku, quantity } of reservations) {
    if (!(await reserveProductStock(tx, tenantId, productId, quantity))) throw new StockShortfall(sku);
    await insertStockReservation(tx, {
      tenantId,
      id: services.ids.next(),
      orderId,
      productId,
      sku,
      quantity,
    });
  }
}
