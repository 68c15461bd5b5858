import * as v from 'valibot';
import { roundDiv } from './money.ts';
import { fail, ok, type Result } from './result.ts';

/** `gross`: prices include tax (B2C). `net`: tax is added on top (B2B). */
export const PriceMode = v.picklist(['gross', 'net']);
export type PriceMode = v.InferOutput<typeof PriceMode>;

/** A tax rate in hundredths of a percent: 19 % = 1900, 7.7 % = 770; 0 to 100 %. */
export const TaxRate = v.pipe(
  v.number(),
  v.integer('must be an integer in hundredths of a percent (19 % = 1900)'),
  v.minValue(0),
  v.maxValue(10_000),
);
export type TaxRate = v.InferOutput<typeof TaxRate>;

/** One percent in rate units; a rate of `RATE_SCALE` is 100 %. */
export const RATE_SCALE = 10_000;

/** An amount split into net, tax and gross minor units; `net + tax === gross` always holds. */
export interface TaxedAmount {
  readonly net: number;
  readonly tax: number;
  readonly gross: number;
}

/**
 * Splits one amount at one rate. In `gross` mode the amount includes tax and
 * `tax = round(gross × rate / (10000 + rate))`; in `net` mode `tax = round(net × rate / 10000)`.
 */
export function taxAmount(amount: number, mode: PriceMode, rate: number): TaxedAmount {
  if (mode === 'gross') {
    const tax = roundDiv(BigInt(amount) * BigInt(rate), RATE_SCALE + rate);
    return { net: amount - tax, tax, gross: amount };
  }
  const tax = roundDiv(BigInt(amount) * BigInt(rate), RATE_SCALE);
  return { net: amount, tax, gross: amount + tax };
}

/**
 * Taxes a line: the unit price times the quantity, rounded once on the line total (not per unit).
 * Fails with `AMOUNT_OUT_OF_RANGE` when an amount leaves the safe integers.
 */
export function taxLine(
  unitPrice: number,
  quantity: number,
  mode: PriceMode,
  rate: number,
): Result<TaxedAmount, 'AMOUNT_OUT_OF_RANGE'> {
  const amount = unitPrice * quantity;
  if (!Number.isSafeInteger(amount)) {
    return fail('AMOUNT_OUT_OF_RANGE', `${unitPrice} × ${quantity} is too large to hold in minor units`);
  }
  const taxed = taxAmount(amount, mode, rate);
  if (!Number.isSafeInteger(taxed.gross)) {
    return fail('AMOUNT_OUT_OF_RANGE', `${amount} plus tax is too large to hold in minor units`);
  }
  return ok(taxed);
}

/** The tax of one rate over a cart: `base` is the net amount taxed at that rate. */
export interface TaxBreakdownEntry {
  readonly rate: number;
  readonly tax: number;
  readonly base: number;
}

/** Groups taxed amounts by rate (ascending); each group's tax is the sum of its already rounded taxes. */
export function taxBreakdown(
  amounts: readonly (TaxedAmount & { readonly taxRate: number })[],
): TaxBreakdownEntry[] {
  const byRate = new Map<number, { tax: number; base: number }>();
  for (const amount of amounts) {
    const group = byRate.get(amount.taxRate) ?? { tax: 0, base: 0 };
    byRate.set(amount.taxRate, { tax: group.tax + amount.tax, base: group.base + amount.net });
  }
  return [...byRate].sort(([a], [b]) => a - b).map(([rate, { tax, base }]) => ({ rate, tax, base }));
}
