import type { SQL } from 'drizzle-orm';
import {
  type ExtraConfigColumn,
  type IndexBuilder,
  index,
  type PrimaryKeyBuilder,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** `created_at`, UTC, set by the database unless the writer gives its clock's time. */
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** `created_at` and `updated_at`, UTC, set by the database unless the writer gives its clock's time. */
export const timestamps = {
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

// Tenant-owned tables: `tenant_id` leads the primary key and every index, so the schema can be
// distributed by tenant (Citus) without a rewrite. A table spreads `tenantKeyed()` first and
// declares its keys with `tenantKey` / `tenantIndex` / `tenantUniqueIndex`, which put tenant_id
// in front of the columns they are given.

/** The `tenant_id` column every tenant-owned table starts with: `{ ...tenantKeyed(), id: … }`. */
export const tenantKeyed = () => ({ tenantId: uuid('tenant_id').notNull() });

/** A tenant-owned table's columns as its key declarations see them. */
interface TenantColumns {
  readonly tenantId: ExtraConfigColumn;
}
type KeyPart = ExtraConfigColumn | SQL;

/** The primary key `(tenant_id, …columns)`. */
export function tenantKey(t: TenantColumns, ...columns: ExtraConfigColumn[]): PrimaryKeyBuilder {
  return primaryKey({ columns: [t.tenantId, ...columns] });
}

/** An index on `(tenant_id, …parts)`. */
export function tenantIndex(t: TenantColumns, name: string, ...parts: KeyPart[]): IndexBuilder {
  return index(name).on(t.tenantId, ...parts);
}

/** A unique index on `(tenant_id, …parts)`: unique within a shop. */
export function tenantUniqueIndex(t: TenantColumns, name: string, ...parts: KeyPart[]): IndexBuilder {
  return uniqueIndex(name).on(t.tenantId, ...parts);
}

/**
 * Who holds a leased row and until when (database clock). Every table workers claim spreads these;
 * `queries/leases.ts` is the one mechanism that claims, renews, fences and releases them.
 */
export const leaseColumns = () => ({
  leaseOwner: text('lease_owner'),
  leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, mode: 'date' }),
});
