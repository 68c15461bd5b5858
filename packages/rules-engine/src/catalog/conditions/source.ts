import { DISABLED_REASONS } from '../disabled.ts';
import type { ConditionDefinition, ConditionGroup, Operator } from '../model.ts';

// The group files were generated once from the reference's conditions.json (test stubs excluded) and
// are edited by hand since; they write each condition with the builders of `builders.ts`.

/**
 * A condition as a group file states it: what the reference says of it. The rest is derived
 * (see `complete`), so it cannot disagree with itself; its group is its file's.
 */
export type SourceCondition = Omit<
  ConditionDefinition,
  'group' | 'behavioralParity' | 'enabled' | 'disabledReason' | 'productLineItemsOnly' | 'operators'
> & {
  /** Default false. */
  readonly productLineItemsOnly?: boolean;
  /** Default: the choices of the `operator` parameter, or none. */
  readonly operators?: readonly Operator[];
};

/** One group's conditions (a file of this folder), in the reference's order. */
export interface SourceGroup {
  readonly group: ConditionGroup | null;
  readonly conditions: readonly SourceCondition[];
}

/** Fills in what follows from the source: its group, parity (never claimed), enablement, operators. */
export function complete(source: SourceCondition, group: ConditionGroup | null): ConditionDefinition {
  const operator = source.params.find((param) => param.name === 'operator');
  const disabledReason = DISABLED_REASONS[source.name];
  const { name, ...rest } = source;
  return {
    name,
    group,
    ...rest,
    productLineItemsOnly: source.productLineItemsOnly ?? false,
    operators: source.operators ?? ((operator?.choices ?? []) as readonly Operator[]),
    behavioralParity: false,
    enabled: disabledReason === undefined,
    ...(disabledReason === undefined ? {} : { disabledReason }),
  };
}
