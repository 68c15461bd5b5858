import {
  type Executor,
  findMediaAsset,
  findProduct,
  findTenant,
  listGalleryEntries,
  listMediaAssets,
} from '@cartwright/repository';
import * as v from 'valibot';
import { findProductInChannel } from '../catalog/channel-assortment.ts';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import {
  type AnyOperation,
  defineOperation,
  defineStoreOperation,
  FileContent,
  type OperationContext,
} from '../kernel/registry.ts';
import { Base64Of, LanguageCode, Revision, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { languageParameter, refuseDisabledLanguages, translationLanguages } from '../settings/languages.ts';
import {
  type MediaAsset,
  MediaAssetView,
  mediaAssetOf,
  mediaAssetView,
  noProduct,
  readMediaAsset,
  removeMediaAsset,
  storeMediaAsset,
} from './assets.ts';
import {
  addGalleryEntry,
  GalleryView,
  type LockedGallery,
  lockGallery,
  MAX_ALT_TEXT,
  readGallery,
  refuseFullGallery,
  refuseWithoutRoom,
  removeGalleryEntry,
  reorderGallery,
  selectCover,
  setAltTexts,
} from './gallery.ts';
import { type CheckedImage, IMAGE_CONTENT_TYPES, IMAGE_LIMITS, verifyImage } from './images.ts';
import { fetchImageFromUrl, MAX_URL_LENGTH } from './url-fetch.ts';

// The gallery's operations (decision 0043): staff read with catalog.read and write with
// catalog.write, HTTP and MCP from these declarations; the storefront reads image bytes through
// store.media.get. Images are checked (verifyImage) before any transaction opens.

// The schema lets a little more than 8 MiB through so an image just over the limit is answered
// IMAGE_TOO_LARGE by the image check; the body limit stops the rest (413).
const MAX_IMAGE_TEXT_BYTES = IMAGE_LIMITS.maxBytes + 64 * 1024;
const UPLOAD_BODY_LIMIT = 4 * Math.ceil(MAX_IMAGE_TEXT_BYTES / 3) + 64 * 1024;
const ImageBase64 = Base64Of(MAX_IMAGE_TEXT_BYTES, {
  empty: 'the image must not be empty',
  tooLarge: 'decodes to more than 8 MiB',
});
const ImageUrl = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_URL_LENGTH));
const AltText = v.pipe(v.string(), v.maxLength(MAX_ALT_TEXT));
const AltTexts = v.record(LanguageCode, AltText);

const path = (suffix: string) => `/api/merchant/products/:productId/media${suffix}`;

async function mainLanguageOf(db: Executor, tenantId: string): Promise<string> {
  return (await findTenant(db, tenantId))?.mainLanguage ?? 'en';
}

