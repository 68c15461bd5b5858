import {
  applyDiscounts,
  type DiscountedCart,
  type DiscountInput,
  type PricedCart,
  type PromotionSnapshot,
  type TaxedAmount,
} from '@cartwright/commerce';
import { countPromotionRedemptions, type Executor, listDefinitions } from '@cartwright/repository';
import type { ConditionTree, Facts } from '@cartwright/rules-engine';
import { compileWithSavedRules } from '../automation/rules.ts';
import { campaignRunsAt } from '../automation/schemas.ts';
import {
  codeKey,
  codesOf,
  type Discount,
  type PromotionData,
  promotionOf,
  ruleIdsOfPromotion,
} from './definition.ts';

// Cart pricing's promotion step (decision 0031): which promotions a priced cart earns, in which
// order, and what they take off. Everything is decided from the cart as priced before any
// discount, so no promotion's condition depends on another's discount.

/**
 * A promotion a cart earned, as the cart shows it and the order snapshots it: its revision (the
 * one checkout redeems), code (the promotion's spelling), the rules it named (its redemption
 * keeps them) and what it took off.
 */
export type AppliedPromotion = PromotionSnapshot;

/** What became of a code the visitor entered. */
export interface PromotionCodeState {
  /** As the visitor entered it. */
  readonly code: string;
  readonly promotionId: string | null;
  /**
   * `applied`; `not_applicable` (the promotion is inactive, outside its campaign, its condition
   * does not hold, a higher exclusive promotion stopped it, or it takes nothing off this cart);
   * `exhausted` (the code reached its limit: checkout refuses until it is removed); `unknown` (no
   * promotion holds it any more).
   */
  readonly status: 'applied' | 'not_applicable' | 'exhausted' | 'unknown';
}

export interface PromotionPricing {
  readonly priced: DiscountedCart | null;
  readonly promotions: readonly AppliedPromotion[];
  readonly promotionCodes: readonly PromotionCodeState[];
  /** Entered codes that reached their limit. */
  readonly exhaustedCodes: readonly string[];
}

interface Candidate {
  readonly id: string;
  readonly revision: number;
  readonly promotion: PromotionData;
  /** The code of the promotion the cart holds (its spelling), null when it has none. */
  readonly code: string | null;
}

const ZERO: TaxedAmount = { net: 0, tax: 0, gross: 0 };

/**
 * Whether the promotion's code has reached its limit: an individual code redeems one order, a
 * global code `limit` orders in all. Checkout asks again under the promotion's row lock.
 */
export async function codeExhausted(
  tx: Executor,
  tenantId: string,
  promotionId: string,
  promotion: PromotionData,
  code: string | null,
): Promise<boolean> {
  const codes = promotion.codes;
  if (!codes || code === null) return false;
  if (codes.type === 'individual')
    return (await countPromotionRedemptions(tx, tenantId, promotionId, code)) >= 1;
  return codes.limit !== null && (await countPromotionRedemptions(tx, tenantId, promotionId)) >= codes.limit;
}

/** The promotion holding each code of the shop (by `codeKey`), active or not. */
function codeIndex(promotions: readonly { id: string; promotion: PromotionData }[]) {
  const index = new Map<string, { id: string; code: string }>();
  // Ordered by id, so a code two promotions share (saves refuse it; a race could leave it) picks one.
  for (const { id, promotion } of [...promotions].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    for (const code of codesOf(promotion))
      if (!index.has(codeKey(code))) index.set(codeKey(code), { id, code });
  }
  return index;
}

/** Whether any promotion of the shop (active or not) holds `code`. */
export async function promotionCodeExists(tx: Executor, tenantId: string, code: string): Promise<boolean> {
  const promotions = (await listDefinitions(tx, tenantId, 'promotion')).flatMap((row) => {
    const promotion = promotionOf(row.data);
    return promotion ? [{ id: row.id, promotion }] : [];
  });
  return codeIndex(promotions).has(codeKey(code));
}

/** Whether `tree` holds for `facts` under the shop's saved rules; a tree that cannot decide does not hold. */
async function holds(tx: Executor, tenantId: string, tree: ConditionTree, facts: Facts): Promise<boolean> {
  const compiled = await compileWithSavedRules(tx, tenantId, tree, '');
  if (!compiled.ok) return false;
  const decided = compiled.value.evaluate(facts);
  return decided.ok && decided.value;
}

