import { resolveTranslated, type Translations } from '@cartwright/commerce';
import {
  basisTables,
  type ChannelRow,
  counterValue,
  counterValueSeen,
  type Executor,
  findCompanyIdentity,
  listRevisioned,
  nextCounterValue,
} from '@cartwright/repository';
import {
  CHANNEL_SETTINGS_SHAPE,
  type Json,
  type JsonObject,
  type ProvenanceMap,
  type ResolvedSettings,
  resolveSettings,
} from '@cartwright/settings-inheritance';
import * as v from 'valibot';
import { Uuid } from '../kernel/schemas.ts';

// A channel's commerce settings: the shop's shared basis (read from the basis tables and the
// company identity) with the channel's sparse overrides (`channels.data.overrides`) applied by
// `@cartwright/settings-inheritance`. The basis has one revision for the whole shop: every basis
// or company write moves it, and a channel save names the revision it was edited against.

/** The per-shop counter whose value counts basis writes. */
const BASIS_COUNTER = 'basis';

/**
 * The shop's basis revision: 1 until the first basis write, then one more per write. With `share`
 * it cannot move until the caller's transaction ends (a basis write waits).
 */
export async function basisRevision(tx: Executor, tenantId: string, lock?: 'share'): Promise<number> {
  return 1 + ((await counterValue(tx, tenantId, BASIS_COUNTER, lock)) ?? 0);
}

/**
 * Moves the basis revision in the caller's transaction (every write of a language, currency,
 * country, tax class, tax destination rule, method or the company identity). The counter row stays locked until the
 * transaction ends, so a channel save that checks the revision FOR SHARE waits for it.
 */
export async function bumpBasisRevision(tx: Executor, tenantId: string): Promise<void> {
  await nextCounterValue(tx, tenantId, BASIS_COUNTER);
}

const byKey = <T, V>(rows: readonly T[], key: (row: T) => string, value: (row: T) => V) =>
  Object.fromEntries(rows.map((row) => [key(row), value(row)]));

/** The company identity as the settings shape structures it (stored flat). */
function companyDocument(
  data: Record<string, string | readonly string[] | null | undefined> | null,
): JsonObject {
  if (data === null) return {};
  const pick = (...fields: string[]) =>
    Object.fromEntries(
      fields.flatMap((field) => {
        const value = data[field];
        return typeof value === 'string' || Array.isArray(value) ? [[field, value as Json]] : [];
      }),
    );
  const address = pick('street', 'zipcode', 'city', 'country');
  const logos = pick('logoLight', 'logoDark');
  return {
    name: (data.name as string | undefined) ?? null,
    legal: pick(
      'companyName',
      'legalForm',
      'vatId',
      'taxNumber',
      'registrationNumber',
      'registrationCourt',
      'managingDirectors',
      'legalNotice',
    ),
    contact: {
      ...pick('email', 'phone', 'website'),
      ...(Object.keys(address).length > 0 ? { address } : {}),
    },
    bank: pick('bankName', 'iban', 'bic'),
    logos: {
      ...(logos.logoLight !== undefined ? { light: logos.logoLight } : {}),
      ...(logos.logoDark !== undefined ? { dark: logos.logoDark } : {}),
    },
  };
}

/** Shops whose settings basis stays cached (least recently read leave first). */
const CACHED_BASES = 500;
/** Each shop's last settings basis with the committed basis revision it was read at, deep-frozen. */
const cachedBases = new Map<string, { readonly revision: number; readonly basis: JsonObject }>();

/**
 * The shop's shared settings as one document of CHANNEL_SETTINGS_SHAPE (reads only, frozen).
 * Every storefront cart and channel view needs it, so it is cached per process by basis revision:
 * a hit costs one counter read instead of seven table reads. Every basis write moves the revision in
 * its own transaction (`bumpBasisRevision`), so a revision that transaction did not move itself
 * names committed basis rows. The revision is read before and after the tables (each statement
 * may see newer commits) and the document is cached only when both reads agree and neither was
 * the reader's own move; replicas each read the revision from the database.
 */
