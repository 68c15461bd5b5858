import { type Database, findChannel, listChannels } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  authenticate,
  authenticateStorefront,
  type CreatedShop,
  createServices,
  createShop,
  invokeOperation,
  invokeStoreOperation,
  openStoreContext,
  type Principal,
  type Result,
  type Services,
  type Storefront,
} from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSellable, SELLABLE } from '../src/testing.ts';
import { operationNamed, principalOf, successOf } from './principals.ts';

// A channel's catalog, per-channel product visibility, and the private, paused and headless
// states (decision 0030): what the store API shows and sells through one channel, and who may call it.

let database: Database;
let services: Services;
let shop: CreatedShop;
let other: CreatedShop;
let owner: Principal;
let mainChannelId: string;
let mainKey: string;

const CLOTHING = '0190f0c8-0000-7000-8000-0000000d0001';
const SHIRTS = '0190f0c8-0000-7000-8000-0000000d0002';
const BOOKS = '0190f0c8-0000-7000-8000-0000000d0003';
const SHIRT = '0190f0c8-0000-7000-8000-0000000d0101';
const SHIRT_M = '0190f0c8-0000-7000-8000-0000000d0102';
const BOOK = '0190f0c8-0000-7000-8000-0000000d0103';
const HAT = '0190f0c8-0000-7000-8000-0000000d0104';
const SCARF = '0190f0c8-0000-7000-8000-0000000d0105';
/** A channel whose catalog is the clothing tree. */
const FASHION = '0190f0c8-0000-7000-8000-0000000d0201';
/** A channel for the private, paused and headless cases. */
const PRIVATE = '0190f0c8-0000-7000-8000-0000000d0202';
const UNKNOWN_CHANNEL = '0190f0c8-0000-7000-8000-0000000d02ff';

const en = (name: string) => ({ en: { name } });
const eur = [{ currency: 'EUR', gross: 1190, net: 1000 }];

function call(name: string, input: Record<string, unknown>, principal = owner): Promise<Result<unknown>> {
  return invokeOperation(services, operationNamed(name), principal, input);
}

function storeCall(storefront: Storefront, name: string, input: Record<string, unknown> = {}) {
  const operation = operationNamed(name);
  if (operation.audience !== 'store') throw new Error(`${name} is not a storefront operation`);
  return invokeStoreOperation(services, operation, storefront, input);
}

function failureOf(result: Result<unknown>) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result;
}

interface Channel {
  revision: number;
  baseRevision: number;
  accessKey: string;
}

async function saveChannel(channelId: string, fields: Record<string, unknown>): Promise<Channel> {
  const base = successOf(await call('merchant.commerce.read', { channelId: mainChannelId })) as Channel;
  const current = await findChannel(database.db, shop.tenantId, channelId);
  return successOf(
    await call('merchant.commerce.save', {
      channelId,
      revision: current?.revision ?? 0,
      baseRevision: base.baseRevision,
      channel: {
        name: { en: 'Channel' },
        mode: 'storefront',
        paused: false,
        private: false,
        languages: ['en'],
        ...fields,
      },
    }),
  ) as Channel;
}

/** The storefront of a channel, as its key authenticates. */
async function storefrontOf(channelId: string, contextToken?: string): Promise<Storefront> {
  return { tenantId: shop.tenantId, channelId, contextToken };
}

const skusOf = (result: Result<unknown>) =>
  (successOf(result) as { items: { sku: string }[] }).items.map((item) => item.sku).sort();

interface Cart {
  lines: { id: string }[];
  problems: { lineId: string | null; code: string }[];
}
/** The problems of a cart's lines (an anonymous cart also lacks its addresses). */
const lineProblems = (cart: Cart) => cart.problems.filter((problem) => problem.lineId !== null);

