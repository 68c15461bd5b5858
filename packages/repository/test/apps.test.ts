import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteApp,
  findApp,
  findAppVersion,
  insertApp,
  insertAppRecord,
  insertAppVersion,
  listAppRecords,
  listApps,
  purgeAppRecords,
  updateAppAtRevision,
  updateAppRecordAtRevision,
} from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

// The apps tables (issue 15): installed apps revision-bound, versions kept, and records filtered
// by field values through the GIN index, each shop seeing only its own.

let database: TestDatabase;
const SHOP_A = '0190f0c8-0000-7000-8000-0000000a0001';
const SHOP_B = '0190f0c8-0000-7000-8000-0000000a0002';
const record = (n: number) => `0190f0c8-0000-7000-8000-0000000a01${String(n).padStart(2, '0')}`;
const at = new Date('2026-05-01T00:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe('apps', () => {
  it('installs, upgrades at a revision, keeps versions and filters records per shop', async () => {
    await database.transaction(async (tx) => {
      const manifest = { apiVersion: 1, id: 'loyalty', version: '1.0.0' };
      await insertApp(tx, { tenantId: SHOP_A, appId: 'loyalty', version: '1.0.0', manifest });
      await insertAppVersion(tx, { tenantId: SHOP_A, appId: 'loyalty', version: '1.0.0', manifest });
      expect(await findApp(tx, SHOP_B, 'loyalty')).toBeUndefined();
      const next = { ...manifest, version: '1.1.0' };
      expect(
        await updateAppAtRevision(
          tx,
          SHOP_A,
          'loyalty',
          2,
          { version: '1.1.0', manifest: next, actionSettings: {} },
          at,
        ),
      ).toBeUndefined();
      const upgraded = await updateAppAtRevision(
        tx,
        SHOP_A,
        'loyalty',
        1,
        { version: '1.1.0', manifest: next, actionSettings: {} },
        at,
      );
      expect(upgraded).toMatchObject({ version: '1.1.0', revision: 2 });
      expect((await findAppVersion(tx, SHOP_A, 'loyalty', '1.0.0'))?.manifest).toEqual(manifest);
      expect((await listApps(tx, SHOP_A)).map((app) => app.appId)).toEqual(['loyalty']);

      for (const [n, tenantId, tier] of [
        [1, SHOP_A, 'gold'],
        [2, SHOP_A, 'silver'],
        [3, SHOP_A, 'gold'],
        [4, SHOP_B, 'gold'],
      ] as const) {
        await insertAppRecord(tx, {
          tenantId,
          id: record(n),
          appId: 'loyalty',
          entity: 'note',
          data: { tier },
        });
      }
      const gold = await listAppRecords(tx, SHOP_A, 'loyalty', 'note', { tier: 'gold' }, { limit: 10 });
      expect(gold.map((row) => row.id)).toEqual([record(1), record(3)]);
      const page = await listAppRecords(tx, SHOP_A, 'loyalty', 'note', {}, { limit: 2, after: record(1) });
      expect(page.map((row) => row.id)).toEqual([record(2), record(3)]);
      expect(await updateAppRecordAtRevision(tx, SHOP_A, record(4), 1, { tier: 'x' }, at)).toBeUndefined();
      expect(await updateAppRecordAtRevision(tx, SHOP_A, record(1), 1, { tier: 'bronze' }, at)).toMatchObject(
        {
          revision: 2,
          data: { tier: 'bronze' },
        },
      );
      expect(await purgeAppRecords(tx, SHOP_A, 'loyalty')).toBe(3);
      expect(await listAppRecords(tx, SHOP_B, 'loyalty', 'note', {}, { limit: 10 })).toHaveLength(1);
      expect(await deleteApp(tx, SHOP_A, 'loyalty')).toBe(true);
      expect(await findAppVersion(tx, SHOP_A, 'loyalty', '1.1.0')).toBeUndefined();
    });
  });
});
