// Tax destination rules: which tax rate applies to a delivery address. Pure: the caller passes the
// instant (`context.at`) and the ids of the saved rule conditions that currently hold; nothing here
// reads the clock. Decision 0022 records the matching and the tie-break.

/** The postcodes a rule covers; compared after `normalizePostcode`. */
export type TaxPostcodeCondition =
  | { readonly kind: 'single'; readonly value: string }
  | { readonly kind: 'list'; readonly values: readonly string[] }
  | { readonly kind: 'prefix'; readonly value: string }
  | { readonly kind: 'range'; readonly from: string; readonly to: string };

/** One tax destination rule, as saved in the settings of a sales channel. */
export interface TaxDestinationRule {
  readonly id: string;
  /** ISO 3166-1 alpha-2, upper case (`DE`). */
  readonly country: string;
  /** ISO 3166-2 subdivision of `country` (`DE-BY`), or null for the whole country. */
  readonly state: string | null;
  /** Null: every postcode, and destinations without one. */
  readonly postcode: TaxPostcodeCondition | null;
  /** ISO instant with a zone, inclusive; null: no start. */
  readonly validFrom: string | null;
  /** ISO instant with a zone, exclusive; null: no end. */
  readonly validUntil: string | null;
  /** Higher wins. */
  readonly priority: number;
  /** A saved rule condition that must currently match (the caller evaluates it), or null. */
  readonly ruleId: string | null;
  /** Null: applies to every tax class. */
  readonly taxClassId: string | null;
  /** Hundredths of a percent (19 % = 1900), 0 to 10 000. */
  readonly rate: number;
}

/** Where the goods go. */
export interface TaxDestination {
  readonly country: string;
  readonly state?: string | null;
  readonly postcode?: string | null;
}

/** What the caller knows at the time of the calculation. */
export interface TaxRuleContext {
  /** The instant of the calculation (ISO, with a zone). */
  readonly at: string;
  readonly taxClassId: string;
  /** The ids of the saved rule conditions that match now. */
  readonly matchingRuleIds: ReadonlySet<string>;
}

export type TaxRuleIssueCode =
  | 'TAX_RULE_INVALID_ID'
  | 'TAX_RULE_INVALID_COUNTRY'
  | 'TAX_RULE_INVALID_STATE'
  | 'TAX_RULE_STATE_NOT_OF_COUNTRY'
  | 'TAX_RULE_INVALID_POSTCODE'
  | 'TAX_RULE_EMPTY_POSTCODE_LIST'
  | 'TAX_RULE_RANGE_LENGTHS_DIFFER'
  | 'TAX_RULE_RANGE_REVERSED'
  | 'TAX_RULE_INVALID_INSTANT'
  | 'TAX_RULE_EMPTY_WINDOW'
  | 'TAX_RULE_INVALID_PRIORITY'
  | 'TAX_RULE_INVALID_REFERENCE'
  | 'TAX_RULE_RATE_OUT_OF_RANGE';

/** One problem of a rule: a stable code, a JSON pointer into the rule and a sentence. */
export interface TaxRuleIssue {
  readonly code: TaxRuleIssueCode;
  readonly pointer: string;
  readonly message: string;
}

/** Trimmed, upper case, without any whitespace: ` sw1a 1aa ` → `SW1A1AA`. */
export function normalizePostcode(postcode: string): string {
  return postcode.replace(/\s+/g, '').toUpperCase();
}

const COUNTRY = /^[A-Z]{2}$/;
const STATE = /^([A-Z]{2})-[A-Z0-9]{1,3}$/;
const POSTCODE = /^[A-Z0-9-]{1,16}$/;
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Milliseconds since the epoch of an ISO instant that names its zone (`Z` or `±hh:mm`), or NaN.
 * A date that does not exist (`2025-02-30`) or text without a zone (local time) is NaN.
 */
function parseInstant(text: string): number {
  const match = INSTANT.exec(text);
  if (!match) return Number.NaN;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match
    .slice(1)
    .map((digits) => Number(digits ?? '0'));
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month! - 1];
  if (daysInMonth === undefined || day! < 1 || day! > daysInMonth) return Number.NaN;
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHours! > 23 || offsetMinutes! > 59) {
    return Number.NaN;
  }
  return Date.parse(text);
}

function isReference(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 200;
}

/**
 * Every problem of a rule, in field order; an empty list means the rule can be saved. Data only:
 * it never throws, whatever its fields hold.
 */
