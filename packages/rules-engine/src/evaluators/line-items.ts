import type { Facts, LineItemFacts } from '../facts.ts';

// Walks over a cart's line items, nested items included, for the evaluators and the engine alike.

/** The cart's top-level items; none without a cart. */
export function cartLineItems(facts: Facts): readonly LineItemFacts[] {
  return facts.cart?.lineItems ?? [];
}

/** Whether any item (nested items included; goods only if asked) satisfies the predicate. */
export function someItem(
  items: readonly LineItemFacts[],
  goodsOnly: boolean,
  predicate: (item: LineItemFacts) => boolean,
): boolean {
  for (const item of items) {
    if ((!goodsOnly || item.good) && predicate(item)) return true;
    if (item.children.length > 0 && someItem(item.children, goodsOnly, predicate)) return true;
  }
  return false;
}

/** Visits every item, nested items included (goods only if asked), in cart order. */
export function forEachItem(
  items: readonly LineItemFacts[],
  goodsOnly: boolean,
  visit: (item: LineItemFacts) => void,
): void {
  for (const item of items) {
    if (!goodsOnly || item.good) visit(item);
    if (item.children.length > 0) forEachItem(item.children, goodsOnly, visit);
  }
}
