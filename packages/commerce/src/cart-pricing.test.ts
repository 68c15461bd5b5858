import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CartLineInput, type CartPriceInput, type PricedCart, priceCart } from './cart-pricing.ts';
import type { Result } from './result.ts';
import type { TaxedAmount } from './tax.ts';

const EUR = { code: 'EUR', precision: 2 };
const JPY = { code: 'JPY', precision: 0 };

function line(overrides: Partial<CartLineInput> & Pick<CartLineInput, 'id'>): CartLineInput {
  return {
    productId: `product-${overrides.id}`,
    sku: `SKU-${overrides.id}`,
    quantity: 1,
    unitPrice: { gross: 1190, net: 1000 },
    taxRate: 1900,
    ...overrides,
  };
}

function priced(result: Result<PricedCart>): PricedCart {
  if (!result.ok) throw new Error(`expected a priced cart, got ${result.code}: ${result.detail}`);
  return result.value;
}

describe('priceCart, hand-checked', () => {
  it('gross mode EUR: two rates and charged shipping', () => {
    const cart = priced(
      priceCart({
        currency: EUR,
        priceMode: 'gross',
        lines: [
          line({ id: 'a', quantity: 3, unitPrice: { gross: 1999, net: 1680 }, taxRate: 1900 }),
          line({ id: 'b', quantity: 2, unitPrice: { gross: 500, net: 467 }, taxRate: 700 }),
        ],
        shipping: { price: { gross: 499, net: 419 }, taxRate: 1900 },
      }),
    );
    // a: 5997 × 1900 / 11900 = 957.50… → 958; b: 1000 × 700 / 10700 = 65.42… → 65;
    // shipping: 499 × 1900 / 11900 = 79.67… → 80.
    expect(cart.lines).toEqual([
      {
        id: 'a',
        productId: 'product-a',
        sku: 'SKU-a',
        quantity: 3,
        unitPrice: 1999,
        total: { net: 5039, tax: 958, gross: 5997 },
        taxRate: 1900,
      },
      {
        id: 'b',
        productId: 'product-b',
        sku: 'SKU-b',
        quantity: 2,
        unitPrice: 500,
        total: { net: 935, tax: 65, gross: 1000 },
        taxRate: 700,
      },
    ]);
    expect(cart.subtotal).toEqual({ net: 5974, tax: 1023, gross: 6997 });
    expect(cart.shipping).toEqual({ net: 419, tax: 80, gross: 499, taxRate: 1900 });
    expect(cart.total).toEqual({ net: 6393, tax: 1103, gross: 7496 });
    expect(cart.taxes).toEqual([
      { rate: 700, tax: 65, base: 935 },
      { rate: 1900, tax: 1038, base: 5458 },
    ]);
    expect(cart.positionCount).toBe(2);
    expect(cart.currency).toEqual(EUR);
  });

  it('net mode EUR: tax on top of the net line total', () => {
    const cart = priced(
      priceCart({
        currency: EUR,
        priceMode: 'net',
        lines: [line({ id: 'a', quantity: 3, unitPrice: { gross: 1999, net: 1680 }, taxRate: 1900 })],
        shipping: { price: { gross: 499, net: 419 }, taxRate: 1900 },
      }),
    );
    // a: 5040 × 0.19 = 957.6 → 958; shipping: 419 × 0.19 = 79.61 → 80.
    expect(cart.lines[0]).toMatchObject({ unitPrice: 1680, total: { net: 5040, tax: 958, gross: 5998 } });
    expect(cart.shipping).toEqual({ net: 419, tax: 80, gross: 499, taxRate: 1900 });
    expect(cart.total).toEqual({ net: 5459, tax: 1038, gross: 6497 });
    expect(cart.taxes).toEqual([{ rate: 1900, tax: 1038, base: 5459 }]);
  });

  it('JPY (precision 0) without shipping', () => {
    const cart = priced(
      priceCart({
        currency: JPY,
        priceMode: 'gross',
        lines: [line({ id: 'a', quantity: 3, unitPrice: { gross: 333, net: 303 }, taxRate: 1000 })],
        shipping: null,
      }),
    );
    // 999 × 1000 / 11000 = 90.81… → 91
    expect(cart.total).toEqual({ net: 908, tax: 91, gross: 999 });
    expect(cart.shipping).toEqual({ net: 0, tax: 0, gross: 0, taxRate: 0 });
    expect(cart.taxes).toEqual([{ rate: 1000, tax: 91, base: 908 }]);
  });

  it('an empty cart costs nothing and ships free', () => {
    const cart = priced(
      priceCart({
        currency: EUR,
        priceMode: 'gross',
        lines: [],
        shipping: { price: { gross: 499, net: 419 }, taxRate: 1900 },
      }),
    );
    expect(cart.total).toEqual({ net: 0, tax: 0, gross: 0 });
    expect(cart.taxes).toEqual([]);
    expect(cart.positionCount).toBe(0);
  });
});