export function validateTaxDestinationRule(rule: TaxDestinationRule): TaxRuleIssue[] {
  const issues: TaxRuleIssue[] = [];
  const issue = (code: TaxRuleIssueCode, pointer: string, message: string) =>
    issues.push({ code, pointer, message });

  if (!isReference(rule.id)) issue('TAX_RULE_INVALID_ID', '/id', 'must be a non-empty id');

  const countryValid = typeof rule.country === 'string' && COUNTRY.test(rule.country);
  if (!countryValid) {
    issue('TAX_RULE_INVALID_COUNTRY', '/country', 'must be an ISO 3166-1 alpha-2 code in upper case (DE)');
  }

  if (rule.state !== null) {
    const match = typeof rule.state === 'string' ? STATE.exec(rule.state) : null;
    if (!match) {
      issue('TAX_RULE_INVALID_STATE', '/state', 'must be an ISO 3166-2 code in upper case (DE-BY) or null');
    } else if (countryValid && match[1] !== rule.country) {
      issue(
        'TAX_RULE_STATE_NOT_OF_COUNTRY',
        '/state',
        `${rule.state} is not a subdivision of ${rule.country}`,
      );
    }
  }

  validatePostcode(rule.postcode, issue);

  const bounds: [string, string | null][] = [
    ['validFrom', rule.validFrom],
    ['validUntil', rule.validUntil],
  ];
  const instants = bounds.map(([field, value]) => {
    if (value === null) return null;
    const instant = typeof value === 'string' ? parseInstant(value) : Number.NaN;
    if (Number.isNaN(instant)) {
      issue(
        'TAX_RULE_INVALID_INSTANT',
        `/${field}`,
        'must be an ISO instant with a zone (2025-01-01T00:00:00Z) or null',
      );
    }
    return instant;
  });
  const [from, until] = instants;
  if (typeof from === 'number' && typeof until === 'number' && from >= until) {
    issue('TAX_RULE_EMPTY_WINDOW', '/validUntil', 'must be later than validFrom');
  }

  if (!Number.isSafeInteger(rule.priority)) {
    issue('TAX_RULE_INVALID_PRIORITY', '/priority', 'must be an integer');
  }
  if (rule.ruleId !== null && !isReference(rule.ruleId)) {
    issue('TAX_RULE_INVALID_REFERENCE', '/ruleId', 'must be a rule id or null');
  }
  if (rule.taxClassId !== null && !isReference(rule.taxClassId)) {
    issue('TAX_RULE_INVALID_REFERENCE', '/taxClassId', 'must be a tax class id or null');
  }
  if (!Number.isInteger(rule.rate) || rule.rate < 0 || rule.rate > 10_000) {
    issue(
      'TAX_RULE_RATE_OUT_OF_RANGE',
      '/rate',
      'must be an integer from 0 to 10000 in hundredths of a percent (19 % = 1900)',
    );
  }
  return issues;
}

function validatePostcode(
  postcode: TaxPostcodeCondition | null,
  issue: (code: TaxRuleIssueCode, pointer: string, message: string) => void,
): void {
  if (postcode === null) return;
  if (typeof postcode !== 'object') {
    issue('TAX_RULE_INVALID_POSTCODE', '/postcode', 'must be a postcode condition or null');
    return;
  }
  /** The normalized postcode, or null after reporting it. */
  const check = (value: unknown, pointer: string): string | null => {
    const normalized = typeof value === 'string' ? normalizePostcode(value) : '';
    if (POSTCODE.test(normalized)) return normalized;
    issue('TAX_RULE_INVALID_POSTCODE', pointer, 'must be 1 to 16 letters, digits or hyphens');
    return null;
  };
  switch (postcode.kind) {
    case 'single':
    case 'prefix':
      check(postcode.value, '/postcode/value');
      return;
    case 'list':
      if (!Array.isArray(postcode.values) || postcode.values.length === 0) {
        issue('TAX_RULE_EMPTY_POSTCODE_LIST', '/postcode/values', 'must list at least one postcode');
        return;
      }
      postcode.values.forEach((value, index) => {
        check(value, `/postcode/values/${index}`);
      });
      return;
    case 'range': {
      const from = check(postcode.from, '/postcode/from');
      const to = check(postcode.to, '/postcode/to');
      if (from === null || to === null) return;
      if (from.length !== to.length) {
        issue('TAX_RULE_RANGE_LENGTHS_DIFFER', '/postcode/to', 'must have as many characters as from');
      } else if (from > to) {
        issue('TAX_RULE_RANGE_REVERSED', '/postcode/to', `must not sort before from (${from})`);
      }
      return;
    }
    default:
      issue('TAX_RULE_INVALID_POSTCODE', '/postcode/kind', 'must be single, list, prefix or range');
  }
}

