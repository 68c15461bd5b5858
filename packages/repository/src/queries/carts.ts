import { and, eq } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { carts } from '../schema.ts';

export type CartRow = typeof carts.$inferSelect;

/** The open cart of a visitor context, locked for the caller's transaction when `forUpdate`. */
export async function findOpenCart(
  tx: Executor,
  tenantId: string,
  contextId: string,
  options: { forUpdate?: boolean } = {},
): Promise<CartRow | undefined> {
  const query = tx
    .select()
    .from(carts)
    .where(and(eq(carts.tenantId, tenantId), eq(carts.contextId, contextId), eq(carts.status, 'open')));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertCart(tx: Executor, cart: typeof carts.$inferInsert): Promise<CartRow> {
  const [row] = await tx.insert(carts).values(cart).returning();
  return row!;
}

export async function updateCart(
  tx: Executor,
  tenantId: string,
  cartId: string,
  changes: Partial<Omit<typeof carts.$inferInsert, 'tenantId' | 'id'>>,
): Promise<CartRow> {
  const [row] = await tx
    .update(carts)
    .set(changes)
    .where(and(eq(carts.tenantId, tenantId), eq(carts.id, cartId)))
    .returning();
  return row!;
}
