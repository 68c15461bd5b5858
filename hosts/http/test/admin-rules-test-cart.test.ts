import { randomUUID } from 'node:crypto';
import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminSessionClient, adminSession } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';

// The rule page's test cart without a browser (admin/rules/test-cart.ts, decision 0047): the
// composed cart is built through the storefront operations in the chosen channel and its context
// token kept in the form; the preview goes through automation.preview with that token (spec:
// "Preview requires the storefront cart context token"), follows a changed quantity on the same
// cart, refuses a product the channel does not sell at its field, and writes nothing itself. A
// reader composes a test cart too (storefront operations need no staff permission).

let h: Harness;
let productId: string;
let channelKey: string;
let mainChannelId: string;
let owner: AdminSessionClient;
let reader: AdminSessionClient;
const RULE = randomUUID();
const condition = { type: 'cartCartAmount', value: { operator: '>=', amount: 20 } };

/** The visitor's cart as the storefront shows it for a context token. */
async function storeCart(token: string) {
  const cart = await h.call('GET', '/store-api/cart', {
    headers: { 'x-channel-key': channelKey, 'x-context-token': token },
  });
  expect(cart.status).toBe(200);
  return cart.body as {
    lines: { productId: string; quantity: number }[];
    shippingMethodId: string | null;
    paymentMethodId: string | null;
  };
}

const hidden = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? null;
const resultOf = (html: string) => /data-result="(true|false)"/.exec(html)?.[1] ?? null;

/** The composer's fields as the page posts them (one line unless more are given). */
function composed(lines: [string, string][], more: Record<string, string> = {}) {
  const fields: Record<string, string> = {
    op: 'preview',
    revision: '1',
    tree: JSON.stringify(condition),
    'tc:channel': mainChannelId,
    'tc:shipping': '',
    'tc:payment': '',
    ...more,
  };
  for (const [index, [product, quantity]] of lines.entries()) {
    fields[`tc:product:${index}`] = product;
    fields[`tc:quantity:${index}`] = quantity;
  }
  return fields;
}

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea());
  const listed = await h.call('GET', '/api/automation', { token: h.shopA.token });
  mainChannelId = (listed.body.channels as { id: string; isMain: boolean }[]).find((c) => c.isMain)!.id;
  const saved = await h.call('PUT', `/api/automation/rules/${RULE}`, {
    token: h.shopA.token,
    body: { revision: 0, data: { name: { en: 'Twenty or more', de: 'Ab zwanzig' }, condition } },
  });
  expect(saved.status).toBe(200);
  owner = await adminSession(h, h.shopA.token, 'en');
  reader = await adminSession(h, await h.readerToken('test-cart-reader@a.test'), 'de');
});
afterAll(async () => h?.close());

