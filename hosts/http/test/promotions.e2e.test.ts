import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// Promotions end to end over HTTP (issue 14): "10 % off carts ≥ 100 with code SPRING, priority 5,
// exclusive" and a non-exclusive "free shipping" at priority 1, on a cart of two tax rates, with
// totals and taxes checked by hand; the order's snapshot, the redemption count, the code's limit,
// and the rule that cannot be deleted while redemptions name it.

let h: Harness;
let channelKey: string;
const STANDARD = '0190f0c8-0000-7000-8000-00000000a001';
const REDUCED = '0190f0c8-0000-7000-8000-00000000a002';
const PARCEL = '0190f0c8-0000-7000-8000-00000000a003';
const INVOICE = '0190f0c8-0000-7000-8000-00000000a004';
const CART_100 = '0190f0c8-0000-7000-8000-00000000a005';
const SPRING = '0190f0c8-0000-7000-8000-00000000a006';
const FREE_SHIPPING = '0190f0c8-0000-7000-8000-00000000a007';
const address = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: 'Unter den Linden 1',
  zipcode: '10117',
  city: 'Berlin',
  country: 'DE',
};

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
const store = (method: string, path: string, contextToken?: string, body?: unknown) =>
  h.call(method, path, {
    body,
    headers: { 'x-channel-key': channelKey, ...(contextToken ? { 'x-context-token': contextToken } : {}) },
  });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

const springData = (condition: unknown) => ({
  name: { en: 'Spring 10 %', de: 'Frühling 10 %' },
  campaign: { priority: 5, exclusive: true },
  condition,
  codes: { type: 'global', code: 'SPRING', limit: 1 },
  discounts: [{ scope: 'cart', type: 'percentage', value: 10 }],
});

beforeAll(async () => {
  h = await createHarness();
  const automation = expectOk(await staff('GET', '/api/automation'));
  channelKey = (automation.channels as { accessKey: string }[])[0]!.accessKey;
  expectOk(
    await staff('PUT', '/api/basis/countries/DE', { revision: 0, translations: { en: { name: 'Germany' } } }),
  );
  for (const [id, rate] of [
    [STANDARD, 1900],
    [REDUCED, 700],
  ] as const) {
    expectOk(
      await staff('PUT', `/api/basis/tax-classes/${id}`, {
        revision: 0,
        translations: { en: { name: `Rate ${rate}` } },
        rates: [{ country: null, rate }],
      }),
    );
  }
  expectOk(
    await staff('PUT', `/api/basis/shipping-methods/${PARCEL}`, {
      revision: 0,
      translations: { en: { name: 'Parcel' } },
      prices: [{ currency: 'EUR', gross: 595, net: 500 }],
      taxClassId: STANDARD,
    }),
  );
  expectOk(
    await staff('PUT', `/api/basis/payment-methods/${INVOICE}`, {
      revision: 0,
      translations: { en: { name: 'Invoice' } },
      handler: 'invoice',
    }),
  );
  for (const [sku, gross, net, taxClassId] of [
    ['LAMP', 11900, 10000, STANDARD],
    ['BOOK', 1070, 1000, REDUCED],
  ] as const) {
    expectOk(
      await staff('POST', '/api/catalog/products', {
        sku,
        translations: { en: { name: sku } },
        prices: [{ currency: 'EUR', gross, net }],
        taxClassId,
        stockAvailable: 100,
      }),
      201,
    );
  }
  expectOk(
    await staff('PUT', `/api/automation/rules/${CART_100}`, {
      revision: 0,
      data: {
        name: { en: 'Cart of 100 or more' },
        condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
      },
    }),
  );
});
afterAll(async () => h?.close());

/** A registered customer's context with LAMP and BOOK in the cart, ready for checkout. */
async function shopper(email: string): Promise<string> {
  const anonymous = expectOk(await store('POST', '/store-api/context'), 201).contextToken as string;
  const token = expectOk(
    await store('POST', '/store-api/account/register', anonymous, {
      email,
      password: 'correct horse battery',
      firstName: 'Ada',
      lastName: 'Lovelace',
      billingAddress: address,
    }),
    201,
  ).contextToken as string;
  expectOk(await store('POST', '/store-api/cart/lines', token, { sku: 'LAMP', quantity: 1 }));
  expectOk(await store('POST', '/store-api/cart/lines', token, { sku: 'BOOK', quantity: 1 }));
  expectOk(
    await store('PATCH', '/store-api/cart', token, {
      billingAddress: address,
      shippingAddress: address,
      shippingMethodId: PARCEL,
      paymentMethodId: INVOICE,
    }),
  );
  return token;
}

