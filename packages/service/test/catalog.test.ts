import { type Database, insertDefinition, listEvents } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  type CreatedShop,
  createServices,
  createShop,
  invokeOperation,
  type Principal,
  type Result,
  type Services,
} from '@cartwright/service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNamed, principalOf, successOf } from './principals.ts';

let database: Database;
let services: Services;
let shop: CreatedShop;
let owner: Principal;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await createShop(services, { name: 'Catalog shop', ownerEmail: 'owner@catalog.test' });
  owner = await principalOf(services, shop.token);
  // The German texts below need German enabled in the shop (decision 0029).
  successOf(
    await invokeOperation(services, operationNamed('basis.languages.save'), owner, {
      code: 'de',
      revision: 0,
      name: 'Deutsch',
    }),
  );
});
afterAll(async () => database?.close());

interface Product {
  id: string;
  parentId: string | null;
  sku: string;
  revision: number;
  translations: Record<string, Record<string, string | null>> | null;
  prices: { currency: string; gross: number; net: number }[] | null;
  tags: string[] | null;
  active: boolean | null;
  ruleMetadata: Record<string, unknown> | null;
  [field: string]: unknown;
}
interface Detail {
  product: Product;
  own: Product;
  variantIds: string[];
}

function call(name: string, input: Record<string, unknown>): Promise<Result<unknown>> {
  return invokeOperation(services, operationNamed(name), owner, input);
}

async function create(input: Record<string, unknown>): Promise<Detail> {
  return successOf(await call('catalog.products.create', input)) as Detail;
}

async function get(id: string): Promise<Detail> {
  return successOf(await call('catalog.products.get', { id })) as Detail;
}

async function failureOf(result: Promise<Result<unknown>>) {
  const settled = await result;
  if (settled.ok) throw new Error('expected a failure');
  return settled;
}

async function eventsNamed(name: string) {
  return listEvents(database.db, shop.tenantId, { name, limit: 100 });
}

const shirt = { en: { name: 'Shirt', description: 'Organic cotton' }, de: { name: 'Hemd' } };
const eur = [{ currency: 'EUR', gross: 1999, net: 1680 }];

describe('variants', () => {
  let parent: Detail;

  beforeAll(async () => {
    parent = await create({ sku: 'SHIRT', translations: shirt, prices: eur, tags: ['summer'] });
  });

  it('inherit null and absent fields from their parent, but keep an explicit empty description', async () => {
    const variant = await create({
      parentId: parent.product.id,
      sku: 'SHIRT-M',
      options: { size: 'M' },
      translations: { en: { description: '' } },
      stockAvailable: 5,
    });
    expect(variant.own).toMatchObject({ prices: null, tags: null, active: null, stockAvailable: 5 });
    expect(variant.own.translations).toEqual({ en: { description: '' } });
    expect(variant.product).toMatchObject({
      id: variant.own.id,
      parentId: parent.product.id,
      sku: 'SHIRT-M',
      prices: eur,
      tags: ['summer'],
      active: true,
      stockAvailable: 5,
      options: { size: 'M' },
    });
    expect(variant.product.translations).toEqual({
      en: { name: 'Shirt', description: '' },
      de: { name: 'Hemd' },
    });
    expect((await get(parent.product.id)).variantIds).toEqual([variant.own.id]);
  });

  it('inherit again when a field is set back to null, and follow later changes of the parent', async () => {
    const variant = await create({
      parentId: parent.product.id,
      sku: 'SHIRT-L',
      options: { size: 'L' },
      translations: { en: { name: 'Shirt L' } },
      prices: [{ currency: 'EUR', gross: 2499, net: 2100 }],
    });
    expect(variant.product.translations?.en?.name).toBe('Shirt L');
    const cleared = successOf(
      await call('catalog.products.update', {
        id: variant.own.id,
        revision: 1,
        translations: null,
        prices: null,
      }),
    ) as Detail;
    expect(cleared.own).toMatchObject({ revision: 2, translations: null, prices: null });
    expect(cleared.product.translations).toEqual(shirt);
    expect(cleared.product.prices).toEqual(eur);

    successOf(
      await call('catalog.products.update', { id: parent.product.id, revision: 1, tags: ['autumn'] }),
    );
    expect((await get(variant.own.id)).product.tags).toEqual(['autumn']);
  });

  it('merge rule metadata key by key: the variant’s keys win, its null keys inherit', async () => {
    const variant = await create({ parentId: parent.product.id, sku: 'SHIRT-S', options: { size: 'S' } });
    const parentNow = await get(parent.product.id);
    successOf(
      await call('automation.entities.save', {
        entity: 'products',
        id: parent.product.id,
        revision: parentNow.own.revision,
        data: { brand: 'Acme', season: 'summer' },
      }),
    );
    const saved = successOf(
      await call('automation.entities.save', {
        entity: 'products',
        id: variant.own.id,
        revision: 1,
        data: { season: null, colour: 'red' },
      }),
    );
    expect(saved).toEqual({
      entity: 'products',
      id: variant.own.id,
      revision: 2,
      ruleMetadata: { season: null, colour: 'red' },
      effective: { brand: 'Acme', season: 'summer', colour: 'red' },
    });
    expect((await get(variant.own.id)).product.ruleMetadata).toEqual({
      brand: 'Acme',
      season: 'summer',
      colour: 'red',
    });
    expect((await eventsNamed('automation.entity.saved')).map((event) => event.payload)).toContainEqual({
      entity: 'products',
      id: variant.own.id,
      revision: 2,
    });
  });

  it('need options that tell them from their siblings, and have no variants of their own', async () => {
    const twin = await failureOf(
      call('catalog.products.create', {
        parentId: parent.product.id,
        sku: 'SHIRT-M2',
        options: { size: 'M' },
      }),
    );
    expect(twin).toMatchObject({ code: 'CONFLICT', errors: [{ pointer: '/options' }] });
    const bare = await failureOf(
      call('catalog.products.create', { parentId: parent.product.id, sku: 'SHIRT-X' }),
    );
    expect(bare).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/options' }] });
    const variantId = (await get(parent.product.id)).variantIds[0]!;
    const nested = await failureOf(
      call('catalog.products.create', {
        parentId: variantId,
        sku: 'SHIRT-M-RED',
        options: { colour: 'red' },
      }),
    );
    expect(nested).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/parentId' }] });
    const parentOptions = await failureOf(
      call('catalog.products.create', { sku: 'LONE', translations: shirt, options: { size: 'M' } }),
    );
    expect(parentOptions).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/options' }] });
  });
});

