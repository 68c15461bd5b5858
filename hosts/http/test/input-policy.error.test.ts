import { SELLABLE } from '@cartwright/service/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// Issue 12, "no 500 on any input": every request below answered 500 (or overflowed the stack)
// before the input policy at the registry's door (decision 0025).

let h: Harness;
let productId: string;
let channelKey: string;

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea());
});
afterAll(async () => h?.close());

type Response = Awaited<ReturnType<Harness['call']>>;

function staff(method: string, path: string, body?: unknown): Promise<Response> {
  return h.call(method, path, { token: h.shopA.token, body });
}

/** A problem with `status` and `code` whose `errors` name `pointer`. */
function expectRefused(response: Response, status: number, code: string, pointer: string) {
  expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
  expect(response.type).toContain('application/problem+json');
  expect((response.body.errors as { pointer: string }[]).map((error) => error.pointer)).toContain(pointer);
}

const product = (name: string, extra: Record<string, unknown> = {}) => ({
  sku: `SKU-${Math.random().toString(36).slice(2, 10)}`,
  translations: { en: { name } },
  ...extra,
});

/** `{"a":{"a":…1…}}` nested `depth` levels, as JSON text (JSON.stringify would overflow first). */
function nestedJson(depth: number, key = 'a'): string {
  return `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('strings: no NUL, no lone surrogate (cause 1)', () => {
  it('a product name with NUL is 422 with its pointer, not a database encoding error', async () => {
    expectRefused(
      await staff('POST', '/api/catalog/products', product('Te\u0000a')),
      422,
      'VALIDATION_FAILED',
      '/translations/en/name',
    );
  });

  it('a lone surrogate in a product name is 422, not invalid JSON for the database', async () => {
    expectRefused(
      await staff('POST', '/api/catalog/products', product('Tea \ud800')),
      422,
      'VALIDATION_FAILED',
      '/translations/en/name',
    );
    expectRefused(
      await staff('POST', '/api/catalog/products', product('Tea \udc00 low')),
      422,
      'VALIDATION_FAILED',
      '/translations/en/name',
    );
  });

  it('a NUL in a query value is 422', async () => {
    expectRefused(
      await staff('GET', '/api/catalog/products?search=%00'),
      422,
      'VALIDATION_FAILED',
      '/search',
    );
  });

  it('a NUL in a member name (a key) is 422 with the pointer of that member', async () => {
    expectRefused(
      await staff('POST', '/api/catalog/products', product('Tea', { customFields: { 'a\u0000b': 1 } })),
      422,
      'VALIDATION_FAILED',
      '/customFields/a\u0000b',
    );
  });

  it('storefront registration with a NUL first name is 422 (public channel key only)', async () => {
    const context = await h.call('POST', '/store-api/context', { headers: { 'x-channel-key': channelKey } });
    expect(context.status).toBe(201);
    const response = await h.call('POST', '/store-api/account/register', {
      headers: { 'x-channel-key': channelKey, 'x-context-token': context.body.contextToken as string },
      body: {
        email: 'nul@policy.test',
        password: 'correct horse battery',
        firstName: 'Ad\u0000a',
        lastName: 'Lovelace',
        billingAddress: SELLABLE.address,
      },
    });
    expectRefused(response, 422, 'VALIDATION_FAILED', '/firstName');
  });

  it('valid astral characters (a paired surrogate) are accepted', async () => {
    const created = await staff('POST', '/api/catalog/products', product('Tea 🍵'));
    expect(created.status).toBe(201);
  });

  it('MCP callers meet the same door', async () => {
    const call = await h.mcp(h.shopA.token);
    const result = await call('catalog.products.create', product('Te\u0000a'));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [expect.objectContaining({ pointer: '/translations/en/name' })],
    });
  });
});

describe('depth and size: walked without recursion before anything recursive (cause 2)', () => {
  it('rule metadata nested 10,000 deep is 422, not a stack overflow', async () => {
    const current = await staff('GET', `/api/catalog/products/${productId}`);
    const { revision } = current.body.product as { revision: number };
    const response = await h.call('PUT', `/api/automation/entities/products/${productId}`, {
      token: h.shopA.token,
      body: `{"revision":${revision},"data":{"deep":${nestedJson(10_000)}}}`,
    });
    expect({ status: response.status, code: response.body.code }).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
    });
    const [error] = response.body.errors as { pointer: string; message: string }[];
    expect(error?.pointer.startsWith('/data/deep/a/a/')).toBe(true);
    expect(response.body).toMatchObject({ limit: 'depth', max: 128 });
  });

  it('an imported condition in the _name/children form nested 10,000 deep is 422', async () => {
    const depth = 10_000;
    const body = `{"condition":${'{"_name":"andContainer","children":['.repeat(depth)}{"_name":"alwaysValid"}${']}'.repeat(depth)}}`;
    const response = await h.call('POST', '/api/automation/import-condition', {
      token: h.shopA.token,
      body,
    });
    expect({ status: response.status, code: response.body.code }).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
    });
  });

  it('more than 100,000 values is 413 with the pointer where the count ran out', async () => {
    const response = await staff(
      'POST',
      '/api/catalog/products',
      product('Tea', { customFields: { many: new Array(200_000).fill(0) } }),
    );
    expect({ status: response.status, code: response.body.code }).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(response.body).toMatchObject({ limit: 'values', max: 100_000 });
    expect((response.body.errors as { pointer: string }[])[0]?.pointer).toMatch(
      /^\/customFields\/many\/\d+$/,
    );
  });

  it('a maximal condition tree (32 levels) inside a flow still passes the door', async () => {
    let condition: Record<string, unknown> = {
      type: 'cartCartAmount',
      value: { operator: '>=', amount: 100 },
    };
    for (let level = 1; level < 32; level += 1) condition = { type: 'andContainer', children: [condition] };
    const response = await staff('PUT', '/api/automation/flows/0190f0c8-0000-7000-8000-000000000299', {
      revision: 0,
      data: {
        name: { en: 'Deep' },
        trigger: 'order.placed',
        pipeline: {
          entry: 'big',
          nodes: [
            { id: 'big', kind: 'condition', condition, on_true: 'tag', on_false: null },
            {
              id: 'tag',
              kind: 'action',
              action: 'action.add.order.tag',
              config: { tags: ['big'] },
              next: null,
            },
          ],
        },
      },
    });
    expect(response.status).toBe(200);
  });

  it('the deepest serialized condition the rules engine imports (31 wrappers, 94 levels) passes the door', async () => {
    let node: Record<string, unknown> = { _name: 'cartLineItemUnitPrice', operator: '>=', amount: 1 };
    for (let level = 0; level < 31; level += 1) {
      node = { _name: 'cartLineItemWrapper', container: { _name: 'andContainer', rules: [node] } };
    }
    const response = await staff('POST', '/api/automation/import-condition', { condition: node });
    expect(response.status).toBe(200);
  });
});

describe('integers fit the column they land in (cause 3)', () => {
  it('a price of 2^63 is 422 at /prices/0/gross, not stored rounded', async () => {
    const response = await h.call('POST', '/api/catalog/products', {
      token: h.shopA.token,
      body: `{"sku":"HUGE","translations":{"en":{"name":"Huge"}},"prices":[{"currency":"EUR","gross":9223372036854775808,"net":1}]}`,
    });
    expectRefused(response, 422, 'VALIDATION_FAILED', '/prices/0/gross');
  });

  it('an order number cursor past bigint is 422', async () => {
    expectRefused(
      await staff('GET', '/api/orders?before=99999999999999999999'),
      422,
      'VALIDATION_FAILED',
      '/before',
    );
  });

  it('an event sequence cursor of 2^63 − 1 is 422', async () => {
    expectRefused(
      await staff('GET', '/api/events?after=9223372036854775807'),
      422,
      'VALIDATION_FAILED',
      '/after',
    );
  });

  it('a shipping method position past integer is 422, as is 1e20', async () => {
    for (const position of ['3000000000', '1e20', '-2147483649']) {
      const response = await h.call(
        'PUT',
        '/api/basis/shipping-methods/0190f0c8-0000-7000-8000-0000000f0099',
        {
          token: h.shopA.token,
          body: `{"revision":0,"translations":{"en":{"name":"Freight"}},"position":${position}}`,
        },
      );
      expectRefused(response, 422, 'VALIDATION_FAILED', '/position');
    }
  });

  it('a revision past integer is 422', async () => {
    const response = await staff('PUT', `/api/basis/shipping-methods/${SELLABLE.parcel}`, {
      revision: 3_000_000_000,
      translations: { en: { name: 'Parcel' } },
    });
    expectRefused(response, 422, 'VALIDATION_FAILED', '/revision');
  });
});

describe('money arithmetic never throws past the door (cause 4)', () => {
  it('a line total past the safe integers is a cart problem, and checkout refuses it', async () => {
    const huge = await staff('POST', '/api/catalog/products', {
      sku: 'GOLD',
      translations: { en: { name: 'Gold' } },
      prices: [{ currency: 'EUR', gross: 1e15, net: 840_336_134_453_782 }],
      taxClassId: SELLABLE.standardTax,
      stockAvailable: 100,
    });
    expect(huge.status).toBe(201);
    const goldId = (huge.body.product as { id: string }).id;
    const token = await h.visitorWithCart(channelKey, [
      { productId, quantity: 1 },
      { productId: goldId, quantity: 10 },
    ]);
    const store = { 'x-channel-key': channelKey, 'x-context-token': token };
    const cart = await h.call('GET', '/store-api/cart', { headers: store });
    expect(cart.status).toBe(200);
    const lines = cart.body.lines as { id: string; productId: string }[];
    const goldLine = lines.find((line) => line.productId === goldId)!;
    expect(cart.body.problems).toEqual([
      expect.objectContaining({ lineId: goldLine.id, code: 'AMOUNT_OUT_OF_RANGE' }),
    ]);
    // The other line still prices.
    expect((cart.body.total as { gross: number }).gross).toBeGreaterThan(0);

    const checkout = await h.call('POST', '/store-api/checkout', { headers: store, body: {} });
    expect({ status: checkout.status, code: checkout.body.code }).toEqual({
      status: 422,
      code: 'CART_INVALID',
    });
    expect(checkout.body.problems).toEqual([
      expect.objectContaining({ lineId: goldLine.id, code: 'AMOUNT_OUT_OF_RANGE' }),
    ]);
  });
});

describe('money arithmetic: totals', () => {
  it('a price stored before prices were bounded (2^63, rounded) is a problem of its line, not a 500', async () => {
    const created = await staff('POST', '/api/catalog/products', {
      sku: 'LEGACY',
      translations: { en: { name: 'Legacy' } },
      prices: [{ currency: 'EUR', gross: 1000, net: 840 }],
      taxClassId: SELLABLE.standardTax,
      stockAvailable: 100,
    });
    const legacyId = (created.body.product as { id: string }).id;
    const token = await h.visitorWithCart(channelKey, [{ productId: legacyId, quantity: 1 }]);
    await h.database.rows(
      sql`update products set prices = '[{"currency":"EUR","gross":9223372036854775808,"net":1}]'::jsonb where id = ${legacyId}`,
    );
    const cart = await h.call('GET', '/store-api/cart', {
      headers: { 'x-channel-key': channelKey, 'x-context-token': token },
    });
    expect(cart.status).toBe(200);
    expect(cart.body.problems).toEqual([expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE' })]);
  });

  it('lines that fit but whose sum does not leave the cart unpriced with one cart problem', async () => {
    const halves = await staff('POST', '/api/catalog/products', {
      sku: 'HALF',
      translations: { en: { name: 'Half' } },
      prices: [{ currency: 'EUR', gross: 5e15, net: 4_201_680_672_268_908 }],
      taxClassId: SELLABLE.standardTax,
      stockAvailable: 100,
    });
    expect(halves.status).toBe(201);
    const halfId = (halves.body.product as { id: string }).id;
    const other = await staff('POST', '/api/catalog/products', {
      sku: 'HALF-2',
      translations: { en: { name: 'Other half' } },
      prices: [{ currency: 'EUR', gross: 5e15, net: 4_201_680_672_268_908 }],
      taxClassId: SELLABLE.standardTax,
      stockAvailable: 100,
    });
    const otherId = (other.body.product as { id: string }).id;
    const token = await h.visitorWithCart(channelKey, [
      { productId: halfId, quantity: 1 },
      { productId: otherId, quantity: 1 },
    ]);
    const cart = await h.call('GET', '/store-api/cart', {
      headers: { 'x-channel-key': channelKey, 'x-context-token': token },
    });
    expect(cart.status).toBe(200);
    expect(cart.body.problems).toEqual([
      expect.objectContaining({ lineId: null, code: 'AMOUNT_OUT_OF_RANGE' }),
    ]);
    expect(cart.body.total).toEqual({ net: 0, tax: 0, gross: 0 });
  });
});

describe('strings have a maximum length (cause 5)', () => {
  it('a string longer than the default (1 MiB characters) is 422 even where the schema keeps no member', async () => {
    const response = await h.call('POST', `/api/catalog/products/${productId}/assets`, {
      token: h.shopA.token,
      body: {
        fileName: 'a.txt',
        contentType: 'text/plain',
        contentBase64: 'aGk=',
        note: 'x'.repeat(1024 * 1024 + 1),
      },
    });
    expectRefused(response, 422, 'VALIDATION_FAILED', '/note');
  });
});
