import { dateMatches, numberMatches, valueSetsMatch } from './compare.ts';
import type { Facts } from './facts.ts';

// The reference's CustomFieldRule::match, shared by customerCustomField, orderCustomField and
// cartLineItemCustomField: the value stored under the rendered field's name against the rule's.

export interface PreparedCustomField {
  readonly operator: unknown;
  readonly name: string | null;
  readonly kind: 'bool' | 'number' | 'price' | 'multiSelect' | 'date' | 'other';
  readonly expected: unknown;
}

const BOOL_TYPES = new Set(['bool', 'switch', 'checkbox']);
/** The select components whose value is a list (CustomFieldRule::isArray). */
const MULTI_SELECT_COMPONENTS = new Set(['sw-multi-select', 'sw-entity-multi-id-select']);
const TRUE_TEXT = new Set(['1', 'true', 'on', 'yes']);

/** PHP's FILTER_VALIDATE_BOOLEAN without null-on-failure: only 1/true/on/yes (any case, trimmed) are true. */
function toBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  if (typeof value === 'string') return TRUE_TEXT.has(value.trim().toLowerCase());
  return false;
}

function kindOf(field: Record<string, unknown>): PreparedCustomField['kind'] {
  const type = typeof field.type === 'string' ? field.type : '';
  const config =
    field.config !== null && typeof field.config === 'object' && !Array.isArray(field.config)
      ? (field.config as Record<string, unknown>)
      : {};
  if (BOOL_TYPES.has(type)) return 'bool';
  if (type === 'float' || type === 'int' || type === 'number') return 'number';
  if (type === 'price') return 'price';
  if (type === 'date' || type === 'datetime') return 'date';
  const component = typeof config.componentName === 'string' ? config.componentName : '';
  if (type === 'select' && MULTI_SELECT_COMPONENTS.has(component)) return 'multiSelect';
  return 'other';
}

/** Prepares a custom-field condition's value once. */
export function prepareCustomField(value: Readonly<Record<string, unknown>>): PreparedCustomField {
  const field =
    value.renderedField !== null && typeof value.renderedField === 'object'
      ? (value.renderedField as Record<string, unknown>)
      : {};
  const kind = kindOf(field);
  const expected = kind === 'bool' ? toBoolean(value.renderedFieldValue) : (value.renderedFieldValue ?? null);
  return {
    operator: value.operator,
    name: typeof field.name === 'string' ? field.name : null,
    kind,
    expected,
  };
}

/** The stored value a custom-field condition compares: the field of the entity's custom fields. */
export function readCustomField(
  fields: Readonly<Record<string, unknown>> | null | undefined,
  prepared: PreparedCustomField,
): unknown {
  if (prepared.name === null || fields === null || fields === undefined) return null;
  return fields[prepared.name] ?? null;
}

function priceOf(actual: unknown, facts: Facts): number | null {
  if (typeof actual === 'number') return actual;
  if (actual === null || typeof actual !== 'object') return null;
  const prices = actual as Record<string, unknown>;
  const entry = (facts.context.currencyId !== null ? prices[facts.context.currencyId] : undefined) ?? prices;
  if (entry === null || typeof entry !== 'object') return null;
  const amount = (entry as Record<string, unknown>)[facts.context.taxDisplay];
  return typeof amount === 'number' ? amount : null;
}

/**
 * PHP's `===`: scalars by value and type; arrays (JSON lists and objects) when they hold the same
 * keys in the same order with identical values.
 */
function identical(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = Object.entries(a);
  const right = Object.entries(b);
  return (
    left.length === right.length &&
    left.every(([key, value], index) => key === right[index]![0] && identical(value, right[index]![1]))
  );
}

function strict(actual: unknown, operator: unknown, expected: unknown): boolean {
  switch (operator) {
    case '=':
      return identical(actual, expected);
    case '!=':
      return !identical(actual, expected);
    case '>':
    case '<':
    case '>=':
    case '<=': {
      if (typeof actual !== typeof expected || (typeof actual !== 'number' && typeof actual !== 'string'))
        return false;
      const a = actual as number | string;
      const b = expected as number | string;
      return operator === '>' ? a > b : operator === '<' ? a < b : operator === '>=' ? a >= b : a <= b;
    }
    default:
      return false;
  }
}

/** Whether the actual field value satisfies the prepared condition. */
export function matchCustomField(actual: unknown, prepared: PreparedCustomField, facts: Facts): boolean {
  const { kind, operator, expected } = prepared;
  // Missing Boolean fields count as false.
  const subject = actual === null && kind === 'bool' ? false : actual;
  if (subject === null) return operator === '!=' && expected !== null;
  switch (kind) {
    case 'bool':
      return strict(toBoolean(subject), operator, expected);
    case 'number':
      return typeof expected === 'number' || typeof expected === 'string'
        ? numberMatches(typeof subject === 'number' ? subject : Number(subject), operator, Number(expected))
        : false;
    case 'price': {
      const amount = priceOf(subject, facts);
      return amount !== null && typeof expected === 'number'
        ? numberMatches(amount, operator, expected)
        : false;
    }
    // Lists, or single values, on either side: compared as sets (ArrayComparator).
    case 'multiSelect':
      return operator === '=' || operator === '!=' ? valueSetsMatch(subject, operator, expected) : false;
    case 'date':
      return typeof subject === 'string' ? dateMatches(subject, operator, expected, true) : false;
    default:
      return strict(subject, operator, expected);
  }
}