describe('products', () => {
  it('need a name in the main language unless they are variants', async () => {
    const nameless = await failureOf(
      call('catalog.products.create', { sku: 'NAMELESS', translations: { de: { name: 'Ohne' } } }),
    );
    expect(nameless).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ pointer: '/translations/en/name' }],
    });
  });

  it('keep SKUs unique per shop, compared case-insensitively', async () => {
    const first = await create({ sku: 'Mug-1', translations: { en: { name: 'Mug' } } });
    const taken = await failureOf(
      call('catalog.products.create', { sku: 'mug-1', translations: { en: { name: 'Mug' } } }),
    );
    expect(taken).toMatchObject({
      code: 'SKU_TAKEN',
      errors: [{ pointer: '/sku' }],
      extensions: { productId: first.own.id },
    });
    const second = await create({ sku: 'Mug-2', translations: { en: { name: 'Mug' } } });
    expect(
      await failureOf(call('catalog.products.update', { id: second.own.id, revision: 1, sku: 'MUG-1' })),
    ).toMatchObject({ code: 'SKU_TAKEN' });
    const renamed = successOf(
      await call('catalog.products.update', { id: first.own.id, revision: 1, sku: 'MUG-1' }),
    ) as Detail;
    expect(renamed.own.sku).toBe('MUG-1');

    const other = await createShop(services, { name: 'Other shop', ownerEmail: 'owner@other.test' });
    const elsewhere = await invokeOperation(
      services,
      operationNamed('catalog.products.create'),
      await principalOf(services, other.token),
      { sku: 'mug-1', translations: { en: { name: 'Mug' } } },
    );
    expect(elsewhere.ok).toBe(true);
  });

  it('let exactly one of two concurrent writers of one SKU or one set of options win', async () => {
    const racing = await Promise.all([
      call('catalog.products.create', { sku: 'RACE', translations: { en: { name: 'Race' } } }),
      call('catalog.products.create', { sku: 'race', translations: { en: { name: 'Race' } } }),
    ]);
    expect(racing.map((result) => (result.ok ? 'ok' : result.code)).sort()).toEqual(['SKU_TAKEN', 'ok']);

    const parent = await create({ sku: 'RACE-PARENT', translations: { en: { name: 'Race' } } });
    const twins = await Promise.all(
      ['RACE-A', 'RACE-B'].map((sku) =>
        call('catalog.products.create', { parentId: parent.own.id, sku, options: { lane: '1' } }),
      ),
    );
    expect(twins.map((result) => (result.ok ? 'ok' : result.code)).sort()).toEqual(['CONFLICT', 'ok']);
  });

  it('refuse a stale revision with the expected and actual revision, and change nothing', async () => {
    const mug = await create({ sku: 'STALE', translations: { en: { name: 'Mug' } } });
    successOf(await call('catalog.products.update', { id: mug.own.id, revision: 1, active: false }));
    const stale = await failureOf(
      call('catalog.products.update', { id: mug.own.id, revision: 1, manufacturer: 'Late' }),
    );
    expect(stale).toMatchObject({ code: 'STALE_REVISION', extensions: { expected: 1, actual: 2 } });
    expect((await get(mug.own.id)).own).toMatchObject({ revision: 2, active: false, manufacturer: null });
    const staleDelete = await failureOf(call('catalog.products.delete', { id: mug.own.id, revision: 1 }));
    expect(staleDelete).toMatchObject({ code: 'STALE_REVISION', extensions: { expected: 1, actual: 2 } });
  });

  it('reset a parent’s field to its default on null', async () => {
    const lamp = await create({
      sku: 'LAMP',
      translations: { en: { name: 'Lamp' } },
      tags: [' desk ', 'desk', 'light'],
      active: false,
      flags: { new: true },
    });
    expect(lamp.own).toMatchObject({
      tags: ['desk', 'light'],
      flags: { new: true, closeout: false, topseller: false, shippingFree: false },
    });
    const reset = successOf(
      await call('catalog.products.update', { id: lamp.own.id, revision: 1, tags: null, active: null }),
    ) as Detail;
    expect(reset.own).toMatchObject({ tags: [], active: true });
  });

  it('check currencies, tax class and categories against the shop, with pointers', async () => {
    const result = await failureOf(
      call('catalog.products.create', {
        sku: 'CHECKED',
        translations: { en: { name: 'Checked' } },
        prices: [...eur, { currency: 'USD', gross: 100, net: 84 }],
        purchasePrices: [{ currency: 'GBP', gross: 1, net: 1 }],
        taxClassId: '0190f0c8-0000-7000-8000-00000000dead',
        categoryIds: ['0190f0c8-0000-7000-8000-00000000beef'],
      }),
    );
    expect(result.code).toBe('VALIDATION_FAILED');
    expect(result.errors?.map((error) => error.pointer)).toEqual([
      '/prices/1/currency',
      '/purchasePrices/0/currency',
      '/taxClassId',
      '/categoryIds/0',
    ]);
    const twice = await failureOf(
      call('catalog.products.create', {
        sku: 'TWICE',
        translations: { en: { name: 'Twice' } },
        prices: [...eur, ...eur],
      }),
    );
    expect(twice).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/prices' }] });
    const reserved = await failureOf(
      call('catalog.products.create', { sku: 'RESERVED', translations: shirt, stockReserved: 3 }),
    );
    expect(reserved).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/stockReserved' }] });
  });

  it('are refused deletion while they have variants, a rule names them, or stock is reserved', async () => {
    const parent = await create({ sku: 'DESK', translations: { en: { name: 'Desk' } } });
    const variant = await create({ parentId: parent.own.id, sku: 'DESK-OAK', options: { wood: 'oak' } });
    const withVariant = await failureOf(call('catalog.products.delete', { id: parent.own.id, revision: 1 }));
    expect(withVariant).toMatchObject({
      code: 'REFERENCED',
      extensions: { references: [{ kind: 'variant', id: variant.own.id }] },
    });

    await insertDefinition(database.db, {
      tenantId: shop.tenantId,
      kind: 'rule',
      id: '0190f0c8-0000-7000-8000-00000000c0de',
      data: { condition: { type: 'cartLineItem', value: { operator: '=', identifiers: [variant.own.id] } } },
    });
    const named = await failureOf(call('catalog.products.delete', { id: variant.own.id, revision: 1 }));
    expect(named).toMatchObject({
      code: 'REFERENCED',
      extensions: { references: [{ kind: 'rule', id: '0190f0c8-0000-7000-8000-00000000c0de' }] },
    });

    const stocked = await create({ sku: 'STOCKED', translations: { en: { name: 'Stocked' } } });
    await database.rows(sql`update products set stock_reserved = 2 where id = ${stocked.own.id}`);
    const reserved = await failureOf(call('catalog.products.delete', { id: stocked.own.id, revision: 1 }));
    expect(reserved).toMatchObject({ code: 'REFERENCED', extensions: { references: [], stockReserved: 2 } });
    expect((await get(stocked.own.id)).own.id).toBe(stocked.own.id);
  });

  it('record created, updated and deleted events with the revision, in the writing transaction', async () => {
    const cup = await create({ sku: 'CUP', translations: { en: { name: 'Cup' } } });
    successOf(await call('catalog.products.update', { id: cup.own.id, revision: 1, stockAvailable: 12 }));
    successOf(await call('catalog.products.delete', { id: cup.own.id, revision: 2 }));
    const payloads = async (name: string) =>
      (await eventsNamed(name))
        .map((event) => event.payload)
        .filter((payload) => (payload as { productId?: string }).productId === cup.own.id);
    expect(await payloads('catalog.product.created')).toEqual([{ productId: cup.own.id, revision: 1 }]);
    expect(await payloads('catalog.product.updated')).toEqual([{ productId: cup.own.id, revision: 2 }]);
    expect(await payloads('catalog.product.deleted')).toEqual([{ productId: cup.own.id, revision: 2 }]);
    expect(await failureOf(call('catalog.products.get', { id: cup.own.id }))).toMatchObject({
      code: 'NOT_FOUND',
    });

    const before = (await eventsNamed('catalog.product.created')).length;
    const refused = await failureOf(call('catalog.products.create', { sku: 'CUP', translations: {} }));
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(await eventsNamed('catalog.product.created')).toHaveLength(before);
  });

  it('keep a currency from being deleted while a product is priced in it', async () => {
    successOf(await call('basis.currencies.save', { code: 'CHF', revision: 0, precision: 2, symbol: 'CHF' }));
    const watch = await create({
      sku: 'WATCH',
      translations: { en: { name: 'Watch' } },
      purchasePrices: [{ currency: 'CHF', gross: 5000, net: 5000 }],
    });
    const blocked = await failureOf(call('basis.currencies.delete', { code: 'CHF', revision: 1 }));
    expect(blocked).toMatchObject({
      code: 'REFERENCED',
      extensions: { references: [{ kind: 'product', id: watch.own.id }] },
    });
  });
});

