import {
  categoryTable,
  findCategory,
  listCategoryLinks,
  listChildCategoryIds,
  listProductIdsInCategory,
  lockTransaction,
} from '@cartwright/repository';
import * as v from 'valibot';
import { fail } from '../kernel/errors.ts';
import { revisionBoundOperations } from '../kernel/revision-bound.ts';
import { Active, Position, TranslationsOf, Uuid } from '../kernel/schemas.ts';
import { refuseDisabledLanguages, translationLanguages } from '../settings/languages.ts';
import { missingMainLanguageName } from './translations.ts';

/** True when `ancestorId` is `id` or lies above it in the tree the links describe. */
function isWithin(links: ReadonlyMap<string, string | null>, id: string, ancestorId: string): boolean {
  const seen = new Set<string>();
  for (let current: string | null = id; current !== null; current = links.get(current) ?? null) {
    if (current === ancestorId) return true;
    if (seen.has(current)) return false;
    seen.add(current);
  }
  return false;
}

/** `catalog.categories.list|save|delete`: a tree saved whole at a revision, like the basis. */
export const categoryOperations = revisionBoundOperations({
  table: categoryTable,
  name: 'catalog.categories',
  path: '/api/catalog/categories',
  event: 'catalog.category',
  noun: 'category',
  permissions: { read: 'catalog.read', write: 'catalog.write' },
  keyParam: 'id',
  keySchema: Uuid,
  fields: {
    parentId: v.optional(v.nullable(Uuid), null),
    translations: TranslationsOf(['name', 'description']),
    position: Position,
    active: Active,
  },
  async check(tx, tenantId, input, _current, id) {
    const languages = translationLanguages(input.translations, ['translations']);
    const refused = await refuseDisabledLanguages(tx, { tenantId }, languages);
    if (refused) return refused;
    const missing = await missingMainLanguageName(tx, tenantId, input.translations);
    if (missing) return fail('VALIDATION_FAILED', 'The category needs a name.', { errors: [missing] });
    if (!input.parentId) return null;
    // One tree change at a time per shop, so two moves cannot each close half of a cycle.
    await lockTransaction(tx, `catalog.categories:${tenantId}`);
    if (!(await findCategory(tx, tenantId, input.parentId, 'share'))) {
      return fail('VALIDATION_FAILED', 'The parent category does not exist in this shop.', {
        errors: [{ pointer: '/parentId', message: 'no such category in this shop' }],
      });
    }
    const links = new Map((await listCategoryLinks(tx, tenantId)).map((link) => [link.id, link.parentId]));
    if (isWithin(links, input.parentId, id)) {
      return fail('VALIDATION_FAILED', 'A category cannot be placed inside itself.', {
        errors: [{ pointer: '/parentId', message: 'is this category or one of its descendants' }],
      });
    }
    return null;
  },
  async findUses(tx, tenantId, id) {
    const children = await listChildCategoryIds(tx, tenantId, id, 100);
    const products = await listProductIdsInCategory(tx, tenantId, id, 100);
    return [
      ...children.map((child) => ({ kind: 'category', id: child })),
      ...products.map((product) => ({ kind: 'product', id: product })),
    ];
  },
});
