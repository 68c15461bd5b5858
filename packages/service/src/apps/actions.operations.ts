import {
  Id as ActionId,
  type EntityAction,
  entityOf,
  type Label,
  type Mount,
  STOREFRONT_MOUNTS,
} from '@cartwright/app-manifest';
import { findApp, listApps } from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type AnyOperation, defineOperation, defineStoreOperation } from '../kernel/registry.ts';
import { LANGUAGES, Limit, Revision, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { type AppCaller, invokeAppAction } from './invoke.ts';
import { manifestOf } from './lifecycle.ts';
import { AppId } from './operations.ts';
import { FieldName } from './records.ts';

// The doors to app actions (issue 15, item 4). Each is a registry operation, so every call passes
// `invokeOperation` (or `invokeStoreOperation`) like any other, and each hands its request to the
// one dispatcher `invokeAppAction`, which makes the access decisions. The action routes take the
// action's input as the body; the legacy entity routes name an entity and a verb and run the
// entity's declared action of that kind, so they enforce exactly the scopes of that action. MCP
// tools `app.<app>.<action>` are made per shop by the MCP host from the same operation.

/** Any object output: what an action answers depends on its declaration. */
const ActionOutput = v.record(v.string(), v.unknown());

/** The action's own input: the request without the route's members. */
function actionInput(input: Record<string, unknown>, route: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !route.includes(key)));
}

export const invokeAction = defineOperation({
  name: 'apps.actions.invoke',
  summary:
    'Invokes a declared action of an installed app with the action’s input as the body. Readers (apps.read) may list and get records; creating, updating, deleting and service actions need apps.write. Entity actions: list `{filter?, limit?, after?, block?, context?}`, get `{id}`, create (the record’s fields), update `{id, revision, data}`, delete `{id, revision}`; a service action takes its declared input. Over MCP each action the app exposes is its own tool `app.<app>.<action>`.',
  http: { method: 'POST', path: '/api/apps/:appId/actions/:actionId' },
  // Reading is the least an action needs; the dispatcher checks the action's own permission.
  permission: 'apps.read',
  readOnly: false,
  mcp: false,
  input: v.looseObject({ appId: AppId, actionId: ActionId }),
  output: ActionOutput,
  handler: ({ services, tenantId, principal, transport }, input) =>
    invokeAppAction(
      services,
      tenantId,
      { kind: 'staff', principal, transport: transport ?? 'http' },
      { appId: input.appId, actionId: input.actionId, input: actionInput(input, ['appId', 'actionId']) },
    ),
});

export const invokePublicAction = defineStoreOperation({
  name: 'apps.actions.invoke-public',
  summary:
    'Invokes an app action the app declares public: a list or get of a publicRead entity, or a public service action. Any other action answers 404 APP_ACTION_NOT_FOUND, as an app that is not installed does.',
  http: { method: 'POST', path: '/store-api/apps/:appId/actions/:actionId' },
  readOnly: false,
  mcp: false,
  input: v.looseObject({ appId: AppId, actionId: ActionId }),
  output: ActionOutput,
  handler: ({ services, tenantId, storefront }, input) =>
    invokeAppAction(
      services,
      tenantId,
      { kind: 'public', storefront },
      { appId: input.appId, actionId: input.actionId, input: actionInput(input, ['appId', 'actionId']) },
    ),
});

/**
 * Runs the entity's declared action of `kind` (the first, in manifest order) for a legacy entity
 * route; APP_ACTION_NOT_FOUND when the app declares none, so the route grants nothing the
 * actions do not.
 */
async function runEntityRoute(
  services: Services,
  tenantId: string,
  caller: AppCaller,
  route: { appId: string; entity: string; kind: EntityAction['kind'] },
  input: Record<string, unknown>,
): Promise<Result<Record<string, unknown>>> {
  const app = await findApp(services.database.db, tenantId, route.appId);
  const manifest = app ? manifestOf(app) : null;
  const action = manifest?.actions.find(
    (item): item is EntityAction => item.kind === route.kind && entityOf(manifest, item)?.id === route.entity,
  );
  if (!app) {
    if (caller.kind !== 'public') {
      return fail('APP_NOT_INSTALLED', `The app ${route.appId} is not installed in this shop.`);
    }
  } else if (action) {
    return invokeAppAction(services, tenantId, caller, {
      appId: route.appId,
      actionId: action.id,
      input: actionInput(input, ['appId', 'entity']),
    });
  }
  return fail(
    'APP_ACTION_NOT_FOUND',
    `The app ${route.appId} declares no ${route.kind} action of an entity ${route.entity} available here.`,
  );
}

const EntityRoute = { appId: AppId, entity: ActionId };

