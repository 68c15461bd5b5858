import { isLanguageEnabled } from '@cartwright/commerce';
import { type Executor, findChannel, findTenant, listBasis } from '@cartwright/repository';
import { jsonPointer } from '@cartwright/settings-inheritance';
import { type Failure, fail } from '../kernel/errors.ts';

// The one check of content languages (decision 0029): a merchant reads and writes content in a
// language the shop has enabled, a storefront in one its channel has. Every input that names a
// content language (a `language` parameter, the keys of a translations object) goes through
// `refuseDisabledLanguages` before anything is read in it or written.

/** One place an input names a content language: the JSON pointer of the field and the code. */
export interface LanguageUse {
  readonly pointer: string;
  readonly language: string;
}

/** Most field errors one refusal lists, as the input policy's. */
const MAX_ERRORS = 20;

/**
 * The languages content may be in: for the shop (no channel, or the main channel) its active
 * basis languages and its main language, sorted; for an additional channel the languages it chose,
 * in its order, as far as the shop has them enabled. Regional forms: see `isLanguageEnabled`.
 */
export async function enabledLanguages(
  db: Executor,
  tenantId: string,
  channelId?: string | undefined,
): Promise<string[]> {
  const [tenant, languages, channel] = await Promise.all([
    findTenant(db, tenantId),
    listBasis(db, 'languages', tenantId),
    channelId === undefined ? undefined : findChannel(db, tenantId, channelId),
  ]);
  const shop = [
    ...new Set([
      ...(tenant ? [tenant.mainLanguage] : []),
      ...languages.filter((language) => language.active).map((language) => language.code),
    ]),
  ].sort();
  if (!channel || channel.isMain) return shop;
  const chosen = (channel.data as { languages?: unknown }).languages;
  if (!Array.isArray(chosen)) return [];
  return [
    ...new Set(
      chosen.filter((code): code is string => typeof code === 'string' && isLanguageEnabled(code, shop)),
    ),
  ];
}

/** A `language` parameter as a use (none when absent: the main language is read then). */
export function languageParameter(language: string | undefined): LanguageUse[] {
  return language === undefined ? [] : [{ pointer: '/language', language }];
}

/** The languages of a translations object (its keys), each pointing at `path` + the key. */
export function translationLanguages(translations: unknown, path: readonly string[]): LanguageUse[] {
  if (translations === null || typeof translations !== 'object' || Array.isArray(translations)) return [];
  return Object.keys(translations).map((language) => ({
    pointer: jsonPointer([...path, language]),
    language,
  }));
}

/**
 * 422 `LANGUAGE_NOT_ENABLED` when any use names a language not enabled for the shop (or for the
 * storefront's channel, with `channelId`): a pointer per offending field, the refused `languages`
 * and the `enabled` ones. Null when every use is enabled (or there is none: nothing is read then).
 */
export async function refuseDisabledLanguages(
  db: Executor,
  scope: { readonly tenantId: string; readonly channelId?: string | undefined },
  uses: readonly LanguageUse[],
): Promise<Failure | null> {
  if (uses.length === 0) return null;
  const enabled = await enabledLanguages(db, scope.tenantId, scope.channelId);
  const refused = uses.filter((use) => !isLanguageEnabled(use.language, enabled));
  if (refused.length === 0) return null;
  const languages = [...new Set(refused.map((use) => use.language))];
  const where = scope.channelId === undefined ? 'this shop' : 'this sales channel';
  return fail(
    'LANGUAGE_NOT_ENABLED',
    `${languages.length === 1 ? 'The language' : 'The languages'} ${languages.join(', ')} ${languages.length === 1 ? 'is' : 'are'} not enabled for ${where} (enabled: ${enabled.join(', ') || 'none'}).`,
    {
      errors: refused.slice(0, MAX_ERRORS).map((use) => ({
        pointer: use.pointer,
        message: `${use.language} is not enabled (enabled: ${enabled.join(', ') || 'none'})`,
      })),
      extensions: { languages, enabled },
    },
  );
}
