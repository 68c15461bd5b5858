import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// Content language (decision 0029): merchant reads and writes name a language the shop has
// enabled (its active languages and main language; a regional form such as de-CH counts when its
// base language is enabled), storefront reads and writes one the channel has (the main channel:
// the shop's). Anything else is 422 LANGUAGE_NOT_ENABLED with a pointer per offending field and
// the enabled languages, and changes nothing.

let h: Harness;
let mainChannel: string;
let mainKey: string;
let productId: string;
/** An additional channel that offers English only. */
const ENGLISH_ONLY = '0190f0c8-0000-7000-8000-00000000c1a1';
/** An additional channel that offers German only (the shop's main language is English). */
const GERMAN_ONLY = '0190f0c8-0000-7000-8000-00000000c1a2';
const CATEGORY = '0190f0c8-0000-7000-8000-00000000c1a3';
let englishKey: string;
let germanKey: string;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
const store = (key: string, method: string, path: string, contextToken?: string, body?: unknown) =>
  h.call(method, path, {
    body,
    headers: { 'x-channel-key': key, ...(contextToken ? { 'x-context-token': contextToken } : {}) },
  });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

/** The problem of a refused language: 422, the code, the pointers, the enabled languages. */
function expectNotEnabled(
  response: { status: number; type: string; body: Record<string, unknown> },
  pointers: readonly string[],
  enabled: readonly string[],
) {
  expect(response.status).toBe(422);
  expect(response.type).toContain('application/problem+json');
  expect(response.body).toMatchObject({ code: 'LANGUAGE_NOT_ENABLED', enabled });
  expect((response.body.errors as { pointer: string }[]).map((error) => error.pointer)).toEqual(pointers);
}

const channel = (languages: string[]) => ({
  name: { en: 'Extra' },
  mode: 'storefront',
  paused: false,
  private: false,
  languages,
});

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey: mainKey } = await h.sellableTea());
  const automation = expectOk(await staff('GET', '/api/automation'));
  mainChannel = (automation.channels as { id: string; isMain: boolean }[]).find(
    (candidate) => candidate.isMain,
  )!.id;
  expectOk(await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch', active: true }));
  // Set up but inactive: not enabled.
  expectOk(await staff('PUT', '/api/basis/languages/es', { revision: 0, name: 'Español', active: false }));
  const base = expectOk(await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`))
    .baseRevision as number;
  for (const [id, languages] of [
    [ENGLISH_ONLY, ['en']],
    [GERMAN_ONLY, ['de']],
  ] as const) {
    expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${id}`, {
        revision: 0,
        baseRevision: base,
        channel: channel([...languages]),
      }),
    );
  }
  const channels = expectOk(await staff('GET', '/api/automation')).channels as {
    id: string;
    accessKey: string;
  }[];
  englishKey = channels.find((candidate) => candidate.id === ENGLISH_ONLY)!.accessKey;
  germanKey = channels.find((candidate) => candidate.id === GERMAN_ONLY)!.accessKey;
});
afterAll(async () => h?.close());

