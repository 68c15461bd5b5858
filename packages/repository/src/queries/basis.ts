import { and, asc, eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../database.ts';
import { countries, currencies, languages, paymentMethods, shippingMethods, taxClasses } from '../schema.ts';

/** The basis tables, each keyed by (tenant, `key`) and guarded by `revision`. */
export const basisTables = {
  languages: { table: languages, key: languages.code, order: languages.code },
  currencies: { table: currencies, key: currencies.code, order: currencies.code },
  countries: { table: countries, key: countries.code, order: countries.code },
  taxClasses: { table: taxClasses, key: taxClasses.id, order: taxClasses.createdAt },
  shippingMethods: { table: shippingMethods, key: shippingMethods.id, order: shippingMethods.position },
  paymentMethods: { table: paymentMethods, key: paymentMethods.id, order: paymentMethods.position },
} as const;

export type BasisArea = keyof typeof basisTables;
type Table<A extends BasisArea> = (typeof basisTables)[A]['table'];
export type BasisRow<A extends BasisArea> = Table<A>['$inferSelect'];
/** What a save writes: every column (its key included) but the tenant, revision and timestamps. */
export type BasisFields<A extends BasisArea> = Omit<
  Table<A>['$inferInsert'],
  'tenantId' | 'revision' | 'createdAt' | 'updatedAt'
>;

function whereKey<A extends BasisArea>(area: A, tenantId: string, key: string) {
  const { table, key: keyColumn } = basisTables[area];
  return and(eq(table.tenantId, tenantId), eq(keyColumn as PgColumn, key));
}

export async function listBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
): Promise<BasisRow<A>[]> {
  const { table, key, order } = basisTables[area];
  const rows = await tx
    .select()
    .from(table)
    .where(eq(table.tenantId, tenantId))
    .orderBy(asc(order as PgColumn), asc(key as PgColumn));
  return rows as BasisRow<A>[];
}

export async function findBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
  key: string,
): Promise<BasisRow<A> | undefined> {
  const { table } = basisTables[area];
  const [row] = await tx
    .select()
    .from(table)
    .where(whereKey(area, tenantId, key));
  return row as BasisRow<A> | undefined;
}

export type RevisionCheck<T> =
  | { readonly ok: true; readonly row: T }
  | { readonly ok: false; readonly actual: number };

/**
 * Creates (`expectedRevision` 0) or replaces the record at `key` (which `fields` repeats), only when its stored revision
 * is `expectedRevision`; answers the stored revision otherwise. The row is locked while checked.
 */
export async function saveBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
  key: string,
  expectedRevision: number,
  fields: BasisFields<A>,
  at: Date,
): Promise<RevisionCheck<BasisRow<A>>> {
  const { table } = basisTables[area];
  const [current] = await tx
    .select()
    .from(table)
    .where(whereKey(area, tenantId, key))
    .for('update');
  const actual = (current as { revision: number } | undefined)?.revision ?? 0;
  if (actual !== expectedRevision) return { ok: false, actual };
  const values = { ...fields, tenantId } as Table<A>['$inferInsert'];
  if (!current) {
    const [row] = await tx
      .insert(table)
      .values({ ...values, revision: 1, createdAt: at, updatedAt: at })
      .returning();
    return { ok: true, row: row as BasisRow<A> };
  }
  const [row] = await tx
    .update(table)
    .set({ ...values, revision: sql`${table.revision} + 1`, updatedAt: at })
    .where(whereKey(area, tenantId, key))
    .returning();
  return { ok: true, row: row as BasisRow<A> };
}

/** Deletes the record at `key` when its stored revision is `expectedRevision`. */
export async function deleteBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
  key: string,
  expectedRevision: number,
): Promise<RevisionCheck<BasisRow<A>>> {
  const { table } = basisTables[area];
  const [current] = await tx
    .select()
    .from(table)
    .where(whereKey(area, tenantId, key))
    .for('update');
  const actual = (current as { revision: number } | undefined)?.revision ?? 0;
  if (!current || actual !== expectedRevision) return { ok: false, actual };
  await tx.delete(table).where(whereKey(area, tenantId, key));
  return { ok: true, row: current as BasisRow<A> };
}
