import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  createdAt,
  leaseColumns,
  tenantIndex,
  tenantKey,
  tenantKeyed,
  tenantUniqueIndex,
} from '../columns.ts';

// Every tenant-owned table leads its primary key and indexes with tenant_id (see columns.ts).
// `tenants` and `users` are the global tables: a person may belong to several shops.

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /** `live` shops run everything; `sandbox` copies never run schedules or charge anybody. */
  stage: text('stage', { enum: ['live', 'sandbox'] })
    .notNull()
    .default('live'),
  sourceTenantId: uuid('source_tenant_id'),
  mainLanguage: text('main_language').notNull().default('en'),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const memberships = pgTable(
  'memberships',
  {
    ...tenantKeyed(),
    userId: uuid('user_id').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'editor', 'reader'] }).notNull(),
    /** Granular permissions replacing the role's defaults; null = the role's defaults. */
    permissions: text('permissions').array(),
    createdAt: createdAt(),
  },
  // Not led by tenant_id on purpose: a person's memberships across shops.
  (t) => [tenantKey(t, t.userId), index('memberships_user_idx').on(t.userId)],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    /** `channel`: an access grant to one private sales channel's store API, never a staff token. */
    kind: text('kind', { enum: ['personal', 'api', 'channel'] }).notNull(),
    name: text('name').notNull(),
    /** The sales channel a `channel` grant opens; null for staff tokens. */
    channelId: uuid('channel_id'),
    /** Personal tokens act as this user (their membership is rechecked on every call). */
    userId: uuid('user_id'),
    /** API tokens carry their own role; personal tokens take the member's. */
    role: text('role', { enum: ['owner', 'admin', 'editor', 'reader'] }),
    permissions: text('permissions').array(),
    /** SHA-256 of the whole token; the token itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the secret, so people can tell their tokens apart. */
    hint: text('hint').notNull(),
    createdBy: uuid('created_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [tenantKey(t, t.id), tenantUniqueIndex(t, 'api_tokens_hash_key', t.tokenHash)],
);

/** Per-tenant counters (the outbox sequence now; order numbers later). Row locks make them gapless. */
export const tenantCounters = pgTable(
  'tenant_counters',
  {
    ...tenantKeyed(),
    name: text('name').notNull(),
    value: bigint('value', { mode: 'number' }).notNull().default(sql`0`),
  },
  (t) => [tenantKey(t, t.name)],
);

export const outboxEvents = pgTable(
  'outbox_events',
  {
    ...tenantKeyed(),
    /** Gapless per tenant and in commit order: allocated under the tenant's counter row lock. */
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    actor: jsonb('actor').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    tenantKey(t, t.sequence),
    tenantUniqueIndex(t, 'outbox_events_id_key', t.id),
    tenantIndex(t, 'outbox_events_name_idx', t.name, t.sequence),
  ],
);

/** One row per (tenant, consumer): how far the consumer has read, and who holds the lease on it. */
export const outboxCursors = pgTable(
  'outbox_cursors',
  {
    ...tenantKeyed(),
    consumer: text('consumer').notNull(),
    position: bigint('position', { mode: 'number' }).notNull().default(sql`0`),
    ...leaseColumns(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [tenantKey(t, t.consumer)],
);

/** A consumer's receipt for one event: inserted in the same transaction as the consumer's effect. */
export const outboxReceipts = pgTable(
  'outbox_receipts',
  {
    ...tenantKeyed(),
    consumer: text('consumer').notNull(),
    eventSequence: bigint('event_sequence', { mode: 'number' }).notNull(),
    processedBy: text('processed_by').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [tenantKey(t, t.consumer, t.eventSequence)],
);

/** The diagnostic projection: how many events of each name a shop has produced. */
export const eventStatistics = pgTable(
  'event_statistics',
  {
    ...tenantKeyed(),
    name: text('name').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(sql`0`),
    lastSequence: bigint('last_sequence', { mode: 'number' }).notNull(),
    lastOccurredAt: timestamp('last_occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [tenantKey(t, t.name)],
);

/**
 * Automation definitions: rules, flows and promotions. `data` holds the definition in its native
 * JSON shape; `revision` guards every write. `key` names starter definitions (`default_cart_100`).
 */
export const definitions = pgTable(
  'definitions',
  {
    ...tenantKeyed(),
    kind: text('kind', { enum: ['rule', 'flow', 'promotion'] }).notNull(),
    id: uuid('id').notNull(),
    key: text('key'),
    revision: integer('revision').notNull().default(1),
    active: boolean('active').notNull().default(true),
    data: jsonb('data').notNull(),
    /** Who last saved it (a flow acts for them); null for starters the shop was given. */
    savedBy: jsonb('saved_by').$type<{ kind: 'token'; tokenId: string; userId: string | null }>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [tenantKey(t, t.kind, t.id), tenantUniqueIndex(t, 'definitions_key_key', t.kind, t.key)],
);

export const channels = pgTable(
  'channels',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    key: text('key'),
    isMain: boolean('is_main').notNull().default(false),
    /** Public key a storefront sends (`x-channel-key`) to name this channel of this shop. */
    accessKey: text('access_key').notNull(),
    revision: integer('revision').notNull().default(1),
    /** Revision of the shared settings basis this channel's overrides were last saved against. */
    baseRevision: integer('base_revision').notNull().default(1),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'channels_key_key', t.key),
    tenantUniqueIndex(t, 'channels_main_key').where(sql`${t.isMain}`),
    tenantUniqueIndex(t, 'channels_access_key_key', t.accessKey),
  ],
);

/**
 * Tombstones of starter provisioning: one row per starter definition ever provisioned in a shop.
 * The backfill provisions only keys without a row, so a deleted starter is never recreated.
 */
export const starterProvisions = pgTable(
  'starter_provisions',
  {
    ...tenantKeyed(),
    key: text('key').notNull(),
    definitionId: uuid('definition_id').notNull(),
    provisionedAt: timestamp('provisioned_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [tenantKey(t, t.key)],
);
