import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CartLineInput, type PricedCart, priceCart } from './cart-pricing.ts';
import {
  type CustomerSnapshot,
  findMethodOffer,
  type OrderSnapshot,
  type OrderSnapshotInput,
  type PaymentMethodBasis,
  type ShippingMethodBasis,
  snapshotOrder,
} from './order-snapshot.ts';

// `placeOrderInline` is the snapshot code of the service's `placeOrder` as it stood when
// `snapshotOrder` was extracted (packages/service/src/carts/checkout.ts), copied statement by
// statement over the same objects checkout holds (`pricing`, `cart`, the basis rows, the channel).
// `snapshotOrder` must give exactly its values.

interface CheckoutState {
  readonly pricing: {
    readonly priced: PricedCart;
    readonly lines: readonly { readonly id: string; readonly name: string | null }[];
    readonly products: ReadonlyMap<
      string,
      { readonly parentId: string | null; readonly options: Record<string, string> | null }
    >;
    readonly taxRates: ReadonlyMap<string, number>;
    readonly settings: Record<string, unknown>;
  };
  readonly cart: {
    readonly currency: string;
    readonly shippingMethodId: string;
    readonly paymentMethodId: string;
  };
  readonly customer: CustomerSnapshot & {
    readonly affiliateCode: string | null;
    readonly passwordHash: string;
  };
  readonly shippingMethod: ShippingMethodBasis;
  readonly paymentMethod: PaymentMethodBasis;
  readonly channel: { readonly id: string; readonly revision: number; readonly data: unknown } | undefined;
  readonly orderId: string;
  readonly number: number;
  readonly now: Date;
}

function placeOrderInline(state: CheckoutState) {
  const { pricing, cart, customer, shippingMethod, paymentMethod, channel, orderId, number, now } = state;
  const offered = (area: 'shippingMethods' | 'paymentMethods', id: string) =>
    ((pricing.settings[area] ?? {}) as Record<string, { active?: boolean; translations?: unknown }>)[id];
  const payment = offered('paymentMethods', cart.paymentMethodId!);
  if (payment?.active !== true) throw new Error('checkout refuses before it snapshots');
  const shipping = offered('shippingMethods', cart.shippingMethodId!);
  const priced = pricing.priced;
  const lines = priced.lines.map((line) => {
    const info = pricing.lines.find((candidate) => candidate.id === line.id);
    const product = pricing.products.get(line.productId)!;
    return {
      id: line.id,
      type: 'product',
      productId: line.productId,
      parentId: product.parentId,
      sku: line.sku,
      name: info?.name ?? null,
      options: product.options ?? {},
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      total: line.total,
      taxRate: line.taxRate,
    };
  });
  return {
    price: {
      priceMode: priced.priceMode,
      currency: priced.currency,
      subtotal: priced.subtotal,
      shipping: priced.shipping,
      promotions: [],
      discountTotal: { net: 0, tax: 0, gross: 0 },
      taxes: priced.taxes,
      total: priced.total,
    },
    lines,
    customer: {
      id: customer.id,
      email: customer.email,
      group: customer.group,
      salutation: customer.salutation,
      firstName: customer.firstName,
      lastName: customer.lastName,
      company: customer.company,
      vatId: customer.vatId,
      guest: customer.guest,
    },
    shippingMethod: {
      id: shippingMethod.id,
      key: shippingMethod.key,
      translations: shipping?.translations ?? shippingMethod.translations,
      taxClassId: shippingMethod.taxClassId,
    },
    paymentMethod: {
      id: paymentMethod.id,
      key: paymentMethod.key,
      translations: payment.translations ?? paymentMethod.translations,
      handler: paymentMethod.handler,
    },
    settingsSnapshot: {
      priceMode: priced.priceMode,
      currency: priced.currency,
      taxRates: Object.fromEntries(pricing.taxRates),
      channel: channel ? { id: channel.id, revision: channel.revision, data: channel.data } : null,
      effective: {
        company: pricing.settings.company ?? null,
        deliveryCountries: pricing.settings.deliveryCountries ?? null,
        taxRates: pricing.settings.taxRates ?? {},
        taxLabels: pricing.settings.taxLabels ?? {},
        taxRules: pricing.settings.taxRules ?? {},
        shippingMethod: shipping ?? null,
        paymentMethod: payment,
      },
    },
    placed: {
      orderId,
      number,
      customerId: customer.id,
      currency: cart.currency,
      totalGross: priced.total.gross,
      placedAt: now.toISOString(),
    },
  };
}

