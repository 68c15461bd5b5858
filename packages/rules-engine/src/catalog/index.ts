export { ACTIONS } from './actions.ts';
export {
  CATALOG_IS_COMPLETE,
  type CatalogActionEntry,
  type CatalogConditionEntry,
  type CatalogDocument,
  catalogDocument,
  findCondition,
} from './catalog.ts';
export { CONDITIONS } from './conditions/index.ts';
export {
  type ActionArea,
  type ActionConfigKey,
  type ActionDefinition,
  type ConditionDefinition,
  type ConditionGroup,
  type ConditionParam,
  type ConditionScope,
  type ConfigInput,
  type ConfigReference,
  LANGUAGES,
  type Labels,
  type Language,
  type Operator,
  PARAM_REFERENCE_KINDS,
  type ParamReference,
  type ParamType,
} from './model.ts';
export { paramSchema } from './params.ts';
