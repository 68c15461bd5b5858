/** Stored translations of one record: language code → field → text. */
export type Translations = Readonly<Record<string, Readonly<Record<string, string | null | undefined>>>>;

/**
 * The languages to try, most specific first: `de-CH` with main language `en-GB` gives
 * `['de-CH', 'de', 'en-GB']`. Each subtag is dropped in turn (`zh-Hant-TW` → `zh-Hant` → `zh`);
 * duplicates keep their first place. Codes are compared exactly, so normalise them at the edge.
 */
export function languageChain(requested: string, mainLanguage: string): string[] {
  return [...new Set([...regionalChain(requested), mainLanguage])];
}

/** `zh-Hant-TW` → `['zh-Hant-TW', 'zh-Hant', 'zh']`: the code, then each subtag dropped in turn. */
function regionalChain(code: string): string[] {
  const chain: string[] = [];
  const subtags = code.split('-').filter((subtag) => subtag !== '');
  for (let length = subtags.length; length > 0; length -= 1) chain.push(subtags.slice(0, length).join('-'));
  return chain;
}

/**
 * Whether content in `language` belongs where `enabled` are the languages, by the chain above: it
 * is one of them, a regional form of one (`de-CH` reads an enabled `de`), or the base form an
 * enabled regional language falls back to (`de` when `de-CH` is enabled). `de-AT` is not enabled by
 * `de-CH` alone: neither falls back to the other. The main language step does not count.
 */
export function isLanguageEnabled(language: string, enabled: readonly string[]): boolean {
  const chain = regionalChain(language);
  return enabled.some((code) => chain.includes(code) || regionalChain(code).includes(language));
}

export interface TranslatedValue {
  readonly value: string;
  readonly language: string;
}

/**
 * The value of `field` in the first language of the chain that holds a string for it. An explicit
 * empty string counts (it stays empty and does not inherit); `null`, `undefined` and a missing
 * language or field inherit from the next language. `null` when no language has a value. Reading
 * never creates anything.
 */
export function resolveTranslated(
  translations: Translations,
  field: string,
  requested: string,
  mainLanguage: string,
): TranslatedValue | null {
  for (const language of languageChain(requested, mainLanguage)) {
    const fields = Object.hasOwn(translations, language) ? translations[language] : undefined;
    const value = fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (typeof value === 'string') return { value, language };
  }
  return null;
}
