import { and, asc, eq, gt, inArray, isNotNull, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../database.ts';
import { categories, products } from '../schema.ts';
import {
  deleteRevisioned,
  findRevisioned,
  listRevisioned,
  type RevisionCheck,
  type RevisionedFields,
  type RevisionedTable,
  saveRevisioned,
} from './basis.ts';
import {
  deleteRows,
  findRow,
  inTenant,
  listIds,
  type RowLock,
  reviseRows,
  selectRows,
} from './tenant-rows.ts';

export type { ProductVisibilityJson } from '../schema/catalog.ts';
export type { RowLock };

export type ProductRow = typeof products.$inferSelect;
/** What a product write sets: everything but the tenant, the reserved stock, revision and timestamps. */
export type ProductFields = Omit<
  typeof products.$inferInsert,
  'tenantId' | 'stockReserved' | 'revision' | 'createdAt' | 'updatedAt'
>;
export type CategoryRow = typeof categories.$inferSelect;

/** Categories are saved whole at a revision, like the basis; listed by position, then id. */
export const categoryTable = {
  table: categories,
  key: categories.id,
  order: categories.position,
} as const satisfies RevisionedTable;

export type CategoryFields = RevisionedFields<typeof categoryTable>;

export function listCategories(tx: Executor, tenantId: string): Promise<CategoryRow[]> {
  return listRevisioned(tx, categoryTable, tenantId);
}

export function findCategory(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<CategoryRow | undefined> {
  return findRevisioned(tx, categoryTable, tenantId, id, lock);
}

/** Creates (revision 0) or replaces the category at its stored revision. */
export function saveCategory(
  tx: Executor,
  tenantId: string,
  id: string,
  expectedRevision: number,
  fields: CategoryFields,
  at: Date,
): Promise<RevisionCheck<CategoryRow>> {
  return saveRevisioned(tx, categoryTable, tenantId, id, expectedRevision, fields, at);
}

export function deleteCategory(
  tx: Executor,
  tenantId: string,
  id: string,
  expectedRevision: number,
): Promise<RevisionCheck<CategoryRow>> {
  return deleteRevisioned(tx, categoryTable, tenantId, id, expectedRevision);
}

/** Every category's parent link in the shop (for cycle checks; shops have hundreds, not millions). */
export function listCategoryLinks(
  tx: Executor,
  tenantId: string,
): Promise<{ id: string; parentId: string | null }[]> {
  return tx
    .select({ id: categories.id, parentId: categories.parentId })
    .from(categories)
    .where(eq(categories.tenantId, tenantId));
}

/** Which of `ids` are categories of the shop; `lock` holds them until the transaction ends. */
export async function findCategoryIds(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
  lock?: RowLock,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const query = tx
    .select({ id: categories.id })
    .from(categories)
    .where(inTenant(categories, tenantId, inArray(categories.id, [...ids])));
  const rows = lock ? await query.for(lock) : await query;
  return rows.map((row) => row.id);
}

export function listChildCategoryIds(
  tx: Executor,
  tenantId: string,
  parentId: string,
  limit: number,
): Promise<string[]> {
  return listIds(tx, categories, tenantId, [eq(categories.parentId, parentId)], limit);
}

/** Products that name the category themselves (variants inheriting it do not). */
export function listProductIdsInCategory(
  tx: Executor,
  tenantId: string,
  categoryId: string,
  limit: number,
): Promise<string[]> {
  return listIds(tx, products, tenantId, [sql`${categoryId}::uuid = any(${products.categoryIds})`], limit);
}

/** Products with a sales or purchase price in the currency. */
export function listProductIdsPricedIn(
  tx: Executor,
  tenantId: string,
  currency: string,
  limit: number,
): Promise<string[]> {
  const price = JSON.stringify([{ currency }]);
  const pricedIn = sql`(${products.prices} @> ${price}::jsonb or ${products.purchasePrices} @> ${price}::jsonb)`;
  return listIds(tx, products, tenantId, [pricedIn], limit);
}

export function findProduct(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<ProductRow | undefined> {
  return findRow(tx, products, tenantId, [eq(products.id, id)], lock);
}

/** The products of a shop with these ids (one query); ids that do not exist are left out. */
export async function findProducts(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return selectRows(tx, products, tenantId, { where: [inArray(products.id, [...ids])] });
}

/** The product with this SKU, compared case-insensitively like the unique index; `except` skips one id. */
export function findProductBySku(
  tx: Executor,
  tenantId: string,
  sku: string,
  except?: string,
): Promise<ProductRow | undefined> {
  return findRow(tx, products, tenantId, [
    sql`lower(${products.sku}) = lower(${sku})`,
    except ? ne(products.id, except) : undefined,
  ]);
}

export function listVariants(tx: Executor, tenantId: string, parentId: string): Promise<ProductRow[]> {
  return selectRows(tx, products, tenantId, {
    where: [eq(products.parentId, parentId)],
    orderBy: [asc(products.id)],
  });
}

/** Inserts a product at revision 1; undefined when the id is taken. */
export async function insertProduct(
  tx: Executor,
  tenantId: string,
  fields: ProductFields,
  at: Date,
): Promise<ProductRow | undefined> {
  const [row] = await tx
    .insert(products)
    .values({ ...fields, tenantId, revision: 1, createdAt: at, updatedAt: at })
    .onConflictDoNothing({ target: [products.tenantId, products.id] })
    .returning();
  return row;
}

/**
 * Writes `changes` (undefined members stay, null clears) and raises the revision, only when the
 * stored revision is `expectedRevision`; undefined otherwise.
 */
export async function updateProduct(
  tx: Executor,
  tenantId: string,
  id: string,
  expectedRevision: number,
  changes: Partial<Omit<ProductFields, 'id'>>,
  at: Date,
): Promise<ProductRow | undefined> {
  const atRevision = [eq(products.id, id), eq(products.revision, expectedRevision)];
  const [row] = await reviseRows(tx, products, tenantId, atRevision, changes, at);
  return row;
}

/** Deletes the product when its stored revision is `expectedRevision`. */
export async function deleteProduct(
  tx: Executor,
  tenantId: string,
  id: string,
  expectedRevision: number,
): Promise<boolean> {
  const deleted = await deleteRows(tx, products, tenantId, [
    eq(products.id, id),
    eq(products.revision, expectedRevision),
  ]);
  return deleted > 0;
}

export interface ProductQuery {
  readonly limit: number;
  /** Id of the last product of the previous page (products are listed by id, UUIDv7). */
  readonly after?: string | undefined;
  readonly kind: 'parent' | 'variant' | 'all';
  /** Case-insensitive substring of the SKU or of any effective translated name. */
  readonly search?: string | undefined;
  /** Exact SKU, case-insensitively. */
  readonly sku?: string | undefined;
  readonly parentId?: string | undefined;
  readonly active?: boolean | undefined;
  readonly tag?: string | undefined;
  readonly categoryId?: string | undefined;
  /** Effective categories overlapping these (a sales channel's catalog); an empty list matches none. */
  readonly inCategories?: readonly string[] | undefined;
  /** Visibility through the channel (a variant's is its parent's; no entry is `all`) among these. */
  readonly visibleIn?: { readonly channelId: string; readonly among: readonly string[] } | undefined;
}

export interface ProductWithParent {
  readonly product: ProductRow;
  /** The variant's parent; null for a parent product. */
  readonly parent: ProductRow | null;
}

/**
 * A page of products with their parents. Filters apply to the effective values: a variant whose
 * own `active`, `tags` or `categoryIds` is null is matched on its parent's.
 */
export async function listProducts(
  tx: Executor,
  tenantId: string,
  query: ProductQuery,
): Promise<ProductWithParent[]> {
  const parent = alias(products, 'parent');
  const conditions: SQL[] = [eq(products.tenantId, tenantId)];
  if (query.after) conditions.push(gt(products.id, query.after));
  if (query.kind === 'parent') conditions.push(isNull(products.parentId));
  if (query.kind === 'variant') conditions.push(isNotNull(products.parentId));
  if (query.parentId) conditions.push(eq(products.parentId, query.parentId));
  if (query.sku !== undefined) conditions.push(sql`lower(${products.sku}) = lower(${query.sku})`);
  if (query.active !== undefined) {
    conditions.push(sql`coalesce(${products.active}, ${parent.active}) = ${query.active}`);
  }
  if (query.tag !== undefined) {
    conditions.push(sql`${query.tag} = any(coalesce(${products.tags}, ${parent.tags}))`);
  }
  if (query.categoryId) {
    conditions.push(
      sql`${query.categoryId}::uuid = any(coalesce(${products.categoryIds}, ${parent.categoryIds}))`,
    );
  }
  if (query.inCategories) {
    const ids = query.inCategories.map((id) => sql`${id}::uuid`);
    conditions.push(
      ids.length === 0
        ? sql`false`
        : sql`coalesce(${products.categoryIds}, ${parent.categoryIds}) && array[${sql.join(ids, sql`, `)}]`,
    );
  }
  if (query.visibleIn) {
    const entries = sql`coalesce(${parent.visibilities}, ${products.visibilities})`;
    const visibility = sql`coalesce(${entries} ->> ${query.visibleIn.channelId}::text, 'all')`;
    conditions.push(inArray(visibility, [...query.visibleIn.among]));
  }
  if (query.search !== undefined) {
    // A variant's name in a language is its own unless null or missing, then its parent's.
    conditions.push(sql`(
      strpos(lower(${products.sku}), lower(${query.search})) > 0
      or exists (
        select 1 from (
          select jsonb_object_keys(coalesce(${products.translations}, '{}'::jsonb)) as language
          union
          select jsonb_object_keys(coalesce(${parent.translations}, '{}'::jsonb))
        ) languages
        where strpos(
          lower(coalesce(
            ${products.translations} -> languages.language ->> 'name',
            ${parent.translations} -> languages.language ->> 'name'
          )),
          lower(${query.search})
        ) > 0
      )
    )`);
  }
  return tx
    .select({ product: products, parent })
    .from(products)
    .leftJoin(parent, and(eq(parent.tenantId, products.tenantId), eq(parent.id, products.parentId)))
    .where(and(...conditions))
    .orderBy(asc(products.id))
    .limit(query.limit);
}
