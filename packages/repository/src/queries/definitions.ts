import { and, asc, countDistinct, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { carts, channels, definitions, orders, starterProvisions, storeContexts } from '../schema.ts';

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
  const query = tx
    .select()
    .from(definitions)
    .where(
      and(eq(definitions.tenantId, tenantId), eq(definitions.kind, kind), inArray(definitions.id, [...ids])),
    )
    .orderBy(asc(definitions.id));
  return lock ? query.for(lock) : query;
}

export async function insertDefinition(
  tx: Executor,
  definition: typeof definitions.$inferInsert,
): Promise<DefinitionRow> {
  const [row] = await tx.insert(definitions).values(definition).returning();
  return row!;
}

export async function listDefinitions(
  tx: Executor,
  tenantId: string,
  kind?: DefinitionKind,
): Promise<DefinitionRow[]> {
  const conditions = [eq(definitions.tenantId, tenantId)];
  if (kind) conditions.push(eq(definitions.kind, kind));
  return tx
    .select()
    .from(definitions)
    .where(and(...conditions))
    .orderBy(asc(definitions.kind), asc(definitions.createdAt), asc(definitions.id));
}

export async function findDefinitionByKey(
  tx: Executor,
  tenantId: string,
  kind: DefinitionKind,
  key: string,
): Promise<DefinitionRow | undefined> {
  const [row] = await tx
    .select()
    .from(definitions)
    .where(and(eq(definitions.tenantId, tenantId), eq(definitions.kind, kind), eq(definitions.key, key)));
  return row;
}

/** The shop's main channel, or the channel with this key, whichever exists. */
export async function findMainOrKeyedChannel(
  tx: Executor,
  tenantId: string,
  key: string,
): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), or(eq(channels.isMain, true), eq(channels.key, key))))
    .orderBy(desc(channels.isMain))
    .limit(1);
  return row;
}

export async function insertChannel(
  tx: Executor,
  channel: typeof channels.$inferInsert,
): Promise<ChannelRow> {
  const [row] = await tx.insert(channels).values(channel).returning();
  return row!;
}

export async function listChannels(tx: Executor, tenantId: string): Promise<ChannelRow[]> {
  return tx
    .select()
    .from(channels)
    .where(eq(channels.tenantId, tenantId))
    .orderBy(asc(channels.createdAt), asc(channels.id));
}

export type StarterProvisionRow = typeof starterProvisions.$inferSelect;

/** Every starter definition ever provisioned in the shop, deleted ones included (tombstones). */
export async function listStarterProvisions(tx: Executor, tenantId: string): Promise<StarterProvisionRow[]> {
  return tx
    .select()
    .from(starterProvisions)
    .where(eq(starterProvisions.tenantId, tenantId))
    .orderBy(asc(starterProvisions.key));
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
export async function findChannelForStaff(
  tx: Executor,
  tenantId: string,
  channelId: string | undefined,
): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .select()
    .from(channels)
    .where(
      and(
        eq(channels.tenantId, tenantId),
        channelId ? eq(channels.id, channelId) : eq(channels.isMain, true),
      ),
    );
  return row;
}

export async function findChannelByAccessKey(
  tx: Executor,
  tenantId: string,
  accessKey: string,
): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.accessKey, accessKey)));
  return row;
}

/** A channel of the shop by id; `update` locks it for a revision-bound write. */
export async function findChannel(
  tx: Executor,
  tenantId: string,
  channelId: string,
  lock?: 'update',
): Promise<ChannelRow | undefined> {
  const query = tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.id, channelId)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
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
  const [row] = await tx
    .update(channels)
    .set({
      data: change.data,
      baseRevision: change.baseRevision,
      revision: sql`${channels.revision} + 1`,
      updatedAt: change.now,
    })
    .where(and(eq(channels.tenantId, tenantId), eq(channels.id, channelId), eq(channels.revision, revision)))
    .returning();
  return row;
}

export async function deleteChannel(tx: Executor, tenantId: string, channelId: string): Promise<void> {
  await tx.delete(channels).where(and(eq(channels.tenantId, tenantId), eq(channels.id, channelId)));
}

/** What still uses a channel: customers who signed in through it, its open carts, its orders. */
export async function countChannelUses(
  tx: Executor,
  tenantId: string,
  channelId: string,
): Promise<{ customers: number; carts: number; orders: number }> {
  const [customers] = await tx
    .select({ n: countDistinct(storeContexts.customerId) })
    .from(storeContexts)
    .where(
      and(
        eq(storeContexts.tenantId, tenantId),
        eq(storeContexts.channelId, channelId),
        isNotNull(storeContexts.customerId),
      ),
    );
  const [open] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(carts)
    .where(and(eq(carts.tenantId, tenantId), eq(carts.channelId, channelId), eq(carts.status, 'open')));
  const [placed] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.channelId, channelId)));
  return {
    customers: Number(customers?.n ?? 0),
    carts: Number(open?.n ?? 0),
    orders: Number(placed?.n ?? 0),
  };
}
