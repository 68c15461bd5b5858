import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceCursor,
  appendEvents,
  claimCursor,
  type Database,
  ensureCursors,
  insertTenant,
  listEvents,
  outboxHead,
  recordReceipts,
  releaseCursors,
} from '../src/index.ts';
import { createTestDatabase } from '../src/testing.ts';

let database: Database;
const shopA = '0190f0c8-0000-7000-8000-00000000000a';
const shopB = '0190f0c8-0000-7000-8000-00000000000b';
const event = (n: number) => ({
  id: `0190f0c8-0000-7000-8000-${String(n).padStart(12, '0')}`,
  name: 'test.happened',
  payload: { n },
  actor: { kind: 'system' },
  occurredAt: new Date(),
});

beforeAll(async () => {
  database = await createTestDatabase();
  await insertTenant(database.db, { id: shopA, name: 'A' });
  await insertTenant(database.db, { id: shopB, name: 'B' });
});
afterAll(async () => database?.close());

describe('outbox', () => {
  it('numbers events gaplessly per shop and in commit order', async () => {
    await database.transaction((tx) => appendEvents(tx, shopA, [event(1), event(2)]));
    await database.transaction((tx) => appendEvents(tx, shopB, [event(3)]));
    await database.transaction((tx) => appendEvents(tx, shopA, [event(4)]));
    const a = await listEvents(database.db, shopA, { limit: 10 });
    expect(a.map((row) => row.sequence)).toEqual([1, 2, 3]);
    expect(a.map((row) => (row.payload as { n: number }).n)).toEqual([1, 2, 4]);
    expect(await outboxHead(database.db, shopB)).toBe(1);
  });

  it('keeps the events of a rolled-back transaction out, and its sequence numbers unused', async () => {
    await expect(
      database.transaction(async (tx) => {
        await appendEvents(tx, shopB, [event(5)]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await database.transaction((tx) => appendEvents(tx, shopB, [event(6)]));
    const b = await listEvents(database.db, shopB, { limit: 10 });
    expect(b.map((row) => row.sequence)).toEqual([1, 2]);
  });

  it('leases a cursor to one owner and fences an owner that lost it', async () => {
    await database.transaction((tx) => ensureCursors(tx, 'test'));
    const first = await database.transaction((tx) => claimCursor(tx, 'test', 'w1', 30_000));
    const second = await database.transaction((tx) => claimCursor(tx, 'test', 'w2', 30_000));
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second!.tenantId).not.toBe(first!.tenantId);
    expect(await database.transaction((tx) => claimCursor(tx, 'test', 'w3', 30_000))).toBeUndefined();
    expect(
      await database.transaction((tx) =>
        advanceCursor(tx, {
          consumer: 'test',
          tenantId: first!.tenantId,
          owner: 'w2',
          from: 0,
          to: 1,
          leaseMs: 1000,
        }),
      ),
    ).toBe(false);
    expect(
      await database.transaction((tx) =>
        advanceCursor(tx, {
          consumer: 'test',
          tenantId: first!.tenantId,
          owner: 'w1',
          from: 0,
          to: 1,
          leaseMs: 1000,
        }),
      ),
    ).toBe(true);
    await database.transaction((tx) => releaseCursors(tx, 'test', 'w1'));
    const again = await database.transaction((tx) => claimCursor(tx, 'test', 'w3', 30_000));
    expect(again).toEqual({ tenantId: first!.tenantId, position: 1 });
  });

  it('records a receipt once per consumer and event', async () => {
    const fresh = await recordReceipts(database.db, shopA, 'test', [1, 2], 'w1');
    const replay = await recordReceipts(database.db, shopA, 'test', [2, 3], 'w2');
    expect([...fresh]).toEqual([1, 2]);
    expect([...replay]).toEqual([3]);
  });
});
