import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The commerce core end to end over HTTP, as a merchant and a shopper would use it: products with
// a variant, a registered customer, a cart named by its context token, checkout, the order with
// hand-checked totals, reserved stock, order.placed in the outbox, and a cancel that releases the
// stock exactly once.

let h: Harness;
let channelKey: string;
const STANDARD = '0190f0c8-0000-7000-8000-0000000e2e01';
const REDUCED = '0190f0c8-0000-7000-8000-0000000e2e02';
const PARCEL = '0190f0c8-0000-7000-8000-0000000e2e03';
const INVOICE = '0190f0c8-0000-7000-8000-0000000e2e04';
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
async function store(
  method: string,
  path: string,
  contextToken?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return h.call(method, path, {
    body,
    headers: {
      'x-channel-key': channelKey,
      ...(contextToken ? { 'x-context-token': contextToken } : {}),
      ...headers,
    },
  });
}
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

let variantId: string;
let bookId: string;

beforeAll(async () => {
  h = await createHarness();
  const automation = expectOk(await staff('GET', '/api/automation'));
  channelKey = (automation.channels as { accessKey: string }[])[0]!.accessKey;
  // The storefront reads a product in German below: the shop enables it (decision 0029).
  expectOk(await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' }));
  expectOk(
    await staff('PUT', '/api/basis/countries/DE', { revision: 0, translations: { en: { name: 'Germany' } } }),
  );
  expectOk(
    await staff('PUT', `/api/basis/tax-classes/${STANDARD}`, {
      revision: 0,
      translations: { en: { name: 'Standard' } },
      rates: [{ country: null, rate: 1900 }],
    }),
  );
  expectOk(
    await staff('PUT', `/api/basis/tax-classes/${REDUCED}`, {
      revision: 0,
      translations: { en: { name: 'Reduced' } },
      rates: [{ country: null, rate: 700 }],
    }),
  );
  expectOk(
    await staff('PUT', `/api/basis/shipping-methods/${PARCEL}`, {
      revision: 0,
      translations: { en: { name: 'Parcel' } },
      prices: [{ currency: 'EUR', gross: 490, net: 412 }],
    }),
  );
  expectOk(
    await staff('PUT', `/api/basis/payment-methods/${INVOICE}`, {
      revision: 0,
      translations: { en: { name: 'Invoice' } },
      handler: 'invoice',
    }),
  );
  const shirt = expectOk(
    await staff('POST', '/api/catalog/products', {
      sku: 'SHIRT',
      translations: { en: { name: 'Shirt' } },
      prices: [{ currency: 'EUR', gross: 1999, net: 1680 }],
      purchasePrices: [{ currency: 'EUR', gross: 700, net: 700 }],
      taxClassId: STANDARD,
    }),
    201,
  );
  const parentId = ((shirt.product ?? shirt) as { id: string }).id;
  const variant = expectOk(
    await staff('POST', '/api/catalog/products', {
      parentId,
      sku: 'SHIRT-M',
      options: { size: 'M' },
      stockAvailable: 5,
    }),
    201,
  );
  variantId = ((variant.product ?? variant) as { id: string }).id;
  const book = expectOk(
    await staff('POST', '/api/catalog/products', {
      sku: 'BOOK',
      translations: { en: { name: 'Book' } },
      prices: [{ currency: 'EUR', gross: 1070, net: 1000 }],
      taxClassId: REDUCED,
      stockAvailable: 100,
    }),
    201,
  );
  bookId = ((book.product ?? book) as { id: string }).id;
});
afterAll(async () => h?.close());

async function stockOf(productId: string) {
  const detail = expectOk(await staff('GET', `/api/catalog/products/${productId}`));
  const own = detail.own as { stockAvailable: number; stockReserved: number };
  return { available: own.stockAvailable, reserved: own.stockReserved };
}

describe('from catalog to cancelled order over HTTP', () => {
  it('sells a variant and a book, then releases the stock of the cancelled order once', async () => {
    const anonymous = expectOk(await store('POST', '/store-api/context'), 201).contextToken as string;
    const registered = expectOk(
      await store('POST', '/store-api/account/register', anonymous, {
        email: 'ada@example.test',
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
        billingAddress: address,
      }),
      201,
    );
    const token = registered.contextToken as string;

    // The parent has variants: buying it asks for a variant; the variant inherits the parent's price.
    expectOk(await store('POST', '/store-api/cart/lines', token, { productId: variantId, quantity: 3 }));
    expectOk(await store('POST', '/store-api/cart/lines', token, { sku: 'book', quantity: 2 }));
    const cart = expectOk(
      await store('PATCH', '/store-api/cart', token, {
        billingAddress: address,
        shippingAddress: address,
        shippingMethodId: PARCEL,
        paymentMethodId: INVOICE,
      }),
    );
    // Shirt 3 × 19.99 at 19 %: gross 5997, tax 5997·1900/11900 = 957.5… → 958, net 5039.
    // Book 2 × 10.70 at 7 %: gross 2140, tax 2140·700/10700 = 140, net 2000.
    // Parcel 4.90 at the highest line rate 19 %: tax 490·1900/11900 = 78.2… → 78, net 412.
    expect(cart.problems).toEqual([]);
    expect((cart.lines as { sku: string; total: unknown }[]).map((line) => [line.sku, line.total])).toEqual([
      ['SHIRT-M', { gross: 5997, tax: 958, net: 5039 }],
      ['BOOK', { gross: 2140, tax: 140, net: 2000 }],
    ]);
    expect(cart.shipping).toEqual({ gross: 490, tax: 78, net: 412, taxRate: 1900 });
    expect(cart.total).toEqual({ gross: 8627, tax: 1176, net: 7451 });
    expect(cart.taxes).toEqual([
      { rate: 700, tax: 140, base: 2000 },
      { rate: 1900, tax: 1036, base: 5451 },
    ]);

    const placed = expectOk(
      await store('POST', '/store-api/checkout', token, undefined, {
        'idempotency-key': 'e2e-checkout-0001',
      }),
      201,
    );
    const retried = expectOk(
      await store('POST', '/store-api/checkout', token, undefined, {
        'idempotency-key': 'e2e-checkout-0001',
      }),
      201,
    );
    expect(retried.id).toBe(placed.id);
    expect(placed.number).toBe(1);

    const detail = expectOk(await staff('GET', `/api/orders/${placed.id}`));
    const order = detail.order as Record<string, unknown>;
    expect(order.price).toMatchObject({ total: { gross: 8627, tax: 1176, net: 7451 } });
    expect(order.state).toBe('open');
    expect(detail.reservations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sku: 'SHIRT-M', quantity: 3, status: 'reserved' }),
        expect.objectContaining({ sku: 'BOOK', quantity: 2, status: 'reserved' }),
      ]),
    );
    expect(await stockOf(variantId)).toEqual({ available: 2, reserved: 3 });
    expect(await stockOf(bookId)).toEqual({ available: 98, reserved: 2 });

    const events = expectOk(await staff('GET', '/api/events?name=order.placed'));
    expect(events.items).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ orderId: placed.id, totalGross: 8627 }) }),
    ]);

    const cancelled = expectOk(
      await staff('POST', `/api/orders/${placed.id}/transitions`, {
        machine: 'order',
        to: 'cancelled',
        revision: order.revision,
      }),
    );
    expect(cancelled.state).toBe('cancelled');
    expect(await stockOf(variantId)).toEqual({ available: 5, reserved: 0 });
    expect(await stockOf(bookId)).toEqual({ available: 100, reserved: 0 });

    const again = await staff('POST', `/api/orders/${placed.id}/transitions`, {
      machine: 'order',
      to: 'cancelled',
      revision: cancelled.revision,
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('TRANSITION_REFUSED');
    expect(await stockOf(variantId)).toEqual({ available: 5, reserved: 0 });
    const cancelEvents = expectOk(await staff('GET', '/api/events?name=order.cancelled'));
    expect(cancelEvents.items).toHaveLength(1);

    const shipCancelled = await staff('POST', `/api/orders/${placed.id}/transitions`, {
      machine: 'delivery',
      to: 'shipped',
      revision: cancelled.revision,
    });
    expect(shipCancelled.status).toBe(409);

    // Rule metadata of the order and of its customer, revision-bound like every write.
    const orderMeta = expectOk(
      await staff('PUT', `/api/automation/entities/orders/${placed.id}`, {
        revision: cancelled.revision,
        data: { vip: true },
      }),
    );
    expect(orderMeta).toMatchObject({
      revision: (cancelled.revision as number) + 1,
      ruleMetadata: { vip: true },
    });
    const customerId = (registered.customer as { id: string }).id;
    const stale = await staff('PUT', `/api/automation/entities/customers/${customerId}`, {
      revision: 99,
      data: { tier: 'gold' },
    });
    expect(stale.status).toBe(409);
    const customer = expectOk(await staff('GET', `/api/customers/${customerId}`));
    const revision = ((customer.customer ?? customer) as { revision: number }).revision;
    const customerMeta = expectOk(
      await staff('PUT', `/api/automation/entities/customers/${customerId}`, {
        revision,
        data: { tier: 'gold' },
      }),
    );
    expect(customerMeta).toMatchObject({ revision: revision + 1, effective: { tier: 'gold' } });
  });

  it('shows the storefront no purchase prices, rule metadata or custom fields, in any product shape', async () => {
    const parent = expectOk(
      await staff('POST', '/api/catalog/products', {
        sku: 'SECRET',
        translations: { en: { name: 'Secret', description: '' } },
        prices: [{ currency: 'EUR', gross: 5000, net: 4202, listGross: 6000, listNet: 5042 }],
        purchasePrices: [{ currency: 'EUR', gross: 1234567, net: 1234567 }],
        customFields: { internalNote: 'MARKER-CUSTOM' },
        taxClassId: STANDARD,
        stockAvailable: 3,
      }),
      201,
    );
    const parentId = ((parent.product ?? parent) as { id: string; revision: number }).id;
    const withMeta = expectOk(
      await staff('PUT', `/api/automation/entities/products/${parentId}`, {
        revision: 1,
        data: { segment: 'MARKER-RULE' },
      }),
    );
    expect(withMeta.revision).toBe(2);
    const variant = expectOk(
      await staff('POST', '/api/catalog/products', {
        parentId,
        sku: 'SECRET-L',
        options: { size: 'L' },
        purchasePrices: [{ currency: 'EUR', gross: 7654321, net: 7654321 }],
        stockAvailable: 1,
      }),
      201,
    );
    const variantOfSecret = ((variant.product ?? variant) as { id: string }).id;
    const shapes = [
      await store('GET', '/store-api/products?limit=100'),
      await store('GET', `/store-api/products/${parentId}`),
      await store('GET', `/store-api/products/${variantOfSecret}`),
      await store('GET', `/store-api/products/${parentId}?language=de`),
    ];
    for (const shape of shapes) {
      expect(shape.status).toBe(200);
      const text = JSON.stringify(shape.body);
      for (const secret of [
        '1234567',
        '7654321',
        'MARKER-RULE',
        'MARKER-CUSTOM',
        'purchase',
        'ruleMetadata',
        'customFields',
        'stockAvailable',
      ]) {
        expect(text).not.toContain(secret);
      }
    }
    const detail = shapes[1]!.body as {
      product: { name: string; description: string; price: { gross: number } };
      variants: unknown[];
    };
    expect(detail.product).toMatchObject({ name: 'Secret', description: '', price: { gross: 5000 } });
    expect(detail.variants).toHaveLength(1);
  });
});
