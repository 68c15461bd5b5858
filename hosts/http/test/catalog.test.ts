import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
const CATEGORY = '0190f0c8-0000-7000-8000-00000000ca01';

interface Product {
  id: string;
  parentId: string | null;
  sku: string;
  revision: number;
  translations: Record<string, Record<string, string | null>> | null;
  prices: unknown;
  [field: string]: unknown;
}
interface Detail {
  product: Product;
  own: Product;
  variantIds: string[];
}
interface Page {
  items: Product[];
  next: string | null;
}

const send = (method: string, path: string, body?: unknown, token = h.shopA.token) =>
  h.call(method, path, { token, body });
const list = async (query: string) => {
  const response = await send('GET', `/api/catalog/products${query}`);
  expect(response.status).toBe(200);
  return response.body as unknown as Page;
};
const pointers = (body: Record<string, unknown>) =>
  ((body.errors ?? []) as { pointer: string }[]).map((error) => error.pointer);

let parent: Detail;
let red: Detail;
let blue: Detail;

beforeAll(async () => {
  h = await createHarness();
  // The German texts below need German enabled in the shop (decision 0029).
  const german = await send('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' });
  expect(german.status).toBe(200);
  const category = await send('PUT', `/api/catalog/categories/${CATEGORY}`, {
    revision: 0,
    translations: { en: { name: 'Outdoor' } },
  });
  expect(category.status).toBe(200);
});
afterAll(async () => h?.close());

