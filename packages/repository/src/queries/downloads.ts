import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { blobs, downloadEntitlements, productAssets } from '../schema.ts';
import { countRows, deleteRows, findRow, insertRow, inTenant, selectRows } from './tenant-rows.ts';

export type ProductAssetRow = typeof productAssets.$inferSelect;
/** An asset with the size, content type and digest of its file. */
export type AssetWithFile = ProductAssetRow & {
  readonly size: number;
  readonly contentType: string;
  readonly sha256: string;
};
export type EntitlementRow = typeof downloadEntitlements.$inferSelect;
/** An entitlement with the product and file name of its asset. */
export type EntitlementWithAsset = EntitlementRow & { readonly productId: string; readonly fileName: string };

const assetWithFile = {
  asset: productAssets,
  size: blobs.size,
  contentType: blobs.contentType,
  sha256: blobs.sha256,
};
const blobOfAsset = and(eq(blobs.tenantId, productAssets.tenantId), eq(blobs.id, productAssets.blobId));

function flatten(row: {
  asset: ProductAssetRow;
  size: number;
  contentType: string;
  sha256: string;
}): AssetWithFile {
  return { ...row.asset, size: row.size, contentType: row.contentType, sha256: row.sha256 };
}

export function insertAsset(
  tx: Executor,
  asset: typeof productAssets.$inferInsert,
): Promise<ProductAssetRow> {
  return insertRow(tx, productAssets, asset);
}

/** The asset of this product, locked for the caller's transaction when `forUpdate`. */
export async function findAsset(
  tx: Executor,
  tenantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AssetWithFile | undefined> {
  const query = tx
    .select(assetWithFile)
    .from(productAssets)
    .innerJoin(blobs, blobOfAsset)
    .where(inTenant(productAssets, tenantId, eq(productAssets.id, id)));
  const [row] = options.forUpdate ? await query.for('update', { of: productAssets }) : await query;
  return row && flatten(row);
}

/** The assets of a product, oldest first. */
export async function listProductAssets(
  tx: Executor,
  tenantId: string,
  productId: string,
): Promise<AssetWithFile[]> {
  const rows = await tx
    .select(assetWithFile)
    .from(productAssets)
    .innerJoin(blobs, blobOfAsset)
    .where(inTenant(productAssets, tenantId, eq(productAssets.productId, productId)))
    .orderBy(asc(productAssets.createdAt), asc(productAssets.id));
  return rows.map(flatten);
}

export function countProductAssets(tx: Executor, tenantId: string, productId: string): Promise<number> {
  return countRows(tx, productAssets, tenantId, [eq(productAssets.productId, productId)]);
}

export async function deleteAsset(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await deleteRows(tx, productAssets, tenantId, [eq(productAssets.id, id)])) === 1;
}

/**
 * The assets of these products, each row share-locked until the caller's transaction ends, so an
 * asset cannot be deleted between this read and the entitlements written for it.
 */
export async function lockAssetsOfProducts(
  tx: Executor,
  tenantId: string,
  productIds: readonly string[],
): Promise<ProductAssetRow[]> {
  if (productIds.length === 0) return [];
  return selectRows(tx, productAssets, tenantId, {
    where: [inArray(productAssets.productId, [...productIds])],
    orderBy: [asc(productAssets.id)],
    lock: 'share',
  });
}

/** How many entitlements (granted or revoked) name the asset. */
export function countAssetEntitlements(tx: Executor, tenantId: string, assetId: string): Promise<number> {
  return countRows(tx, downloadEntitlements, tenantId, [eq(downloadEntitlements.assetId, assetId)]);
}

export interface EntitlementGrant {
  readonly tenantId: string;
  readonly orderId: string;
  readonly customerId: string | null;
  readonly at: Date;
  /** One new id per asset, used only where the order has no entitlement for the asset yet. */
  readonly assets: readonly { readonly assetId: string; readonly newId: string }[];
}

/**
 * Grants the order's entitlement to each asset: creates missing ones and re-grants revoked ones.
 * Answers only the entitlements that changed.
 */
export async function grantEntitlements(tx: Executor, grant: EntitlementGrant): Promise<EntitlementRow[]> {
  if (grant.assets.length === 0) return [];
  return tx
    .insert(downloadEntitlements)
    .values(
      grant.assets.map(({ assetId, newId }) => ({
        tenantId: grant.tenantId,
        id: newId,
        orderId: grant.orderId,
        customerId: grant.customerId,
        assetId,
        grantedAt: grant.at,
        createdAt: grant.at,
        updatedAt: grant.at,
      })),
    )
    .onConflictDoUpdate({
      target: [downloadEntitlements.tenantId, downloadEntitlements.orderId, downloadEntitlements.assetId],
      set: { grantedAt: grant.at, revokedAt: null, updatedAt: grant.at },
      setWhere: or(isNotNull(downloadEntitlements.revokedAt), isNull(downloadEntitlements.grantedAt)),
    })
    .returning();
}

/** Revokes every granted entitlement of the order; answers those that changed. */
export async function revokeEntitlements(
  tx: Executor,
  tenantId: string,
  orderId: string,
  at: Date,
): Promise<EntitlementRow[]> {
  return tx
    .update(downloadEntitlements)
    .set({ revokedAt: at, updatedAt: at })
    .where(
      inTenant(
        downloadEntitlements,
        tenantId,
        eq(downloadEntitlements.orderId, orderId),
        isNotNull(downloadEntitlements.grantedAt),
        isNull(downloadEntitlements.revokedAt),
      ),
    )
    .returning();
}

const entitlementWithAsset = {
  entitlement: downloadEntitlements,
  productId: productAssets.productId,
  fileName: productAssets.fileName,
};
const assetOfEntitlement = and(
  eq(productAssets.tenantId, downloadEntitlements.tenantId),
  eq(productAssets.id, downloadEntitlements.assetId),
);

/** The order's entitlements, oldest first. */
export async function listOrderEntitlements(
  tx: Executor,
  tenantId: string,
  orderId: string,
): Promise<EntitlementWithAsset[]> {
  const rows = await tx
    .select(entitlementWithAsset)
    .from(downloadEntitlements)
    .innerJoin(productAssets, assetOfEntitlement)
    .where(inTenant(downloadEntitlements, tenantId, eq(downloadEntitlements.orderId, orderId)))
    .orderBy(asc(downloadEntitlements.createdAt), asc(downloadEntitlements.id));
  return rows.map((row) => ({ ...row.entitlement, productId: row.productId, fileName: row.fileName }));
}

export function findEntitlement(
  tx: Executor,
  tenantId: string,
  id: string,
): Promise<EntitlementRow | undefined> {
  return findRow(tx, downloadEntitlements, tenantId, [eq(downloadEntitlements.id, id)]);
}

/** Counts one download of the entitlement. */
export async function countDownload(tx: Executor, tenantId: string, id: string, at: Date): Promise<void> {
  await tx
    .update(downloadEntitlements)
    .set({ downloads: sql`${downloadEntitlements.downloads} + 1`, updatedAt: at })
    .where(inTenant(downloadEntitlements, tenantId, eq(downloadEntitlements.id, id)));
}