describe('merchant writes', () => {
  it('refuse translations in a language the shop has not enabled, listing each, and write nothing', async () => {
    const before = await h.digest();
    const product = await staff('POST', '/api/catalog/products', {
      sku: 'FR-1',
      translations: { en: { name: 'Tent' }, fr: { name: 'Tente' }, es: { name: 'Tienda' } },
    });
    expectNotEnabled(product, ['/translations/fr', '/translations/es'], ['de', 'en']);
    expect(product.body.languages).toEqual(['fr', 'es']);
    const update = await staff('PATCH', `/api/catalog/products/${productId}`, {
      revision: 1,
      translations: { en: { name: 'Tea' }, fr: { name: 'Thé' } },
    });
    expectNotEnabled(update, ['/translations/fr'], ['de', 'en']);
    const category = await staff('PUT', `/api/catalog/categories/${CATEGORY}`, {
      revision: 0,
      translations: { en: { name: 'Tents' }, fr: { name: 'Tentes' } },
    });
    expectNotEnabled(category, ['/translations/fr'], ['de', 'en']);
    const country = await staff('PUT', '/api/basis/countries/AT', {
      revision: 0,
      translations: { en: { name: 'Austria' } },
      subdivisions: [{ code: 'AT-9', translations: { fr: { name: 'Vienne' } } }],
    });
    expectNotEnabled(country, ['/subdivisions/0/translations/fr'], ['de', 'en']);
    const method = await staff('PUT', `/api/basis/shipping-methods/${SELLABLE.parcel}`, {
      revision: 1,
      translations: { en: { name: 'Parcel' }, fr: { name: 'Colis' } },
    });
    expectNotEnabled(method, ['/translations/fr'], ['de', 'en']);
    expect(await h.digest()).toBe(before);
  });

  it('accept an enabled language and a regional form of one', async () => {
    const created = expectOk(
      await staff('POST', '/api/catalog/products', {
        sku: 'DE-1',
        translations: { en: { name: 'Tent' }, de: { name: 'Zelt' }, 'de-CH': { name: 'Zält' } },
      }),
      201,
    );
    expect((created.own as { translations: unknown }).translations).toMatchObject({
      de: { name: 'Zelt' },
      'de-CH': { name: 'Zält' },
    });
  });

  it('refuse a channel saved in, with texts in, or offering a language the shop has not enabled', async () => {
    const current = expectOk(await staff('GET', `/api/merchant/commerce/channels/${ENGLISH_ONLY}`));
    const save = (body: Record<string, unknown>) =>
      staff('PUT', `/api/merchant/commerce/channels/${ENGLISH_ONLY}`, {
        revision: current.revision,
        baseRevision: current.baseRevision,
        channel: channel(['en']),
        ...body,
      });
    const before = await h.digest();
    expectNotEnabled(
      await save({
        language: 'fr',
        overrides: { shippingMethods: { [SELLABLE.parcel]: { texts: { name: 'Colis' } } } },
      }),
      ['/language'],
      ['de', 'en'],
    );
    expectNotEnabled(
      await save({
        overrides: {
          paymentMethods: { [SELLABLE.invoice]: { translations: { fr: { name: 'Facture' } } } },
        },
      }),
      [`/overrides/paymentMethods/${SELLABLE.invoice}/translations/fr`],
      ['de', 'en'],
    );
    expectNotEnabled(
      await save({
        channel: {
          ...channel(['en', 'es']),
          domains: [{ url: 'https://fr.example', language: 'fr', currency: 'EUR' }],
        },
      }),
      ['/channel/languages/1', '/channel/domains/0/language'],
      ['de', 'en'],
    );
    expect(await h.digest()).toBe(before);
  });

  it('answer the same code over MCP', async () => {
    const call = await h.mcp(h.shopA.token);
    const refused = await call('catalog.products.create', {
      sku: 'FR-2',
      translations: { en: { name: 'Tent' }, fr: { name: 'Tente' } },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      code: 'LANGUAGE_NOT_ENABLED',
      errors: [{ pointer: '/translations/fr' }],
    });
  });
});

describe('merchant reads', () => {
  it('refuse ?language= the shop has not enabled, and read a regional form of an enabled one', async () => {
    const before = await h.digest();
    expectNotEnabled(
      await staff('GET', `/api/merchant/commerce/channels/${mainChannel}?language=fr`),
      ['/language'],
      ['de', 'en'],
    );
    expectNotEnabled(
      await staff('GET', `/api/merchant/commerce/channels/${mainChannel}?language=es`),
      ['/language'],
      ['de', 'en'],
    );
    expectNotEnabled(
      await staff('GET', `/api/merchant/commerce/methods/payments/${SELLABLE.invoice}?language=fr`),
      ['/language'],
      ['de', 'en'],
    );
    const swiss = expectOk(
      await staff('GET', `/api/merchant/commerce/channels/${mainChannel}?language=de-CH`),
    );
    expect(swiss).toMatchObject({ language: 'de-CH', mainLanguage: 'en' });
    expect(await h.digest()).toBe(before);
  });
});

describe('storefront', () => {
  it('reads products only in a language the channel has', async () => {
    const before = await h.digest();
    expectNotEnabled(
      await store(englishKey, 'GET', '/store-api/products?language=de'),
      ['/language'],
      ['en'],
    );
    expectNotEnabled(
      await store(englishKey, 'GET', `/store-api/products/${productId}?language=de`),
      ['/language'],
      ['en'],
    );
    expectNotEnabled(
      await store(mainKey, 'GET', '/store-api/products?language=fr'),
      ['/language'],
      ['de', 'en'],
    );
    expect(
      expectOk(await store(mainKey, 'GET', `/store-api/products/${productId}?language=de`)).product,
    ).toMatchObject({ language: 'de', name: 'Tea' });
    expect(
      (expectOk(await store(germanKey, 'GET', '/store-api/products?language=de-CH')).items as unknown[])
        .length,
    ).toBeGreaterThan(0);
    expect(await h.digest()).toBe(before);
  });

  it('starts a visitor of a channel without the main language in the channel’s language', async () => {
    const token = expectOk(await store(germanKey, 'POST', '/store-api/context'), 201).contextToken as string;
    expect(expectOk(await store(germanKey, 'GET', '/store-api/context', token))).toMatchObject({
      language: 'de',
    });
  });

  it('refuses a review in a language the channel does not have, and writes none', async () => {
    const registered = expectOk(
      await store(englishKey, 'POST', '/store-api/account/register', undefined, {
        email: 'reviewer@content-language.test',
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
      }),
      201,
    );
    const token = registered.contextToken as string;
    const before = await h.digest();
    expectNotEnabled(
      await store(englishKey, 'POST', `/store-api/products/${productId}/reviews`, token, {
        rating: 5,
        title: 'Gut',
        content: 'Sehr gut.',
        language: 'de',
      }),
      ['/language'],
      ['en'],
    );
    expect(await h.digest()).toBe(before);
  });
});
