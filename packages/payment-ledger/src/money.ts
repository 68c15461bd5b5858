import { fail, ok, type Result } from '@cartwright/commerce';
import * as v from 'valibot';

// Money crosses the provider boundary only as a decimal string, built from integer minor units
// and never from a float (a JSON number 51.9 reaches PayPal as 51.899999… and is refused). The
// ledger keeps the shop's own precision for a currency, fixed when the attempt is made; the
// provider's precision is a separate, narrower fact (PayPal: at most two decimals, none for HUF,
// JPY and TWD, although ISO 4217 gives HUF and TWD two).

export const CurrencyCode = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR'));

/** Decimal digits of the currency's minor unit as the shop keeps it (EUR 2, JPY 0, KWD 3). */
export const Precision = v.pipe(
  v.number(),
  v.integer('must be an integer'),
  v.minValue(0, 'must be 0 to 3'),
  v.maxValue(3, 'must be 0 to 3'),
);

export const MinorUnits = v.pipe(
  v.number(),
  v.safeInteger('must be an integer amount in minor units'),
  v.minValue(0, 'must not be negative'),
);

/** An amount in integer minor units of `currency` at `precision`; the three never change together. */
export const Money = v.object({ amount: MinorUnits, currency: CurrencyCode, precision: Precision });
export type Money = v.InferOutput<typeof Money>;

/** An amount as the provider writes it: `{ currency_code, value }` with `value` a decimal string. */
export interface ProviderMoney {
  readonly currency: string;
  readonly value: string;
}

/** Currencies the provider takes without decimals, whatever their ISO precision (contract §8). */
export const ZERO_DECIMAL_CURRENCIES = ['HUF', 'JPY', 'TWD'] as const;
/** The provider accepts at most this many decimals for any other currency. */
export const PROVIDER_MAX_DECIMALS = 2;
/** The provider's largest amount has 15 integer digits (999999999999999.99). */
export const PROVIDER_MAX_INTEGER_DIGITS = 15;
const PROVIDER_VALUE_MAX_LENGTH = 32;

export type MoneyCode =
  | 'INVALID_AMOUNT'
  | 'INVALID_CURRENCY'
  | 'INVALID_PRECISION'
  | 'NOT_REPRESENTABLE'
  | 'PROVIDER_MAXIMUM_EXCEEDED';

export type ProviderValueCode =
  | 'INVALID_CURRENCY'
  | 'INVALID_PRECISION'
  | 'MALFORMED_PROVIDER_VALUE'
  | 'NEGATIVE_PROVIDER_VALUE'
  | 'TOO_MANY_DECIMALS'
  | 'PROVIDER_MAXIMUM_EXCEEDED';

const isZeroDecimal = (currency: string) => ZERO_DECIMAL_CURRENCIES.some((code) => code === currency);

/** The number of decimals the provider uses for `currency` when the shop keeps it at `precision`. */
export function providerPrecision(currency: string, precision: number): number {
  return isZeroDecimal(currency) ? 0 : Math.min(precision, PROVIDER_MAX_DECIMALS);
}

function checkCurrency(
  currency: string,
  precision: number,
): Result<null, 'INVALID_CURRENCY' | 'INVALID_PRECISION'> {
  if (!v.is(CurrencyCode, currency)) {
    return fail('INVALID_CURRENCY', `"${currency}" is not an ISO 4217 code such as EUR`);
  }
  if (!v.is(Precision, precision)) return fail('INVALID_PRECISION', `precision ${precision} is not 0 to 3`);
  return ok(null);
}

/**
 * The provider's decimal string for `money` ("12.90"; JPY "1290"; HUF 129.00 kept at precision 2
 * is "129"). Refuses an amount the provider cannot carry instead of rounding it: HUF 129.50 is
 * `NOT_REPRESENTABLE`, more than 15 integer digits is `PROVIDER_MAXIMUM_EXCEEDED`.
 */
