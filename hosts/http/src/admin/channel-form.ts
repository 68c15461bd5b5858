// The channel settings form's data (no markup): which texts it shows in the content language, with
// their provenance, and how a posted form becomes the overrides `merchant.commerce.save` takes.
// Everything here reads the operation's own answer (`merchant.commerce.read`), so the page shows
// exactly what the API says (decisions 0020, 0023, 0029, 0047).

import { resolveTranslated } from '@cartwright/commerce';

export type Provenance = 'inherited' | 'overridden' | 'removed';

/** The channel as `merchant.commerce.read` answers it (the fields this form uses). */
export interface ChannelRead {
  readonly id: string;
  readonly isMain: boolean;
  readonly revision: number;
  readonly baseRevision: number;
  readonly language: string;
  readonly mainLanguage: string;
  readonly channel: Record<string, unknown>;
  readonly overrides: Record<string, unknown>;
  readonly effective: Record<string, unknown>;
  readonly provenance: Record<string, Provenance>;
  readonly updatedAt: string;
}

export type TextArea = 'shippingMethods' | 'paymentMethods' | 'taxLabels';

/** A price in integer minor units. */
export interface Price {
  readonly currency: string;
  readonly gross: number;
  readonly net: number;
}

/** Prices as one comparable text (`was:` of the price field): `EUR:490:412|CHF:…`. */
export function pricesText(prices: readonly Price[]): string {
  return prices.map((price) => `${price.currency}:${price.gross}:${price.net}`).join('|');
}

/** The minor-unit digits of a currency (EUR 2, JPY 0, KWD 3), as Intl knows them. */
export function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/**
 * A number as a person types it in `locale` ("4,90" in German, "4.90" in English) with at most
 * `digits` decimals → an integer scaled by 10^digits, or null when it is none.
 */
export function parseDecimal(text: string, locale: string, digits: number): number | null {
  const decimal =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const group = decimal === ',' ? '.' : ',';
  const plain = text
    .replace(/[\s\u00a0\u202f]/g, '')
    .split(group)
    .join('')
    .replace(decimal, '.');
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(plain);
  if (!match || (match[2] ?? '').length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
}

/** An amount as a person types it → minor units of `currency`, or null. */
export function parseAmount(text: string, locale: string, currency: string): number | null {
  return parseDecimal(text, locale, currencyDigits(currency));
}

/** A tax rate in hundredths of a percent (19 % = 1900) as the rate field shows it in `locale`. */
export function formatRate(rate: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false }).format(rate / 100);
}

/** One tax rate of the channel: a tax class's rate for all countries (`default`) or one country. */
export interface RateField {
  /** `taxRates.<class id>.<default | country code>`. */
  readonly key: string;
  readonly classId: string;
  readonly place: string;
  /** The tax class's name in the content language (main language as fallback). */
  readonly title: string;
  readonly value: number | null;
  readonly provenance: Provenance | undefined;
}

export function rateFieldsOf(read: ChannelRead): RateField[] {
  const rates = (read.effective.taxRates ?? {}) as Record<string, { rates?: Record<string, number | null> }>;
  return Object.keys(rates)
    .sort()
    .flatMap((classId) =>
      Object.keys(rates[classId]?.rates ?? {})
        .sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b)))
        .map((place) => ({
          key: `taxRates.${classId}.${place}`,
          classId,
          place,
          title: taxLabelTitle(read, classId, {}),
          value: rates[classId]?.rates?.[place] ?? null,
          provenance: read.provenance[`/taxRates/${classId}/rates/${place}`],
        })),
    );
}

/** Minor units as the amount field shows them in `locale` (no currency sign, no grouping). */
export function formatAmount(amount: number, locale: string, currency: string): string {
  const digits = currencyDigits(currency);
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(amount / 10 ** digits);
}

/** One text of the form in the content language. */
export interface FormText {
  /** The form field's name: `<area>.<id>.<field>`. */
  readonly key: string;
  readonly area: TextArea;
  readonly id: string;
  readonly field: 'name' | 'description' | 'label';
  /** The text stored in the content language ('' when none is). */
  readonly value: string;
  /** The text a reader sees when this language has none (the main language's), or null. */
  readonly fallback: string | null;
  /** Whether the content language has this text (its own, inherited or overridden). */
  readonly present: boolean;
  /** inherited / overridden / removed; undefined when the language has no text (it falls back). */
  readonly provenance: Provenance | undefined;
}

/** One method or tax label with its texts. */
export interface FormEntry {
  readonly area: TextArea;
  readonly id: string;
  /** Its name in the content language (with fallback), for labels. */
  readonly title: string;
  readonly provenance: Provenance | undefined;
  readonly prices: readonly Price[];
  /** Shipping methods: the prices as a field (`<area>.<id>.prices`), with their provenance. */
  readonly priceField?: { readonly key: string; readonly provenance: Provenance | undefined };
  readonly texts: readonly FormText[];
  /** Methods: whether the channel offers it (`<area>.<id>.active`), with its provenance. */
  readonly active?: {
    readonly key: string;
    readonly value: boolean;
    readonly provenance: Provenance | undefined;
  };
}

