import { sql } from 'drizzle-orm';
import { boolean, date, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { tenantIndex, tenantKey, tenantKeyed, tenantUniqueIndex, timestamps } from '../columns.ts';
import type { MoneyJson, TranslationsJson } from './basis.ts';

export interface ProductPriceJson extends MoneyJson {
  /** Strike-through "was" price, gross and net. */
  readonly listGross?: number | null;
  readonly listNet?: number | null;
}

/**
 * How a product shows through one sales channel: `all` listed and found by search, `search` found
 * by search only, `link` read only by its id. A channel without an entry shows it as `all`.
 */
export type ProductVisibilityJson = 'all' | 'search' | 'link';

export interface ProductFlagsJson {
  readonly new?: boolean | null;
  readonly closeout?: boolean | null;
  readonly topseller?: boolean | null;
  readonly shippingFree?: boolean | null;
}

/**
 * Products and their variants. A variant (`parent_id` set) stores only what differs from its
 * parent: every null column inherits. Stock is always the variant's own. `purchase_prices` and
 * `rule_metadata` are private: the public store serialisation never contains them.
 */
export const products = pgTable(
  'products',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    parentId: uuid('parent_id'),
    sku: text('sku').notNull(),
    active: boolean('active'),
    translations: jsonb('translations').$type<TranslationsJson>(),
    prices: jsonb('prices').$type<ProductPriceJson[]>(),
    purchasePrices: jsonb('purchase_prices').$type<MoneyJson[]>(),
    taxClassId: uuid('tax_class_id'),
    stockAvailable: integer('stock_available').notNull().default(0),
    stockReserved: integer('stock_reserved').notNull().default(0),
    weightGrams: integer('weight_grams'),
    widthMm: integer('width_mm'),
    heightMm: integer('height_mm'),
    lengthMm: integer('length_mm'),
    manufacturer: text('manufacturer'),
    categoryIds: uuid('category_ids').array(),
    tags: text('tags').array(),
    /** Descriptive properties, e.g. `{ "material": "cotton" }`. */
    properties: jsonb('properties').$type<Record<string, string>>(),
    /** What distinguishes a variant from its siblings, e.g. `{ "size": "M" }`. */
    options: jsonb('options').$type<Record<string, string>>(),
    releaseDate: date('release_date', { mode: 'string' }),
    flags: jsonb('flags').$type<ProductFlagsJson>(),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>(),
    /** Per sales channel id (decision 0030); a variant's is always null: it follows its parent. */
    visibilities: jsonb('visibilities').$type<Record<string, ProductVisibilityJson>>(),
    ruleMetadata: jsonb('rule_metadata').$type<Record<string, unknown>>(),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'products_sku_key', sql`lower(${t.sku})`),
    tenantIndex(t, 'products_parent_idx', t.parentId),
  ],
);

export const categories = pgTable(
  'categories',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    parentId: uuid('parent_id'),
    translations: jsonb('translations').$type<TranslationsJson>().notNull(),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id)],
);

/** A customer writes a review; it is public only once the merchant approved it. */
export const productReviews = pgTable(
  'product_reviews',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    productId: uuid('product_id').notNull(),
    customerId: uuid('customer_id'),
    authorName: text('author_name').notNull(),
    rating: integer('rating').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    language: text('language').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantIndex(t, 'product_reviews_product_idx', t.productId)],
);
