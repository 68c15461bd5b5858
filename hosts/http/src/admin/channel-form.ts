// The channel settings form's data (no markup): which texts it shows in the content language, with
// their provenance, and how a posted form becomes the overrides `merchant.commerce.save` takes.
// Everything here reads the operation's own answer (`merchant.commerce.read`), so the page shows
// exactly what the API says (decisions 0020, 0023, 0029, 0047).

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

/** Whether `translations` has a name in `language` or in its base language (de for de-CH). */
function hasName(
  translations: Record<string, { name?: string | null } | undefined> | undefined,
  language: string,
) {
  const base = language.split('-')[0]!;
  return Boolean(translations?.[language]?.name || translations?.[base]?.name);
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
        translated: hasName(basis[code]?.translations, read.language),
        subdivisions: (countries[code]?.subdivisions ?? []).map((subdivision) => ({
          code: subdivision.code,
          name: subdivision.name ?? subdivision.code,
          translated: hasName(
            basis[code]?.subdivisions?.find((candidate) => candidate.code === subdivision.code)?.translations,
            read.language,
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

/**
 * The channel's own fields as a save sends them: as read (the main channel sends no languages),
 * with the form's changed switches.
 */
export function channelFieldsOf(read: ChannelRead, changes?: FormChanges): Record<string, unknown> {
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
  return fields;
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
  const reset =
    typeof body.reset === 'string' && known.has(body.reset) ? new Set([body.reset]) : new Set<string>();
  return { set, switches, delivery: countries, prices, rates, invalid, reset };
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
  for (const key of changes.reset) {
    if (key.startsWith('taxRates.')) {
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
): Map<string, string> {
  const values = new Map<string, string>();
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
