import { and, asc, count, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../database.ts';

// The generic queries behind the per-table functions: each takes the table and the shop, and
// `where` lists further conditions (undefined ones are left out), so every statement they build
// reads `tenant_id = $1 and …` like the hand-written ones it replaced.

/** A tenant-owned table: `tenant_id` leads its key (see `columns.ts`). */
export type TenantTable = PgTable & { readonly tenantId: PgColumn };
/** A tenant-owned table keyed by (tenant, `id`). */
export type TenantIdTable = TenantTable & { readonly id: PgColumn };
/** A tenant-owned table whose edits move `revision` on and stamp `updated_at`. */
export type RevisedTable = TenantTable & { readonly revision: PgColumn; readonly updatedAt: PgColumn };
export type Row<T extends PgTable> = T['$inferSelect'];
export type Conditions = readonly (SQL | undefined)[];

/** `FOR UPDATE` or `FOR SHARE`: holds the rows read until the transaction ends. */
export type RowLock = 'update' | 'share';

export interface RowQuery {
  readonly where?: Conditions;
  readonly orderBy?: readonly (PgColumn | SQL)[];
  readonly limit?: number;
  readonly lock?: RowLock | undefined;
}

/** How pages run: by `key`, ascending or descending; the cursor is the last key of a page. */
export interface PageOrder {
  readonly key: PgColumn;
  readonly direction: 'asc' | 'desc';
}

/** Up to `limit` rows after the cursor `after` (undefined or empty: from the first). */
export interface Page {
  readonly after?: string | number | undefined;
  readonly limit: number;
}

/** `tenant_id = tenantId and …where`. */
export function inTenant(table: TenantTable, tenantId: string, ...where: Conditions): SQL {
  return and(eq(table.tenantId, tenantId), ...where)!;
}

/** Inserts one row and answers it as stored. */
export async function insertRow<T extends PgTable>(
  tx: Executor,
  table: T,
  values: T['$inferInsert'],
): Promise<Row<T>> {
  const [row] = await tx
    .insert(table as PgTable)
    .values(values as PgInsertValue<PgTable>)
    .returning();
  return row as Row<T>;
}

/** The shop's rows of `table` that `query` selects, in its order. */
export async function selectRows<T extends TenantTable>(
  tx: Executor,
  table: T,
  tenantId: string,
  query: RowQuery = {},
): Promise<Row<T>[]> {
  let select = tx
    .select()
    .from(table as TenantTable)
    .where(inTenant(table, tenantId, ...(query.where ?? [])))
    .$dynamic();
  if (query.orderBy) select = select.orderBy(...query.orderBy);
  if (query.limit !== undefined) select = select.limit(query.limit);
  if (query.lock) select = select.for(query.lock);
  return (await select) as Row<T>[];
}

/** The row `where` names in the shop (a key, so one at most); `lock` holds it. */
export async function findRow<T extends TenantTable>(
  tx: Executor,
  table: T,
  tenantId: string,
  where: Conditions,
  lock?: RowLock,
): Promise<Row<T> | undefined> {
  const [row] = await selectRows(tx, table, tenantId, { where, lock });
  return row;
}

/** One page, in `order`, of the shop's rows that `where` selects. */
export function listPage<T extends TenantTable>(
  tx: Executor,
  table: T,
  tenantId: string,
  order: PageOrder,
  page: Page,
  where: Conditions,
): Promise<Row<T>[]> {
  const ascending = order.direction === 'asc';
  const hasCursor = page.after !== undefined && page.after !== '';
  const cursor = hasCursor ? (ascending ? gt : lt)(order.key, page.after) : undefined;
  return selectRows(tx, table, tenantId, {
    where: [cursor, ...where],
    orderBy: [(ascending ? asc : desc)(order.key)],
    limit: page.limit,
  });
}

/** Up to `limit` ids, lowest first, of the shop's rows that `where` selects. */
export async function listIds(
  tx: Executor,
  table: TenantIdTable,
  tenantId: string,
  where: Conditions,
  limit: number,
): Promise<string[]> {
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(inTenant(table, tenantId, ...where))
    .orderBy(asc(table.id))
    .limit(limit);
  return rows.map((row) => row.id as string);
}

/** How many of the shop's rows `where` selects. */
export async function countRows(
  tx: Executor,
  table: TenantTable,
  tenantId: string,
  where: Conditions,
): Promise<number> {
  const [row] = await tx
    .select({ count: count() })
    .from(table)
    .where(inTenant(table, tenantId, ...where));
  return row?.count ?? 0;
}

/**
 * Writes `changes` to the shop's rows that `where` selects, moves their revision on by one and
 * sets `updated_at` to `at`; answers the rows as written.
 */
export async function reviseRows<T extends RevisedTable>(
  tx: Executor,
  table: T,
  tenantId: string,
  where: Conditions,
  changes: PgUpdateSetSource<T>,
  at: Date,
): Promise<Row<T>[]> {
  const rows = await tx
    .update(table as RevisedTable)
    .set({
      ...changes,
      revision: sql`${table.revision} + 1`,
      updatedAt: at,
    } as PgUpdateSetSource<RevisedTable>)
    .where(inTenant(table, tenantId, ...where))
    .returning();
  return rows as Row<T>[];
}

/** Deletes the shop's rows that `where` selects; answers how many it deleted. */
export async function deleteRows(
  tx: Executor,
  table: TenantTable,
  tenantId: string,
  where: Conditions,
): Promise<number> {
  const rows = await tx
    .delete(table)
    .where(inTenant(table, tenantId, ...where))
    .returning({ tenantId: table.tenantId });
  return rows.length;
}
