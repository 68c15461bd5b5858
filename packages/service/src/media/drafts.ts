import {
  countPendingMediaDrafts,
  type Executor,
  findMediaDraft,
  findMediaDraftByIdempotencyKey,
  findProduct,
  insertMediaDraft,
  isUniqueViolation,
  listProductMediaDrafts,
  lockTransaction,
  type MediaDraftMode,
  type MediaDraftRow,
  markMediaDraftApplied,
  notifyMediaDrafts,
} from '@cartwright/repository';
import { actorOf, type Principal } from '../kernel/auth.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import type { FileContent } from '../kernel/registry.ts';
import type { Services } from '../kernel/services.ts';
import { readMediaAsset } from './assets.ts';
import { stageGalleryEntry } from './gallery.ts';

// Image drafts (issue 18; decision 0044): admitted here (provider enabled, the source an image
// asset of the product, in-flight limits per shop and per product), drawn by the media worker
// (`draft-worker.ts`), reviewed privately, and applied to the product's gallery draft while the
// product is still at the revision the draft was made against.

/** Drafts in flight (pending) a shop may have at once. */
export const MAX_PENDING_DRAFTS_PER_SHOP = 4;
/** Drafts in flight (pending) one product may have at once. */
export const MAX_PENDING_DRAFTS_PER_PRODUCT = 2;
/** The longest instruction, in characters (the provider takes far more; a merchant needs less). */
export const MAX_INSTRUCTION_LENGTH = 4000;
/** How many drafts a product's list answers at most (newest first). */
export const DRAFT_LIST_LIMIT = 100;

export interface NewDraftRequest {
  readonly productId: string;
  readonly assetId: string;
  readonly mode: MediaDraftMode;
  readonly instruction: string;
  readonly idempotencyKey?: string | undefined;
}

const noProduct = (id: string) => fail('NOT_FOUND', `No product ${id} exists in this shop.`);
const noDraft = (id: string) => fail('NOT_FOUND', `No image draft ${id} exists in this shop.`);

/** An uploaded image of the product: its bytes and type (the source of an `optimize`). */
export interface SourceImage {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly fileName: string;
}

/**
 * The uploaded image `assetId` of the product (the source of a draft; an `optimize` sends it to the
 * provider). An asset of another product or shop is refused naming `/assetId`.
 */
export async function findSourceImage(
  tx: Executor,
  services: Services,
  tenantId: string,
  productId: string,
  assetId: string,
): Promise<Result<SourceImage>> {
  const read = await readMediaAsset(tx, services, tenantId, { productId, assetId });
  if (!read.ok) {
    return fail('VALIDATION_FAILED', 'The source must be an uploaded image of this product.', {
      errors: [{ pointer: '/assetId', message: 'no image of this product has this id' }],
    });
  }
  const { asset, bytes } = read.value;
  return ok({ bytes, contentType: asset.contentType, fileName: `source.${asset.format}` });
}

/**
 * Admits a draft: the product exists, the source is an image of it, the provider is enabled, and
 * the shop and the product are under their in-flight limits. The pending draft carries the
 * product's current revision; the media worker is woken when it commits. An `Idempotency-Key`
 * seen before answers the draft it made (the same request) or CONFLICT (another one).
 */
export async function createDraft(
  services: Services,
  tenantId: string,
  principal: Principal,
  request: NewDraftRequest,
): Promise<Result<MediaDraftRow>> {
  const info = services.imageProvider.info();
  try {
    return await services.database.transaction(async (tx) => {
      // One admission at a time per shop, so the counts below stay true until the insert commits.
      await lockTransaction(tx, `media-drafts:${tenantId}`);
      if (request.idempotencyKey) {
        const earlier = await findMediaDraftByIdempotencyKey(tx, tenantId, request.idempotencyKey);
        if (earlier) return sameRequest(earlier, request);
      }
      const product = await findProduct(tx, tenantId, request.productId);
      if (!product) return noProduct(request.productId);
      const source = await findSourceImage(tx, services, tenantId, request.productId, request.assetId);
      if (!source.ok) return source;
      // After the product: another shop's caller learns only that the product is not theirs.
      if (!info.available || info.model === null) {
        return fail(
          'IMAGE_PROVIDER_DISABLED',
          'Image generation is not enabled on this server (IMAGE_GENERATION_ENABLED=true with PROVIDER_API_KEY).',
        );
      }
      const pending = await countPendingMediaDrafts(tx, tenantId, request.productId);
      if (pending.shop >= MAX_PENDING_DRAFTS_PER_SHOP) {
        return limitReached('shop', MAX_PENDING_DRAFTS_PER_SHOP);
      }
      if (pending.product >= MAX_PENDING_DRAFTS_PER_PRODUCT) {
        return limitReached('product', MAX_PENDING_DRAFTS_PER_PRODUCT);
      }
      const now = services.clock.now();
      const draft = await insertMediaDraft(tx, {
        tenantId,
        id: services.ids.next(),
        productId: request.productId,
        sourceAssetId: request.assetId,
        mode: request.mode,
        instruction: request.instruction,
        productRevision: product.revision,
        status: 'pending',
        model: info.model,
        idempotencyKey: request.idempotencyKey ?? null,
        createdBy: actorOf(principal),
        createdAt: now,
        updatedAt: now,
      });
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.media.draft.created', {
        productId: draft.productId,
        draftId: draft.id,
        mode: draft.mode,
      });
      await notifyMediaDrafts(tx);
      return ok(draft);
    });
  } catch (error) {
    // Unreachable while the admission lock holds; kept so a concurrent retry never answers 500.
    if (request.idempotencyKey && isUniqueViolation(error)) {
      const earlier = await findMediaDraftByIdempotencyKey(
        services.database.db,
        tenantId,
        request.idempotencyKey,
      );
      if (earlier) return sameRequest(earlier, request);
    }
    throw error;
  }
}

