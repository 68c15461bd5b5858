import * as v from 'valibot';
import type { ConditionDefinition, ConditionParam, Operator } from './model.ts';

// Accepts what the reference's date comparisons parse: a date, optionally a time and a zone.
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_TEXT =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?: ?(?:Z|UTC|[+-]\d{2}:?\d{2}))?$/;
const TIME_TEXT = /^(?:[01]?\d|2[0-3]):[0-5]\d$/;
const identifier = v.pipe(
  v.string(),
  v.regex(/^\S(?:.*\S)?$/, 'expected an id without leading or trailing spaces'),
  v.maxLength(200),
);

const dateText = v.pipe(v.string(), v.regex(DATE_TEXT, 'expected a date YYYY-MM-DD'));
const datetimeText = v.pipe(v.string(), v.regex(DATETIME_TEXT, 'expected an ISO date-time'));
const jsonValue = v.union([
  v.string(),
  v.number(),
  v.boolean(),
  v.array(v.unknown()),
  v.record(v.string(), v.unknown()),
]);

type ValueSchema = v.GenericSchema<unknown>;

function rangeOf(text: ValueSchema): ValueSchema {
  return v.strictObject({ from: text, to: text });
}

function baseSchema(param: ConditionParam): ValueSchema {
  if (param.choices !== undefined && param.choices.length > 0) {
    const choice = v.picklist(param.choices);
    return param.type === 'string[]' ? v.pipe(v.array(choice), v.minLength(1)) : choice;
  }
  switch (param.type) {
    case 'string':
      return v.pipe(v.string(), v.trim(), v.nonEmpty());
    case 'int':
      return v.pipe(v.number(), v.integer());
    case 'float':
      return v.pipe(v.number(), v.finite());
    case 'bool':
      return v.boolean();
    // Native identifiers are UUIDs for stored entities and codes for others (ISO currency, language
    // and country codes, tag text, state names): an id is any non-blank text without edge spaces.
    case 'uuid':
      return identifier;
    case 'uuid[]':
      return v.pipe(v.array(identifier), v.minLength(1));
    case 'string[]':
      return v.pipe(v.array(v.string()), v.minLength(1));
    case 'date':
      return dateText;
    case 'datetime':
      return datetimeText;
    case 'dateOrRange':
      return v.union([dateText, rangeOf(dateText)]);
    case 'datetimeOrRange':
      return v.union([datetimeText, rangeOf(datetimeText)]);
    case 'time':
      return v.pipe(v.string(), v.regex(TIME_TEXT, 'expected a time H:MM'));
    case 'weekday':
      return v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7));
    case 'object':
      return v.record(v.string(), v.unknown());
    case 'json':
      return jsonValue;
    case 'rules':
      return v.never();
  }
}

function isRangeParam(param: ConditionParam): boolean {
  return param.type === 'dateOrRange' || param.type === 'datetimeOrRange';
}

function valueObject(
  condition: ConditionDefinition,
  operators: readonly [Operator, ...Operator[]] | null,
  isEmptyBranch: boolean,
): ValueSchema {
  const entries: Record<string, ValueSchema> = { _name: v.optional(v.string()) };
  for (const param of condition.params) {
    // Child conditions travel in the tree node, not in `value`.
    if (param.type === 'rules') continue;
    if (param.name === 'operator' && operators !== null) {
      entries.operator = v.picklist(operators);
      continue;
    }
    const schema = baseSchema(param);
    const isRequired = param.required === true || (param.required === 'unlessEmpty' && !isEmptyBranch);
    entries[param.name] = isRequired ? schema : v.optional(schema);
  }
  const object = v.strictObject(entries);
  const rangeParams = condition.params.filter(isRangeParam).map((param) => param.name);
  if (rangeParams.length === 0 || isEmptyBranch) return object;
  // `between` takes `{from, to}`; every other operator takes a single date.
  return v.pipe(
    object,
    v.check((value: Record<string, unknown>) => {
      const isBetween = value.operator === 'between';
      return rangeParams.every((name) => {
        const given = value[name];
        if (given === undefined) return true;
        return isBetween === (typeof given === 'object' && given !== null);
      });
    }, 'between takes {from, to}; other operators take a single date'),
  );
}

function hasOperatorParam(condition: ConditionDefinition): boolean {
  return condition.params.some((param) => param.name === 'operator');
}

/**
 * Builds the valibot schema for a condition's `value`: typed params, `operator` limited to the
 * condition's operators, and params the reference drops under `empty` made optional for it.
 */
export function paramSchema(condition: ConditionDefinition): ValueSchema {
  const [first, ...rest] = condition.operators;
  if (!hasOperatorParam(condition) || first === undefined) return valueObject(condition, null, false);
  const hasRelaxedParams = condition.params.some((param) => param.required === 'unlessEmpty');
  if (!hasRelaxedParams || !condition.operators.includes('empty')) {
    return valueObject(condition, [first, ...rest], false);
  }
  const others = condition.operators.filter((operator) => operator !== 'empty');
  const [firstOther, ...restOther] = others;
  const emptyBranch = valueObject(condition, ['empty'], true);
  if (firstOther === undefined) return emptyBranch;
  return v.union([emptyBranch, valueObject(condition, [firstOther, ...restOther], false)]);
}
