import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// carts.list (GET /api/carts): the shop's open carts newest first, paged by cursor, priced now,
// never with a context token. A listed cart is no way into a preview: automation.preview takes
// the storefront cart context token only (spec: "Preview requires the storefront cart context
// token"), so a cart id is refused there.

let h: Harness;
let productId: string;
let channelKey: string;
/** Context tokens of three registered visitors of shop A (1, 2 and 3 teas at 10.00) and an anonymous one. */
const tokens: string[] = [];
let anonymous: string;

interface ListedCart {
  id: string;
  channelId: string;
  customerId: string | null;
  customerEmail: string | null;
  lineCount: number;
  itemTotal: number | null;
  currency: string;
  priceMode: 'gross' | 'net';
  updatedAt: string;
}

const staff = (method: string, path: string, body?: unknown, token = h.shopA.token) =>
  h.call(method, path, { token, body });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
const store = (method: string, path: string, token: string | null, body?: unknown) =>
  h.call(method, path, {
    body,
    headers: { 'x-channel-key': channelKey, ...(token ? { 'x-context-token': token } : {}) },
  });
async function listCarts(query = '', token = h.shopA.token) {
  const listed = expectOk(await staff('GET', `/api/carts${query}`, undefined, token));
  return listed as { items: ListedCart[]; next: string | null };
}
/** The id of the open cart a context token names (as the storefront shows it). */
async function cartIdOf(token: string): Promise<string> {
  return expectOk(await store('GET', '/store-api/cart', token)).id as string;
}
const preview = (
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  token = h.shopA.token,
) => h.call('POST', '/api/automation/rules/preview', { token, body, headers });

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea());
  for (const quantity of [1, 2, 3])
    tokens.push(await h.visitorWithCart(channelKey, [{ productId, quantity }]));
  anonymous = expectOk(await store('POST', '/store-api/context', null), 201).contextToken as string;
  expectOk(await store('POST', '/store-api/cart/lines', anonymous, { productId, quantity: 4 }));
});
afterAll(async () => h?.close());

describe('carts.list', () => {
  it('lists the open carts newest first with customer, lines and item total, never a context token', async () => {
    const { items, next } = await listCarts();
    expect(next).toBeNull();
    expect(items).toHaveLength(4);
    // The anonymous cart changed last, then the visitors' in reverse order of their making.
    expect(items.map((cart) => cart.id)).toEqual(
      await Promise.all([anonymous, ...[...tokens].reverse()].map(cartIdOf)),
    );
    const [guest, third] = items;
    expect(guest).toMatchObject({
      customerId: null,
      customerEmail: null,
      lineCount: 1,
      itemTotal: 4000,
      currency: 'EUR',
      priceMode: 'gross',
    });
    expect(third!.customerEmail).toMatch(/^visitor\d+@harness\.test$/);
    expect(third).toMatchObject({ lineCount: 1, itemTotal: 3000, currency: 'EUR' });
    expect(third!.customerId).toMatch(/^[0-9a-f-]{36}$/);
    const sorted = [...items].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    expect(sorted.map((cart) => cart.updatedAt)).toEqual(items.map((cart) => cart.updatedAt));
    const text = JSON.stringify(items);
    for (const token of [...tokens, anonymous]) expect(text).not.toContain(token);
    expect(text).not.toMatch(/token/i);
  });

  it('pages with limit and the cursor it answers, and refuses a cursor it did not', async () => {
    const all = (await listCarts()).items.map((cart) => cart.id);
    const seen: string[] = [];
    let query = '?limit=3';
    for (;;) {
      const page = await listCarts(query);
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((cart) => cart.id));
      if (!page.next) break;
      query = `?limit=3&before=${encodeURIComponent(page.next)}`;
    }
    expect(seen).toEqual(all);
    const two = await listCarts('?limit=2');
    expect(two.items.map((cart) => cart.id)).toEqual(all.slice(0, 2));
    expect((await listCarts(`?limit=2&before=${two.next}`)).items.map((cart) => cart.id)).toEqual(
      all.slice(2, 4),
    );
    const bad = await staff('GET', '/api/carts?before=not-a-cursor');
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect((await staff('GET', '/api/carts?limit=101')).status).toBe(422);
    expect((await staff('GET', '/api/carts?limit=0')).status).toBe(422);
  });

  it('follows the cart: a changed cart moves to the top with its new total', async () => {
    expectOk(await store('POST', '/store-api/cart/lines', tokens[0]!, { productId, quantity: 4 }));
    const [top] = (await listCarts()).items;
    expect(top).toMatchObject({ id: await cartIdOf(tokens[0]!), lineCount: 1, itemTotal: 5000 });
  });

  it('shows another shop none of this shop’s carts, and needs orders.read', async () => {
    const ofA = (await listCarts()).items.map((cart) => cart.id);
    const ofB = await listCarts('', h.shopB.token);
    for (const id of ofA) expect(JSON.stringify(ofB)).not.toContain(id);
    const denied = await staff('GET', '/api/carts', undefined, await h.tokenWithout('orders.read'));
    expect(denied.status).toBe(403);
    expect(
      (await staff('GET', '/api/carts', undefined, await h.readerToken('carts-reader@a.test'))).status,
    ).toBe(200);
  });

  it('is an MCP tool answering the same page', async () => {
    const call = await h.mcp(h.shopA.token);
    const listed = await call('carts.list', { limit: 2 });
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { items: ListedCart[] }).items).toEqual(
      (await listCarts('?limit=2')).items,
    );
  });
});

describe('automation.preview takes no cart id', () => {
  const condition = { type: 'cartCartAmount', value: { operator: '>=', amount: 20 } };

  it('refuses a cartId (422) and without the context token answers CONTEXT_REQUIRED', async () => {
    const cartId = await cartIdOf(tokens[2]!);
    const byId = await preview({ condition, cartId });
    expect(byId.status).toBe(422);
    expect(byId.body.code).toBe('VALIDATION_FAILED');
    const beside = await preview({ condition, cartId }, { 'x-context-token': tokens[2]! });
    expect(beside.status).toBe(422);
    const neither = await preview({ condition });
    expect(neither.status).toBe(400);
    expect(neither.body.code).toBe('CONTEXT_REQUIRED');
    // The same cart through its context token answers.
    expect(expectOk(await preview({ condition }, { 'x-context-token': tokens[2]! }))).toEqual({
      result: true,
    });
  });
});