/** The call the service makes at the same point. */
function inputOf(state: CheckoutState): OrderSnapshotInput {
  return {
    orderId: state.orderId,
    number: state.number,
    placedAt: state.now,
    priced: state.pricing.priced,
    lineNames: state.pricing.lines,
    products: state.pricing.products,
    taxRates: state.pricing.taxRates,
    settings: state.pricing.settings,
    customer: state.customer,
    shippingMethod: state.shippingMethod,
    paymentMethod: state.paymentMethod,
    channel: state.channel ?? null,
  };
}

const EUR = { code: 'EUR', precision: 2 };

function price(mode: 'gross' | 'net', lines: CartLineInput[], shippingGross = 490): PricedCart {
  const result = priceCart({
    currency: EUR,
    priceMode: mode,
    lines,
    shipping: { price: { gross: shippingGross, net: Math.round(shippingGross / 1.19) }, taxRate: 1900 },
  });
  if (!result.ok) throw new Error(`${result.code}: ${result.detail}`);
  return result.value;
}

const tea: CartLineInput = {
  id: 'line-tea',
  productId: 'p-tea',
  sku: 'TEA-1',
  quantity: 2,
  unitPrice: { gross: 1190, net: 1000 },
  taxRate: 700,
};
const mugRed: CartLineInput = {
  id: 'line-mug',
  productId: 'p-mug-red',
  sku: 'MUG-RED',
  quantity: 1,
  unitPrice: { gross: 2380, net: 2000 },
  taxRate: 1900,
};

const shippingBasis: ShippingMethodBasis = {
  id: 'ship-std',
  key: 'standard',
  translations: { en: { name: 'Standard' }, de: { name: 'Standard' } },
  taxClassId: 'tc-standard',
};
const paymentBasis: PaymentMethodBasis = {
  id: 'pay-invoice',
  key: 'invoice',
  translations: { en: { name: 'Invoice' } },
  handler: 'invoice',
};

const settings = {
  company: { name: 'Cartwright Demo' },
  deliveryCountries: ['DE', 'AT'],
  shippingMethods: {
    'ship-std': { active: true, translations: { en: { name: 'Standard (AT)' } }, position: 1 },
  },
  paymentMethods: { 'pay-invoice': { active: true, translations: { en: { name: 'Pay later' } } } },
  taxRates: { 'tc-standard': { rates: { default: 1900, AT: 2000 } } },
  taxLabels: { 'tc-standard': { translations: { en: 'VAT' } } },
  taxRules: { 'rule-at': { country: 'AT', state: null, taxClassId: 'tc-standard', rate: 2000 } },
};

const customer = {
  id: 'cust-1',
  email: 'ada@example.com',
  group: 'consumer',
  salutation: null,
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: null,
  vatId: null,
  guest: false,
  affiliateCode: 'AFF',
  passwordHash: 'scrypt$secret',
};

function state(overrides: Partial<CheckoutState> = {}, pricing: Partial<CheckoutState['pricing']> = {}) {
  return {
    pricing: {
      priced: price('gross', [tea, mugRed]),
      lines: [
        { id: 'line-tea', name: 'Green tea' },
        { id: 'line-mug', name: 'Mug' },
      ],
      products: new Map([
        ['p-tea', { parentId: null, options: null }],
        ['p-mug-red', { parentId: 'p-mug', options: { colour: 'red' } }],
      ]),
      taxRates: new Map([
        ['p-tea', 700],
        ['p-mug-red', 1900],
      ]),
      settings,
      ...pricing,
    },
    cart: { currency: 'EUR', shippingMethodId: 'ship-std', paymentMethodId: 'pay-invoice' },
    customer,
    shippingMethod: shippingBasis,
    paymentMethod: paymentBasis,
    channel: { id: 'channel-at', revision: 3, data: { overrides: { deliveryCountries: ['AT'] } } },
    orderId: 'order-1',
    number: 10_042,
    now: new Date('2025-03-01T12:00:00.000Z'),
    ...overrides,
  } satisfies CheckoutState;
}