async function redemptions() {
  const automation = expectOk(await staff('GET', '/api/automation'));
  return Object.fromEntries(
    (automation.promotions as { id: string; redemptions: number }[]).map((p) => [p.id, p.redemptions]),
  );
}

describe('promotions over HTTP', () => {
  it('applies by priority, stops at an exclusive one, snapshots, counts and limits redemptions', async () => {
    // No promotion is seeded.
    expect(expectOk(await staff('GET', '/api/automation')).promotions).toEqual([]);
    expectOk(
      await staff('PUT', `/api/automation/promotions/${SPRING}`, {
        revision: 0,
        data: springData({ type: 'ruleReference', ruleId: CART_100 }),
      }),
    );
    const freeShipping = expectOk(
      await staff('PUT', `/api/automation/promotions/${FREE_SHIPPING}`, {
        revision: 0,
        data: {
          name: { en: 'Free shipping' },
          campaign: { priority: 1 },
          discounts: [{ scope: 'shipping', type: 'percentage', value: 100 }],
        },
      }),
    );
    expect(freeShipping).toMatchObject({ id: FREE_SHIPPING, revision: 1, active: true });
    expect(
      (expectOk(await staff('GET', '/api/automation')).promotions as { id: string }[]).map((p) => p.id),
    ).toEqual([SPRING, FREE_SHIPPING]);

    const first = await shopper('first@example.test');
    // Without the code: only the free shipping. LAMP 119.00 at 19 % (tax 19.00), BOOK 10.70 at 7 %
    // (tax 0.70), shipping 5.95 at 19 % (tax 0.95) taken off in full.
    const plain = expectOk(await store('GET', '/store-api/cart', first));
    expect(plain.promotions).toEqual([
      {
        promotionId: FREE_SHIPPING,
        name: 'Free shipping',
        code: null,
        amount: { net: -500, tax: -95, gross: -595 },
      },
    ]);
    expect(plain.subtotal).toEqual({ net: 11000, tax: 1970, gross: 12970 });
    expect(plain.shipping).toEqual({ net: 500, tax: 95, gross: 595, taxRate: 1900 });
    expect(plain.total).toEqual({ net: 11000, tax: 1970, gross: 12970 });
    expect(plain.taxes).toEqual([
      { rate: 700, tax: 70, base: 1000 },
      { rate: 1900, tax: 1900, base: 10000 },
    ]);

    // An unknown code is refused and changes nothing.
    const unknown = await store('POST', '/store-api/cart/promotion-codes', first, { code: 'WINTER' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('PROMOTION_CODE_UNKNOWN');

    // With the code (any case): 10 % of 129.70 = 12.97, split over the rates in proportion:
    // 11.90 of the 19 % line (tax 1.90) and 1.07 of the 7 % line (tax 0.07). The exclusive
    // promotion stops the free shipping, so the 5.95 are charged.
    const coded = expectOk(await store('POST', '/store-api/cart/promotion-codes', first, { code: 'spring' }));
    expect(coded.promotions).toEqual([
      {
        promotionId: SPRING,
        name: 'Spring 10 %',
        code: 'SPRING',
        amount: { net: -1100, tax: -197, gross: -1297 },
      },
    ]);
    expect(coded.promotionCodes).toEqual([{ code: 'spring', promotionId: SPRING, status: 'applied' }]);
    expect(coded.discountTotal).toEqual({ net: -1100, tax: -197, gross: -1297 });
    expect(coded.total).toEqual({ net: 10400, tax: 1868, gross: 12268 });
    expect(coded.taxes).toEqual([
      { rate: 700, tax: 63, base: 900 },
      { rate: 1900, tax: 1805, base: 9500 },
    ]);
    expect(coded.problems).toEqual([]);

    const checkout = () =>
      h.call('POST', '/store-api/checkout', {
        headers: {
          'x-channel-key': channelKey,
          'x-context-token': first,
          'idempotency-key': 'promo-first-1',
        },
      });
    const placed = expectOk(await checkout(), 201);
    expect(expectOk(await checkout(), 201).id).toBe(placed.id);
    const order = expectOk(await staff('GET', `/api/orders/${placed.id}`)).order as Record<string, unknown>;
    expect(order.price).toMatchObject({
      subtotal: { net: 11000, tax: 1970, gross: 12970 },
      shipping: { net: 500, tax: 95, gross: 595, taxRate: 1900 },
      discountTotal: { net: -1100, tax: -197, gross: -1297 },
      total: { net: 10400, tax: 1868, gross: 12268 },
      promotions: [
        {
          promotionId: SPRING,
          revision: 1,
          name: { en: 'Spring 10 %', de: 'Frühling 10 %' },
          code: 'SPRING',
          priority: 5,
          exclusive: true,
          ruleIds: [CART_100],
          amount: { net: -1100, tax: -197, gross: -1297 },
          discounts: [
            {
              id: `${SPRING}/0`,
              scope: 'cart',
              amount: { net: -1100, tax: -197, gross: -1297 },
              taxes: [
                { rate: 700, tax: -7, base: -100 },
                { rate: 1900, tax: -190, base: -1000 },
              ],
            },
          ],
        },
      ],
    });
    // The retried checkout answered the same order: one redemption.
    expect(await redemptions()).toEqual({ [SPRING]: 1, [FREE_SHIPPING]: 0 });

    // The code's limit is 1: a second customer's cart shows it exhausted and cannot check out.
    const second = await shopper('second@example.test');
    const exhausted = expectOk(
      await store('POST', '/store-api/cart/promotion-codes', second, { code: 'SPRING' }),
    );
    expect(exhausted.promotionCodes).toEqual([{ code: 'SPRING', promotionId: SPRING, status: 'exhausted' }]);
    expect(exhausted.problems).toEqual([
      expect.objectContaining({ code: 'PROMOTION_CODE_EXHAUSTED', lineId: null }),
    ]);
    const refused = await store('POST', '/store-api/checkout', second);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CART_INVALID');
    expect(refused.body.problems).toEqual([expect.objectContaining({ code: 'PROMOTION_CODE_EXHAUSTED' })]);
    expect(await redemptions()).toEqual({ [SPRING]: 1, [FREE_SHIPPING]: 0 });
    // Without the code the second customer pays full price less the free shipping.
    const removed = expectOk(await store('DELETE', '/store-api/cart/promotion-codes/spring', second));
    expect(removed.total).toEqual({ net: 11000, tax: 1970, gross: 12970 });
    expectOk(await store('POST', '/store-api/checkout', second), 201);
    expect(await redemptions()).toEqual({ [SPRING]: 1, [FREE_SHIPPING]: 1 });
  });

  it('blocks deleting the promotion’s rule while redemptions exist, and the redeemed promotion too', async () => {
    const rule = expectOk(await staff('GET', '/api/automation')).rules as { id: string; revision: number }[];
    const cart100 = rule.find((candidate) => candidate.id === CART_100)!;
    const blocked = await staff('DELETE', `/api/automation/rules/${CART_100}?revision=${cart100.revision}`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('REFERENCED');
    expect(blocked.body.references).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'promotion', id: SPRING }),
        expect.objectContaining({ kind: 'promotion_redemption' }),
      ]),
    );
    // The promotion no longer names the rule; the redemption that did still blocks.
    expectOk(
      await staff('PUT', `/api/automation/promotions/${SPRING}`, { revision: 1, data: springData(null) }),
    );
    const dependencies = expectOk(await staff('GET', `/api/automation/rules/${CART_100}/dependencies`));
    expect(dependencies.blockers).toEqual([expect.objectContaining({ kind: 'promotion_redemption' })]);
    expect(
      (await staff('DELETE', `/api/automation/rules/${CART_100}?revision=${cart100.revision}`)).status,
    ).toBe(409);
    const promotion = await staff('DELETE', `/api/automation/promotions/${SPRING}?revision=2`);
    expect(promotion.status).toBe(409);
    expect(promotion.body.references).toEqual([expect.objectContaining({ kind: 'promotion_redemption' })]);
    const promotionDependencies = expectOk(
      await staff('GET', `/api/automation/promotions/${SPRING}/dependencies`),
    );
    expect(promotionDependencies).toMatchObject({ kind: 'promotions', id: SPRING, references: [] });
  });

  it('refuses a code another promotion holds, and invalid promotions, changing nothing', async () => {
    const other = '0190f0c8-0000-7000-8000-00000000a0f1';
    const taken = await staff('PUT', `/api/automation/promotions/${other}`, {
      revision: 0,
      data: { ...springData(null), codes: { type: 'individual', codes: ['spring'] } },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('CONFLICT');
    for (const data of [
      { name: { en: 'No discount' }, discounts: [] },
      {
        name: { en: 'Both' },
        discounts: [{ scope: 'cart', type: 'percentage', value: 10, amounts: { EUR: 100 } }],
      },
      { name: { en: 'Too much' }, discounts: [{ scope: 'cart', type: 'percentage', value: 120 }] },
      { name: { en: 'Lines' }, discounts: [{ scope: 'lineItems', type: 'percentage', value: 10 }] },
      {
        name: { en: 'Missing rule' },
        condition: { type: 'ruleReference', ruleId: other },
        discounts: [{ scope: 'cart', type: 'percentage', value: 10 }],
      },
    ]) {
      const refused = await staff('PUT', `/api/automation/promotions/${other}`, { revision: 0, data });
      expect(refused.status, JSON.stringify(data)).toBe(422);
    }
    const promotions = expectOk(await staff('GET', '/api/automation')).promotions as { id: string }[];
    expect(promotions.map((promotion) => promotion.id)).not.toContain(other);
  });
});