describe('priceCart shipping', () => {
  const shipping = { price: { gross: 499, net: 419 }, taxRate: 1900 };

  it('is free when every line is shipping-free', () => {
    const cart = priced(
      priceCart({
        currency: EUR,
        priceMode: 'gross',
        lines: [line({ id: 'a', shippingFree: true }), line({ id: 'b', shippingFree: true })],
        shipping,
      }),
    );
    expect(cart.shipping).toEqual({ net: 0, tax: 0, gross: 0, taxRate: 1900 });
  });

  it('is charged when one line is not shipping-free', () => {
    const cart = priced(
      priceCart({
        currency: EUR,
        priceMode: 'gross',
        lines: [line({ id: 'a', shippingFree: true }), line({ id: 'b' })],
        shipping,
      }),
    );
    expect(cart.shipping.gross).toBe(499);
  });

  it('rejects a method without a price that would have to charge', () => {
    expect(
      priceCart({
        currency: EUR,
        priceMode: 'gross',
        lines: [line({ id: 'a' })],
        shipping: { price: null, taxRate: 1900 },
      }),
    ).toMatchObject({ ok: false, code: 'SHIPPING_PRICE_MISSING' });
    expect(
      priceCart({
        currency: EUR,
        priceMode: 'gross',
        lines: [line({ id: 'a', shippingFree: true })],
        shipping: { price: null, taxRate: 1900 },
      }).ok,
    ).toBe(true);
  });
});

describe('priceCart rejects invalid input with a result', () => {
  const valid: CartPriceInput = {
    currency: EUR,
    priceMode: 'gross',
    lines: [line({ id: 'a' })],
    shipping: null,
  };

  it.each<[string, CartPriceInput, string]>([
    ['quantity 0', { ...valid, lines: [line({ id: 'a', quantity: 0 })] }, 'lines.0.quantity'],
    ['quantity 10001', { ...valid, lines: [line({ id: 'a', quantity: 10_001 })] }, 'lines.0.quantity'],
    ['fractional quantity', { ...valid, lines: [line({ id: 'a', quantity: 1.5 })] }, 'lines.0.quantity'],
    [
      'negative price',
      { ...valid, lines: [line({ id: 'a', unitPrice: { gross: -1, net: 0 } })] },
      'lines.0.unitPrice.gross',
    ],
    [
      'float price',
      { ...valid, lines: [line({ id: 'a', unitPrice: { gross: 19.99, net: 16.8 } })] },
      'lines.0.unitPrice.gross',
    ],
    ['tax rate above 100 %', { ...valid, lines: [line({ id: 'a', taxRate: 10_001 })] }, 'lines.0.taxRate'],
    ['fractional tax rate', { ...valid, lines: [line({ id: 'a', taxRate: 19.5 })] }, 'lines.0.taxRate'],
    ['empty line id', { ...valid, lines: [line({ id: '' })] }, 'lines.0.id'],
    ['duplicate line id', { ...valid, lines: [line({ id: 'a' }), line({ id: 'a' })] }, 'line id a'],
    ['lower-case currency', { ...valid, currency: { code: 'eur', precision: 2 } }, 'currency.code'],
    [
      'negative shipping price',
      { ...valid, shipping: { price: { gross: -499, net: -419 }, taxRate: 1900 } },
      'shipping.price.gross',
    ],
  ])('%s', (_name, input, inDetail) => {
    const result = priceCart(input);
    expect(result).toMatchObject({ ok: false, code: 'INVALID_CART' });
    if (!result.ok) expect(result.detail).toContain(inDetail);
  });

  it('rejects amounts beyond the safe integers, naming the line whose own total is too large', () => {
    const huge = { gross: Number.MAX_SAFE_INTEGER, net: Number.MAX_SAFE_INTEGER };
    expect(
      priceCart({ ...valid, lines: [line({ id: 'ok' }), line({ id: 'a', quantity: 2, unitPrice: huge })] }),
    ).toEqual({ ok: false, code: 'AMOUNT_OUT_OF_RANGE', detail: expect.any(String), lineId: 'a' });
    // Each line fits; only their sum does not, so no line is named.
    expect(
      priceCart({
        ...valid,
        lines: [line({ id: 'a', unitPrice: huge }), line({ id: 'b', unitPrice: huge })],
      }),
    ).toEqual({ ok: false, code: 'AMOUNT_OUT_OF_RANGE', detail: expect.any(String) });
  });
});

