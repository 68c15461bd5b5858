import { validateTaxDestinationRule } from '@cartwright/commerce';
import {
  type ChannelRow,
  countChannelUses,
  deleteChannel,
  deleteChannelGrants,
  type Executor,
  findCategoryIds,
  findChannel,
  findDefinitions,
  findReferences,
  findTenant,
  insertChannel,
  updateChannelAtRevision,
} from '@cartwright/repository';
import {
  CHANNEL_SETTINGS_SHAPE,
  type JsonObject,
  normalizeOverrides,
  type OverrideIssue,
  type ResolvedSettings,
  resolveSettings,
  validateOverrides,
} from '@cartwright/settings-inheritance';
import * as v from 'valibot';
import { TranslatedName } from '../flows/definition.ts';
import { actorOf, issueChannelKey } from '../kernel/auth.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { fieldErrors, type OperationContext } from '../kernel/registry.ts';
import {
  Amount,
  CurrencyCode,
  INT32,
  iso,
  LanguageCode,
  Revision,
  Timestamp,
  Uuid,
} from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import {
  type LanguageUse,
  languageParameter,
  refuseDisabledLanguages,
  translationLanguages,
} from '../settings/languages.ts';
import {
  basisRevision,
  ChannelIdentity,
  type ChannelSettings,
  channelSettings,
  inContentLanguage,
  overridesOf,
  settingsBasis,
} from './settings.ts';

// Sales channels as merchants configure them: the channel's own fields (languages, domains,
// catalog, navigation, mode, paused/private) and its sparse overrides of the shop's shared
// settings, read and written in one content language. A save is bound to the channel's
// `revision` and to the shop's `baseRevision` (decision 0023). The channel operations and the
// automation kind `channels` both call these functions.

const CountryCode = v.pipe(
  v.string(),
  v.maxLength(2, 'expected an ISO 3166-1 alpha-2 code such as DE'),
  v.regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 code such as DE'),
);

const Domain = v.strictObject({
  url: v.pipe(v.string(), v.maxLength(2000), v.url('expected an absolute URL such as https://shop.example')),
  language: LanguageCode,
  currency: CurrencyCode,
});

/** The channel's own fields. The main channel's languages are the shop's: it sets none. */
const ChannelFields = v.strictObject({
  name: TranslatedName,
  mode: v.picklist(['storefront', 'headless']),
  paused: v.boolean(),
  private: v.boolean(),
  languages: v.optional(v.pipe(v.array(LanguageCode), v.minLength(1), v.maxLength(20))),
  domains: v.optional(v.pipe(v.array(Domain), v.maxLength(20)), []),
  catalog: v.optional(
    v.nullable(v.strictObject({ categoryIds: v.pipe(v.array(Uuid), v.maxLength(100)) })),
    null,
  ),
  navigation: v.optional(v.nullable(v.strictObject({ rootCategoryId: v.nullable(Uuid) })), null),
});
type ChannelFields = v.InferOutput<typeof ChannelFields>;

const Text = v.nullable(v.pipe(v.string(), v.maxLength(2000)));
const Texts = v.record(LanguageCode, v.record(v.string(), Text));
const Rate = v.pipe(
  v.number(),
  v.integer('expected hundredths of a percent (19 % = 1900)'),
  v.minValue(0),
  v.maxValue(10_000),
);
/** One company value: a text, or nothing (null: removed in this channel). */
const CompanyText = v.optional(Text);
const Company = v.object({
  name: CompanyText,
  legal: v.optional(
    v.object({
      companyName: CompanyText,
      legalForm: CompanyText,
      vatId: CompanyText,
      taxNumber: CompanyText,
      registrationNumber: CompanyText,
      registrationCourt: CompanyText,
      managingDirectors: v.optional(
        v.nullable(
          v.pipe(
            v.array(v.pipe(v.string(), v.maxLength(200, 'at most 200 characters a name'))),
            v.maxLength(20, 'at most 20 managing directors'),
          ),
        ),
      ),
      legalNotice: CompanyText,
    }),
  ),
  contact: v.optional(
    v.object({
      email: CompanyText,
      phone: CompanyText,
      website: CompanyText,
      // The address is one value (a street without its city means nothing).
      address: v.optional(v.nullable(v.record(v.string(), Text))),
    }),
  ),
  bank: v.optional(v.object({ bankName: CompanyText, iban: CompanyText, bic: CompanyText })),
  logos: v.optional(v.object({ light: CompanyText, dark: CompanyText })),
});
const Postcode = v.variant('kind', [
  v.strictObject({ kind: v.literal('single'), value: v.pipe(v.string(), v.minLength(1), v.maxLength(20)) }),
  v.strictObject({
    kind: v.literal('list'),
    values: v.pipe(
      v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(20))),
      v.minLength(1),
      v.maxLength(500),
    ),
  }),
  v.strictObject({ kind: v.literal('prefix'), value: v.pipe(v.string(), v.minLength(1), v.maxLength(20)) }),
  v.strictObject({
    kind: v.literal('range'),
    from: v.pipe(v.string(), v.minLength(1), v.maxLength(20)),
    to: v.pipe(v.string(), v.minLength(1), v.maxLength(20)),
  }),
]);

