import {
  type Database,
  findOrder,
  findProduct,
  insertProduct,
  listEvents,
  listStockReservations,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factsOfCart, openCartOf, viewCart } from '../src/carts/cart.ts';
import { checkout } from '../src/checkout/checkout.ts';
import { createServices, type Services } from '../src/index.ts';
import { transitionOrder } from '../src/orders/transitions.ts';
import { createSellableShop, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// Checkout through the service: hand-checked totals, stock reservation and release, idempotency,
// gapless order numbers, and concurrent checkouts that can never oversell.

let database: Database;
let services: Services;
let shop: SellableShop;
const { standardTax: STANDARD, reducedTax: REDUCED } = SELLABLE;
const SHIRT = '0190f0c8-0000-7000-8000-0000000000e1';
const BOOK = '0190f0c8-0000-7000-8000-0000000000e2';
const system = { kind: 'system', process: 'test' } as const;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await createSellableShop(services, 'Checkout shop');
  await database.transaction(async (tx) => {
    const at = services.clock.now();
    await insertProduct(
      tx,
      shop.tenantId,
      {
        id: SHIRT,
        sku: 'SHIRT',
        translations: { en: { name: 'Shirt' } },
        prices: [{ currency: 'EUR', gross: 1999, net: 1680 }],
        taxClassId: STANDARD,
        stockAvailable: 5,
      },
      at,
    );
    await insertProduct(
      tx,
      shop.tenantId,
      {
        id: BOOK,
        sku: 'BOOK',
        translations: { en: { name: 'Book' } },
        prices: [{ currency: 'EUR', gross: 1070, net: 1000 }],
        taxClassId: REDUCED,
        stockAvailable: 100,
      },
      at,
    );
  });
});
afterAll(async () => database?.close());

const visitor = (lines: Record<string, number>) => readyVisitor(services, shop, lines);

async function stockOf(productId: string) {
  const product = await findProduct(database.db, shop.tenantId, productId);
  return { available: product!.stockAvailable, reserved: product!.stockReserved };
}