/** A country of the shared basis, named in the content language, and whether the channel delivers there. */
export interface CountryChoice {
  readonly code: string;
  readonly name: string;
  /** Whether the name is in the content language (else it is the main language's, a fallback). */
  readonly translated: boolean;
  readonly subdivisions: readonly {
    readonly code: string;
    readonly name: string;
    readonly translated: boolean;
  }[];
  readonly chosen: boolean;
}

/** The shared basis's countries as `basis.countries.list` answers them (the translations a view resolves). */
export type BasisCountries = Record<
  string,
  {
    translations?: Record<string, { name?: string | null } | undefined>;
    subdivisions?: { code: string; translations?: Record<string, { name?: string | null } | undefined> }[];
  }
>;

/**
 * Whether the name a reader sees in `language` is that language's own: it resolves (as the
 * operation's view does, `resolveTranslated`) to `language` or a form of it (de for de-CH), not to
 * the main language's fallback. An explicit empty name counts as the language's own, as it does
 * there.
 */
function hasName(
  translations: Record<string, { name?: string | null } | undefined> | undefined,
  language: string,
  mainLanguage: string,
) {
  const resolved = resolveTranslated(
    (translations ?? {}) as Parameters<typeof resolveTranslated>[0],
    'name',
    language,
    mainLanguage,
  );
  if (!resolved) return false;
  return resolved.language === language || language.startsWith(`${resolved.language}-`);
}

/** The channel's delivery countries: every basis country in the content language (nested names too). */
export interface DeliveryChoice {
  readonly key: 'deliveryCountries';
  readonly countries: readonly CountryChoice[];
  /** `null` in the settings: the channel delivers to every country of the basis. */
  readonly all: boolean;
  readonly provenance: Provenance | undefined;
}

export function deliveryOf(read: ChannelRead, basis: BasisCountries = {}): DeliveryChoice {
  const countries = (read.effective.countries ?? {}) as Record<
    string,
    { name?: string | null; subdivisions?: { code: string; name?: string | null }[] }
  >;
  const chosen = read.effective.deliveryCountries as string[] | null | undefined;
  return {
    key: 'deliveryCountries',
    all: chosen === null || chosen === undefined,
    provenance: read.provenance['/deliveryCountries'],
    countries: Object.keys(countries)
      .sort()
      .map((code) => ({
        code,
        name: countries[code]?.name ?? code,
        translated: hasName(basis[code]?.translations, read.language, read.mainLanguage),
        subdivisions: (countries[code]?.subdivisions ?? []).map((subdivision) => ({
          code: subdivision.code,
          name: subdivision.name ?? subdivision.code,
          translated: hasName(
            basis[code]?.subdivisions?.find((candidate) => candidate.code === subdivision.code)?.translations,
            read.language,
            read.mainLanguage,
          ),
        })),
        chosen: chosen === null || chosen === undefined || chosen.includes(code),
      })),
  };
}

type Entries = Record<string, Record<string, unknown>>;

function pointerOf(area: TextArea, id: string, language: string, field: FormText['field']): string {
  const escaped = id.replaceAll('~', '~0').replaceAll('/', '~1');
  return area === 'taxLabels'
    ? `/${area}/${escaped}/translations/${language}`
    : `/${area}/${escaped}/translations/${language}/${field}`;
}

/** A tax label's title: its label, else its tax class's name (content language, then main language). */
function taxLabelTitle(read: ChannelRead, id: string, entry: Record<string, unknown>): string {
  if (typeof entry.label === 'string' && entry.label !== '') return entry.label;
  const classes = (read.effective.taxClasses ?? {}) as Record<
    string,
    { translations?: Record<string, { name?: string | null } | undefined> }
  >;
  const names = classes[id]?.translations ?? {};
  return names[read.language]?.name ?? names[read.mainLanguage]?.name ?? id;
}

/** The form's entries: shipping methods, payment methods and tax labels, texts in `read.language`. */
export function formEntries(read: ChannelRead): FormEntry[] {
  const language = read.language;
  const entries: FormEntry[] = [];
  for (const area of ['shippingMethods', 'paymentMethods', 'taxLabels'] as const) {
    const effective = (read.effective[area] ?? {}) as Entries;
    const ids = Object.keys(effective).sort((a, b) => {
      const pa = Number(effective[a]?.position ?? 0);
      const pb = Number(effective[b]?.position ?? 0);
      return pa - pb || a.localeCompare(b);
    });
    for (const id of ids) {
      const entry = effective[id] ?? {};
      const fields = area === 'taxLabels' ? (['label'] as const) : (['name', 'description'] as const);
      const texts = fields.map((field): FormText => {
        const provenance = read.provenance[pointerOf(area, id, language, field)];
        const shown = (entry[field] ?? null) as string | null;
        const present = provenance === 'inherited' || provenance === 'overridden';
        return {
          key: `${area}.${id}.${field}`,
          area,
          id,
          field,
          value: present ? (shown ?? '') : '',
          fallback: present ? null : shown,
          present,
          provenance,
        };
      });
      const prices = Array.isArray(entry.prices) ? (entry.prices as Price[]) : [];
      entries.push({
        area,
        id,
        title: area === 'taxLabels' ? taxLabelTitle(read, id, entry) : String(entry.name ?? id),
        provenance: read.provenance[`/${area}/${id}`],
        prices,
        texts,
        ...(area === 'shippingMethods'
          ? {
              priceField: {
                key: `${area}.${id}.prices`,
                provenance: read.provenance[`/${area}/${id}/prices`],
              },
            }
          : {}),
        ...(area === 'taxLabels'
          ? {}
          : {
              active: {
                key: `${area}.${id}.active`,
                value: entry.active === true,
                provenance: read.provenance[`/${area}/${id}/active`],
              },
            }),
      });
    }
  }
  return entries;
}