/**
 * The fields of a tax destination rule, as a channel's effective settings hold it and as the
 * shop's basis saves it (`basis.tax_rules.save`).
 */
export const TaxRuleFields = {
  country: CountryCode,
  state: v.nullable(
    v.pipe(
      v.string(),
      v.maxLength(6, 'expected an ISO 3166-2 code such as DE-BY'),
      v.regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'expected an ISO 3166-2 code such as DE-BY'),
    ),
  ),
  postcode: v.nullable(Postcode),
  validFrom: v.nullable(Timestamp),
  validUntil: v.nullable(Timestamp),
  priority: v.pipe(v.number(), v.integer(), v.minValue(-1000), v.maxValue(1000)),
  ruleId: v.nullable(Uuid),
  taxClassId: v.nullable(Uuid),
  rate: Rate,
};
type TaxRule = v.InferOutput<v.ObjectSchema<typeof TaxRuleFields, undefined>>;

/** The basis countries as the settings document holds them: code → subdivisions. */
type BasisCountries = Readonly<Record<string, { readonly subdivisions?: readonly { code: string }[] }>>;

/**
 * Why a tax destination rule cannot be saved, its errors under `pointer`: what
 * `validateTaxDestinationRule` finds (postcode forms, date window, rate), a country the basis
 * lacks, a state that is not one of the country's subdivisions. Null: it can.
 */
export function taxRuleFailure(
  countries: BasisCountries,
  id: string,
  rule: TaxRule,
  pointer: string,
): Failure | null {
  const [issue] = validateTaxDestinationRule({ ...rule, id });
  if (issue) {
    return fail('VALIDATION_FAILED', issue.message, {
      errors: [{ pointer: `${pointer}${issue.pointer}`, message: issue.message }],
    });
  }
  const country = Object.hasOwn(countries, rule.country) ? countries[rule.country] : undefined;
  if (!country) {
    return fail(
      'VALIDATION_FAILED',
      `The tax rule's country ${rule.country} is not set up in the shared basis.`,
      {
        errors: [{ pointer: `${pointer}/country`, message: 'unknown country' }],
      },
    );
  }
  if (
    rule.state !== null &&
    !(country.subdivisions ?? []).some((subdivision) => subdivision.code === rule.state)
  ) {
    return fail('VALIDATION_FAILED', `${rule.state} is not a subdivision of ${rule.country}.`, {
      errors: [{ pointer: `${pointer}/state`, message: 'unknown state of the country' }],
    });
  }
  return null;
}

/**
 * Refuses a catalog or navigation naming a category the shop does not have. The categories found
 * are held FOR SHARE until the save commits: a category delete waits, then sees the channel.
 */
async function unknownCategories(
  tx: Executor,
  tenantId: string,
  channel: ChannelFields,
): Promise<Failure | null> {
  const named = [
    ...(channel.catalog?.categoryIds ?? []).map((id, index) => ({
      id,
      pointer: `/channel/catalog/categoryIds/${index}`,
    })),
    ...(channel.navigation?.rootCategoryId
      ? [{ id: channel.navigation.rootCategoryId, pointer: '/channel/navigation/rootCategoryId' }]
      : []),
  ];
  if (named.length === 0) return null;
  const found = new Set(
    await findCategoryIds(tx, tenantId, [...new Set(named.map((use) => use.id))].sort(), 'share'),
  );
  const missing = named.filter((use) => !found.has(use.id));
  if (missing.length === 0) return null;
  return fail('VALIDATION_FAILED', 'The channel names a category this shop does not have.', {
    errors: missing.map((use) => ({ pointer: use.pointer, message: 'unknown category' })),
  });
}

