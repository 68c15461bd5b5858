// The reference's comparison semantics (rule-payload-format.md §4), one function per kind of
// subject. Every condition compares through these, so an operator means the same everywhere. An
// operator a comparison does not support is refused: thrown inside an evaluation (the compiled
// rule returns it), returned by the `compare…` functions of the public door (at the end).

import { RuleError, refusalOf } from './errors.ts';
import { decided, type RuleResult } from './result.ts';

const EPSILON = 1e-8;

/** `empty` and `!=` match a missing subject; every other operator does not. */
export function isNegativeOperator(operator: unknown): boolean {
  return operator === '!=' || operator === 'empty';
}

/** Refuses an operator the comparison (or condition) at hand does not support. */
export function unsupported(operator: unknown): never {
  throw new RuleError(
    'RULE_INVALID_VALUE',
    `The operator ${JSON.stringify(operator)} is not supported here.`,
  );
}

/** Numbers with the reference's tolerance of 1e-8; a missing subject matches only `!=` and `empty`. */
export function numberMatches(
  actual: number | null | undefined,
  operator: unknown,
  expected: unknown,
): boolean {
  if (actual === null || actual === undefined || Number.isNaN(actual)) return isNegativeOperator(operator);
  if (operator === 'empty') return false;
  if (typeof expected !== 'number') return isNegativeOperator(operator);
  switch (operator) {
    case '=':
      return Math.abs(actual - expected) < EPSILON;
    case '!=':
      return !(Math.abs(actual - expected) < EPSILON);
    case '>':
      return expected - actual < -EPSILON;
    case '<':
      return actual - expected < -EPSILON;
    case '>=':
      return expected - actual < EPSILON;
    case '<=':
      return actual - expected < EPSILON;
    default:
      return unsupported(operator);
  }
}

/** Case-insensitive text equality, no trimming; `empty` is a blank (trimmed) subject. Null is ''. */
export function textMatches(
  actual: string | null | undefined,
  operator: unknown,
  expected: unknown,
): boolean {
  const subject = actual ?? '';
  switch (operator) {
    case '=':
      return typeof expected === 'string' && equalsIgnoringCase(subject, expected);
    case '!=':
      return !(typeof expected === 'string' && equalsIgnoringCase(subject, expected));
    case 'empty':
      return subject.trim() === '';
    default:
      return unsupported(operator);
  }
}

function equalsIgnoringCase(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase();
}

/** Lower-cases a list once, at compile time, for `textInListMatches`. */
export function lowerCaseList(list: unknown): readonly string[] {
  return Array.isArray(list)
    ? list.filter((item) => typeof item === 'string').map((item) => item.toLowerCase())
    : [];
}

/** Whether the (lower-cased) subject is in a lower-cased list; a missing subject never matches. */
export function textInListMatches(
  actual: string | null | undefined,
  operator: unknown,
  lowerCasedList: readonly string[],
): boolean {
  if (actual === null || actual === undefined) return false;
  switch (operator) {
    case '=':
      return lowerCasedList.includes(actual.toLowerCase());
    case '!=':
      return !lowerCasedList.includes(actual.toLowerCase());
    default:
      return unsupported(operator);
  }
}

/** Id lists: `=` shares an id, `!=` shares none, `empty` has none. Null is `[]`. */
export function idsMatch(
  actual: readonly (string | null)[] | null | undefined,
  operator: unknown,
  expected: ReadonlySet<string>,
): boolean {
  const subject = actual ?? [];
  switch (operator) {
    case '=':
      return intersects(subject, expected);
    case '!=':
      return !intersects(subject, expected);
    case 'empty':
      return subject.every((id) => id === null || id === '');
    default:
      return unsupported(operator);
  }
}

function intersects(subject: readonly (string | null)[], expected: ReadonlySet<string>): boolean {
  for (const id of subject) if (id !== null && expected.has(id)) return true;
  return false;
}

// Value sets (the reference's ArrayComparator over `(array)` casts, as multi-select custom fields
// compare): each side is a set of values, a list as it is, a JSON object by its values, null as
// the empty set and any other value as a set of one. `=` holds when the two share a value, `!=`
// when they share none, so an empty set never matches `=` and always matches `!=`. Values are
// equal as PHP's array_intersect has them, by their text: 2 and "2" are the same value, true is
// "1", false and null are "". A nested list or object is no comparable value: it shares nothing.

/** A value's text as array_intersect compares it; undefined for a nested list or object. */
function setMemberText(value: unknown): string | undefined {
  if (value === null || value === undefined || value === false) return '';
  if (value === true) return '1';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return undefined;
}

/** The texts of a value taken as a set (see above). */
export function valueSetTexts(value: unknown): ReadonlySet<string> {
  const members =
    value === null || value === undefined
      ? []
      : Array.isArray(value)
        ? value
        : typeof value === 'object'
          ? Object.values(value)
          : [value];
  const texts = new Set<string>();
  for (const member of members) {
    const text = setMemberText(member);
    if (text !== undefined) texts.add(text);
  }
  return texts;
}

