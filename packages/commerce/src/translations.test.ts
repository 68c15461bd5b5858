import { describe, expect, it } from 'vitest';
import { isLanguageEnabled, languageChain, resolveTranslated, type Translations } from './translations.ts';

describe('languageChain', () => {
  it.each([
    ['de-CH', 'en-GB', ['de-CH', 'de', 'en-GB']],
    ['de-CH', 'de', ['de-CH', 'de']],
    ['de', 'de', ['de']],
    ['de-CH', 'de-CH', ['de-CH', 'de']],
    ['zh-Hant-TW', 'en', ['zh-Hant-TW', 'zh-Hant', 'zh', 'en']],
    ['', 'en', ['en']],
  ])('%s with main %s → %j', (requested, main, expected) => {
    expect(languageChain(requested, main)).toEqual(expected);
  });
});

describe('isLanguageEnabled', () => {
  it.each([
    ['an enabled language', 'de', ['en', 'de'], true],
    ['a language not enabled', 'fr', ['en', 'de'], false],
    ['a regional form of an enabled language (it falls back to it)', 'de-CH', ['en', 'de'], true],
    ['the base an enabled regional language falls back to', 'de', ['en', 'de-CH'], true],
    ['a sibling region of an enabled regional language', 'de-AT', ['de-CH'], false],
    ['a regional form of a language not enabled', 'fr-CH', ['en', 'de'], false],
    ['any language when none is enabled', 'en', [], false],
    ['a deeper subtag of an enabled script', 'zh-Hant-TW', ['zh-Hant'], true],
  ] as const)('%s: %s in %j → %s', (_name, language, enabled, expected) => {
    expect(isLanguageEnabled(language, enabled)).toBe(expected);
  });
});

describe('resolveTranslated', () => {
  const translations: Translations = {
    'en-GB': { name: 'Chair', description: 'A chair', slogan: 'Sit down' },
    de: { name: 'Stuhl', description: '', slogan: null },
    'de-CH': { name: 'Sessel', description: null },
    fr: { name: undefined },
  };

  it.each([
    ['the requested language', 'name', 'de-CH', { value: 'Sessel', language: 'de-CH' }],
    [
      'null inherits from the base language, whose empty string stays empty',
      'description',
      'de-CH',
      { value: '', language: 'de' },
    ],
    ['the base language', 'name', 'de-AT', { value: 'Stuhl', language: 'de' }],
    ['an explicit empty string stays empty', 'description', 'de', { value: '', language: 'de' }],
    ['null inherits the main language', 'slogan', 'de', { value: 'Sit down', language: 'en-GB' }],
    [
      'a missing field inherits the main language',
      'slogan',
      'de-CH',
      { value: 'Sit down', language: 'en-GB' },
    ],
    ['undefined inherits the main language', 'name', 'fr', { value: 'Chair', language: 'en-GB' }],
    ['a missing language inherits the main language', 'name', 'it', { value: 'Chair', language: 'en-GB' }],
    ['no language has the field', 'subtitle', 'de-CH', null],
    ['an inherited object property is not a field', 'constructor', 'de', null],
  ])('%s', (_name, field, requested, expected) => {
    expect(resolveTranslated(translations, field, requested, 'en-GB')).toEqual(expected);
  });

  it('returns null when nothing is stored and creates nothing', () => {
    const empty: Translations = Object.freeze({});
    expect(resolveTranslated(empty, 'name', 'de-CH', 'en-GB')).toBeNull();
    expect(empty).toEqual({});
  });

  it('ignores a language named like an object property', () => {
    expect(resolveTranslated({}, 'name', 'constructor', '__proto__')).toBeNull();
  });
});
