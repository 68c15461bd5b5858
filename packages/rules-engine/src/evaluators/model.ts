import type { Facts, LineItemFacts } from '../facts.ts';

/** A condition's stored `value` (its parameters). */
export type Value = Readonly<Record<string, unknown>>;

/**
 * A leaf condition over one line item. In the line-item scope the engine asks it of that item; in
 * the cart scope of the cart's items, flattened (goods only unless `items` is `all`), and the
 * condition matches when any item does. Product conditions (`productLineItemsOnly` in the catalog)
 * never match a non-product item; the engine enforces that, evaluators need not.
 */
export interface ItemEvaluator<A = unknown, P = Value> {
  readonly subject: 'lineItem';
  readonly items?: 'goods' | 'all';
  /** Runs once per compile: turns the stored value into what `test` needs (sets, parsed dates). */
  readonly prepare: (value: Value) => P;
  /** The fact compared (traces show it); `prepared` names which one where the value says (a custom field). */
  readonly read: (item: LineItemFacts, facts: Facts, prepared: P) => A;
  readonly test: (actual: A, prepared: P, facts: Facts) => boolean;
}

/**
 * A leaf condition over the facts as a whole. `item` is the line item of the line-item scope, when
 * there is one (conditions available in both scopes read it; others ignore it).
 */
export interface FactsEvaluator<A = unknown, P = Value> {
  readonly subject: 'facts';
  readonly prepare: (value: Value) => P;
  readonly read: (facts: Facts, item: LineItemFacts | undefined, prepared: P) => A;
  readonly test: (actual: A, prepared: P, facts: Facts) => boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds evaluators of every fact type.
export type Evaluator = ItemEvaluator<any, any> | FactsEvaluator<any, any>;

const asIs = (value: Value): Value => value;

/** Declares a line-item condition (types inferred from `read` and `prepare`). */
export function itemCondition<A, P = Value>(
  spec: Omit<ItemEvaluator<A, P>, 'subject' | 'prepare'> & { readonly prepare?: (value: Value) => P },
): ItemEvaluator<A, P> {
  return { subject: 'lineItem', prepare: (spec.prepare ?? asIs) as (value: Value) => P, ...spec };
}

/** Declares a condition over the facts as a whole. */
export function factsCondition<A, P = Value>(
  spec: Omit<FactsEvaluator<A, P>, 'subject' | 'prepare'> & { readonly prepare?: (value: Value) => P },
): FactsEvaluator<A, P> {
  return { subject: 'facts', prepare: (spec.prepare ?? asIs) as (value: Value) => P, ...spec };
}
