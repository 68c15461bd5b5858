import { createDatabase, type Database, listReceipts } from '@cartwright/repository';
import { createTestDatabase, withDatabase } from '@cartwright/repository/testing';
import { createServices, type Services } from '@cartwright/service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type WorkerHandle } from '../src/index.ts';
import {
  appendEvents,
  CONSUMER,
  collectLog,
  createShops,
  drain,
  expectEachEventCountedOnce,
  ONLY_STATISTICS,
} from './outbox-state.ts';

const databaseUrl = process.env.DATABASE_URL;
let database: Database;
let services: Services;
/** One connection pool per worker handle on PostgreSQL, as two replicas would have. */
const workerDatabases: Database[] = [];
const handles: WorkerHandle[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  if (databaseUrl) {
    const [row] = await database.rows<{ name: string }>(sql`select current_database() as name`);
    for (let index = 0; index < 2; index++) {
      workerDatabases.push(
        await createDatabase({
          databaseUrl: withDatabase(databaseUrl, row!.name),
          migrate: false,
          maxConnections: 3,
        }),
      );
    }
  }
});
afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.stop()));
  await Promise.all(workerDatabases.map((db) => db.close()));
  await database?.close();
});

describe(`two worker owners on one ${databaseUrl ? 'PostgreSQL database (two pools)' : 'PGlite database'}`, () => {
  it('count every event exactly once while shops append concurrently', async () => {
    // Shops first: consumeOnce only creates cursors for new shops when nothing else is claimable.
    // An odd number, so that even PGlite's strict turn-taking hands each shop to both owners.
    const shops = await createShops(services, 3, 'Busy');
    const sink = collectLog();
    for (const owner of ['replica-a', 'replica-b']) {
      const own = workerDatabases[handles.length] ?? database;
      handles.push(
        startWorkers(createServices(own), {
          roles: ['memory-worker'],
          runners: ONLY_STATISTICS,
          owner,
          pollMs: 20,
          // Small claims so the owners take turns on the same shops many times.
          batchSize: 7,
          maxBatches: 3,
          log: sink.log,
        }),
      );
    }

    // Two writers per shop, all at once: 3 shops × 2 × 100 events in transactions of 1 to 4 events.
    await Promise.all(
      shops.flatMap((shop, index) => [
        appendEvents(services, shop, 100, 1 + (index % 4)),
        appendEvents(services, shop, 100, 4 - (index % 4)),
      ]),
    );
    await drain(handles, database, shops);

    expect(sink.lines.filter((line) => line.level !== 'info')).toEqual([]);
    await expectEachEventCountedOnce(database, shops);
    // Both owners worked, and they took turns on the same shops (claims of at most 21 events).
    const sharedShops: string[] = [];
    for (const shop of shops) {
      const receipts = await listReceipts(database.db, shop, CONSUMER);
      const processors = new Set(receipts.map((receipt) => receipt.processedBy));
      expect([...processors].every((owner) => owner === 'replica-a' || owner === 'replica-b')).toBe(true);
      if (processors.size === 2) sharedShops.push(shop);
    }
    expect(sharedShops.length).toBeGreaterThan(0);
    // The loops' own reports agree: no event was applied twice.
    const receiptCount = await database.rows<{ count: number }>(
      sql`select count(*)::int as count from outbox_receipts where consumer = ${CONSUMER}`,
    );
    expect(sink.appliedBy('replica-a') + sink.appliedBy('replica-b')).toBe(receiptCount[0]!.count);
  });
});
