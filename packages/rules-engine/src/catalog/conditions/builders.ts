import type {
  ConditionParam,
  ConditionScope,
  Labels,
  Operator,
  ParamReference,
  ParamType,
} from '../model.ts';
import { PARAM_LABELS, PARAM_REFERENCES, type ParamName } from '../param-labels.ts';
import type { SourceCondition } from './source.ts';

// What the group files write a condition with: where it applies, its parameters, its labels.

/** Where a condition applies: the fact scopes it accepts, and whether only product line items count. */
export interface AppliesTo {
  readonly scopes: readonly ConditionScope[];
  readonly productLineItemsOnly?: true;
}

// The reference's scope lists, in its order (which of `lineItem` and `cart` comes first shows in the output).
export const ANYWHERE: AppliesTo = { scopes: ['any'] };
export const IN_CART: AppliesTo = { scopes: ['cart'] };
export const IN_CHECKOUT: AppliesTo = { scopes: ['checkout'] };
export const IN_ORDER: AppliesTo = { scopes: ['order'] };
export const IN_FLOW: AppliesTo = { scopes: ['flow'] };
export const IN_LINE_ITEM_OR_CART: AppliesTo = { scopes: ['lineItem', 'cart'] };
export const IN_CART_OR_LINE_ITEM: AppliesTo = { scopes: ['cart', 'lineItem'] };
export const ON_PRODUCT_ITEMS: AppliesTo = { ...IN_LINE_ITEM_OR_CART, productLineItemsOnly: true };

// The reference's operator sets, in its order (`empty` always last).
export const EQUALITY: readonly Operator[] = ['=', '!='];
export const EQUALITY_OR_EMPTY: readonly Operator[] = [...EQUALITY, 'empty'];
export const ORDERING: readonly Operator[] = ['=', '<=', '>=', '!=', '>', '<'];
export const ORDERING_OR_EMPTY: readonly Operator[] = [...ORDERING, 'empty'];
export const DATE_ORDERING: readonly Operator[] = ['between', '!=', '>=', '<=', '=', '>', '<'];
export const DATE_ORDERING_OR_EMPTY: readonly Operator[] = [...DATE_ORDERING, 'empty'];

/** A parameter as the group files write it: without `required`, its condition decides (see `condition`). */
export type ParamSpec = Omit<ConditionParam, 'required'> & { readonly required?: ConditionParam['required'] };

/** A parameter's name with its labels and, for an id naming something of the shop, what it names. */
function named(name: ParamName) {
  const references = PARAM_REFERENCES[name];
  return { name, labels: PARAM_LABELS[name], ...(references === undefined ? {} : { references }) };
}

/** The required `operator` parameter, offering `choices` (also the condition's operators). */
export function operatorParam(choices: readonly Operator[]): ParamSpec {
  return { ...named('operator'), type: 'string', sourceType: 'string', required: true, choices };
}

// The reference's type text where it is not the type's own name.
const SOURCE_TYPES: Partial<Record<ParamType, string>> = {
  'uuid[]': 'array<uuid>',
  'string[]': 'array<string>',
};

/** A parameter of `type`; `sourceType` defaults to the reference's usual text for that type. */
export function param(name: ParamName, type: ParamType, sourceType = SOURCE_TYPES[type] ?? type): ParamSpec {
  return { ...named(name), type, sourceType };
}

/** A string parameter that takes one of `choices`. */
export function choiceParam(name: ParamName, choices: readonly string[]): ParamSpec {
  return { ...named(name), type: 'string', sourceType: 'string', choices };
}

/**
 * The same parameter where its shared name means something narrower: its own labels and, when it
 * names something of the shop, what (the address conditions' `stateIds` name a country's regions).
 */
export function labelled(spec: ParamSpec, labels: Labels, references?: ParamReference): ParamSpec {
  const { references: _shared, ...rest } = spec;
  return { ...rest, labels, ...(references === undefined ? {} : { references }) };
}

/** The same parameter, never required. */
export function optional(spec: ParamSpec): ParamSpec {
  return { ...spec, required: false };
}

/**
 * The reference's filter rules (goods count and price, line item goods total, promotion value): `operand`
 * compared by ordering, over the line items an optional nested rule container keeps.
 */
export function filterRuleParams(operand: ParamSpec): readonly ParamSpec[] {
  return [
    operand,
    operatorParam(ORDERING),
    optional(param('filter', 'rules', 'nested rule container (children)')),
  ];
}

/** The reference's custom field comparison: operator, field definition, field, field set and value. */
export function customFieldParams(renderedFieldSourceType = 'object'): readonly ParamSpec[] {
  return [
    operatorParam(DATE_ORDERING),
    param('renderedField', 'object', renderedFieldSourceType),
    param('selectedField', 'string', 'uuid/string'),
    param('selectedFieldSet', 'string', 'uuid/string'),
    param('renderedFieldValue', 'json', 'scalar|array|{from,to}'),
  ];
}

/** Labels in the catalog's languages, in their order: English, German, Spanish, French. */
export function labels(en: string, de: string, es: string, fr: string): Labels {
  return { en, de, es, fr };
}

/**
 * A condition with `params` in the reference's order. A parameter without `required` is required, or
 * `unlessEmpty` when the `operator` parameter offers `empty`.
 */
export function condition(
  name: string,
  appliesTo: AppliesTo,
  params: readonly ParamSpec[],
  labels: Labels,
): SourceCondition {
  return define(name, appliesTo, false, params, labels);
}

/** A container condition: its children come through its `rules` parameter. */
export function container(
  name: string,
  appliesTo: AppliesTo,
  params: readonly ParamSpec[],
  labels: Labels,
): SourceCondition {
  return define(name, appliesTo, true, params, labels);
}

function define(
  name: string,
  { scopes, productLineItemsOnly }: AppliesTo,
  isContainer: boolean,
  params: readonly ParamSpec[],
  labels: Labels,
): SourceCondition {
  const operator = params.find((spec) => spec.name === 'operator');
  const required = operator?.choices?.includes('empty') ? 'unlessEmpty' : true;
  // Keys in the order the hand-written sources had, which the catalog's output shows: `operators` is
  // stated only when no parameter offers any (`complete` takes them from the `operator` parameter).
  return {
    name,
    scopes,
    isContainer,
    params: params.map(({ name, type, sourceType, choices, labels, references, ...spec }) => ({
      name,
      type,
      sourceType,
      required: spec.required ?? required,
      ...(choices === undefined ? {} : { choices }),
      labels,
      ...(references === undefined ? {} : { references }),
    })),
    ...(operator === undefined ? { operators: [] } : {}),
    ...(productLineItemsOnly ? { productLineItemsOnly } : {}),
    labels,
  };
}