describe('the rule page’s test cart', () => {
  it('offers the shop’s channels (main chosen), its products and its active methods', async () => {
    const page = await owner.get(`/admin/rules/${RULE}`);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(new RegExp(`<option value="${mainChannelId}" selected`));
    expect(page.html).toContain(`<option value="${productId}">Tea (TEA)</option>`);
    expect(page.html).toContain(`<option value="${SELLABLE.parcel}">`);
    expect(page.html).toContain(`<option value="${SELLABLE.invoice}">`);
    expect(hidden(page.html, 'tc:token')).toBe('');
  });

  it('builds the cart through the storefront operations and previews with its token; a new quantity flips the answer on the same cart', async () => {
    const one = await owner.post(`/admin/rules/${RULE}`, composed([[productId, '1']]));
    expect(one.status, one.html).toBe(200);
    expect(resultOf(one.html)).toBe('false');
    const token = hidden(one.html, 'tc:token')!;
    expect(token).not.toBe('');
    // A real storefront cart of the channel: the storefront reads it with the same token.
    expect((await storeCart(token)).lines).toEqual([expect.objectContaining({ productId, quantity: 1 })]);
    expect(one.html).toContain('Test cart: 1 line, 1 item, €10.00.');

    const three = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[productId, '3']], { 'tc:token': token }),
    );
    expect(three.status).toBe(200);
    expect(resultOf(three.html)).toBe('true');
    expect(hidden(three.html, 'tc:token')).toBe(token);
    expect((await storeCart(token)).lines).toEqual([expect.objectContaining({ productId, quantity: 3 })]);
    expect(/<li[^>]*data-pointer=""[\s\S]*?data-trace="(true|false)"/.exec(three.html)?.[1]).toBe('true');

    // The methods are set through store.cart.update; unchoosing one starts a fresh cart.
    const chosen = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[productId, '3']], {
        'tc:token': token,
        'tc:shipping': SELLABLE.parcel,
        'tc:payment': SELLABLE.invoice,
      }),
    );
    expect(chosen.status).toBe(200);
    expect(await storeCart(token)).toMatchObject({
      shippingMethodId: SELLABLE.parcel,
      paymentMethodId: SELLABLE.invoice,
    });
    const unchosen = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[productId, '3']], { 'tc:token': token }),
    );
    const fresh = hidden(unchosen.html, 'tc:token')!;
    expect(fresh).not.toBe(token);
    expect(await storeCart(fresh)).toMatchObject({ shippingMethodId: null, paymentMethodId: null });
    expect(resultOf(unchosen.html)).toBe('true');
  });

  it('refuses a product the channel does not sell, a bad quantity and no product at their fields, writing nothing', async () => {
    const built = await owner.post(`/admin/rules/${RULE}`, composed([[productId, '1']]));
    const token = hidden(built.html, 'tc:token')!;
    const before = await h.digest();
    const unknown = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[randomUUID(), '1']], { 'tc:token': token }),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.html).toMatch(
      /id="tc-product-0"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="tc-product-0"/,
    );
    expect(unknown.html).toContain('id="tc-product-0-error"');
    expect(unknown.html).toContain('This product is not sold in the chosen sales channel.');
    expect(resultOf(unknown.html)).toBeNull();
    // The token is kept for the next try.
    expect(hidden(unknown.html, 'tc:token')).toBe(token);

    const badQuantity = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[productId, 'three']], { 'tc:token': token }),
    );
    expect(badQuantity.status).toBe(422);
    expect(badQuantity.html).toContain('id="tc-quantity-0-error"');
    expect(badQuantity.html).toContain('A quantity is a whole number from 1 to 9999.');
    const none = await owner.post(`/admin/rules/${RULE}`, composed([['', '1']], { 'tc:token': token }));
    expect(none.status).toBe(422);
    expect(none.html).toContain('Choose at least one product.');
    expect(await h.digest()).toBe(before);
    expect((await storeCart(token)).lines).toEqual([expect.objectContaining({ productId, quantity: 1 })]);
  });

  it('previews without writing anything once the cart is as composed, and by a pasted visitor token', async () => {
    const built = await owner.post(`/admin/rules/${RULE}`, composed([[productId, '2']]));
    const token = hidden(built.html, 'tc:token')!;
    expect(resultOf(built.html)).toBe('true');
    const before = await h.digest();
    const again = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[productId, '2']], { 'tc:token': token }),
    );
    expect(resultOf(again.html)).toBe('true');
    expect(await h.digest()).toBe(before);
    // A method the page does not offer is refused before anything is written.
    const forged = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[productId, '5']], { 'tc:token': token, 'tc:shipping': randomUUID() }),
    );
    expect(forged.status).toBe(422);
    expect(forged.html).toContain('id="tc-shipping-error"');
    expect(await h.digest()).toBe(before);
    const visitor = await h.visitorWithCart(channelKey, [{ productId, quantity: 1 }]);
    const beforeVisitor = await h.digest();
    const pasted = await owner.post(
      `/admin/rules/${RULE}`,
      composed([[productId, '2']], { op: 'previewToken', 'tc:token': token, token: visitor }),
    );
    expect(pasted.status).toBe(200);
    expect(resultOf(pasted.html)).toBe('false');
    expect(await h.digest()).toBe(beforeVisitor);
    expect(before).not.toBe(beforeVisitor);
    // An empty pasted token: the operation's own answer, nothing previewed.
    const empty = await owner.post(`/admin/rules/${RULE}`, composed([], { op: 'previewToken' }));
    expect(empty.status).toBe(422);
    expect(empty.html).toContain('Preview needs the cart context token of a storefront');
  });

  it('lets a reader preview the saved rule with a test cart', async () => {
    const page = await reader.get(`/admin/rules/${RULE}`);
    expect(page.html).not.toContain('class="rule-editor"');
    expect(page.html).toContain('name="tc:channel"');
    const fields = composed([[productId, '3']]);
    delete fields.tree;
    delete fields.revision;
    const previewed = await reader.post(`/admin/rules/${RULE}`, fields);
    expect(previewed.status, previewed.html).toBe(200);
    expect(resultOf(previewed.html)).toBe('true');
    expect(previewed.html).toContain('Testwarenkorb: 1 Position, 3 Artikel');
  });
});
