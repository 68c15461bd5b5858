import {
  type CheckedValue,
  checkRow,
  checkValue,
  type Entity,
  type EntityAction,
  type Field,
  type Manifest,
  type ValueRefusal,
} from '@cartwright/app-manifest';
import {
  type AppRecordRow,
  deleteAppRecord,
  type Executor,
  findAppRecord,
  findCustomer,
  findOrder,
  findProduct,
  insertAppRecord,
  listAppRecords,
  updateAppRecordAtRevision,
} from '@cartwright/repository';
import * as v from 'valibot';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { iso, Limit, Revision, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';

// The records of an app's entities (issue 15, item 3): rows checked against the installed
// version's field types (`checkRow`), `coreReference` fields naming an existing product, customer
// or order of the same shop (held FOR SHARE while the write commits), `reference` fields naming an
// existing record of the app's own entity, list filters on indexable fields. Records are JSONB rows
// in `app_records` (decision 0035): a field a later version added reads as null on older rows.

/** A record as every door answers it: all of the entity's fields (absent ones as null). */
export interface RecordView {
  readonly id: string;
  readonly entity: string;
  readonly revision: number;
  readonly data: Record<string, unknown>;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export function recordView(entity: Entity, row: AppRecordRow): RecordView {
  return {
    id: row.id,
    entity: row.entity,
    revision: row.revision,
    data: Object.fromEntries(entity.fields.map((field) => [field.name, row.data[field.name] ?? null])),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A value refused by the declared types, as VALIDATION_FAILED with a pointer under `under`. */
export function valueFailure(refusal: ValueRefusal, under: string, what: string): Failure {
  return fail('VALIDATION_FAILED', `The ${what} does not fit its declared types: ${refusal.detail}`, {
    errors: refusal.issues.map((issue) => ({ pointer: `${under}${issue.pointer}`, message: issue.message })),
    extensions: { issues: refusal.issues },
  });
}

/** A field's name as a key of a filter or a change (manifest ids are at most 40 characters). */
export const FieldName = v.pipe(v.string(), v.maxLength(40));

/** The inputs of the entity kinds besides `create` (whose input is the row's fields). */
export const ListInput = v.strictObject({
  /** Exact values of indexable fields; every one must match. */
  filter: v.optional(v.record(FieldName, v.unknown()), {}),
  limit: Limit,
  after: v.optional(Uuid),
  /** The block whose bound context filters the list (its contextBinding), with that context. */
  block: v.optional(v.pipe(v.string(), v.maxLength(40))),
  context: v.optional(
    v.strictObject({ productId: v.optional(Uuid), customerId: v.optional(Uuid), orderId: v.optional(Uuid) }),
  ),
});
export const GetInput = v.strictObject({ id: Uuid });
export const UpdateInput = v.strictObject({
  id: Uuid,
  revision: Revision,
  data: v.record(FieldName, v.unknown()),
});
export const DeleteInput = v.strictObject({ id: Uuid, revision: Revision });

/** The schema each entity kind's input is parsed with (`create` is checked by `checkRow`). */
export const ENTITY_INPUTS = {
  list: ListInput,
  get: GetInput,
  update: UpdateInput,
  delete: DeleteInput,
} as const;

/** Where an entity action runs: the app, its entity, the shop, and the transaction. */
export interface RecordScope {
  readonly tx: Executor;
  readonly services: Services;
  readonly tenantId: string;
  readonly manifest: Manifest;
  readonly appId: string;
  readonly entity: Entity;
}

/** Parses an entity action's input with its kind's schema; pointers stay those of the input. */
function parsed<T extends v.GenericSchema>(schema: T, input: unknown): Result<v.InferOutput<T>> {
  const result = v.safeParse(schema, input);
  if (result.success) return ok(result.output);
  return fail('VALIDATION_FAILED', 'The input does not match the action.', {
    errors: result.issues.map((issue) => ({
      pointer: (issue.path ?? []).map((item) => `/${String(item.key)}`).join(''),
      message: issue.message,
    })),
  });
}

function notFound(scope: RecordScope, id: string): Failure {
  return fail(
    'NOT_FOUND',
    `No ${scope.entity.id} record ${id} of the app ${scope.appId} exists in this shop.`,
  );
}

/** Runs an entity action of the scope's entity in the scope's transaction. */
export async function runEntityAction(
  scope: RecordScope,
  action: EntityAction,
  input: unknown,
): Promise<Result<Record<string, unknown>>> {
  switch (action.kind) {
    case 'list':
      return listRecords(scope, input);
    case 'get': {
      const request = parsed(GetInput, input);
      if (!request.ok) return request;
      const row = await findAppRecord(
        scope.tx,
        scope.tenantId,
        scope.appId,
        scope.entity.id,
        request.value.id,
      );
      return row ? ok({ ...recordView(scope.entity, row) }) : notFound(scope, request.value.id);
    }
    case 'create':
      return createRecord(scope, input);
    case 'update':
      return updateRecord(scope, input);
    case 'delete': {
      const request = parsed(DeleteInput, input);
      if (!request.ok) return request;
      const { id, revision } = request.value;
      const row = await findAppRecord(scope.tx, scope.tenantId, scope.appId, scope.entity.id, id, 'update');
      if (!row) return notFound(scope, id);
      if (row.revision !== revision) return staleRevision(revision, row.revision);
      await deleteAppRecord(scope.tx, scope.tenantId, id);
      return ok({ id, deleted: true });
    }
  }
}

async function listRecords(scope: RecordScope, input: unknown): Promise<Result<Record<string, unknown>>> {
  const request = parsed(ListInput, input);
  if (!request.ok) return request;
  const { filter, limit, after, block: blockId, context } = request.value;
  const equals: Record<string, unknown> = { ...filter };
  if (blockId !== undefined) {
    // A block bound to a context reads only that context's rows: never the unfiltered list.
    const block = scope.manifest.blocks.find((item) => item.id === blockId);
    if (!block) {
      return fail('VALIDATION_FAILED', `The app ${scope.appId} has no block ${blockId}.`, {
        errors: [{ pointer: '/block', message: 'no such block' }],
      });
    }
    const binding = block.contextBinding;
    if (binding) {
      const bound = context?.[binding.key];
      if (bound === undefined) {
        return fail(
          'APP_CONTEXT_REQUIRED',
          `The block ${blockId} is bound to ${binding.key}; give it as context.${binding.key}.`,
          { errors: [{ pointer: `/context/${binding.key}`, message: 'required by the block' }] },
        );
      }
      equals[binding.field] = bound;
    }
  }
  const indexable = scope.entity.fields.filter((field) => 'indexable' in field && field.indexable);
  const unknown = Object.keys(equals).filter((name) => !indexable.some((field) => field.name === name));
  if (unknown.length > 0) {
    return fail(
      'VALIDATION_FAILED',
      `Only indexable fields filter a list: ${unknown.join(', ')} is not one.`,
      {
        errors: unknown.map((name) => ({ pointer: `/filter/${name}`, message: 'not an indexable field' })),
      },
    );
  }
  const values = checkValue(indexable, equals, { partial: true });
  if (!values.ok) return valueFailure(values, '/filter', 'filter');
  const nonNull = Object.fromEntries(Object.entries(values.value).filter(([, value]) => value !== null));
  const rows = await listAppRecords(scope.tx, scope.tenantId, scope.appId, scope.entity.id, nonNull, {
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return ok({
    items: page.map((row) => recordView(scope.entity, row)),
    next: rows.length > limit ? page.at(-1)!.id : null,
  });
}

async function createRecord(scope: RecordScope, input: unknown): Promise<Result<Record<string, unknown>>> {
  const row = checkRow(scope.entity, input);
  if (!row.ok) return valueFailure(row, '', 'record');
  const missing = await missingReferences(scope, scope.entity.fields, row.value, '');
  if (missing) return missing;
  const now = scope.services.clock.now();
  const created = await insertAppRecord(scope.tx, {
    tenantId: scope.tenantId,
    id: scope.services.ids.next(),
    appId: scope.appId,
    entity: scope.entity.id,
    data: { ...row.value },
    createdAt: now,
    updatedAt: now,
  });
  return ok({ ...recordView(scope.entity, created) });
}

async function updateRecord(scope: RecordScope, input: unknown): Promise<Result<Record<string, unknown>>> {
  const request = parsed(UpdateInput, input);
  if (!request.ok) return request;
  const { id, revision, data } = request.value;
  const patch = checkRow(scope.entity, data, { partial: true });
  if (!patch.ok) return valueFailure(patch, '/data', 'change');
  const current = await findAppRecord(scope.tx, scope.tenantId, scope.appId, scope.entity.id, id, 'update');
  if (!current) return notFound(scope, id);
  if (current.revision !== revision) return staleRevision(revision, current.revision);
  const merged = { ...current.data, ...patch.value };
  const whole = checkRow(scope.entity, merged);
  if (!whole.ok) return valueFailure(whole, '/data', 'record');
  const changed = scope.entity.fields.filter((field) => Object.hasOwn(patch.value, field.name));
  const missing = await missingReferences(scope, changed, patch.value, '/data');
  if (missing) return missing;
  const saved = await updateAppRecordAtRevision(
    scope.tx,
    scope.tenantId,
    id,
    revision,
    { ...whole.value },
    scope.services.clock.now(),
  );
  if (!saved) throw new Error('app record changed while locked');
  return ok({ ...recordView(scope.entity, saved) });
}

/**
 * The first reference among `fields` of `value` that names nothing in this shop: a core object or
 * a record of the app's own entity (products and records are held FOR SHARE while the write
 * commits; customers and orders are read without a lock: a customer deleted meanwhile leaves a
 * dangling id, as a deleted customer leaves in any app's data).
 */
export async function missingReferences(
  scope: Pick<RecordScope, 'tx' | 'tenantId' | 'appId'>,
  fields: readonly Field[],
  value: CheckedValue,
  under: string,
): Promise<Failure | null> {
  for (const field of fields) {
    const member = value[field.name];
    if (typeof member !== 'string') continue;
    let kind: string;
    let found: boolean;
    if (field.type === 'string' && field.coreReference) {
      kind = field.coreReference;
      found = await coreObjectExists(scope, field.coreReference, member);
    } else if (field.type === 'reference') {
      kind = `${field.entity} record`;
      found =
        (await findAppRecord(scope.tx, scope.tenantId, scope.appId, field.entity, member, 'share')) !==
        undefined;
    } else continue;
    if (!found) {
      return fail('VALIDATION_FAILED', `No ${kind} ${member} exists in this shop.`, {
        errors: [{ pointer: `${under}/${field.name}`, message: `no such ${kind} in this shop` }],
      });
    }
  }
  return null;
}

async function coreObjectExists(
  scope: Pick<RecordScope, 'tx' | 'tenantId'>,
  kind: 'product' | 'customer' | 'order',
  id: string,
): Promise<boolean> {
  switch (kind) {
    case 'product':
      return (await findProduct(scope.tx, scope.tenantId, id, 'share')) !== undefined;
    case 'customer':
      return (await findCustomer(scope.tx, scope.tenantId, id)) !== undefined;
    case 'order':
      return (await findOrder(scope.tx, scope.tenantId, id)) !== undefined;
  }
}
