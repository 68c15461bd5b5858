import { ACTIONS } from './actions.ts';
import { CONDITIONS } from './conditions/index.ts';
import type {
  ActionArea,
  ActionConfigKey,
  ConditionDefinition,
  ConditionParam,
  Labels,
  Language,
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

/**
 * A condition as the document shows it: `label` in the document's language (its parameters' too),
 * `disabledReason` always present.
 */
export interface CatalogConditionEntry extends Omit<ConditionDefinition, 'disabledReason' | 'params'> {
  readonly label: string;
  readonly params: readonly (ConditionParam & { readonly label: string })[];
  readonly disabledReason: string | null;
}

export interface CatalogActionEntry {
  readonly name: string;
  readonly label: string;
  readonly labels: Labels;
  readonly origin: 'reference' | 'native';
  /** Each config key with its `label` in the document's language. */
  readonly configKeys: readonly (ActionConfigKey & { readonly label: string })[];
  readonly area: ActionArea | null;
}

export interface CatalogDocument {
  readonly language: Language;
  readonly isComplete: boolean;
  readonly conditions: readonly CatalogConditionEntry[];
  readonly actions: readonly CatalogActionEntry[];
}

/** An entry's name and labels, with `label` in `language`: how every document entry begins. */
function named(entry: { readonly name: string; readonly labels: Labels }, language: Language) {
  return { name: entry.name, label: entry.labels[language], labels: entry.labels };
}

/** The serialisable catalog, with `label` in the requested language (default English). */
export function catalogDocument(language: Language = 'en'): CatalogDocument {
  return {
    language,
    isComplete: CATALOG_IS_COMPLETE,
    conditions: CONDITIONS.map((condition) => ({
      ...named(condition, language),
      group: condition.group,
      scopes: condition.scopes,
      isContainer: condition.isContainer,
      params: condition.params.map((param) => ({ ...param, label: param.labels[language] })),
      operators: condition.operators,
      productLineItemsOnly: condition.productLineItemsOnly,
      behavioralParity: condition.behavioralParity,
      enabled: condition.enabled,
      disabledReason: condition.disabledReason ?? null,
    })),
    actions: ACTIONS.map((action) => ({
      ...named(action, language),
      origin: action.origin,
      configKeys: action.configKeys.map((key) => ({ ...key, label: key.labels[language] })),
      area: action.area,
    })),
  };
}
