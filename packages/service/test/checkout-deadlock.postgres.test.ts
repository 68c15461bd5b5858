import {
  createDatabase,
  type Database,
  findProduct,
  insertProduct,
  type StoreContextRow,
} from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from '../src/checkout/checkout.ts';
import { createServices, type Services } from '../src/index.ts';
import { transitionOrder } from '../src/orders/transitions.ts';
import { createSellableShop, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// Concurrent shoppers whose carts hold the same two products in opposite orders (issue 12, item
// 11). Checkout takes the products' row locks in product-id order, so such checkouts wait for each
// other and never deadlock. PostgreSQL only: PGlite has one connection, so nothing runs at once.

const SHOPPERS = 8;
const CHECKOUTS = 64;
const STOCK = { first: 70, second: 66 } as const;

describe('checkouts of shared products in opposite orders', () => {
  let testDatabase: TestDatabase;
  /** A pool wider than the shoppers, so every checkout runs at once with the others. */
  let database: Database;
  let services: Services;
  let shop: SellableShop;
  const retried: string[] = [];
  // Two ids whose string order is the reverse of the order in which half the carts list them.
  const FIRST = '0190f0c8-0000-7000-8000-00000000d001';
  const SECOND = '0190f0c8-0000-7000-8000-00000000d002';

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await createDatabase({
      databaseUrl: testDatabase.url,
      migrate: false,
      maxConnections: SHOPPERS + 2,
      onTransactionRetry: (retry) => retried.push(retry.sqlState),
    });
    services = createServices(database);
    shop = await createSellableShop(services, 'Deadlock shop');
    await addProducts([
      [FIRST, `SKU-${FIRST.slice(-4)}`, STOCK.first],
      [SECOND, `SKU-${SECOND.slice(-4)}`, STOCK.second],
    ]);
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.close();
  });

  async function addProducts(products: readonly (readonly [id: string, sku: string, stock: number])[]) {
    await database.transaction(async (tx) => {
      for (const [id, sku, stock] of products) {
        await insertProduct(
          tx,
          shop.tenantId,
          {
            id,
            sku,
            translations: { en: { name: sku } },
            prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
            taxClassId: SELLABLE.standardTax,
            stockAvailable: stock,
          },
          services.clock.now(),
        );
      }
    });
  }

  async function stockOf(productId: string) {
    const product = await findProduct(database.db, shop.tenantId, productId);
    return { available: product!.stockAvailable, reserved: product!.stockReserved };
  }

  /** Runs the tasks with SHOPPERS of them at a time; answers each one's outcome in task order. */
  async function concurrently<T>(tasks: readonly (() => Promise<T>)[]): Promise<(T | { thrown: string })[]> {
    const outcomes: (T | { thrown: string })[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: SHOPPERS }, async () => {
        for (let task = next++; task < tasks.length; task = next++) {
          try {
            outcomes[task] = await tasks[task]!();
          } catch (error) {
            // What the HTTP host would answer with a 500 (SQLSTATE 40P01: a deadlock).
            const state = (error as { cause?: { code?: string } }).cause?.code;
            outcomes[task] = { thrown: state ?? (error as Error).message };
          }
        }
      }),
    );
    return outcomes;
  }

  it('places every order exactly once, refuses only for stock, and reconciles stock to the unit', async () => {
    // Even carts list FIRST then SECOND, odd carts the reverse; quantities vary so stock runs out.
    const carts: { context: StoreContextRow; lines: Record<string, number> }[] = [];
    for (let index = 0; index < CHECKOUTS; index++) {
      const first = 1 + (index % 2);
      const second = 1 + ((index >> 1) % 2);
      const lines =
        index % 2 === 0 ? { [FIRST]: first, [SECOND]: second } : { [SECOND]: second, [FIRST]: first };
      expect(Object.keys(lines)[0]).toBe(index % 2 === 0 ? FIRST : SECOND);
      const { context } = await readyVisitor(services, shop, lines);
      carts.push({ context, lines });
    }

    retried.length = 0;
    const results = await concurrently(
      carts.map(
        ({ context }) =>
          () =>
            checkout(services, shop.tenantId, context, undefined),
      ),
    );
    const outcomes = results.map((result, cart) =>
      'thrown' in result
        ? { cart, code: `THROWN ${result.thrown}` }
        : result.ok
          ? { cart, orderId: result.value.id }
          : { cart, code: result.code },
    );

    const placed = outcomes.filter((outcome) => outcome.orderId !== undefined);
    const refused = outcomes.filter((outcome) => outcome.code !== undefined);
    expect(outcomes).toHaveLength(CHECKOUTS);
    expect(refused.filter((outcome) => outcome.code !== 'INSUFFICIENT_STOCK')).toEqual([]);
    // The lock order makes deadlocks impossible here: none was even retried.
    expect(retried).toEqual([]);
    // Stock is short for some carts, so both outcomes occur.
    expect(placed.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);

    // Every placed checkout is one order row, one order.placed event and one closed cart.
    const orders = await database.rows<{ id: string; number: string; cart_id: string }>(
      sql`select id, number, cart_id from orders where tenant_id = ${shop.tenantId} order by number`,
    );
    expect(orders.map((row) => row.id).sort()).toEqual(placed.map((outcome) => outcome.orderId).sort());
    expect(orders.map((row) => Number(row.number))).toEqual(orders.map((_, index) => index + 1));
    const events = await database.rows<{ order_id: string; count: string }>(
      sql`select payload->>'orderId' as order_id, count(*) as count from outbox_events
          where tenant_id = ${shop.tenantId} and name = 'order.placed' group by 1`,
    );
    expect(events).toHaveLength(placed.length);
    expect(events.every((row) => Number(row.count) === 1)).toBe(true);
    expect(new Set(orders.map((row) => row.cart_id)).size).toBe(placed.length);

    // Reserved stock is exactly what the placed carts hold; available stock the rest.
    for (const [productId, initial] of [
      [FIRST, STOCK.first],
      [SECOND, STOCK.second],
    ] as const) {
      const wanted = placed.reduce((sum, outcome) => sum + carts[outcome.cart]!.lines[productId]!, 0);
      expect(await stockOf(productId)).toEqual({
        available: initial - wanted,
        reserved: wanted,
      });
      const [reservations] = await database.rows<{ total: string | null }>(
        sql`select sum(quantity) as total from stock_reservations
            where tenant_id = ${shop.tenantId} and product_id = ${productId} and status = 'reserved'`,
      );
      expect(Number(reservations!.total ?? 0)).toBe(wanted);
    }
  });

  it('reopens cancelled orders while checkouts take the same products, without a deadlock', async () => {
    // The SKUs sort the other way round from the ids: reopening used to lock in SKU order.
    const LOW = '0190f0c8-0000-7000-8000-00000000d011';
    const HIGH = '0190f0c8-0000-7000-8000-00000000d012';
    await addProducts([
      [LOW, 'Z-LOW', 1000],
      [HIGH, 'A-HIGH', 1000],
    ]);
    const system = { kind: 'system', process: 'test' } as const;
    const move = (orderId: string, to: string) =>
      database.transaction((tx) =>
        transitionOrder(tx, services, shop.tenantId, orderId, {
          machine: 'order',
          to,
          source: 'merchant',
          actor: system,
        }),
      );
    const cancelled: string[] = [];
    for (let index = 0; index < 24; index++) {
      const { context } = await readyVisitor(services, shop, { [HIGH]: 1, [LOW]: 1 });
      const placed = await checkout(services, shop.tenantId, context, undefined);
      if (!placed.ok) throw new Error(placed.detail);
      if (!(await move(placed.value.id, 'cancelled')).ok) throw new Error('cancel refused');
      cancelled.push(placed.value.id);
    }
    const contexts: StoreContextRow[] = [];
    for (let index = 0; index < 40; index++) {
      const lines = index % 2 === 0 ? { [LOW]: 1, [HIGH]: 1 } : { [HIGH]: 1, [LOW]: 1 };
      contexts.push((await readyVisitor(services, shop, lines)).context);
    }
    // Reopens and checkouts interleaved: 24 of one, 40 of the other.
    const tasks = [
      ...cancelled.map((orderId) => () => move(orderId, 'open')),
      ...contexts.map((context) => () => checkout(services, shop.tenantId, context, undefined)),
    ];
    // 37 is prime to 64: a fixed shuffle of every task.
    const interleaved = tasks.map((_, index) => tasks[(index * 37) % tasks.length]!);
    expect(new Set(interleaved).size).toBe(tasks.length);
    retried.length = 0;
    const outcomes = await concurrently(interleaved);
    const failures = outcomes.filter((outcome) => 'thrown' in outcome || !outcome.ok);
    expect(failures).toEqual([]);
    expect(retried).toEqual([]);
    const taken = cancelled.length + contexts.length;
    expect({ low: await stockOf(LOW), high: await stockOf(HIGH) }).toEqual({
      low: { available: 1000 - taken, reserved: taken },
      high: { available: 1000 - taken, reserved: taken },
    });
  });
});
