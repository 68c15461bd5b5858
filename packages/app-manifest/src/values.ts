import { type Failure, fail, ok, type Success } from '@cartwright/commerce';
import { pointerSegment } from './pointer.ts';
import type { Entity, Field, ListItem } from './schema.ts';

/** Every code `checkValue` answers, in the README's order (the README says what each means). */
export const VALUE_ISSUE_CODES = [
  'VALUE_TYPE',
  'VALUE_REQUIRED',
  'VALUE_UNKNOWN_FIELD',
  'VALUE_OUT_OF_RANGE',
  'VALUE_FORMAT',
  'VALUE_CHOICE',
] as const;
export type ValueIssueCode = (typeof VALUE_ISSUE_CODES)[number];

export interface ValueIssue {
  readonly code: ValueIssueCode;
  /** JSON pointer into the checked value. */
  readonly pointer: string;
  readonly message: string;
}

/** A refused value: `code` and `detail` name the first issue, `issues` lists them all. */
export interface ValueRefusal extends Failure<ValueIssueCode> {
  readonly issues: readonly ValueIssue[];
}

/** A JSON object whose members fit a shape. */
export type CheckedValue = Readonly<Record<string, unknown>>;

export interface CheckOptions {
  /** A patch: required fields may be absent (but not null). */
  readonly partial?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const isLeap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isDatetime(text: string): boolean {
  const match = DATETIME.exec(text);
  if (!match) return false;
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6])];
  return (
    isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const describe = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

type Problem = readonly [ValueIssueCode, string] | null;

function rangeProblem(type: { min?: number | undefined; max?: number | undefined }, value: number): Problem {
  if (type.min !== undefined && value < type.min) return ['VALUE_OUT_OF_RANGE', `at least ${type.min}`];
  if (type.max !== undefined && value > type.max) return ['VALUE_OUT_OF_RANGE', `at most ${type.max}`];
  return null;
}

/** What is wrong with one non-null value of a type other than `list`, or null. */
function scalarProblem(type: Exclude<Field | ListItem, { type: 'list' }>, value: unknown): Problem {
  const expected = (what: string): Problem => ['VALUE_TYPE', `expected ${what}, got ${describe(value)}`];
  switch (type.type) {
    case 'string':
    case 'text':
      if (typeof value !== 'string') return expected('a string');
      if (value.length > type.maxLength) {
        return ['VALUE_OUT_OF_RANGE', `at most ${type.maxLength} characters, got ${value.length}`];
      }
      if (type.type === 'string' && /[\r\n]/.test(value)) {
        return ['VALUE_FORMAT', 'a plain string holds no line break (declare a text field)'];
      }
      if ('coreReference' in type && type.coreReference && !UUID.test(value)) {
        return ['VALUE_FORMAT', `expected the id (a UUID) of a ${type.coreReference}`];
      }
      return null;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return expected('an integer');
      if (!Number.isSafeInteger(value)) return ['VALUE_OUT_OF_RANGE', 'an integer lies within ±(2^53 − 1)'];
      return rangeProblem(type, value);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return expected('a finite number');
      return rangeProblem(type, value);
    case 'boolean':
      return typeof value === 'boolean' ? null : expected('a boolean');
    case 'date':
      if (typeof value !== 'string') return expected('a date string');
      return isDate(value) ? null : ['VALUE_FORMAT', 'expected a calendar date YYYY-MM-DD'];
    case 'datetime':
      if (typeof value !== 'string') return expected('a datetime string');
      return isDatetime(value)
        ? null
        : ['VALUE_FORMAT', 'expected a UTC timestamp YYYY-MM-DDTHH:MM:SS[.fraction]Z'];
    case 'choice':
      if (typeof value !== 'string') return expected('a string');
      if (type.choices.some((choice) => choice.value === value)) return null;
      return [
        'VALUE_CHOICE',
        `expected one of ${type.choices.map((choice) => JSON.stringify(choice.value)).join(', ')}`,
      ];
    case 'reference':
      if (typeof value !== 'string') return expected('a string');
      return UUID.test(value)
        ? null
        : ['VALUE_FORMAT', `expected the id (a UUID) of a ${type.entity} record`];
  }
}

/** Checks one non-null member; a list reports each item that does not fit, at its index. */
function checkMember(field: Field, value: unknown, pointer: string, issues: ValueIssue[]): void {
  const report = (problem: Problem, at: string) => {
    if (problem) issues.push({ code: problem[0], pointer: at, message: problem[1] });
  };
  if (field.type !== 'list') {
    report(scalarProblem(field, value), pointer);
  } else if (!Array.isArray(value)) {
    report(['VALUE_TYPE', `expected an array, got ${describe(value)}`], pointer);
  } else {
    if (value.length > field.maxItems) {
      report(['VALUE_OUT_OF_RANGE', `at most ${field.maxItems} items, got ${value.length}`], pointer);
    }
    value.forEach((item, index) => {
      const problem: Problem =
        item === null ? ['VALUE_TYPE', 'a list holds no null'] : scalarProblem(field.items, item);
      report(problem, `${pointer}/${index}`);
    });
  }
}

/**
 * Checks a JSON value against an object of typed fields (a service action's input or output, an
 * entity's fields) and answers a copy holding exactly its members, or every issue with its
 * pointer. A field that is not required may be absent or null; nothing is filled in or trimmed.
 */
export function checkValue(
  shape: readonly Field[],
  value: unknown,
  options: CheckOptions = {},
): Success<CheckedValue> | ValueRefusal {
  const issues: ValueIssue[] = [];
  const report = (code: ValueIssueCode, pointer: string, message: string) =>
    issues.push({ code, pointer, message });
  if (!isPlainObject(value)) {
    report('VALUE_TYPE', '', `expected an object, got ${describe(value)}`);
  } else {
    const declared = new Set(shape.map((field) => field.name));
    for (const key of Object.keys(value)) {
      if (!declared.has(key))
        report('VALUE_UNKNOWN_FIELD', `/${pointerSegment(key)}`, `"${key}" is not declared`);
    }
    for (const field of shape) {
      const pointer = `/${pointerSegment(field.name)}`;
      const present = Object.hasOwn(value, field.name) && value[field.name] !== undefined;
      const member = present ? value[field.name] : undefined;
      if (member === undefined || member === null) {
        if (field.required && (present || !options.partial)) {
          report(
            'VALUE_REQUIRED',
            pointer,
            present ? `"${field.name}" may not be null` : `"${field.name}" is required`,
          );
        }
        continue;
      }
      checkMember(field, member, pointer, issues);
    }
  }
  const [first] = issues;
  if (first) return { ...fail(first.code, `${first.pointer || '/'}: ${first.message}`), issues };
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    copy[key] = Array.isArray(member) ? [...member] : member;
  }
  return ok(copy);
}

/** Checks a row of an entity (its fields, not the service's own columns); see `checkValue`. */
export function checkRow(
  entity: Entity,
  row: unknown,
  options: CheckOptions = {},
): Success<CheckedValue> | ValueRefusal {
  return checkValue(entity.fields, row, options);
}
