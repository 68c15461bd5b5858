import { currencyDigits, formatAmount, parseAmount } from '../channel-form.ts';
import type { FieldProblem } from '../fields.tsx';
import type { MessageKey, Translator } from '../i18n.ts';
import type { FormBody } from '../kit.ts';

// The shared basis's shipping and payment methods as a form (no markup): which fields a method's
// form has, the entries they show (from a stored method or as posted), and how entries become the
// input of `basis.shipping_methods.save` / `basis.payment_methods.save` (decisions 0029, 0047).

export const METHOD_AREAS = ['shipping', 'payments'] as const;
export type MethodArea = (typeof METHOD_AREAS)[number];

/** The revision-bound basis resource of each area (`<resource>.list|save|delete`). */
export const RESOURCE: Record<MethodArea, string> = {
  shipping: 'basis.shipping_methods',
  payments: 'basis.payment_methods',
};

export const HANDLERS = ['invoice', 'prepayment', 'cash_on_delivery', 'provider', 'app'] as const;
export type Handler = (typeof HANDLERS)[number];

type Texts = Record<string, { name?: string | null; description?: string | null } | undefined>;

/** A method as the basis list and `merchant.commerce.method` answer it. */
export interface MethodRecord {
  readonly id: string;
  readonly key: string | null;
  readonly translations: Texts;
  readonly active: boolean;
  readonly position: number;
  readonly revision: number;
  readonly updatedAt: string;
  readonly prices?: readonly { currency: string; gross: number; net: number }[];
  readonly taxClassId?: string | null;
  readonly appId?: string | null;
  readonly handler?: Handler;
}

/** What a method's form looks like for this shop and UI language. */
export interface FormShape {
  readonly area: MethodArea;
  readonly locale: string;
  readonly mainLanguage: string;
  /** Languages with a name and a description field: main first, then the UI language, then stored ones. */
  readonly languages: readonly string[];
  /** Currencies with a gross and a net field (shipping only). */
  readonly currencies: readonly string[];
}

/** The form's entries as typed: field name → text (`active` is `on` or empty). */
export type Entries = Record<string, string>;

export function shapeOf(options: {
  area: MethodArea;
  locale: string;
  mainLanguage: string;
  enabledLanguages: readonly string[];
  activeCurrencies: readonly string[];
  record?: MethodRecord | undefined;
}): FormShape {
  const { area, locale, mainLanguage, record } = options;
  const stored = Object.keys(record?.translations ?? {}).sort();
  const languages = [
    ...new Set([mainLanguage, ...(options.enabledLanguages.includes(locale) ? [locale] : []), ...stored]),
  ];
  const currencies =
    area === 'shipping'
      ? [...new Set([...options.activeCurrencies, ...(record?.prices ?? []).map((price) => price.currency)])]
      : [];
  return { area, locale, mainLanguage, languages, currencies };
}

/** Every field name of the form, in the order it shows them. */
export function fieldNames(shape: FormShape): string[] {
  return [
    ...shape.languages.flatMap((language) => [`name.${language}`, `description.${language}`]),
    'active',
    'position',
    'key',
    ...shape.currencies.flatMap((currency) => [`price.${currency}.gross`, `price.${currency}.net`]),
    ...(shape.area === 'shipping' ? ['taxClassId'] : ['handler']),
    'appId',
  ];
}

/** A field's element id: `f-name-en`, `f-price-EUR-gross`. */
export function fieldId(name: string): string {
  return `f-${name.replace(/\./g, '-')}`;
}

/** A field's label in the UI language. */
export function fieldLabel(t: Translator, name: string): string {
  const [kind = '', first = '', second = ''] = name.split('.');
  if (kind === 'name') return t.t('methods.field.name', { language: t.languageName(first) });
  if (kind === 'description') return t.t('methods.field.description', { language: t.languageName(first) });
  if (kind === 'price')
    return t.t(second === 'gross' ? 'methods.field.gross' : 'methods.field.net', { currency: first });
  const keys: Record<string, MessageKey> = {
    active: 'methods.field.active',
    position: 'methods.field.position',
    key: 'methods.field.key',
    taxClassId: 'methods.field.taxClass',
    handler: 'methods.field.handler',
    appId: 'methods.field.app',
  };
  return t.t(keys[kind] ?? 'methods.field.key');
}

/** The entries a stored method (or a new one, without a record) shows. */
export function entriesOf(shape: FormShape, record: MethodRecord | undefined): Entries {
  const entries: Entries = {};
  for (const language of shape.languages) {
    entries[`name.${language}`] = record?.translations[language]?.name ?? '';
    entries[`description.${language}`] = record?.translations[language]?.description ?? '';
  }
  entries.active = (record?.active ?? true) ? 'on' : '';
  entries.position = String(record?.position ?? 0);
  entries.key = record?.key ?? '';
  for (const currency of shape.currencies) {
    const price = record?.prices?.find((item) => item.currency === currency);
    entries[`price.${currency}.gross`] = price ? formatAmount(price.gross, shape.locale, currency) : '';
    entries[`price.${currency}.net`] = price ? formatAmount(price.net, shape.locale, currency) : '';
  }
  if (shape.area === 'shipping') entries.taxClassId = record?.taxClassId ?? '';
  else entries.handler = record?.handler ?? 'invoice';
  entries.appId = record?.appId ?? '';
  return entries;
}