async function setVisibilities(productId: string, visibilities: Record<string, string> | null) {
  const current = successOf(await call('catalog.products.get', { id: productId })) as {
    own: { revision: number };
  };
  return call('catalog.products.update', { id: productId, revision: current.own.revision, visibilities });
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await createShop(services, { name: 'Channel catalog', ownerEmail: 'owner@catalog-channel.test' });
  other = await createShop(services, { name: 'Other shop', ownerEmail: 'owner@other-channel.test' });
  owner = await principalOf(services, shop.token);
  await makeSellable(services, shop.tenantId);
  const [main] = await listChannels(database.db, shop.tenantId);
  mainChannelId = main!.id;
  mainKey = main!.accessKey;
  for (const [id, parentId, name] of [
    [CLOTHING, null, 'Clothing'],
    [SHIRTS, CLOTHING, 'Shirts'],
    [BOOKS, null, 'Books'],
  ] as const) {
    successOf(await call('catalog.categories.save', { id, revision: 0, parentId, translations: en(name) }));
  }
  const product = (id: string, sku: string, categoryIds: string[]) =>
    call('catalog.products.create', {
      id,
      sku,
      translations: en(sku),
      prices: eur,
      taxClassId: SELLABLE.standardTax,
      stockAvailable: 10,
      categoryIds,
    });
  successOf(await product(SHIRT, 'SHIRT', [SHIRTS]));
  successOf(await product(BOOK, 'BOOK', [BOOKS]));
  successOf(await product(HAT, 'HAT', [CLOTHING]));
  successOf(await product(SCARF, 'SCARF', [CLOTHING]));
  successOf(
    await call('catalog.products.create', {
      id: SHIRT_M,
      parentId: SHIRT,
      sku: 'SHIRT-M',
      options: { size: 'M' },
    }),
  );
  await saveChannel(FASHION, { name: { en: 'Fashion' }, catalog: { categoryIds: [CLOTHING] } });
});
afterAll(async () => database?.close());

describe('per-channel product visibility', () => {
  it('is saved per channel of the shop and read back; variants follow their parent', async () => {
    const saved = successOf(await setVisibilities(HAT, { [FASHION]: 'link', [mainChannelId]: 'search' })) as {
      product: { visibilities: Record<string, string> };
    };
    expect(saved.product.visibilities).toEqual({ [FASHION]: 'link', [mainChannelId]: 'search' });
    const variant = successOf(await call('catalog.products.get', { id: SHIRT_M })) as {
      own: { visibilities: unknown };
    };
    expect(variant.own.visibilities).toBeNull();
    successOf(await setVisibilities(HAT, null));
  });

  it('refuses a channel the shop does not have, a bad value and an entry on a variant, changing nothing', async () => {
    const unknown = failureOf(await setVisibilities(HAT, { [UNKNOWN_CHANNEL]: 'all' }));
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(unknown.errors).toEqual([
      { pointer: `/visibilities/${UNKNOWN_CHANNEL}`, message: expect.any(String) },
    ]);
    const otherMain = (await listChannels(database.db, other.tenantId))[0]!.id;
    expect(failureOf(await setVisibilities(HAT, { [otherMain]: 'all' })).code).toBe('VALIDATION_FAILED');
    expect(failureOf(await setVisibilities(HAT, { [FASHION]: 'hidden' })).code).toBe('VALIDATION_FAILED');
    const onVariant = failureOf(await setVisibilities(SHIRT_M, { [FASHION]: 'all' }));
    expect(onVariant.errors?.map((error) => error.pointer)).toEqual(['/visibilities']);
    const hat = successOf(await call('catalog.products.get', { id: HAT })) as {
      own: { visibilities: unknown };
    };
    expect(hat.own.visibilities).toBeNull();
  });
});