/** The channel's own switches the form edits (its own fields: not inherited, so no provenance). */
export const OWN_SWITCHES = ['paused', 'private'] as const;
export type OwnSwitch = (typeof OWN_SWITCHES)[number];

export function ownSwitchesOf(read: ChannelRead): Record<OwnSwitch, boolean> {
  return { paused: read.channel.paused === true, private: read.channel.private === true };
}

export const MODES = ['storefront', 'headless'] as const;
export type Mode = (typeof MODES)[number];

/** A domain of the channel: where its storefront answers, in which language and currency. */
export interface Domain {
  readonly url: string;
  readonly language: string;
  readonly currency: string;
}

/** Domains as one comparable text (`was:channel.domains`). */
export function domainsText(domains: readonly Domain[]): string {
  return JSON.stringify(domains.map((domain) => [domain.url, domain.language, domain.currency]));
}

/** The most domain rows a form posts (the operation allows 20; one more is the blank row). */
export const DOMAIN_ROWS = 21;

/**
 * The channel's own fields the form edits besides the switches: its name in the UI language (a
 * TranslatedName: the other languages' names stay), mode, languages and domains. The main
 * channel's languages are the shop's (read only).
 */
export interface OwnFields {
  readonly names: Readonly<Record<string, string>>;
  /** The name in the UI language ('' when it has none there). */
  readonly name: string;
  readonly mode: Mode;
  readonly languages: readonly string[];
  readonly domains: readonly Domain[];
  /** The shop's enabled languages (what a channel may choose among). */
  readonly shopLanguages: readonly string[];
  /** The categories the channel's catalog is limited to (empty: the whole catalog). */
  readonly categoryIds: readonly string[];
  /** The category the channel's navigation starts at (null: none set). */
  readonly navigationRoot: string | null;
  /** The shop's categories as a tree in display order, plus any the channel names that are gone. */
  readonly categories: readonly CategoryOption[];
}

/** A category offered for the channel's catalog and navigation. */
export interface CategoryOption {
  readonly id: string;
  /** Its name in the UI language, else the main language's, else its id. */
  readonly name: string;
  /** 0 for a top-level category. */
  readonly depth: number;
}

/** A category as `catalog.categories.list` answers it (the fields used here). */
export interface CategoryRecord {
  readonly id: string;
  readonly parentId: string | null;
  readonly position: number;
  readonly translations: Record<string, { name?: string | null }>;
}

/** The categories in tree order (parents first, siblings by position), with their depth. */
export function categoryOptions(
  records: readonly CategoryRecord[],
  locale: string,
  mainLanguage: string,
): CategoryOption[] {
  const children = new Map<string | null, CategoryRecord[]>();
  const known = new Set(records.map((record) => record.id));
  for (const record of records) {
    // A parent outside the list (none should be) puts the category at the top.
    const parent = record.parentId !== null && known.has(record.parentId) ? record.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), record]);
  }
  const options: CategoryOption[] = [];
  const visit = (parent: string | null, depth: number) => {
    const level = [...(children.get(parent) ?? [])].sort((a, b) => a.position - b.position);
    for (const record of level) {
      const name = record.translations[locale]?.name || record.translations[mainLanguage]?.name || record.id;
      options.push({ id: record.id, name, depth });
      if (depth < 32) visit(record.id, depth + 1);
    }
  };
  visit(null, 0);
  return options;
}

export function ownFieldsOf(
  read: ChannelRead,
  locale: string,
  categories: readonly CategoryOption[] = [],
): OwnFields {
  const names = (read.channel.name ?? {}) as Record<string, string>;
  const languages = (read.effective.languages ?? {}) as Record<string, { active?: boolean }>;
  const catalog = read.channel.catalog as { categoryIds?: string[] } | null | undefined;
  const navigation = read.channel.navigation as { rootCategoryId?: string | null } | null | undefined;
  const categoryIds = catalog?.categoryIds ?? [];
  const navigationRoot = navigation?.rootCategoryId ?? null;
  const listed = new Set(categories.map((category) => category.id));
  const gone = [...categoryIds, ...(navigationRoot ? [navigationRoot] : [])].filter((id) => !listed.has(id));
  return {
    names,
    name: names[locale] ?? '',
    mode: read.channel.mode === 'headless' ? 'headless' : 'storefront',
    languages: Array.isArray(read.channel.languages) ? (read.channel.languages as string[]) : [],
    domains: Array.isArray(read.channel.domains) ? (read.channel.domains as Domain[]) : [],
    shopLanguages: Object.keys(languages)
      .filter((code) => languages[code]?.active === true)
      .sort(),
    categoryIds,
    navigationRoot,
    categories: [...categories, ...[...new Set(gone)].map((id) => ({ id, name: id, depth: 0 }))],
  };
}