describe('catalog products over HTTP', () => {
  it('creates a parent and two variants (201) that inherit what they leave out', async () => {
    const created = await send('POST', '/api/catalog/products', {
      sku: 'TENT',
      translations: { en: { name: 'Dome Tent', description: 'Sleeps two' }, de: { name: 'Kuppelzelt' } },
      prices: [{ currency: 'EUR', gross: 19900, net: 16723, listGross: 24900, listNet: 20924 }],
      purchasePrices: [{ currency: 'EUR', gross: 9000, net: 9000 }],
      tags: ['camping'],
      categoryIds: [CATEGORY],
      releaseDate: '2025-03-01',
      weightGrams: 2300,
    });
    expect(created.status).toBe(201);
    parent = created.body as unknown as Detail;
    expect(parent.product).toEqual(parent.own);
    expect(parent.own).toMatchObject({ parentId: null, sku: 'TENT', revision: 1, active: true });
    expect(parent.own.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(JSON.stringify(created.body)).not.toContain(h.shopA.tenantId);
    expect(created.body.product).not.toHaveProperty('tenantId');

    const variant = async (sku: string, colour: string, extra: Record<string, unknown> = {}) => {
      const response = await send('POST', '/api/catalog/products', {
        parentId: parent.own.id,
        sku,
        options: { colour },
        ...extra,
      });
      expect(response.status).toBe(201);
      return response.body as unknown as Detail;
    };
    red = await variant('TENT-RED', 'red', {
      translations: { en: { name: 'Dome Tent red' } },
      active: false,
    });
    blue = await variant('TENT-BLUE', 'blue', { stockAvailable: 4 });
    expect(blue.own).toMatchObject({ prices: null, tags: null, translations: null, stockAvailable: 4 });
    expect(blue.product).toMatchObject({
      prices: parent.own.prices,
      purchasePrices: parent.own.purchasePrices,
      tags: ['camping'],
      categoryIds: [CATEGORY],
      releaseDate: '2025-03-01',
      weightGrams: 2300,
      translations: parent.own.translations,
      stockAvailable: 4,
    });
    expect(red.product.translations).toEqual({
      en: { name: 'Dome Tent red', description: 'Sleeps two' },
      de: { name: 'Kuppelzelt' },
    });

    const fetched = await send('GET', `/api/catalog/products/${parent.own.id}`);
    expect(fetched.status).toBe(200);
    expect((fetched.body as unknown as Detail).variantIds).toEqual([red.own.id, blue.own.id]);
  });

  it('lists parents by default, variants of a parent, and filters on the effective values', async () => {
    expect((await list('')).items.map((item) => item.id)).toEqual([parent.own.id]);
    const variants = await list(`?parentId=${parent.own.id}`);
    expect(variants.items.map((item) => item.sku)).toEqual(['TENT-RED', 'TENT-BLUE']);
    expect(variants.items[1]).toMatchObject({ tags: ['camping'], prices: parent.own.prices });

    const all = (query: string) =>
      list(`?kind=all&${query}`).then((page) => page.items.map((item) => item.sku));
    expect(await all('search=kuppel')).toEqual(['TENT', 'TENT-RED', 'TENT-BLUE']);
    expect(await all('search=TENT%20RED')).toEqual(['TENT-RED']);
    expect(await all('search=tent-b')).toEqual(['TENT-BLUE']);
    expect(await all('sku=tent-red')).toEqual(['TENT-RED']);
    expect(await all('active=false')).toEqual(['TENT-RED']);
    expect(await all('active=true')).toEqual(['TENT', 'TENT-BLUE']);
    expect(await all('tag=camping')).toEqual(['TENT', 'TENT-RED', 'TENT-BLUE']);
    expect(await all(`categoryId=${CATEGORY}`)).toEqual(['TENT', 'TENT-RED', 'TENT-BLUE']);
    expect(await all('tag=beach')).toEqual([]);
    expect((await list('?kind=variant&search=dome')).items.map((item) => item.sku)).toEqual([
      'TENT-RED',
      'TENT-BLUE',
    ]);
  });

  it('pages by id without repeating or skipping, even when products are added between pages', async () => {
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      const response = await send('POST', '/api/catalog/products', {
        sku: `PAGE-${n}`,
        translations: { en: { name: `Paged ${n}` } },
        tags: ['paged'],
      });
      expect(response.status).toBe(201);
    }
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: Page = await list(`?tag=paged&limit=3${after ? `&after=${after}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((item) => item.sku));
      after = page.next;
      pages += 1;
      if (pages === 1) {
        const late = await send('POST', '/api/catalog/products', {
          sku: 'PAGE-8',
          translations: { en: { name: 'Paged 8' } },
          tags: ['paged'],
        });
        expect(late.status).toBe(201);
      }
    } while (after);
    expect(seen).toEqual(['PAGE-1', 'PAGE-2', 'PAGE-3', 'PAGE-4', 'PAGE-5', 'PAGE-6', 'PAGE-7', 'PAGE-8']);
    expect(pages).toBe(3);
    for (const limit of ['0', '101', 'x']) {
      const refused = await send('GET', `/api/catalog/products?limit=${limit}`);
      expect(refused.status).toBe(422);
      expect(pointers(refused.body)).toEqual(['/limit']);
    }
  });

  it('clears a variant field with null in a PATCH, so it inherits again', async () => {
    const patched = await send('PATCH', `/api/catalog/products/${red.own.id}`, {
      revision: 1,
      translations: null,
      active: null,
      prices: [{ currency: 'EUR', gross: 17900, net: 15042 }],
    });
    expect(patched.status).toBe(200);
    const detail = patched.body as unknown as Detail;
    expect(detail.own).toMatchObject({ revision: 2, translations: null, active: null });
    expect(detail.product).toMatchObject({
      translations: parent.own.translations,
      active: true,
      prices: [{ currency: 'EUR', gross: 17900, net: 15042 }],
    });
    const stale = await send('PATCH', `/api/catalog/products/${red.own.id}`, { revision: 1, active: false });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_REVISION', expected: 1, actual: 2 });
  });

  it('points at each invalid field', async () => {
    const unknownCurrency = await send('POST', '/api/catalog/products', {
      sku: 'BAD',
      translations: { en: { name: 'Bad' } },
      prices: [{ currency: 'USD', gross: 100, net: 84 }],
    });
    expect(unknownCurrency.status).toBe(422);
    expect(unknownCurrency.type).toContain('application/problem+json');
    expect(pointers(unknownCurrency.body)).toEqual(['/prices/0/currency']);

    const malformed = await send('POST', '/api/catalog/products', {
      sku: ' ',
      prices: [{ currency: 'EUR', gross: 1.5, net: -1 }],
      releaseDate: '2025-02-30',
      stockAvailable: -1,
    });
    expect(malformed.status).toBe(422);
    expect(pointers(malformed.body).sort()).toEqual([
      '/prices/0/gross',
      '/prices/0/net',
      '/releaseDate',
      '/sku',
      '/stockAvailable',
    ]);

    const taken = await send('POST', '/api/catalog/products', {
      sku: 'tent',
      translations: { en: { name: 'x' } },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'SKU_TAKEN', errors: [{ pointer: '/sku' }] });
  });

  it('answers 404 for a product of another shop, and changes nothing there', async () => {
    const B = h.shopB.token;
    const path = `/api/catalog/products/${parent.own.id}`;
    expect((await send('GET', path, undefined, B)).status).toBe(404);
    expect((await send('PATCH', path, { revision: 1, sku: 'STOLEN' }, B)).status).toBe(404);
    expect((await send('DELETE', path, { revision: 1 }, B)).status).toBe(404);
    const variantOfForeign = await send(
      'POST',
      '/api/catalog/products',
      { parentId: parent.own.id, sku: 'INTRUDER', options: { colour: 'black' } },
      B,
    );
    expect(variantOfForeign.status).toBe(422);
    expect(pointers(variantOfForeign.body)).toEqual(['/parentId']);
    expect((await list('?kind=all&search=tent')).items).toHaveLength(3);
    expect((await send('GET', path)).body).toMatchObject({ own: { sku: 'TENT', revision: 1 } });
  });

  it('deletes variants first, then the parent (revision in the query string)', async () => {
    const refused = await send('DELETE', `/api/catalog/products/${parent.own.id}?revision=1`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('REFERENCED');
    expect(await send('DELETE', `/api/catalog/products/${red.own.id}?revision=2`)).toMatchObject({
      status: 200,
    });
    expect(await send('DELETE', `/api/catalog/products/${blue.own.id}?revision=1`)).toMatchObject({
      status: 200,
    });
    const deleted = await send('DELETE', `/api/catalog/products/${parent.own.id}?revision=1`);
    expect(deleted).toMatchObject({ status: 200, body: { id: parent.own.id, deleted: true } });
    expect((await send('GET', `/api/catalog/products/${parent.own.id}`)).status).toBe(404);
  });
});

describe('rule metadata over HTTP', () => {
  it('saves a product’s metadata with settings.write and answers NOT_FOUND for unknown entities', async () => {
    const lamp = (
      await send('POST', '/api/catalog/products', { sku: 'LAMP', translations: { en: { name: 'Lamp' } } })
    ).body as unknown as Detail;
    const saved = await send('PUT', `/api/automation/entities/products/${lamp.own.id}`, {
      revision: 1,
      data: { supplier: 'north' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      entity: 'products',
      id: lamp.own.id,
      revision: 2,
      ruleMetadata: { supplier: 'north' },
      effective: { supplier: 'north' },
    });
    const customer = await send('PUT', `/api/automation/entities/customers/${lamp.own.id}`, {
      revision: 1,
      data: {},
    });
    expect(customer).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const unknownKind = await send('PUT', `/api/automation/entities/widgets/${lamp.own.id}`, {
      revision: 1,
      data: {},
    });
    expect(unknownKind.status).toBe(422);
    expect(pointers(unknownKind.body)).toEqual(['/entity']);
  });
});