describe('rule metadata of entities', () => {
  it('answers NOT_FOUND for entities that do not exist, the same for every kind', async () => {
    const unknown = '0190f0c8-0000-7000-8000-00000000f00d';
    for (const entity of ['products', 'customers', 'orders']) {
      const missing = await failureOf(
        call('automation.entities.save', { entity, id: unknown, revision: 1, data: {} }),
      );
      expect(missing.code).toBe('NOT_FOUND');
    }
  });
});

describe('categories', () => {
  const A = '0190f0c8-0000-7000-8000-0000000ca7a1';
  const B = '0190f0c8-0000-7000-8000-0000000ca7b2';
  const C = '0190f0c8-0000-7000-8000-0000000ca7c3';
  const name = (text: string) => ({ en: { name: text } });
  const save = (id: string, input: Record<string, unknown>) =>
    call('catalog.categories.save', { id, ...input });

  beforeAll(async () => {
    successOf(await save(A, { revision: 0, translations: name('Clothing'), position: 2 }));
    successOf(await save(B, { revision: 0, translations: name('Shirts'), parentId: A, position: 1 }));
    successOf(await save(C, { revision: 0, translations: name('Polos'), parentId: B, position: 1 }));
  });

  it('are listed by position, then id', async () => {
    const listed = successOf(await call('catalog.categories.list', {})) as { items: { id: string }[] };
    expect(listed.items.map((item) => item.id)).toEqual([B, C, A]);
  });

  it('refuse a parent that would close a cycle, or that does not exist', async () => {
    for (const parentId of [A, C]) {
      const cycle = await failureOf(save(A, { revision: 1, translations: name('Clothing'), parentId }));
      expect(cycle).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/parentId' }] });
    }
    const orphan = await failureOf(
      save(A, {
        revision: 1,
        translations: name('Clothing'),
        parentId: '0190f0c8-0000-7000-8000-0000000ca7ff',
      }),
    );
    expect(orphan).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/parentId' }] });
    const moved = successOf(await save(C, { revision: 1, translations: name('Polos'), parentId: A })) as {
      revision: number;
      parentId: string;
    };
    expect(moved).toMatchObject({ revision: 2, parentId: A });
    expect((await eventsNamed('catalog.category.saved')).map((event) => event.payload)).toContainEqual({
      key: C,
      revision: 2,
    });
  });

  it('are refused deletion while they have children or products', async () => {
    const parent = await failureOf(call('catalog.categories.delete', { id: A, revision: 1 }));
    expect(parent).toMatchObject({
      code: 'REFERENCED',
      extensions: {
        references: [
          { kind: 'category', id: B },
          { kind: 'category', id: C },
        ],
      },
    });
    const polo = await create({ sku: 'POLO', translations: name('Polo'), categoryIds: [C, C] });
    expect(polo.own.categoryIds).toEqual([C]);
    const used = await failureOf(call('catalog.categories.delete', { id: C, revision: 2 }));
    expect(used).toMatchObject({
      code: 'REFERENCED',
      extensions: { references: [{ kind: 'product', id: polo.own.id }] },
    });
    successOf(await call('catalog.products.update', { id: polo.own.id, revision: 1, categoryIds: null }));
    expect(successOf(await call('catalog.categories.delete', { id: C, revision: 2 }))).toEqual({
      id: C,
      deleted: true,
    });
  });
});