/** The catalog's categories as one comparable text (`was:channel.catalog`). */
export function categoriesText(ids: readonly string[]): string {
  return [...ids].sort().join(',');
}

/** The own fields a posted form changed (absent: unchanged). */
export interface OwnChanges {
  readonly name?: string;
  readonly mode?: Mode;
  readonly languages?: readonly string[];
  readonly domains?: readonly Domain[];
  /** The catalog's categories (null: the whole catalog). */
  readonly catalog?: { readonly categoryIds: readonly string[] } | null;
  /** The navigation's root category (null: none). */
  readonly navigation?: { readonly rootCategoryId: string } | null;
}

/** The domain rows of a posted form in their order: rows marked for removal and blank rows left out. */
export function postedDomains(body: Record<string, unknown>): Domain[] {
  const rows: Domain[] = [];
  for (let index = 0; index < DOMAIN_ROWS; index++) {
    const field = (name: string) => {
      const value = body[`domain:${index}.${name}`];
      return typeof value === 'string' ? value.trim() : '';
    };
    if (body[`domain:${index}.remove`] === 'on') continue;
    const url = field('url');
    if (url === '') continue;
    rows.push({ url: url.slice(0, 2000), language: field('language'), currency: field('currency') });
  }
  return rows;
}

function ownChanges(body: Record<string, unknown>, own: OwnFields, isMain: boolean): OwnChanges {
  const changes: { -readonly [K in keyof OwnChanges]: OwnChanges[K] } = {};
  const name = body['text:channel.name'];
  if (typeof name === 'string' && typeof body['was:channel.name'] === 'string') {
    if (name.trim() !== body['was:channel.name']) changes.name = name.trim().slice(0, 200);
  }
  const mode = body['choice:channel.mode'];
  if (
    typeof mode === 'string' &&
    mode !== body['was:channel.mode'] &&
    (MODES as readonly string[]).includes(mode)
  )
    changes.mode = mode as Mode;
  if (!isMain && typeof body['was:channel.languages'] === 'string') {
    const chosen = own.shopLanguages.filter((code) => body[`language:${code}`] === 'on');
    if (chosen.join(',') !== body['was:channel.languages']) changes.languages = chosen;
  }
  if (typeof body['was:channel.domains'] === 'string') {
    const rows = postedDomains(body);
    if (domainsText(rows) !== body['was:channel.domains']) changes.domains = rows;
  }
  if (typeof body['was:channel.catalog'] === 'string') {
    const chosen = Object.keys(body)
      .filter((name) => name.startsWith('category:') && body[name] === 'on')
      .map((name) => name.slice('category:'.length))
      .filter((id) => UUID_TEXT.test(id));
    if (categoriesText(chosen) !== body['was:channel.catalog'])
      changes.catalog = chosen.length === 0 ? null : { categoryIds: [...chosen].sort() };
  }
  const root = body['choice:channel.navigation'];
  if (typeof root === 'string' && typeof body['was:channel.navigation'] === 'string') {
    if (root !== body['was:channel.navigation'] && (root === '' || UUID_TEXT.test(root)))
      changes.navigation = root === '' ? null : { rootCategoryId: root };
  }
  return changes;
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The channel's own fields as a save sends them: as read (the main channel sends no languages),
 * with the form's changes (the name in `locale`, other languages' names kept; an emptied name is
 * removed in that language).
 */
export function channelFieldsOf(
  read: ChannelRead,
  changes?: FormChanges,
  locale?: string,
): Record<string, unknown> {
  const keep = ['name', 'mode', 'paused', 'private', 'languages', 'domains', 'catalog', 'navigation'];
  const fields: Record<string, unknown> = {};
  for (const key of keep) {
    if (key === 'languages' && read.isMain) continue;
    if (read.channel[key] !== undefined) fields[key] = read.channel[key];
  }
  for (const name of OWN_SWITCHES) {
    const changed = changes?.switches.get(`channel.${name}`);
    if (changed !== undefined) fields[name] = changed;
  }
  const own = changes?.own;
  if (own?.name !== undefined && locale) {
    const names = { ...((read.channel.name ?? {}) as Record<string, string>) };
    if (own.name === '') delete names[locale];
    else names[locale] = own.name;
    fields.name = names;
  }
  if (own?.mode) fields.mode = own.mode;
  if (own?.languages && !read.isMain) fields.languages = [...own.languages];
  if (own?.domains) fields.domains = own.domains.map((domain) => ({ ...domain }));
  if (own?.catalog !== undefined)
    fields.catalog = own.catalog === null ? null : { categoryIds: [...own.catalog.categoryIds] };
  if (own?.navigation !== undefined)
    fields.navigation = own.navigation === null ? null : { ...own.navigation };
  return fields;
}

