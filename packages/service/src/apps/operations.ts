import { Id as ActionId, actionPermission, AppId as ManifestAppId } from '@cartwright/app-manifest';
import { type AppRow, listApps } from '@cartwright/repository';
import * as v from 'valibot';
import { SANDBOX_LIMITS } from '../kernel/app-sandbox.ts';
import { actorOf } from '../kernel/auth.ts';
import { ok } from '../kernel/errors.ts';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { EmptyInput, iso, Revision, Timestamp } from '../kernel/schemas.ts';
import { FIRST_PARTY_MANIFESTS } from './first-party.ts';
import { appToolName, exposedOverMcp, offeredAsTool } from './invoke.ts';
import { configureAction, installApp, manifestOf, uninstallApp } from './lifecycle.ts';

// The app lifecycle over HTTP and MCP (issue 15): list, install or upgrade, uninstall. Installing
// and upgrading need owner or administrator authority (`apps.manage`).

/** An app id as manifests spell it (`@cartwright/app-manifest`). */
export const AppId = ManifestAppId;

/** An installed app as the app operations answer it. */
export const AppView = v.object({
  appId: v.string(),
  version: v.string(),
  revision: v.number(),
  manifest: v.record(v.string(), v.unknown()),
  actionSettings: v.record(v.string(), v.unknown()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export function appView(row: AppRow): v.InferOutput<typeof AppView> {
  return {
    appId: row.appId,
    version: row.version,
    revision: row.revision,
    manifest: row.manifest,
    actionSettings: row.actionSettings,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export const listInstalledApps = defineOperation({
  name: 'apps.list',
  summary: 'The apps installed in the shop, each with its version, manifest and revision.',
  http: { method: 'GET', path: '/api/apps' },
  permission: 'apps.read',
  readOnly: true,
  input: EmptyInput,
  output: v.object({ items: v.array(AppView) }),
  async handler({ services, tenantId }) {
    return ok({ items: (await listApps(services.database.db, tenantId)).map(appView) });
  },
});

export const installAppVersion = defineOperation({
  name: 'apps.install',
  summary:
    'Installs an app (revision 0) or upgrades it (the installed revision) to the manifest’s version, with its JavaScript module when service actions run in one (`runtime: module`). The manifest (API 1) is validated with every problem’s pointer; an upgrade must be compatible (new nullable fields, entities and actions; never removals, type changes, new required fields or downgrades), else nothing changes (409 APP_INCOMPATIBLE with the reasons). A version the shop ran before comes back only with the same manifest.',
  http: { method: 'PUT', path: '/api/apps/:appId', bodyLimitBytes: 2 * 1024 * 1024 },
  permission: 'apps.manage',
  readOnly: false,
  input: v.strictObject({
    appId: AppId,
    revision: Revision,
    manifest: v.unknown(),
    /** The app's JavaScript module (an ES module without imports), when actions run in it. */
    module: v.optional(v.pipe(v.string(), v.maxLength(SANDBOX_LIMITS.maxModuleSourceBytes))),
  }),
  output: v.object({ change: v.picklist(['installed', 'upgraded', 'unchanged']), app: AppView }),
  async handler({ services, tenantId, principal }, input) {
    const installed = await services.database.transaction((tx) =>
      installApp(tx, services, tenantId, actorOf(principal), input),
    );
    return installed.ok
      ? ok({ change: installed.value.change, app: appView(installed.value.app) })
      : installed;
  },
});

export const uninstallInstalledApp = defineOperation({
  name: 'apps.uninstall',
  summary:
    'Uninstalls an app at its revision. Its records are kept (a later install finds them) unless `purge` is true, which deletes them.',
  http: { method: 'DELETE', path: '/api/apps/:appId' },
  permission: 'apps.manage',
  readOnly: false,
  input: v.strictObject({ appId: AppId, revision: Revision, purge: v.optional(v.boolean(), false) }),
  output: v.object({ appId: v.string(), uninstalled: v.literal(true), purgedRecords: v.number() }),
  handler: ({ services, tenantId, principal }, input) =>
    services.database.transaction((tx) => uninstallApp(tx, services, tenantId, actorOf(principal), input)),
});

export const configureAppAction = defineOperation({
  name: 'apps.actions.configure',
  summary:
    'Sets the access settings of one app action at the app’s revision: `mcp` (offered as the MCP tool app.<app>.<action>) and `intelligenceTool` (offered to the merchant assistant); null returns a setting to the manifest’s. Settings survive upgrades while the action exists.',
  http: { method: 'PUT', path: '/api/apps/:appId/actions/:actionId/settings' },
  permission: 'apps.manage',
  readOnly: false,
  input: v.strictObject({
    appId: AppId,
    actionId: ActionId,
    revision: Revision,
    mcp: v.optional(v.nullable(v.boolean())),
    intelligenceTool: v.optional(v.nullable(v.boolean())),
  }),
  output: v.object({ app: AppView }),
  async handler({ services, tenantId, principal }, input) {
    const app = await services.database.transaction((tx) =>
      configureAction(tx, services, tenantId, actorOf(principal), input),
    );
    return app.ok ? ok({ app: appView(app.value) }) : app;
  },
});

const AppTool = v.object({
  appId: v.string(),
  actionId: v.string(),
  kind: v.string(),
  permission: v.picklist(['apps.read', 'apps.write']),
  mcpTool: v.nullable(v.string()),
  label: v.nullable(v.string()),
  description: v.nullable(v.string()),
});

export const listAppTools = defineOperation({
  name: 'apps.tools.list',
  summary:
    'The app actions offered to the merchant assistant (each app’s `intelligence.tools` selection, as the merchant’s action settings change it) that the caller’s own permissions allow, with their MCP tool names where exposed.',
  http: { method: 'GET', path: '/api/app-tools' },
  permission: 'apps.read',
  readOnly: true,
  input: EmptyInput,
  output: v.object({ items: v.array(AppTool) }),
  async handler({ services, tenantId, principal }) {
    const items: v.InferOutput<typeof AppTool>[] = [];
    for (const app of await listApps(services.database.db, tenantId)) {
      for (const action of manifestOf(app).actions) {
        const permission = actionPermission(action);
        if (!offeredAsTool(app, action) || !principal.permissions.has(permission)) continue;
        items.push({
          appId: app.appId,
          actionId: action.id,
          kind: action.kind,
          permission,
          mcpTool: exposedOverMcp(app, action) ? appToolName(app.appId, action.id) : null,
          label: action.label?.en ?? null,
          description: action.description?.en ?? null,
        });
      }
    }
    return ok({ items });
  },
});

export const listFirstPartyApps = defineOperation({
  name: 'apps.catalog',
  summary:
    'The apps that ship with the service (Email Delivery), each with the manifest `apps.install` takes as is, and whether this shop has it installed.',
  http: { method: 'GET', path: '/api/app-catalog' },
  permission: 'apps.read',
  readOnly: true,
  input: EmptyInput,
  output: v.object({
    items: v.array(
      v.object({
        appId: v.string(),
        version: v.string(),
        installedVersion: v.nullable(v.string()),
        manifest: v.record(v.string(), v.unknown()),
      }),
    ),
  }),
  async handler({ services, tenantId }) {
    const installed = new Map(
      (await listApps(services.database.db, tenantId)).map((app) => [app.appId, app.version]),
    );
    return ok({
      items: Object.values(FIRST_PARTY_MANIFESTS).map((manifest) => ({
        appId: manifest.id,
        version: manifest.version,
        installedVersion: installed.get(manifest.id) ?? null,
        manifest: manifest as unknown as Record<string, unknown>,
      })),
    });
  },
});

export const appOperations: readonly AnyOperation[] = [
  listFirstPartyApps,
  listInstalledApps,
  installAppVersion,
  uninstallInstalledApp,
  configureAppAction,
  listAppTools,
];