describe('channels as an automation kind', () => {
  it('saves, lists the dependencies of and deletes a channel as the merchant endpoints do', async () => {
    const id = '0190f0c8-0000-7000-8000-00000000a0c1';
    const automation = expectOk(await staff('GET', '/api/automation'));
    const main = (automation.channels as { id: string }[])[0]!;
    const read = expectOk(await staff('GET', `/api/merchant/commerce/channels/${main.id}`));
    const body = {
      revision: 0,
      baseRevision: read.baseRevision,
      channel: { name: { en: 'Outlet' }, mode: 'headless', paused: false, private: false, languages: ['en'] },
    };
    const saved = expectOk(await staff('PUT', `/api/automation/channels/${id}`, body));
    expect(saved).toMatchObject({ id, revision: 1, channel: { name: { en: 'Outlet' }, mode: 'headless' } });
    // The same body at a stale revision answers as the merchant endpoint does.
    const stale = await staff('PUT', `/api/automation/channels/${id}`, body);
    const merchantStale = await staff('PUT', `/api/merchant/commerce/channels/${id}`, body);
    expect(stale.status).toBe(409);
    expect({ ...stale.body, requestId: null }).toEqual({ ...merchantStale.body, requestId: null });
    const dependencies = expectOk(await staff('GET', `/api/automation/channels/${id}/dependencies`));
    expect(dependencies).toEqual({ kind: 'channels', id, blockers: [], references: [] });
    // A rule naming the channel blocks its delete, through either endpoint.
    const rule = '0190f0c8-0000-7000-8000-00000000a0c2';
    expectOk(
      await staff('PUT', `/api/automation/rules/${rule}`, {
        revision: 0,
        data: {
          name: { en: 'Outlet' },
          condition: { type: 'salesChannel', value: { operator: '=', salesChannelIds: [id] } },
        },
      }),
    );
    const blocked = await staff('DELETE', `/api/automation/channels/${id}?revision=1`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('CHANNEL_IN_USE');
    expect(expectOk(await staff('GET', `/api/automation/channels/${id}/dependencies`)).blockers).toEqual([
      expect.objectContaining({ kind: 'definitions', count: 1 }),
    ]);
    expectOk(await staff('DELETE', `/api/automation/rules/${rule}?revision=1`));
    expect(expectOk(await staff('DELETE', `/api/automation/channels/${id}?revision=1`))).toEqual({
      channelId: id,
      deleted: true,
    });
    const gone = await staff('GET', `/api/automation/channels/${id}/dependencies`);
    expect(gone.status).toBe(404);
  });
});
