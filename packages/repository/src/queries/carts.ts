import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { carts } from '../schema.ts';
import { findRow, insertRow, inTenant, selectRows } from './tenant-rows.ts';

export type CartRow = typeof carts.$inferSelect;

/** The open cart of a visitor context, locked for the caller's transaction when `forUpdate`. */
export function findOpenCart(
  tx: Executor,
  tenantId: string,
  contextId: string,
  options: { forUpdate?: boolean } = {},
): Promise<CartRow | undefined> {
  const open = [eq(carts.contextId, contextId), eq(carts.status, 'open')];
  return findRow(tx, carts, tenantId, open, options.forUpdate ? 'update' : undefined);
}

/**
 * A page of the shop's open carts, most recently changed first (by `updated_at`, then id);
 * `before` is the last cart of the previous page.
 */
export function listOpenCarts(
  tx: Executor,
  tenantId: string,
  page: { readonly limit: number; readonly before?: { readonly updatedAt: Date; readonly id: string } },
): Promise<CartRow[]> {
  const before = page.before;
  return selectRows(tx, carts, tenantId, {
    where: [
      eq(carts.status, 'open'),
      before
        ? sql`(${carts.updatedAt}, ${carts.id}) < (${before.updatedAt.toISOString()}::timestamptz, ${before.id}::uuid)`
        : undefined,
    ],
    orderBy: [desc(carts.updatedAt), desc(carts.id)],
    limit: page.limit,
  });
}

export function insertCart(tx: Executor, cart: typeof carts.$inferInsert): Promise<CartRow> {
  return insertRow(tx, carts, cart);
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
    .where(inTenant(carts, tenantId, eq(carts.id, cartId)))
    .returning();
  return row!;
}
