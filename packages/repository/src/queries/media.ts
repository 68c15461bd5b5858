import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { mediaDrafts, productGalleries, productGalleryEntries, productMediaAssets } from '../schema.ts';
import {
  countRows,
  deleteRows,
  findRow,
  insertRow,
  inTenant,
  type RowLock,
  selectRows,
} from './tenant-rows.ts';

export {
  type AltTextsJson,
  GALLERY_ENTRY_STATES,
  type GalleryEntryState,
  MEDIA_ASSET_SOURCES,
  MEDIA_FORMATS,
  type MediaAssetSource,
  type MediaFormat,
} from '../schema.ts';

export type MediaAssetRow = typeof productMediaAssets.$inferSelect;
export type NewMediaAsset = typeof productMediaAssets.$inferInsert;
export type GalleryEntryRow = typeof productGalleryEntries.$inferSelect;
export type NewGalleryEntry = typeof productGalleryEntries.$inferInsert;
/** A gallery entry with the asset it shows. */
export type GalleryEntryWithAsset = GalleryEntryRow & { readonly asset: MediaAssetRow };

export function insertMediaAsset(tx: Executor, asset: NewMediaAsset): Promise<MediaAssetRow> {
  return insertRow(tx, productMediaAssets, asset);
}

/** The asset, if this shop has it. */
export function findMediaAsset(
  tx: Executor,
  tenantId: string,
  id: string,
): Promise<MediaAssetRow | undefined> {
  return findRow(tx, productMediaAssets, tenantId, [eq(productMediaAssets.id, id)]);
}

/** A product's images, oldest first. */
export function listMediaAssets(tx: Executor, tenantId: string, productId: string): Promise<MediaAssetRow[]> {
  return selectRows(tx, productMediaAssets, tenantId, {
    where: [eq(productMediaAssets.productId, productId)],
    orderBy: [asc(productMediaAssets.createdAt), asc(productMediaAssets.id)],
  });
}

export function countMediaAssets(tx: Executor, tenantId: string, productId: string): Promise<number> {
  return countRows(tx, productMediaAssets, tenantId, [eq(productMediaAssets.productId, productId)]);
}

/** Forgets an asset row (its blob is the caller's to delete); true when it existed. */
export async function deleteMediaAsset(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await deleteRows(tx, productMediaAssets, tenantId, [eq(productMediaAssets.id, id)])) === 1;
}

/** How many gallery entries and image drafts name the asset (it may not go while any does). */
export async function countMediaAssetUses(
  tx: Executor,
  tenantId: string,
  assetId: string,
): Promise<{ readonly entries: number; readonly drafts: number }> {
  const entries = await countRows(tx, productGalleryEntries, tenantId, [
    eq(productGalleryEntries.assetId, assetId),
  ]);
  const drafts = await countRows(tx, mediaDrafts, tenantId, [eq(mediaDrafts.sourceAssetId, assetId)]);
  return { entries, drafts };
}

/** A product's gallery revision (0 before its first gallery write); `lock` holds the row if any. */
export async function findGalleryRevision(
  tx: Executor,
  tenantId: string,
  productId: string,
  lock?: RowLock,
): Promise<number> {
  const row = await findRow(
    tx,
    productGalleries,
    tenantId,
    [eq(productGalleries.productId, productId)],
    lock,
  );
  return row?.revision ?? 0;
}

/** The gallery revisions of some products (absent ones are at 0). */
export async function listGalleryRevisions(
  tx: Executor,
  tenantId: string,
  productIds: readonly string[],
): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await selectRows(tx, productGalleries, tenantId, {
    where: [inArray(productGalleries.productId, [...productIds])],
  });
  return new Map(rows.map((row) => [row.productId, row.revision]));
}

/**
 * Moves a product's gallery revision from `expected` to the next; undefined when it is no longer
 * at `expected` (a concurrent write got there first).
 */
export async function advanceGalleryRevision(
  tx: Executor,
  tenantId: string,
  productId: string,
  expected: number,
  now: Date,
): Promise<number | undefined> {
  if (expected === 0) {
    const inserted = await tx
      .insert(productGalleries)
      .values({ tenantId, productId, revision: 1, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ revision: productGalleries.revision });
    return inserted[0]?.revision;
  }
  const [row] = await tx
    .update(productGalleries)
    .set({ revision: sql`${productGalleries.revision} + 1`, updatedAt: now })
    .where(
      inTenant(
        productGalleries,
        tenantId,
        eq(productGalleries.productId, productId),
        eq(productGalleries.revision, expected),
      ),
    )
    .returning({ revision: productGalleries.revision });
  return row?.revision;
}

/** The gallery entries of some products with their assets, by product and position. */
export async function listGalleryEntries(
  tx: Executor,
  tenantId: string,
  productIds: readonly string[],
  lock?: RowLock,
): Promise<GalleryEntryWithAsset[]> {
  if (productIds.length === 0) return [];
  let query = tx
    .select({ entry: productGalleryEntries, asset: productMediaAssets })
    .from(productGalleryEntries)
    .innerJoin(
      productMediaAssets,
      and(
        eq(productMediaAssets.tenantId, productGalleryEntries.tenantId),
        eq(productMediaAssets.id, productGalleryEntries.assetId),
      ),
    )
    .where(
      inTenant(productGalleryEntries, tenantId, inArray(productGalleryEntries.productId, [...productIds])),
    )
    .orderBy(
      asc(productGalleryEntries.productId),
      asc(productGalleryEntries.position),
      asc(productGalleryEntries.id),
    )
    .$dynamic();
  if (lock) query = query.for(lock, { of: productGalleryEntries });
  return (await query).map((row) => ({ ...row.entry, asset: row.asset }));
}

export function countGalleryEntries(tx: Executor, tenantId: string, productId: string): Promise<number> {
  return countRows(tx, productGalleryEntries, tenantId, [eq(productGalleryEntries.productId, productId)]);
}

export function insertGalleryEntry(tx: Executor, entry: NewGalleryEntry): Promise<GalleryEntryRow> {
  return insertRow(tx, productGalleryEntries, entry);
}

/** What a gallery write may change on an entry. */
export interface GalleryEntryChange {
  readonly id: string;
  readonly position?: number;
  readonly isCover?: boolean;
  readonly altTexts?: Record<string, string>;
  readonly state?: 'staged' | 'published';
  readonly publishedAt?: Date;
}

/**
 * Applies the changes one entry at a time, in the order given (a cover handed over must be taken
 * from the old entry before the new one gets it: one cover per product is a unique index).
 */
export async function updateGalleryEntries(
  tx: Executor,
  tenantId: string,
  changes: readonly GalleryEntryChange[],
  now: Date,
): Promise<void> {
  for (const { id, ...set } of changes) {
    await tx
      .update(productGalleryEntries)
      .set({ ...set, updatedAt: now })
      .where(inTenant(productGalleryEntries, tenantId, eq(productGalleryEntries.id, id)));
  }
}

/** Removes an entry; true when it existed. */
export async function deleteGalleryEntry(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await deleteRows(tx, productGalleryEntries, tenantId, [eq(productGalleryEntries.id, id)])) === 1;
}
