import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import {
  leaseColumns,
  tenantIndex,
  tenantKey,
  tenantKeyed,
  tenantUniqueIndex,
  timestamps,
} from '../columns.ts';

/**
 * An image draft's states (decision 0044): `pending` (admitted, waiting for or inside its one
 * provider call), `ready` (a private PNG to review), `failed` (the call was refused, ambiguous or
 * interrupted, or its output was not a valid image; never retried), `applied` (staged into the
 * product's gallery draft).
 */
export const MEDIA_DRAFT_STATUSES = ['pending', 'ready', 'failed', 'applied'] as const;
export type MediaDraftStatus = (typeof MEDIA_DRAFT_STATUSES)[number];

/** `generate` draws from the instruction; `optimize` edits the source image by it. */
export const MEDIA_DRAFT_MODES = ['generate', 'optimize'] as const;
export type MediaDraftMode = (typeof MEDIA_DRAFT_MODES)[number];

/** Why a draft failed: a stable code and one line for the merchant. */
export interface MediaDraftFailureJson {
  readonly code: string;
  readonly message: string;
}

/** The staff token (and its member, if personal) that created a draft. */
export interface MediaDraftActorJson {
  readonly kind: 'token';
  readonly tokenId: string;
  readonly userId: string | null;
}

/**
 * Image drafts (issue 18): an instruction and an uploaded image of a product, the product revision
 * it was made against, and, once the media worker's call succeeded, the re-encoded PNG in the
 * private blob store (`image_blob_id`; never public until applied). The media worker claims
 * pending drafts through `mediaDraftLease`; the one provider call is recorded as an effect
 * receipt (`media:<draft id>`) before it is made.
 */
export const mediaDrafts = pgTable(
  'media_drafts',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    productId: uuid('product_id').notNull(),
    /** The uploaded product image the instruction is about (an asset of that product). */
    sourceAssetId: uuid('source_asset_id').notNull(),
    mode: text('mode', { enum: MEDIA_DRAFT_MODES }).notNull(),
    instruction: text('instruction').notNull(),
    /** The product's revision when the draft was made: apply needs it to be still current. */
    productRevision: integer('product_revision').notNull(),
    status: text('status', { enum: MEDIA_DRAFT_STATUSES }).notNull(),
    /** The provider model the draft is drawn with. */
    model: text('model').notNull(),
    imageBlobId: uuid('image_blob_id'),
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    failure: jsonb('failure').$type<MediaDraftFailureJson>(),
    /** The gallery entry an apply staged. */
    galleryEntryId: uuid('gallery_entry_id'),
    /** The caller's `Idempotency-Key`: a repeated create answers the same draft. */
    idempotencyKey: text('idempotency_key'),
    /** Who asked for the draft. */
    createdBy: jsonb('created_by').$type<MediaDraftActorJson>().notNull(),
    ...leaseColumns(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    appliedAt: timestamp('applied_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantIndex(t, 'media_drafts_product_idx', t.productId, t.createdAt),
    tenantIndex(t, 'media_drafts_status_idx', t.status),
    tenantUniqueIndex(t, 'media_drafts_idempotency_key', t.idempotencyKey).where(
      sql`${t.idempotencyKey} is not null`,
    ),
    // Not led by tenant_id on purpose: the media worker looks for pending drafts across shops.
    index('media_drafts_due').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);
