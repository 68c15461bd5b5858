import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tenantIndex, tenantKey, tenantKeyed } from '../columns.ts';

export const EFFECT_RECEIPT_STATUSES = ['pending', 'confirmed', 'failed'] as const;
export type EffectReceiptStatus = (typeof EFFECT_RECEIPT_STATUSES)[number];

/** What an effect belongs to; its receipt's key starts with the scope (`flow:<job_id>:<node_id>`). */
export const EFFECT_SCOPES = ['flow', 'payment', 'delivery', 'media'] as const;
export type EffectScope = (typeof EFFECT_SCOPES)[number];

/**
 * Effect receipts: one per effect outside the database (a flow action; later a payment operation
 * or an app delivery), keyed by a stable string that names it (`flow:<job_id>:<node_id>`). Written
 * `pending` before the effect runs and settled (`confirmed` with its result, or `failed`) after; a
 * pending receipt found later means the effect's fate is unknown, so it is never run again blindly.
 * `scope` and `scope_id` name what the effect belongs to (a flow job), so a retry can find and
 * clear that one's unsettled receipts; `step` names the part of it (a flow's node), or is null.
 */
export const effectReceipts = pgTable(
  'effect_receipts',
  {
    ...tenantKeyed(),
    key: text('key').notNull(),
    scope: text('scope', { enum: EFFECT_SCOPES }).notNull(),
    scopeId: uuid('scope_id').notNull(),
    step: text('step'),
    status: text('status', { enum: EFFECT_RECEIPT_STATUSES }).notNull(),
    result: jsonb('result'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [tenantKey(t, t.key), tenantIndex(t, 'effect_receipts_scope_idx', t.scopeId)],
);