function sameRequest(earlier: MediaDraftRow, request: NewDraftRequest): Result<MediaDraftRow> {
  const same =
    earlier.productId === request.productId &&
    earlier.sourceAssetId === request.assetId &&
    earlier.mode === request.mode &&
    earlier.instruction === request.instruction;
  return same
    ? ok(earlier)
    : fail('CONFLICT', 'This Idempotency-Key was already used for another image draft.');
}

function limitReached(scope: 'shop' | 'product', limit: number) {
  return fail(
    'MEDIA_DRAFT_LIMIT',
    scope === 'shop'
      ? `A shop may have at most ${limit} image drafts in progress; wait for one to finish.`
      : `A product may have at most ${limit} image drafts in progress; wait for one to finish.`,
    { extensions: { scope, limit } },
  );
}

/** A product's pending and reviewable (ready) drafts, newest first. */
export async function listDrafts(
  services: Services,
  tenantId: string,
  productId: string,
): Promise<Result<MediaDraftRow[]>> {
  const db = services.database.db;
  if (!(await findProduct(db, tenantId, productId))) return noProduct(productId);
  return ok(await listProductMediaDrafts(db, tenantId, productId, ['pending', 'ready'], DRAFT_LIST_LIMIT));
}

/** One draft, whatever its state. */
export async function findDraft(
  services: Services,
  tenantId: string,
  id: string,
): Promise<Result<MediaDraftRow>> {
  const draft = await findMediaDraft(services.database.db, tenantId, id);
  return draft ? ok(draft) : noDraft(id);
}

/** The private PNG of a ready (or applied) draft. */
export async function draftImage(
  services: Services,
  tenantId: string,
  id: string,
): Promise<Result<FileContent>> {
  return services.database.transaction(async (tx) => {
    const draft = await findMediaDraft(tx, tenantId, id);
    if (!draft) return noDraft(id);
    const blob = draft.imageBlobId ? await services.blobs.get(tx, tenantId, draft.imageBlobId) : null;
    if (!blob) {
      return fail('MEDIA_DRAFT_NOT_READY', `The image draft is ${draft.status}; it has no image.`, {
        extensions: { status: draft.status },
      });
    }
    return ok({ fileName: `image-draft-${draft.id}.png`, contentType: 'image/png', bytes: blob.bytes });
  });
}

/** What an apply did: the draft as applied and the gallery entry it staged. */
export interface AppliedDraft {
  readonly draft: MediaDraftRow;
  readonly galleryEntryId: string;
}

/**
 * Stages a ready draft's image into the product's gallery draft (`stageGalleryEntry`: a staged
 * entry only staff see), when `revision` is the product
 * revision the draft was made against and the product is still at it; the product's next save
 * publishes the entry. Anything else changes nothing.
 */
export async function applyDraft(
  services: Services,
  tenantId: string,
  principal: Principal,
  id: string,
  revision: number,
): Promise<Result<AppliedDraft>> {
  return services.database.transaction(async (tx) => {
    const draft = await findMediaDraft(tx, tenantId, id, 'update');
    if (!draft) return noDraft(id);
    if (draft.status !== 'ready' || !draft.imageBlobId) {
      return fail(
        'MEDIA_DRAFT_NOT_READY',
        `Only a ready image draft can be applied; this one is ${draft.status}.`,
        {
          extensions: { status: draft.status },
        },
      );
    }
    // The product's row lock orders this apply with a concurrent product edit.
    const product = await findProduct(tx, tenantId, draft.productId, 'update');
    if (!product) return noProduct(draft.productId);
    if (revision !== draft.productRevision || product.revision !== draft.productRevision) {
      return fail(
        'MEDIA_DRAFT_STALE',
        `The draft was made against product revision ${draft.productRevision}; the product is at revision ${product.revision}. Create a new draft from the current product.`,
        {
          extensions: {
            draftRevision: draft.productRevision,
            productRevision: product.revision,
            given: revision,
          },
        },
      );
    }
    const image = await services.blobs.get(tx, tenantId, draft.imageBlobId);
    if (!image) throw new Error(`media draft ${id} names a blob that is gone`);
    const staged = await stageGalleryEntry(tx, services, tenantId, {
      productId: draft.productId,
      draftId: draft.id,
      png: image.bytes,
    });
    if (!staged.ok) return staged;
    const { entryId } = staged.value;
    const at = services.clock.now();
    if (!(await markMediaDraftApplied(tx, tenantId, id, entryId, at))) {
      // The row is locked above, so only a bug reaches this.
      throw new Error(`media draft ${id} left the ready state under its lock`);
    }
    await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.media.draft.applied', {
      productId: draft.productId,
      draftId: draft.id,
      galleryEntryId: entryId,
    });
    return ok({
      draft: { ...draft, status: 'applied', galleryEntryId: entryId, appliedAt: at, updatedAt: at },
      galleryEntryId: entryId,
    });
  });
}