/** Two values taken as sets: `=` they share a value, `!=` they share none. */
export function valueSetsMatch(actual: unknown, operator: unknown, expected: unknown): boolean {
  const subject = valueSetTexts(actual);
  const wanted = valueSetTexts(expected);
  let shared = false;
  for (const text of subject) {
    if (wanted.has(text)) {
      shared = true;
      break;
    }
  }
  switch (operator) {
    case '=':
      return shared;
    case '!=':
      return !shared;
    default:
      return unsupported(operator);
  }
}

/** One id against a set, as `idsMatch` of `[id]` without the array: a missing id is `[]`. */
export function idMatches(
  actual: string | null | undefined,
  operator: unknown,
  expected: ReadonlySet<string>,
): boolean {
  const present = actual !== null && actual !== undefined && actual !== '';
  switch (operator) {
    case '=':
      return present && expected.has(actual);
    case '!=':
      return !(present && expected.has(actual));
    case 'empty':
      return !present;
    default:
      return unsupported(operator);
  }
}

/** Turns a rule's id list into a set once, at compile time. */
export function idSet(list: unknown): ReadonlySet<string> {
  return new Set(Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
}

// Dates. The reference compares `=`/`!=` on formatted text (`Y-m-d` or `Y-m-d H:i:s`) and the
// ordering operators on full instants; text without a zone is UTC.

const DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i;

/** Milliseconds since the epoch of a date text, or null when it does not parse. */
export function parseInstant(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = DATE_PATTERN.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0', zone] = match;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const millis = Math.round(Number(`0.${fraction}`) * 1000);
  const check = new Date(local);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  return local + millis - zoneOffsetMinutes(zone) * 60_000;
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (zone === undefined || /^(z|utc)$/i.test(zone)) return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}

/** `Y-m-d` or `Y-m-d H:i:s` of an instant, in UTC. */
export function formatInstant(instant: number, withTime: boolean): string {
  const iso = new Date(instant).toISOString();
  return withTime ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(0, 10);
}

export interface DateRange {
  readonly from: unknown;
  readonly to: unknown;
}

/**
 * A date or date-time condition (RuleComparison::dateValue/datetimeValue): `between` takes
 * `{from, to}` and is inclusive on the formatted text; `=`/`!=` compare formatted text; the
 * ordering operators compare instants. Unparsable dates never match.
 */
export function dateMatches(
  actual: string | null | undefined,
  operator: unknown,
  expected: unknown,
  withTime: boolean,
): boolean {
  if (actual === null || actual === undefined) return isNegativeOperator(operator);
  if (operator === 'empty') return false;
  if (expected === null || expected === undefined) return false;
  const subject = parseInstant(actual);
  if (subject === null) return false;
  if (operator === 'between') {
    if (typeof expected !== 'object' || Array.isArray(expected)) return false;
    const { from, to } = expected as DateRange;
    const start = parseInstant(from);
    const end = parseInstant(to);
    if (start === null || end === null) return false;
    const text = formatInstant(subject, withTime);
    return formatInstant(start, withTime) <= text && text <= formatInstant(end, withTime);
  }
  if (typeof expected !== 'string') return false;
  const rule = parseInstant(expected);
  if (rule === null) return false;
  switch (operator) {
    case '=':
      return formatInstant(subject, withTime) === formatInstant(rule, withTime);
    case '!=':
      return formatInstant(subject, withTime) !== formatInstant(rule, withTime);
    case '>':
      return subject > rule;
    case '<':
      return subject < rule;
    case '>=':
      return subject >= rule;
    case '<=':
      return subject <= rule;
    default:
      return unsupported(operator);
  }
}

/** `(bool) subject === expected`, as the reference casts: a missing subject counts as false. */
export function compareBoolean(actual: boolean | null | undefined, expected: unknown): boolean {
  return (actual === true) === (expected === true);
}

// The public door's comparisons: the same, with a refusal returned rather than thrown.

function refusing<A extends unknown[]>(
  matches: (...args: A) => boolean,
): (...args: A) => RuleResult<boolean> {
  return (...args) => {
    try {
      return decided(matches(...args));
    } catch (error) {
      return refusalOf(error);
    }
  };
}

/** `numberMatches`; an unsupported operator is a RULE_INVALID_VALUE failure. */
export const compareNumber = refusing(numberMatches);
/** `textMatches`; an unsupported operator is a RULE_INVALID_VALUE failure. */
export const compareString = refusing(textMatches);
/** `textInListMatches`; an unsupported operator is a RULE_INVALID_VALUE failure. */
export const compareStringInList = refusing(textInListMatches);
/** `idsMatch`; an unsupported operator is a RULE_INVALID_VALUE failure. */
export const compareIds = refusing(idsMatch);
/** `idMatches`; an unsupported operator is a RULE_INVALID_VALUE failure. */
export const compareId = refusing(idMatches);
/** `dateMatches`; an unsupported operator is a RULE_INVALID_VALUE failure. */
export const compareDate = refusing(dateMatches);
/** `valueSetsMatch`; an unsupported operator is a RULE_INVALID_VALUE failure. */
export const compareValueSets = refusing(valueSetsMatch);
