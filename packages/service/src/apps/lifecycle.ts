import { isDeepStrictEqual } from 'node:util';
import { diffManifests, type Manifest, parseManifest } from '@cartwright/app-manifest';
import {
  type AppRow,
  deleteApp,
  type Executor,
  findApp,
  findAppVersion,
  insertApp,
  insertAppVersion,
  purgeAppRecords,
  updateAppAtRevision,
} from '@cartwright/repository';
import { SANDBOX_LIMITS } from '../kernel/app-sandbox.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import type { Services } from '../kernel/services.ts';
import { removeAppSchedules, syncAppSchedules } from './schedules.ts';

// An app's life in one shop (issue 15, decision 0035): install a version, upgrade to a compatible
// one (the whole transaction refused otherwise), uninstall keeping or purging its records. The
// manifest's rules are `@cartwright/app-manifest`'s; this keeps what it accepted. A version's
// manifest never changes within a shop (`app_versions`); other shops may run other versions.

/** What an install or upgrade did. */
export type AppChange = 'installed' | 'upgraded' | 'unchanged';

/** The manifest an app row holds (stored as `parseManifest` answered it). */
export function manifestOf(app: Pick<AppRow, 'manifest'>): Manifest {
  return app.manifest as unknown as Manifest;
}

/** `parseManifest` as the service answers it: every issue with its pointer under `/manifest`. */
function checkedManifest(input: unknown): Result<Manifest> {
  const parsed = parseManifest(input);
  if (parsed.ok) return ok(parsed.value);
  return fail('VALIDATION_FAILED', `The manifest is not valid: ${parsed.detail}`, {
    errors: parsed.issues.map((issue) => ({ pointer: `/manifest${issue.pointer}`, message: issue.message })),
    extensions: { issues: parsed.issues },
  });
}

/** The module source as the version stores it: required exactly when an action runs in it. */
function checkedModule(manifest: Manifest, module: string | undefined): Result<string | null> {
  const needed = manifest.actions.some((action) => action.kind === 'service' && action.runtime === 'module');
  const problem = (message: string) =>
    fail('VALIDATION_FAILED', `The module does not fit the manifest: ${message}.`, {
      errors: [{ pointer: '/module', message }],
    });
  if (module === undefined) return needed ? problem('its module actions need the module source') : ok(null);
  if (!needed) return problem('no action of the manifest runs in a module');
  if (Buffer.byteLength(module, 'utf8') > SANDBOX_LIMITS.maxModuleSourceBytes) {
    return problem(`a module holds at most ${SANDBOX_LIMITS.maxModuleSourceBytes} bytes`);
  }
  return ok(module);
}

/** App ids that would shadow the service's own routes under `/api/apps/…` (the assistants). */
const RESERVED_APP_IDS: readonly string[] = ['assistants'];

/**
 * Installs (`revision` 0) or upgrades (the installed revision) the app `appId` to `input`'s
 * version. An upgrade must be compatible with the installed version (`diffManifests`); a version
 * the shop ran before must come back with exactly the manifest it had.
 */
export async function installApp(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  request: {
    readonly appId: string;
    readonly revision: number;
    readonly manifest: unknown;
    readonly module?: string | undefined;
  },
): Promise<Result<{ app: AppRow; change: AppChange }>> {
  const checked = checkedManifest(request.manifest);
  if (!checked.ok) return checked;
  const manifest = checked.value;
  const module = checkedModule(manifest, request.module);
  if (!module.ok) return module;
  if (RESERVED_APP_IDS.includes(manifest.id)) {
    return fail(
      'VALIDATION_FAILED',
      `The app id "${manifest.id}" names a route of the service; choose another.`,
      {
        errors: [{ pointer: '/manifest/id', message: 'reserved app id' }],
      },
    );
  }
  if (manifest.id !== request.appId) {
    return fail('VALIDATION_FAILED', `The manifest is app "${manifest.id}", not "${request.appId}".`, {
      errors: [{ pointer: '/manifest/id', message: `must be ${request.appId}` }],
    });
  }
  const current = await findApp(tx, tenantId, request.appId, 'update');
  if ((current?.revision ?? 0) !== request.revision) {
    return staleRevision(request.revision, current?.revision ?? 0);
  }
  // The manifest as JSONB keeps it (optional keys the parser left undefined are absent there).
  const stored = JSON.parse(JSON.stringify(manifest)) as Record<string, unknown>;
  const known = await findAppVersion(tx, tenantId, manifest.id, manifest.version);
  if (known && (!isDeepStrictEqual(known.manifest, stored) || known.module !== module.value)) {
    return fail(
      'APP_INCOMPATIBLE',
      `Version ${manifest.version} of ${manifest.id} was installed here with another manifest or module; versions never change: raise the version.`,
      {
        extensions: {
          reasons: [
            {
              code: 'VERSION_CHANGED',
              pointer: '/manifest/version',
              message: 'this version had another manifest or module',
            },
          ],
        },
      },
    );
  }
  const now = services.clock.now();
  if (current) {
    const diff = diffManifests(manifestOf(current), manifest);
    if (diff.unchanged) return ok({ app: current, change: 'unchanged' });
    if (!diff.compatible) {
      return fail(
        'APP_INCOMPATIBLE',
        `Version ${manifest.version} is not a compatible upgrade of ${current.version}: nothing was changed.`,
        {
          errors: diff.reasons.map((reason) => ({
            pointer: `/manifest${reason.pointer}`,
            message: reason.message,
          })),
          extensions: { reasons: diff.reasons },
        },
      );
    }
  }
  if (!known)
    await insertAppVersion(tx, {
      tenantId,
      appId: manifest.id,
      version: manifest.version,
      manifest: stored,
      module: module.value,
      createdAt: now,
    });
  const app = current
    ? await updateAppAtRevision(
        tx,
        tenantId,
        manifest.id,
        current.revision,
        { version: manifest.version, manifest: stored, actionSettings: keptSettings(current, manifest) },
        now,
      )
    : await insertApp(tx, {
        tenantId,
        appId: manifest.id,
        version: manifest.version,
        manifest: stored,
        actionSettings: {},
        createdAt: now,
        updatedAt: now,
      });
  if (!app) throw new Error('app row changed while locked');
  await syncAppSchedules(tx, services, tenantId, manifest);
  const change: AppChange = current ? 'upgraded' : 'installed';
  await recordEvent(tx, services, tenantId, actor, `app.${change}`, {
    appId: app.appId,
    version: app.version,
    ...(current ? { from: current.version } : {}),
  });
  return ok({ app, change });
}

