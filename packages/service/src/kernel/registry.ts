import { findChannelForStaff } from '@cartwright/repository';
import * as v from 'valibot';
import type { Principal, Storefront } from './auth.ts';
import { collisionFailureOf, type Failure, type FieldError, fail, type Result } from './errors.ts';
import { checkInputPolicy, longStringsOf } from './input-policy.ts';
import type { Permission } from './permissions.ts';
import { Uuid } from './schemas.ts';
import type { Services } from './services.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler gets besides its input: who calls, for which shop, and the outside world. */
export interface OperationContext {
  readonly principal: Principal;
  readonly tenantId: string;
  readonly services: Services;
  /** The door the call came through (MCP exposure is an access decision of app actions); absent: HTTP or in-process. */
  readonly transport?: Transport | undefined;
}

/** The transports of staff operations. */
export type Transport = 'http' | 'mcp';

/** A storefront caller: a sales channel of a shop, and the visitor's cart context token if any. */
/** What a storefront handler gets: the channel it serves, never a staff principal. */
export interface StoreOperationContext {
  readonly storefront: Storefront;
  readonly tenantId: string;
  readonly services: Services;
}

interface OperationShape<TInput extends v.GenericSchema, TOutput extends v.GenericSchema> {
  readonly name: string;
  readonly summary: string;
  /**
   * Absent: MCP only. Path parameters are written `:name` and merged into the input.
   * `bodyLimitBytes` raises (or lowers) the host's request body limit for this route.
   * `headers` maps request headers to input fields (e.g. `Idempotency-Key` → `idempotencyKey`).
   */
  readonly http?: {
    readonly method: HttpMethod;
    readonly path: string;
    readonly status?: 200 | 201;
    readonly bodyLimitBytes?: number;
    readonly headers?: Readonly<Record<string, string>>;
  };
  readonly input: TInput;
  /** For a file operation (`file: true`) this is `FileContent`. */
  readonly output: TOutput;
  /** True when the operation changes nothing (GET routes, MCP `readOnlyHint`). */
  readonly readOnly: boolean;
  /** The output is a file: HTTP answers its bytes as an attachment, MCP as an embedded resource. */
  readonly file?: true;
  /** `false`: HTTP only, no MCP tool (where the spec's endpoint table names none). */
  readonly mcp?: false;
}

/** Whether an operation is also an MCP tool (every operation unless it says `mcp: false`). */
export function isMcpTool(operation: AnyOperation): boolean {
  return operation.mcp !== false;
}

/** What a file operation answers: the hosts send `bytes` as they are, never as JSON. */
export const FileContent = v.object({
  fileName: v.pipe(v.string(), v.minLength(1)),
  contentType: v.pipe(v.string(), v.minLength(1)),
  bytes: v.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes'),
});
export type FileContent = v.InferOutput<typeof FileContent>;

/**
 * One capability, declared once. The HTTP host makes a route of `http`, the MCP host a tool named
 * `name`, and the OpenAPI document and tool schemas come from `input` and `output`.
 */
export interface Operation<
  TInput extends v.GenericSchema = v.GenericSchema,
  TOutput extends v.GenericSchema = v.GenericSchema,
> extends OperationShape<TInput, TOutput> {
  /** Staff operations (`/api`, bearer tokens); the default. */
  readonly audience?: 'admin';
  /** Needed besides membership of the shop; null = any member or token of the shop. */
  readonly permission: Permission | null;
  readonly handler: (
    context: OperationContext,
    input: v.InferOutput<TInput>,
  ) => Promise<Result<v.InferOutput<TOutput>>>;
}

/**
 * A storefront operation (`/store-api`, identified by a channel key, public data only). Staff
 * reach the same operation as an MCP tool, naming the channel (default: the main channel).
 */
export interface StoreOperation<
  TInput extends v.GenericSchema = v.GenericSchema,
  TOutput extends v.GenericSchema = v.GenericSchema,
> extends OperationShape<TInput, TOutput> {
  readonly audience: 'store';
  readonly handler: (
    context: StoreOperationContext,
    input: v.InferOutput<TInput>,
  ) => Promise<Result<v.InferOutput<TOutput>>>;
}

export type AnyOperation =
  | Operation<v.GenericSchema, v.GenericSchema>
  | StoreOperation<v.GenericSchema, v.GenericSchema>;

export function defineOperation<TInput extends v.GenericSchema, TOutput extends v.GenericSchema>(
  operation: Operation<TInput, TOutput>,
): AnyOperation {
  return operation as unknown as AnyOperation;
}

export function defineStoreOperation<TInput extends v.GenericSchema, TOutput extends v.GenericSchema>(
  operation: Omit<StoreOperation<TInput, TOutput>, 'audience'>,
): AnyOperation {
  return { ...operation, audience: 'store' } as unknown as AnyOperation;
}