function bytesOf(base64: string): Uint8Array {
  const buffer = Buffer.from(base64, 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** The checked image of an upload or a URL, before any transaction (a fetch or decode holds none). */
async function checkedImageOf(
  services: Services,
  input: { readonly contentBase64?: string | undefined; readonly url?: string | undefined },
): Promise<Result<{ readonly image: CheckedImage; readonly sourceUrl: string | null }>> {
  if (input.contentBase64 !== undefined) {
    const image = await verifyImage(bytesOf(input.contentBase64));
    return image.ok ? ok({ image: image.value, sourceUrl: null }) : image;
  }
  const fetched = await fetchImageFromUrl(input.url!, services.mediaUrls);
  if (!fetched.ok) return fetched;
  const image = await verifyImage(fetched.value.bytes);
  return image.ok ? ok({ image: image.value, sourceUrl: input.url! }) : image;
}

export const readProductGallery = defineOperation({
  name: 'merchant.media.gallery.read',
  summary:
    'A product’s gallery as staff see it: entries in order with cover, state (staged entries wait for the product’s next save), alt text per language as stored and read in `language` (default: the main language); a variant without published entries of its own shows its parent’s under `inherited`.',
  http: { method: 'GET', path: path('/gallery') },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({ productId: Uuid, language: v.optional(LanguageCode) }),
  output: GalleryView,
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const refused = await refuseDisabledLanguages(db, { tenantId }, languageParameter(input.language));
    if (refused) return refused;
    const mainLanguage = await mainLanguageOf(db, tenantId);
    return readGallery(db, tenantId, input.productId, input.language ?? mainLanguage, mainLanguage);
  },
});

export const addProductGalleryEntry = defineOperation({
  name: 'merchant.media.gallery.add',
  summary:
    'Adds an image at the end of a product’s gallery: an asset of the product (`assetId`), an upload (`contentBase64`) or an image the server fetches (`url`; public addresses only); PNG, JPEG or WebP, at most 8 MiB, decoded to check it. At most 20 entries; the first becomes the cover.',
  http: { method: 'POST', path: path('/gallery'), status: 201, bodyLimitBytes: UPLOAD_BODY_LIMIT },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({
    productId: Uuid,
    assetId: v.optional(Uuid),
    contentBase64: v.optional(ImageBase64),
    url: v.optional(ImageUrl),
    altTexts: v.optional(AltTexts),
  }),
  output: v.object({ entryId: Uuid, gallery: GalleryView }),
  async handler({ services, tenantId, principal }, input) {
    const sources = (['assetId', 'contentBase64', 'url'] as const).filter((key) => input[key] !== undefined);
    if (sources.length !== 1) {
      return fail('VALIDATION_FAILED', 'Give exactly one of assetId, contentBase64 and url.', {
        errors: [
          {
            pointer: '',
            message: `expected exactly one of assetId, contentBase64, url (got ${sources.length})`,
          },
        ],
      });
    }
    const db = services.database.db;
    const altTexts = input.altTexts ?? {};
    const refused = await refuseDisabledLanguages(
      db,
      { tenantId },
      translationLanguages(altTexts, ['altTexts']),
    );
    if (refused) return refused;
    // Refuse what cannot be added before fetching or decoding anything.
    const early = await refuseWithoutRoom(db, tenantId, input.productId);
    if (early) return early;
    const checked = input.assetId === undefined ? await checkedImageOf(services, input) : undefined;
    if (checked && !checked.ok) return checked;
    const mainLanguage = await mainLanguageOf(db, tenantId);
    return services.database.transaction(async (tx) => {
      const locked = await lockGallery(tx, tenantId, input.productId);
      if (!locked.ok) return locked;
      const full = refuseFullGallery(locked.value);
      if (full) return full;
      let asset: MediaAsset;
      if (checked) {
        const stored = await storeMediaAsset(tx, services, tenantId, {
          productId: input.productId,
          image: checked.value.image,
          source: input.url !== undefined ? 'url' : 'upload',
          sourceUrl: checked.value.sourceUrl,
        });
        if (!stored.ok) return stored;
        asset = stored.value;
        await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.media.asset.created', {
          productId: asset.productId,
          assetId: asset.id,
          source: asset.source,
        });
      } else {
        const row = await findMediaAsset(tx, tenantId, input.assetId!);
        if (!row || row.productId !== input.productId) {
          return fail('NOT_FOUND', 'No such image exists for this product.', {
            errors: [{ pointer: '/assetId', message: 'not an image of this product' }],
          });
        }
        asset = mediaAssetOf(row);
      }
      const added = await addGalleryEntry(tx, services, tenantId, locked.value, { asset, altTexts });
      if (!added.ok) return added;
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.media.gallery.changed', {
        productId: input.productId,
        revision: added.value.revision,
      });
      const gallery = await readGallery(tx, tenantId, input.productId, mainLanguage, mainLanguage);
      return gallery.ok ? ok({ entryId: added.value.entryId, gallery: gallery.value }) : gallery;
    });
  },
});

/** A gallery write at the revision the caller read: lock, check, change, event, fresh view. */
function galleryWrite<I extends { productId: string; revision: number }>(
  change: (
    tx: Executor,
    services: Services,
    tenantId: string,
    gallery: LockedGallery,
    input: I,
  ) => Promise<Result<number>>,
) {
  return async ({ services, tenantId, principal }: OperationContext, input: I) => {
    const mainLanguage = await mainLanguageOf(services.database.db, tenantId);
    return services.database.transaction(async (tx) => {
      const locked = await lockGallery(tx, tenantId, input.productId, input.revision);
      if (!locked.ok) return locked;
      const changed = await change(tx, services, tenantId, locked.value, input);
      if (!changed.ok) return changed;
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.media.gallery.changed', {
        productId: input.productId,
        revision: changed.value,
      });
      return readGallery(tx, tenantId, input.productId, mainLanguage, mainLanguage);
    });
  };
}

