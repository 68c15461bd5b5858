import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// A channel's catalog and product visibility through /store-api, private channels with access
// grants (bearer token beside x-channel-key), and the product visibility blocker of a channel
// delete (decision 0030).

let h: Harness;
let mainChannel: string;
let baseRevision: number;
const CLOTHING = '0190f0c8-0000-7000-8000-0000000e0001';
const SHIRTS = '0190f0c8-0000-7000-8000-0000000e0002';
const BOOKS = '0190f0c8-0000-7000-8000-0000000e0003';
const SHIRT = '0190f0c8-0000-7000-8000-0000000e0101';
const BOOK = '0190f0c8-0000-7000-8000-0000000e0102';
const HAT = '0190f0c8-0000-7000-8000-0000000e0103';
const FASHION = '0190f0c8-0000-7000-8000-0000000e0201';
const WHOLESALE = '0190f0c8-0000-7000-8000-0000000e0202';
let fashionKey: string;
let wholesaleKey: string;

const staff = (method: string, path: string, body?: unknown, token = h.shopA.token) =>
  h.call(method, path, { token, body });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
const store = (key: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) =>
  h.call(method, path, { headers: { 'x-channel-key': key }, ...options });
const skus = (body: Record<string, unknown>) =>
  (body.items as { sku: string }[]).map((item) => item.sku).sort();

async function saveChannel(channelId: string, channel: Record<string, unknown>, revision = 0) {
  return expectOk(
    await staff('PUT', `/api/merchant/commerce/channels/${channelId}`, {
      revision,
      baseRevision,
      channel: { mode: 'storefront', paused: false, private: false, languages: ['en'], ...channel },
    }),
  );
}

