import {
  type Executor,
  insertChannel,
  insertDefinition,
  listStarterProvisions,
  listTenantIds,
  recordStarterProvision,
} from '@cartwright/repository';
import type { Services } from '../services.ts';
import { STARTER_DEFINITIONS } from './definitions.ts';

/**
 * The one provisioning routine: creates each starter definition the shop has never had. A key
 * provisioned once keeps its tombstone row, so a starter the merchant deleted stays deleted and an
 * edited one is never overwritten. Returns the keys it created.
 */
export async function provisionStarters(
  tx: Executor,
  services: Services,
  tenantId: string,
): Promise<string[]> {
  const known = new Set((await listStarterProvisions(tx, tenantId)).map((row) => row.key));
  const created: string[] = [];
  for (const starter of STARTER_DEFINITIONS) {
    if (known.has(starter.key)) continue;
    const id = services.ids.next();
    if (starter.kind === 'channel') {
      await insertChannel(tx, { tenantId, id, key: starter.key, isMain: true, data: starter.data });
    } else {
      await insertDefinition(tx, { tenantId, kind: starter.kind, id, key: starter.key, data: starter.data });
    }
    await recordStarterProvision(tx, tenantId, starter.key, id);
    created.push(starter.key);
  }
  return created;
}

/** Backfills starters into every existing shop, one transaction per shop; safe to run again. */
export async function backfillStarters(services: Services): Promise<Map<string, string[]>> {
  const createdByShop = new Map<string, string[]>();
  for (const tenantId of await listTenantIds(services.database.db)) {
    const created = await services.database.transaction((tx) => provisionStarters(tx, services, tenantId));
    if (created.length > 0) createdByShop.set(tenantId, created);
  }
  return createdByShop;
}
