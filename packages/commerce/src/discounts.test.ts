import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CartLineInput, type PricedCart, priceCart } from './cart-pricing.ts';
import { applyDiscounts, type DiscountInput } from './discounts.ts';
import type { TaxedAmount } from './tax.ts';

const EUR = { code: 'EUR', precision: 2 };

function cart(
  lines: readonly Omit<CartLineInput, 'productId' | 'sku'>[],
  shipping: { gross: number; net: number } | null,
  priceMode: 'gross' | 'net' = 'gross',
): PricedCart {
  const priced = priceCart({
    currency: EUR,
    priceMode,
    lines: lines.map((line) => ({ ...line, productId: `p-${line.id}`, sku: `S-${line.id}` })),
    shipping: shipping ? { price: shipping, taxRate: 1900 } : null,
  });
  if (!priced.ok) throw new Error(priced.detail);
  return priced.value;
}

const balanced = (amount: TaxedAmount) => amount.net + amount.tax === amount.gross;

describe('applyDiscounts, hand-checked', () => {
  // 119.00 at 19 % and 10.70 at 7 %, shipping 5.95 at 19 %.
  const twoRates = cart(
    [
      { id: 'a', quantity: 1, unitPrice: { gross: 11900, net: 10000 }, taxRate: 1900 },
      { id: 'b', quantity: 1, unitPrice: { gross: 1070, net: 1000 }, taxRate: 700 },
    ],
    { gross: 595, net: 500 },
  );

  it('10 % of the cart: split over the rates in proportion, each part taxed at its rate', () => {
    const discounted = applyDiscounts(twoRates, [
      { id: 'ten', scope: 'cart', kind: 'percentage', value: 1000 },
    ]);
    // 10 % of 129.70 = 12.97: 11.90 of the 19 % line (tax 1.90), 1.07 of the 7 % line (tax 0.07).
    expect(discounted.discounts).toEqual([
      {
        id: 'ten',
        scope: 'cart',
        amount: { net: -1100, tax: -197, gross: -1297 },
        taxes: [
          { rate: 700, tax: -7, base: -100 },
          { rate: 1900, tax: -190, base: -1000 },
        ],
      },
    ]);
    expect(discounted.subtotal).toEqual({ net: 11000, tax: 1970, gross: 12970 });
    expect(discounted.total).toEqual({ net: 10400, tax: 1868, gross: 12268 });
    expect(discounted.taxes).toEqual([
      { rate: 700, tax: 63, base: 900 },
      { rate: 1900, tax: 1805, base: 9500 },
    ]);
  });

  it('free shipping: 100 % of shipping, its tax back at the shipping rate', () => {
    const discounted = applyDiscounts(twoRates, [
      { id: 'ship', scope: 'shipping', kind: 'percentage', value: 10_000 },
    ]);
    expect(discounted.discountTotal).toEqual({ net: -500, tax: -95, gross: -595 });
    expect(discounted.total).toEqual({ net: 11000, tax: 1970, gross: 12970 });
    expect(discounted.taxes).toEqual([
      { rate: 700, tax: 70, base: 1000 },
      { rate: 1900, tax: 1900, base: 10000 },
    ]);
  });

  it('matching lines only, a fixed amount capped at what is left, percentages of the rest', () => {
    const discounted = applyDiscounts(twoRates, [
      { id: 'b-off', scope: 'lineItems', lineIds: ['b'], kind: 'absolute', value: 5000 },
      { id: 'half', scope: 'cart', kind: 'percentage', value: 5000 },
    ]);
    // 50.00 off line b takes its whole 10.70; then half of the 119.00 left is 59.50 (tax 9.50).
    expect(discounted.discounts.map((discount) => discount.amount)).toEqual([
      { net: -1000, tax: -70, gross: -1070 },
      { net: -5000, tax: -950, gross: -5950 },
    ]);
    expect(discounted.total.gross).toBe(12970 + 595 - 1070 - 5950);
    expect(discounted.taxes.map((entry) => entry.rate)).toEqual([1900]);
  });

  it('net mode: a fixed amount is net, tax comes on top', () => {
    const net = cart(
      [{ id: 'a', quantity: 2, unitPrice: { gross: 11900, net: 10000 }, taxRate: 1900 }],
      null,
      'net',
    );
    const discounted = applyDiscounts(net, [
      { id: 'ten-euro', scope: 'cart', kind: 'absolute', value: 1000 },
    ]);
    expect(discounted.discountTotal).toEqual({ net: -1000, tax: -190, gross: -1190 });
    expect(discounted.total).toEqual({ net: 19000, tax: 3610, gross: 22610 });
  });

  it('changes nothing without discounts, and a discount with nothing left takes zero', () => {
    expect(applyDiscounts(twoRates, [])).toEqual({
      ...twoRates,
      discounts: [],
      discountTotal: { net: 0, tax: 0, gross: 0 },
    });
    const free = cart(
      [{ id: 'a', quantity: 1, unitPrice: { gross: 1000, net: 840 }, taxRate: 1900, shippingFree: true }],
      {
        gross: 595,
        net: 500,
      },
    );
    const discounted = applyDiscounts(free, [
      { id: 'ship', scope: 'shipping', kind: 'percentage', value: 10_000 },
    ]);
    expect(discounted.discountTotal).toEqual({ net: 0, tax: 0, gross: 0 });
    expect(discounted.total).toEqual(free.total);
  });
});

describe('applyDiscounts, properties', () => {
  const lineArb = fc.record({
    gross: fc.integer({ min: 0, max: 1_000_000 }),
    quantity: fc.integer({ min: 1, max: 50 }),
    taxRate: fc.constantFrom(0, 700, 1900, 2000),
  });
  const discountArb = fc.record({
    scope: fc.constantFrom('cart' as const, 'lineItems' as const, 'shipping' as const),
    kind: fc.constantFrom('percentage' as const, 'absolute' as const),
    value: fc.integer({ min: 0, max: 2_000_000 }),
    pick: fc.array(fc.nat(9), { maxLength: 4 }),
  });

  it('keeps net + tax = gross everywhere, never discounts below zero, and adds up', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 8 }),
        fc.array(discountArb, { maxLength: 5 }),
        fc.constantFrom('gross' as const, 'net' as const),
        (lines, specs, mode) => {
          const priced = cart(
            lines.map((line, index) => ({
              id: `l${index}`,
              quantity: line.quantity,
              unitPrice: {
                gross: line.gross,
                net: Math.round((line.gross * 10_000) / (10_000 + line.taxRate)),
              },
              taxRate: line.taxRate,
            })),
            { gross: 595, net: 500 },
            mode,
          );
          const discounts: DiscountInput[] = specs.map((spec, index) => ({
            id: `d${index}`,
            scope: spec.scope,
            kind: spec.kind,
            value: spec.kind === 'percentage' ? spec.value % 10_001 : spec.value,
            lineIds: spec.pick.map((pick) => `l${pick}`),
          }));
          const discounted = applyDiscounts(priced, discounts);
          for (const discount of discounted.discounts) {
            expect(balanced(discount.amount)).toBe(true);
            expect(discount.amount[mode]).toBeLessThanOrEqual(0);
          }
          expect(balanced(discounted.total)).toBe(true);
          expect(discounted.total[mode]).toBeGreaterThanOrEqual(0);
          expect(discounted.total.gross).toBe(priced.total.gross + discounted.discountTotal.gross);
          const taxSum = discounted.taxes.reduce((sum, entry) => sum + entry.tax, 0);
          expect(taxSum).toBe(discounted.total.tax);
        },
      ),
    );
  });
});
