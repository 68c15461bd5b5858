import { hostname } from 'node:os';
import { listReceipts, outboxHead } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
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
import { REPLICA_KIND, type Replicas, replicasOn } from './replicas.ts';

let database: TestDatabase;
let services: Services;
let replicas: Replicas;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  replicas = replicasOn(database);
});
afterAll(async () => {
  await replicas?.killAll();
  await database?.close();
});

describe(`a worker killed while it holds a lease (${REPLICA_KIND})`, () => {
  it('is taken over by another owner once the lease expires, and every event is counted once', async () => {
    const [shop] = await createShops(services, 1, 'Crash');
    await appendEvents(services, shop!, 300, 25);
    const firstHead = await outboxHead(database.db, shop!);
    const doomed = await replicas.start({ role: 'memory-worker', leaseMs: 1500, pollMs: 50 });

    // Progress: the replica works through the first backlog on its own.
    await until(async () => (await cursorOf(database.db, shop!).catch(() => null))?.position === firstHead);

    // More events: the replica claims the shop again and is killed inside the batch that counts them.
    await doomed.killWhileWriting('event_statistics', () => appendEvents(services, shop!, 300, 25));
    // The dead replica's lease stands; its batch rolled back, so the cursor did not move.
    const [held] = await database.rows<{ owner: string; expires: string; position: number }>(sql`
      select lease_owner as owner, lease_expires_at::text as expires, position::int as position
      from outbox_cursors where tenant_id = ${shop} and consumer = ${CONSUMER}`);
    expect(held!.owner.startsWith(`${hostname()}:`)).toBe(true);
    expect(held!.position).toBe(firstHead);

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
