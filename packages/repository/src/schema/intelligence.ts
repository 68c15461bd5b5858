import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tenantIndex, tenantKey, tenantKeyed, tenantUniqueIndex, timestamps } from '../columns.ts';

// Shop intelligence (issue 19, decision 0045). The arithmetic and the publication rules live in
// `@cartwright/intelligence`; these tables keep counts per evidence source side by side, so
// simulated, manual and sandbox evidence is never added to the observed counts. A pair is one
// row per unordered pair of main products (`product_a_id` < `product_b_id`), and the same row is
// the merchant's hypothesis about it (status, revision).

export const INTELLIGENCE_STATUSES = ['candidate', 'dismissed', 'experiment', 'published'] as const;
export type IntelligenceStatus = (typeof INTELLIGENCE_STATUSES)[number];
export const EVIDENCE_SOURCES = ['observed', 'manual', 'simulated', 'sandbox'] as const;
export type EvidenceSourceName = (typeof EVIDENCE_SOURCES)[number];

/** One piece of evidence a pair remembers: the outbox event (or simulation run) and its label. */
export interface PairSourceEventJson {
  readonly id: string;
  readonly source: EvidenceSourceName;
}

/** Counts per evidence source, one integer column each. */
const sourceCounts = () => ({
  observed: integer('observed').notNull().default(0),
  manual: integer('manual').notNull().default(0),
  simulated: integer('simulated').notNull().default(0),
  sandbox: integer('sandbox').notNull().default(0),
});

/** A co-purchased pair of products and the merchant's hypothesis about it. */
export const intelligencePairs = pgTable(
  'intelligence_pairs',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    productAId: uuid('product_a_id').notNull(),
    productBId: uuid('product_b_id').notNull(),
    /** Baskets (orders, simulated baskets) holding both products, per source. */
    ...sourceCounts(),
    /** The latest source events, newest last, bounded (`@cartwright/intelligence` SOURCE_EVENT_LIMIT). */
    sourceEvents: jsonb('source_events').$type<PairSourceEventJson[]>().notNull().default(sql`'[]'::jsonb`),
    status: text('status', { enum: INTELLIGENCE_STATUSES }).notNull().default('candidate'),
    revision: integer('revision').notNull().default(1),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'intelligence_pairs_products_key', t.productAId, t.productBId),
    tenantIndex(t, 'intelligence_pairs_product_b', t.productBId),
  ],
);

/** Baskets holding a product, per source: the marginal counts confidence and lift need. */
export const intelligenceProducts = pgTable(
  'intelligence_products',
  {
    ...tenantKeyed(),
    productId: uuid('product_id').notNull(),
    ...sourceCounts(),
  },
  (t) => [tenantKey(t, t.productId)],
);

/** Baskets per source in the shop: the denominator of support and lift. One row per shop. */
export const intelligenceTotals = pgTable(
  'intelligence_totals',
  {
    ...tenantKeyed(),
    ...sourceCounts(),
  },
  (t) => [tenantKey(t)],
);

/** Orders that became evidence: an order counts once, whichever event (placement or capture) counted it. */
export const intelligenceOrders = pgTable(
  'intelligence_orders',
  {
    ...tenantKeyed(),
    orderId: uuid('order_id').notNull(),
    /** The outbox event that counted the order (`order.placed` or `payment.captured`). */
    eventId: uuid('event_id').notNull(),
    source: text('source', { enum: EVIDENCE_SOURCES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.orderId)],
);
