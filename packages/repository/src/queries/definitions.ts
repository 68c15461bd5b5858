import { asc, countDistinct, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import {
  carts,
  channels,
  definitions,
  orders,
  products,
  starterProvisions,
  storeContexts,
} from '../schema.ts';
import {
  countRows,
  deleteRows,
  findRow,
  insertRow,
  inTenant,
  reviseRows,
  selectRows,
} from './tenant-rows.ts';

export type DefinitionRow = typeof definitions.$inferSelect;
export type DefinitionKind = DefinitionRow['kind'];
export type ChannelRow = typeof channels.$inferSelect;

function definitionsOf(kind: DefinitionKind) {
  return {
    table: definitions,
    key: definitions.id,
    order: definitions.createdAt,
    where: eq(definitions.kind, kind),
  };
}

/** Each kind of definition as a revision-bound table keyed by id (`saveRevisioned`, `deleteRevisioned`). */
export const definitionTables = {
  rule: definitionsOf('rule'),
  flow: definitionsOf('flow'),
  promotion: definitionsOf('promotion'),
} as const;

/** The definitions of one kind with these ids; `lock` holds them until the transaction ends. */
export async function findDefinitions(
  tx: Executor,
  tenantId: string,
  kind: DefinitionKind,
  ids: readonly string[],
  lock?: 'share' | 'update',
): Promise<DefinitionRow[]> {
  if (ids.length === 0) return [];
  return selectRows(tx, definitions, tenantId, {
    where: [eq(definitions.kind, kind), inArray(definitions.id, [...ids])],
    orderBy: [asc(definitions.id)],
    lock,
  });
}

export function insertDefinition(
  tx: Executor,
  definition: typeof definitions.$inferInsert,
): Promise<DefinitionRow> {
  return insertRow(tx, definitions, definition);
}

/** The shop's definitions (of one kind); `lock` holds them, taken in id order. */
export function listDefinitions(
  tx: Executor,
  tenantId: string,
  kind?: DefinitionKind,
  lock?: 'share' | 'update',
): Promise<DefinitionRow[]> {
  return selectRows(tx, definitions, tenantId, {
    where: [kind ? eq(definitions.kind, kind) : undefined],
    orderBy: lock
      ? [asc(definitions.id)]
      : [asc(definitions.kind), asc(definitions.createdAt), asc(definitions.id)],
    lock,
  });
}

export function findDefinitionByKey(
  tx: Executor,
  tenantId: string,
  kind: DefinitionKind,
  key: string,
): Promise<DefinitionRow | undefined> {
  return findRow(tx, definitions, tenantId, [eq(definitions.kind, kind), eq(definitions.key, key)]);
}

/** The shop's main channel, or the channel with this key, whichever exists. */
export async function findMainOrKeyedChannel(
  tx: Executor,
  tenantId: string,
  key: string,
): Promise<ChannelRow | undefined> {
  const [row] = await selectRows(tx, channels, tenantId, {
    where: [or(eq(channels.isMain, true), eq(channels.key, key))],
    orderBy: [desc(channels.isMain)],
    limit: 1,
  });
  return row;
}

export function insertChannel(tx: Executor, channel: typeof channels.$inferInsert): Promise<ChannelRow> {
  return insertRow(tx, channels, channel);
}

export function listChannels(tx: Executor, tenantId: string): Promise<ChannelRow[]> {
  return selectRows(tx, channels, tenantId, { orderBy: [asc(channels.createdAt), asc(channels.id)] });
}

export type StarterProvisionRow = typeof starterProvisions.$inferSelect;

/** Every starter definition ever provisioned in the shop, deleted ones included (tombstones). */
export function listStarterProvisions(tx: Executor, tenantId: string): Promise<StarterProvisionRow[]> {
  return selectRows(tx, starterProvisions, tenantId, { orderBy: [asc(starterProvisions.key)] });
}

export async function recordStarterProvision(
  tx: Executor,
  tenantId: string,
  key: string,
  definitionId: string,
): Promise<void> {
  await tx.insert(starterProvisions).values({ tenantId, key, definitionId });
}

/** A channel of the shop by id, or the main channel when no id is given. */
export function findChannelForStaff(
  tx: Executor,
  tenantId: string,
  channelId: string | undefined,
): Promise<ChannelRow | undefined> {
  return findRow(tx, channels, tenantId, [
    channelId ? eq(channels.id, channelId) : eq(channels.isMain, true),
  ]);
}

export function findChannelByAccessKey(
  tx: Executor,
  tenantId: string,
  accessKey: string,
): Promise<ChannelRow | undefined> {
  return findRow(tx, channels, tenantId, [eq(channels.accessKey, accessKey)]);
}

/** Which of `ids` are channels of the shop; `lock` holds them until the transaction ends. */
export async function findChannelIds(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
  lock?: 'share',
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await selectRows(tx, channels, tenantId, { where: [inArray(channels.id, [...ids])], lock });
  return rows.map((row) => row.id);
}

/** A channel of the shop by id; `update` locks it for a revision-bound write. */
export function findChannel(
  tx: Executor,
  tenantId: string,
  channelId: string,
  lock?: 'update',
): Promise<ChannelRow | undefined> {
  return findRow(tx, channels, tenantId, [eq(channels.id, channelId)], lock);
}

/**
 * Replaces a channel's data at its stored `revision` (the revision moves by one) and records the
 * basis revision it was saved against. Answers the new row, or undefined when the revision moved.
 */
export async function updateChannelAtRevision(
  tx: Executor,
  tenantId: string,
  channelId: string,
  revision: number,
  change: { readonly data: unknown; readonly baseRevision: number; readonly now: Date },
): Promise<ChannelRow | undefined> {
  const atRevision = [eq(channels.id, channelId), eq(channels.revision, revision)];
  const saved = { data: change.data, baseRevision: change.baseRevision };
  const [row] = await reviseRows(tx, channels, tenantId, atRevision, saved, change.now);
  return row;
}

export async function deleteChannel(tx: Executor, tenantId: string, channelId: string): Promise<void> {
  await deleteRows(tx, channels, tenantId, [eq(channels.id, channelId)]);
}

/**
 * What still uses a channel: customers who signed in through it, its open carts, its orders, and
 * products with a visibility entry for it.
 */
export async function countChannelUses(
  tx: Executor,
  tenantId: string,
  channelId: string,
): Promise<{ customers: number; carts: number; orders: number; productVisibilities: number }> {
  const [customers] = await tx
    .select({ n: countDistinct(storeContexts.customerId) })
    .from(storeContexts)
    .where(
      inTenant(
        storeContexts,
        tenantId,
        eq(storeContexts.channelId, channelId),
        isNotNull(storeContexts.customerId),
      ),
    );
  return {
    customers: Number(customers?.n ?? 0),
    carts: await countRows(tx, carts, tenantId, [eq(carts.channelId, channelId), eq(carts.status, 'open')]),
    orders: await countRows(tx, orders, tenantId, [eq(orders.channelId, channelId)]),
    productVisibilities: await countRows(tx, products, tenantId, [
      sql`(${products.visibilities} -> ${channelId}::text) is not null`,
    ]),
  };
}