/**
 * Refuses tax rules whose saved rule condition (`ruleId`) is not a saved rule of the shop. The
 * rules found are held FOR SHARE until the transaction ends: a rule delete waits, then sees the use.
 */
export async function unknownSavedRules(
  tx: Executor,
  tenantId: string,
  rules: readonly { readonly pointer: string; readonly ruleId: string | null }[],
): Promise<Failure | null> {
  const named = [...new Set(rules.flatMap((rule) => (rule.ruleId ? [rule.ruleId] : [])))].sort();
  if (named.length === 0) return null;
  const found = new Set((await findDefinitions(tx, tenantId, 'rule', named, 'share')).map((row) => row.id));
  const missing = rules.filter((rule) => rule.ruleId !== null && !found.has(rule.ruleId));
  if (missing.length === 0) return null;
  return fail('VALIDATION_FAILED', 'A tax rule names a saved rule this shop does not have.', {
    errors: missing.map((rule) => ({ pointer: `${rule.pointer}/ruleId`, message: 'unknown saved rule' })),
  });
}

/**
 * The value types of the effective settings. The structure (which fields exist, which are shared
 * basis only, which ids a channel may name) is `@cartwright/settings-inheritance`'s; this checks
 * what the values are, so an override can never make the effective settings ill-typed.
 */
const EffectiveValues = v.object({
  company: v.nullable(Company),
  deliveryCountries: v.nullable(v.pipe(v.array(CountryCode), v.maxLength(250))),
  shippingMethods: v.record(
    v.string(),
    v.object({
      active: v.boolean(),
      translations: Texts,
      prices: v.array(v.object({ currency: CurrencyCode, gross: Amount, net: Amount })),
      position: v.pipe(v.number(), v.integer()),
      taxClassId: v.nullable(Uuid),
    }),
  ),
  paymentMethods: v.record(
    v.string(),
    v.object({ active: v.boolean(), translations: Texts, position: v.pipe(v.number(), v.integer()) }),
  ),
  taxRates: v.record(v.string(), v.object({ rates: v.record(v.string(), v.nullable(Rate)) })),
  taxLabels: v.record(v.string(), v.object({ translations: v.record(LanguageCode, Text) })),
  taxRules: v.record(Uuid, v.strictObject(TaxRuleFields)),
});

const Overrides = v.record(v.pipe(v.string(), v.maxLength(100)), v.unknown());