describe('the store API through a channel with a catalog', () => {
  it('lists only products of its categories and their descendants; a channel without one lists the whole catalog', async () => {
    expect(skusOf(await storeCall(await storefrontOf(FASHION), 'store.products.list'))).toEqual([
      'HAT',
      'SCARF',
      'SHIRT',
    ]);
    expect(skusOf(await storeCall(await storefrontOf(mainChannelId), 'store.products.list'))).toEqual([
      'BOOK',
      'HAT',
      'SCARF',
      'SHIRT',
    ]);
  });

  it('lists `all`, finds `search` only by a search term, never lists `link`; other channels are unaffected', async () => {
    successOf(await setVisibilities(HAT, { [FASHION]: 'search' }));
    successOf(await setVisibilities(SCARF, { [FASHION]: 'link' }));
    const fashion = await storefrontOf(FASHION);
    expect(skusOf(await storeCall(fashion, 'store.products.list'))).toEqual(['SHIRT']);
    expect(skusOf(await storeCall(fashion, 'store.products.list', { search: 'HAT' }))).toEqual(['HAT']);
    expect(skusOf(await storeCall(fashion, 'store.products.list', { search: 'SCARF' }))).toEqual([]);
    expect(skusOf(await storeCall(await storefrontOf(mainChannelId), 'store.products.list'))).toEqual([
      'BOOK',
      'HAT',
      'SCARF',
      'SHIRT',
    ]);
    // A direct read finds all three.
    for (const id of [HAT, SCARF, SHIRT])
      expect((await storeCall(fashion, 'store.products.get', { id })).ok).toBe(true);
    successOf(await setVisibilities(HAT, null));
    successOf(await setVisibilities(SCARF, null));
  });

  it('answers NOT_FOUND for a product outside the channel, its variants following their parent', async () => {
    const fashion = await storefrontOf(FASHION);
    expect(failureOf(await storeCall(fashion, 'store.products.get', { id: BOOK })).code).toBe('NOT_FOUND');
    const shirt = successOf(await storeCall(fashion, 'store.products.get', { id: SHIRT })) as {
      variants: { sku: string }[];
    };
    expect(shirt.variants.map((variant) => variant.sku)).toEqual(['SHIRT-M']);
    expect((await storeCall(fashion, 'store.products.get', { id: SHIRT_M })).ok).toBe(true);
    // The shirt leaves the clothing tree: it and its variant are gone from the channel.
    const current = successOf(await call('catalog.products.get', { id: SHIRT })) as {
      own: { revision: number };
    };
    successOf(
      await call('catalog.products.update', {
        id: SHIRT,
        revision: current.own.revision,
        categoryIds: [BOOKS],
      }),
    );
    expect(failureOf(await storeCall(fashion, 'store.products.get', { id: SHIRT })).code).toBe('NOT_FOUND');
    expect(failureOf(await storeCall(fashion, 'store.products.get', { id: SHIRT_M })).code).toBe('NOT_FOUND');
    expect(failureOf(await storeCall(fashion, 'store.reviews.list', { productId: SHIRT })).code).toBe(
      'NOT_FOUND',
    );
    successOf(
      await call('catalog.products.update', {
        id: SHIRT,
        revision: current.own.revision + 1,
        categoryIds: [SHIRTS],
      }),
    );
  });

  it('refuses to add a product the channel does not show to a cart, and flags a line whose product left the channel', async () => {
    const { token } = await database.transaction((tx) =>
      openStoreContext(tx, services, { tenantId: shop.tenantId, channelId: FASHION }),
    );
    const fashion = await storefrontOf(FASHION, token);
    const refused = failureOf(
      await storeCall(fashion, 'store.cart.lines.add', { productId: BOOK, quantity: 1 }),
    );
    expect(refused.code).toBe('NOT_FOUND');
    expect(
      failureOf(await storeCall(fashion, 'store.cart.lines.add', { sku: 'BOOK', quantity: 1 })).code,
    ).toBe('NOT_FOUND');
    const cart = successOf(
      await storeCall(fashion, 'store.cart.lines.add', { productId: HAT, quantity: 1 }),
    ) as Cart;
    expect(lineProblems(cart)).toEqual([]);
    // A product found only by its link can still be bought.
    successOf(await setVisibilities(HAT, { [FASHION]: 'link' }));
    expect(lineProblems(successOf(await storeCall(fashion, 'store.cart.get')) as Cart)).toEqual([]);
    // The merchant narrows the catalog to shirts: the hat line cannot be bought through it any more.
    await saveChannel(FASHION, { name: { en: 'Fashion' }, catalog: { categoryIds: [SHIRTS] } });
    const after = successOf(await storeCall(fashion, 'store.cart.get')) as Cart;
    expect(lineProblems(after)).toEqual([
      expect.objectContaining({ lineId: cart.lines[0]!.id, code: 'PRODUCT_UNAVAILABLE' }),
    ]);
    await saveChannel(FASHION, { name: { en: 'Fashion' }, catalog: { categoryIds: [CLOTHING] } });
    successOf(await setVisibilities(HAT, null));
  });
});

describe('deleting a channel', () => {
  it('is refused while product visibility entries name it, with their count; deleted once they are gone', async () => {
    const channel = await saveChannel(PRIVATE, { name: { en: 'Doomed' } });
    successOf(await setVisibilities(HAT, { [PRIVATE]: 'search' }));
    successOf(await setVisibilities(SCARF, { [PRIVATE]: 'all', [FASHION]: 'all' }));
    const refused = failureOf(
      await call('merchant.commerce.delete', { channelId: PRIVATE, revision: channel.revision }),
    );
    expect(refused.code).toBe('CHANNEL_IN_USE');
    expect(refused.extensions?.blockers).toEqual([{ kind: 'product_visibility', count: 2 }]);
    successOf(await setVisibilities(HAT, null));
    successOf(await setVisibilities(SCARF, null));
    successOf(await call('merchant.commerce.delete', { channelId: PRIVATE, revision: channel.revision }));
  });
});