/** The entries of a posted form: only this shape's fields, each as text (bounded). */
export function entriesFrom(shape: FormShape, form: FormBody): Entries {
  const entries: Entries = {};
  for (const name of fieldNames(shape)) {
    const value = form[name];
    entries[name] = typeof value === 'string' ? value.slice(0, 20_000) : '';
  }
  entries.active = form.active === 'on' ? 'on' : '';
  return entries;
}

/** An example amount as the UI language writes it (4.90 / 4,90). */
export function amountExample(locale: string, currency: string): string {
  return formatAmount(4.9 * 10 ** currencyDigits(currency), locale, currency);
}

/**
 * The save's input from the entries, or the problems pinned to their fields (nothing is sent
 * then). Checked here: the main language's name, amounts as the UI language writes them (both or
 * neither per currency) and the position as a whole number; the operation checks everything else.
 */
export function inputOf(
  t: Translator,
  shape: FormShape,
  entries: Entries,
  id: string,
  revision: number,
): { input: Record<string, unknown> } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const translations: Record<string, { name: string | null; description: string | null }> = {};
  for (const language of shape.languages) {
    const name = (entries[`name.${language}`] ?? '').trim();
    const description = (entries[`description.${language}`] ?? '').trim();
    if (name !== '' || description !== '')
      translations[language] = { name: name || null, description: description || null };
  }
  if (!translations[shape.mainLanguage]?.name) {
    problems.push({
      field: `name.${shape.mainLanguage}`,
      text: t.t('methods.error.nameRequired', { language: t.languageName(shape.mainLanguage) }),
    });
  }
  const positionText = (entries.position ?? '').trim();
  const position = /^-?\d{1,10}$/.test(positionText) ? Number(positionText) : null;
  if (position === null) problems.push({ field: 'position', text: t.t('methods.error.position') });
  const prices: { currency: string; gross: number; net: number }[] = [];
  for (const currency of shape.currencies) {
    const amounts = (['gross', 'net'] as const).map((side) => {
      const field = `price.${currency}.${side}`;
      const typed = (entries[field] ?? '').trim();
      return { field, typed, amount: typed === '' ? null : parseAmount(typed, shape.locale, currency) };
    });
    if (amounts.every((amount) => amount.typed === '')) continue;
    for (const amount of amounts) {
      if (amount.typed === '') {
        problems.push({ field: amount.field, text: t.t('methods.error.bothAmounts') });
      } else if (amount.amount === null) {
        problems.push({
          field: amount.field,
          text: t.t('methods.error.amount', { currency, example: amountExample(shape.locale, currency) }),
        });
      }
    }
    const [gross, net] = amounts;
    if (gross?.amount != null && net?.amount != null)
      prices.push({ currency, gross: gross.amount, net: net.amount });
  }
  if (problems.length > 0) return { problems };
  const key = (entries.key ?? '').trim();
  const appId = (entries.appId ?? '').trim();
  const common = {
    id,
    revision,
    key: key === '' ? null : key,
    translations,
    active: entries.active === 'on',
    position,
    appId: appId === '' ? null : appId,
  };
  if (shape.area === 'shipping') {
    const taxClassId = (entries.taxClassId ?? '').trim();
    return { input: { ...common, prices, taxClassId: taxClassId === '' ? null : taxClassId } };
  }
  return { input: { ...common, handler: entries.handler ?? '' } };
}

/** A stored method's save input with one change (the activation switch keeps everything else). */
export function recordInput(
  area: MethodArea,
  record: MethodRecord,
  change: { active: boolean },
): Record<string, unknown> {
  const common = {
    id: record.id,
    revision: record.revision,
    key: record.key,
    translations: record.translations,
    active: change.active,
    position: record.position,
    appId: record.appId ?? null,
  };
  return area === 'shipping'
    ? { ...common, prices: record.prices ?? [], taxClassId: record.taxClassId ?? null }
    : { ...common, handler: record.handler };
}

/**
 * The form field an operation's error pointer names (`/translations/de/name` → `name.de`,
 * `/prices/1/net` → `price.<the second price's currency>.net`), or null for the form as a whole.
 */
export function fieldOfPointer(
  shape: FormShape,
  input: Record<string, unknown>,
  pointer: string,
): string | null {
  const [head = '', second, third] = pointer.split('/').slice(1);
  if (head === 'translations' && second !== undefined && shape.languages.includes(second))
    return third === 'description' ? `description.${second}` : `name.${second}`;
  if (head === 'prices' && second !== undefined) {
    const price = (input.prices as { currency: string }[] | undefined)?.[Number(second)];
    if (price && shape.currencies.includes(price.currency))
      return `price.${price.currency}.${third === 'net' ? 'net' : 'gross'}`;
    return null;
  }
  const fields = ['active', 'position', 'key', 'appId', shape.area === 'shipping' ? 'taxClassId' : 'handler'];
  return fields.includes(head) ? head : null;
}

/** A stored method's name in `language`, else the main language's (marked), else its key or id. */
export function nameOf(
  record: Pick<MethodRecord, 'id' | 'key' | 'translations'>,
  language: string,
  mainLanguage: string,
): { text: string; fallback: string | null } {
  const own = record.translations[language]?.name;
  if (own) return { text: own, fallback: null };
  const main = record.translations[mainLanguage]?.name;
  if (main) return { text: main, fallback: language === mainLanguage ? null : mainLanguage };
  const any = Object.entries(record.translations).find(([, texts]) => texts?.name);
  if (any) return { text: any[1]!.name!, fallback: any[0] };
  return { text: record.key ?? record.id, fallback: null };
}