/** How a company value is typed and edited. */
export type CompanyKind = 'text' | 'long' | 'list' | 'address' | 'email' | 'url' | 'tel';

/** The parts of an address (one value: a street without its city means nothing). */
export const ADDRESS_PARTS = ['street', 'zipcode', 'city', 'country'] as const;

/**
 * The company identity a channel overrides field by field (CHANNEL_SETTINGS_SHAPE's `company`
 * record, `@cartwright/settings-inheritance`): name, legal, contact, bank, logos.
 */
export const COMPANY_FIELDS: readonly { readonly key: string; readonly kind: CompanyKind }[] = [
  { key: 'company.name', kind: 'text' },
  { key: 'company.legal.companyName', kind: 'text' },
  { key: 'company.legal.legalForm', kind: 'text' },
  { key: 'company.legal.vatId', kind: 'text' },
  { key: 'company.legal.taxNumber', kind: 'text' },
  { key: 'company.legal.registrationNumber', kind: 'text' },
  { key: 'company.legal.registrationCourt', kind: 'text' },
  { key: 'company.legal.managingDirectors', kind: 'list' },
  { key: 'company.legal.legalNotice', kind: 'long' },
  { key: 'company.contact.email', kind: 'email' },
  { key: 'company.contact.phone', kind: 'tel' },
  { key: 'company.contact.website', kind: 'url' },
  { key: 'company.contact.address', kind: 'address' },
  { key: 'company.bank.bankName', kind: 'text' },
  { key: 'company.bank.iban', kind: 'text' },
  { key: 'company.bank.bic', kind: 'text' },
  { key: 'company.logos.light', kind: 'url' },
  { key: 'company.logos.dark', kind: 'url' },
];

/** The groups of the company fields, in order (`company.<group>.…`; the name stands alone). */
export const COMPANY_GROUPS = ['name', 'legal', 'contact', 'bank', 'logos'] as const;

