import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { createDemoShopIfEmpty, createServices } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';

// The demo shop a first start creates, used over HTTP exactly as a new user would: with the owner
// token it prints and nothing else. No setup call may be needed before a visitor can buy.

let database: TestDatabase;
let app: ReturnType<typeof createApp>;
let token: string;
let channelKey: string;

type Body = Record<string, unknown> & { code?: string };

async function call(
  method: string,
  path: string,
  options: { token?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.request(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Body) : {} };
}

function expectStatus(response: { status: number; body: Body }, status: number): Body {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const staff = (path: string) => call('GET', path, { token });
const store = (method: string, path: string, contextToken: string | null, body?: unknown) =>
  call(method, path, {
    body,
    headers: { 'x-channel-key': channelKey, ...(contextToken ? { 'x-context-token': contextToken } : {}) },
  });

beforeAll(async () => {
  database = await createTestDatabase();
  const services = createServices(database);
  app = createApp(services);
  const demo = await createDemoShopIfEmpty(services);
  if (!demo) throw new Error('the empty database got no demo shop');
  token = demo.token;
  const automation = expectStatus(await staff('/api/automation'), 200);
  channelKey = (automation.channels as { accessKey: string; isMain: boolean }[]).find(
    (channel) => channel.isMain,
  )!.accessKey;
});
afterAll(async () => database?.close());

describe('the demo shop of a first start', () => {
  it('has a sellable basis, labelled demo, offered by the main channel', async () => {
    const automation = expectStatus(await staff('/api/automation'), 200);
    const main = (automation.channels as { id: string; isMain: boolean }[]).find(
      (channel) => channel.isMain,
    )!;
    const channel = expectStatus(await staff(`/api/merchant/commerce/channels/${main.id}`), 200);
    const effective = channel.effective as {
      deliveryCountries: string[];
      countries: Record<string, { active: boolean; subdivisions: { code: string }[] }>;
      taxRates: Record<string, { rates: Record<string, number> }>;
      shippingMethods: Record<
        string,
        { active: boolean; name: string | null; prices: { currency: string }[] }
      >;
      paymentMethods: Record<string, { active: boolean; name: string | null }>;
    };
    expect(effective.deliveryCountries).toContain('DE');
    expect(effective.countries.DE?.active).toBe(true);
    expect(effective.countries.DE?.subdivisions.map((state) => state.code)).toEqual(
      expect.arrayContaining(['DE-BY', 'DE-BE', 'DE-NW']),
    );
    expect(Object.values(effective.taxRates).map((taxClass) => taxClass.rates.default)).toContain(1900);
    const shipping = Object.values(effective.shippingMethods);
    const payment = Object.values(effective.paymentMethods);
    expect(shipping.some((method) => method.active && method.prices.some((p) => p.currency === 'EUR'))).toBe(
      true,
    );
    expect(payment.some((method) => method.active)).toBe(true);
    for (const method of [...shipping, ...payment]) expect(method.name).toMatch(/^Demo /);

    const products = expectStatus(await staff('/api/catalog/products?limit=100'), 200).items as {
      sku: string;
      tags: string[] | null;
      stockAvailable: number;
      prices: { currency: string; gross: number }[] | null;
    }[];
    expect(products.length).toBeGreaterThanOrEqual(3);
    for (const product of products) {
      expect(product.sku).toMatch(/^DEMO-/);
      expect(product.tags).toContain('demo');
      expect(product.stockAvailable).toBeGreaterThan(0);
      expect(product.prices?.find((price) => price.currency === 'EUR')?.gross).toBeGreaterThan(0);
    }
  });

  it('sells to a new visitor: context, guest registration, one line, checkout; no other call', async () => {
    const listed = expectStatus(await store('GET', '/store-api/products', null), 200).items as {
      id: string;
      sku: string;
    }[];
    const product = listed.find((item) => item.sku.startsWith('DEMO-'))!;
    const anonymous = expectStatus(await store('POST', '/store-api/context', null), 201)
      .contextToken as string;
    const registered = expectStatus(
      await store('POST', '/store-api/account/register', anonymous, {
        guest: true,
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        billingAddress: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          street: 'Unter den Linden 1',
          zipcode: '10117',
          city: 'Berlin',
          country: 'DE',
          subdivision: 'DE-BE',
        },
      }),
      201,
    );
    const visitor = registered.contextToken as string;
    const cart = expectStatus(
      await store('POST', '/store-api/cart/lines', visitor, { productId: product.id, quantity: 2 }),
      200,
    );
    expect(cart.problems).toEqual([]);
    expect(cart.billingAddress).toMatchObject({ city: 'Berlin', country: 'DE' });
    expect(cart.shippingAddress).toMatchObject({ city: 'Berlin', country: 'DE' });

    const placed = expectStatus(await store('POST', '/store-api/checkout', visitor), 201);
    expect(placed).toMatchObject({ number: 1, currency: 'EUR' });
    const order = expectStatus(await staff(`/api/orders/${placed.id as string}`), 200).order as {
      lines: { productId: string; quantity: number }[];
      price: { total: { gross: number } };
    };
    expect(order.lines).toEqual([expect.objectContaining({ productId: product.id, quantity: 2 })]);
    // The order costs what the cart said, shipping included.
    expect(order.price.total.gross).toBe((cart.total as { gross: number }).gross);
    expect((cart.shipping as { gross: number }).gross).toBeGreaterThan(0);
  });
});
