import { type ConditionTree, validateCondition } from '@cartwright/rules-engine';
import * as v from 'valibot';
import { type Failure, fail } from '../kernel/errors.ts';
import { Timestamp } from '../kernel/schemas.ts';

// The pieces every automation definition with conditions shares: rules and promotions.

/**
 * A priority: a 32-bit signed integer, as the reference's `rule.priority` column (`int`). Stored in
 * the definition's JSON, so the bound is ours to keep: beyond it, ranks lose their meaning.
 */
export const Priority = v.optional(
  v.pipe(v.number(), v.integer(), v.minValue(-(2 ** 31)), v.maxValue(2 ** 31 - 1)),
  0,
);

/** Campaign attributes: when a definition applies, how it ranks, whether it excludes others. */
export const Campaign = v.pipe(
  v.strictObject({
    start: v.optional(v.nullable(Timestamp), null),
    end: v.optional(v.nullable(Timestamp), null),
    priority: Priority,
    exclusive: v.optional(v.boolean(), false),
  }),
  v.check(
    (campaign) =>
      campaign.start === null ||
      campaign.end === null ||
      Date.parse(campaign.start) < Date.parse(campaign.end),
    'the campaign must start before it ends',
  ),
);
export type Campaign = v.InferOutput<typeof Campaign>;

/** Whether a campaign runs at `at`: from its start (inclusive) until its end (exclusive). */
export function campaignRunsAt(campaign: Campaign, at: Date): boolean {
  const now = at.getTime();
  return (
    (campaign.start === null || Date.parse(campaign.start) <= now) &&
    (campaign.end === null || now < Date.parse(campaign.end))
  );
}

export const ConditionInput = v.custom<ConditionTree>(
  (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
  'expected a condition node object',
);

/** Strict validation of a condition tree for saving or evaluating; the first issue names the code. */
export function conditionIssues(tree: ConditionTree, pointer: string): Failure | null {
  const issues = validateCondition(tree);
  if (issues.length === 0) return null;
  const [first] = issues;
  return fail(first!.code, first!.message, {
    errors: issues.map((issue) => ({ pointer: `${pointer}${issue.pointer}`, message: issue.message })),
  });
}
