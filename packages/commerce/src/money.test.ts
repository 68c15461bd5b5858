import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Currency, formatAmount, parseAmount, roundDiv } from './money.ts';

const EUR: Currency = { code: 'EUR', precision: 2 };
const JPY: Currency = { code: 'JPY', precision: 0 };
const KWD: Currency = { code: 'KWD', precision: 3 };

/** Exact half-away-from-zero rounding of n/d, written differently from the implementation. */
function referenceRound(n: bigint, d: bigint): bigint {
  const sign = n < 0n !== d < 0n ? -1n : 1n;
  const absN = n < 0n ? -n : n;
  const absD = d < 0n ? -d : d;
  // floor(|n|/|d| + 1/2) = floor((2|n| + |d|) / 2|d|)
  return sign * ((2n * absN + absD) / (2n * absD));
}

describe('roundDiv', () => {
  it.each([
    [5, 2, 3],
    [-5, 2, -3],
    [5, -2, -3],
    [-5, -2, 3],
    [4, 2, 2],
    [7, 2, 4],
    [1, 3, 0],
    [2, 3, 1],
    [-2, 3, -1],
    [15, 10, 2],
    [-15, 10, -2],
    [14, 10, 1],
    [0, 7, 0],
  ])('%i / %i → %i', (numerator, denominator, expected) => {
    expect(roundDiv(numerator, denominator)).toBe(expected);
  });

  it('never returns negative zero', () => {
    expect(Object.is(roundDiv(-1, 3), 0)).toBe(true);
    expect(Object.is(roundDiv(0, -3), 0)).toBe(true);
  });

  it('is exact where a float product would not be', () => {
    // 9007199254740988 × 1900 / 11900 = 1438124250756964.4…; in floats the product loses its last
    // digits and Math.round gives …965.
    const amount = 9_007_199_254_740_988;
    expect(Math.round((amount * 1900) / 11_900)).toBe(1_438_124_250_756_965);
    expect(roundDiv(BigInt(amount) * 1900n, 11_900)).toBe(1_438_124_250_756_964);
  });

  it('rejects a zero denominator, fractions and unsafe results as bugs', () => {
    expect(() => roundDiv(1, 0)).toThrow(RangeError);
    expect(() => roundDiv(1.5, 1)).toThrow(RangeError);
    expect(() => roundDiv(2n ** 60n, 1n)).toThrow(RangeError);
  });

  it('matches exact rational rounding for random integers', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
        fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }).filter((d) => d !== 0n),
        (n, d) => {
          const expected = referenceRound(n, d);
          fc.pre(expected >= BigInt(Number.MIN_SAFE_INTEGER) && expected <= BigInt(Number.MAX_SAFE_INTEGER));
          expect(roundDiv(n, d)).toBe(Number(expected));
        },
      ),
    );
  });

  it('matches exact rational rounding for safe number inputs', () => {
    fc.assert(
      fc.property(
        fc.maxSafeInteger(),
        fc.integer({ min: -100_000, max: 100_000 }).filter((d) => d !== 0),
        (n, d) => {
          expect(roundDiv(n, d)).toBe(Number(referenceRound(BigInt(n), BigInt(d))));
        },
      ),
    );
  });
});

describe('formatAmount', () => {
  it.each([
    [1999, EUR, '19.99'],
    [5, JPY, '5'],
    [-5, EUR, '-0.05'],
    [0, EUR, '0.00'],
    [-0, EUR, '0.00'],
    [100, EUR, '1.00'],
    [1, KWD, '0.001'],
    [-1_234_567, KWD, '-1234.567'],
    [-1_234_567, JPY, '-1234567'],
    [Number.MAX_SAFE_INTEGER, EUR, '90071992547409.91'],
  ])('%i %o → %s', (minor, currency, expected) => {
    expect(formatAmount(minor, currency)).toBe(expected);
  });

  it('refuses a float', () => {
    expect(() => formatAmount(19.99, EUR)).toThrow(RangeError);
  });
});

describe('parseAmount', () => {
  it.each([
    ['19.99', EUR, 1999],
    ['19.9', EUR, 1990],
    ['19', EUR, 1900],
    ['-0.05', EUR, -5],
    ['0.00', EUR, 0],
    ['-0', EUR, 0],
    ['007.50', EUR, 750],
    ['19.990', EUR, 1999],
    ['5', JPY, 5],
    ['5.0', JPY, 5],
    ['1234.567', KWD, 1_234_567],
    ['90071992547409.91', EUR, Number.MAX_SAFE_INTEGER],
  ])('%s %o → %i', (text, currency, expected) => {
    const parsed = parseAmount(text, currency);
    expect(parsed).toEqual({ ok: true, value: expected });
    if (parsed.ok) expect(Object.is(parsed.value, -0)).toBe(false);
  });

  it.each([
    ['19.995', EUR, 'TOO_MANY_DIGITS'],
    ['19.9901', EUR, 'TOO_MANY_DIGITS'],
    ['5.5', JPY, 'TOO_MANY_DIGITS'],
    ['0.0001', KWD, 'TOO_MANY_DIGITS'],
    ['', EUR, 'INVALID_AMOUNT'],
    ['1,00', EUR, 'INVALID_AMOUNT'],
    [' 1', EUR, 'INVALID_AMOUNT'],
    ['.5', EUR, 'INVALID_AMOUNT'],
    ['1.', EUR, 'INVALID_AMOUNT'],
    ['1e3', EUR, 'INVALID_AMOUNT'],
    ['+1', EUR, 'INVALID_AMOUNT'],
    ['--1', EUR, 'INVALID_AMOUNT'],
    ['90071992547409.92', EUR, 'AMOUNT_OUT_OF_RANGE'],
    ['-90071992547409.92', EUR, 'AMOUNT_OUT_OF_RANGE'],
  ])('%s %o → %s', (text, currency, code) => {
    expect(parseAmount(text, currency)).toMatchObject({ ok: false, code });
  });

  it('round-trips every safe amount at precisions 0–3', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 3 }), (minor, precision) => {
        const currency = { code: 'XTS', precision };
        const text = formatAmount(minor, currency);
        expect(text.split('.')[1]?.length ?? 0).toBe(precision);
        expect(parseAmount(text, currency)).toEqual({ ok: true, value: minor });
      }),
    );
  });

  it('rejects a non-zero digit beyond the precision instead of rounding', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 3 }),
        fc.stringMatching(/^[0-9]{0,3}[1-9]$/),
        (minor, precision, extra) => {
          const currency = { code: 'XTS', precision };
          const base = formatAmount(minor, currency);
          const text = precision === 0 ? `${base}.${extra}` : `${base}${extra}`;
          expect(parseAmount(text, currency)).toMatchObject({ ok: false, code: 'TOO_MANY_DIGITS' });
        },
      ),
    );
  });
});
