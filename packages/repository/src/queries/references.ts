import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { channels, definitions, products } from '../schema.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Reference {
  readonly kind: 'rule' | 'flow' | 'promotion' | 'channel' | 'product';
  readonly id: string;
  readonly key?: string | null;
}

/**
 * Everything in the shop that names `id`: definitions and channels whose JSON holds the id as a
 * value anywhere (any exact id in rule or flow JSON counts) and products that use it as their tax
 * class.
 */
export async function findReferences(tx: Executor, tenantId: string, id: string): Promise<Reference[]> {
  const quoted = JSON.stringify(id);
  const fromDefinitions = await tx
    .select({ kind: definitions.kind, id: definitions.id, key: definitions.key })
    .from(definitions)
    .where(and(eq(definitions.tenantId, tenantId), sql`strpos(${definitions.data}::text, ${quoted}) > 0`));
  const fromChannels = await tx
    .select({ id: channels.id, key: channels.key })
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), sql`strpos(${channels.data}::text, ${quoted}) > 0`));
  const named = [...fromDefinitions, ...fromChannels.map((row) => ({ kind: 'channel' as const, ...row }))];
  if (!UUID.test(id)) return named;
  const fromProducts = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.tenantId, tenantId), eq(products.taxClassId, id)))
    .limit(100);
  return [...named, ...fromProducts.map((row) => ({ kind: 'product' as const, id: row.id }))];
}
