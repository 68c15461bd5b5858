import { ACTIONS } from './actions.ts';
import { CONDITIONS } from './conditions.ts';
import type {
  ActionArea,
  ActionConfigKey,
  ConditionDefinition,
  ConditionGroup,
  ConditionParam,
  ConditionScope,
  Labels,
  Language,
  Operator,
} from './model.ts';

/** Not every condition is proven equivalent to the reference, so the catalog never claims completeness. */
export const CATALOG_IS_COMPLETE = false;

const CONDITIONS_BY_NAME: ReadonlyMap<string, ConditionDefinition> = new Map(
  CONDITIONS.map((condition) => [condition.name, condition]),
);

/** Looks a condition up by its source identifier. */
export function findCondition(name: string): ConditionDefinition | undefined {
  return CONDITIONS_BY_NAME.get(name);
}

export interface CatalogConditionEntry {
  readonly name: string;
  readonly label: string;
  readonly labels: Labels;
  readonly group: ConditionGroup | null;
  readonly scopes: readonly ConditionScope[];
  readonly isContainer: boolean;
  readonly params: readonly ConditionParam[];
  readonly operators: readonly Operator[];
  readonly productLineItemsOnly: boolean;
  readonly behavioralParity: false;
  readonly enabled: boolean;
  readonly disabledReason: string | null;
}

export interface CatalogActionEntry {
  readonly name: string;
  readonly label: string;
  readonly labels: Labels;
  readonly origin: 'reference' | 'native';
  readonly configKeys: readonly ActionConfigKey[];
  readonly area: ActionArea | null;
}

export interface CatalogDocument {
  readonly language: Language;
  readonly isComplete: boolean;
  readonly conditions: readonly CatalogConditionEntry[];
  readonly actions: readonly CatalogActionEntry[];
}

/** The serialisable catalog, with `label` in the requested language (default English). */
export function catalogDocument(language: Language = 'en'): CatalogDocument {
  return {
    language,
    isComplete: CATALOG_IS_COMPLETE,
    conditions: CONDITIONS.map((condition) => ({
      name: condition.name,
      label: condition.labels[language],
      labels: condition.labels,
      group: condition.group,
      scopes: condition.scopes,
      isContainer: condition.isContainer,
      params: condition.params,
      operators: condition.operators,
      productLineItemsOnly: condition.productLineItemsOnly,
      behavioralParity: condition.behavioralParity,
      enabled: condition.enabled,
      disabledReason: condition.disabledReason ?? null,
    })),
    actions: ACTIONS.map((action) => ({
      name: action.name,
      label: action.labels[language],
      labels: action.labels,
      origin: action.origin,
      configKeys: action.configKeys,
      area: action.area,
    })),
  };
}
