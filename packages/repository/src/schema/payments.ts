import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import {
  createdAt,
  leaseColumns,
  tenantIndex,
  tenantKey,
  tenantKeyed,
  tenantUniqueIndex,
  timestamps,
} from '../columns.ts';

// The payment ledger's rows (issue 13). The decisions live in `@cartwright/payment-ledger`; these
// tables only keep what it decided. An attempt's identity (amount, currency with its precision,
// reserved SKU quantities, provider request ids, environment, adapter version, the
// contract-fixture label) never changes after insert; its progress lives in `status` and
// `state` (with the capture it recorded) and `refunds` (the capture's refund ledger), written
// only under the attempt's row lock, so a refund's reservation against the remaining balance and
// every decision about the attempt take turns. Provider webhooks are rows of their own: one per
// provider event id, so a redelivery is refused by the key.

/** The SKU quantities checkout took from stock for the attempt's order. */
export interface ReservedSkuJson {
  readonly productId: string;
  readonly sku: string;
  readonly quantity: number;
}

/** One attempt to take an order's money through a provider. */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    provider: text('provider').notNull(),
    environment: text('environment', { enum: ['sandbox', 'live'] }).notNull(),
    adapterVersion: integer('adapter_version').notNull(),
    contractFixture: boolean('contract_fixture').notNull(),
    /** The merchant every receipt must name, when the account configures one. */
    merchantId: text('merchant_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    precision: integer('precision').notNull(),
    reserved: jsonb('reserved').$type<ReservedSkuJson[]>().notNull(),
    /** Idempotency keys of the provider commands, derived from the attempt id. */
    requestIds: jsonb('request_ids').$type<{ create: string; capture: string }>().notNull(),
    status: text('status').notNull(),
    providerOrderId: text('provider_order_id'),
    approvalUrl: text('approval_url'),
    /** The attempt's progress as `@cartwright/payment-ledger` decided it (its `AttemptState`). */
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    /** The capture's refunds (the ledger's `RefundLedger`); null until the money is captured. */
    refunds: jsonb('refunds').$type<Record<string, unknown>>(),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantIndex(t, 'payment_attempts_order', t.orderId),
    tenantUniqueIndex(t, 'payment_attempts_provider_order_key', t.providerOrderId).where(
      sql`${t.providerOrderId} is not null`,
    ),
    tenantIndex(t, 'payment_attempts_open', t.status, t.updatedAt),
    // Not led by tenant_id on purpose: the payment-worker's sweep looks for quiet attempts across shops.
    index('payment_attempts_sweep')
      .on(t.updatedAt)
      .where(sql`${t.status} in ('awaiting_approval', 'capturing', 'pending_capture', 'uncertain')`),
  ],
);

export const PAYMENT_JOB_KINDS = ['create', 'capture', 'reconcile', 'refund', 'cancel', 'webhook'] as const;
export type PaymentJobKind = (typeof PAYMENT_JOB_KINDS)[number];
export const PAYMENT_JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'uncertain'] as const;
export type PaymentJobStatus = (typeof PAYMENT_JOB_STATUSES)[number];

/** Provider work the payment-worker leases: one provider call (or a reconciliation) each. */
export const paymentJobs = pgTable(
  'payment_jobs',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    attemptId: uuid('attempt_id').notNull(),
    kind: text('kind', { enum: PAYMENT_JOB_KINDS }).notNull(),
    /** The refund a refund job sends; the inbox event a webhook job applies. */
    subjectId: text('subject_id'),
    status: text('status', { enum: PAYMENT_JOB_STATUSES }).notNull(),
    tries: integer('tries').notNull().default(0),
    availableAt: timestamp('available_at', { withTimezone: true, mode: 'date' }).notNull(),
    ...leaseColumns(),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantIndex(t, 'payment_jobs_attempt', t.attemptId, t.createdAt),
    // Not led by tenant_id on purpose: workers look for due work across shops.
    index('payment_jobs_due').on(t.availableAt).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** Verified provider webhooks, one row per provider event id: a redelivery changes nothing. */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    ...tenantKeyed(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The provider resource the event is about (order, capture or refund id). */
    resourceId: text('resource_id'),
    /** The exact body as delivered (verification compares bytes). */
    body: text('body').notNull(),
    status: text('status', { enum: ['received', 'applied', 'ignored'] }).notNull(),
    attemptId: uuid('attempt_id'),
    receivedAt: createdAt(),
    appliedAt: timestamp('applied_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [tenantKey(t, t.eventId), tenantIndex(t, 'payment_webhook_events_received', t.receivedAt)],
);