function postcodeMatches(condition: TaxPostcodeCondition, postcode: string): boolean {
  switch (condition.kind) {
    case 'single':
      return normalizePostcode(condition.value) === postcode;
    case 'list':
      return condition.values.some((value) => normalizePostcode(value) === postcode);
    case 'prefix':
      return postcode.startsWith(normalizePostcode(condition.value));
    case 'range': {
      const from = normalizePostcode(condition.from);
      const to = normalizePostcode(condition.to);
      return (
        postcode.length === from.length && postcode.length === to.length && from <= postcode && postcode <= to
      );
    }
    default:
      return false;
  }
}

/**
 * True when `rule` applies to `destination` in `context`: same country and (if the rule names
 * one) state, case-insensitively; the postcode condition, if any, holds for the destination's
 * normalized postcode (a destination without a postcode never meets one); `validFrom <= at <
 * validUntil`; the rule condition is among `matchingRuleIds`; the tax class is null or equal.
 * An instant that does not parse (`at` or a bound) fails the window: such a rule never applies.
 */
export function taxDestinationRuleMatches(
  rule: TaxDestinationRule,
  destination: TaxDestination,
  context: TaxRuleContext,
): boolean {
  if (rule.country.trim().toUpperCase() !== destination.country.trim().toUpperCase()) return false;
  if (rule.state !== null && rule.state.trim().toUpperCase() !== destination.state?.trim().toUpperCase()) {
    return false;
  }
  if (rule.postcode !== null) {
    const postcode = normalizePostcode(destination.postcode ?? '');
    if (postcode === '' || !postcodeMatches(rule.postcode, postcode)) return false;
  }
  if (rule.validFrom !== null || rule.validUntil !== null) {
    const at = parseInstant(context.at);
    // Comparisons with NaN are false, so a malformed instant fails here.
    if (rule.validFrom !== null && !(parseInstant(rule.validFrom) <= at)) return false;
    if (rule.validUntil !== null && !(at < parseInstant(rule.validUntil))) return false;
  }
  if (rule.ruleId !== null && !context.matchingRuleIds.has(rule.ruleId)) return false;
  return rule.taxClassId === null || rule.taxClassId === context.taxClassId;
}

/** How exactly a rule names its postcodes: higher is more specific. */
function postcodeSpecificity(postcode: TaxPostcodeCondition | null): [kind: number, prefixLength: number] {
  switch (postcode?.kind) {
    case 'single':
    case 'list':
      return [3, 0];
    case 'range':
      return [2, 0];
    case 'prefix':
      return [1, normalizePostcode(postcode.value).length];
    default:
      return [0, 0];
  }
}

/** Negative when `a` beats `b`: the order of `matchTaxDestinationRule`. */
function compareRules(a: TaxDestinationRule, b: TaxDestinationRule): number {
  if (a.priority !== b.priority) return a.priority > b.priority ? -1 : 1;
  const [aKind, aPrefix] = postcodeSpecificity(a.postcode);
  const [bKind, bPrefix] = postcodeSpecificity(b.postcode);
  if (aKind !== bKind) return bKind - aKind;
  if (aPrefix !== bPrefix) return bPrefix - aPrefix;
  const aState = a.state === null ? 0 : 1;
  const bState = b.state === null ? 0 : 1;
  if (aState !== bState) return bState - aState;
  // Code-unit order, not localeCompare: the same answer in every locale.
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The rule the checkout's tax calculation uses for `destination`, or null when none applies
 * (see `taxDestinationRuleMatches`). Among the matching rules the highest `priority` wins; on a
 * tie the more specific rule wins:
 *
 * 1. by postcode: single or list, then range, then prefix (the longer prefix first), then none;
 * 2. then a rule with a state over one without;
 * 3. then the smallest `id` (code-unit order).
 *
 * With unique ids the answer does not depend on the order of `rules`.
 */
export function matchTaxDestinationRule(
  rules: readonly TaxDestinationRule[],
  destination: TaxDestination,
  context: TaxRuleContext,
): TaxDestinationRule | null {
  let winner: TaxDestinationRule | null = null;
  for (const rule of rules) {
    if (!taxDestinationRuleMatches(rule, destination, context)) continue;
    if (winner === null || compareRules(rule, winner) < 0) winner = rule;
  }
  return winner;
}
