// The channel tax page's data (no markup): the tax destination rules and the per-country tax rates
// of one channel with their provenance, how a posted form becomes the overrides
// `merchant.commerce.save` takes, and how the main channel's form of the shop's own rules becomes
// `basis.tax_rules.save|delete` calls (decision 0049). Rates are the channel form's (`channel-form.ts`: its rate fields,
// parsing and reset are reused); rules are a collection with additions (decisions 0020, 0022, 0047).

import type { TaxDestinationRule, TaxPostcodeCondition } from '@cartwright/commerce';
import {
  type ChannelRead,
  type FormChanges,
  formatRate,
  formChanges,
  overridesAfter,
  type Provenance,
  parseDecimal,
  type RateField,
  rateFieldsOf,
} from '../channel-form.ts';

/** The leaves of a tax destination rule, each inherited or overridden on its own. */
export const RULE_LEAVES = [
  'country',
  'state',
  'postcode',
  'validFrom',
  'validUntil',
  'priority',
  'ruleId',
  'taxClassId',
  'rate',
] as const;
export type RuleLeaf = (typeof RULE_LEAVES)[number];

/** A rule as the effective settings hold it (its id is its key): the commerce package's rule. */
export type TaxRule = Omit<TaxDestinationRule, 'id'>;

/** Where a rule comes from: the basis (inherited, overridden, removed) or the channel alone (added). */
export type RuleOrigin = Provenance | 'added';

