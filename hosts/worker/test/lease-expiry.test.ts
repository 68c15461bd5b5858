import { hostname } from 'node:os';
import { type Database, listReceipts, outboxHead } from '@cartwright/repository';
import { createTestDatabase, withDatabase } from '@cartwright/repository/testing';
import { createServices, type Services } from '@cartwright/service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../src/index.ts';
import {
  appendEvents,
  CONSUMER,
  createShops,
  cursorOf,
  drain,
  expectEachEventCountedOnce,
  until,
} from './outbox-state.ts';
import { spawnWorker, type WorkerProcess } from './worker-process.ts';

const databaseUrl = process.env.DATABASE_URL;
let database: Database;
let services: Services;
let worker: WorkerProcess | undefined;

// PostgreSQL only: PGlite cannot be opened by two processes, so there is no second process to kill.
describe.skipIf(!databaseUrl)('a worker process killed while it holds a lease', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    services = createServices(database);
  });
  afterAll(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
      process.kill(-worker.child.pid!, 'SIGKILL');
      await worker.exited;
    }
    await database?.close();
  });

  it('is taken over by another owner once the lease expires, and every event is counted once', async () => {
    const [shop] = await createShops(services, 1, 'Crash');
    await appendEvents(services, shop!, 300, 25);
    const firstHead = await outboxHead(database.db, shop!);
    const [current] = await database.rows<{ name: string }>(sql`select current_database() as name`);
    worker = spawnWorker(
      {
        PROCESS_ROLE: 'memory-worker',
        DATABASE_URL: withDatabase(databaseUrl!, current!.name),
        WORKER_LEASE_MS: '1500',
        WORKER_POLL_MS: '50',
      },
      { detached: true },
    );

    // Progress: the process works through the first backlog on its own.
    await until(async () => (await cursorOf(database.db, shop!).catch(() => null))?.position === firstHead);

    // Block event_statistics, then append more: the process claims the shop and its batch waits on the lock.
    let releaseLock = () => {};
    const lockReleased = new Promise<void>((resolve) => {
      releaseLock = resolve;
    });
    let lockTaken = () => {};
    const locked = new Promise<void>((resolve) => {
      lockTaken = resolve;
    });
    const holder = database.transaction(async (tx) => {
      await tx.execute(sql`lock table event_statistics in share mode`);
      lockTaken();
      await lockReleased;
    });
    await locked;
    await appendEvents(services, shop!, 300, 25);
    await until(async () => {
      const [waiting] = await database.rows<{ count: number }>(sql`
        select count(*)::int as count from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike '%event_statistics%'`);
      return waiting!.count > 0;
    });
    const [held] = await database.rows<{ owner: string; expires: string; position: number }>(sql`
      select lease_owner as owner, lease_expires_at::text as expires, position::int as position
      from outbox_cursors where tenant_id = ${shop} and consumer = ${CONSUMER}`);
    expect(held!.owner.startsWith(`${hostname()}:`)).toBe(true);
    expect(held!.position).toBe(firstHead);

    process.kill(-worker.child.pid!, 'SIGKILL');
    expect(await worker.exited).toBeNull();
    releaseLock();
    await holder;

    const successor = startWorkers(services, {
      roles: ['memory-worker'],
      owner: 'successor',
      pollMs: 50,
      log: () => {},
    });
    await drain([successor], database, [shop!]);
    await successor.stop();

    await expectEachEventCountedOnce(database, [shop!]);
    const finalHead = await outboxHead(database.db, shop!);
    const receipts = await listReceipts(database.db, shop!, CONSUMER);
    expect(receipts.filter((receipt) => receipt.processedBy === held!.owner)).toHaveLength(firstHead);
    expect(receipts.filter((receipt) => receipt.processedBy === 'successor')).toHaveLength(
      finalHead - firstHead,
    );
    // The successor's first batch began after the dead owner's lease ran out (both in the database clock).
    const [takeover] = await database.rows<{ afterExpiry: boolean }>(sql`
      select bool_and(processed_at > ${held!.expires}::timestamptz) as "afterExpiry" from outbox_receipts
      where tenant_id = ${shop} and consumer = ${CONSUMER} and processed_by = 'successor'`);
    expect(takeover!.afterExpiry).toBe(true);
    expect((await cursorOf(database.db, shop!)).leaseOwner).toBeNull();
  });
});
