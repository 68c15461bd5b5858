import { sql } from 'drizzle-orm';
import { bigint, customType, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tenantIndex, tenantKey, tenantKeyed, tenantUniqueIndex, timestamps } from '../columns.ts';
import type { AddressJson } from './customers.ts';

export interface CartLineJson {
  readonly id: string;
  readonly productId: string;
  readonly quantity: number;
}

/** A visitor's open cart: what they chose. Prices are never stored here; every read prices it anew. */
export const carts = pgTable(
  'carts',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    contextId: uuid('context_id').notNull(),
    channelId: uuid('channel_id').notNull(),
    customerId: uuid('customer_id'),
    currency: text('currency').notNull(),
    language: text('language').notNull(),
    lines: jsonb('lines').$type<CartLineJson[]>().notNull().default([]),
    billingAddress: jsonb('billing_address').$type<AddressJson>(),
    shippingAddress: jsonb('shipping_address').$type<AddressJson>(),
    shippingMethodId: uuid('shipping_method_id'),
    paymentMethodId: uuid('payment_method_id'),
    /** Promotion codes the visitor entered, as entered (a code is matched case-insensitively). */
    promotionCodes: jsonb('promotion_codes').$type<string[]>().notNull().default([]),
    status: text('status', { enum: ['open', 'ordered'] })
      .notNull()
      .default('open'),
    orderId: uuid('order_id'),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'carts_open_context_key', t.contextId).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * Orders. Everything the order was placed under is a snapshot (lines, prices, taxes, addresses,
 * methods, settings); later edits to products or settings never change an order.
 */
export const orders = pgTable(
  'orders',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    /** Gapless per shop (tenant counter `order`). */
    number: bigint('number', { mode: 'number' }).notNull(),
    channelId: uuid('channel_id').notNull(),
    customerId: uuid('customer_id'),
    cartId: uuid('cart_id'),
    currency: text('currency').notNull(),
    language: text('language').notNull(),
    state: text('state').notNull().default('open'),
    paymentState: text('payment_state').notNull().default('open'),
    deliveryState: text('delivery_state').notNull().default('open'),
    /** The priced cart at checkout: lines, subtotal, shipping, taxes, total (minor units). */
    price: jsonb('price').$type<Record<string, unknown>>().notNull(),
    lines: jsonb('lines').$type<Record<string, unknown>[]>().notNull(),
    customer: jsonb('customer').$type<Record<string, unknown>>().notNull(),
    billingAddress: jsonb('billing_address').$type<AddressJson>().notNull(),
    shippingAddress: jsonb('shipping_address').$type<AddressJson>().notNull(),
    shippingMethod: jsonb('shipping_method').$type<Record<string, unknown>>().notNull(),
    paymentMethod: jsonb('payment_method').$type<Record<string, unknown>>().notNull(),
    settingsSnapshot: jsonb('settings_snapshot').$type<Record<string, unknown>>().notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    affiliateCode: text('affiliate_code'),
    campaignCode: text('campaign_code'),
    ruleMetadata: jsonb('rule_metadata').$type<Record<string, unknown>>().notNull().default({}),
    idempotencyKey: text('idempotency_key'),
    /** Fingerprint of the checkout request the idempotency key was first used with. */
    idempotencyFingerprint: text('idempotency_fingerprint'),
    revision: integer('revision').notNull().default(1),
    placedAt: timestamp('placed_at', { withTimezone: true, mode: 'date' }).notNull(),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'orders_number_key', t.number),
    tenantUniqueIndex(t, 'orders_idempotency_key', t.idempotencyKey),
    tenantIndex(t, 'orders_customer_idx', t.customerId),
  ],
);

/** Stock held for an order, per product; released exactly once (status moves, never back). */
export const stockReservations = pgTable(
  'stock_reservations',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    productId: uuid('product_id').notNull(),
    sku: text('sku').notNull(),
    quantity: integer('quantity').notNull(),
    status: text('status', { enum: ['reserved', 'released', 'fulfilled'] })
      .notNull()
      .default('reserved'),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantIndex(t, 'stock_reservations_order_idx', t.orderId)],
);

/** The order timeline: notes with their author, state transitions, documents, flow activity. */
export const orderActivities = pgTable(
  'order_activities',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    kind: text('kind').notNull(),
    author: jsonb('author').$type<Record<string, unknown>>().notNull(),
    text: text('text'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.id), tenantIndex(t, 'order_activities_order_idx', t.orderId)],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** Bytes of documents and media, kept in the database so every replica reads the same. */
export const blobs = pgTable(
  'blobs',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.id)],
);

/** Invoices and delivery notes: immutable once created, numbered per shop and type without gaps. */
export const documents = pgTable(
  'documents',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    type: text('type', { enum: ['invoice', 'delivery_note'] }).notNull(),
    number: bigint('number', { mode: 'number' }).notNull(),
    blobId: uuid('blob_id').notNull(),
    fileName: text('file_name').notNull(),
    /** The seller details and order data the document was rendered from. */
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'documents_number_key', t.type, t.number),
    tenantIndex(t, 'documents_order_idx', t.orderId),
  ],
);

/** A downloadable file of a product (e.g. an e-book), sold with it. */
export const productAssets = pgTable(
  'product_assets',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    productId: uuid('product_id').notNull(),
    blobId: uuid('blob_id').notNull(),
    fileName: text('file_name').notNull(),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantIndex(t, 'product_assets_product_idx', t.productId)],
);

/** A customer's right to download an asset of an ordered product; granted or revoked by staff and flows. */
export const downloadEntitlements = pgTable(
  'download_entitlements',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    customerId: uuid('customer_id'),
    assetId: uuid('asset_id').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    downloads: integer('downloads').notNull().default(0),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantUniqueIndex(t, 'download_entitlements_key', t.orderId, t.assetId)],
);

/**
 * One promotion redeemed by one order: written with the order, never changed. `code` is the code
 * the order used (null for a promotion without codes); `ruleIds` the saved rules the promotion
 * referenced then, so a redeemed promotion keeps blocking the deletion of its rules even after
 * the promotion itself changed. A code's limit counts these rows.
 */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    promotionId: uuid('promotion_id').notNull(),
    orderId: uuid('order_id').notNull(),
    /** The code as the promotion defines it (its canonical spelling), or null. */
    code: text('code'),
    ruleIds: jsonb('rule_ids').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'promotion_redemptions_order_key', t.promotionId, t.orderId),
    tenantIndex(t, 'promotion_redemptions_code_idx', t.promotionId, t.code),
  ],
);
