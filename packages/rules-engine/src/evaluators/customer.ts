import {
  dateMatches,
  idMatches,
  idSet,
  idsMatch,
  isNegativeOperator,
  lowerCaseList,
  numberMatches,
  parseInstant,
  textInListMatches,
  textMatches,
  unsupported,
} from '../compare.ts';
import { matchCustomField, prepareCustomField, readCustomField } from '../custom-field.ts';
import type { AddressFacts, CustomerFacts, Facts } from '../facts.ts';
import { type Evaluator, factsCondition, type Value } from './model.ts';

// Conditions of the customer and the selected addresses (group `customer`).
//
// Convention: `read` returns `undefined` when the condition's subject is missing (no customer, no
// address), so `test` can answer as the reference does for that case (mostly
// `isNegativeOperator`); `null` is a present subject without the value.

const DAY = 86_400_000;

/** The active billing address: the reference reaches it through the customer, so it needs one. */
function billingAddress(facts: Facts): AddressFacts | undefined {
  return facts.customer === null || facts.billingAddress === null ? undefined : facts.billingAddress;
}

/** The shipping location's address: it exists without a customer. */
function shippingAddress(facts: Facts): AddressFacts | undefined {
  return facts.shippingAddress ?? undefined;
}

function customerOf(facts: Facts): CustomerFacts | undefined {
  return facts.customer ?? undefined;
}

/** A Boolean parameter, or the reference's constructor default when it is missing or malformed. */
function flag(value: Value, key: string, fallback: boolean): boolean {
  const given = value[key];
  return typeof given === 'boolean' ? given : fallback;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** PHP's truthiness of an optional text: null, '' and '0' are false. */
function truthy(text: string | null | undefined): text is string {
  return text !== null && text !== undefined && text !== '' && text !== '0';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive whole-text pattern where `*` stands for any run of characters. */
function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*?')}$`, 'i');
}

// --- Text conditions (RuleComparison::string) -------------------------------------------------

interface PreparedText {
  readonly operator: unknown;
  readonly expected: unknown;
}

/** A text of the subject against the rule's text; a missing subject gives `isNegativeOperator`. */
function textCondition(key: string, read: (facts: Facts) => string | null | undefined): Evaluator {
  return factsCondition({
    prepare: (value): PreparedText => ({ operator: value.operator, expected: value[key] }),
    read,
    test: (actual, { operator, expected }) =>
      actual === undefined ? isNegativeOperator(operator) : textMatches(actual, operator, expected),
  });
}

/** As `textCondition`, but an empty code (PHP-falsy: null, '', '0') counts as a missing subject. */
function codeCondition(key: string, read: (facts: Facts) => string | null | undefined): Evaluator {
  return factsCondition({
    prepare: (value): PreparedText => ({ operator: value.operator, expected: value[key] }),
    read,
    test: (actual, { operator, expected }) =>
      truthy(actual) ? textMatches(actual, operator, expected) : isNegativeOperator(operator),
  });
}

// --- Id conditions (RuleComparison::uuids) ----------------------------------------------------

interface PreparedIds {
  readonly operator: unknown;
  readonly ids: ReadonlySet<string>;
}

/**
 * One id of the subject against the rule's ids. A missing subject or id is an empty list, which
 * `idMatches` answers as `isNegativeOperator` does (`=` false, `!=` and `empty` true).
 */
function idCondition(key: string, read: (facts: Facts) => string | null | undefined): Evaluator {
  return factsCondition({
    prepare: (value): PreparedIds => ({ operator: value.operator, ids: idSet(value[key]) }),
    read,
    test: (actual, { operator, ids }) => idMatches(actual, operator, ids),
  });
}

// --- Number conditions (RuleComparison::numeric) ----------------------------------------------

interface PreparedNumber {
  readonly operator: unknown;
  readonly expected: number | null;
}

/** A number of the subject; a missing customer or value gives `isNegativeOperator`. */
function numberCondition(key: string, read: (facts: Facts) => number | null | undefined): Evaluator {
  return factsCondition({
    prepare: (value): PreparedNumber => ({ operator: value.operator, expected: numberOf(value[key]) }),
    read,
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  });
}

/**
 * Whole calendar days (UTC) between a date at 00:00 and now at 00:00; like PHP's
 * `DateInterval::days`, the count is absolute (a date in the future counts too).
 */
function daysSince(date: string | null, now: string): number | null {
  const then = parseInstant(date);
  const at = parseInstant(now);
  if (then === null || at === null) return null;
  return Math.abs(Math.floor(at / DAY) - Math.floor(then / DAY));
}

function daysSinceCondition(date: (customer: CustomerFacts) => string | null): Evaluator {
  return numberCondition('daysPassed', (facts) =>
    facts.customer === null ? undefined : daysSince(date(facts.customer), facts.now),
  );
}

/** Full years between the birthday and now (`DateTime::diff()->y`), in UTC. */
function ageOf(birthday: string | null, now: string): number | null {
  const born = parseInstant(birthday);
  const at = parseInstant(now);
  if (born === null || at === null) return null;
  const earlier = new Date(Math.min(born, at));
  const later = new Date(Math.max(born, at));
  const years = later.getUTCFullYear() - earlier.getUTCFullYear();
  return sinceNewYear(later) < sinceNewYear(earlier) ? years - 1 : years;
}

/** A comparable position within the year: month, day, then time of day. */
function sinceNewYear(date: Date): number {
  const timeOfDay = date.getTime() - Math.floor(date.getTime() / DAY) * DAY;
  return (date.getUTCMonth() * 31 + date.getUTCDate()) * DAY + timeOfDay;
}

// --- Zip codes (ZipCodeRule) ------------------------------------------------------------------

interface PreparedZip {
  readonly operator: unknown;
  readonly patterns: readonly RegExp[];
  /** The first listed code as a number, when it is numeric. */
  readonly first: number | null;
}

const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** PHP's `is_numeric` for text and numbers. */
function numericValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' && NUMERIC.test(value) ? Number(value) : null;
}

