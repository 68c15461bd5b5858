import {
  countMediaAssets,
  countMediaAssetUses,
  deleteMediaAsset,
  type Executor,
  findMediaAsset,
  findProduct,
  insertMediaAsset,
  type MediaAssetRow,
  type MediaAssetSource,
} from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { iso, Timestamp, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { type CheckedImage, IMAGE_CONTENT_TYPES, type ImageFormat } from './images.ts';

// Product images: tenant-owned, immutable, one product each; the bytes sit in the blob store
// exactly as they were checked (verifyImage before the transaction). Decision 0043.

/** Images per product, staged ones and those in no gallery included (spec limits). */
export const MAX_ASSETS_PER_PRODUCT = 50;

export interface MediaAsset {
  readonly id: string;
  readonly productId: string;
  readonly format: ImageFormat;
  readonly contentType: string;
  readonly width: number;
  readonly height: number;
  readonly byteSize: number;
  readonly sha256: string;
  readonly source: MediaAssetSource;
  readonly sourceUrl: string | null;
  readonly createdAt: Date;
}

export function mediaAssetOf(row: MediaAssetRow): MediaAsset {
  return {
    id: row.id,
    productId: row.productId,
    format: row.format,
    contentType: IMAGE_CONTENT_TYPES[row.format],
    width: row.width,
    height: row.height,
    byteSize: row.byteSize,
    sha256: row.sha256,
    source: row.source,
    sourceUrl: row.sourceUrl,
    createdAt: row.createdAt,
  };
}

/** How staff see an asset. */
export const MediaAssetView = v.object({
  id: Uuid,
  productId: Uuid,
  format: v.picklist(['png', 'jpeg', 'webp']),
  contentType: v.string(),
  width: v.number(),
  height: v.number(),
  byteSize: v.number(),
  sha256: v.string(),
  source: v.picklist(['upload', 'url', 'draft']),
  sourceUrl: v.nullable(v.string()),
  createdAt: Timestamp,
});
export type MediaAssetView = v.InferOutput<typeof MediaAssetView>;

export function mediaAssetView(asset: MediaAsset): MediaAssetView {
  return { ...asset, createdAt: iso(asset.createdAt) };
}

export const noProduct = () => fail('NOT_FOUND', 'No such product exists in this shop.');

/**
 * Stores a checked image as a new asset of the product, in the caller's transaction. Locks the
 * product row first (uploads to one product queue behind each other, so the count holds), then
 * refuses the 51st asset with MEDIA_ASSET_LIMIT_REACHED.
 */
export async function storeMediaAsset(
  tx: Executor,
  services: Services,
  tenantId: string,
  input: {
    readonly productId: string;
    readonly image: CheckedImage;
    readonly source: MediaAssetSource;
    readonly sourceUrl?: string | null;
  },
): Promise<Result<MediaAsset>> {
  if (!(await findProduct(tx, tenantId, input.productId, 'update'))) return noProduct();
  const count = await countMediaAssets(tx, tenantId, input.productId);
  if (count >= MAX_ASSETS_PER_PRODUCT) {
    return fail(
      'MEDIA_ASSET_LIMIT_REACHED',
      `A product has at most ${MAX_ASSETS_PER_PRODUCT} images; delete one that no gallery entry shows first.`,
      { extensions: { limit: MAX_ASSETS_PER_PRODUCT } },
    );
  }
  const { image } = input;
  const blob = await services.blobs.put(tx, tenantId, {
    bytes: image.bytes,
    contentType: IMAGE_CONTENT_TYPES[image.format],
  });
  const row = await insertMediaAsset(tx, {
    tenantId,
    id: services.ids.next(),
    productId: input.productId,
    blobId: blob.id,
    format: image.format,
    width: image.width,
    height: image.height,
    byteSize: blob.size,
    sha256: blob.sha256,
    source: input.source,
    sourceUrl: input.sourceUrl ?? null,
    createdAt: services.clock.now(),
  });
  return ok(mediaAssetOf(row));
}

/** An asset of this product of this shop with its bytes; NOT_FOUND for anything else. */
export async function readMediaAsset(
  tx: Executor,
  services: Services,
  tenantId: string,
  input: { readonly productId: string; readonly assetId: string },
): Promise<Result<{ readonly asset: MediaAsset; readonly bytes: Uint8Array }>> {
  const row = await findMediaAsset(tx, tenantId, input.assetId);
  if (!row || row.productId !== input.productId)
    return fail('NOT_FOUND', 'No such image exists for this product.');
  const blob = await services.blobs.get(tx, tenantId, row.blobId);
  if (!blob) throw new Error(`media asset ${row.id} names a missing blob`);
  return ok({ asset: mediaAssetOf(row), bytes: blob.bytes });
}

/**
 * Deletes an asset no gallery entry shows and no image draft names (REFERENCED otherwise), with
 * its bytes, in the caller's transaction.
 */
export async function removeMediaAsset(
  tx: Executor,
  services: Services,
  tenantId: string,
  input: { readonly productId: string; readonly assetId: string },
): Promise<Result<{ readonly id: string }>> {
  if (!(await findProduct(tx, tenantId, input.productId, 'update'))) return noProduct();
  const row = await findMediaAsset(tx, tenantId, input.assetId);
  if (!row || row.productId !== input.productId)
    return fail('NOT_FOUND', 'No such image exists for this product.');
  const uses = await countMediaAssetUses(tx, tenantId, row.id);
  if (uses.entries > 0 || uses.drafts > 0) {
    return fail(
      'REFERENCED',
      'The image is still in use: remove its gallery entries (and the image drafts made from it) first.',
      { extensions: { galleryEntries: uses.entries, drafts: uses.drafts } },
    );
  }
  await deleteMediaAsset(tx, tenantId, row.id);
  await services.blobs.delete(tx, tenantId, row.blobId);
  return ok({ id: row.id });
}
