import { type ApiFailure, detail, type ErrorDetail } from './errors.ts';

/** An amount in integer minor units of its currency (PayPal's precision, not ISO's: §8). */
export interface Money {
  readonly currency: string;
  readonly minor: bigint;
}

/** The wire shape `{ currency_code, value }` with `value` a decimal string (§8). */
export interface PayPalMoney {
  readonly currency_code: string;
  readonly value: string;
}

/** §8: `money.value` pattern and length (SPEC-O `money`). */
const VALUE_PATTERN = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;
const MAX_VALUE_LENGTH = 32;
const MAX_INTEGER_DIGITS = 15;

/** §8 (DOC-CUR footnote 1): no decimals at all, although ISO 4217 gives HUF and TWD two. */
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['HUF', 'JPY', 'TWD']);

/** §8 supported currencies (DOC-CUR). */
const SUPPORTED_CURRENCIES: ReadonlySet<string> = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MYR',
  'MXN',
  'TWD',
  'NZD',
  'NOK',
  'PHP',
  'PLN',
  'GBP',
  'RUB',
  'SGD',
  'SEK',
  'CHF',
  'THB',
  'USD',
]);

export function decimalsOf(currency: string): 0 | 2 {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
}

export type MoneyCheck = { readonly ok: true; readonly money: Money } | ApiFailure;

/** Which values an amount field admits: `amount` and refunds must be > 0, breakdown parts >= 0 (§8). */
export type AmountSign = 'positive' | 'non-negative';

/**
 * Validates a `money` object found at JSON pointer `field`: shape and pattern first (400), then
 * currency, precision, size and sign (422), with the issue names of §6/§8.
 */
export function parseMoney(input: unknown, field: string, sign: AmountSign): MoneyCheck {
  if (input === undefined) return { ok: false, details: [detail('MISSING_REQUIRED_PARAMETER', { field })] };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, details: [detail('INVALID_PARAMETER_SYNTAX', { field })] };
  }
  const { currency_code: currency, value } = input as Record<string, unknown>;
  const syntax: ErrorDetail[] = [];
  if (currency === undefined)
    syntax.push(detail('MISSING_REQUIRED_PARAMETER', { field: `${field}/currency_code` }));
  else if (typeof currency !== 'string' || currency.length !== 3) {
    syntax.push(
      detail('INVALID_STRING_LENGTH', { field: `${field}/currency_code`, value: String(currency) }),
    );
  }
  if (value === undefined) syntax.push(detail('MISSING_REQUIRED_PARAMETER', { field: `${field}/value` }));
  else if (typeof value !== 'string') {
    // A JSON number is a schema violation: the value must be a string (§8).
    syntax.push(detail('INVALID_PARAMETER_SYNTAX', { field: `${field}/value`, value: String(value) }));
  } else if (value.length > MAX_VALUE_LENGTH) {
    syntax.push(detail('INVALID_STRING_LENGTH', { field: `${field}/value`, value }));
  } else if (!VALUE_PATTERN.test(value)) {
    syntax.push(detail('INVALID_PARAMETER_SYNTAX', { field: `${field}/value`, value }));
  }
  if (syntax.length > 0) return { ok: false, details: syntax };
  const code = currency as string;
  const text = value as string;
  if (!SUPPORTED_CURRENCIES.has(code)) {
    return {
      ok: false,
      details: [detail('INVALID_CURRENCY_CODE', { field: `${field}/currency_code`, value: code })],
    };
  }
  const negative = text.startsWith('-');
  const [integerPart = '', fraction] = (negative ? text.slice(1) : text).split('.');
  const decimals = decimalsOf(code);
  const valueField = `${field}/value`;
  if (fraction !== undefined && decimals === 0) {
    return { ok: false, details: [detail('DECIMALS_NOT_SUPPORTED', { field: valueField, value: text })] };
  }
  if (fraction !== undefined && fraction.length > decimals) {
    return { ok: false, details: [detail('DECIMAL_PRECISION', { field: valueField, value: text })] };
  }
  if (integerPart.replace(/^0+/, '').length > MAX_INTEGER_DIGITS) {
    return { ok: false, details: [detail('MAX_VALUE_EXCEEDED', { field: valueField, value: text })] };
  }
  const magnitude =
    BigInt(integerPart === '' ? '0' : integerPart) * 10n ** BigInt(decimals) +
    BigInt((fraction ?? '').padEnd(decimals, '0') || '0');
  const minor = negative ? -magnitude : magnitude;
  if (sign === 'positive' && minor <= 0n) {
    return { ok: false, details: [detail('CANNOT_BE_ZERO_OR_NEGATIVE', { field: valueField, value: text })] };
  }
  if (sign === 'non-negative' && minor < 0n) {
    return { ok: false, details: [detail('CANNOT_BE_NEGATIVE', { field: valueField, value: text })] };
  }
  return { ok: true, money: { currency: code, minor } };
}

/** The wire form with the currency's precision: `{ currency_code: 'EUR', value: '10.50' }`. */
export function formatMoney(money: Money): PayPalMoney {
  const decimals = decimalsOf(money.currency);
  const sign = money.minor < 0n ? '-' : '';
  const digits = (money.minor < 0n ? -money.minor : money.minor).toString();
  if (decimals === 0) return { currency_code: money.currency, value: `${sign}${digits}` };
  const padded = digits.padStart(decimals + 1, '0');
  return {
    currency_code: money.currency,
    value: `${sign}${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`,
  };
}

export function money(currency: string, minor: bigint): Money {
  return { currency, minor };
}
