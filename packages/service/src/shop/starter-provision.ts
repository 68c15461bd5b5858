import {
  type Executor,
  findDefinitionByKey,
  findMainOrKeyedChannel,
  insertChannel,
  insertDefinition,
  listStarterProvisions,
  listTenantIds,
  recordStarterProvision,
} from '@cartwright/repository';
import { issueChannelKey } from '../kernel/auth.ts';
import type { Services } from '../kernel/services.ts';
import { STARTER_DEFINITIONS } from './starter-definitions.ts';

/**
 * The one provisioning routine: creates each starter definition the shop has never had. A key
 * provisioned once keeps its tombstone row, so a starter the merchant deleted stays deleted and an
 * edited one is never overwritten. A shop that already holds a definition with a starter's key
 * (or, for the storefront, any main channel) keeps it: the tombstone then points at that row.
 * Returns the keys it created.
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
    const existing =
      starter.kind === 'channel'
        ? await findMainOrKeyedChannel(tx, tenantId, starter.key)
        : await findDefinitionByKey(tx, tenantId, starter.kind, starter.key);
    if (existing) {
      await recordStarterProvision(tx, tenantId, starter.key, existing.id);
      continue;
    }
    const id = services.ids.next();
    if (starter.kind === 'channel') {
      await insertChannel(tx, {
        tenantId,
        id,
        key: starter.key,
        isMain: true,
        accessKey: issueChannelKey(tenantId),
        data: starter.data,
      });
    } else {
      await insertDefinition(tx, { tenantId, kind: starter.kind, id, key: starter.key, data: starter.data });
    }
    await recordStarterProvision(tx, tenantId, starter.key, id);
    created.push(starter.key);
  }
  return created;
}

export interface BackfillReport {
  /** Keys created per shop (shops that needed nothing are left out). */
  readonly created: Map<string, string[]>;
  /** Shops whose backfill failed, with the reason; the other shops are still backfilled. */
  readonly failed: Map<string, string>;
}

/** Backfills starters into every existing shop, one transaction per shop; safe to run again. */
export async function backfillStarters(services: Services): Promise<BackfillReport> {
  const report: BackfillReport = { created: new Map(), failed: new Map() };
  for (const tenantId of await listTenantIds(services.database.db)) {
    try {
      const created = await services.database.transaction((tx) => provisionStarters(tx, services, tenantId));
      if (created.length > 0) report.created.set(tenantId, created);
    } catch (error) {
      report.failed.set(tenantId, error instanceof Error ? error.message : String(error));
    }
  }
  return report;
}
