import {
  type Action,
  actionPermission,
  appEventName,
  checkValue,
  entityOf,
  type Field,
  type Manifest,
  type ServiceAction,
} from '@cartwright/app-manifest';
import { type AppRow, type Executor, findApp, findAppVersion } from '@cartwright/repository';
import type { Principal, Storefront } from '../kernel/auth.ts';
import { actorOf } from '../kernel/auth.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';
import { manifestOf } from './lifecycle.ts';
import { missingReferences, type RecordScope, runEntityAction, valueFailure } from './records.ts';

// The one place an app's action runs (issue 15, item 4), whichever door it came through: the
// private action route, the storefront route, the legacy entity routes, an MCP tool or a flow's
// `app_action`. It makes the access decisions (spec Authentication 5 and 6), then dispatches:
// entity kinds to `records.ts` in one transaction, service actions to the sandboxed module or
// the app's external service with no transaction opened here (a caller may hold its own: a flow
// step's module run, cart pricing asking a shipping rate), input and output checked against the
// action's declared types either way.

/** `app.<app>.<action>`: the MCP tool name of an action. */
export function appToolName(appId: string, actionId: string): string {
  return `app.${appId}.${actionId}`;
}

/** The app and action a tool name names, or null when it is not an app tool's name. */
export function parseAppToolName(name: string): { appId: string; actionId: string } | null {
  const match = /^app\.([a-z][a-z0-9_-]{0,39})\.([a-z][a-z0-9_]{0,39})$/.exec(name);
  return match ? { appId: match[1]!, actionId: match[2]! } : null;
}

/**
 * The core objects an app event is about, as flows read them (`orderId`, `customerId`,
 * `productId`): the values of the declared `coreReference` fields.
 */
export function coreIdsOf(
  fields: readonly Field[],
  values: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === 'string' && field.coreReference && typeof value === 'string') {
      ids[`${field.coreReference}Id`] ??= value;
    }
  }
  return ids;
}

/** Who invokes an action, and through which door. */
export type AppCaller =
  /** A member or API token of the shop, over `/api` or an MCP tool. */
  | { readonly kind: 'staff'; readonly principal: Principal; readonly transport: 'http' | 'mcp' }
  /** A sales channel's visitor over `/store-api`. */
  | { readonly kind: 'public'; readonly storefront: Storefront }
  /**
   * A flow step; the executor has already checked its actor's `apps.write`. `tx` is the step's
   * transaction (absent in its outside part, which holds none); `stepKey` goes to an external
   * service as its idempotency key.
   */
  | {
      readonly kind: 'flow';
      readonly actor: Actor;
      readonly tx?: Executor | undefined;
      readonly stepKey: string;
    }
  /**
   * The service itself on no one's behalf (cart pricing asking an app's shipping rate, the
   * payment-worker calling an app's payment role): no access decision beyond the app being
   * installed. `tx` is the transaction the caller holds (reads and events go through it);
   * `idempotencyKey` goes to an external service (a payment command's request id).
   */
  | {
      readonly kind: 'system';
      readonly process: string;
      readonly tx?: Executor | undefined;
      readonly idempotencyKey?: string | undefined;
    }
  /**
   * A member approving a proposal that names the action (`intelligence.proposals.approve`): the
   * action's permission is checked as for staff, but not its MCP exposure (the approval is not a
   * call of the app's tool); it runs in the approval's transaction `tx`.
   */
  | { readonly kind: 'approval'; readonly principal: Principal; readonly tx: Executor };

export interface AppActionRequest {
  readonly appId: string;
  readonly actionId: string;
  readonly input: unknown;
  /**
   * For a service action: how long the caller waits for its output (whole milliseconds). An
   * external call gets it as its deadline (or the configured one, when shorter); a module run not
   * answered by then answers `APP_MODULE_TIMEOUT` (the run stays bounded by its CPU limit).
   */
  readonly timeoutMs?: number | undefined;
}

/** The merchant's access settings of one action (`apps.action_settings`); absent keeps the manifest's. */
export interface ActionSettings {
  /** Offered as the MCP tool `app.<app>.<action>`. */
  readonly mcp?: boolean;
  /** Offered to the merchant assistant (the manifest's `intelligence.tools` selection). */
  readonly intelligenceTool?: boolean;
}