export async function settingsBasis(tx: Executor, tenantId: string): Promise<JsonObject> {
  const before = await counterValueSeen(tx, tenantId, BASIS_COUNTER);
  const cached = cachedBases.get(tenantId);
  if (!before.ownWrite && cached?.revision === before.value) {
    cachedBases.delete(tenantId);
    cachedBases.set(tenantId, cached);
    return cached.basis;
  }
  const basis = await readSettingsBasis(tx, tenantId);
  const after = await counterValueSeen(tx, tenantId, BASIS_COUNTER);
  if (!before.ownWrite && !after.ownWrite && after.value === before.value) {
    cachedBases.delete(tenantId);
    cachedBases.set(tenantId, { revision: before.value, basis: deepFreeze(basis) });
    if (cachedBases.size > CACHED_BASES) cachedBases.delete(cachedBases.keys().next().value!);
  }
  return basis;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The settings basis read from the basis tables and the company identity. */
async function readSettingsBasis(tx: Executor, tenantId: string): Promise<JsonObject> {
  const [languages, countries, taxClasses, taxRules, shipping, payment, company] = await Promise.all([
    listRevisioned(tx, basisTables.languages, tenantId),
    listRevisioned(tx, basisTables.countries, tenantId),
    listRevisioned(tx, basisTables.taxClasses, tenantId),
    listRevisioned(tx, basisTables.taxRules, tenantId),
    listRevisioned(tx, basisTables.shippingMethods, tenantId),
    listRevisioned(tx, basisTables.paymentMethods, tenantId),
    findCompanyIdentity(tx, tenantId),
  ]);
  return {
    company: companyDocument(
      (company?.data ?? null) as Record<string, string | readonly string[] | null> | null,
    ),
    deliveryCountries: countries.filter((row) => row.active).map((row) => row.code),
    shippingMethods: byKey(
      shipping,
      (row) => row.id,
      (row) => ({
        active: row.active,
        translations: row.translations,
        prices: row.prices as unknown as JsonObject[],
        position: row.position,
        taxClassId: row.taxClassId,
        appId: row.appId,
      }),
    ),
    paymentMethods: byKey(
      payment,
      (row) => row.id,
      (row) => ({ active: row.active, translations: row.translations, position: row.position }),
    ),
    taxRates: byKey(
      taxClasses,
      (row) => row.id,
      (row) => ({
        rates: byKey(
          row.rates,
          (rate) => rate.country ?? 'default',
          (rate) => rate.rate,
        ),
      }),
    ),
    taxLabels: byKey(
      taxClasses,
      (row) => row.id,
      (row) => ({
        translations: byKey(
          Object.entries(row.translations).filter(([, fields]) => typeof fields.label === 'string'),
          ([language]) => language,
          ([, fields]) => fields.label as string,
        ),
      }),
    ),
    // The shop's destination rules: every channel inherits them and may override or remove one.
    taxRules: byKey(
      taxRules,
      (row) => row.id,
      (row) => ({
        country: row.country,
        state: row.state,
        postcode: row.postcode as JsonObject | null,
        validFrom: row.validFrom,
        validUntil: row.validUntil,
        priority: row.priority,
        ruleId: row.ruleId,
        taxClassId: row.taxClassId,
        rate: row.rate,
      }),
    ),
    languages: byKey(
      languages,
      (row) => row.code,
      (row) => ({ name: row.name, active: row.active }),
    ),
    countries: byKey(
      countries,
      (row) => row.code,
      (row) => ({
        translations: row.translations,
        subdivisions: row.subdivisions as unknown as JsonObject[],
        active: row.active,
      }),
    ),
    taxClasses: byKey(
      taxClasses,
      (row) => row.id,
      (row) => ({ key: row.key, translations: row.translations }),
    ),
  };
}

/** The overrides a channel stores (an empty document: it inherits everything). */
export function overridesOf(channel: ChannelRow): JsonObject {
  const overrides = (channel.data as { overrides?: unknown }).overrides;
  return overrides !== null && typeof overrides === 'object' && !Array.isArray(overrides)
    ? (overrides as JsonObject)
    : {};
}

export interface ChannelSettings {
  readonly basisRevision: number;
  readonly effective: JsonObject;
  readonly provenance: ProvenanceMap;
}

/** A channel's effective settings and where each value comes from. */
export async function effectiveSettings(
  tx: Executor,
  tenantId: string,
  channel: ChannelRow,
): Promise<ResolvedSettings> {
  return storedSettings(await settingsBasis(tx, tenantId), overridesOf(channel));
}

/**
 * Resolves overrides that were validated when they were saved. Basis deletes refuse while an
 * override names the entry (decision 0020), so a refusal here is a broken invariant, not input.
 */
export function storedSettings(basis: JsonObject, overrides: JsonObject): ResolvedSettings {
  const resolved = resolveSettings(CHANNEL_SETTINGS_SHAPE, basis, overrides);
  if (!resolved.ok) throw new Error(resolved.detail);
  return resolved.value;
}

/** The same, with the basis revision a save must name. */
export async function channelSettings(
  tx: Executor,
  tenantId: string,
  channel: ChannelRow,
): Promise<ChannelSettings> {
  const [revision, resolved] = await Promise.all([
    basisRevision(tx, tenantId),
    effectiveSettings(tx, tenantId, channel),
  ]);
  return { basisRevision: revision, ...resolved };
}

type Entries = Record<string, Record<string, unknown>>;

/** One text in the content language, falling back to the main language; null when none has it. */
function text(translations: unknown, field: string, language: string, mainLanguage: string): string | null {
  return (
    resolveTranslated((translations ?? {}) as Translations, field, language, mainLanguage)?.value ?? null
  );
}

/**
 * The effective settings as a form in one content language shows them: each method, tax label and
 * country carries its `name` (and methods their `description`) in `language`, missing or null text
 * falling back to the main language, an explicit empty text staying empty. Reading creates
 * nothing.
 */
export function inContentLanguage(effective: JsonObject, language: string, mainLanguage: string): JsonObject {
  const methods = (entries: unknown) =>
    Object.fromEntries(
      Object.entries((entries ?? {}) as Entries).map(([id, { translations, ...fields }]) => [
        id,
        {
          ...fields,
          name: text(translations, 'name', language, mainLanguage),
          description: text(translations, 'description', language, mainLanguage),
        },
      ]),
    );
  const labels = Object.fromEntries(
    Object.entries((effective.taxLabels ?? {}) as Entries).map(([id, { translations }]) => {
      const byLanguage = Object.fromEntries(
        Object.entries((translations ?? {}) as Record<string, string | null>).map(([code, label]) => [
          code,
          { label },
        ]),
      );
      return [id, { label: text(byLanguage, 'label', language, mainLanguage) }];
    }),
  );
  const countries = Object.fromEntries(
    Object.entries((effective.countries ?? {}) as Entries).map(([code, country]) => [
      code,
      {
        active: country.active === true,
        name: text(country.translations, 'name', language, mainLanguage),
        subdivisions: ((country.subdivisions ?? []) as { code: string; translations: unknown }[]).map(
          (subdivision) => ({
            code: subdivision.code,
            name: text(subdivision.translations, 'name', language, mainLanguage),
          }),
        ),
      },
    ]),
  );
  return {
    ...effective,
    shippingMethods: methods(effective.shippingMethods),
    paymentMethods: methods(effective.paymentMethods),
    taxLabels: labels,
    countries,
  };
}

/** What every view of a sales channel starts with (the channel endpoints and the automation list). */
export const ChannelIdentity = {
  id: Uuid,
  key: v.nullable(v.string()),
  isMain: v.boolean(),
  /** Public: storefronts send it as `x-channel-key`. */
  accessKey: v.string(),
  revision: v.number(),
  /** The shop's current basis revision: send it back as `baseRevision` when saving. */
  baseRevision: v.number(),
};