describe('a private channel', () => {
  let key: string;
  let grant: string;
  let grantId: string;

  beforeAll(async () => {
    key = (await saveChannel(PRIVATE, { name: { en: 'Wholesale' }, private: true })).accessKey;
    const created = successOf(
      await call('merchant.commerce.grants.create', { channelId: PRIVATE, name: 'Partner app' }),
    ) as { token: string; grant: { id: string } };
    grant = created.token;
    grantId = created.grant.id;
  });

  it('answers CHANNEL_PRIVATE without a credential, with another shop’s staff token or a grant of another channel', async () => {
    const foreign = successOf(
      await invokeOperation(
        services,
        operationNamed('merchant.commerce.grants.create'),
        await principalOf(services, other.token),
        {
          channelId: (await listChannels(database.db, other.tenantId))[0]!.id,
          name: 'Other shop grant',
        },
      ),
    ) as { token: string };
    const mainGrant = successOf(
      await call('merchant.commerce.grants.create', { channelId: mainChannelId, name: 'Main grant' }),
    ) as { token: string };
    for (const credential of [undefined, other.token, foreign.token, mainGrant.token, `${grant}x`, 'nope']) {
      const refused = failureOf(await authenticateStorefront(services, key, undefined, credential));
      expect(refused.code).toBe('CHANNEL_PRIVATE');
    }
  });

  it('serves the shop’s staff token and a live grant; a revoked grant stops at once', async () => {
    for (const credential of [shop.token, grant]) {
      const admitted = successOf(await authenticateStorefront(services, key, 'ctx', credential));
      expect(admitted).toEqual({ tenantId: shop.tenantId, channelId: PRIVATE, contextToken: 'ctx' });
    }
    const listed = successOf(await call('merchant.commerce.grants.list', { channelId: PRIVATE })) as {
      items: { id: string; hint: string }[];
    };
    expect(listed.items.map((item) => item.id)).toEqual([grantId]);
    expect(JSON.stringify(listed)).not.toContain(grant);
    successOf(await call('merchant.commerce.grants.revoke', { channelId: PRIVATE, grantId }));
    expect(failureOf(await authenticateStorefront(services, key, undefined, grant)).code).toBe(
      'CHANNEL_PRIVATE',
    );
  });

  it('never lets a grant act as a staff token, nor shows grants among the shop’s tokens', async () => {
    const created = successOf(
      await call('merchant.commerce.grants.create', { channelId: PRIVATE, name: 'Second partner' }),
    ) as { token: string; grant: { id: string } };
    expect(created.token).toMatch(/^cw_cag_[0-9a-f]{32}_/);
    expect(failureOf(await authenticate(services, created.token)).code).toBe('UNAUTHENTICATED');
    const tokens = successOf(await call('tokens.list', {})) as { items: { id: string }[] };
    expect(tokens.items.map((item) => item.id)).not.toContain(created.grant.id);
    expect(failureOf(await call('tokens.revoke', { tokenId: created.grant.id })).code).toBe('NOT_FOUND');
  });

  it('is reached by staff through the storefront tools without a grant', async () => {
    expect((await call('store.products.list', { channelId: PRIVATE })).ok).toBe(true);
  });

  it('keeps the public channels public', async () => {
    expect((await authenticateStorefront(services, mainKey, undefined, undefined)).ok).toBe(true);
  });
});

describe('a paused or headless channel', () => {
  it('paused: the store API answers NOT_READY to everybody, staff token included', async () => {
    const { accessKey } = await saveChannel(PRIVATE, {
      name: { en: 'Paused' },
      paused: true,
      private: false,
    });
    for (const credential of [undefined, shop.token]) {
      expect(failureOf(await authenticateStorefront(services, accessKey, undefined, credential)).code).toBe(
        'NOT_READY',
      );
    }
  });

  it('headless: no storefront pages, but the store API serves its catalog', async () => {
    const { accessKey } = await saveChannel(PRIVATE, {
      name: { en: 'Headless' },
      mode: 'headless',
      paused: false,
      catalog: { categoryIds: [BOOKS] },
    });
    const storefront = successOf(await authenticateStorefront(services, accessKey, undefined, undefined));
    expect(skusOf(await storeCall(storefront, 'store.products.list'))).toEqual(['BOOK']);
  });
});
