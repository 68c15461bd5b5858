import type { Database } from '@cartwright/repository';
import { listEventStatistics, listReceipts } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumeOnce,
  createServices,
  createShop,
  eventStatisticsProjection,
  recordEvent,
  type Services,
} from '../src/index.ts';

let database: Database;
let services: Services;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
});
afterAll(async () => database?.close());

const options = { owner: 'test-worker', leaseMs: 30_000, batchSize: 1, maxBatches: 1 };

async function emit(tenantId: string, count: number) {
  await database.transaction(async (tx) => {
    for (let n = 0; n < count; n++) {
      await recordEvent(tx, services, tenantId, { kind: 'system', process: 'test' }, 'test.ping', { n });
    }
  });
}

describe('consumeOnce', () => {
  it('serves a shop whose first events arrive while another shop is behind, before that shop catches up', async () => {
    const busy = await createShop(services, { name: 'Busy' });
    await emit(busy.tenantId, 30);
    const first = await consumeOnce(services, eventStatisticsProjection, options);
    expect(first).toEqual({ tenantId: busy.tenantId, applied: 1, leaseLost: false });

    const newcomer = await createShop(services, { name: 'Newcomer' });
    const next = await consumeOnce(services, eventStatisticsProjection, options);
    expect(next.tenantId).toBe(newcomer.tenantId);
  });

  it('applies each event once: a rewound cursor replays nothing', async () => {
    const shop = await createShop(services, { name: 'Exact' });
    await emit(shop.tenantId, 5);
    const all = { ...options, batchSize: 100, maxBatches: 100 };
    while ((await consumeOnce(services, eventStatisticsProjection, all)).tenantId) {}
    const counted = await listEventStatistics(database.db, shop.tenantId);
    expect(counted.find((row) => row.name === 'test.ping')?.count).toBe(5);

    await database.db.execute(sql`update outbox_cursors set position = 0 where tenant_id = ${shop.tenantId}`);
    const replay = await consumeOnce(services, eventStatisticsProjection, all);
    expect(replay).toMatchObject({ tenantId: shop.tenantId, applied: 0 });
    const recounted = await listEventStatistics(database.db, shop.tenantId);
    expect(recounted.find((row) => row.name === 'test.ping')?.count).toBe(5);
    const receipts = await listReceipts(database.db, shop.tenantId, eventStatisticsProjection.name);
    expect(new Set(receipts.map((row) => row.eventSequence)).size).toBe(receipts.length);
  });
});
