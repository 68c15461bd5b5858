import { boolean, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { tenantKey, tenantKeyed, tenantUniqueIndex, timestamps } from '../columns.ts';

// The shared basis of a shop: languages, currencies, countries, tax classes, tax destination rules,
// shipping and payment methods. Channels override some of these sparsely (a later layer); the basis
// rows never change shape for that. Translated text is a JSON object keyed by language code: a missing or null
// field inherits the main language, an explicit empty string stays empty.

export type TranslationsJson = Record<string, Record<string, string | null>>;

export const languages = pgTable(
  'languages',
  {
    ...tenantKeyed(),
    /** BCP 47 code, `de` or `de-CH`; a regional code falls back to its base language. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.code)],
);

export const currencies = pgTable(
  'currencies',
  {
    ...tenantKeyed(),
    /** ISO 4217. */
    code: text('code').notNull(),
    /** Minor-unit digits: 2 for EUR, 0 for JPY, 3 for KWD. Immutable once used. */
    precision: integer('precision').notNull(),
    symbol: text('symbol').notNull(),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.code)],
);

export interface SubdivisionJson {
  readonly code: string;
  readonly translations: TranslationsJson;
}

export const countries = pgTable(
  'countries',
  {
    ...tenantKeyed(),
    /** ISO 3166-1 alpha-2. */
    code: text('code').notNull(),
    translations: jsonb('translations').$type<TranslationsJson>().notNull(),
    /** ISO 3166-2 subdivisions (`DE-BY`), with translated names. */
    subdivisions: jsonb('subdivisions').$type<SubdivisionJson[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.code)],
);

export interface TaxRateJson {
  /** ISO country code, or null for the class's default rate. */
  readonly country: string | null;
  /** Hundredths of a percent: 19 % = 1900. */
  readonly rate: number;
}

export const taxClasses = pgTable(
  'tax_classes',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    key: text('key'),
    translations: jsonb('translations').$type<TranslationsJson>().notNull(),
    rates: jsonb('rates').$type<TaxRateJson[]>().notNull(),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantUniqueIndex(t, 'tax_classes_key_key', t.key)],
);

/** The postcodes a tax destination rule covers (`@cartwright/commerce`'s TaxPostcodeCondition). */
export type TaxPostcodeJson =
  | { readonly kind: 'single'; readonly value: string }
  | { readonly kind: 'list'; readonly values: readonly string[] }
  | { readonly kind: 'prefix'; readonly value: string }
  | { readonly kind: 'range'; readonly from: string; readonly to: string };

/**
 * The shop's tax destination rules (decision 0049): which rate applies to a delivery address.
 * Every channel inherits them as its `taxRules` and may override fields or remove one.
 */
export const taxRules = pgTable(
  'tax_rules',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    /** ISO 3166-1 alpha-2, a country of the basis. */
    country: text('country').notNull(),
    /** ISO 3166-2 subdivision of `country`, or null for the whole country. */
    state: text('state'),
    /** Null: every postcode. */
    postcode: jsonb('postcode').$type<TaxPostcodeJson>(),
    /** ISO instants with their zone as saved (inclusive start, exclusive end); null: open. */
    validFrom: text('valid_from'),
    validUntil: text('valid_until'),
    /** Higher wins. */
    priority: integer('priority').notNull().default(0),
    /** A saved rule (definition of kind rule) that must match the cart, or null. */
    ruleId: uuid('rule_id'),
    /** The tax class the rule applies to, or null for every class. */
    taxClassId: uuid('tax_class_id'),
    /** Hundredths of a percent: 19 % = 1900. */
    rate: integer('rate').notNull(),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id)],
);

export interface MoneyJson {
  readonly currency: string;
  readonly gross: number;
  readonly net: number;
}

export const shippingMethods = pgTable(
  'shipping_methods',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    key: text('key'),
    translations: jsonb('translations').$type<TranslationsJson>().notNull(),
    active: boolean('active').notNull().default(true),
    /** Price per currency in minor units. */
    prices: jsonb('prices').$type<MoneyJson[]>().notNull().default([]),
    taxClassId: uuid('tax_class_id'),
    /** The installed app whose `shipping.rate` prices this method (decision 0042); null: `prices`. */
    appId: text('app_id'),
    position: integer('position').notNull().default(0),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantUniqueIndex(t, 'shipping_methods_key_key', t.key)],
);

export const paymentMethods = pgTable(
  'payment_methods',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    key: text('key'),
    translations: jsonb('translations').$type<TranslationsJson>().notNull(),
    active: boolean('active').notNull().default(true),
    /** How the payment is taken: offline kinds need no provider. */
    handler: text('handler', {
      enum: ['invoice', 'prepayment', 'cash_on_delivery', 'provider', 'app'],
    }).notNull(),
    /** For handler `app`: the installed app whose `payment` actions take the money (decision 0042). */
    appId: text('app_id'),
    position: integer('position').notNull().default(0),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantUniqueIndex(t, 'payment_methods_key_key', t.key)],
);

/** Seller details printed on documents: name, address, VAT id, contacts, bank, legal lines. */
export interface CompanyIdentityJson {
  readonly name: string;
  readonly street?: string | null;
  readonly zipcode?: string | null;
  readonly city?: string | null;
  readonly country?: string | null;
  readonly vatId?: string | null;
  readonly taxNumber?: string | null;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly website?: string | null;
  readonly bankName?: string | null;
  readonly iban?: string | null;
  readonly bic?: string | null;
  readonly legalNotice?: string | null;
}

/**
 * The shop's central company identity (channels may override fields later). One row per shop:
 * tenant_id alone is its key (a column key, so not `tenantKey`).
 */
export const companyIdentities = pgTable('company_identities', {
  tenantId: uuid('tenant_id').primaryKey(),
  data: jsonb('data').$type<CompanyIdentityJson>().notNull(),
  revision: integer('revision').notNull().default(1),
  ...timestamps,
});