describe('checkout', () => {
  it('prices the order exactly as checked by hand and reserves its stock', async () => {
    const { context } = await visitor({ [SHIRT]: 3, [BOOK]: 2 });
    const view = await database.transaction(async (tx) =>
      viewCart(tx, services, shop.tenantId, await openCartOf(tx, services, shop.tenantId, context), context),
    );
    // Shirt 3 × 19.99 gross at 19 %: 59.97, tax 5997·1900/11900 = 957.50… → 958, net 5039.
    // Book 2 × 10.70 gross at 7 %: 21.40, tax 2140·700/10700 = 140, net 2000.
    // Parcel 4.90 taxed at the highest line rate (19 %): tax 490·1900/11900 = 78.2… → 78, net 412.
    expect(view.problems).toEqual([]);
    expect(view.lines.map((line) => line.total)).toEqual([
      { gross: 5997, tax: 958, net: 5039 },
      { gross: 2140, tax: 140, net: 2000 },
    ]);
    expect(view.shipping).toEqual({ gross: 490, tax: 78, net: 412, taxRate: 1900 });
    expect(view.total).toEqual({ gross: 8627, tax: 1176, net: 7451 });

    const placed = await checkout(services, shop.tenantId, context, undefined);
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    expect(placed.value.price).toMatchObject({ total: { gross: 8627, tax: 1176, net: 7451 } });
    expect(await stockOf(SHIRT)).toEqual({ available: 2, reserved: 3 });
    const events = await listEvents(database.db, shop.tenantId, { name: 'order.placed', limit: 10 });
    expect(events.at(-1)?.payload).toMatchObject({
      orderId: placed.value.id,
      totalGross: 8627,
      currency: 'EUR',
    });
  });

  it('exposes the cart facts rules read, built from stored data', async () => {
    const { context, customerId } = await visitor({ [BOOK]: 4 });
    const facts = await database.transaction(async (tx) =>
      factsOfCart(
        tx,
        services,
        shop.tenantId,
        await openCartOf(tx, services, shop.tenantId, context),
        context,
      ),
    );
    expect(facts.cart).toMatchObject({ amount: 47.7, shippingCost: 4.9 });
    expect(facts.cart?.lineItems).toHaveLength(1);
    expect(facts.cart?.lineItems[0]).toMatchObject({ referencedId: BOOK, quantity: 4, good: true });
    expect(facts.customer?.id).toBe(customerId);
    expect(facts.shippingAddress?.countryId).toBe('DE');
  });

  it('answers a retry with the same Idempotency-Key with the same order, and refuses the key for another visitor', async () => {
    const { context } = await visitor({ [BOOK]: 1 });
    const first = await checkout(services, shop.tenantId, context, 'retry-key-0001');
    const again = await checkout(services, shop.tenantId, context, 'retry-key-0001');
    expect(first.ok && again.ok && again.value.id === first.value.id).toBe(true);
    const other = await visitor({ [BOOK]: 1 });
    const stolen = await checkout(services, shop.tenantId, other.context, 'retry-key-0001');
    expect(stolen.ok).toBe(false);
    if (!stolen.ok) expect(stolen.code).toBe('CONFLICT');
  });

  it('refuses a checkout that would oversell, changing nothing, and keeps order numbers gapless', async () => {
    const before = await stockOf(SHIRT);
    const greedy = await visitor({ [BOOK]: 1, [SHIRT]: before.available + 1 });
    const refused = await checkout(services, shop.tenantId, greedy.context, undefined);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.code).toBe('INSUFFICIENT_STOCK');
    expect(await stockOf(SHIRT)).toEqual(before);
    const next = await visitor({ [BOOK]: 1 });
    const placed = await checkout(services, shop.tenantId, next.context, undefined);
    const numbers = await database.rows<{ number: string }>(
      sql`select number from orders where tenant_id = ${shop.tenantId} order by number`,
    );
    expect(numbers.map((row) => Number(row.number))).toEqual(numbers.map((_, index) => index + 1));
    expect(placed.ok).toBe(true);
  });

  it('releases the stock of a cancelled order exactly once, and takes it again on reopen', async () => {
    const { context } = await visitor({ [SHIRT]: 1 });
    const placed = await checkout(services, shop.tenantId, context, undefined);
    if (!placed.ok) throw new Error(placed.detail);
    const reserved = await stockOf(SHIRT);
    const cancel = (revision?: number) =>
      database.transaction((tx) =>
        transitionOrder(tx, services, shop.tenantId, placed.value.id, {
          machine: 'order',
          to: 'cancelled',
          revision,
          source: 'merchant',
          actor: system,
        }),
      );
    const cancelled = await cancel(placed.value.revision);
    expect(cancelled.ok).toBe(true);
    expect(await stockOf(SHIRT)).toEqual({
      available: reserved.available + 1,
      reserved: reserved.reserved - 1,
    });
    const twice = await cancel();
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.code).toBe('TRANSITION_REFUSED');
    expect(await stockOf(SHIRT)).toEqual({
      available: reserved.available + 1,
      reserved: reserved.reserved - 1,
    });
    const stale = await cancel(placed.value.revision);
    expect(stale.ok === false && stale.code).toBe('STALE_REVISION');

    const reopened = await database.transaction((tx) =>
      transitionOrder(tx, services, shop.tenantId, placed.value.id, {
        machine: 'order',
        to: 'open',
        source: 'merchant',
        actor: system,
      }),
    );
    expect(reopened.ok).toBe(true);
    expect(await stockOf(SHIRT)).toEqual(reserved);
    const reservations = await listStockReservations(database.db, shop.tenantId, placed.value.id);
    expect(reservations.map((row) => row.status).sort()).toEqual(['released', 'reserved']);
    const order = await findOrder(database.db, shop.tenantId, placed.value.id);
    expect(order?.state).toBe('open');
  });

  it('never oversells: 20 concurrent checkouts of a SKU with stock 5 make exactly 5 orders', async () => {
    const LAMP = services.ids.next();
    await database.transaction((tx) =>
      insertProduct(
        tx,
        shop.tenantId,
        {
          id: LAMP,
          sku: `LAMP-${LAMP}`,
          translations: { en: { name: 'Lamp' } },
          prices: [{ currency: 'EUR', gross: 5000, net: 4202 }],
          taxClassId: STANDARD,
          stockAvailable: 5,
        },
        services.clock.now(),
      ),
    );
    const visitors = await Promise.all(Array.from({ length: 20 }, () => visitor({ [LAMP]: 1 })));
    const results = await Promise.all(
      visitors.map(({ context }) => checkout(services, shop.tenantId, context, undefined)),
    );
    const placed = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(5);
    expect(refused.every((result) => !result.ok && result.code === 'INSUFFICIENT_STOCK')).toBe(true);
    expect(await stockOf(LAMP)).toEqual({ available: 0, reserved: 5 });
  });
});
