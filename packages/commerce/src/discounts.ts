import type { PricedCart } from './cart-pricing.ts';
import { roundDiv } from './money.ts';
import { RATE_SCALE, type TaxBreakdownEntry, type TaxedAmount, taxAmount, taxBreakdown } from './tax.ts';

/** Where a discount takes its money from. */
export type DiscountScope = 'cart' | 'lineItems' | 'shipping';

/**
 * One discount to take off a priced cart. A percentage is in hundredths of a percent (10 % =
 * 1000, at most 100 %); an absolute value is in minor units of the cart's price mode (gross for
 * consumers, net for business customers), never more than what is left of its scope.
 */
export interface DiscountInput {
  readonly id: string;
  readonly scope: DiscountScope;
  /** The lines a `lineItems` discount applies to (ignored for other scopes). */
  readonly lineIds?: readonly string[];
  readonly kind: 'percentage' | 'absolute';
  readonly value: number;
}

/** A discount as taken: its amount (negative components) and the tax it took back per rate. */
export interface AppliedDiscount {
  readonly id: string;
  readonly scope: DiscountScope;
  readonly amount: TaxedAmount;
  readonly taxes: readonly TaxBreakdownEntry[];
}

/** A priced cart with discounts taken: `total` and `taxes` include them; `subtotal` and `shipping` do not. */
export interface DiscountedCart extends PricedCart {
  readonly discounts: readonly AppliedDiscount[];
  /** Σ discounts, per component (negative or zero). */
  readonly discountTotal: TaxedAmount;
}

interface Target {
  readonly rate: number;
  /** What is left of the target's price-mode amount after earlier discounts. */
  remaining: number;
}

const ZERO: TaxedAmount = { net: 0, tax: 0, gross: 0 };

function add(a: TaxedAmount, b: TaxedAmount): TaxedAmount {
  return { net: a.net + b.net, tax: a.tax + b.tax, gross: a.gross + b.gross };
}

function negate(amount: TaxedAmount): TaxedAmount {
  return { net: -amount.net || 0, tax: -amount.tax || 0, gross: -amount.gross || 0 };
}

/**
 * Splits `amount` over `weights` in proportion, in whole minor units that add up to `amount`
 * exactly: each share is rounded down, and the units left over go to the largest remainders
 * (the earlier target on a tie).
 */
function allocate(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return weights.map(() => 0);
  const exact = weights.map((weight) => BigInt(amount) * BigInt(weight));
  const shares = exact.map((product) => Number(product / BigInt(total)));
  let left = amount - shares.reduce((sum, share) => sum + share, 0);
  const order = exact
    .map((product, index) => ({ index, remainder: product % BigInt(total) }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

/**
 * Takes `discounts` off `priced`, in the order given (earlier discounts first: a percentage is of
 * what earlier ones left). Each discount is split over its targets (the cart's lines, the
 * matching lines, or shipping) in proportion to what is left of each, and every part is taxed at
 * its target's rate. So a discount's tax is proportional to the tax rates of what it discounts,
 * as the reference core calculates it, and `net + tax = gross` holds on every part, every
 * discount and the total. A discount that finds nothing left takes zero.
 */
export function applyDiscounts(priced: PricedCart, discounts: readonly DiscountInput[]): DiscountedCart {
  const mode = priced.priceMode;
  const lines = new Map<string, Target>(
    priced.lines.map((line) => [line.id, { rate: line.taxRate, remaining: line.total[mode] }]),
  );
  const shipping: Target = { rate: priced.shipping.taxRate, remaining: priced.shipping[mode] };
  const applied: AppliedDiscount[] = [];
  const parts: (TaxedAmount & { taxRate: number })[] = [];
  for (const discount of discounts) {
    const targets =
      discount.scope === 'shipping'
        ? [shipping]
        : discount.scope === 'cart'
          ? [...lines.values()]
          : [...new Set(discount.lineIds ?? [])].flatMap((id) => lines.get(id) ?? []);
    const base = targets.reduce((sum, target) => sum + target.remaining, 0);
    const wanted =
      discount.kind === 'percentage'
        ? roundDiv(BigInt(base) * BigInt(Math.min(Math.max(discount.value, 0), RATE_SCALE)), RATE_SCALE)
        : Math.max(0, discount.value);
    const amount = Math.min(wanted, base);
    const shares = allocate(
      amount,
      targets.map((target) => target.remaining),
    );
    const own: (TaxedAmount & { taxRate: number })[] = [];
    targets.forEach((target, index) => {
      const share = shares[index]!;
      if (share === 0) return;
      target.remaining -= share;
      own.push({ ...negate(taxAmount(share, mode, target.rate)), taxRate: target.rate });
    });
    parts.push(...own);
    applied.push({
      id: discount.id,
      scope: discount.scope,
      amount: own.reduce<TaxedAmount>(add, ZERO),
      taxes: taxBreakdown(own),
    });
  }
  const discountTotal = applied.reduce<TaxedAmount>((sum, discount) => add(sum, discount.amount), ZERO);
  if (parts.length === 0) return { ...priced, discounts: applied, discountTotal };
  const taxed = priced.lines.map((line) => ({ ...line.total, taxRate: line.taxRate }));
  if (priced.shipping.gross !== 0) taxed.push(priced.shipping);
  return {
    ...priced,
    discounts: applied,
    discountTotal,
    // A rate whose amounts were discounted away entirely is no longer charged.
    taxes: taxBreakdown([...taxed, ...parts]).filter((entry) => entry.base !== 0 || entry.tax !== 0),
    total: add(priced.total, discountTotal),
  };
}