export const reorderProductGallery = defineOperation({
  name: 'merchant.media.gallery.reorder',
  summary:
    'Sets the order of a product’s gallery at the gallery revision read: `entryIds` names every entry (staged ones too) exactly once.',
  http: { method: 'PUT', path: path('/gallery/order') },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({
    productId: Uuid,
    revision: Revision,
    entryIds: v.pipe(v.array(Uuid), v.maxLength(100)),
  }),
  output: GalleryView,
  handler: galleryWrite(
    (tx, services, tenantId, gallery, input: { productId: string; revision: number; entryIds: string[] }) =>
      reorderGallery(tx, services, tenantId, gallery, input.entryIds),
  ),
});

export const selectProductGalleryCover = defineOperation({
  name: 'merchant.media.gallery.cover',
  summary: 'Makes a published entry the cover of a product’s gallery, at the gallery revision read.',
  http: { method: 'PUT', path: path('/gallery/cover') },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({ productId: Uuid, revision: Revision, entryId: Uuid }),
  output: GalleryView,
  handler: galleryWrite(
    (tx, services, tenantId, gallery, input: { productId: string; revision: number; entryId: string }) =>
      selectCover(tx, services, tenantId, gallery, input.entryId),
  ),
});

export const setProductGalleryAltText = defineOperation({
  name: 'merchant.media.gallery.alt',
  summary:
    'Sets an entry’s alt text per language at the gallery revision read: a text sets it (an empty one stays empty), null removes it so the main language’s shows.',
  http: { method: 'PUT', path: path('/gallery/:entryId/alt') },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({
    productId: Uuid,
    entryId: Uuid,
    revision: Revision,
    altTexts: v.record(LanguageCode, v.nullable(AltText)),
  }),
  output: GalleryView,
  async handler(context, input) {
    const refused = await refuseDisabledLanguages(
      context.services.database.db,
      { tenantId: context.tenantId },
      translationLanguages(input.altTexts, ['altTexts']),
    );
    if (refused) return refused;
    return galleryWrite(
      (
        tx,
        services,
        tenantId,
        gallery,
        body: {
          productId: string;
          revision: number;
          entryId: string;
          altTexts: Record<string, string | null>;
        },
      ) => setAltTexts(tx, services, tenantId, gallery, body.entryId, body.altTexts),
    )(context, input);
  },
});

export const removeProductGalleryEntry = defineOperation({
  name: 'merchant.media.gallery.remove',
  summary:
    'Removes an entry from a product’s gallery at the gallery revision read (its image stays among the product’s assets); a removed cover passes to the first published entry left.',
  http: { method: 'DELETE', path: path('/gallery/:entryId') },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({ productId: Uuid, entryId: Uuid, revision: Revision }),
  output: GalleryView,
  handler: galleryWrite(
    (tx, services, tenantId, gallery, input: { productId: string; revision: number; entryId: string }) =>
      removeGalleryEntry(tx, services, tenantId, gallery, input.entryId),
  ),
});

export const uploadProductMediaAsset = defineOperation({
  name: 'merchant.media.assets.upload',
  summary:
    'Uploads an image of a product into its immutable asset store without showing it (e.g. the source of an image draft): PNG, JPEG or WebP, base64, at most 8 MiB, decoded to check it; at most 50 per product.',
  http: { method: 'POST', path: path('/assets'), status: 201, bodyLimitBytes: UPLOAD_BODY_LIMIT },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({ productId: Uuid, contentBase64: ImageBase64 }),
  output: MediaAssetView,
  async handler({ services, tenantId, principal }, input) {
    if (!(await findProduct(services.database.db, tenantId, input.productId))) return noProduct();
    const checked = await checkedImageOf(services, input);
    if (!checked.ok) return checked;
    return services.database.transaction(async (tx) => {
      const stored = await storeMediaAsset(tx, services, tenantId, {
        productId: input.productId,
        image: checked.value.image,
        source: 'upload',
      });
      if (!stored.ok) return stored;
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.media.asset.created', {
        productId: input.productId,
        assetId: stored.value.id,
        source: 'upload',
      });
      return ok(mediaAssetView(stored.value));
    });
  },
});