/** One company field of a channel: the effective value, as the form writes it, and its provenance. */
export interface CompanyField {
  readonly key: string;
  readonly kind: CompanyKind;
  readonly group: (typeof COMPANY_GROUPS)[number];
  /** The effective value as form text (a list one entry per line, an address as `addressText`). */
  readonly text: string;
  /** An address's parts. */
  readonly parts: Readonly<AddressParts>;
  /** inherited / overridden, or `removed` when the channel overrides it with no value; undefined: set nowhere. */
  readonly provenance: Provenance | undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** An address as one comparable text: its parts in order. */
export function addressText(parts: Readonly<Record<string, string>>): string {
  return JSON.stringify(ADDRESS_PARTS.map((part) => parts[part] ?? ''));
}

type AddressParts = Record<(typeof ADDRESS_PARTS)[number], string>;

function companyText(kind: CompanyKind, value: unknown): { text: string; parts: AddressParts } {
  const parts: AddressParts = { street: '', zipcode: '', city: '', country: '' };
  if (kind === 'address') {
    if (value !== null && typeof value === 'object') {
      for (const part of ADDRESS_PARTS) {
        const found = (value as Record<string, unknown>)[part];
        if (typeof found === 'string') parts[part] = found;
      }
    }
    return { text: addressText(parts), parts };
  }
  if (kind === 'list') {
    const lines = Array.isArray(value) ? value.filter((line) => typeof line === 'string') : [];
    return { text: typeof value === 'string' ? value : lines.join('\n'), parts };
  }
  return { text: typeof value === 'string' ? value : '', parts };
}

/** The channel's company fields: the effective value of each with its provenance. */
export function companyFieldsOf(read: ChannelRead): CompanyField[] {
  return COMPANY_FIELDS.map(({ key, kind }) => {
    const path = key.split('.');
    const value = valueAt(read.effective, path);
    const provenance = read.provenance[`/${path.join('/')}`];
    const group = path.length === 2 ? 'name' : (path[1] as CompanyField['group']);
    return {
      key,
      kind,
      group,
      ...companyText(kind, value),
      provenance: provenance === 'overridden' && value === null ? 'removed' : provenance,
    };
  });
}

/** A posted company field as form text (comparable with `was:`) and as the value to store. */
export function postedCompanyValue(
  body: Record<string, unknown>,
  key: string,
  kind: CompanyKind,
): { text: string; value: unknown } | undefined {
  if (kind === 'address') {
    const parts: Record<string, string> = {};
    for (const part of ADDRESS_PARTS) {
      const posted = body[`company:${key}.${part}`];
      if (typeof posted !== 'string') return undefined;
      parts[part] = part === 'country' ? posted.trim().toUpperCase() : posted.trim();
    }
    const set = Object.fromEntries(Object.entries(parts).filter(([, part]) => part !== ''));
    return { text: addressText(parts), value: Object.keys(set).length === 0 ? null : set };
  }
  const posted = body[`company:${key}`];
  if (typeof posted !== 'string') return undefined;
  if (kind === 'list') {
    const lines = posted
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    return { text: lines.join('\n'), value: lines.length === 0 ? null : lines };
  }
  const text = kind === 'long' ? posted.replace(/\r\n/g, '\n') : posted.trim();
  return { text, value: text === '' ? null : text };
}

/** The company fields a posted form changed: key → the value to override with (null: none in this channel). */
function companyChanges(body: Record<string, unknown>): Map<string, unknown> {
  const changed = new Map<string, unknown>();
  for (const { key, kind } of COMPANY_FIELDS) {
    const was = body[`was:${key}`];
    if (typeof was !== 'string') continue;
    const posted = postedCompanyValue(body, key, kind);
    if (posted && posted.text !== was) changed.set(key, posted.value);
  }
  return changed;
}

/** The shop's company identity (`company.get` / `company.save`): stored flat, the basis every channel inherits. */
export const BASIS_COMPANY_FIELDS: readonly {
  readonly name: string;
  readonly kind: CompanyKind;
  /** The channel field it fills (`company.contact.address` for the address parts). */
  readonly channelKey: string;
}[] = [
  { name: 'name', kind: 'text', channelKey: 'company.name' },
  { name: 'street', kind: 'text', channelKey: 'company.contact.address' },
  { name: 'zipcode', kind: 'text', channelKey: 'company.contact.address' },
  { name: 'city', kind: 'text', channelKey: 'company.contact.address' },
  { name: 'country', kind: 'text', channelKey: 'company.contact.address' },
  { name: 'companyName', kind: 'text', channelKey: 'company.legal.companyName' },
  { name: 'legalForm', kind: 'text', channelKey: 'company.legal.legalForm' },
  { name: 'vatId', kind: 'text', channelKey: 'company.legal.vatId' },
  { name: 'taxNumber', kind: 'text', channelKey: 'company.legal.taxNumber' },
  { name: 'registrationNumber', kind: 'text', channelKey: 'company.legal.registrationNumber' },
  { name: 'registrationCourt', kind: 'text', channelKey: 'company.legal.registrationCourt' },
  { name: 'managingDirectors', kind: 'list', channelKey: 'company.legal.managingDirectors' },
  { name: 'legalNotice', kind: 'long', channelKey: 'company.legal.legalNotice' },
  { name: 'email', kind: 'email', channelKey: 'company.contact.email' },
  { name: 'phone', kind: 'tel', channelKey: 'company.contact.phone' },
  { name: 'website', kind: 'url', channelKey: 'company.contact.website' },
  { name: 'bankName', kind: 'text', channelKey: 'company.bank.bankName' },
  { name: 'iban', kind: 'text', channelKey: 'company.bank.iban' },
  { name: 'bic', kind: 'text', channelKey: 'company.bank.bic' },
  { name: 'logoLight', kind: 'url', channelKey: 'company.logos.light' },
  { name: 'logoDark', kind: 'url', channelKey: 'company.logos.dark' },
];

/** A stored basis company value as its field shows it (a list one entry per line). */
export type BasisCompanyValue = string | readonly string[];
export function basisCompanyText(value: BasisCompanyValue | undefined): string {
  return value === undefined ? '' : typeof value === 'string' ? value : value.join('\n');
}

/**
 * The company identity after a posted basis form: only fields whose value changed since the form
 * was rendered (`was:basis.<name>`) are written over the stored data; an emptied one is removed.
 */
export function basisCompanyAfter(
  stored: Readonly<Record<string, BasisCompanyValue>> | null,
  body: Record<string, unknown>,
): { data: Record<string, BasisCompanyValue>; changed: string[] } {
  const data: Record<string, BasisCompanyValue> = { ...(stored ?? {}) };
  const changed: string[] = [];
  for (const { name, kind } of BASIS_COMPANY_FIELDS) {
    const was = body[`was:basis.${name}`];
    const posted = body[`basis:${name}`];
    if (typeof was !== 'string' || typeof posted !== 'string') continue;
    const lines = posted
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const text =
      kind === 'long'
        ? posted.replace(/\r\n/g, '\n')
        : kind === 'list'
          ? lines.join('\n')
          : name === 'country'
            ? posted.trim().toUpperCase()
            : posted.trim();
    if (text === was) continue;
    changed.push(name);
    if (text === '') delete data[name];
    else data[name] = kind === 'list' ? lines : text;
  }
  return { data, changed };
}

/** What a posted form asks: changed texts, switches and delivery countries, and what to reset. */
export interface FormChanges {
  readonly set: ReadonlyMap<string, string>;
  readonly switches: ReadonlyMap<string, boolean>;
  /** The delivery countries chosen, when they changed. */
  readonly delivery: readonly string[] | undefined;
  /** Changed prices per price field key. */
  readonly prices: ReadonlyMap<string, readonly Price[]>;
  /** Changed tax rates (hundredths of a percent) per rate field key. */
  readonly rates: ReadonlyMap<string, number>;
  /** Amounts and rates that are no number (field names), when any. */
  readonly invalid: readonly string[];
  readonly reset: ReadonlySet<string>;
  /** The channel's own fields that changed (name, mode, languages, domains). */
  readonly own: OwnChanges;
  /** Changed company fields (`company.…` key → override value; null: none in this channel). */
  readonly company: ReadonlyMap<string, unknown>;
}

/**
 * The changes of a posted form: a field counts as changed when it differs from the value the form
 * was rendered with (`was:<key>`), so a language switch or an untouched field writes nothing.
 */
export function formChanges(
  body: Record<string, unknown>,
  entries: readonly FormEntry[],
  delivery: DeliveryChoice,
  locale: string,
  rateFields: readonly RateField[] = [],
  own?: { readonly fields: OwnFields; readonly isMain: boolean },
): FormChanges {
  const set = new Map<string, string>();
  const switches = new Map<string, boolean>();
  const texts = entries.flatMap((entry) => entry.texts);
  const known = new Set<string>([delivery.key]);
  for (const { key } of texts) {
    known.add(key);
    const value = body[`text:${key}`];
    const was = body[`was:${key}`];
    if (typeof value !== 'string' || typeof was !== 'string') continue;
    if (value !== was) set.set(key, value.slice(0, 2000));
  }
  const switchKeys = [
    ...entries.flatMap((entry) => (entry.active ? [entry.active.key] : [])),
    ...OWN_SWITCHES.map((name) => `channel.${name}`),
  ];
  for (const key of switchKeys) {
    if (!key.startsWith('channel.')) known.add(key);
    const was = body[`was:${key}`];
    if (was !== 'true' && was !== 'false') continue;
    const value = body[`on:${key}`] === 'on';
    if (value !== (was === 'true')) switches.set(key, value);
  }
  const prices = new Map<string, Price[]>();
  const invalid: string[] = [];
  for (const entry of entries) {
    if (!entry.priceField) continue;
    const { key } = entry.priceField;
    known.add(key);
    const was = body[`was:${key}`];
    if (typeof was !== 'string') continue;
    const rows: Price[] = [];
    for (const price of entry.prices) {
      const amounts = (['gross', 'net'] as const).map((kind) => {
        const name = `amount:${key}.${price.currency}.${kind}`;
        const text = body[name];
        const amount = typeof text === 'string' ? parseAmount(text, locale, price.currency) : null;
        if (amount === null) invalid.push(name);
        return amount ?? 0;
      });
      rows.push({ currency: price.currency, gross: amounts[0]!, net: amounts[1]! });
    }
    if (pricesText(rows) !== was) prices.set(key, rows);
  }
  const rates = new Map<string, number>();
  for (const field of rateFields) {
    known.add(field.key);
    const was = body[`was:${field.key}`];
    if (typeof was !== 'string') continue;
    const name = `rate:${field.key}`;
    const text = body[name];
    if (was === 'null' && typeof text === 'string' && text.trim() === '') continue;
    const rate = typeof text === 'string' ? parseDecimal(text, locale, 2) : null;
    if (rate === null) invalid.push(name);
    else if (String(rate) !== was) rates.set(field.key, rate);
  }
  let countries: string[] | undefined;
  const was = body[`was:${delivery.key}`];
  if (typeof was === 'string') {
    const chosen = delivery.countries.filter((country) => body[`country:${country.code}`] === 'on');
    const joined = chosen.map((country) => country.code).join(',');
    if (joined !== was) countries = chosen.map((country) => country.code);
  }
  for (const { key } of COMPANY_FIELDS) known.add(key);
  const reset =
    typeof body.reset === 'string' && known.has(body.reset) ? new Set([body.reset]) : new Set<string>();
  return {
    set,
    switches,
    delivery: countries,
    prices,
    rates,
    invalid,
    reset,
    own: own ? ownChanges(body, own.fields, own.isMain) : {},
    company: companyChanges(body),
  };
}

function objectAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const found = parent[key];
  if (found !== null && typeof found === 'object' && !Array.isArray(found))
    return found as Record<string, unknown>;
  const created: Record<string, unknown> = {};
  parent[key] = created;
  return created;
}

