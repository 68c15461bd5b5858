import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import {
  catalogs,
  LOCALES,
  type MessageKey,
  type Messages,
  pickLocale,
  translator,
} from '../src/admin/i18n.ts';

// The admin UI's catalogs: tsc already refuses a missing message (`satisfies Record<Locale,
// Messages>`); this checks every message is valid ICU and names the same arguments in every language.

/** The argument names a message uses. */
function argumentsOf(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: unknown[]) => {
    for (const element of elements as {
      type: number;
      value?: string;
      options?: Record<string, { value: unknown[] }>;
    }[]) {
      if (element.type !== 0 && element.value) names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as unknown[]);
  return [...names].sort();
}

describe('the admin UI catalogs', () => {
  const keys = Object.keys(catalogs.en) as MessageKey[];
  it.each(LOCALES.filter((locale) => locale !== 'en'))(
    '%s parses and names the same arguments as English',
    (locale) => {
      for (const key of keys) {
        expect(argumentsOf(catalogs[locale][key], locale), `${locale} ${key}`).toEqual(
          argumentsOf(catalogs.en[key], 'en'),
        );
      }
    },
  );

  it('types a catalog so a missing message fails the type check', () => {
    const { appName: _, ...incomplete } = catalogs.de;
    // @ts-expect-error a German catalog without `appName` is not a complete catalog
    const missing: Messages = incomplete;
    const complete: Messages = catalogs.de;
    expect(Object.keys(missing).length + 1).toBe(Object.keys(complete).length);
  });

  it('formats plurals, money and dates per language', () => {
    expect(translator('en').t('home.channels', { count: 1 })).toBe('1 sales channel');
    expect(translator('de').t('home.channels', { count: 2 })).toBe('2 Verkaufskanäle');
    expect(translator('fr').t('home.channels', { count: 0 })).toBe('Aucun canal de vente');
    expect(translator('de').money(149_900, 'EUR')).toBe('1.499,00\u00a0€');
    expect(translator('en').money(149_900, 'EUR')).toBe('€1,499.00');
    // Amounts are minor units: the yen has none.
    expect(translator('es').money(1_000, 'JPY')).toMatch(/^1000\s(JPY|¥)$/);
    expect(translator('de').t('session.who', { role: 'reader' })).toBe('Angemeldet als Leser');
  });

  it('picks the chosen language, else the best of Accept-Language, else English', () => {
    expect(pickLocale('fr', 'de-DE')).toBe('fr');
    expect(pickLocale(undefined, 'it-IT, de;q=0.8, en;q=0.5')).toBe('de');
    expect(pickLocale('xx', 'es-MX')).toBe('es');
    expect(pickLocale(undefined, 'it, nl;q=0.1')).toBe('en');
    expect(pickLocale(undefined, undefined)).toBe('en');
  });
});