export const listProductMediaAssets = defineOperation({
  name: 'merchant.media.assets.list',
  summary: 'The images of a product (gallery, staged and unshown ones), oldest first.',
  http: { method: 'GET', path: path('/assets') },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({ productId: Uuid }),
  output: v.object({ items: v.array(MediaAssetView) }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    if (!(await findProduct(db, tenantId, input.productId))) return noProduct();
    const rows = await listMediaAssets(db, tenantId, input.productId);
    return ok({ items: rows.map((row) => mediaAssetView(mediaAssetOf(row))) });
  },
});

export const readProductMediaAsset = defineOperation({
  name: 'merchant.media.assets.content',
  summary: 'The bytes of one image of a product, as stored.',
  http: { method: 'GET', path: path('/assets/:assetId/content') },
  permission: 'catalog.read',
  readOnly: true,
  file: true,
  input: v.object({ productId: Uuid, assetId: Uuid }),
  output: FileContent,
  async handler({ services, tenantId }, input) {
    const read = await readMediaAsset(services.database.db, services, tenantId, input);
    if (!read.ok) return read;
    const { asset, bytes } = read.value;
    return ok({ fileName: `${asset.id}.${asset.format}`, contentType: asset.contentType, bytes });
  },
});

export const deleteProductMediaAsset = defineOperation({
  name: 'merchant.media.assets.delete',
  summary:
    'Deletes an image of a product with its bytes; refused (REFERENCED) while a gallery entry shows it or an image draft was made from it.',
  http: { method: 'DELETE', path: path('/assets/:assetId') },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({ productId: Uuid, assetId: Uuid }),
  output: v.object({ id: Uuid, deleted: v.literal(true) }),
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction(async (tx) => {
      const removed = await removeMediaAsset(tx, services, tenantId, input);
      if (!removed.ok) return removed;
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.media.asset.deleted', {
        productId: input.productId,
        assetId: input.assetId,
      });
      return ok({ id: removed.value.id, deleted: true as const });
    });
  },
});

export const readStoreMedia = defineStoreOperation({
  name: 'store.media.get',
  summary:
    'The bytes of a product image the storefront shows: published in the gallery of a product on sale in the channel (staged and draft images never).',
  http: { method: 'GET', path: '/store-api/media/:assetId' },
  readOnly: true,
  file: true,
  input: v.object({ assetId: Uuid }),
  output: FileContent,
  async handler({ services, storefront, tenantId }, input) {
    const db = services.database.db;
    const hidden = () => fail('NOT_FOUND', 'No such image is shown in this shop.');
    const row = await findMediaAsset(db, tenantId, input.assetId);
    if (!row) return hidden();
    const entries = await listGalleryEntries(db, tenantId, [row.productId]);
    if (!entries.some((entry) => entry.assetId === row.id && entry.state === 'published')) return hidden();
    if (!(await findProductInChannel(db, storefront, row.productId))) return hidden();
    const blob = await services.blobs.get(db, tenantId, row.blobId);
    if (!blob) throw new Error(`media asset ${row.id} names a missing blob`);
    return ok({
      fileName: `${row.id}.${row.format}`,
      contentType: IMAGE_CONTENT_TYPES[row.format],
      bytes: blob.bytes,
    });
  },
});

/** The gallery's and the product images' operations. */
export const galleryOperations: readonly AnyOperation[] = [
  readProductGallery,
  addProductGalleryEntry,
  reorderProductGallery,
  selectProductGalleryCover,
  setProductGalleryAltText,
  removeProductGalleryEntry,
  uploadProductMediaAsset,
  listProductMediaAssets,
  readProductMediaAsset,
  deleteProductMediaAsset,
  readStoreMedia,
];