describe('snapshotOrder gives exactly what checkout stored inline', () => {
  it.each<[string, CheckoutState, (snapshot: OrderSnapshot) => void]>([
    [
      'a consumer cart: variant data, channel translations over the basis',
      state(),
      (snapshot) => {
        expect(snapshot.lines.map((line) => [line.id, line.parentId, line.name, line.options])).toEqual([
          ['line-tea', null, 'Green tea', {}],
          ['line-mug', 'p-mug', 'Mug', { colour: 'red' }],
        ]);
        expect(snapshot.shippingMethod.translations).toEqual({ en: { name: 'Standard (AT)' } });
        expect(snapshot.paymentMethod.translations).toEqual({ en: { name: 'Pay later' } });
        expect(snapshot.settingsSnapshot.taxRates).toEqual({ 'p-tea': 700, 'p-mug-red': 1900 });
        expect(snapshot.placed).toEqual({
          orderId: 'order-1',
          number: 10_042,
          customerId: 'cust-1',
          currency: 'EUR',
          totalGross: 2 * 1190 + 2380 + 490,
          placedAt: '2025-03-01T12:00:00.000Z',
        });
      },
    ],
    [
      'a business cart in net prices',
      state(
        { customer: { ...customer, group: 'business', company: 'ACME', vatId: 'ATU1' } },
        {
          priced: price('net', [tea, mugRed]),
        },
      ),
      (snapshot) => {
        expect(snapshot.price.priceMode).toBe('net');
        expect(snapshot.settingsSnapshot.priceMode).toBe('net');
        expect(snapshot.lines.map((line) => line.unitPrice)).toEqual([1000, 2000]);
        expect(snapshot.customer).toMatchObject({ group: 'business', company: 'ACME', vatId: 'ATU1' });
      },
    ],
    [
      'a line without a name, a channel that could not be read',
      state({ channel: undefined }, { lines: [{ id: 'line-mug', name: 'Mug' }] }),
      (snapshot) => {
        expect(snapshot.lines.map((line) => line.name)).toEqual([null, 'Mug']);
        expect(snapshot.settingsSnapshot.channel).toBeNull();
      },
    ],
    [
      'offers without translations and settings without the optional areas',
      state(
        {},
        {
          settings: {
            shippingMethods: { 'ship-std': { active: true } },
            paymentMethods: { 'pay-invoice': { active: true, position: 2 } },
          },
        },
      ),
      (snapshot) => {
        expect(snapshot.shippingMethod.translations).toBe(shippingBasis.translations);
        expect(snapshot.paymentMethod.translations).toBe(paymentBasis.translations);
        expect(snapshot.settingsSnapshot.effective).toEqual({
          company: null,
          deliveryCountries: null,
          taxRates: {},
          taxLabels: {},
          taxRules: {},
          shippingMethod: { active: true },
          paymentMethod: { active: true, position: 2 },
        });
      },
    ],
    [
      'a shipping method the channel no longer offers keeps the basis texts',
      state({}, { settings: { ...settings, shippingMethods: {} } }),
      (snapshot) => {
        expect(snapshot.shippingMethod.translations).toBe(shippingBasis.translations);
        expect(snapshot.settingsSnapshot.effective.shippingMethod).toBeNull();
      },
    ],
    [
      'free shipping, lines in another order',
      state(
        {},
        {
          priced: price('gross', [
            { ...mugRed, shippingFree: true },
            { ...tea, shippingFree: true },
          ]),
        },
      ),
      (snapshot) => {
        expect(snapshot.lines.map((line) => line.id)).toEqual(['line-mug', 'line-tea']);
        expect(snapshot.price.shipping).toEqual({ net: 0, tax: 0, gross: 0, taxRate: 1900 });
      },
    ],
  ])('%s', (_name, checkout, check) => {
    const snapshot = snapshotOrder(inputOf(checkout));
    expect(snapshot).toEqual(placeOrderInline(checkout));
    check(snapshot);
  });

  it('keeps only the snapshot fields of the customer, never the password hash', () => {
    const snapshot = snapshotOrder(inputOf(state()));
    expect(Object.keys(snapshot.customer).sort()).toEqual(
      ['company', 'email', 'firstName', 'group', 'guest', 'id', 'lastName', 'salutation', 'vatId'].sort(),
    );
  });

  it('fits the JSON columns of an order without a cast', () => {
    const { placed, ...columns } = snapshotOrder(inputOf(state()));
    const row: Record<string, Record<string, unknown> | Record<string, unknown>[]> = columns;
    const payload: Record<string, unknown> = placed;
    expect(Object.keys(row)).toEqual([
      'price',
      'lines',
      'customer',
      'shippingMethod',
      'paymentMethod',
      'settingsSnapshot',
    ]);
    expect(JSON.parse(JSON.stringify({ row, payload }))).toEqual({ row, payload });
  });

  it('throws on a priced line whose product is missing: a caller bug, not a refusal', () => {
    const input = inputOf(state({}, { products: new Map() }));
    expect(() => snapshotOrder(input)).toThrow('no product p-tea for the priced line line-tea');
  });

  it('agrees with the inline code on random carts', () => {
    const lineOf = fc.record({
      id: fc.constantFrom('l1', 'l2', 'l3', 'l4'),
      productId: fc.constantFrom('p1', 'p2', 'p3'),
      quantity: fc.integer({ min: 1, max: 20 }),
      gross: fc.integer({ min: 0, max: 100_000 }),
      taxRate: fc.constantFrom(0, 700, 1900, 2000),
      shippingFree: fc.boolean(),
    });
    const checkout = fc
      .record({
        lines: fc.uniqueArray(lineOf, { selector: (line) => line.id, maxLength: 4 }),
        mode: fc.constantFrom('gross' as const, 'net' as const),
        named: fc.subarray(['l1', 'l2', 'l3', 'l4']),
        parents: fc.dictionary(fc.constantFrom('p1', 'p2', 'p3'), fc.constantFrom('parent-a', 'parent-b')),
        shippingOffer: fc.option(fc.record({ active: fc.boolean(), translations: fc.option(fc.string()) })),
        paymentTranslations: fc.option(fc.string(), { nil: undefined }),
        channel: fc.option(fc.record({ id: fc.uuid(), revision: fc.nat(), data: fc.jsonValue() }), {
          nil: undefined,
        }),
        company: fc.option(fc.record({ name: fc.string() }), { nil: undefined }),
        areas: fc.record(
          {
            deliveryCountries: fc.array(fc.constantFrom('DE', 'AT', 'CH')),
            taxRates: fc.dictionary(fc.constantFrom('tc-a', 'tc-b'), fc.record({ rates: fc.jsonValue() })),
            taxLabels: fc.dictionary(fc.constantFrom('tc-a', 'tc-b'), fc.jsonValue()),
            taxRules: fc.dictionary(fc.uuid(), fc.record({ country: fc.constantFrom('DE', 'AT') })),
          },
          { requiredKeys: [] },
        ),
      })
      .map(
        ({
          lines,
          mode,
          named,
          parents,
          shippingOffer,
          paymentTranslations,
          channel,
          company,
          areas,
        }): CheckoutState =>
          state(
            { channel },
            {
              priced: price(
                mode,
                lines.map((line) => ({
                  id: line.id,
                  productId: line.productId,
                  sku: `SKU-${line.productId}`,
                  quantity: line.quantity,
                  unitPrice: { gross: line.gross, net: Math.floor(line.gross / 2) },
                  taxRate: line.taxRate,
                  shippingFree: line.shippingFree,
                })),
              ),
              lines: named.map((id) => ({ id, name: `name of ${id}` })),
              products: new Map(
                ['p1', 'p2', 'p3'].map((id) => [
                  id,
                  { parentId: parents[id] ?? null, options: parents[id] ? { size: id } : null },
                ]),
              ),
              taxRates: new Map(lines.map((line) => [line.productId, line.taxRate])),
              settings: {
                ...areas,
                company,
                shippingMethods: shippingOffer === null ? {} : { 'ship-std': shippingOffer },
                paymentMethods: { 'pay-invoice': { active: true, translations: paymentTranslations } },
              },
            },
          ),
      );
    fc.assert(
      fc.property(checkout, (drawn) => {
        expect(snapshotOrder(inputOf(drawn))).toEqual(placeOrderInline(drawn));
      }),
    );
  });
});

describe('findMethodOffer', () => {
  it.each<[string, Record<string, unknown>, string, unknown]>([
    ['an offered method', settings, 'ship-std', settings.shippingMethods['ship-std']],
    ['a method the channel removed', { shippingMethods: {} }, 'ship-std', undefined],
    ['settings without the area', {}, 'ship-std', undefined],
    ['an area set to null', { shippingMethods: null }, 'ship-std', undefined],
    ['an id that names an inherited property', { shippingMethods: {} }, 'constructor', undefined],
  ])('%s', (_name, effective, id, expected) => {
    expect(findMethodOffer(effective, 'shippingMethods', id)).toBe(expected);
  });
});