/** The merchant's action settings that still name an action of the new version (same app and action id). */
function keptSettings(current: AppRow, next: Manifest): Record<string, unknown> {
  const actions = new Set(next.actions.map((action) => action.id));
  return Object.fromEntries(Object.entries(current.actionSettings).filter(([id]) => actions.has(id)));
}

/** Uninstalls the app at its revision; its records stay unless `purge` (an explicit choice). */
export async function uninstallApp(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  request: { readonly appId: string; readonly revision: number; readonly purge: boolean },
): Promise<Result<{ appId: string; uninstalled: true; purgedRecords: number }> | Failure> {
  const current = await findApp(tx, tenantId, request.appId, 'update');
  if (!current) return fail('NOT_FOUND', `No app ${request.appId} is installed in this shop.`);
  if (current.revision !== request.revision) return staleRevision(request.revision, current.revision);
  const purgedRecords = request.purge ? await purgeAppRecords(tx, tenantId, request.appId) : 0;
  await deleteApp(tx, tenantId, request.appId);
  await removeAppSchedules(tx, tenantId, request.appId);
  await recordEvent(tx, services, tenantId, actor, 'app.uninstalled', {
    appId: request.appId,
    version: current.version,
    purgedRecords,
  });
  return ok({ appId: request.appId, uninstalled: true as const, purgedRecords });
}

/** A change of one action's access settings: a value sets it, null returns to the manifest's. */
export interface ActionSettingsChange {
  readonly appId: string;
  readonly actionId: string;
  readonly revision: number;
  readonly mcp?: boolean | null | undefined;
  readonly intelligenceTool?: boolean | null | undefined;
}

/**
 * Sets the merchant's access settings of one action at the app's revision (kept across upgrades
 * while the action exists, decision 0035).
 */
export async function configureAction(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  change: ActionSettingsChange,
): Promise<Result<AppRow>> {
  const current = await findApp(tx, tenantId, change.appId, 'update');
  if (!current) return fail('APP_NOT_INSTALLED', `The app ${change.appId} is not installed in this shop.`);
  if (current.revision !== change.revision) return staleRevision(change.revision, current.revision);
  if (!manifestOf(current).actions.some((action) => action.id === change.actionId)) {
    return fail('APP_ACTION_NOT_FOUND', `The app ${change.appId} declares no action ${change.actionId}.`);
  }
  const settings: Record<string, unknown> = {
    ...((current.actionSettings[change.actionId] as Record<string, unknown> | undefined) ?? {}),
  };
  for (const key of ['mcp', 'intelligenceTool'] as const) {
    const value = change[key];
    if (value === null) delete settings[key];
    else if (value !== undefined) settings[key] = value;
  }
  const others = Object.fromEntries(
    Object.entries(current.actionSettings).filter(([id]) => id !== change.actionId),
  );
  const app = await updateAppAtRevision(
    tx,
    tenantId,
    change.appId,
    current.revision,
    {
      version: current.version,
      manifest: current.manifest,
      actionSettings: Object.keys(settings).length > 0 ? { ...others, [change.actionId]: settings } : others,
    },
    services.clock.now(),
  );
  if (!app) throw new Error('app row changed while locked');
  await recordEvent(tx, services, tenantId, actor, 'app.action_configured', {
    appId: app.appId,
    actionId: change.actionId,
    settings,
  });
  return ok(app);
}
