import { type Database, findProduct, insertProduct, listStockReservations } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from '../src/checkout/checkout.ts';
import { createServices, type Services } from '../src/index.ts';
import { transitionOrder } from '../src/orders/transitions.ts';
import { createSellableShop, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// Cancelling and reopening an order again and again moves its stock by exactly its quantities.

let database: Database;
let services: Services;
let shop: SellableShop;
// The SKUs sort the other way round from the ids (reopen used to lock in SKU order).
const LOW = '0190f0c8-0000-7000-8000-00000000e001';
const HIGH = '0190f0c8-0000-7000-8000-00000000e002';
const system = { kind: 'system', process: 'test' } as const;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await createSellableShop(services, 'Reopen shop');
  await database.transaction(async (tx) => {
    for (const [id, sku] of [
      [LOW, 'Z-LOW'],
      [HIGH, 'A-HIGH'],
    ] as const) {
      await insertProduct(
        tx,
        shop.tenantId,
        {
          id,
          sku,
          translations: { en: { name: sku } },
          prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
          taxClassId: SELLABLE.standardTax,
          stockAvailable: 10,
        },
        services.clock.now(),
      );
    }
  });
});
afterAll(async () => database?.close());

async function stockOf(productId: string) {
  const product = await findProduct(database.db, shop.tenantId, productId);
  return { available: product!.stockAvailable, reserved: product!.stockReserved };
}

describe('reopening a cancelled order', () => {
  it('takes exactly the order’s quantities again, however often it was cancelled before', async () => {
    const { context } = await readyVisitor(services, shop, { [HIGH]: 3, [LOW]: 2 });
    const placed = await checkout(services, shop.tenantId, context, undefined);
    if (!placed.ok) throw new Error(placed.detail);
    const move = (to: string) =>
      database.transaction((tx) =>
        transitionOrder(tx, services, shop.tenantId, placed.value.id, {
          machine: 'order',
          to,
          source: 'merchant',
          actor: system,
        }),
      );
    const held = { [LOW]: { available: 8, reserved: 2 }, [HIGH]: { available: 7, reserved: 3 } };
    const free = { available: 10, reserved: 0 };
    for (let cycle = 1; cycle <= 3; cycle++) {
      expect((await move('cancelled')).ok).toBe(true);
      expect({ low: await stockOf(LOW), high: await stockOf(HIGH) }).toEqual({ low: free, high: free });
      expect((await move('open')).ok).toBe(true);
      expect({ low: await stockOf(LOW), high: await stockOf(HIGH), cycle }).toEqual({
        low: held[LOW],
        high: held[HIGH],
        cycle,
      });
    }
    // One reserved row per product; the released ones record each earlier cycle.
    const rows = await listStockReservations(database.db, shop.tenantId, placed.value.id);
    const reserved = rows.filter((row) => row.status === 'reserved');
    expect(reserved.map((row) => [row.productId, row.quantity]).sort()).toEqual([
      [LOW, 2],
      [HIGH, 3],
    ]);
    expect(rows.filter((row) => row.status === 'released')).toHaveLength(6);
  });

  it('refuses the reopen when stock is short, taking nothing', async () => {
    const { context } = await readyVisitor(services, shop, { [LOW]: 1, [HIGH]: 4 });
    const placed = await checkout(services, shop.tenantId, context, undefined);
    if (!placed.ok) throw new Error(placed.detail);
    const move = (to: string) =>
      database.transaction((tx) =>
        transitionOrder(tx, services, shop.tenantId, placed.value.id, {
          machine: 'order',
          to,
          source: 'merchant',
          actor: system,
        }),
      );
    expect((await move('cancelled')).ok).toBe(true);
    const before = { low: await stockOf(LOW), high: await stockOf(HIGH) };
    // Another order takes HIGH meanwhile, so only 2 of the 4 remain.
    const { context: other } = await readyVisitor(services, shop, { [HIGH]: before.high.available - 2 });
    expect((await checkout(services, shop.tenantId, other, undefined)).ok).toBe(true);
    const taken = { low: await stockOf(LOW), high: await stockOf(HIGH) };
    const reopened = await move('open');
    expect(reopened.ok === false && [reopened.code, reopened.extensions?.sku]).toEqual([
      'INSUFFICIENT_STOCK',
      'A-HIGH',
    ]);
    // LOW comes first by id and was taken, then given back with the savepoint.
    expect({ low: await stockOf(LOW), high: await stockOf(HIGH) }).toEqual(taken);
  });
});
