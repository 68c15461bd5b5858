import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyMigrations,
  deleteUnsettledReceipts,
  findEffectReceipts,
  findStepReceipts,
  insertPendingReceipts,
} from '../src/index.ts';
import { createEmptyTestDatabase, migrationsThrough, type TestDatabase } from '../src/testing.ts';

// Migrations keep what is stored: a database is migrated up to a point, given rows, then migrated
// to the end, and the rows are read back through the current queries.

let database: TestDatabase;
let through0004: string;
const shop = '0190f0ca-0000-7000-8000-00000000000a';
const job = '0190f0ca-0000-7000-8000-000000000001';

beforeAll(async () => {
  database = await createEmptyTestDatabase();
  through0004 = migrationsThrough('0004_flows');
});
afterAll(async () => {
  await database?.close();
  if (through0004) rmSync(through0004, { recursive: true, force: true });
});

describe('0005: step receipts become effect receipts', () => {
  it('keeps every step receipt, readable as a flow effect receipt and as a step receipt', async () => {
    await applyMigrations(database, through0004);
    await database.db.execute(sql`
      insert into step_receipts (tenant_id, key, job_id, node_id, status, result, created_at, settled_at)
      values (${shop}, ${`flow:${job}:tag`}, ${job}, 'tag', 'confirmed', '{"tags":["vip"]}'::jsonb,
              '2026-01-02T03:04:05Z', '2026-01-02T03:04:06Z'),
             (${shop}, ${`flow:${job}:note`}, ${job}, 'note', 'pending', null, '2026-01-02T03:04:07Z', null)`);
    await applyMigrations(database);

    const keys = [`flow:${job}:tag`, `flow:${job}:note`];
    const effects = await findEffectReceipts(database.db, shop, keys);
    expect(effects.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      {
        tenantId: shop,
        key: `flow:${job}:note`,
        scope: 'flow',
        scopeId: job,
        step: 'note',
        status: 'pending',
        result: null,
        createdAt: new Date('2026-01-02T03:04:07Z'),
        settledAt: null,
      },
      {
        tenantId: shop,
        key: `flow:${job}:tag`,
        scope: 'flow',
        scopeId: job,
        step: 'tag',
        status: 'confirmed',
        result: { tags: ['vip'] },
        createdAt: new Date('2026-01-02T03:04:05Z'),
        settledAt: new Date('2026-01-02T03:04:06Z'),
      },
    ]);
    const steps = await findStepReceipts(database.db, shop, keys);
    expect(steps.map(({ key, jobId, nodeId, status }) => ({ key, jobId, nodeId, status }))).toEqual(
      expect.arrayContaining([
        { key: `flow:${job}:tag`, jobId: job, nodeId: 'tag', status: 'confirmed' },
        { key: `flow:${job}:note`, jobId: job, nodeId: 'note', status: 'pending' },
      ]),
    );
  });

  it('keeps the key unique and the retry working on migrated receipts', async () => {
    const again = await insertPendingReceipts(database.db, [
      { tenantId: shop, key: `flow:${job}:tag`, jobId: job, nodeId: 'tag' },
    ]);
    expect(again.size).toBe(0);
    await deleteUnsettledReceipts(database.db, shop, job);
    const left = await findEffectReceipts(database.db, shop, [`flow:${job}:tag`, `flow:${job}:note`]);
    expect(left.map((receipt) => receipt.key)).toEqual([`flow:${job}:tag`]);
  });
});
