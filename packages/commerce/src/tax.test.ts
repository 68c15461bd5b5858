import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PriceMode, taxAmount, taxBreakdown, taxLine } from './tax.ts';

describe('taxLine', () => {
  it.each<[string, PriceMode, number, number, number, { net: number; tax: number; gross: number }]>([
    // 5997 × 1900 / 11900 = 957.504… → 958
    ['gross 3 × 19.99 EUR at 19 %', 'gross', 1999, 3, 1900, { net: 5039, tax: 958, gross: 5997 }],
    // 1000 × 700 / 10700 = 65.42… → 65
    ['gross 2 × 5.00 EUR at 7 %', 'gross', 500, 2, 700, { net: 935, tax: 65, gross: 1000 }],
    // 999 × 1000 / 11000 = 90.81… → 91 (JPY, precision 0: the same integer arithmetic)
    ['gross 3 × 333 JPY at 10 %', 'gross', 333, 3, 1000, { net: 908, tax: 91, gross: 999 }],
    // 1 × 10000 / 20000 = 0.5 → 1 (half away from zero)
    ['gross exact half at 100 %', 'gross', 1, 1, 10_000, { net: 0, tax: 1, gross: 1 }],
    // 5040 × 1900 / 10000 = 957.6 → 958
    ['net 3 × 16.80 EUR at 19 %', 'net', 1680, 3, 1900, { net: 5040, tax: 958, gross: 5998 }],
    // 50 × 1900 / 10000 = 9.5 → 10 (half away from zero)
    ['net exact half at 19 %', 'net', 50, 1, 1900, { net: 50, tax: 10, gross: 60 }],
    // 1000 × 770 / 10000 = 77
    ['net 10.00 CHF at 7.7 %', 'net', 1000, 1, 770, { net: 1000, tax: 77, gross: 1077 }],
    ['rate 0', 'gross', 1234, 2, 0, { net: 2468, tax: 0, gross: 2468 }],
    ['price 0', 'net', 0, 5, 1900, { net: 0, tax: 0, gross: 0 }],
  ])('%s', (_name, mode, unitPrice, quantity, rate, expected) => {
    expect(taxLine(unitPrice, quantity, mode, rate)).toEqual({ ok: true, value: expected });
  });

  it('rounds the line total, not each unit', () => {
    // Per unit: 1999 × 1900 / 11900 = 319.17 → 319, × 3 = 957; per line it is 958.
    expect(taxAmount(1999, 'gross', 1900).tax * 3).toBe(957);
    expect(taxLine(1999, 3, 'gross', 1900)).toMatchObject({ value: { tax: 958 } });
  });

  it('fails instead of losing precision past the safe integers', () => {
    expect(taxLine(Number.MAX_SAFE_INTEGER, 2, 'gross', 1900)).toMatchObject({
      ok: false,
      code: 'AMOUNT_OUT_OF_RANGE',
    });
    expect(taxLine(Number.MAX_SAFE_INTEGER, 1, 'net', 1900)).toMatchObject({
      ok: false,
      code: 'AMOUNT_OUT_OF_RANGE',
    });
    expect(taxLine(Number.MAX_SAFE_INTEGER, 1, 'gross', 1900).ok).toBe(true);
  });

  it('splits any amount into integers with net + tax = gross and the tax rounded to the nearest unit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.constantFrom<PriceMode>('gross', 'net'),
        fc.integer({ min: 0, max: 10_000 }),
        (amount, mode, rate) => {
          const { net, tax, gross } = taxAmount(amount, mode, rate);
          for (const value of [net, tax, gross]) expect(Number.isSafeInteger(value)).toBe(true);
          expect(net + tax).toBe(gross);
          expect(mode === 'gross' ? gross : net).toBe(amount);
          expect(tax).toBeGreaterThanOrEqual(0);
          // |tax − exact| ≤ ½ where exact = amount × rate / divisor, checked in integers.
          const divisor = BigInt(mode === 'gross' ? 10_000 + rate : 10_000);
          const error = BigInt(tax) * divisor - BigInt(amount) * BigInt(rate);
          expect((error < 0n ? -error : error) * 2n <= divisor).toBe(true);
        },
      ),
    );
  });
});

describe('taxBreakdown', () => {
  it('groups by rate, ascending, with the net base', () => {
    expect(
      taxBreakdown([
        { net: 5039, tax: 958, gross: 5997, taxRate: 1900 },
        { net: 935, tax: 65, gross: 1000, taxRate: 700 },
        { net: 419, tax: 80, gross: 499, taxRate: 1900 },
        { net: 100, tax: 0, gross: 100, taxRate: 0 },
      ]),
    ).toEqual([
      { rate: 0, tax: 0, base: 100 },
      { rate: 700, tax: 65, base: 935 },
      { rate: 1900, tax: 1038, base: 5458 },
    ]);
  });

  it('is empty for no amounts', () => {
    expect(taxBreakdown([])).toEqual([]);
  });
});