/** A promotion's discounts for this cart; an absolute one without an amount in the cart's currency is left out. */
async function discountInputs(
  tx: Executor,
  tenantId: string,
  candidate: Candidate,
  priced: PricedCart,
  facts: Facts,
): Promise<DiscountInput[]> {
  const inputs: DiscountInput[] = [];
  for (const [index, discount] of candidate.promotion.discounts.entries()) {
    const value = discountValue(discount, priced.currency.code);
    if (value === null) continue;
    const lineIds: string[] = [];
    if (discount.scope === 'lineItems') {
      for (const lineItem of facts.cart?.lineItems ?? []) {
        if (lineItem.id && (await holds(tx, tenantId, discount.condition!, { ...facts, lineItem })))
          lineIds.push(lineItem.id);
      }
    }
    inputs.push({
      id: `${candidate.id}/${index}`,
      scope: discount.scope,
      lineIds,
      kind: discount.type,
      value,
    });
  }
  return inputs;
}

/** Hundredths of a percent, or minor units in `currency`; null when it has none in that currency. */
function discountValue(discount: Discount, currency: string): number | null {
  if (discount.type === 'percentage') return Math.round(discount.value! * 100);
  return discount.amounts && Object.hasOwn(discount.amounts, currency) ? discount.amounts[currency]! : null;
}

function sum(amounts: readonly TaxedAmount[]): TaxedAmount {
  return amounts.reduce(
    (total, amount) => ({
      net: total.net + amount.net,
      tax: total.tax + amount.tax,
      gross: total.gross + amount.gross,
    }),
    ZERO,
  );
}

/**
 * Applies the shop's promotions to a priced cart. Candidates are the active promotions whose
 * campaign runs now and which need no code or whose code the cart holds, highest priority first
 * (then by id). Each in turn applies when its code is not exhausted, its condition holds for the
 * cart (`facts`, before discounts) and its discounts take something off what earlier promotions
 * left; an exclusive promotion that applied stops every promotion after it.
 */
export async function applyPromotions(
  tx: Executor,
  tenantId: string,
  enteredCodes: readonly string[],
  priced: PricedCart | null,
  facts: () => Promise<Facts>,
  at: Date,
): Promise<PromotionPricing> {
  const rows = await listDefinitions(tx, tenantId, 'promotion');
  const parsed = rows.flatMap((row) => {
    const promotion = promotionOf(row.data);
    return promotion ? [{ row, promotion, id: row.id }] : [];
  });
  const byCode = codeIndex(parsed);
  const held = new Map<string, string>();
  for (const entered of enteredCodes) {
    const owner = byCode.get(codeKey(entered));
    if (owner && !held.has(owner.id)) held.set(owner.id, owner.code);
  }
  const status = new Map<string, PromotionCodeState['status']>();
  const candidates: Candidate[] = parsed
    .filter(({ row, promotion }) => row.active && campaignRunsAt(promotion.campaign, at))
    .filter(({ id, promotion }) => promotion.codes === null || held.has(id))
    .map(({ row, promotion }) => ({
      id: row.id,
      revision: row.revision,
      promotion,
      code: held.get(row.id) ?? null,
    }))
    .sort(
      (a, b) =>
        b.promotion.campaign.priority - a.promotion.campaign.priority ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );

  const applied: AppliedPromotion[] = [];
  const exhausted: string[] = [];
  let inputs: DiscountInput[] = [];
  let discounted = priced ? applyDiscounts(priced, []) : null;
  if (priced && candidates.length > 0) {
    const cartFacts = await facts();
    for (const candidate of candidates) {
      if (await codeExhausted(tx, tenantId, candidate.id, candidate.promotion, candidate.code)) {
        status.set(candidate.id, 'exhausted');
        exhausted.push(candidate.code!);
        continue;
      }
      const { condition } = candidate.promotion;
      if (condition && !(await holds(tx, tenantId, condition, cartFacts))) continue;
      const own = await discountInputs(tx, tenantId, candidate, priced, cartFacts);
      const attempt = applyDiscounts(priced, [...inputs, ...own]);
      const ownIds = new Set(own.map((input) => input.id));
      const taken = attempt.discounts.filter((discount) => ownIds.has(discount.id));
      const amount = sum(taken.map((discount) => discount.amount));
      if (amount.gross === 0 && amount.net === 0) continue;
      inputs = [...inputs, ...own];
      discounted = attempt;
      status.set(candidate.id, 'applied');
      applied.push({
        promotionId: candidate.id,
        revision: candidate.revision,
        name: candidate.promotion.name,
        code: candidate.code,
        priority: candidate.promotion.campaign.priority,
        exclusive: candidate.promotion.campaign.exclusive,
        ruleIds: ruleIdsOfPromotion(candidate.promotion),
        amount,
        discounts: taken,
      });
      if (candidate.promotion.campaign.exclusive) break;
    }
  }
  const promotionCodes = enteredCodes.map((code): PromotionCodeState => {
    const owner = byCode.get(codeKey(code));
    if (!owner) return { code, promotionId: null, status: 'unknown' };
    return { code, promotionId: owner.id, status: status.get(owner.id) ?? 'not_applicable' };
  });
  return { priced: discounted, promotions: applied, promotionCodes, exhaustedCodes: exhausted };
}
