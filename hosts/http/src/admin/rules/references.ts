import { type AdminSession, NATIVE_CUSTOMER_GROUPS } from '@cartwright/service';
import { type CategoryRecord, categoryOptions } from '../channel-form.ts';
import { type Locale, type MessageKey, nameIn } from '../i18n.ts';
import type { AdminKit } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import { nameOf } from '../methods/form.ts';
import type { Choice } from './test-cart.ts';

// The shop's choices for the catalog's id parameters (`references` on a parameter, decision 0047):
// what a rule's `categoryIds`, `paymentMethodIds`, `countryIds`, … can name, labelled in the UI
// language from the shop's own data. Only the kinds a rule uses are loaded; a kind whose list the
// member may not read (or that fails) has no choices, and its parameter stays a list of ids.

/** Choices by reference kind ('category', 'country', …). */
export type ReferenceChoices = ReadonlyMap<string, readonly Choice[]>;

type Translations = Record<string, { name?: string | null } | null | undefined>;

interface Named {
  readonly id: string;
  readonly key?: string | null;
  readonly translations?: Translations | null;
}

interface Country {
  readonly code: string;
  readonly translations?: Translations;
  readonly subdivisions?: readonly { code: string; translations?: Translations }[];
}

const CUSTOMER_GROUP_KEYS: Record<keyof typeof NATIVE_CUSTOMER_GROUPS, MessageKey> = {
  consumer: 'rules.customerGroup.consumer',
  business: 'rules.customerGroup.business',
};

/** A record's name in the UI language, else English's, else any, else `fallback`. */
const translated = (translations: Translations | null | undefined, locale: Locale, fallback: string) =>
  nameOf({ id: fallback, key: fallback, translations: (translations ?? {}) as never }, locale, 'en').text;

/** The list operation each kind's choices come from (channels come with the rules' own list). */
const LIST_OPERATIONS: Record<string, string> = {
  category: 'catalog.categories.list',
  taxClass: 'basis.tax_classes.list',
  paymentMethod: 'basis.payment_methods.list',
  shippingMethod: 'basis.shipping_methods.list',
  country: 'basis.countries.list',
  countryState: 'basis.countries.list',
  currency: 'basis.currencies.list',
  language: 'basis.languages.list',
};

/** The choices for `kinds`, one list operation per kind used (countries and their regions share one). */
export async function referenceChoices(
  kit: AdminKit,
  session: AdminSession,
  t: PageContext['t'],
  kinds: ReadonlySet<string>,
  channels: readonly { id: string; data: { name?: Record<string, string> } }[],
): Promise<ReferenceChoices> {
  const { locale } = t;
  const operations = [...new Set([...kinds].flatMap((kind) => LIST_OPERATIONS[kind] ?? []))];
  const listed = new Map(
    await Promise.all(
      operations.map(async (operation) => {
        const result = await kit.act(session, operation, {});
        return [operation, result.ok ? (result.value as { items: unknown[] }).items : null] as const;
      }),
    ),
  );
  const named = (operation: string): Choice[] | null => {
    const items = listed.get(operation) as Named[] | null | undefined;
    return items
      ? items.map((item) => ({
          id: item.id,
          label: translated(item.translations, locale, item.key ?? item.id),
        }))
      : null;
  };
  const countries = (listed.get('basis.countries.list') ?? null) as Country[] | null;
  const choices = new Map<string, readonly Choice[]>();
  for (const kind of kinds) {
    let found: readonly Choice[] | null = null;
    switch (kind) {
      case 'category': {
        const items = listed.get('catalog.categories.list') as CategoryRecord[] | null | undefined;
        found = items
          ? categoryOptions(items, locale, 'en').map((option) => ({
              id: option.id,
              label: `${'– '.repeat(option.depth)}${option.name}`,
            }))
          : null;
        break;
      }
      case 'taxClass':
      case 'paymentMethod':
      case 'shippingMethod':
        found = named(LIST_OPERATIONS[kind]!);
        break;
      case 'country':
        found =
          countries?.map((country) => ({
            id: country.code,
            label: `${translated(country.translations, locale, country.code)} (${country.code})`,
          })) ?? null;
        break;
      case 'countryState':
        found =
          countries?.flatMap((country) =>
            (country.subdivisions ?? []).map((region) => ({
              id: region.code,
              label: `${translated(country.translations, locale, country.code)}: ${translated(region.translations, locale, region.code)} (${region.code})`,
            })),
          ) ?? null;
        break;
      case 'currency': {
        const items = listed.get('basis.currencies.list') as { code: string; symbol: string }[] | null;
        found =
          items?.map((currency) => ({ id: currency.code, label: `${currency.code} (${currency.symbol})` })) ??
          null;
        break;
      }
      case 'language': {
        const items = listed.get('basis.languages.list') as { code: string; name: string }[] | null;
        found =
          items?.map((language) => ({ id: language.code, label: `${language.name} (${language.code})` })) ??
          null;
        break;
      }
      case 'salesChannel':
        found = channels.map((channel) => ({
          id: channel.id,
          label: nameIn(channel.data.name ?? {}, locale, channel.id),
        }));
        break;
      case 'customerGroup':
        found = Object.entries(NATIVE_CUSTOMER_GROUPS).map(([group, id]) => ({
          id,
          label: t.t(CUSTOMER_GROUP_KEYS[group as keyof typeof NATIVE_CUSTOMER_GROUPS]),
        }));
        break;
    }
    if (found) choices.set(kind, found);
  }
  return choices;
}
