import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tenantIndex, tenantKey, tenantKeyed, timestamps } from '../columns.ts';

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