export function actionSettingsOf(app: Pick<AppRow, 'actionSettings'>, actionId: string): ActionSettings {
  const settings = app.actionSettings[actionId];
  return typeof settings === 'object' && settings !== null ? (settings as ActionSettings) : {};
}

/** Whether the action is an MCP tool: the merchant's setting, else the manifest's flag (absent: yes, the legacy behaviour). */
export function exposedOverMcp(app: AppRow, action: Action): boolean {
  return actionSettingsOf(app, action.id).mcp ?? action.mcp ?? true;
}

/** Whether the action is offered to the merchant assistant: the setting, else `intelligence.tools`. */
export function offeredAsTool(app: AppRow, action: Action): boolean {
  return (
    actionSettingsOf(app, action.id).intelligenceTool ??
    manifestOf(app).intelligence.tools.includes(action.id)
  );
}

/** Whether a storefront caller may invoke it: a public list or get of a publicRead entity, or a public service action. */
export function publicAction(manifest: Manifest, action: Action): boolean {
  if (!action.public) return false;
  if (action.kind === 'service') return true;
  return (action.kind === 'list' || action.kind === 'get') && entityOf(manifest, action)?.publicRead === true;
}

function noSuchAction(request: AppActionRequest): Failure {
  return fail(
    'APP_ACTION_NOT_FOUND',
    `No action ${request.actionId} of an app ${request.appId} is available here.`,
    { extensions: { app: request.appId, action: request.actionId } },
  );
}

/** The access decision for one caller: null when it may invoke the action. */
function refusal(caller: AppCaller, app: AppRow, action: Action, request: AppActionRequest): Failure | null {
  switch (caller.kind) {
    case 'public':
      // The storefront learns nothing about private actions, nor whether the app is installed.
      return publicAction(manifestOf(app), action) ? null : noSuchAction(request);
    case 'staff':
    case 'approval': {
      if (caller.kind === 'staff' && caller.transport === 'mcp' && !exposedOverMcp(app, action))
        return noSuchAction(request);
      const permission = actionPermission(action);
      if (!caller.principal.permissions.has(permission)) {
        return fail('FORBIDDEN', `The action ${request.actionId} needs the permission ${permission}.`, {
          extensions: { permission },
        });
      }
      return null;
    }
    case 'flow':
    case 'system':
      return null;
  }
}

function eventActor(caller: AppCaller): Actor {
  switch (caller.kind) {
    case 'staff':
    case 'approval':
      return actorOf(caller.principal);
    case 'flow':
      return caller.actor;
    case 'public':
      return { kind: 'system', process: 'store-api' };
    case 'system':
      return { kind: 'system', process: caller.process };
  }
}

/** The transaction the caller holds (a flow step's, cart pricing's), if any. */
function heldTransaction(caller: AppCaller): Executor | undefined {
  return caller.kind === 'flow' || caller.kind === 'system' || caller.kind === 'approval'
    ? caller.tx
    : undefined;
}

/** What an external service gets as `Idempotency-Key`: a flow step's key, or the system caller's. */
function idempotencyKeyOf(caller: AppCaller): string | undefined {
  if (caller.kind === 'flow') return caller.stepKey;
  return caller.kind === 'system' ? caller.idempotencyKey : undefined;
}

/** Where the caller's reads go: its transaction, else the database. */
function readerOf(services: Services, caller: AppCaller): Executor {
  return heldTransaction(caller) ?? services.database.db;
}

/** Runs `work` in the caller's transaction or a new one. */
function inTransaction<T>(
  services: Services,
  caller: AppCaller,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  const held = heldTransaction(caller);
  return held ? work(held) : services.database.transaction(work);
}

/**
 * Invokes the action `request.actionId` of the app `request.appId` installed in the shop, as
 * `caller`. Answers the action's output (an object) or why not.
 */
