import * as v from 'valibot';
import { fail, ok, type Result } from './result.ts';

/** An ISO 4217 currency and the number of decimal digits of its minor unit (EUR 2, JPY 0, KWD 3). */
export const Currency = v.object({
  code: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')),
  precision: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4)),
});
export type Currency = v.InferOutput<typeof Currency>;

/** An amount in minor units (cents for EUR, yen for JPY): always a safe integer, never a float. */
export const MinorAmount = v.pipe(v.number(), v.safeInteger('must be an integer amount in minor units'));
export type MinorAmount = v.InferOutput<typeof MinorAmount>;

function toBigInt(value: number | bigint, name: string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a safe integer, got ${value}`);
  return BigInt(value);
}

/**
 * `numerator / denominator` rounded half away from zero ("commercial" rounding), computed exactly
 * in BigInt so a product such as `amount × rate` never loses precision. The package's one rounding
 * function. Throws on a zero denominator or a result outside the safe integers: both are bugs.
 */
export function roundDiv(numerator: number | bigint, denominator: number | bigint): number {
  const n = toBigInt(numerator, 'numerator');
  const d = toBigInt(denominator, 'denominator');
  if (d === 0n) throw new RangeError('denominator must not be zero');
  const negative = n < 0n !== d < 0n;
  const absN = n < 0n ? -n : n;
  const absD = d < 0n ? -d : d;
  let quotient = absN / absD;
  if ((absN % absD) * 2n >= absD) quotient += 1n;
  const rounded = Number(negative ? -quotient : quotient);
  if (!Number.isSafeInteger(rounded)) throw new RangeError(`result ${rounded} is not a safe integer`);
  // `-0` would format as "0" but compares oddly in tests and JSON; normalise it.
  return rounded === 0 ? 0 : rounded;
}

/** Formats minor units as a decimal string with exactly the currency's precision (1999 EUR → "19.99"). */
export function formatAmount(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount must be a safe integer, got ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(currency.precision + 1, '0');
  if (currency.precision === 0) return `${sign}${digits}`;
  const split = digits.length - currency.precision;
  return `${sign}${digits.slice(0, split)}.${digits.slice(split)}`;
}

export type ParseAmountCode = 'INVALID_AMOUNT' | 'TOO_MANY_DIGITS' | 'AMOUNT_OUT_OF_RANGE';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string ("19.99", "-0.05", "5") into minor units. Fewer fraction digits than the
 * precision are padded; more are rejected with `TOO_MANY_DIGITS` unless every extra digit is zero
 * ("19.990" is exactly 1999): the value is never rounded.
 */
export function parseAmount(text: string, currency: Currency): Result<number, ParseAmountCode> {
  const match = DECIMAL.exec(text);
  if (!match) return fail('INVALID_AMOUNT', `"${text}" is not a decimal amount such as 19.99`);
  const [, sign = '', whole = '', fraction = ''] = match;
  const kept = fraction.slice(0, currency.precision);
  if (/[^0]/.test(fraction.slice(currency.precision))) {
    return fail(
      'TOO_MANY_DIGITS',
      `"${text}" has more than ${currency.precision} decimal digits, the precision of ${currency.code}`,
    );
  }
  const magnitude = BigInt(whole + kept.padEnd(currency.precision, '0'));
  if (magnitude > BigInt(Number.MAX_SAFE_INTEGER)) {
    return fail('AMOUNT_OUT_OF_RANGE', `"${text}" is too large to hold in minor units`);
  }
  const minor = Number(magnitude);
  return ok(sign === '-' && minor !== 0 ? -minor : minor);
}
