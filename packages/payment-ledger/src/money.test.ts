import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fromProviderValue,
  isSameMoney,
  type Money,
  PROVIDER_MAX_INTEGER_DIGITS,
  providerPrecision,
  toProviderValue,
  ZERO_DECIMAL_CURRENCIES,
} from './money.ts';

const money = (amount: number, currency: string, precision: number): Money => ({
  amount,
  currency,
  precision,
});

describe('providerPrecision', () => {
  it.each([
    ['EUR', 2, 2],
    ['USD', 2, 2],
    ['KWD', 3, 2],
    ['CLP', 0, 0],
    ['JPY', 0, 0],
    ['JPY', 2, 0],
    ['HUF', 2, 0],
    ['TWD', 2, 0],
  ])('%s kept at precision %i goes to the provider with %i decimals', (currency, precision, expected) => {
    expect(providerPrecision(currency, precision)).toBe(expected);
  });

  it('lists exactly HUF, JPY and TWD as zero-decimal', () => {
    expect([...ZERO_DECIMAL_CURRENCIES]).toEqual(['HUF', 'JPY', 'TWD']);
  });
});

describe('toProviderValue', () => {
  it.each<[Money, string]>([
    [money(1290, 'EUR', 2), '12.90'],
    [money(5, 'EUR', 2), '0.05'],
    [money(0, 'EUR', 2), '0.00'],
    [money(1290, 'JPY', 0), '1290'],
    [money(12900, 'HUF', 2), '129'],
    [money(100, 'TWD', 2), '1'],
    [money(12340, 'KWD', 3), '12.34'],
    [money(999_999_999_999_999, 'JPY', 0), '999999999999999'],
    [money(Number.MAX_SAFE_INTEGER, 'EUR', 2), '90071992547409.91'],
  ])('%o is %s', (input, expected) => {
    expect(toProviderValue(input)).toEqual({ ok: true, value: expected });
  });

  it.each<[Money, string]>([
    [money(12950, 'HUF', 2), 'NOT_REPRESENTABLE'],
    [money(12345, 'KWD', 3), 'NOT_REPRESENTABLE'],
    [money(1_000_000_000_000_000, 'JPY', 0), 'PROVIDER_MAXIMUM_EXCEEDED'],
    [money(-1, 'EUR', 2), 'INVALID_AMOUNT'],
    [money(1.5, 'EUR', 2), 'INVALID_AMOUNT'],
    [money(2 ** 53, 'EUR', 2), 'INVALID_AMOUNT'],
    [money(100, 'eur', 2), 'INVALID_CURRENCY'],
    [money(100, 'EURO', 2), 'INVALID_CURRENCY'],
    [money(100, 'EUR', 4), 'INVALID_PRECISION'],
    [money(100, 'EUR', -1), 'INVALID_PRECISION'],
    [money(100, 'EUR', 1.5), 'INVALID_PRECISION'],
  ])('%o is refused with %s', (input, code) => {
    expect(toProviderValue(input)).toMatchObject({ ok: false, code });
  });
});