function prepareZip(value: Value): PreparedZip {
  const codes = Array.isArray(value.zipCodes) ? value.zipCodes : [];
  return {
    operator: value.operator,
    patterns: codes.filter((code): code is string => typeof code === 'string').map(wildcard),
    first: numericValue(codes[0]),
  };
}

/**
 * The address zip code (trimmed): `=` matches any pattern, `!=` none, `empty` a blank code; the
 * ordering operators compare numerically with the first listed code, dashes removed from the
 * address code (Japanese codes), and never match when either is not numeric.
 */
function matchZip(actual: string | undefined, { operator, patterns, first }: PreparedZip): boolean {
  if (actual === undefined) return isNegativeOperator(operator);
  switch (operator) {
    case '=':
      return patterns.some((pattern) => pattern.test(actual));
    case '!=':
      return !patterns.some((pattern) => pattern.test(actual));
    case 'empty':
      return actual === '';
    case '>':
    case '>=':
    case '<':
    case '<=': {
      const zip = numericValue(actual.includes('-') ? actual.replaceAll('-', '') : actual);
      return zip !== null && first !== null && numberMatches(zip, operator, first);
    }
    default:
      return unsupported(operator);
  }
}

function zipCondition(address: (facts: Facts) => AddressFacts | undefined): Evaluator {
  return factsCondition({
    prepare: prepareZip,
    read: (facts) => {
      const found = address(facts);
      return found === undefined ? undefined : (found.zipcode ?? '').trim();
    },
    test: matchZip,
  });
}

// --- The conditions ---------------------------------------------------------------------------