beforeAll(async () => {
  h = await createHarness();
  await h.sellableTea();
  const automation = expectOk(await staff('GET', '/api/automation'));
  mainChannel = (automation.channels as { id: string; isMain: boolean }[]).find(
    (channel) => channel.isMain,
  )!.id;
  baseRevision = expectOk(await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`))
    .baseRevision as number;
  for (const [id, parentId, name] of [
    [CLOTHING, null, 'Clothing'],
    [SHIRTS, CLOTHING, 'Shirts'],
    [BOOKS, null, 'Books'],
  ] as const) {
    expectOk(
      await staff('PUT', `/api/catalog/categories/${id}`, {
        revision: 0,
        parentId,
        translations: { en: { name } },
      }),
    );
  }
  for (const [id, sku, categoryId] of [
    [SHIRT, 'SHIRT', SHIRTS],
    [BOOK, 'BOOK', BOOKS],
    [HAT, 'HAT', CLOTHING],
  ] as const) {
    expectOk(
      await staff('POST', '/api/catalog/products', {
        id,
        sku,
        translations: { en: { name: sku } },
        prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 5,
        categoryIds: [categoryId],
      }),
      201,
    );
  }
  fashionKey = (await saveChannel(FASHION, { name: { en: 'Fashion' }, catalog: { categoryIds: [CLOTHING] } }))
    .accessKey as string;
  wholesaleKey = (await saveChannel(WHOLESALE, { name: { en: 'Wholesale' }, private: true }))
    .accessKey as string;
});
afterAll(async () => h?.close());

describe('a channel’s catalog through /store-api', () => {
  it('lists and reads only the products of its category tree, and visibility decides how they are found', async () => {
    expect(skus(expectOk(await store(fashionKey, 'GET', '/store-api/products')))).toEqual(['HAT', 'SHIRT']);
    const book = await store(fashionKey, 'GET', `/store-api/products/${BOOK}`);
    expect(book.status).toBe(404);
    expect(book.body.code).toBe('NOT_FOUND');
    // The cart refuses the book as if it did not exist.
    const context = expectOk(await store(fashionKey, 'POST', '/store-api/context'), 201)
      .contextToken as string;
    const refused = await h.call('POST', '/store-api/cart/lines', {
      headers: { 'x-channel-key': fashionKey, 'x-context-token': context },
      body: { productId: BOOK, quantity: 1 },
    });
    expect([refused.status, refused.body.code]).toEqual([404, 'NOT_FOUND']);

    const hat = expectOk(await staff('GET', `/api/catalog/products/${HAT}`)) as { own: { revision: number } };
    const patched = expectOk(
      await staff('PATCH', `/api/catalog/products/${HAT}`, {
        revision: hat.own.revision,
        visibilities: { [FASHION]: 'search' },
      }),
    ) as { product: { visibilities: unknown } };
    expect(patched.product.visibilities).toEqual({ [FASHION]: 'search' });
    expect(skus(expectOk(await store(fashionKey, 'GET', '/store-api/products')))).toEqual(['SHIRT']);
    expect(skus(expectOk(await store(fashionKey, 'GET', '/store-api/products?search=hat')))).toEqual(['HAT']);
    expectOk(await store(fashionKey, 'GET', `/store-api/products/${HAT}`));
    // The main channel has no catalog and no entry: everything, as before.
    const mainKey = (
      expectOk(await staff('GET', '/api/automation')).channels as { accessKey: string; isMain: boolean }[]
    ).find((channel) => channel.isMain)!.accessKey;
    expect(skus(expectOk(await store(mainKey, 'GET', '/store-api/products')))).toEqual([
      'BOOK',
      'HAT',
      'SHIRT',
      'TEA',
    ]);
  });

  it('refuses to delete a channel that product visibilities name, listing their count', async () => {
    const channel = expectOk(await staff('GET', `/api/merchant/commerce/channels/${FASHION}`));
    const refused = await staff('DELETE', `/api/merchant/commerce/channels/${FASHION}`, {
      revision: channel.revision,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CHANNEL_IN_USE');
    // The open cart of the visitor above blocks it too.
    expect(refused.body.blockers).toEqual([
      { kind: 'carts', count: 1 },
      { kind: 'product_visibility', count: 1 },
    ]);
  });

  it('refuses a visibility for another shop’s channel', async () => {
    const hat = expectOk(await staff('GET', `/api/catalog/products/${HAT}`)) as { own: { revision: number } };
    const otherMain = (
      expectOk(await staff('GET', '/api/automation', undefined, h.shopB.token)).channels as { id: string }[]
    )[0]!.id;
    const refused = await staff('PATCH', `/api/catalog/products/${HAT}`, {
      revision: hat.own.revision,
      visibilities: { [otherMain]: 'all' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { pointer: `/visibilities/${otherMain}`, message: expect.any(String) },
    ]);
  });
});

describe('a private channel', () => {
  it('answers 401 CHANNEL_PRIVATE without a bearer token or with another shop’s, and serves its shop’s staff', async () => {
    for (const token of [undefined, h.shopB.token, 'cw_cag_nope']) {
      const refused = await store(wholesaleKey, 'GET', '/store-api/products', { token });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('CHANNEL_PRIVATE');
      expect(refused.type).toContain('application/problem+json');
    }
    const challenged = await h.app.request('/store-api/products', {
      headers: { 'x-channel-key': wholesaleKey },
    });
    expect(challenged.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(
      skus(expectOk(await store(wholesaleKey, 'GET', '/store-api/products', { token: h.shopA.token }))),
    ).toEqual(['BOOK', 'HAT', 'SHIRT', 'TEA']);
  });

  it('serves an access grant until it is revoked; the grant opens no staff route', async () => {
    const created = expectOk(
      await staff('POST', `/api/merchant/commerce/channels/${WHOLESALE}/grants`, { name: 'Partner portal' }),
      201,
    ) as { token: string; grant: { id: string; kind: string; channelId: string } };
    expect(created.grant).toMatchObject({ kind: 'channel', channelId: WHOLESALE });
    expectOk(await store(wholesaleKey, 'GET', '/store-api/products', { token: created.token }));
    expectOk(await store(wholesaleKey, 'GET', `/store-api/products/${SHIRT}`, { token: created.token }));
    // A grant opens its channel only: not another channel's, not the admin API.
    const fashionGrant = expectOk(
      await staff('POST', `/api/merchant/commerce/channels/${FASHION}/grants`, { name: 'Fashion partner' }),
      201,
    ) as { token: string };
    expect(
      (await store(wholesaleKey, 'GET', '/store-api/products', { token: fashionGrant.token })).status,
    ).toBe(401);
    const admin = await h.call('GET', '/api/catalog/products', { token: created.token });
    expect([admin.status, admin.body.code]).toEqual([401, 'UNAUTHENTICATED']);

    const listed = expectOk(await staff('GET', `/api/merchant/commerce/channels/${WHOLESALE}/grants`));
    expect((listed.items as { id: string }[]).map((item) => item.id)).toEqual([created.grant.id]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const foreign = await staff(
      'DELETE',
      `/api/merchant/commerce/channels/${WHOLESALE}/grants/${created.grant.id}`,
      undefined,
      h.shopB.token,
    );
    expect(foreign.status).toBe(404);
    expectOk(
      await staff('DELETE', `/api/merchant/commerce/channels/${WHOLESALE}/grants/${created.grant.id}`),
    );
    const revoked = await store(wholesaleKey, 'GET', '/store-api/products', { token: created.token });
    expect([revoked.status, revoked.body.code]).toEqual([401, 'CHANNEL_PRIVATE']);
  });

  it('creates grants through MCP with the same handler', async () => {
    const call = await h.mcp(h.shopA.token);
    const created = await call('merchant.commerce.grants.create', { channelId: WHOLESALE, name: 'Via MCP' });
    expect(created.isError).toBeFalsy();
    const token = (created.structuredContent as { token: string }).token;
    expectOk(await store(wholesaleKey, 'GET', '/store-api/products', { token }));
    const foreign = await (await h.mcp(h.shopB.token))('merchant.commerce.grants.create', {
      channelId: WHOLESALE,
      name: 'Intruder',
    });
    expect(foreign.isError).toBe(true);
    expect(foreign.structuredContent?.code).toBe('NOT_FOUND');
  });
});

describe('a headless channel', () => {
  it('has no storefront pages here, and its store API keeps working', async () => {
    const headless = '0190f0c8-0000-7000-8000-0000000e0203';
    const key = (await saveChannel(headless, { name: { en: 'App' }, mode: 'headless' })).accessKey as string;
    expect(skus(expectOk(await store(key, 'GET', '/store-api/products')))).toEqual([
      'BOOK',
      'HAT',
      'SHIRT',
      'TEA',
    ]);
  });
});
