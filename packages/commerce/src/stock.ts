import * as v from 'valibot';
import { fail, ok, type Result } from './result.ts';

const Count = v.pipe(v.number(), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative'));

/**
 * One SKU's stock: `available` can still be sold, `reserved` is held for placed orders. Neither is
 * ever negative; reserve and release move units between them, so their sum is conserved.
 */
export const StockLevel = v.object({ available: Count, reserved: Count });
export type StockLevel = v.InferOutput<typeof StockLevel>;

export type StockCode =
  | 'INVALID_QUANTITY'
  | 'INSUFFICIENT_STOCK'
  | 'INSUFFICIENT_RESERVATION'
  | 'STOCK_OUT_OF_RANGE';

/** One stock operation on one SKU; all of them have this shape so `applyStockMove` serves each. */
export type StockMove = (stock: StockLevel, quantity: number) => Result<StockLevel, StockCode>;

function checkQuantity(quantity: number): Result<number, 'INVALID_QUANTITY'> {
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    return fail('INVALID_QUANTITY', `quantity must be a positive integer, got ${quantity}`);
  }
  return ok(quantity);
}

function checkRange(stock: StockLevel): Result<StockLevel, 'STOCK_OUT_OF_RANGE'> {
  if (!Number.isSafeInteger(stock.available) || !Number.isSafeInteger(stock.reserved)) {
    return fail('STOCK_OUT_OF_RANGE', 'stock is too large to hold as an integer');
  }
  return ok(stock);
}

/** Holds `quantity` units for an order: available → reserved. Never lets `available` go negative. */
export const reserve: StockMove = (stock, quantity) => {
  const checked = checkQuantity(quantity);
  if (!checked.ok) return checked;
  if (stock.available < quantity) {
    return fail('INSUFFICIENT_STOCK', `${quantity} requested, ${stock.available} available`);
  }
  return checkRange({ available: stock.available - quantity, reserved: stock.reserved + quantity });
};

/** Gives a reservation back (order cancelled): reserved → available. */
export const release: StockMove = (stock, quantity) => {
  const checked = checkQuantity(quantity);
  if (!checked.ok) return checked;
  if (stock.reserved < quantity) {
    return fail('INSUFFICIENT_RESERVATION', `${quantity} to release, ${stock.reserved} reserved`);
  }
  return checkRange({ available: stock.available + quantity, reserved: stock.reserved - quantity });
};

/** Reserved units leave the warehouse (shipped): the reservation ends and the units are gone. */
export const fulfil: StockMove = (stock, quantity) => {
  const checked = checkQuantity(quantity);
  if (!checked.ok) return checked;
  if (stock.reserved < quantity) {
    return fail('INSUFFICIENT_RESERVATION', `${quantity} to fulfil, ${stock.reserved} reserved`);
  }
  return ok({ available: stock.available, reserved: stock.reserved - quantity });
};

/** Units enter the warehouse (goods receipt, a return put back on the shelf): available grows. */
export const restock: StockMove = (stock, quantity) => {
  const checked = checkQuantity(quantity);
  if (!checked.ok) return checked;
  return checkRange({ available: stock.available + quantity, reserved: stock.reserved });
};

export interface SkuQuantity {
  readonly sku: string;
  readonly quantity: number;
}

/**
 * Applies one move to several SKUs all or nothing (placing or reopening an order of many lines):
 * lines of the same SKU are added up first; the first failure names its SKU and nothing changes.
 * Returns the new levels of the SKUs touched. A SKU without a level fails with `UNKNOWN_SKU`.
 */
export function applyStockMove(
  levels: Readonly<Record<string, StockLevel>>,
  lines: readonly SkuQuantity[],
  move: StockMove,
): Result<Record<string, StockLevel>, StockCode | 'UNKNOWN_SKU'> {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.sku, (totals.get(line.sku) ?? 0) + line.quantity);
  const next: [string, StockLevel][] = [];
  for (const [sku, quantity] of totals) {
    const level = Object.hasOwn(levels, sku) ? levels[sku] : undefined;
    if (!level) return fail('UNKNOWN_SKU', `no stock level for SKU ${sku}`);
    const moved = move(level, quantity);
    if (!moved.ok) return fail(moved.code, `SKU ${sku}: ${moved.detail}`);
    next.push([sku, moved.value]);
  }
  // fromEntries defines own properties, so even a SKU named `__proto__` stays data.
  return ok(Object.fromEntries(next));
}

/** One product's share of an order's stock: what one guarded decrement reserves. */
export interface StockReservation {
  readonly productId: string;
  readonly sku: string;
  readonly quantity: number;
}

/**
 * The stock an order's lines reserve, one entry per product (quantities of its lines added up),
 * sorted by product id. Every checkout then takes the products' row locks in the same order, so
 * two orders of the same products wait for each other instead of deadlocking. Ids compare by code
 * unit, never by locale, which for lowercase UUIDs is also PostgreSQL's uuid order. A product's
 * lines carry its one SKU; the entry keeps the last line's.
 */
export function planStockReservations(
  lines: readonly { readonly productId: string; readonly sku: string; readonly quantity: number }[],
): StockReservation[] {
  const byProduct = new Map<string, StockReservation>();
  for (const line of lines) {
    const quantity = (byProduct.get(line.productId)?.quantity ?? 0) + line.quantity;
    byProduct.set(line.productId, { productId: line.productId, sku: line.sku, quantity });
  }
  return [...byProduct.values()].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
}
