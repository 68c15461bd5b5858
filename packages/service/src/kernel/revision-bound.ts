import {
  deleteRevisioned,
  type Executor,
  findReferences,
  findRevisioned,
  listRevisioned,
  type RevisionedFields,
  type RevisionedRow,
  type RevisionedTable,
  saveRevisioned,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from './auth.ts';
import { type Failure, fail, ok } from './errors.ts';
import { recordEvent } from './events.ts';
import type { Permission } from './permissions.ts';
import { type AnyOperation, defineOperation } from './registry.ts';
import { iso, Revision, Timestamp } from './schemas.ts';

// Resources saved whole at a revision (the shared basis, the catalog's categories), each with the
// same three operations: list, revision-bound save (create with revision 0, replace with the
// stored revision) and revision-bound delete. One factory makes them, so all behave the same.

type Body = v.ObjectEntries;

/** Something that uses a record, listed when its delete is refused. */
export interface Use {
  readonly kind: string;
  readonly id: string;
  readonly key?: string | null;
}

export interface RevisionBoundResource<D extends RevisionedTable, E extends Body> {
  readonly table: D;
  /** Tool name prefix: `<name>.list`, `<name>.save`, `<name>.delete`. */
  readonly name: string;
  /** Collection path: `<path>` lists, `<path>/:key` saves and deletes. */
  readonly path: string;
  /** Event name prefix: `<event>.saved`, `<event>.deleted`. */
  readonly event: string;
  readonly noun: string;
  readonly permissions: { readonly read: Permission; readonly write: Permission };
  readonly keyParam: 'code' | 'id';
  readonly keySchema: v.GenericSchema<string>;
  /** The body fields of a save, besides `revision`. */
  readonly fields: E;
  /** Domain checks of a save beyond the schema (a failure changes nothing). */
  readonly check?: (
    tx: Executor,
    tenantId: string,
    input: v.InferOutput<v.ObjectSchema<E, undefined>>,
    current: RevisionedRow<D> | undefined,
    key: string,
  ) => Promise<Failure | null>;
  /** Why a delete is refused besides uses (e.g. the main language). */
  readonly guardDelete?: (tx: Executor, tenantId: string, key: string) => Promise<Failure | null>;
  /** Uses of the record besides rules, flows and promotions naming its key. */
  readonly findUses?: (tx: Executor, tenantId: string, key: string) => Promise<readonly Use[]>;
  /** Runs in the transaction of every successful save and delete (the basis moves its revision). */
  readonly afterWrite?: (tx: Executor, tenantId: string) => Promise<void>;
}

/** The JSON of a stored row: no tenant, dates as ISO strings. */
export function recordView(row: object): Record<string, unknown> {
  const {
    tenantId: _,
    createdAt,
    updatedAt,
    ...rest
  } = row as { tenantId: string; createdAt: Date; updatedAt: Date };
  return { ...rest, createdAt: iso(createdAt), updatedAt: iso(updatedAt) };
}

export function staleRevision(expected: number, actual: number): Failure {
  return fail('STALE_REVISION', `The record is at revision ${actual}, not ${expected}: reload and retry.`, {
    extensions: { expected, actual },
  });
}

/** The list, save and delete operations of one revision-bound resource. */
export function revisionBoundOperations<D extends RevisionedTable, E extends Body>(
  resource: RevisionBoundResource<D, E>,
): AnyOperation[] {
  const { table, keyParam, path, permissions } = resource;
  const Fields = v.object(resource.fields);
  const Record = v.object({
    [keyParam]: resource.keySchema,
    ...resource.fields,
    revision: v.number(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  });

  const list = defineOperation({
    name: `${resource.name}.list`,
    summary: `The shop's ${resource.noun}s.`,
    http: { method: 'GET', path },
    permission: permissions.read,
    readOnly: true,
    input: v.object({}),
    output: v.object({ items: v.array(Record) }),
    async handler({ services, tenantId }) {
      const rows = await listRevisioned(services.database.db, table, tenantId);
      return ok({ items: rows.map(recordView) as v.InferOutput<typeof Record>[] });
    },
  });

  const save = defineOperation({
    name: `${resource.name}.save`,
    summary: `Creates (revision 0) or replaces (the stored revision) a ${resource.noun}.`,
    http: { method: 'PUT', path: `${path}/:${keyParam}` },
    permission: permissions.write,
    readOnly: false,
    input: v.object({ [keyParam]: resource.keySchema, revision: Revision, ...resource.fields }),
    output: Record,
    async handler({ services, tenantId, principal }, input) {
      const key = (input as Record<string, unknown>)[keyParam] as string;
      const { revision, ...rest } = input as { revision: number } & Record<string, unknown>;
      const fields = v.parse(Fields, rest);
      return services.database.transaction(async (tx) => {
        const current = await findRevisioned(tx, table, tenantId, key);
        const refused = await resource.check?.(tx, tenantId, fields, current, key);
        if (refused) return refused;
        const saved = await saveRevisioned(
          tx,
          table,
          tenantId,
          key,
          revision,
          { ...fields, [keyParam]: key } as unknown as RevisionedFields<D>,
          services.clock.now(),
        );
        if (!saved.ok) return staleRevision(revision, saved.actual);
        await resource.afterWrite?.(tx, tenantId);
        await recordEvent(tx, services, tenantId, actorOf(principal), `${resource.event}.saved`, {
          key,
          revision: (saved.row as { revision: number }).revision,
        });
        return ok(recordView(saved.row) as v.InferOutput<typeof Record>);
      });
    },
  });

  const remove = defineOperation({
    name: `${resource.name}.delete`,
    summary: `Deletes a ${resource.noun} at its stored revision; refused while anything references it.`,
    http: { method: 'DELETE', path: `${path}/:${keyParam}` },
    permission: permissions.write,
    readOnly: false,
    input: v.object({ [keyParam]: resource.keySchema, revision: Revision }),
    output: v.object({ [keyParam]: resource.keySchema, deleted: v.literal(true) }),
    async handler({ services, tenantId, principal }, input) {
      const key = (input as Record<string, unknown>)[keyParam] as string;
      const { revision } = input as { revision: number };
      return services.database.transaction(async (tx) => {
        // Locked first: writers that name the record hold it FOR SHARE, so the use checks below
        // see every use committed before the delete and none can slip in after.
        const current = await findRevisioned(tx, table, tenantId, key, 'update');
        if (!current) return fail('NOT_FOUND', `No ${resource.noun} ${key} exists in this shop.`);
        const actual = (current as { revision: number }).revision;
        if (actual !== revision) return staleRevision(revision, actual);
        const guarded = await resource.guardDelete?.(tx, tenantId, key);
        if (guarded) return guarded;
        const references: Use[] = [
          ...(await findReferences(tx, tenantId, key)),
          ...((await resource.findUses?.(tx, tenantId, key)) ?? []),
        ];
        if (references.length > 0) {
          return fail('REFERENCED', `The ${resource.noun} is still referenced; deactivate it instead.`, {
            extensions: { references },
          });
        }
        const deleted = await deleteRevisioned(tx, table, tenantId, key, revision);
        if (!deleted.ok) return staleRevision(revision, deleted.actual);
        await resource.afterWrite?.(tx, tenantId);
        await recordEvent(tx, services, tenantId, actorOf(principal), `${resource.event}.deleted`, { key });
        return ok({ [keyParam]: key, deleted: true as const });
      });
    },
  });
  return [list, save, remove];
}
