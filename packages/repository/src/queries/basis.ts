import { asc, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../database.ts';
import {
  countries,
  currencies,
  languages,
  paymentMethods,
  shippingMethods,
  taxClasses,
  taxRules,
} from '../schema.ts';
import {
  deleteRows,
  findRow,
  insertRow,
  type RevisedTable,
  type RowLock,
  reviseRows,
  selectRows,
} from './tenant-rows.ts';

/**
 * A tenant-owned table whose rows are saved whole at a revision: keyed by (tenant, `key`), listed
 * by `order` then key. The basis tables are such tables; so are the catalog's categories.
 */
export interface RevisionedTable<T extends RevisedTable = RevisedTable> {
  readonly table: T;
  readonly key: PgColumn;
  readonly order: PgColumn;
  /** The rows this spec covers, when it is one part of a shared table (one kind of definition). */
  readonly where?: SQL;
}

export type RevisionedRow<D extends RevisionedTable> = D['table']['$inferSelect'];
/** What a save writes: every column (its key included) but the tenant, revision and timestamps. */
export type RevisionedFields<D extends RevisionedTable> = Omit<
  D['table']['$inferInsert'],
  'tenantId' | 'revision' | 'createdAt' | 'updatedAt'
>;

/** The basis tables, each keyed by (tenant, `key`) and guarded by `revision`. */
export const basisTables = {
  languages: { table: languages, key: languages.code, order: languages.code },
  currencies: { table: currencies, key: currencies.code, order: currencies.code },
  countries: { table: countries, key: countries.code, order: countries.code },
  taxClasses: { table: taxClasses, key: taxClasses.id, order: taxClasses.createdAt },
  taxRules: { table: taxRules, key: taxRules.id, order: taxRules.createdAt },
  shippingMethods: { table: shippingMethods, key: shippingMethods.id, order: shippingMethods.position },
  paymentMethods: { table: paymentMethods, key: paymentMethods.id, order: paymentMethods.position },
} as const satisfies Record<string, RevisionedTable>;

export type BasisArea = keyof typeof basisTables;
export type BasisRow<A extends BasisArea> = RevisionedRow<(typeof basisTables)[A]>;
export type BasisFields<A extends BasisArea> = RevisionedFields<(typeof basisTables)[A]>;

export type RevisionCheck<T> =
  | { readonly ok: true; readonly row: T }
  | { readonly ok: false; readonly actual: number };

function atKey(spec: RevisionedTable, key: string) {
  return [eq(spec.key, key), spec.where];
}

/** Every row of the shop in the table, by `order` then key. */
export function listRevisioned<D extends RevisionedTable>(
  tx: Executor,
  spec: D,
  tenantId: string,
): Promise<RevisionedRow<D>[]> {
  return selectRows(tx, spec.table, tenantId, {
    where: [spec.where],
    orderBy: [asc(spec.order), asc(spec.key)],
  });
}

/** The row at `key`; `lock` holds it (`FOR UPDATE`) until the transaction ends. */
export function findRevisioned<D extends RevisionedTable>(
  tx: Executor,
  spec: D,
  tenantId: string,
  key: string,
  lock: RowLock | undefined = undefined,
): Promise<RevisionedRow<D> | undefined> {
  return findRow(tx, spec.table, tenantId, atKey(spec, key), lock);
}

/**
 * Creates (`expectedRevision` 0) or replaces the row at `key` (which `fields` repeats), only when
 * its stored revision is `expectedRevision`; answers the stored revision otherwise. The row is
 * locked while checked.
 */
export async function saveRevisioned<D extends RevisionedTable>(
  tx: Executor,
  spec: D,
  tenantId: string,
  key: string,
  expectedRevision: number,
  fields: RevisionedFields<D>,
  at: Date,
): Promise<RevisionCheck<RevisionedRow<D>>> {
  const current = await findRevisioned(tx, spec, tenantId, key, 'update');
  const actual = (current as { revision: number } | undefined)?.revision ?? 0;
  if (actual !== expectedRevision) return { ok: false, actual };
  if (!current) {
    const created = { ...fields, tenantId, revision: 1, createdAt: at, updatedAt: at };
    return { ok: true, row: await insertRow(tx, spec.table, created) };
  }
  const changes = { ...fields, tenantId } as PgUpdateSetSource<D['table']>;
  const [row] = await reviseRows(tx, spec.table, tenantId, atKey(spec, key), changes, at);
  return { ok: true, row: row! };
}

/** Deletes the row at `key` when its stored revision is `expectedRevision`. */
export async function deleteRevisioned<D extends RevisionedTable>(
  tx: Executor,
  spec: D,
  tenantId: string,
  key: string,
  expectedRevision: number,
): Promise<RevisionCheck<RevisionedRow<D>>> {
  const current = await findRevisioned(tx, spec, tenantId, key, 'update');
  const actual = (current as { revision: number } | undefined)?.revision ?? 0;
  if (!current || actual !== expectedRevision) return { ok: false, actual };
  await deleteRows(tx, spec.table, tenantId, atKey(spec, key));
  return { ok: true, row: current };
}

export function listBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
): Promise<BasisRow<A>[]> {
  return listRevisioned(tx, basisTables[area], tenantId);
}

export function findBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
  key: string,
  lock?: 'share',
): Promise<BasisRow<A> | undefined> {
  return findRevisioned(tx, basisTables[area], tenantId, key, lock);
}

/** `saveRevisioned` on a basis table. */
export function saveBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
  key: string,
  expectedRevision: number,
  fields: BasisFields<A>,
  at: Date,
): Promise<RevisionCheck<BasisRow<A>>> {
  return saveRevisioned(tx, basisTables[area], tenantId, key, expectedRevision, fields, at);
}

/** `deleteRevisioned` on a basis table. */
export function deleteBasis<A extends BasisArea>(
  tx: Executor,
  area: A,
  tenantId: string,
  key: string,
  expectedRevision: number,
): Promise<RevisionCheck<BasisRow<A>>> {
  return deleteRevisioned(tx, basisTables[area], tenantId, key, expectedRevision);
}