describe('fromProviderValue', () => {
  it.each<[string, string, number, number]>([
    ['12.90', 'EUR', 2, 1290],
    ['12.9', 'EUR', 2, 1290],
    ['12', 'EUR', 2, 1200],
    ['0.05', 'EUR', 2, 5],
    ['0', 'EUR', 2, 0],
    ['1290', 'JPY', 0, 1290],
    ['129', 'HUF', 2, 12900],
    ['12.34', 'KWD', 3, 12340],
    ['999999999999999', 'JPY', 0, 999_999_999_999_999],
  ])('"%s" %s at precision %i is %i', (value, currency, precision, amount) => {
    expect(fromProviderValue(value, currency, precision)).toEqual({
      ok: true,
      value: { amount, currency, precision },
    });
  });

  it.each<[string, string, number, string]>([
    ['12.901', 'EUR', 2, 'TOO_MANY_DECIMALS'],
    ['12.900', 'EUR', 2, 'TOO_MANY_DECIMALS'],
    ['129.00', 'HUF', 2, 'TOO_MANY_DECIMALS'],
    ['1290.5', 'JPY', 0, 'TOO_MANY_DECIMALS'],
    ['12.345', 'KWD', 3, 'TOO_MANY_DECIMALS'],
    ['-5', 'EUR', 2, 'NEGATIVE_PROVIDER_VALUE'],
    ['-5.10', 'EUR', 2, 'NEGATIVE_PROVIDER_VALUE'],
    ['1.29e1', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['1E3', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['.5', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['5.', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['012.90', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['+5', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    [' 5', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['5,00', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['NaN', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    ['-', 'EUR', 2, 'MALFORMED_PROVIDER_VALUE'],
    [`1${'0'.repeat(32)}`, 'JPY', 0, 'MALFORMED_PROVIDER_VALUE'],
    ['1000000000000000', 'JPY', 0, 'PROVIDER_MAXIMUM_EXCEEDED'],
    ['999999999999999.99', 'EUR', 2, 'PROVIDER_MAXIMUM_EXCEEDED'],
    ['12.90', 'eur', 2, 'INVALID_CURRENCY'],
    ['12.90', 'EUR', 4, 'INVALID_PRECISION'],
  ])('"%s" %s at precision %i is refused with %s', (value, currency, precision, code) => {
    expect(fromProviderValue(value, currency, precision)).toMatchObject({ ok: false, code });
  });
});

describe('isSameMoney', () => {
  it.each<[Money, Money, boolean]>([
    [money(1290, 'EUR', 2), money(1290, 'EUR', 2), true],
    [money(1290, 'EUR', 2), money(1291, 'EUR', 2), false],
    [money(1290, 'EUR', 2), money(1290, 'USD', 2), false],
    [money(1290, 'EUR', 2), money(1290, 'EUR', 3), false],
  ])('%o and %o: %s', (a, b, expected) => {
    expect(isSameMoney(a, b)).toBe(expected);
  });
});

describe('provider round trip (property)', () => {
  const currency = fc.constantFrom('EUR', 'USD', 'KWD', 'CLP', ...ZERO_DECIMAL_CURRENCIES);
  const precision = fc.integer({ min: 0, max: 3 });

  it('reads back every amount it writes, at every precision', () => {
    fc.assert(
      fc.property(
        currency,
        precision,
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        (code, digits, units) => {
          // An amount the provider can carry: whole provider units scaled up to the shop's precision.
          const scale = 10 ** (digits - providerPrecision(code, digits));
          fc.pre(units * BigInt(scale) <= BigInt(Number.MAX_SAFE_INTEGER));
          const input = money(Number(units) * scale, code, digits);
          const written = toProviderValue(input);
          expect(written.ok).toBe(true);
          if (written.ok)
            expect(fromProviderValue(written.value, code, digits)).toEqual({ ok: true, value: input });
        },
      ),
    );
  });

  it('writes exactly the amounts that need no more than the provider decimals, never rounding', () => {
    fc.assert(
      fc.property(currency, precision, fc.integer({ min: 0, max: 10 ** 12 }), (code, digits, amount) => {
        const input = money(amount, code, digits);
        const representable = amount % 10 ** (digits - providerPrecision(code, digits)) === 0;
        const written = toProviderValue(input);
        expect(written.ok).toBe(representable);
        if (!written.ok) expect(written.code).toBe('NOT_REPRESENTABLE');
        if (written.ok) {
          const decimals = written.value.split('.')[1] ?? '';
          expect(decimals.length).toBe(providerPrecision(code, digits));
          expect(written.value.split('.')[0]!.length).toBeLessThanOrEqual(PROVIDER_MAX_INTEGER_DIGITS);
        }
      }),
    );
  });
});