export const ChannelView = v.object({
  ...ChannelIdentity,
  /** The basis revision the channel's overrides were last saved against. */
  savedAgainstBaseRevision: v.number(),
  language: v.string(),
  mainLanguage: v.string(),
  channel: v.record(v.string(), v.unknown()),
  overrides: Overrides,
  effective: v.record(v.string(), v.unknown()),
  provenance: v.record(v.string(), v.picklist(['inherited', 'overridden', 'removed'])),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/**
 * The channel's own fields as stored (no overrides): the main channel shows the shop's active
 * languages, as its effective settings hold them.
 */
function channelFieldsOf(row: ChannelRow, effective: JsonObject): Record<string, unknown> {
  const { overrides: _, ...fields } = row.data as Record<string, unknown>;
  if (!row.isMain) return fields;
  const languages = (effective.languages ?? {}) as Record<string, { active?: boolean }>;
  return {
    ...fields,
    languages: Object.keys(languages).filter((code) => languages[code]?.active === true),
  };
}

async function view(
  tx: Executor,
  tenantId: string,
  row: ChannelRow,
  settings: ChannelSettings,
  language: string | undefined,
): Promise<v.InferOutput<typeof ChannelView>> {
  const tenant = await findTenant(tx, tenantId);
  const mainLanguage = tenant?.mainLanguage ?? 'en';
  const content = language ?? mainLanguage;
  return {
    id: row.id,
    key: row.key,
    isMain: row.isMain,
    accessKey: row.accessKey,
    revision: row.revision,
    baseRevision: settings.basisRevision,
    savedAgainstBaseRevision: row.baseRevision,
    language: content,
    mainLanguage,
    channel: channelFieldsOf(row, settings.effective),
    overrides: normalizeOverrides(CHANNEL_SETTINGS_SHAPE, overridesOf(row)),
    effective: inContentLanguage(settings.effective, content, mainLanguage),
    provenance: settings.provenance,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * Every language a save names, each with its pointer: the content language, the channel's
 * languages and its domains' languages, and the keys of native translations in the overrides.
 */
function languagesOfSave(input: {
  language?: string | undefined;
  channel: ChannelFields;
  overrides: Record<string, unknown>;
}): LanguageUse[] {
  const uses = languageParameter(input.language);
  for (const [index, language] of (input.channel.languages ?? []).entries()) {
    uses.push({ pointer: `/channel/languages/${index}`, language });
  }
  for (const [index, domain] of input.channel.domains.entries()) {
    uses.push({ pointer: `/channel/domains/${index}/language`, language: domain.language });
  }
  for (const area of ['shippingMethods', 'paymentMethods', 'taxLabels'] as const) {
    const entries = input.overrides[area];
    if (entries === null || typeof entries !== 'object') continue;
    for (const [id, entry] of Object.entries(entries)) {
      const translations = (entry as { translations?: unknown } | null)?.translations;
      uses.push(...translationLanguages(translations, ['overrides', area, id, 'translations']));
    }
  }
  return uses;
}

/** A method's texts as a form in one content language writes them. */
const ContentTexts = v.strictObject({ name: v.optional(Text), description: v.optional(Text) });

/**
 * Writes the content-language conveniences into the native overrides: a method entry's `texts`
 * becomes `translations.<language>`, a tax label entry's `label` becomes `translations.<language>`.
 */
function withContentLanguage(overrides: JsonObject, language: string | undefined): Result<JsonObject> {
  const next: Record<string, unknown> = { ...overrides };
  for (const area of ['shippingMethods', 'paymentMethods', 'taxLabels'] as const) {
    const entries = next[area];
    if (entries === null || typeof entries !== 'object' || Array.isArray(entries)) continue;
    const rewritten: Record<string, unknown> = {};
    for (const [id, entry] of Object.entries(entries as Record<string, unknown>)) {
      const field = area === 'taxLabels' ? 'label' : 'texts';
      if (entry === null || typeof entry !== 'object' || !Object.hasOwn(entry, field)) {
        rewritten[id] = entry;
        continue;
      }
      const pointer = `/overrides/${area}/${id}/${field}`;
      if (language === undefined) {
        return fail('VALIDATION_FAILED', `${field} needs the content language it is written in.`, {
          errors: [{ pointer, message: 'send `language` with the save' }],
        });
      }
      const { [field]: written, ...rest } = entry as Record<string, unknown>;
      const translations = { ...((rest.translations ?? {}) as Record<string, unknown>) };
      if (area === 'taxLabels') {
        const label = v.safeParse(Text, written);
        if (!label.success)
          return fail('VALIDATION_FAILED', 'A tax label is text or null.', {
            errors: [{ pointer, message: label.issues[0].message }],
          });
        translations[language] = label.output;
      } else {
        const texts = v.safeParse(ContentTexts, written);
        if (!texts.success)
          return fail('VALIDATION_FAILED', 'Texts are a name and a description.', {
            errors: [{ pointer, message: texts.issues[0].message }],
          });
        translations[language] = { ...((translations[language] ?? {}) as object), ...texts.output };
      }
      rewritten[id] = { ...rest, translations };
    }
    next[area] = rewritten;
  }
  return ok(next as JsonObject);
}

function overrideErrors(issues: readonly OverrideIssue[]) {
  return issues.map((issue) => ({
    pointer: `/overrides${issue.pointer}`,
    message: `${issue.code}: ${issue.message}`,
  }));
}

/** Checks the overrides against the basis; answers the normalized overrides and effective settings. */
function checkOverrides(
  basis: JsonObject,
  overrides: JsonObject,
): Result<{ overrides: JsonObject; resolved: ResolvedSettings }> {
  const issues = validateOverrides(CHANNEL_SETTINGS_SHAPE, basis, overrides);
  const errors = overrideErrors(issues);
  const basisOnly = issues.find((issue) => issue.code === 'BASIS_ONLY');
  if (basisOnly) {
    return fail(
      'SETTING_BASIS_ONLY',
      `${basisOnly.pointer} is part of the shared basis; change it there, not per channel.`,
      { errors },
    );
  }
  if (issues.length > 0) return fail('VALIDATION_FAILED', issues[0]!.message, { errors });
  const resolution = resolveSettings(CHANNEL_SETTINGS_SHAPE, basis, overrides);
  if (!resolution.ok) {
    return fail('VALIDATION_FAILED', resolution.issues[0]!.message, {
      errors: overrideErrors(resolution.issues),
    });
  }
  const resolved = resolution.value;
  const { effective } = resolved;
  const typed = v.safeParse(EffectiveValues, effective);
  if (!typed.success) {
    const found = fieldErrors(typed.issues).map((error) => ({
      ...error,
      pointer: `/overrides${error.pointer}`,
    }));
    return fail('VALIDATION_FAILED', found[0]!.message, { errors: found });
  }
  const delivery = (typed.output.deliveryCountries ?? []).findIndex(
    (code) => !Object.hasOwn((basis.countries ?? {}) as object, code),
  );
  if (delivery >= 0) {
    return fail('VALIDATION_FAILED', 'A delivery country must be set up in the shared basis.', {
      errors: [{ pointer: `/overrides/deliveryCountries/${delivery}`, message: 'unknown country' }],
    });
  }
  const countries = (basis.countries ?? {}) as BasisCountries;
  for (const [id, rule] of Object.entries(typed.output.taxRules)) {
    const refused = taxRuleFailure(countries, id, rule, `/overrides/taxRules/${id}`);
    if (refused) return refused;
  }
  return ok({ overrides: normalizeOverrides(CHANNEL_SETTINGS_SHAPE, overrides), resolved });
}

function stale(field: 'revision' | 'baseRevision', expected: number, actual: number): Failure {
  const what = field === 'revision' ? 'The channel' : 'The shared basis';
  return fail(
    'STALE_REVISION',
    `${what} is at revision ${actual}, not ${expected} (${field}): reload and retry.`,
    {
      extensions: { field, expected, actual },
    },
  );
}

/** The body of a channel save (the merchant endpoint's and `PUT /api/automation/channels/{id}`'s). */
export const ChannelSaveBody = {
  revision: Revision,
  baseRevision: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(INT32.max)),
  language: v.optional(LanguageCode),
  channel: ChannelFields,
  overrides: v.optional(Overrides, {}),
};

/** Saves a channel (the one implementation behind both channel save endpoints). */
export function saveSalesChannel(
  { services, tenantId, principal }: OperationContext,
  input: Parameters<typeof save>[4],
): Promise<Result<v.InferOutput<typeof ChannelView>>> {
  return services.database.transaction((tx) => save(tx, services, tenantId, actorOf(principal), input));
}

async function save(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: ReturnType<typeof actorOf>,
  input: {
    channelId: string;
    revision: number;
    baseRevision: number;
    language?: string | undefined;
    channel: ChannelFields;
    overrides: Record<string, unknown>;
  },
): Promise<Result<v.InferOutput<typeof ChannelView>>> {
  const current = await findChannel(tx, tenantId, input.channelId, 'update');
  const actual = current?.revision ?? 0;
  if (actual !== input.revision) return stale('revision', input.revision, actual);
  // Held FOR SHARE until the save commits: a basis write waits, so the check stays true.
  const base = await basisRevision(tx, tenantId, 'share');
  if (base !== input.baseRevision) return stale('baseRevision', input.baseRevision, base);
  if (current?.isMain && input.channel.languages !== undefined) {
    return fail(
      'VALIDATION_FAILED',
      'The main channel uses the shop’s languages; it chooses none of its own.',
      {
        errors: [{ pointer: '/channel/languages', message: 'not allowed on the main channel' }],
      },
    );
  }
  if (!current?.isMain && input.channel.languages === undefined) {
    return fail('VALIDATION_FAILED', 'An additional channel chooses its languages.', {
      errors: [{ pointer: '/channel/languages', message: 'required' }],
    });
  }
  const refused = await refuseDisabledLanguages(tx, { tenantId }, languagesOfSave(input));
  if (refused) return refused;
  const unknownCategory = await unknownCategories(tx, tenantId, input.channel);
  if (unknownCategory) return unknownCategory;
  const basis = await settingsBasis(tx, tenantId);
  const written = withContentLanguage(input.overrides as JsonObject, input.language);
  if (!written.ok) return written;
  const checked = checkOverrides(basis, written.value);
  if (!checked.ok) return checked;
  const rules = (checked.value.resolved.effective.taxRules ?? {}) as Record<
    string,
    { ruleId: string | null }
  >;
  const unknownRule = await unknownSavedRules(
    tx,
    tenantId,
    Object.entries(rules).map(([id, rule]) => ({
      pointer: `/overrides/taxRules/${id}`,
      ruleId: rule.ruleId,
    })),
  );
  if (unknownRule) return unknownRule;
  const data = { ...input.channel, overrides: checked.value.overrides };
  const now = services.clock.now();
  const row = current
    ? await updateChannelAtRevision(tx, tenantId, input.channelId, input.revision, {
        data,
        baseRevision: base,
        now,
      })
    : await insertChannel(tx, {
        tenantId,
        id: input.channelId,
        isMain: false,
        accessKey: issueChannelKey(tenantId),
        revision: 1,
        baseRevision: base,
        data,
        createdAt: now,
        updatedAt: now,
      });
  if (!row) throw new Error('channel row changed while locked');
  await recordEvent(tx, services, tenantId, actor, 'channel.saved', {
    channelId: row.id,
    revision: row.revision,
  });
  const settings = { basisRevision: base, ...checked.value.resolved };
  return ok(await view(tx, tenantId, row, settings, input.language));
}

export const DeletedChannel = v.object({ channelId: Uuid, deleted: v.literal(true) });

/**
 * What keeps a channel from being deleted: its customers, carts, orders and products with a
 * visibility for it (counts), its overrides (fields), and rules, flows and promotions that name
 * it anywhere in their JSON (the one reference search every delete runs): they would silently
 * stop matching without it.
 */
export async function channelBlockers(tx: Executor, tenantId: string, channel: ChannelRow) {
  const uses = await countChannelUses(tx, tenantId, channel.id);
  const overrides = Object.keys(normalizeOverrides(CHANNEL_SETTINGS_SHAPE, overridesOf(channel))).sort();
  const named = (await findReferences(tx, tenantId, channel.id)).filter(
    (reference) => reference.kind === 'rule' || reference.kind === 'flow' || reference.kind === 'promotion',
  );
  return [
    ...(['customers', 'carts', 'orders'] as const).flatMap((kind) =>
      uses[kind] > 0 ? [{ kind, count: uses[kind] }] : [],
    ),
    // Products that set a visibility for the channel would silently lose it (decision 0030).
    ...(uses.productVisibilities > 0
      ? [{ kind: 'product_visibility', count: uses.productVisibilities }]
      : []),
    ...(overrides.length > 0 ? [{ kind: 'overrides', count: overrides.length, fields: overrides }] : []),
    ...(named.length > 0 ? [{ kind: 'definitions', count: named.length, references: named }] : []),
  ];
}

/** Deletes a channel at its revision (the one implementation behind both channel delete endpoints). */
export function deleteChannelAt(
  { services, tenantId, principal }: OperationContext,
  input: { channelId: string; revision: number },
): Promise<Result<v.InferOutput<typeof DeletedChannel>>> {
  return services.database.transaction(async (tx) => {
    const current = await findChannel(tx, tenantId, input.channelId, 'update');
    if (!current) return fail('NOT_FOUND', `No channel ${input.channelId} exists in this shop.`);
    if (current.revision !== input.revision) return stale('revision', input.revision, current.revision);
    if (current.isMain) {
      return fail('MAIN_CHANNEL', 'The main channel cannot be deleted; pause it or make it private instead.');
    }
    const blockers = await channelBlockers(tx, tenantId, current);
    if (blockers.length > 0) {
      return fail(
        'CHANNEL_IN_USE',
        'The channel is still in use; deactivate it (pause or make it private) instead.',
        {
          extensions: { blockers },
        },
      );
    }
    // Its access grants go with it: a channel saved again under this id starts without any.
    await deleteChannelGrants(tx, tenantId, input.channelId);
    await deleteChannel(tx, tenantId, input.channelId);
    await recordEvent(tx, services, tenantId, actorOf(principal), 'channel.deleted', {
      channelId: input.channelId,
    });
    return ok({ channelId: input.channelId, deleted: true as const });
  });
}

/** A channel as the merchant reads it, in one content language (both channel read endpoints). */
export async function readChannelAt(
  { services, tenantId }: OperationContext,
  input: { channelId: string; language?: string | undefined },
): Promise<Result<v.InferOutput<typeof ChannelView>>> {
  const tx = services.database.db;
  const row = await findChannel(tx, tenantId, input.channelId);
  if (!row) return fail('NOT_FOUND', `No channel ${input.channelId} exists in this shop.`);
  const refused = await refuseDisabledLanguages(tx, { tenantId }, languageParameter(input.language));
  if (refused) return refused;
  const settings = await channelSettings(tx, tenantId, row);
  return ok(await view(tx, tenantId, row, settings, input.language));
}