export function toProviderValue(money: Money): Result<string, MoneyCode> {
  const checked = checkCurrency(money.currency, money.precision);
  if (!checked.ok) return checked;
  if (!v.is(MinorUnits, money.amount)) {
    return fail('INVALID_AMOUNT', `amount ${money.amount} is not a non-negative integer in minor units`);
  }
  const decimals = providerPrecision(money.currency, money.precision);
  const dropped = 10 ** (money.precision - decimals);
  if (money.amount % dropped !== 0) {
    return fail(
      'NOT_REPRESENTABLE',
      `${money.currency} ${money.amount} (precision ${money.precision}) needs more than the provider's ${decimals} decimals`,
    );
  }
  const digits = String(money.amount / dropped).padStart(decimals + 1, '0');
  const integerDigits = digits.length - decimals;
  if (integerDigits > PROVIDER_MAX_INTEGER_DIGITS) {
    return fail(
      'PROVIDER_MAXIMUM_EXCEEDED',
      `${money.currency} ${money.amount} exceeds the provider's maximum`,
    );
  }
  return ok(decimals === 0 ? digits : `${digits.slice(0, integerDigits)}.${digits.slice(integerDigits)}`);
}

// Canonical decimals only: no sign, exponent, blanks, leading zeros or bare point.
const PROVIDER_VALUE = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/**
 * Reads the provider's decimal string as `currency` at the shop's `precision`. Strict: digits with
 * at most the provider's decimals for the currency ("12.9" and "12.90" are 1290; "12.901",
 * HUF "129.00", "1.29e1", "-5", ".5", "012" are refused), never rounded.
 */
export function fromProviderValue(
  value: string,
  currency: string,
  precision: number,
): Result<Money, ProviderValueCode> {
  const checked = checkCurrency(currency, precision);
  if (!checked.ok) return checked;
  if (value.length > PROVIDER_VALUE_MAX_LENGTH) {
    return fail(
      'MALFORMED_PROVIDER_VALUE',
      `a provider amount has at most ${PROVIDER_VALUE_MAX_LENGTH} characters`,
    );
  }
  const match = PROVIDER_VALUE.exec(value);
  if (!match) {
    if (/^-(0|[1-9]\d*)(\.\d+)?$/.test(value)) {
      return fail('NEGATIVE_PROVIDER_VALUE', `"${value}" is negative`);
    }
    return fail('MALFORMED_PROVIDER_VALUE', `"${value}" is not a plain decimal amount such as 12.90`);
  }
  const [, whole = '', fraction = ''] = match;
  const decimals = providerPrecision(currency, precision);
  if (fraction.length > decimals) {
    return fail(
      'TOO_MANY_DECIMALS',
      `"${value}" has more than the ${decimals} decimals the provider uses for ${currency}`,
    );
  }
  if (whole.length > PROVIDER_MAX_INTEGER_DIGITS) {
    return fail('PROVIDER_MAXIMUM_EXCEEDED', `"${value}" exceeds the provider's maximum`);
  }
  // BigInt: 15 integer digits at precision 3 are beyond the safe integers.
  const minor = BigInt(whole + fraction.padEnd(precision, '0'));
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    return fail('PROVIDER_MAXIMUM_EXCEEDED', `"${value}" is too large to hold in minor units`);
  }
  return ok({ amount: Number(minor), currency, precision });
}

/** True when both are the same amount of the same currency at the same precision. */
export function isSameMoney(a: Money, b: Money): boolean {
  return a.amount === b.amount && a.currency === b.currency && a.precision === b.precision;
}

/** "EUR 12.90" for details and review notes, in the shop's precision. */
export function describeMoney(money: Money): string {
  const digits = String(money.amount).padStart(money.precision + 1, '0');
  const split = digits.length - money.precision;
  return money.precision === 0
    ? `${money.currency} ${digits}`
    : `${money.currency} ${digits.slice(0, split)}.${digits.slice(split)}`;
}