export const CUSTOMER_EVALUATORS: Readonly<Record<string, Evaluator>> = {
  customerBillingCity: textCondition('cityName', (facts) => billingAddress(facts)?.city),
  customerBillingStreet: textCondition('streetName', (facts) => billingAddress(facts)?.street),
  customerShippingCity: textCondition('cityName', (facts) => shippingAddress(facts)?.city),
  customerShippingStreet: textCondition('streetName', (facts) => shippingAddress(facts)?.street),
  customerLastName: textCondition('lastName', (facts) => customerOf(facts)?.lastName),

  customerBillingCountry: idCondition('countryIds', (facts) => billingAddress(facts)?.countryId),
  customerShippingCountry: idCondition('countryIds', (facts) => shippingAddress(facts)?.countryId),
  customerBillingState: idCondition('stateIds', (facts) => billingAddress(facts)?.stateId),
  customerShippingState: idCondition('stateIds', (facts) => shippingAddress(facts)?.stateId),
  customerBillingZipCode: zipCondition(billingAddress),
  customerShippingZipCode: zipCondition(shippingAddress),

  customerAffiliateCode: codeCondition('affiliateCode', (facts) => customerOf(facts)?.affiliateCode),
  customerCampaignCode: codeCondition('campaignCode', (facts) => customerOf(facts)?.campaignCode),

  customerAge: numberCondition('age', (facts) =>
    facts.customer === null ? undefined : ageOf(facts.customer.birthday, facts.now),
  ),
  /** `empty`: the birthday is null; a missing birthday or rule value gives `isNegativeOperator`. */
  customerBirthday: factsCondition({
    prepare: (value) => ({ operator: value.operator, birthday: value.birthday ?? null }),
    read: (facts) => customerOf(facts)?.birthday,
    test: (actual, { operator, birthday }) => {
      if (actual === undefined) return isNegativeOperator(operator);
      if (operator === 'empty') return actual === null;
      if (actual === null || birthday === null) return isNegativeOperator(operator);
      return dateMatches(actual, operator, birthday, false);
    },
  }),
  customerCreatedByAdmin: factsCondition({
    prepare: (value) => flag(value, 'shouldCustomerBeCreatedByAdmin', true),
    read: (facts) => customerOf(facts)?.createdByAdmin,
    test: (actual, expected) => actual !== undefined && actual === expected,
  }),
  /** The custom fields are read whole: the field's name is only known to the prepared value. */
  customerCustomField: factsCondition({
    prepare: prepareCustomField,
    // The one field compared (traces show it); undefined without a customer.
    read: (facts, _item, prepared) => {
      const customer = customerOf(facts);
      return customer === undefined ? undefined : readCustomField(customer.customFields, prepared);
    },
    test: (actual, prepared, facts) => actual !== undefined && matchCustomField(actual, prepared, facts),
  }),
  customerCustomerGroup: idCondition('customerGroupIds', (facts) => facts.context.customerGroupId),
  customerRequestedGroup: idCondition('customerGroupIds', (facts) => customerOf(facts)?.requestedGroupId),
  customerLoggedIn: factsCondition({
    prepare: (value) => flag(value, 'isLoggedIn', false),
    read: (facts) => facts.customer !== null,
    test: (actual, expected) => actual === expected,
  }),
  customerCustomerNumber: factsCondition({
    prepare: (value) => ({ operator: value.operator, numbers: lowerCaseList(value.numbers) }),
    read: (facts) => customerOf(facts)?.number,
    test: (actual, { operator, numbers }) =>
      actual === undefined ? isNegativeOperator(operator) : textInListMatches(actual, operator, numbers),
  }),
  customerSalutation: idCondition('salutationIds', (facts) => customerOf(facts)?.salutationId),
  customerTag: factsCondition({
    prepare: (value): PreparedIds => ({ operator: value.operator, ids: idSet(value.identifiers) }),
    // No customer is an empty tag list: `isNegativeOperator` by `idsMatch`.
    read: (facts) => customerOf(facts)?.tagIds,
    test: (actual, { operator, ids }) => idsMatch(actual, operator, ids),
  }),

  customerDaysSinceFirstLogin: daysSinceCondition((customer) => customer.firstLogin),
  customerDaysSinceLastLogin: daysSinceCondition((customer) => customer.lastLogin),
  customerDaysSinceLastOrder: daysSinceCondition((customer) => customer.lastOrderDate),

  /** Whether the selected billing and shipping addresses differ; needs a customer and both. */
  customerDifferentAddresses: factsCondition({
    prepare: (value) => flag(value, 'isDifferent', true),
    read: (facts) =>
      facts.customer === null || facts.billingAddress === null || facts.shippingAddress === null
        ? undefined
        : facts.billingAddress.id !== facts.shippingAddress.id,
    test: (actual, expected) => actual !== undefined && actual === expected,
  }),
  /** With `*`, a case-insensitive wildcard match of the whole address; otherwise text equality. */
  customerEmail: factsCondition({
    prepare: (value) => ({
      operator: value.operator,
      email: value.email,
      pattern: typeof value.email === 'string' && value.email.includes('*') ? wildcard(value.email) : null,
    }),
    read: (facts) => customerOf(facts)?.email,
    test: (actual, { operator, email, pattern }) => {
      if (actual === undefined) return isNegativeOperator(operator);
      if (pattern === null) return textMatches(actual, operator, email);
      if (operator === '=') return pattern.test(actual ?? '');
      if (operator === '!=') return !pattern.test(actual ?? '');
      return unsupported(operator);
    },
  }),
  /** Strict: a customer whose `active` is unknown matches neither value. */
  customerIsActive: factsCondition({
    prepare: (value) => flag(value, 'isActive', false),
    read: (facts) => customerOf(facts)?.active,
    test: (actual, expected) => actual !== undefined && actual === expected,
  }),
  customerIsCompany: factsCondition({
    prepare: (value) => flag(value, 'isCompany', true),
    read: (facts) => customerOf(facts)?.company,
    test: (actual, expected) => actual !== undefined && truthy(actual) === expected,
  }),
  customerIsGuest: factsCondition({
    prepare: (value) => flag(value, 'isGuest', true),
    read: (facts) => customerOf(facts)?.guest,
    test: (actual, expected) => actual !== undefined && (actual === true) === expected,
  }),
  /** Whether the customer receives the newsletter of the current sales channel. */
  customerIsNewsletterRecipient: factsCondition({
    prepare: (value) => flag(value, 'isNewsletterRecipient', true),
    read: (facts) => {
      const channelId = facts.context.channelId;
      return facts.customer === null
        ? undefined
        : channelId !== null && facts.customer.newsletterChannelIds.includes(channelId);
    },
    test: (actual, expected) => actual !== undefined && actual === expected,
  }),

  numberOfReviews: numberCondition('count', (facts) => customerOf(facts)?.reviewCount),
  customerOrderCount: numberCondition('count', (facts) => customerOf(facts)?.orderCount),
  customerOrderTotalAmount: numberCondition('amount', (facts) => customerOf(facts)?.orderTotalAmount),
};