/** Drops empty objects left behind by a reset, from the leaf up. */
function prune(root: Record<string, unknown>, path: readonly string[]): void {
  for (let depth = path.length; depth > 0; depth--) {
    let parent: Record<string, unknown> | undefined = root;
    for (const key of path.slice(0, depth - 1)) parent = parent?.[key] as Record<string, unknown> | undefined;
    const key = path[depth - 1]!;
    const value = parent?.[key];
    if (parent && value !== null && typeof value === 'object' && Object.keys(value).length === 0)
      delete parent[key];
  }
}

/**
 * The overrides after the form's changes, in native form (`translations.<language>`): a changed
 * name or label becomes an override in the content language (an emptied one is reset: names fall
 * back, never blank), a changed description is kept as written (an explicit empty description
 * stays blank), and a reset removes the channel's override of that text.
 */
export function overridesAfter(read: ChannelRead, changes: FormChanges): Record<string, unknown> {
  const overrides = structuredClone(read.overrides) as Record<string, unknown>;
  const language = read.language;
  const apply = (key: string, value: string | undefined) => {
    const [area, id, field] = key.split('.') as [TextArea, string, FormText['field']];
    const path = area === 'taxLabels' ? [area, id, 'translations'] : [area, id, 'translations', language];
    if (value === undefined) {
      let parent: Record<string, unknown> | undefined = overrides;
      for (const part of path) parent = parent?.[part] as Record<string, unknown> | undefined;
      if (parent) delete parent[area === 'taxLabels' ? language : field];
      prune(overrides, path);
      return;
    }
    let parent = overrides;
    for (const part of path) parent = objectAt(parent, part);
    parent[area === 'taxLabels' ? language : field] = value;
  };
  const toggle = (key: string, value: boolean | undefined) => {
    const [area, id] = key.split('.') as [TextArea, string];
    if (value === undefined) {
      const entry = (overrides[area] as Record<string, Record<string, unknown>> | undefined)?.[id];
      if (entry) delete entry.active;
      prune(overrides, [area, id]);
      return;
    }
    objectAt(objectAt(overrides, area), id).active = value;
  };
  for (const [key, value] of changes.set) {
    const field = key.split('.')[2];
    apply(key, value === '' && field !== 'description' ? undefined : value);
  }
  for (const [key, value] of changes.switches) if (!key.startsWith('channel.')) toggle(key, value);
  if (changes.delivery) overrides.deliveryCountries = [...changes.delivery];
  for (const [key, rate] of changes.rates) {
    const [, classId, place] = key.split('.') as [string, string, string];
    objectAt(objectAt(objectAt(overrides, 'taxRates'), classId), 'rates')[place] = rate;
  }
  for (const [key, rows] of changes.prices) {
    const [area, id] = key.split('.') as [TextArea, string];
    objectAt(objectAt(overrides, area), id).prices = rows.map((row) => ({ ...row }));
  }
  for (const [key, value] of changes.company) {
    const path = key.split('.');
    let parent = overrides;
    for (const part of path.slice(0, -1)) parent = objectAt(parent, part);
    parent[path.at(-1)!] = value;
  }
  for (const key of changes.reset) {
    if (key.startsWith('company.')) {
      const path = key.split('.');
      const parent = valueAt(overrides, path.slice(0, -1)) as Record<string, unknown> | undefined;
      if (parent && typeof parent === 'object') delete parent[path.at(-1)!];
      prune(overrides, path.slice(0, -1));
    } else if (key.startsWith('taxRates.')) {
      const [, classId, place] = key.split('.') as [string, string, string];
      const rates = (overrides.taxRates as Record<string, { rates?: Record<string, unknown> }> | undefined)?.[
        classId
      ]?.rates;
      if (rates) delete rates[place];
      prune(overrides, ['taxRates', classId, 'rates']);
    } else if (key === 'deliveryCountries') delete overrides.deliveryCountries;
    else if (key.endsWith('.active')) toggle(key, undefined);
    else if (key.endsWith('.prices')) {
      const [area, id] = key.split('.') as [TextArea, string];
      const entry = (overrides[area] as Record<string, Record<string, unknown>> | undefined)?.[id];
      if (entry) delete entry.prices;
      prune(overrides, [area, id]);
    } else apply(key, undefined);
  }
  return overrides;
}

