import { type ConditionTree, referencedRuleIds } from '@cartwright/rules-engine';
import * as v from 'valibot';
import { Campaign, ConditionInput, conditionIssues } from '../automation/schemas.ts';
import { TranslatedName, TranslatedText } from '../flows/definition.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { fieldErrors } from '../kernel/registry.ts';
import { CurrencyCode, INT64_SAFE } from '../kernel/schemas.ts';

// A promotion as a merchant saves it (`PUT /api/automation/promotions/{id}`): a campaign (start,
// end, priority, exclusivity), an optional condition over the cart (saved rules by
// `ruleReference`), optional codes, and its discounts (decision 0031).

/** The most codes one promotion holds; the most discounts it gives. */
export const PROMOTION_LIMITS = { codes: 1000, discounts: 10 } as const;

/** A promotion code: letters, digits, `-` and `_`; matched without regard to case. */
const Code = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'give the code at least one character'),
  v.maxLength(64),
  v.regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, - and _ only'),
);

/** The spelling codes are compared in. */
export function codeKey(code: string): string {
  return code.trim().toUpperCase();
}

const Codes = v.variant('type', [
  /** One code for everybody; `limit` orders may redeem it in all (null: no limit). */
  v.strictObject({
    type: v.literal('global'),
    code: Code,
    limit: v.optional(
      v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 31 - 1))),
      null,
    ),
  }),
  /** Codes handed out one per customer: each redeems one order. */
  v.strictObject({
    type: v.literal('individual'),
    codes: v.pipe(
      v.array(Code),
      v.minLength(1, 'give at least one code'),
      v.maxLength(PROMOTION_LIMITS.codes),
      v.check(
        (codes) => new Set(codes.map(codeKey)).size === codes.length,
        'each code once (codes are compared without regard to case)',
      ),
    ),
  }),
]);

/** A percentage with at most two decimals, above 0 and at most 100. */
const Percentage = v.pipe(
  v.number(),
  v.minValue(0.01),
  v.maxValue(100),
  v.check(
    (value) =>
      Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-9,
    'at most two decimals',
  ),
);

const AbsoluteAmounts = v.pipe(
  v.record(CurrencyCode, v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(INT64_SAFE.max))),
  v.check((amounts) => Object.keys(amounts).length > 0, 'give the amount in at least one currency'),
);

const Discount = v.pipe(
  v.strictObject({
    /** `cart`: all lines; `lineItems`: the lines `condition` matches; `shipping`: the shipping costs. */
    scope: v.picklist(['cart', 'lineItems', 'shipping']),
    type: v.picklist(['percentage', 'absolute']),
    /** The percentage (`type: percentage`): 10 = 10 %. */
    value: v.optional(Percentage),
    /** Minor units per currency in the cart's price mode (`type: absolute`). */
    amounts: v.optional(AbsoluteAmounts),
    /** Which lines a `lineItems` discount takes (evaluated per line, in the line-item scope). */
    condition: v.optional(ConditionInput),
  }),
  v.check(
    (discount) => (discount.type === 'percentage') === (discount.value !== undefined),
    'a percentage discount gives value (and only it does)',
  ),
  v.check(
    (discount) => (discount.type === 'absolute') === (discount.amounts !== undefined),
    'an absolute discount gives amounts (and only it does)',
  ),
  v.check(
    (discount) => (discount.scope === 'lineItems') === (discount.condition !== undefined),
    'a lineItems discount gives the condition its lines must match (and only it does)',
  ),
);
export type Discount = v.InferOutput<typeof Discount>;

const PromotionData = v.strictObject({
  name: v.pipe(
    TranslatedName,
    v.check((name) => Object.keys(name).length > 0, 'give the promotion a name'),
  ),
  description: v.optional(TranslatedText),
  campaign: v.optional(Campaign, { start: null, end: null, priority: 0, exclusive: false }),
  /** The cart must match it (saved rules by `ruleReference`); absent: every cart. */
  condition: v.optional(v.nullable(ConditionInput), null),
  codes: v.optional(v.nullable(Codes), null),
  discounts: v.pipe(
    v.array(Discount),
    v.minLength(1, 'give the promotion a discount'),
    v.maxLength(PROMOTION_LIMITS.discounts),
  ),
});
export type PromotionData = v.InferOutput<typeof PromotionData>;

/** A promotion's data checked for saving, and every condition in it (to compile against saved rules). */
export function parsePromotion(
  input: unknown,
): Result<{ data: PromotionData; conditions: { tree: ConditionTree; pointer: string }[] }> {
  const parsed = v.safeParse(PromotionData, input);
  if (!parsed.success) {
    return fail('VALIDATION_FAILED', 'The promotion does not match its schema.', {
      errors: fieldErrors(parsed.issues).map((error) => ({ ...error, pointer: `/data${error.pointer}` })),
    });
  }
  const data = parsed.output;
  const conditions = [
    ...(data.condition ? [{ tree: data.condition, pointer: '/data/condition' }] : []),
    ...data.discounts.flatMap((discount, index) =>
      discount.condition ? [{ tree: discount.condition, pointer: `/data/discounts/${index}/condition` }] : [],
    ),
  ];
  for (const { tree, pointer } of conditions) {
    const invalid = conditionIssues(tree, pointer);
    if (invalid) return invalid;
  }
  return ok({ data, conditions });
}

/** The stored data of a promotion definition, or null when it no longer parses (never applied). */
export function promotionOf(data: unknown): PromotionData | null {
  const parsed = v.safeParse(PromotionData, data);
  return parsed.success ? parsed.output : null;
}

/** The codes a promotion holds, in their own spelling. */
export function codesOf(promotion: PromotionData): readonly string[] {
  if (!promotion.codes) return [];
  return promotion.codes.type === 'global' ? [promotion.codes.code] : promotion.codes.codes;
}

/** The saved rules a promotion names directly (its condition and its line conditions). */
export function ruleIdsOfPromotion(promotion: PromotionData): string[] {
  const trees = [promotion.condition, ...promotion.discounts.map((discount) => discount.condition)];
  return [...new Set(trees.flatMap((tree) => (tree ? referencedRuleIds(tree) : [])))];
}
