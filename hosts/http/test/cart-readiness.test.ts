import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The cart says what checkout will refuse (a line short of stock, a missing address), and a
// customer's cart is prepared for checkout (their saved default addresses, the channel's first
// methods) where it has none of its own: at registration, at login, and for a cart started while
// logged in.

let h: Harness;
let channelKey: string;
let lampId: string;

const address = SELLABLE.address;
type Problem = { lineId: string | null; code: string };
type Cart = Record<string, unknown> & {
  lines: { id: string }[];
  problems: Problem[];
  billingAddress: Record<string, unknown> | null;
  shippingAddress: Record<string, unknown> | null;
};

function expectStatus(response: { status: number; body: unknown }, status: number) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

function store(method: string, path: string, context: string | null, body?: unknown) {
  return h.call(method, path, {
    body,
    headers: { 'x-channel-key': channelKey, ...(context ? { 'x-context-token': context } : {}) },
  });
}

const newContext = async () =>
  expectStatus(await store('POST', '/store-api/context', null), 201).contextToken as string;
const addLamp = async (context: string, quantity: number) =>
  expectStatus(
    await store('POST', '/store-api/cart/lines', context, { productId: lampId, quantity }),
    200,
  ) as Cart;
const cartOf = async (context: string) =>
  expectStatus(await store('GET', '/store-api/cart', context, undefined), 200) as Cart;
const codes = (cart: Cart) => cart.problems.map((problem) => problem.code).sort();

beforeAll(async () => {
  h = await createHarness();
  ({ channelKey } = await h.sellableTea());
  const lamp = expectStatus(
    await h.call('POST', '/api/catalog/products', {
      token: h.shopA.token,
      body: {
        sku: 'LAMP',
        translations: { en: { name: 'Lamp' } },
        prices: [{ currency: 'EUR', gross: 5000, net: 4202 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 47,
      },
    }),
    201,
  );
  lampId = ((lamp.product ?? lamp) as { id: string }).id;
});
afterAll(async () => h?.close());

describe('the problems a cart lists', () => {
  it('lists a line short of stock, and checkout still refuses it with INSUFFICIENT_STOCK', async () => {
    const context = await h.visitorWithCart(channelKey, [{ productId: lampId, quantity: 5000 }]);
    const cart = await cartOf(context);
    expect(cart.problems).toEqual([
      expect.objectContaining({ code: 'INSUFFICIENT_STOCK', lineId: cart.lines[0]!.id }),
    ]);
    const refused = await store('POST', '/store-api/checkout', context);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INSUFFICIENT_STOCK');

    const fixed = expectStatus(
      await store('PATCH', `/store-api/cart/lines/${cart.lines[0]!.id}`, context, { quantity: 47 }),
      200,
    ) as Cart;
    expect(fixed.problems).toEqual([]);
  });

  it('lists a missing billing and shipping address until they are set', async () => {
    const context = await newContext();
    const cart = await addLamp(context, 1);
    expect(codes(cart)).toEqual(['BILLING_ADDRESS_MISSING', 'SHIPPING_ADDRESS_MISSING']);
    // An anonymous cart chooses nothing for the visitor: nobody can check it out yet.
    expect(cart).toMatchObject({ shippingMethodId: null, paymentMethodId: null });
    expect(cart.problems.every((problem) => problem.lineId === null)).toBe(true);
    const billed = expectStatus(
      await store('PATCH', '/store-api/cart', context, { billingAddress: address }),
      200,
    ) as Cart;
    expect(codes(billed)).toEqual(['SHIPPING_ADDRESS_MISSING']);
    const shipped = expectStatus(
      await store('PATCH', '/store-api/cart', context, { shippingAddress: address }),
      200,
    ) as Cart;
    expect(shipped.problems).toEqual([]);
  });
});

describe('a customer’s default addresses', () => {
  it('address the cart of a guest who registered with a billing address only, and checkout succeeds', async () => {
    const anonymous = await newContext();
    await addLamp(anonymous, 1);
    const registered = expectStatus(
      await store('POST', '/store-api/account/register', anonymous, {
        guest: true,
        email: 'guest@example.test',
        firstName: 'Ada',
        lastName: 'Lovelace',
        billingAddress: address,
      }),
      201,
    );
    const context = registered.contextToken as string;
    const cart = await cartOf(context);
    expect(cart.billingAddress).toMatchObject(address);
    expect(cart.shippingAddress).toMatchObject(address);
    // The channel's only methods are chosen for the customer's cart, so checkout needs no other call.
    expect(cart).toMatchObject({ shippingMethodId: SELLABLE.parcel, paymentMethodId: SELLABLE.invoice });
    expect(cart.problems).toEqual([]);
    expectStatus(await store('POST', '/store-api/checkout', context), 201);
  });

  it('address a cart started after registration, each from its own default', async () => {
    const shipTo = { ...address, street: 'Harbour Road 2', zipcode: '20095', city: 'Hamburg' };
    const registered = expectStatus(
      await store('POST', '/store-api/account/register', await newContext(), {
        email: 'both@example.test',
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
        billingAddress: address,
        shippingAddress: shipTo,
      }),
      201,
    );
    const cart = await addLamp(registered.contextToken as string, 1);
    expect(cart.billingAddress).toMatchObject(address);
    expect(cart.shippingAddress).toMatchObject(shipTo);
  });

  it('address the anonymous cart a customer brings to login, but never replace an address it has', async () => {
    const billTo = { ...address, city: 'Potsdam', zipcode: '14467' };
    expectStatus(
      await store('POST', '/store-api/account/register', await newContext(), {
        email: 'login@example.test',
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
        billingAddress: billTo,
      }),
      201,
    );
    const anonymous = await newContext();
    await addLamp(anonymous, 1);
    const own = { ...address, city: 'Leipzig', zipcode: '04109' };
    expectStatus(await store('PATCH', '/store-api/cart', anonymous, { shippingAddress: own }), 200);
    const login = expectStatus(
      await store('POST', '/store-api/account/login', anonymous, {
        email: 'login@example.test',
        password: 'correct horse battery',
      }),
      200,
    );
    const cart = await cartOf(login.contextToken as string);
    expect(cart.billingAddress).toMatchObject(billTo);
    expect(cart.shippingAddress).toMatchObject(own);
    expect(cart.problems).toEqual([]);
  });
});