function legacyRoute(
  kind: EntityAction['kind'],
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  input: v.ObjectEntries,
  summary: string,
): AnyOperation {
  return defineOperation({
    name: `apps.entities.${kind}`,
    summary: `${summary} (legacy entity route: runs the entity’s declared ${kind} action, with its permission).`,
    http: { method, path, ...(kind === 'create' ? { status: 201 as const } : {}) },
    permission: 'apps.read',
    readOnly: method === 'GET',
    mcp: false,
    input: v.looseObject({ ...EntityRoute, ...input }),
    output: ActionOutput,
    handler: ({ services, tenantId, principal, transport }, request) =>
      runEntityRoute(
        services,
        tenantId,
        { kind: 'staff', principal, transport: transport ?? 'http' },
        { appId: request.appId as string, entity: request.entity as string, kind },
        request,
      ),
  });
}

const records = '/api/apps/:appId/entities/:entity';

export const legacyEntityOperations: readonly AnyOperation[] = [
  legacyRoute(
    'list',
    'GET',
    records,
    { limit: Limit, after: v.optional(Uuid) },
    'Lists records of an app entity by id',
  ),
  legacyRoute('create', 'POST', records, {}, 'Creates a record of an app entity from its fields'),
  legacyRoute('get', 'GET', `${records}/:id`, { id: Uuid }, 'One record of an app entity'),
  legacyRoute(
    'update',
    'PATCH',
    `${records}/:id`,
    { id: Uuid, revision: Revision, data: v.record(FieldName, v.unknown()) },
    'Changes fields of a record of an app entity at its revision',
  ),
  legacyRoute(
    'delete',
    'DELETE',
    `${records}/:id`,
    { id: Uuid, revision: Revision },
    'Deletes a record of an app entity at its revision',
  ),
];

export const listPublicEntity = defineStoreOperation({
  name: 'apps.entities.list-public',
  summary:
    'Lists records of a publicRead app entity through the app’s public list action (legacy entity route); 404 APP_ACTION_NOT_FOUND otherwise.',
  http: { method: 'GET', path: '/store-api/apps/:appId/entities/:entity' },
  readOnly: true,
  mcp: false,
  input: v.object({ ...EntityRoute, limit: Limit, after: v.optional(Uuid) }),
  output: ActionOutput,
  handler: ({ services, tenantId, storefront }, input) =>
    runEntityRoute(
      services,
      tenantId,
      { kind: 'public', storefront },
      { appId: input.appId, entity: input.entity, kind: 'list' },
      input,
    ),
});

/** A label in the visitor's language, else English. */
function labelIn(label: Label | undefined, language: (typeof LANGUAGES)[number]): string | null {
  return label ? (label[language] ?? label.en) : null;
}

export const listStorefrontBlocks = defineStoreOperation({
  name: 'apps.storefront-blocks.list',
  summary:
    'The blocks installed apps show visitors (mount `storefront.product`): each with its app, kind, title in `language`, the public action it runs (`POST /store-api/apps/{app}/actions/{action}`), its fields and its context binding. A storefront renders them beside the product whose id the binding names.',
  http: { method: 'GET', path: '/store-api/apps/blocks' },
  readOnly: true,
  mcp: false,
  input: v.object({ language: v.optional(v.picklist(LANGUAGES), 'en') }),
  output: v.object({
    items: v.array(
      v.object({
        appId: v.string(),
        blockId: v.string(),
        kind: v.string(),
        mount: v.string(),
        title: v.nullable(v.string()),
        action: v.string(),
        fields: v.nullable(v.array(v.string())),
        contextBinding: v.nullable(v.object({ field: v.string(), key: v.string() })),
      }),
    ),
  }),
  async handler({ services, tenantId }, input) {
    const items = [];
    for (const app of await listApps(services.database.db, tenantId)) {
      const manifest = manifestOf(app);
      for (const block of manifest.blocks) {
        if (!(STOREFRONT_MOUNTS as readonly Mount[]).includes(block.mount)) continue;
        // The manifest rules make a storefront block's action public; a public action is what
        // the storefront route runs, so a block whose action is not public is never listed.
        if (!manifest.actions.some((action) => action.id === block.action && action.public)) continue;
        items.push({
          appId: app.appId,
          blockId: block.id,
          kind: block.kind,
          mount: block.mount,
          title: labelIn(block.title, input.language),
          action: block.action,
          fields: block.kind === 'action' ? null : (block.fields ?? null),
          contextBinding: block.contextBinding ?? null,
        });
      }
    }
    return ok({ items });
  },
});

export const appActionOperations: readonly AnyOperation[] = [
  invokeAction,
  invokePublicAction,
  ...legacyEntityOperations,
  listPublicEntity,
  listStorefrontBlocks,
];