export interface RuleRow {
  readonly id: string;
  /** Null for a removed rule: the effective settings no longer hold it. */
  readonly rule: TaxRule | null;
  readonly origin: RuleOrigin;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const rulesOf = (read: ChannelRead) => (read.effective.taxRules ?? {}) as Record<string, TaxRule>;
const ruleOverridesOf = (read: ChannelRead) =>
  (read.overrides.taxRules ?? {}) as Record<string, Partial<TaxRule> | null>;

/** A rule of the shop's shared basis as `basis.tax_rules.list` answers it. */
export interface BasisTaxRule extends TaxRule {
  readonly id: string;
  readonly revision: number;
}

/**
 * The channel's rules: the effective ones (inherited from the basis, overridden, or added by the
 * channel) and the basis rules it removed (`null` in its overrides). `basisIds` names the shop's
 * rules (decision 0049): any other effective rule is the channel's addition. Without it a rule
 * whose overrides hold every field counts as added.
 */
export function ruleRowsOf(read: ChannelRead, basisIds?: ReadonlySet<string>): RuleRow[] {
  const effective = rulesOf(read);
  const overrides = ruleOverridesOf(read);
  const rows: RuleRow[] = Object.keys(effective).map((id) => {
    const override = overrides[id];
    const provenance = read.provenance[`/taxRules/${id}`] ?? 'inherited';
    const added = basisIds
      ? !basisIds.has(id)
      : provenance === 'overridden' &&
        override !== null &&
        override !== undefined &&
        RULE_LEAVES.every((leaf) => Object.hasOwn(override, leaf));
    return { id, rule: effective[id]!, origin: added ? 'added' : provenance };
  });
  for (const [id, override] of Object.entries(overrides)) {
    if (override === null) rows.push({ id, rule: null, origin: 'removed' });
  }
  return rows.sort(
    (a, b) =>
      (a.rule?.country ?? '~').localeCompare(b.rule?.country ?? '~') ||
      (b.rule?.priority ?? 0) - (a.rule?.priority ?? 0) ||
      a.id.localeCompare(b.id),
  );
}

/** A UTC instant as the date input shows it (`2026-01-01`), or ''. */
export function dateOf(instant: string | null): string {
  return instant ? new Date(instant).toISOString().slice(0, 10) : '';
}

/**
 * A postcode condition as JSON with its keys in one order: a stored one comes back from jsonb
 * with its keys reordered (`{"to","from","kind"}`), and must still equal the same entry parsed.
 */
function postcodeJson(postcode: TaxPostcodeCondition): string {
  switch (postcode.kind) {
    case 'list':
      return JSON.stringify({ kind: postcode.kind, values: postcode.values });
    case 'range':
      return JSON.stringify({ kind: postcode.kind, from: postcode.from, to: postcode.to });
    default:
      return JSON.stringify({ kind: postcode.kind, value: postcode.value });
  }
}

/**
 * Each leaf of a rule as one comparable text (the `was:` of its fields and the stale save's
 * comparison): stored values exactly, so a field left alone is never rewritten.
 */
export function ruleTexts(rule: TaxRule): Record<RuleLeaf, string> {
  return {
    country: rule.country,
    state: rule.state ?? '',
    postcode: rule.postcode === null ? '' : postcodeJson(rule.postcode),
    validFrom: rule.validFrom ?? '',
    validUntil: rule.validUntil ?? '',
    priority: String(rule.priority),
    ruleId: rule.ruleId ?? '',
    taxClassId: rule.taxClassId ?? '',
    rate: String(rule.rate),
  };
}

/** A channel's country rates: every tax class's rates other than the default (the channel page edits that). */
export interface CountryRate extends RateField {
  /** Whether the shared basis has a rate for this class and country (removing it then stores null). */
  readonly inBasis: boolean;
}

/** The shared basis's tax classes as `basis.tax_classes.list` answers them. */
export interface BasisTaxClass {
  readonly id: string;
  readonly translations?: Record<string, { name?: string | null } | undefined>;
  readonly rates: readonly { readonly country: string | null; readonly rate: number }[];
}

export function countryRatesOf(read: ChannelRead, classes: readonly BasisTaxClass[]): CountryRate[] {
  return rateFieldsOf(read)
    .filter((field) => field.place !== 'default')
    .map((field) => ({
      ...field,
      inBasis: Boolean(
        classes.find((item) => item.id === field.classId)?.rates.some((rate) => rate.country === field.place),
      ),
    }));
}

/** What a posted tax form asks. */
export interface TaxChanges {
  /** Changed leaves per existing rule id. */
  readonly rules: ReadonlyMap<string, Partial<Record<RuleLeaf, unknown>>>;
  /** The new rule (its id, from the form), when its country was chosen. */
  readonly added: { readonly id: string; readonly rule: TaxRule } | null;
  /** The channel form's reading of the country rate fields (their edits and a rate's reset). */
  readonly rateForm: FormChanges;
  /** A country rate to add. */
  readonly addRate: { readonly classId: string; readonly country: string; readonly rate: number } | null;
  /** Entries that do not parse, by field name (`rule:<id>:<input>`, `rate:…`, `addRate:…`). */
  readonly invalid: readonly string[];
  /** `rule:<id>` or `taxRates.<class>.<country>`. */
  readonly reset: string | null;
  readonly remove: string | null;
}

const text = (body: Record<string, unknown>, name: string) => {
  const value = body[name];
  return typeof value === 'string' ? value.trim() : undefined;
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date input's value as the instant of that day's start in UTC, '' as null, else undefined. */
function instantOf(value: string): string | null | undefined {
  if (value === '') return null;
  const match = DATE.exec(value);
  if (!match) return undefined;
  const date = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value
    ? undefined
    : date.toISOString();
}

/**
 * One rule's inputs (`<prefix>:<id>:<input>`: `rule` in the channel's form, `shop` in the form of
 * the shop's rules) as its leaves. A leaf whose entry does not parse is
 * listed in `invalid` (by its input's name) and left out; the operation checks the rest (state of
 * the country, postcode syntax and ranges, the window, the rate's bounds).
 */
function ruleFromForm(
  body: Record<string, unknown>,
  prefix: string,
  id: string,
  locale: string,
  was: Record<RuleLeaf, string> | undefined,
  invalid: string[],
): Partial<Record<RuleLeaf, unknown>> {
  const name = (input: string) => `${prefix}:${id}:${input}`;
  const leaves: Partial<Record<RuleLeaf, unknown>> = {};
  const country = text(body, name('country'));
  if (country !== undefined) leaves.country = country;
  const state = text(body, name('state'));
  if (state !== undefined) leaves.state = state === '' ? null : state;
  const kind = text(body, name('postcodeKind'));
  if (kind !== undefined) {
    const value = text(body, name('postcode')) ?? '';
    if (kind === '') leaves.postcode = null;
    else if (kind === 'single' || kind === 'prefix') leaves.postcode = { kind, value };
    else if (kind === 'list') {
      leaves.postcode = {
        kind,
        values: value
          .split(/[,;\n]/)
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      };
    } else if (kind === 'range') {
      leaves.postcode = {
        kind,
        from: text(body, name('postcodeFrom')) ?? '',
        to: text(body, name('postcodeTo')) ?? '',
      };
    } else invalid.push(name('postcodeKind'));
  }
  for (const leaf of ['validFrom', 'validUntil'] as const) {
    const value = text(body, name(leaf));
    if (value === undefined) continue;
    // A day left as it was rendered keeps the stored instant (which may hold a time of day).
    if (was && dateOf(was[leaf] || null) === value) {
      leaves[leaf] = was[leaf] === '' ? null : was[leaf];
      continue;
    }
    const instant = instantOf(value);
    if (instant === undefined) invalid.push(name(leaf));
    else leaves[leaf] = instant;
  }
  const priority = text(body, name('priority'));
  if (priority !== undefined) {
    if (/^[+-]?\d{1,4}$/.test(priority)) leaves.priority = Number(priority);
    else invalid.push(name('priority'));
  }
  for (const leaf of ['ruleId', 'taxClassId'] as const) {
    const value = text(body, name(leaf));
    if (value === undefined) continue;
    if (value === '' || UUID.test(value)) leaves[leaf] = value === '' ? null : value;
    else invalid.push(name(leaf));
  }
  const rate = text(body, name('rate'));
  if (rate !== undefined) {
    const parsed = parseDecimal(rate, locale, 2);
    if (parsed === null) invalid.push(name('rate'));
    else leaves.rate = parsed;
  }
  return leaves;
}

/** A leaf's value as `ruleTexts` writes it (to compare a parsed entry with the rendered one). */
function leafText(leaf: RuleLeaf, value: unknown): string {
  if (value === null) return '';
  if (leaf === 'postcode') return postcodeJson(value as TaxPostcodeCondition);
  return String(value);
}

/**
 * The leaves of the rule `<prefix>:<id>` whose entry differs from the value the form was rendered
 * with (`was:<prefix>:<id>:<leaf>`), or null when none does (or the form did not render the rule).
 */
function editedLeaves(
  body: Record<string, unknown>,
  prefix: string,
  id: string,
  locale: string,
  invalid: string[],
): Partial<Record<RuleLeaf, unknown>> | null {
  const was = Object.fromEntries(
    RULE_LEAVES.map((leaf) => [leaf, text(body, `was:${prefix}:${id}:${leaf}`)]),
  ) as Record<RuleLeaf, string | undefined>;
  if (RULE_LEAVES.some((leaf) => was[leaf] === undefined)) return null;
  const complete = was as Record<RuleLeaf, string>;
  const leaves = ruleFromForm(body, prefix, id, locale, complete, invalid);
  const changed = Object.fromEntries(
    Object.entries(leaves).filter(
      ([leaf, value]) => leafText(leaf as RuleLeaf, value) !== complete[leaf as RuleLeaf],
    ),
  );
  return Object.keys(changed).length > 0 ? changed : null;
}

/**
 * The rule of the form's "add" inputs (`<prefix>:new:<input>`), under the id the form was
 * rendered with, when a country was chosen; a missing rate or a taken id is invalid.
 */
function newRuleOf(
  body: Record<string, unknown>,
  prefix: string,
  newId: string,
  taken: readonly string[],
  locale: string,
  invalid: string[],
): { readonly id: string; readonly rule: TaxRule } | null {
  if ((text(body, `${prefix}:new:country`) ?? '') === '') return null;
  const leaves = ruleFromForm(body, prefix, 'new', locale, undefined, invalid);
  if (!UUID.test(newId) || taken.includes(newId.toLowerCase())) {
    invalid.push(`${prefix}:new:country`);
    return null;
  }
  if ((text(body, `${prefix}:new:rate`) ?? '') === '' && !invalid.includes(`${prefix}:new:rate`)) {
    invalid.push(`${prefix}:new:rate`);
  }
  return {
    id: newId.toLowerCase(),
    rule: {
      country: String(leaves.country),
      state: (leaves.state ?? null) as string | null,
      postcode: (leaves.postcode ?? null) as TaxPostcodeCondition | null,
      validFrom: (leaves.validFrom ?? null) as string | null,
      validUntil: (leaves.validUntil ?? null) as string | null,
      priority: (leaves.priority ?? 0) as number,
      ruleId: (leaves.ruleId ?? null) as string | null,
      taxClassId: (leaves.taxClassId ?? null) as string | null,
      rate: (leaves.rate ?? 0) as number,
    },
  };
}

/**
 * The changes of a posted tax form: a rule's leaf or a rate counts as changed when it differs from
 * the value the form was rendered with (`was:`), so saving an untouched form writes nothing.
 */
export function taxChanges(
  body: Record<string, unknown>,
  read: ChannelRead,
  rates: readonly CountryRate[],
  locale: string,
): TaxChanges {
  const invalid: string[] = [];
  const rules = new Map<string, Partial<Record<RuleLeaf, unknown>>>();
  const rows = ruleRowsOf(read);
  for (const row of rows) {
    if (!row.rule) continue;
    const changed = editedLeaves(body, 'rule', row.id, locale, invalid);
    if (changed) rules.set(row.id, changed);
  }
  const added = newRuleOf(
    body,
    'rule',
    text(body, 'newRuleId') ?? '',
    rows.map((row) => row.id),
    locale,
    invalid,
  );
  // Country rates: the channel form's own reading of its rate fields (`rate:` against `was:`).
  const none = { key: 'deliveryCountries', countries: [], all: true, provenance: undefined } as const;
  const rateChanges = formChanges(body, [], none, locale, rates);
  invalid.push(...rateChanges.invalid);
  let addRate: TaxChanges['addRate'] = null;
  const addCountry = text(body, 'addRate:country') ?? '';
  if (addCountry !== '') {
    const classId = text(body, 'addRate:class') ?? '';
    const rate = parseDecimal(text(body, 'addRate:rate') ?? '', locale, 2);
    if (!UUID.test(classId)) invalid.push('addRate:class');
    if (rate === null) invalid.push('addRate:rate');
    if (UUID.test(classId) && rate !== null) addRate = { classId, country: addCountry, rate };
  }
  const reset = text(body, 'reset') ?? null;
  const remove = text(body, 'remove') ?? null;
  return { rules, added, rateForm: rateChanges, addRate, invalid, reset, remove };
}

function objectAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const found = parent[key];
  if (found !== null && typeof found === 'object' && !Array.isArray(found)) {
    return found as Record<string, unknown>;
  }
  const created: Record<string, unknown> = {};
  parent[key] = created;
  return created;
}

/**
 * The overrides after the form's changes: rates through the channel form's `overridesAfter` (its
 * edits and resets), then the rules (changed leaves overridden one by one; a new rule added whole
 * under its new id; a removed added rule deleted, a removed basis rule `null`; a reset deletes the
 * channel's override of that rule) and the added or removed country rates (a basis rate removed
 * is `null`, so the default applies; one the channel added is deleted).
 */
export function taxOverridesAfter(
  read: ChannelRead,
  changes: TaxChanges,
  rates: readonly CountryRate[],
  basisIds?: ReadonlySet<string>,
): Record<string, unknown> {
  const overrides = overridesAfter(read, changes.rateForm);
  const rows = ruleRowsOf(read, basisIds);
  for (const [id, leaves] of changes.rules) {
    Object.assign(objectAt(objectAt(overrides, 'taxRules'), id), leaves);
  }
  if (changes.added) objectAt(overrides, 'taxRules')[changes.added.id] = { ...changes.added.rule };
  const ruleId = (key: string | null) => (key?.startsWith('rule:') ? key.slice('rule:'.length) : null);
  const resetRule = ruleId(changes.reset);
  const removeRule = ruleId(changes.remove);
  const ruleOverrides = () => objectAt(overrides, 'taxRules');
  if (resetRule && rows.some((row) => row.id === resetRule)) delete ruleOverrides()[resetRule];
  const removed = rows.find((row) => row.id === removeRule && row.rule !== null);
  if (removed) {
    if (removed.origin === 'added') delete ruleOverrides()[removed.id];
    else ruleOverrides()[removed.id] = null;
  }
  if (changes.addRate) {
    const { classId, country, rate } = changes.addRate;
    objectAt(objectAt(objectAt(overrides, 'taxRates'), classId), 'rates')[country] = rate;
  }
  const removedRate = rates.find((rate) => rate.key === changes.remove && rate.value !== null);
  if (removedRate) {
    const classRates = objectAt(objectAt(objectAt(overrides, 'taxRates'), removedRate.classId), 'rates');
    if (removedRate.inBasis) classRates[removedRate.place] = null;
    else delete classRates[removedRate.place];
  }
  // Leave no empty objects behind (the operation stores the overrides normalized anyway).
  for (const area of ['taxRules', 'taxRates'] as const) {
    const entries = overrides[area] as Record<string, unknown> | undefined;
    if (area === 'taxRates' && entries) {
      for (const [classId, entry] of Object.entries(entries)) {
        const classRates = (entry as { rates?: Record<string, unknown> } | null)?.rates;
        if (classRates && Object.keys(classRates).length === 0) delete (entry as { rates?: unknown }).rates;
        if (entry && typeof entry === 'object' && Object.keys(entry).length === 0) delete entries[classId];
      }
    }
    if (entries && Object.keys(entries).length === 0) delete overrides[area];
  }
  return overrides;
}

/**
 * Every rule leaf and country rate with the value it is rendered with, as its `was:` carries it
 * (the stale save compares them with `changedFields`).
 */
export function taxRenderedValues(
  rows: readonly RuleRow[],
  rates: readonly CountryRate[],
): Map<string, string> {
  const values = new Map<string, string>();
  for (const row of rows) {
    if (!row.rule) continue;
    for (const [leaf, value] of Object.entries(ruleTexts(row.rule)))
      values.set(`rule:${row.id}:${leaf}`, value);
  }
  for (const rate of rates) values.set(rate.key, String(rate.value));
  return values;
}

/** What a posted form of the shop's rules asks: whole rules to save, or one to delete. */
export interface ShopRuleChanges {
  /** Each edited rule whole (stored leaves with the edited ones), and the new rule at revision 0. */
  readonly saves: readonly { readonly id: string; readonly revision: number; readonly rule: TaxRule }[];
  /** The new rule's id, when the form adds one. */
  readonly addedId: string | null;
  readonly remove: { readonly id: string; readonly revision: number } | null;
  readonly invalid: readonly string[];
}

/** A stored rule's leaves, without its id, revision and timestamps. */
const fieldsOfRule = (stored: BasisTaxRule): TaxRule =>
  Object.fromEntries(RULE_LEAVES.map((leaf) => [leaf, stored[leaf]])) as unknown as TaxRule;

/**
 * The changes of a posted form of the shop's rules (`shop:<id>:<input>`, `was:shop:…`,
 * `shop:<id>:revision`, `newShopRuleId`, `remove` as `<id>:<revision>`): an edited rule is saved
 * whole at the revision the form was rendered with, so someone else's save in between is stale.
 */
export function shopRuleChanges(
  body: Record<string, unknown>,
  rules: readonly BasisTaxRule[],
  locale: string,
): ShopRuleChanges {
  const invalid: string[] = [];
  const removal = /^([0-9a-f-]{36}):(\d{1,9})$/i.exec(text(body, 'remove') ?? '');
  if (removal && UUID.test(removal[1]!)) {
    return {
      saves: [],
      addedId: null,
      remove: { id: removal[1]!.toLowerCase(), revision: Number(removal[2]) },
      invalid,
    };
  }
  const saves: { id: string; revision: number; rule: TaxRule }[] = [];
  for (const stored of rules) {
    const changed = editedLeaves(body, 'shop', stored.id, locale, invalid);
    const revision = Number(text(body, `shop:${stored.id}:revision`));
    if (changed && Number.isInteger(revision)) {
      saves.push({ id: stored.id, revision, rule: { ...fieldsOfRule(stored), ...changed } as TaxRule });
    }
  }
  const added = newRuleOf(
    body,
    'shop',
    text(body, 'newShopRuleId') ?? '',
    rules.map((rule) => rule.id),
    locale,
    invalid,
  );
  if (added) saves.push({ id: added.id, revision: 0, rule: added.rule });
  return { saves, addedId: added?.id ?? null, remove: null, invalid };
}

/** The field of the shop's rules form a `basis.tax_rules.save` error pointer names (`/state` → `shop:<id>:state`). */
export function shopFieldOfPointer(pointer: string, id: string, addedId: string | null): string | null {
  const leaf = /^\/([A-Za-z]+)/.exec(pointer)?.[1];
  if (!leaf || !(RULE_LEAVES as readonly string[]).includes(leaf)) return null;
  return `shop:${id === addedId ? 'new' : id}:${leaf === 'postcode' ? 'postcodeKind' : leaf}`;
}

/** The form field an operation's error pointer names (`/overrides/taxRules/<id>/state` → `rule:<id>:state`). */
export function fieldOfPointer(pointer: string, newRuleId: string | null): string | null {
  const rule = /^\/overrides\/taxRules\/([^/]+)\/([A-Za-z]+)/.exec(pointer);
  if (rule) {
    const id = rule[1] === newRuleId ? 'new' : rule[1]!;
    const leaf = rule[2] === 'postcode' ? 'postcodeKind' : rule[2]!;
    return `rule:${id}:${leaf}`;
  }
  const rate = /^\/overrides\/taxRates\/([^/]+)\/rates\/([^/]+)$/.exec(pointer);
  if (rate) return `rate:taxRates.${rate[1]}.${rate[2]}`;
  return null;
}

/** A rate for the page's texts ("19 %"), as the UI language writes it. */
export function percent(rate: number, locale: string): string {
  return `${formatRate(rate, locale)} %`;
}