/** The permission an operation needs from staff (storefront operations need none). */
export function permissionOf(operation: AnyOperation): Permission | null {
  return operation.audience === 'store' ? null : operation.permission;
}

/** Turns valibot issues into field errors with JSON pointers (one per pointer and message). */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  const errors = new Map<string, FieldError>();
  for (const issue of issues) {
    const pointer = (issue.path ?? [])
      .map((item) => `/${String(item.key).replaceAll('~', '~0').replaceAll('/', '~1')}`)
      .join('');
    errors.set(JSON.stringify([pointer, issue.message]), { pointer, message: issue.message });
  }
  return [...errors.values()];
}

/**
 * The single door to every operation, used by both transports: checks the permission, holds the
 * raw input to the input policy (decision 0025), validates it against the schema, runs the
 * handler. Permission comes first, so a caller without it learns nothing about valid input shapes.
 */
export async function invokeOperation(
  services: Services,
  operation: AnyOperation,
  principal: Principal,
  rawInput: unknown,
  transport?: Transport,
): Promise<Result<unknown>> {
  if (operation.audience === 'store') return invokeAsStaff(services, operation, principal, rawInput);
  if (operation.permission && !principal.permissions.has(operation.permission)) {
    return fail('FORBIDDEN', `This operation needs the permission ${operation.permission}.`, {
      extensions: { permission: operation.permission },
    });
  }
  const parsed = parseInput(operation, rawInput);
  if (!parsed.ok) return parsed;
  return settled(() =>
    operation.handler({ principal, tenantId: principal.tenantId, services, transport }, parsed.value),
  );
}

/** The single door for storefront callers (the HTTP host's /store-api routes). */
export async function invokeStoreOperation(
  services: Services,
  operation: StoreOperation,
  storefront: Storefront,
  rawInput: unknown,
): Promise<Result<unknown>> {
  const parsed = parseInput(operation, rawInput);
  if (!parsed.ok) return parsed;
  return settled(() =>
    operation.handler({ storefront, tenantId: storefront.tenantId, services }, parsed.value),
  );
}

/** Staff use a storefront operation as a channel of their own shop would (MCP tools). */
const StaffStoreInput = v.object({
  channelId: v.optional(Uuid),
  contextToken: v.optional(v.pipe(v.string(), v.maxLength(200))),
});

/** The extra input staff give a storefront operation: which channel, which cart context. */
export const STAFF_STORE_INPUT = StaffStoreInput;

async function invokeAsStaff(
  services: Services,
  operation: StoreOperation,
  principal: Principal,
  rawInput: unknown,
): Promise<Result<unknown>> {
  // The whole input, channel and context token included, meets the policy before any of it is used.
  const refused = inputPolicyFailure(operation, rawInput);
  if (refused) return refused;
  const { channelId, contextToken, ...rest } = (rawInput ?? {}) as Record<string, unknown>;
  const chosen = v.safeParse(StaffStoreInput, { channelId, contextToken });
  if (!chosen.success) {
    return fail('VALIDATION_FAILED', 'The input does not match the operation schema.', {
      errors: fieldErrors(chosen.issues),
    });
  }
  const channel = await findChannelForStaff(
    services.database.db,
    principal.tenantId,
    chosen.output.channelId,
  );
  if (!channel) return fail('NOT_FOUND', 'No such sales channel exists in this shop.');
  return invokeStoreOperation(
    services,
    operation,
    { tenantId: principal.tenantId, channelId: channel.id, contextToken: chosen.output.contextToken },
    rest,
  );
}

/** The input policy's verdict on a raw input; the operation's schema may allow longer strings. */
function inputPolicyFailure(operation: AnyOperation, rawInput: unknown): Failure | null {
  return checkInputPolicy(rawInput, longStringsOf(operation.input));
}

/**
 * The raw input as the handler gets it: first the input policy (an iterative walk, so nothing
 * recursive sees an input it would choke on), then the operation's schema.
 */
function parseInput(operation: AnyOperation, rawInput: unknown): Result<unknown> {
  const refused = inputPolicyFailure(operation, rawInput);
  if (refused) return refused;
  const parsed = v.safeParse(operation.input, rawInput ?? {});
  if (parsed.success) return { ok: true, value: parsed.output };
  return fail('VALIDATION_FAILED', 'The input does not match the operation schema.', {
    errors: fieldErrors(parsed.issues),
  });
}

/** Runs a handler; a write that collided (deadlock, serialization, unique key) answers BUSY or CONFLICT, never a 500. */
async function settled(run: () => Promise<Result<unknown>>): Promise<Result<unknown>> {
  try {
    return await run();
  } catch (error) {
    const collision = collisionFailureOf(error);
    if (collision) return collision;
    throw error;
  }
}
