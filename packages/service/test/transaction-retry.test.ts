import { findProduct, insertProduct, TransientDatabaseError } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from '../src/checkout/checkout.ts';
import { createServices, type Services } from '../src/index.ts';
import { errorStatus } from '../src/kernel/errors.ts';
import { createSellableShop, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';
import { raise } from './forced-sql-state.ts';

// The transaction runner (`Database.transaction`) runs a transaction again after a deadlock or a
// serialization failure, a bounded number of times; one that persists raises
// TransientDatabaseError, which the service answers as 503 BUSY with `retryAfterSeconds`. Real
// deadlocks between two sessions: transaction-retry.postgres.test.ts.

let database: TestDatabase;
let services: Services;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  await database.db.execute(sql`create table retry_probe (id int primary key, attempt int not null)`);
});
afterAll(async () => database?.close());

async function probes(): Promise<{ id: number; attempt: number }[]> {
  return database.rows(sql`select id, attempt from retry_probe order by id`);
}

describe('the transaction runner', () => {
  it('runs a transaction again after a serialization failure; the failed run left nothing', async () => {
    let runs = 0;
    const answer = await database.transaction(async (tx) => {
      runs += 1;
      await tx.execute(sql`insert into retry_probe (id, attempt) values (${runs}, ${runs})`);
      if (runs === 1) await raise(tx, '40001');
      return 'committed';
    });
    expect({ answer, runs }).toEqual({ answer: 'committed', runs: 2 });
    expect(await probes()).toEqual([{ id: 2, attempt: 2 }]);
  });

  it('raises TransientDatabaseError when the failure persists through 3 retries', async () => {
    let runs = 0;
    const failing = database.transaction(async (tx) => {
      runs += 1;
      await raise(tx, '40P01');
    });
    const error = await failing.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransientDatabaseError);
    expect(error).toMatchObject({ sqlState: '40P01', attempts: 4, name: 'TransientDatabaseError' });
    expect(runs).toBe(4);
  });

  it('does not retry any other failure', async () => {
    let runs = 0;
    const error = await database
      .transaction(async (tx) => {
        runs += 1;
        await raise(tx, '23505');
      })
      .catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(TransientDatabaseError);
    expect(runs).toBe(1);
  });
});

describe('a checkout whose deadlock persists', () => {
  let shop: SellableShop;
  const LAMP = '0190f0c8-0000-7000-8000-00000000f0a1';

  beforeAll(async () => {
    shop = await createSellableShop(services, 'Busy shop');
    await database.transaction((tx) =>
      insertProduct(
        tx,
        shop.tenantId,
        {
          id: LAMP,
          sku: 'LAMP',
          translations: { en: { name: 'Lamp' } },
          prices: [{ currency: 'EUR', gross: 5000, net: 4202 }],
          taxClassId: SELLABLE.standardTax,
          stockAvailable: 5,
        },
        services.clock.now(),
      ),
    );
  });

  it('answers BUSY (503) with retryAfterSeconds, places nothing, and succeeds once it clears', async () => {
    const { context } = await readyVisitor(services, shop, { [LAMP]: 2 });
    // Every reservation write fails as a deadlock victim would, however often it is tried.
    await database.db.execute(
      sql.raw(`create function deadlock_every_reservation() returns trigger language plpgsql as $$
        begin raise exception 'forced deadlock' using errcode = '40P01'; end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger deadlock_every_reservation before insert on stock_reservations
        for each row execute function deadlock_every_reservation()`),
    );
    const busy = await checkout(services, shop.tenantId, context, 'busy-checkout-1');
    expect(busy).toMatchObject({ ok: false, code: 'BUSY', extensions: { retryAfterSeconds: 1 } });
    expect(errorStatus.BUSY).toBe(503);
    const lamp = await findProduct(database.db, shop.tenantId, LAMP);
    expect({ available: lamp!.stockAvailable, reserved: lamp!.stockReserved }).toEqual({
      available: 5,
      reserved: 0,
    });
    expect(await database.rows(sql`select id from orders where tenant_id = ${shop.tenantId}`)).toEqual([]);

    await database.db.execute(sql.raw('drop trigger deadlock_every_reservation on stock_reservations'));
    const placed = await checkout(services, shop.tenantId, context, 'busy-checkout-1');
    expect(placed.ok).toBe(true);
  });
});
