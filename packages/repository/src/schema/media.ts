import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tenantIndex, tenantKey, tenantKeyed, tenantUniqueIndex, timestamps } from '../columns.ts';

/** The image formats a product image may have (decision 0043). */
export const MEDIA_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];

/** How an asset arrived: uploaded, fetched from a URL by the server, or an applied image draft. */
export const MEDIA_ASSET_SOURCES = ['upload', 'url', 'draft'] as const;
export type MediaAssetSource = (typeof MEDIA_ASSET_SOURCES)[number];

/**
 * A gallery entry's state: `published` (part of the product's gallery, public where the product
 * is) or `staged` (added by an applied image draft; staff see it, the public never does, and the
 * product's next save publishes it).
 */
export const GALLERY_ENTRY_STATES = ['staged', 'published'] as const;
export type GalleryEntryState = (typeof GALLERY_ENTRY_STATES)[number];

/** Alt text per language; a missing language inherits the main language's, '' stays empty. */
export type AltTextsJson = Record<string, string>;

/**
 * Product images (issue 18): immutable, owned by one product of one shop; the bytes sit in the
 * blob store (`blob_id`) exactly as they were checked. At most 50 per product.
 */
export const productMediaAssets = pgTable(
  'product_media_assets',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    productId: uuid('product_id').notNull(),
    blobId: uuid('blob_id').notNull(),
    format: text('format', { enum: MEDIA_FORMATS }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Hex SHA-256 of the bytes. */
    sha256: text('sha256').notNull(),
    source: text('source', { enum: MEDIA_ASSET_SOURCES }).notNull(),
    /** The address a `url` asset was fetched from (as the merchant gave it). */
    sourceUrl: text('source_url'),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.id), tenantIndex(t, 'product_media_assets_product_idx', t.productId, t.createdAt)],
);

/**
 * A product's gallery revision: every gallery write names the revision it read (decision 0043).
 * The row appears with the first write; a product without one is at revision 0.
 */
export const productGalleries = pgTable(
  'product_galleries',
  {
    ...tenantKeyed(),
    productId: uuid('product_id').notNull(),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.productId)],
);

/**
 * The ordered entries of a product's gallery (at most 20, staged ones included): an asset of the
 * product, its position, alt text per language, and at most one cover per product.
 */
export const productGalleryEntries = pgTable(
  'product_gallery_entries',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    productId: uuid('product_id').notNull(),
    assetId: uuid('asset_id').notNull(),
    position: integer('position').notNull(),
    isCover: boolean('is_cover').notNull().default(false),
    altTexts: jsonb('alt_texts').$type<AltTextsJson>().notNull().default(sql`'{}'::jsonb`),
    state: text('state', { enum: GALLERY_ENTRY_STATES }).notNull(),
    /** The image draft whose apply staged this entry. */
    draftId: uuid('draft_id'),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantIndex(t, 'product_gallery_entries_product_idx', t.productId, t.position),
    tenantIndex(t, 'product_gallery_entries_asset_idx', t.assetId),
    tenantUniqueIndex(t, 'product_gallery_entries_one_cover', t.productId).where(sql`${t.isCover}`),
  ],
);
