import * as v from 'valibot';
import type { Principal } from './auth.ts';
import { type FieldError, fail, type Result } from './errors.ts';
import type { Permission } from './permissions.ts';
import type { Services } from './services.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler gets besides its input: who calls, for which shop, and the outside world. */
export interface OperationContext {
  readonly principal: Principal;
  readonly tenantId: string;
  readonly services: Services;
}

/**
 * One capability, declared once. The HTTP host makes a route of `http`, the MCP host a tool named
 * `name`, and the OpenAPI document and tool schemas come from `input` and `output`.
 */
export interface Operation<
  TInput extends v.GenericSchema = v.GenericSchema,
  TOutput extends v.GenericSchema = v.GenericSchema,
> {
  readonly name: string;
  readonly summary: string;
  /** Absent: MCP only. Path parameters are written `:name` and merged into the input. */
  readonly http?: { readonly method: HttpMethod; readonly path: string; readonly status?: 200 | 201 };
  /** Needed besides membership of the shop; null = any member or token of the shop. */
  readonly permission: Permission | null;
  readonly input: TInput;
  readonly output: TOutput;
  /** True when the operation changes nothing (GET routes, MCP `readOnlyHint`). */
  readonly readOnly: boolean;
  readonly handler: (
    context: OperationContext,
    input: v.InferOutput<TInput>,
  ) => Promise<Result<v.InferOutput<TOutput>>>;
}

export type AnyOperation = Operation<v.GenericSchema, v.GenericSchema>;

export function defineOperation<TInput extends v.GenericSchema, TOutput extends v.GenericSchema>(
  operation: Operation<TInput, TOutput>,
): AnyOperation {
  return operation as unknown as AnyOperation;
}

/** Turns valibot issues into field errors with JSON pointers. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  return issues.map((issue) => ({
    pointer:
      `/${(issue.path ?? []).map((item) => String(item.key).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`.replace(
        /^\/$/,
        '',
      ),
    message: issue.message,
  }));
}

/**
 * The single door to every operation, used by both transports: checks the permission, validates
 * the input, runs the handler. Permission comes first, so a caller without it learns nothing
 * about valid input shapes.
 */
export async function invokeOperation(
  services: Services,
  operation: AnyOperation,
  principal: Principal,
  rawInput: unknown,
): Promise<Result<unknown>> {
  if (operation.permission && !principal.permissions.has(operation.permission)) {
    return fail('FORBIDDEN', `This operation needs the permission ${operation.permission}.`, {
      extensions: { permission: operation.permission },
    });
  }
  const parsed = v.safeParse(operation.input, rawInput ?? {});
  if (!parsed.success) {
    return fail('VALIDATION_FAILED', 'The input does not match the operation schema.', {
      errors: fieldErrors(parsed.issues),
    });
  }
  return operation.handler({ principal, tenantId: principal.tenantId, services }, parsed.output);
}