/**
 * Every field of the form with the value it is rendered with, as its `was:` field carries it:
 * texts as written, switches as `true`/`false`, the delivery countries as their joined codes.
 */
export function renderedValues(
  entries: readonly FormEntry[],
  delivery: DeliveryChoice,
  own: Record<OwnSwitch, boolean>,
  rateFields: readonly RateField[] = [],
  more: {
    readonly fields?: OwnFields;
    readonly isMain?: boolean;
    readonly company?: readonly CompanyField[];
  } = {},
): Map<string, string> {
  const values = new Map<string, string>();
  if (more.fields) {
    values.set('channel.name', more.fields.name);
    values.set('channel.mode', more.fields.mode);
    if (!more.isMain) values.set('channel.languages', more.fields.languages.join(','));
    values.set('channel.domains', domainsText(more.fields.domains));
    values.set('channel.catalog', categoriesText(more.fields.categoryIds));
    values.set('channel.navigation', more.fields.navigationRoot ?? '');
  }
  for (const field of more.company ?? []) values.set(field.key, field.text);
  for (const field of rateFields) values.set(field.key, String(field.value));
  for (const name of OWN_SWITCHES) values.set(`channel.${name}`, String(own[name]));
  for (const entry of entries) {
    for (const text of entry.texts) values.set(text.key, text.value);
    if (entry.active) values.set(entry.active.key, String(entry.active.value));
    if (entry.priceField) values.set(entry.priceField.key, pricesText(entry.prices));
  }
  values.set(
    delivery.key,
    delivery.countries
      .filter((country) => country.chosen)
      .map((country) => country.code)
      .join(','),
  );
  return values;
}

/** The fields whose stored value changed since the form was rendered (a stale save's "what changed"). */
export function changedFields(
  before: ReadonlyMap<string, string>,
  now: ReadonlyMap<string, string>,
): { key: string; before: string; now: string }[] {
  return [...now].flatMap(([key, value]) => {
    const was = before.get(key);
    return was !== undefined && was !== value ? [{ key, before: was, now: value }] : [];
  });
}