export async function invokeAppAction(
  services: Services,
  tenantId: string,
  caller: AppCaller,
  request: AppActionRequest,
): Promise<Result<Record<string, unknown>>> {
  const reader = readerOf(services, caller);
  const app = await findApp(reader, tenantId, request.appId);
  if (!app) {
    if (caller.kind === 'public') return noSuchAction(request);
    return fail('APP_NOT_INSTALLED', `The app ${request.appId} is not installed in this shop.`, {
      extensions: { app: request.appId, action: request.actionId },
    });
  }
  const manifest = manifestOf(app);
  const action = manifest.actions.find((item) => item.id === request.actionId);
  if (!action) return noSuchAction(request);
  const refused = refusal(caller, app, action, request);
  if (refused) return refused;
  const emit = (tx: Executor, payload: Record<string, unknown>) =>
    action.emits
      ? recordEvent(tx, services, tenantId, eventActor(caller), appEventName(app.appId, action.id), {
          appId: app.appId,
          version: app.version,
          actionId: action.id,
          ...payload,
        })
      : Promise.resolve();
  if (action.kind === 'service') {
    const output = await runServiceAction(services, tenantId, caller, app, action, request);
    if (!output.ok) return output;
    if (action.emits) {
      const subject = coreIdsOf([...action.input, ...action.output], {
        ...(request.input as Record<string, unknown>),
        ...output.value,
      });
      await inTransaction(services, caller, (tx) => emit(tx, { ...subject, output: output.value }));
    }
    return output;
  }
  const entity = entityOf(manifest, action);
  if (!entity) return noSuchAction(request);
  return inTransaction(services, caller, async (tx) => {
    const scope: RecordScope = { tx, services, tenantId, manifest, appId: app.appId, entity };
    const result = await runEntityAction(scope, action, request.input);
    if (result.ok) {
      const data = (result.value as { data?: Record<string, unknown> }).data ?? {};
      await emit(tx, { ...coreIdsOf(entity.fields, data), record: result.value });
    }
    return result;
  });
}

/**
 * Runs a service action: the input checked against its declared types (and its references
 * against the shop), the module or the external service called with no transaction open, the
 * output checked against its declared types.
 */
async function runServiceAction(
  services: Services,
  tenantId: string,
  caller: AppCaller,
  app: AppRow,
  action: ServiceAction,
  request: AppActionRequest,
): Promise<Result<Record<string, unknown>>> {
  const { timeoutMs } = request;
  const input = checkValue(action.input, request.input ?? {});
  if (!input.ok) return valueFailure(input, '', 'input');
  const reader = readerOf(services, caller);
  const missing = await missingReferences(
    { tx: reader, tenantId, appId: app.appId },
    action.input,
    input.value,
    '',
  );
  if (missing) return missing;
  let output: unknown;
  if (action.runtime === 'module') {
    const version = await findAppVersion(reader, tenantId, app.appId, app.version);
    if (!version?.module) {
      return fail('APP_MODULE_INVALID', `Version ${app.version} of ${app.appId} ships no module.`);
    }
    const ran = await answerWithin(
      services.sandbox.run({ moduleSource: version.module, exportName: action.export, input: input.value }),
      timeoutMs,
      () => ({ ok: false, code: 'APP_MODULE_TIMEOUT', message: `no answer within ${timeoutMs} ms` }) as const,
    );
    if (!ran.ok) {
      return fail(ran.code, `The module of ${app.appId} failed in ${action.id}: ${ran.message}`, {
        extensions: { app: app.appId, action: action.id },
      });
    }
    output = ran.output;
  } else {
    const called = await services.appServices.call({
      tenantId,
      appId: app.appId,
      actionId: action.id,
      input: input.value,
      idempotencyKey: idempotencyKeyOf(caller),
      timeoutMs,
    });
    if (!called.ok) {
      return fail(called.code, called.message, {
        extensions: { app: app.appId, action: action.id, outcomeUnknown: called.outcomeUnknown },
      });
    }
    output = called.output;
  }
  const checked = checkValue(action.output, output);
  if (!checked.ok) {
    const code = action.runtime === 'module' ? 'APP_MODULE_OUTPUT_INVALID' : 'APP_SERVICE_ANSWER_INVALID';
    return fail(
      code,
      `The output of ${app.appId}'s ${action.id} does not fit its declared types: ${checked.detail}`,
      {
        extensions: { app: app.appId, action: action.id, issues: checked.issues },
      },
    );
  }
  return ok({ ...checked.value });
}

/**
 * `work`'s answer, or `late()`'s when it has not come within `ms` (no limit when undefined). The
 * work is not stopped: it stays bounded by its own limits and its answer is dropped.
 */
async function answerWithin<T>(work: Promise<T>, ms: number | undefined, late: () => T): Promise<T> {
  if (ms === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
