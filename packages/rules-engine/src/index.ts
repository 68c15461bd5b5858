export {
  ACTIONS,
  type ActionArea,
  type ActionConfigKey,
  type ActionDefinition,
  CATALOG_IS_COMPLETE,
  type CatalogActionEntry,
  type CatalogConditionEntry,
  type CatalogDocument,
  CONDITIONS,
  type ConditionDefinition,
  type ConditionGroup,
  type ConditionParam,
  type ConditionScope,
  catalogDocument,
  findCondition,
  LANGUAGES,
  type Labels,
  type Language,
  type Operator,
  PARAM_REFERENCE_KINDS,
  type ParamReference,
  type ParamType,
  paramSchema,
} from './catalog/index.ts';
export {
  compareBoolean,
  compareDate,
  compareId,
  compareIds,
  compareNumber,
  compareString,
  compareStringInList,
  compareValueSets,
  idSet,
  isNegativeOperator,
  lowerCaseList,
  parseInstant,
} from './compare.ts';
export {
  COMPOSITE_CONDITIONS,
  type CompiledRule,
  type CompiledRuleSet,
  type CompileOptions,
  compileRule,
  compileRuleSet,
  RULE_LIMITS,
  type ScopeNeed,
  type TraceNode,
} from './engine/compile.ts';
export type { RuleErrorCode } from './errors.ts';
export type * from './facts.ts';
export { NON_PRODUCT_ITEM_TYPES } from './facts.ts';
export { buildFacts, FactsSchema } from './facts-schema.ts';
export { importCondition, normalizeCondition } from './import.ts';
export type { RuleFailure, RuleResult } from './result.ts';
export {
  type ConditionNode,
  type ConditionTree,
  type RuleReferenceNode,
  referencedRuleIds,
  type SavedRule,
} from './tree.ts';
export { type RuleIssue, type RuleIssueCode, TREE_LIMITS, validateCondition } from './validate.ts';
