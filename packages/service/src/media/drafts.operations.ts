import type { MediaDraftRow } from '@cartwright/repository';
import * as v from 'valibot';
import { ok } from '../kernel/errors.ts';
import { defineOperation, FileContent } from '../kernel/registry.ts';
import { iso, NullableTimestamp, Revision, Timestamp, Uuid } from '../kernel/schemas.ts';
import {
  applyDraft,
  createDraft,
  draftImage,
  findDraft,
  listDrafts,
  MAX_INSTRUCTION_LENGTH,
  MAX_PENDING_DRAFTS_PER_PRODUCT,
  MAX_PENDING_DRAFTS_PER_SHOP,
} from './drafts.ts';

// The image draft operations (issue 18; spec "Product media"): the provider's availability, create,
// a product's pending and reviewable drafts, one draft, its private PNG, and apply. Reads need
// catalog.read, writes catalog.write.

const DraftStatus = v.picklist(['pending', 'ready', 'failed', 'applied']);
const DraftMode = v.picklist(['generate', 'optimize']);

const MediaDraft = v.object({
  id: Uuid,
  productId: Uuid,
  sourceAssetId: Uuid,
  mode: DraftMode,
  instruction: v.string(),
  /** The product revision the draft was made against; apply needs it to be still current. */
  productRevision: v.number(),
  status: DraftStatus,
  model: v.string(),
  /** The private PNG of a ready or applied draft: read it with `merchant.media.image`. */
  image: v.nullable(
    v.object({
      contentType: v.literal('image/png'),
      width: v.number(),
      height: v.number(),
      path: v.string(),
    }),
  ),
  failure: v.nullable(v.object({ code: v.string(), message: v.string() })),
  galleryEntryId: v.nullable(Uuid),
  createdAt: Timestamp,
  finishedAt: NullableTimestamp,
  appliedAt: NullableTimestamp,
});
type MediaDraft = v.InferOutput<typeof MediaDraft>;

function draftView(row: MediaDraftRow): MediaDraft {
  return {
    id: row.id,
    productId: row.productId,
    sourceAssetId: row.sourceAssetId,
    mode: row.mode,
    instruction: row.instruction,
    productRevision: row.productRevision,
    status: row.status,
    model: row.model,
    image:
      row.imageBlobId && row.imageWidth !== null && row.imageHeight !== null
        ? {
            contentType: 'image/png',
            width: row.imageWidth,
            height: row.imageHeight,
            path: `/api/merchant/media/jobs/${row.id}/image`,
          }
        : null,
    failure: row.failure ?? null,
    galleryEntryId: row.galleryEntryId,
    createdAt: iso(row.createdAt),
    finishedAt: iso(row.finishedAt),
    appliedAt: iso(row.appliedAt),
  };
}

export const mediaProvider = defineOperation({
  name: 'merchant.media.provider',
  summary: 'Whether image drafts can be made on this server, and with which model (never the key).',
  http: { method: 'GET', path: '/api/merchant/media/provider' },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({}),
  output: v.object({
    available: v.boolean(),
    model: v.nullable(v.string()),
    limits: v.object({ pendingPerShop: v.number(), pendingPerProduct: v.number() }),
  }),
  async handler({ services }) {
    const info = services.imageProvider.info();
    return ok({
      available: info.available,
      model: info.model,
      limits: {
        pendingPerShop: MAX_PENDING_DRAFTS_PER_SHOP,
        pendingPerProduct: MAX_PENDING_DRAFTS_PER_PRODUCT,
      },
    });
  },
});

export const createMediaDraft = defineOperation({
  name: 'merchant.media.create',
  summary: `Creates an image draft of a product from an instruction and an uploaded image of that product (assetId): generate draws a new image, optimize edits the uploaded one. The draft is pending until the media worker's provider call ends (ready or failed) and stays private until applied. At most ${MAX_PENDING_DRAFTS_PER_SHOP} pending drafts per shop and ${MAX_PENDING_DRAFTS_PER_PRODUCT} per product (MEDIA_DRAFT_LIMIT). Send an Idempotency-Key to make retries safe.`,
  http: {
    method: 'POST',
    path: '/api/merchant/products/:id/media/jobs',
    status: 201,
    headers: { 'idempotency-key': 'idempotencyKey' },
  },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({
    id: Uuid,
    assetId: Uuid,
    mode: DraftMode,
    instruction: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(MAX_INSTRUCTION_LENGTH, `at most ${MAX_INSTRUCTION_LENGTH} characters`),
    ),
    idempotencyKey: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200),
        v.regex(/^[\x21-\x7e]{8,200}$/, 'expected 8 to 200 visible ASCII characters'),
      ),
    ),
  }),
  output: MediaDraft,
  async handler({ services, tenantId, principal }, input) {
    const created = await createDraft(services, tenantId, principal, {
      productId: input.id,
      assetId: input.assetId,
      mode: input.mode,
      instruction: input.instruction,
      idempotencyKey: input.idempotencyKey,
    });
    return created.ok ? ok(draftView(created.value)) : created;
  },
});

export const listMediaDrafts = defineOperation({
  name: 'merchant.media.list',
  summary: "A product's pending and reviewable (ready) image drafts, newest first (at most 100).",
  http: { method: 'GET', path: '/api/merchant/products/:id/media/jobs' },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({ id: Uuid }),
  output: v.object({ items: v.array(MediaDraft) }),
  async handler({ services, tenantId }, input) {
    const listed = await listDrafts(services, tenantId, input.id);
    return listed.ok ? ok({ items: listed.value.map(draftView) }) : listed;
  },
});

export const getMediaDraft = defineOperation({
  name: 'merchant.media.detail',
  summary:
    'One image draft: its state, the product revision it was made against, its failure reason or its image.',
  http: { method: 'GET', path: '/api/merchant/media/jobs/:id' },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({ id: Uuid }),
  output: MediaDraft,
  async handler({ services, tenantId }, input) {
    const draft = await findDraft(services, tenantId, input.id);
    return draft.ok ? ok(draftView(draft.value)) : draft;
  },
});

export const getMediaDraftImage = defineOperation({
  name: 'merchant.media.image',
  summary: 'The private PNG of a ready (or applied) image draft; staff with catalog.read only.',
  http: { method: 'GET', path: '/api/merchant/media/jobs/:id/image' },
  permission: 'catalog.read',
  readOnly: true,
  file: true,
  input: v.object({ id: Uuid }),
  output: FileContent,
  handler: ({ services, tenantId }, input) => draftImage(services, tenantId, input.id),
});

export const applyMediaDraft = defineOperation({
  name: 'merchant.media.apply',
  summary:
    "Adds a ready draft's image to the product's gallery draft as a staged entry. Needs the product revision the draft was made against, still current (MEDIA_DRAFT_STALE otherwise); the product must still be saved to publish the entry.",
  http: { method: 'POST', path: '/api/merchant/media/jobs/:id/apply' },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({ id: Uuid, revision: Revision }),
  output: v.object({ draft: MediaDraft, galleryEntryId: Uuid }),
  async handler({ services, tenantId, principal }, input) {
    const applied = await applyDraft(services, tenantId, principal, input.id, input.revision);
    return applied.ok
      ? ok({ draft: draftView(applied.value.draft), galleryEntryId: applied.value.galleryEntryId })
      : applied;
  },
});

export const mediaDraftOperations = [
  mediaProvider,
  createMediaDraft,
  listMediaDrafts,
  getMediaDraft,
  getMediaDraftImage,
  applyMediaDraft,
];
