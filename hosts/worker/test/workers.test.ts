import { type Database, listReceipts, outboxHead } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { createServices, type Services } from '@cartwright/service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type WorkerHandle } from '../src/index.ts';
import {
  appendEvents,
  CONSUMER,
  collectLog,
  createShops,
  cursorOf,
  drain,
  expectEachEventCountedOnce,
  ONLY_STATISTICS,
  statisticCounts,
} from './outbox-state.ts';

let database: Database;
let services: Services;
let shops: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shops = await createShops(services, 3, 'Drain');
  for (const [index, shop] of shops.entries()) await appendEvents(services, shop, 100 + 10 * index, 7);
});
afterAll(async () => database?.close());

describe(`startWorkers (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('drains the backlog: statistics count every event once, with one receipt per event', async () => {
    const sink = collectLog();
    const handle = startWorkers(services, {
      roles: ['memory-worker'],
      runners: ONLY_STATISTICS,
      owner: 'drainer',
      pollMs: 50,
      batchSize: 25,
      maxBatches: 2,
      log: sink.log,
    });
    expect(handle.projections).toEqual([CONSUMER]);
    await handle.idle();
    await expectEachEventCountedOnce(database, shops);
    let total = 0;
    for (const shop of shops) total += await outboxHead(database.db, shop);
    expect(sink.appliedBy('drainer')).toBe(total);
    await handle.stop();
    expect(sink.lines.filter((line) => line.level !== 'info')).toEqual([]);
  });

  it('applies nothing when run again, even from a rewound cursor', async () => {
    const before = await Promise.all(shops.map((shop) => statisticCounts(database.db, shop)));
    const sink = collectLog();
    const handle = startWorkers(services, {
      roles: ['memory-worker'],
      runners: ONLY_STATISTICS,
      owner: 'rerunner',
      pollMs: 50,
      batchSize: 25,
      log: sink.log,
    });
    await handle.idle();
    await database.rows(
      sql`update outbox_cursors set position = 0 where consumer = ${CONSUMER} and tenant_id = ${shops[0]}`,
    );
    await drain([handle], database, shops);
    await handle.stop();

    expect(sink.appliedBy('rerunner')).toBe(0);
    expect(await Promise.all(shops.map((shop) => statisticCounts(database.db, shop)))).toEqual(before);
    const receipts = await listReceipts(database.db, shops[0]!, CONSUMER);
    expect(new Set(receipts.map((receipt) => receipt.processedBy))).toEqual(new Set(['drainer']));
    await expectEachEventCountedOnce(database, shops);
  });

  it('wakes on NOTIFY instead of waiting for the poll', async () => {
    const sink = collectLog();
    // A poll far beyond the test timeout: only the NOTIFY can wake the loop in time.
    const handle = startWorkers(services, {
      roles: ['memory-worker'],
      runners: ONLY_STATISTICS,
      pollMs: 600_000,
      log: sink.log,
    });
    await handle.idle();
    const shop = shops[1]!;
    const applied = sink.next((line) => line.msg === 'applied' && line.tenantId === shop);
    await appendEvents(services, shop, 3, 3);
    expect((await applied).applied).toBe(3);
    await handle.stop();
    await expectEachEventCountedOnce(database, shops);
  });

  it('logs a failing round as a structured line and retries it after pollMs', async () => {
    const sink = collectLog();
    const handle = startWorkers(services, {
      roles: ['memory-worker'],
      runners: ONLY_STATISTICS,
      pollMs: 50,
      log: sink.log,
    });
    await handle.idle();
    const shop = shops[2]!;
    const countsBefore = await statisticCounts(database.db, shop);
    await database.rows(sql`alter table event_statistics rename to event_statistics_parked`);
    const failed = sink.next((line) => line.level === 'error');
    await appendEvents(services, shop, 5, 1);
    const failure = await failed;
    expect(failure).toMatchObject({ msg: 'round failed, retrying', projection: CONSUMER, retryMs: 50 });
    // The driver's error, with its SQLSTATE (undefined_table); the query's parameters stay out of the log.
    expect(failure.error).toMatchObject({
      message: 'Failed query',
      query: expect.stringContaining('insert into "event_statistics"'),
      cause: { message: 'relation "event_statistics" does not exist', code: '42P01' },
    });
    expect(JSON.stringify(failure)).not.toContain('params');
    // The failed batch rolled back: no receipts beyond what was counted before.
    expect((await cursorOf(database.db, shop)).position).toBe(
      (await listReceipts(database.db, shop, CONSUMER)).length,
    );
    await database.rows(sql`alter table event_statistics_parked rename to event_statistics`);
    await drain([handle], database, shops);
    await handle.stop();

    const after = await statisticCounts(database.db, shop);
    expect(Object.values(after).reduce((a, b) => a + b, 0)).toBe(
      Object.values(countsBefore).reduce((a, b) => a + b, 0) + 5,
    );
    await expectEachEventCountedOnce(database, shops);
  });

  it('stop() lets the in-flight batch commit, takes no new work and gives back every lease', async () => {
    const [shop] = await createShops(services, 1, 'Stop');
    await appendEvents(services, shop!, 300, 50);
    // Counts the worker's transactions and calls stop() as its eighth one begins: by then the claim
    // (at most three transactions) is done, so that transaction is a batch and stop() lands mid-claim.
    let handle: WorkerHandle | undefined;
    let stopped: Promise<void> | undefined;
    let transactions = 0;
    const counting: Database = {
      ...database,
      transaction(work) {
        transactions += 1;
        if (transactions === 8) stopped = handle!.stop();
        return database.transaction(work);
      },
    };
    handle = startWorkers(createServices(counting), {
      roles: ['memory-worker'],
      runners: ONLY_STATISTICS,
      owner: 'stopper',
      pollMs: 50,
      batchSize: 2,
      maxBatches: 1000,
      log: () => {},
    });
    await handle.idle();
    await stopped;
    const transactionsAtStop = transactions;

    const cursor = await cursorOf(database.db, shop!);
    expect(cursor.leaseOwner).toBeNull();
    expect(cursor.leaseExpiresAt).toBeNull();
    expect(cursor.position).toBeGreaterThanOrEqual(2);
    expect(cursor.position).toBeLessThan(await outboxHead(database.db, shop!));
    // What was applied was applied whole: receipts and counts match the cursor.
    expect((await listReceipts(database.db, shop!, CONSUMER)).length).toBe(cursor.position);
    const counted = Object.values(await statisticCounts(database.db, shop!)).reduce((a, b) => a + b, 0);
    expect(counted).toBe(cursor.position);
    // After the in-flight batch only the two lease releases ran (the claim's own, then the owner's):
    // no further claim or batch.
    expect(transactionsAtStop).toBe(10);

    const rest = startWorkers(services, {
      roles: ['memory-worker'],
      runners: ONLY_STATISTICS,
      pollMs: 50,
      log: () => {},
    });
    await rest.idle();
    await rest.stop();
    await expectEachEventCountedOnce(database, [...shops, shop!]);
  });

  it('runs no loop for roles without projections, and idles and stops at once', async () => {
    const sink = collectLog();
    const handle = startWorkers(services, {
      roles: ['payment-worker', 'translation-worker', 'media-worker'],
      log: sink.log,
    });
    expect(handle.projections).toEqual([]);
    expect(handle.runsFlows).toBe(false);
    await handle.idle();
    await handle.stop();
    expect(sink.lines.map((line) => line.msg)).toEqual(['workers started', 'workers stopped']);
  });

  it('rejects a non-positive interval instead of clamping it', () => {
    expect(() =>
      startWorkers(services, { roles: ['memory-worker'], runners: ONLY_STATISTICS, pollMs: 0 }),
    ).toThrow('pollMs must be a positive integer, got 0');
  });
});
