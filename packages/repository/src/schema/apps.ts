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

// Apps (issue 15): what a shop installed, every version it ever ran (immutable within the shop),
// and the records of the apps' own entities. The manifest's rules live in
// `@cartwright/app-manifest`; these tables keep what it accepted.

/** An app installed in a shop: its current version and manifest, revision-bound. */
export const apps = pgTable(
  'apps',
  {
    ...tenantKeyed(),
    appId: text('app_id').notNull(),
    version: text('version').notNull(),
    manifest: jsonb('manifest').$type<Record<string, unknown>>().notNull(),
    /** The merchant's access settings per action (kept across upgrades of the same app and action). */
    actionSettings: jsonb('action_settings').$type<Record<string, unknown>>().notNull().default({}),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.appId)],
);

/** Every version of an app a shop installed: a version's manifest never changes within the shop. */
export const appVersions = pgTable(
  'app_versions',
  {
    ...tenantKeyed(),
    appId: text('app_id').notNull(),
    version: text('version').notNull(),
    manifest: jsonb('manifest').$type<Record<string, unknown>>().notNull(),
    /** The version's JavaScript module (its `runtime: module` service actions), if it ships one. */
    module: text('module'),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.appId, t.version)],
);

/**
 * A record of an app's entity. `data` holds the fields as the installed version's types checked
 * them; filters on indexable fields use the GIN index (`data @> {...}`), which serves every
 * field of every app without DDL per install (Citus indexes each shard, so the GIN index need not
 * lead with tenant_id).
 */
export const appRecords = pgTable(
  'app_records',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    appId: text('app_id').notNull(),
    entity: text('entity').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantIndex(t, 'app_records_entity_idx', t.appId, t.entity, t.id),
    index('app_records_data_idx').using('gin', sql`${t.data} jsonb_path_ops`),
  ],
);

// Issue 16: what apps do on time and with the outside world. A schedule of an installed app is a
// row workers lease when it is due; a tick it produced is a row under a unique (shop, app,
// schedule, tick) key, written with its outbox event in one transaction, so no tick is ever
// emitted twice. A signed incoming webhook leaves one receipt per (shop, app, event id). An event
// an app subscribes to becomes a delivery row workers lease, with one row per attempt for the
// merchant's log, and each app's circuit state.

/** A schedule of an installed app (synchronised with its manifest on install, upgrade and uninstall). */
export const appSchedules = pgTable(
  'app_schedules',
  {
    ...tenantKeyed(),
    appId: text('app_id').notNull(),
    scheduleId: text('schedule_id').notNull(),
    cron: text('cron').notNull(),
    /** The declared emit action whose event a tick appends. */
    action: text('action').notNull(),
    input: jsonb('input').$type<Record<string, unknown>>().notNull().default({}),
    enabled: boolean('enabled').notNull().default(true),
    /** The next tick at or after which the schedule is due. */
    nextTickAt: timestamp('next_tick_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The last tick emitted, if any. */
    lastTickAt: timestamp('last_tick_at', { withTimezone: true, mode: 'date' }),
    ...leaseColumns(),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.appId, t.scheduleId),
    // Not led by tenant_id on purpose: workers look for due schedules across shops.
    index('app_schedules_due').on(t.nextTickAt).where(sql`${t.enabled}`),
  ],
);

/** A tick a schedule emitted: the key makes a second emission of the same tick impossible. */
export const appScheduleTicks = pgTable(
  'app_schedule_ticks',
  {
    ...tenantKeyed(),
    appId: text('app_id').notNull(),
    scheduleId: text('schedule_id').notNull(),
    tickAt: timestamp('tick_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Earlier due ticks this one stands for (a worker was down): coalesced, never replayed. */
    missed: integer('missed').notNull().default(0),
    eventId: uuid('event_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.appId, t.scheduleId, t.tickAt)],
);

/** A signed incoming webhook that was accepted: an identical repeat answers this receipt again. */
export const appWebhookReceipts = pgTable(
  'app_webhook_receipts',
  {
    ...tenantKeyed(),
    appId: text('app_id').notNull(),
    /** `x-app-event-id`: unique per shop and app. */
    eventId: text('event_id').notNull(),
    webhookId: text('webhook_id').notNull(),
    /** SHA-256 hex of the exact body bytes: the same event id with other bytes is refused. */
    bodySha256: text('body_sha256').notNull(),
    /** The answer given (status and body), repeated to an identical request. */
    status: integer('status').notNull(),
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    outboxEventId: uuid('outbox_event_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.appId, t.eventId)],
);

export const APP_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** An outbox event on its way to an app's external service (at least once, leased, keyed). */
export const appDeliveries = pgTable(
  'app_deliveries',
  {
    ...tenantKeyed(),
    /** `x-app-delivery-id`: the same on every attempt. */
    id: uuid('id').notNull(),
    appId: text('app_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventName: text('event_name').notNull(),
    /** The event's per-shop outbox sequence. */
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status', { enum: APP_DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt may start (backoff). */
    availableAt: timestamp('available_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    ...leaseColumns(),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'app_deliveries_event_key', t.appId, t.eventId),
    tenantIndex(t, 'app_deliveries_app', t.appId, t.createdAt),
    // Not led by tenant_id on purpose: workers look for due deliveries across shops.
    index('app_deliveries_due').on(t.availableAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** One attempt of a delivery, for the merchant's delivery log (no secrets, no bodies). */
export const appDeliveryAttempts = pgTable(
  'app_delivery_attempts',
  {
    ...tenantKeyed(),
    deliveryId: uuid('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** The receiver's HTTP status; null when no answer came. */
    statusCode: integer('status_code'),
    outcome: text('outcome', { enum: ['delivered', 'failed'] }).notNull(),
    error: text('error'),
  },
  (t) => [tenantKey(t, t.deliveryId, t.attempt)],
);

/** Each app's delivery circuit in a shop: open after consecutive failures until the merchant closes it. */
export const appDeliveryCircuits = pgTable(
  'app_delivery_circuits',
  {
    ...tenantKeyed(),
    appId: text('app_id').notNull(),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** Set when the circuit opened: deliveries wait until the merchant re-enables the app's deliveries. */
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [tenantKey(t, t.appId)],
);
