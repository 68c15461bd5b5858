import type { ConditionDefinition } from '../model.ts';
import { CART } from './cart.ts';
import { CUSTOMER } from './customer.ts';
import { GENERAL } from './general.ts';
import { ITEM } from './item.ts';
import { ORDER } from './order.ts';
import { PROMOTION } from './promotion.ts';
import { complete, type SourceGroup } from './source.ts';
import { UNGROUPED } from './ungrouped.ts';

type Run = readonly [source: SourceGroup, count: number];

/**
 * The reference lists its conditions with the groups interleaved. Each run takes the next `count`
 * conditions of one group, so the catalog keeps the reference's order.
 */
const REFERENCE_ORDER: readonly Run[] = [
  [ITEM, 23],
  [UNGROUPED, 1],
  [ITEM, 8],
  [CART, 1],
  [ITEM, 1],
  [UNGROUPED, 1],
  [CART, 1],
  [ITEM, 2],
  [CART, 6],
  [GENERAL, 1],
  [CART, 2],
  [GENERAL, 1],
  [ORDER, 3],
  [UNGROUPED, 1],
  [CUSTOMER, 35],
  [PROMOTION, 4],
  [ORDER, 9],
  [GENERAL, 4],
  [UNGROUPED, 3],
  [GENERAL, 2],
  [UNGROUPED, 5],
];

/** The runs' conditions, completed, in order; every group must be used up exactly (a bug otherwise). */
function interleave(runs: readonly Run[]): ConditionDefinition[] {
  const taken = new Map<SourceGroup, number>();
  const all: ConditionDefinition[] = [];
  for (const [source, count] of runs) {
    const from = taken.get(source) ?? 0;
    for (const condition of source.conditions.slice(from, from + count)) {
      all.push(complete(condition, source.group));
    }
    taken.set(source, from + count);
  }
  for (const [source, count] of taken) {
    if (count !== source.conditions.length) {
      throw new Error(
        `REFERENCE_ORDER takes ${count} of the ${source.conditions.length} conditions of group ${source.group}.`,
      );
    }
  }
  return all;
}

/** The 114 concrete source conditions, in the reference's order. */
export const CONDITIONS: readonly ConditionDefinition[] = interleave(REFERENCE_ORDER);
