import { resolveTranslated } from '@cartwright/commerce';
import { type Executor, findTenant } from '@cartwright/repository';
import type { FieldError } from '../kernel/errors.ts';

/**
 * Why a record's translations cannot stand alone: it needs a non-blank name in the shop's main
 * language (a regional main language such as `de-CH` may take it from `de`). Null when it has one.
 */
export async function missingMainLanguageName(
  tx: Executor,
  tenantId: string,
  translations: Readonly<Record<string, Readonly<Record<string, string | null | undefined>>>> | null,
): Promise<FieldError | null> {
  const mainLanguage = (await findTenant(tx, tenantId))?.mainLanguage ?? 'en';
  const name = resolveTranslated(translations ?? {}, 'name', mainLanguage, mainLanguage);
  if (name && name.value.trim() !== '') return null;
  return {
    pointer: `/translations/${mainLanguage}/name`,
    message: `needs a name in the main language (${mainLanguage})`,
  };
}
