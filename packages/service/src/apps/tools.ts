import {
  type Action,
  actionPermission,
  entityOf,
  type Manifest,
  shapeJsonSchema,
} from '@cartwright/app-manifest';
import { listApps } from '@cartwright/repository';
import type { Principal } from '../kernel/auth.ts';
import { type JsonSchema, jsonSchemaOf } from '../kernel/json-schema.ts';
import type { Services } from '../kernel/services.ts';
import { appToolName, exposedOverMcp } from './invoke.ts';
import { manifestOf } from './lifecycle.ts';
import { ENTITY_INPUTS } from './records.ts';

// The MCP tools of a shop's apps (issue 15, item 4; spec Authentication 6, "MCP exposure"): one
// tool `app.<app>.<action>` per installed action the app (or the merchant's setting) exposes and
// the caller's permissions allow. The list follows installs: the MCP host asks again on every
// `tools/list` and tells clients when it changed.

/** An app action as an MCP tool. */
export interface AppTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly readOnly: boolean;
}

/** The JSON Schema of an action's input (what the action routes take as their body). */
export function actionInputSchema(manifest: Manifest, action: Action): JsonSchema {
  if (action.kind === 'service') return shapeJsonSchema(action.input) as JsonSchema;
  if (action.kind === 'create') {
    const entity = entityOf(manifest, action);
    return shapeJsonSchema(entity?.fields ?? []) as JsonSchema;
  }
  return jsonSchemaOf(ENTITY_INPUTS[action.kind], 'input');
}

function describe(appName: string, action: Action): string {
  const text = action.description?.en ?? action.label?.en ?? `${action.kind} (${action.id})`;
  return `${appName}: ${text}`;
}

/** The app tools `principal` may see and call in its shop, by name. */
export async function appTools(services: Services, principal: Principal): Promise<AppTool[]> {
  const tools: AppTool[] = [];
  for (const app of await listApps(services.database.db, principal.tenantId)) {
    const manifest = manifestOf(app);
    for (const action of manifest.actions) {
      if (!exposedOverMcp(app, action) || !principal.permissions.has(actionPermission(action))) continue;
      tools.push({
        name: appToolName(app.appId, action.id),
        description: describe(manifest.name.en, action),
        inputSchema: actionInputSchema(manifest, action),
        readOnly: action.kind === 'list' || action.kind === 'get',
      });
    }
  }
  return tools;
}
