import * as v from 'valibot';
import { Currency, MinorAmount } from './money.ts';
import { type Failure, fail, ok, type Success } from './result.ts';
import {
  PriceMode,
  type TaxBreakdownEntry,
  type TaxedAmount,
  TaxRate,
  taxAmount,
  taxBreakdown,
  taxLine,
} from './tax.ts';

/** The largest quantity one cart line may carry. */
export const MAX_LINE_QUANTITY = 10_000;

const PriceComponent = v.pipe(MinorAmount, v.minValue(0, 'must not be negative'));

/** A product's (or shipping method's) price in the cart's currency, both components in minor units. */
export const UnitPrice = v.object({ gross: PriceComponent, net: PriceComponent });
export type UnitPrice = v.InferOutput<typeof UnitPrice>;

export const CartLineInput = v.object({
  id: v.pipe(v.string(), v.nonEmpty('must not be empty')),
  productId: v.pipe(v.string(), v.nonEmpty('must not be empty')),
  sku: v.pipe(v.string(), v.nonEmpty('must not be empty')),
  quantity: v.pipe(
    v.number(),
    v.integer('must be an integer'),
    v.minValue(1, `must be between 1 and ${MAX_LINE_QUANTITY}`),
    v.maxValue(MAX_LINE_QUANTITY, `must be between 1 and ${MAX_LINE_QUANTITY}`),
  ),
  unitPrice: UnitPrice,
  taxRate: TaxRate,
  shippingFree: v.optional(v.boolean(), false),
});
export type CartLineInput = v.InferInput<typeof CartLineInput>;

/** `price: null` means the method has no price in this currency (see `priceCart`). */
export const ShippingInput = v.object({ price: v.nullable(UnitPrice), taxRate: TaxRate });
export type ShippingInput = v.InferInput<typeof ShippingInput>;

export const CartPriceInput = v.object({
  currency: Currency,
  priceMode: PriceMode,
  lines: v.array(CartLineInput),
  shipping: v.nullable(ShippingInput),
});
export type CartPriceInput = v.InferInput<typeof CartPriceInput>;

export interface PricedLine {
  readonly id: string;
  readonly productId: string;
  readonly sku: string;
  readonly quantity: number;
  /** The unit price of the cart's price mode (gross in `gross` mode, net in `net` mode). */
  readonly unitPrice: number;
  readonly total: TaxedAmount;
  readonly taxRate: number;
}

export interface PricedShipping extends TaxedAmount {
  readonly taxRate: number;
}

export interface PricedCart {
  readonly currency: Currency;
  readonly priceMode: PriceMode;
  readonly lines: readonly PricedLine[];
  /** Σ line totals, per component. */
  readonly subtotal: TaxedAmount;
  readonly shipping: PricedShipping;
  readonly taxes: readonly TaxBreakdownEntry[];
  /** subtotal + shipping, per component. */
  readonly total: TaxedAmount;
  /** The number of lines (positions), not the sum of quantities. */
  readonly positionCount: number;
}

export type CartPricingCode = 'INVALID_CART' | 'SHIPPING_PRICE_MISSING' | 'AMOUNT_OUT_OF_RANGE';

/** A refusal of `priceCart`; `lineId` names the line whose own total is out of range. */
export interface CartPricingFailure extends Failure<CartPricingCode> {
  readonly lineId?: string;
}

const ZERO: TaxedAmount = { net: 0, tax: 0, gross: 0 };

function add(a: TaxedAmount, b: TaxedAmount): TaxedAmount {
  return { net: a.net + b.net, tax: a.tax + b.tax, gross: a.gross + b.gross };
}

function isSafe(amount: TaxedAmount): boolean {
  return (
    Number.isSafeInteger(amount.net) && Number.isSafeInteger(amount.tax) && Number.isSafeInteger(amount.gross)
  );
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * Prices a cart in integer minor units.
 *
 * Rounding policy: tax is computed once per line on the line total (unit price × quantity) and
 * rounded half away from zero; never per unit (the error would grow with the quantity) and never
 * on the cart sum (lines would not add up to the total). Subtotal, shipping and total are exact
 * sums of rounded amounts, so `net + tax = gross` holds on every line, on shipping and on every
 * sum, and the total equals Σ lines + shipping per component. Shipping is one more amount taxed
 * the same way at its own rate.
 *
 * Shipping is free when every line is `shippingFree` (an empty cart included). `shipping: null`
 * means nothing is shipped (shipping is zero at rate 0). A method with `price: null` that would have to charge is rejected
 * with `SHIPPING_PRICE_MISSING` rather than silently priced at zero. The tax breakdown holds every
 * line's rate and the shipping rate when shipping is charged; `base` is the net amount per rate.
 *
 * Invalid input (quantity outside 1..10000, a negative or fractional price, a rate outside
 * 0..10000, duplicate line ids) is returned as `INVALID_CART`; amounts beyond the safe integers as
 * `AMOUNT_OUT_OF_RANGE`, with the `lineId` of the first line whose own total is too large (none
 * when only a sum or the shipping is).
 */
export function priceCart(input: CartPriceInput): Success<PricedCart> | CartPricingFailure {
  const parsed = v.safeParse(CartPriceInput, input);
  if (!parsed.success) return fail('INVALID_CART', describeIssues(parsed.issues));
  const { currency, priceMode, lines, shipping } = parsed.output;

  const seen = new Set<string>();
  for (const line of lines) {
    if (seen.has(line.id)) return fail('INVALID_CART', `line id ${line.id} occurs more than once`);
    seen.add(line.id);
  }

  const pricedLines: PricedLine[] = [];
  for (const line of lines) {
    const unitPrice = line.unitPrice[priceMode];
    const lineTotal = taxLine(unitPrice, line.quantity, priceMode, line.taxRate);
    if (!lineTotal.ok)
      return { ...fail(lineTotal.code, `line ${line.id}: ${lineTotal.detail}`), lineId: line.id };
    pricedLines.push({
      id: line.id,
      productId: line.productId,
      sku: line.sku,
      quantity: line.quantity,
      unitPrice,
      total: lineTotal.value,
      taxRate: line.taxRate,
    });
  }

  const isShippingFree = lines.every((line) => line.shippingFree);
  let pricedShipping: PricedShipping = { ...ZERO, taxRate: shipping?.taxRate ?? 0 };
  if (shipping && !isShippingFree) {
    if (!shipping.price) {
      return fail('SHIPPING_PRICE_MISSING', `the shipping method has no price in ${currency.code}`);
    }
    pricedShipping = {
      ...taxAmount(shipping.price[priceMode], priceMode, shipping.taxRate),
      taxRate: shipping.taxRate,
    };
  }

  const subtotal = pricedLines.reduce((sum, line) => add(sum, line.total), ZERO);
  const total = add(subtotal, pricedShipping);
  // Every addend is non-negative, so a sum past 2^53 cannot wrap back into the safe range.
  if (![pricedShipping, subtotal, total].every(isSafe)) {
    return fail('AMOUNT_OUT_OF_RANGE', 'the cart total is too large to hold in minor units');
  }

  const taxed = pricedLines.map((line) => ({ ...line.total, taxRate: line.taxRate }));
  if (pricedShipping.gross !== 0) taxed.push(pricedShipping);

  return ok({
    currency,
    priceMode,
    lines: pricedLines,
    subtotal,
    shipping: pricedShipping,
    taxes: taxBreakdown(taxed),
    total,
    positionCount: pricedLines.length,
  });
}