const RATES = [0, 500, 700, 770, 1900, 2000, 2500];
const price = fc.record({
  gross: fc.integer({ min: 0, max: 10 ** 7 }),
  net: fc.integer({ min: 0, max: 10 ** 7 }),
});
const cartInput: fc.Arbitrary<CartPriceInput> = fc.record({
  currency: fc.constantFrom(EUR, JPY, { code: 'KWD', precision: 3 }),
  priceMode: fc.constantFrom('gross' as const, 'net' as const),
  lines: fc
    .array(
      fc.record({
        quantity: fc.integer({ min: 1, max: 50 }),
        unitPrice: price,
        taxRate: fc.constantFrom(...RATES),
        shippingFree: fc.boolean(),
      }),
      { minLength: 1, maxLength: 20 },
    )
    .map((lines) => lines.map((fields, index) => line({ id: `line-${index}`, ...fields }))),
  shipping: fc.option(fc.record({ price, taxRate: fc.constantFrom(...RATES) }), { nil: null }),
});

function sum(amounts: readonly TaxedAmount[]): TaxedAmount {
  return amounts.reduce((a, b) => ({ net: a.net + b.net, tax: a.tax + b.tax, gross: a.gross + b.gross }), {
    net: 0,
    tax: 0,
    gross: 0,
  });
}

describe('priceCart properties', () => {
  it('keeps every invariant for random carts', () => {
    fc.assert(
      fc.property(cartInput, (input) => {
        const cart = priced(priceCart(input));
        const amounts: TaxedAmount[] = [
          ...cart.lines.map((l) => l.total),
          cart.subtotal,
          cart.shipping,
          cart.total,
        ];
        for (const amount of amounts) {
          for (const value of [amount.net, amount.tax, amount.gross])
            expect(Number.isSafeInteger(value)).toBe(true);
          expect(amount.net + amount.tax).toBe(amount.gross);
        }
        const { net, tax, gross } = sum([...cart.lines.map((l) => l.total), cart.shipping]);
        expect(cart.total).toEqual({ net, tax, gross });
        expect(cart.subtotal).toEqual(sum(cart.lines.map((l) => l.total)));
        expect(cart.taxes.reduce((total, entry) => total + entry.tax, 0)).toBe(cart.total.tax);
        expect(cart.taxes.reduce((total, entry) => total + entry.base, 0)).toBe(cart.total.net);
        expect(cart.positionCount).toBe(input.lines.length);
        input.lines.forEach((inputLine, index) => {
          const pricedLine = cart.lines[index]!;
          const unit = inputLine.unitPrice[input.priceMode];
          expect(pricedLine.unitPrice).toBe(unit);
          expect(pricedLine.total[input.priceMode]).toBe(unit * inputLine.quantity);
        });
        const isFree = input.lines.every((l) => l.shippingFree);
        if (isFree || !input.shipping?.price) expect(cart.shipping.gross).toBe(0);
        else expect(cart.shipping[input.priceMode]).toBe(input.shipping.price[input.priceMode]);
      }),
    );
  });
});
