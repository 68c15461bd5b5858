import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpBasisRevision, settingsBasis } from '../src/channels/settings.ts';
import { createServices, invokeOperation, type Principal, type Services } from '../src/index.ts';
import { createShop } from '../src/shop/shops.ts';
import { operationNamed, principalOf } from './principals.ts';

// Issue 12, item 14: the settings basis is cached per process by the shop's basis revision. What it
// answers must always be what the reading transaction would read from the tables.

let database: TestDatabase;
let services: Services;
let owner: Principal;
let tenantId: string;
const METHOD = '0190f0c8-0000-7000-8000-0000000bca01';

type Methods = Record<string, { translations: { en: { name: string } } }>;
const methodName = (basis: Record<string, unknown>) =>
  (basis.shippingMethods as Methods)[METHOD]?.translations.en.name;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const shop = await createShop(services, { name: 'Cache shop', ownerEmail: 'owner@cache.test' });
  tenantId = shop.tenantId;
  owner = await principalOf(services, shop.token);
});
afterAll(async () => database?.close());

async function saveMethod(revision: number, name: string): Promise<void> {
  const saved = await invokeOperation(services, operationNamed('basis.shipping_methods.save'), owner, {
    id: METHOD,
    revision,
    translations: { en: { name } },
  });
  expect(saved.ok).toBe(true);
}

describe('the cached settings basis', () => {
  it('answers a basis write at once, and is frozen so no reader can change what others read', async () => {
    await saveMethod(0, 'Parcel');
    const first = await settingsBasis(database.db, tenantId);
    expect(methodName(first)).toBe('Parcel');
    expect(await settingsBasis(database.db, tenantId)).toBe(first); // the cached document
    expect(() => {
      (first.shippingMethods as Record<string, unknown>)[METHOD] = null;
    }).toThrow(TypeError);
    await saveMethod(1, 'Express parcel');
    expect(methodName(await settingsBasis(database.db, tenantId))).toBe('Express parcel');
  });

  it('is read from the cache inside a transaction that locked rows but wrote no basis', async () => {
    const cached = await settingsBasis(database.db, tenantId);
    await database.transaction(async (tx) => {
      await tx.execute(sql`select 1 from tenant_counters where tenant_id = ${tenantId} for update`);
      expect(await settingsBasis(tx, tenantId)).toBe(cached);
    });
  });

  it('never caches what a transaction saw of its own uncommitted basis write', async () => {
    const rolledBack = new Error('roll back');
    await expect(
      database.transaction(async (tx) => {
        await tx.execute(
          // The write a basis operation makes, then the read a view in the same transaction makes.
          sql`update shipping_methods set translations = '{"en":{"name":"Never"}}'
            where tenant_id = ${tenantId} and id = ${METHOD}`,
        );
        await bumpBasisRevision(tx, tenantId);
        expect(methodName(await settingsBasis(tx, tenantId))).toBe('Never');
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    // The next committed write takes the revision the rolled-back one had seen: its own text shows.
    await saveMethod(2, 'Overnight');
    expect(methodName(await settingsBasis(database.db, tenantId))).toBe('Overnight');
  });
});
