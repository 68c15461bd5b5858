import { and, asc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import {
  type AddressJson,
  carts,
  customerAddresses,
  customerHistory,
  customers,
  orders,
  storeContexts,
} from '../schema.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerAddressRow = typeof customerAddresses.$inferSelect;
export type StoreContextRow = typeof storeContexts.$inferSelect;
export type CustomerHistoryRow = typeof customerHistory.$inferSelect;
/** What an edit of a customer may change (never the tenant, id, revision or timestamps). */
export type CustomerFields = Partial<
  Omit<typeof customers.$inferInsert, 'tenantId' | 'id' | 'revision' | 'createdAt' | 'updatedAt'>
>;

export async function insertCustomer(
  tx: Executor,
  customer: typeof customers.$inferInsert,
): Promise<CustomerRow> {
  const [row] = await tx.insert(customers).values(customer).returning();
  return row!;
}

/** The customer; `lock` holds the row (`FOR UPDATE`) until the transaction ends. */
export async function findCustomer(
  tx: Executor,
  tenantId: string,
  customerId: string,
  lock: 'update' | undefined = undefined,
): Promise<CustomerRow | undefined> {
  const query = tx
    .select()
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, customerId)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** The registered (non-guest) customer with this email, compared case-insensitively. */
export async function findRegisteredCustomerByEmail(
  tx: Executor,
  tenantId: string,
  email: string,
): Promise<CustomerRow | undefined> {
  const [row] = await tx
    .select()
    .from(customers)
    .where(
      and(
        eq(customers.tenantId, tenantId),
        eq(customers.guest, false),
        sql`lower(${customers.email}) = lower(${email})`,
      ),
    );
  return row;
}

export interface CustomerQuery {
  readonly limit: number;
  /** Id of the last customer of the previous page (customers are listed by id, UUIDv7). */
  readonly after?: string | undefined;
  /** Part of the email or the name, case-insensitive. */
  readonly search?: string | undefined;
  readonly group?: 'consumer' | 'business' | undefined;
  readonly active?: boolean | undefined;
  readonly guest?: boolean | undefined;
  readonly tag?: string | undefined;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export async function listCustomers(
  tx: Executor,
  tenantId: string,
  query: CustomerQuery,
): Promise<CustomerRow[]> {
  const conditions: SQL[] = [eq(customers.tenantId, tenantId)];
  if (query.after) conditions.push(gt(customers.id, query.after));
  if (query.search) {
    const pattern = likePattern(query.search);
    conditions.push(
      sql`(${customers.email} ilike ${pattern} or (${customers.firstName} || ' ' || ${customers.lastName}) ilike ${pattern})`,
    );
  }
  if (query.group) conditions.push(eq(customers.group, query.group));
  if (query.active !== undefined) conditions.push(eq(customers.active, query.active));
  if (query.guest !== undefined) conditions.push(eq(customers.guest, query.guest));
  if (query.tag) conditions.push(sql`${query.tag} = any(${customers.tags})`);
  return tx
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(asc(customers.id))
    .limit(query.limit);
}

/** Writes an edit and moves the revision on; the caller has checked the revision under a lock. */
export async function updateCustomer(
  tx: Executor,
  tenantId: string,
  customerId: string,
  fields: CustomerFields,
  at: Date,
): Promise<CustomerRow> {
  const [row] = await tx
    .update(customers)
    .set({ ...fields, revision: sql`${customers.revision} + 1`, updatedAt: at })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, customerId)))
    .returning();
  return row!;
}

/** Records a login without moving the revision: logging in is not an edit of the record. */
export async function recordCustomerLogin(
  tx: Executor,
  tenantId: string,
  customerId: string,
  at: Date,
): Promise<void> {
  await tx
    .update(customers)
    .set({
      lastLoginAt: at,
      firstLoginAt: sql`coalesce(${customers.firstLoginAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, customerId)));
}

/** Deletes the customer with their addresses and history facts. */
export async function deleteCustomer(tx: Executor, tenantId: string, customerId: string): Promise<void> {
  await tx
    .delete(customerAddresses)
    .where(and(eq(customerAddresses.tenantId, tenantId), eq(customerAddresses.customerId, customerId)));
  await tx
    .delete(customerHistory)
    .where(and(eq(customerHistory.tenantId, tenantId), eq(customerHistory.customerId, customerId)));
  await tx.delete(customers).where(and(eq(customers.tenantId, tenantId), eq(customers.id, customerId)));
}

/** Up to `limit` orders placed by the customer (what keeps the customer from being deleted). */
export async function listCustomerOrderNumbers(
  tx: Executor,
  tenantId: string,
  customerId: string,
  limit: number,
): Promise<{ id: string; number: number }[]> {
  return tx
    .select({ id: orders.id, number: orders.number })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.customerId, customerId)))
    .orderBy(asc(orders.number))
    .limit(limit);
}

export async function listCustomerAddresses(
  tx: Executor,
  tenantId: string,
  customerId: string,
): Promise<CustomerAddressRow[]> {
  return tx
    .select()
    .from(customerAddresses)
    .where(and(eq(customerAddresses.tenantId, tenantId), eq(customerAddresses.customerId, customerId)))
    .orderBy(asc(customerAddresses.createdAt), asc(customerAddresses.id));
}

/** The address with this id in the shop, whichever customer it belongs to. */
export async function findCustomerAddress(
  tx: Executor,
  tenantId: string,
  addressId: string,
): Promise<CustomerAddressRow | undefined> {
  const [row] = await tx
    .select()
    .from(customerAddresses)
    .where(and(eq(customerAddresses.tenantId, tenantId), eq(customerAddresses.id, addressId)));
  return row;
}

export async function insertCustomerAddresses(
  tx: Executor,
  rows: readonly (typeof customerAddresses.$inferInsert)[],
): Promise<CustomerAddressRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(customerAddresses)
    .values([...rows])
    .returning();
}

export async function replaceCustomerAddress(
  tx: Executor,
  tenantId: string,
  addressId: string,
  address: AddressJson,
  at: Date,
): Promise<CustomerAddressRow> {
  const [row] = await tx
    .update(customerAddresses)
    .set({ address, updatedAt: at })
    .where(and(eq(customerAddresses.tenantId, tenantId), eq(customerAddresses.id, addressId)))
    .returning();
  return row!;
}

export async function deleteCustomerAddress(
  tx: Executor,
  tenantId: string,
  addressId: string,
): Promise<void> {
  await tx
    .delete(customerAddresses)
    .where(and(eq(customerAddresses.tenantId, tenantId), eq(customerAddresses.id, addressId)));
}

export async function insertStoreContext(
  tx: Executor,
  context: typeof storeContexts.$inferInsert,
): Promise<StoreContextRow> {
  const [row] = await tx.insert(storeContexts).values(context).returning();
  return row!;
}

/** The context with this token hash in this shop (revoked and expired ones included). */
export async function findStoreContextByTokenHash(
  tx: Executor,
  tenantId: string,
  tokenHash: string,
): Promise<StoreContextRow | undefined> {
  const [row] = await tx
    .select()
    .from(storeContexts)
    .where(and(eq(storeContexts.tenantId, tenantId), eq(storeContexts.tokenHash, tokenHash)));
  return row;
}

export async function revokeStoreContext(
  tx: Executor,
  tenantId: string,
  contextId: string,
  at: Date,
): Promise<void> {
  await tx
    .update(storeContexts)
    .set({ revokedAt: at, updatedAt: at })
    .where(
      and(
        eq(storeContexts.tenantId, tenantId),
        eq(storeContexts.id, contextId),
        isNull(storeContexts.revokedAt),
      ),
    );
}

/** Revokes every live context of the customer; answers how many it revoked. */
export async function revokeStoreContextsOfCustomer(
  tx: Executor,
  tenantId: string,
  customerId: string,
  at: Date,
): Promise<number> {
  const rows = await tx
    .update(storeContexts)
    .set({ revokedAt: at, updatedAt: at })
    .where(
      and(
        eq(storeContexts.tenantId, tenantId),
        eq(storeContexts.customerId, customerId),
        isNull(storeContexts.revokedAt),
      ),
    )
    .returning({ id: storeContexts.id });
  return rows.length;
}

/**
 * Moves the open cart of one context to another and gives it to the customer; answers the cart id
 * (or null when the context had no open cart).
 */
export async function moveOpenCart(
  tx: Executor,
  tenantId: string,
  move: {
    readonly fromContextId: string;
    readonly toContextId: string;
    readonly customerId: string;
    readonly at: Date;
  },
): Promise<string | null> {
  const [row] = await tx
    .update(carts)
    .set({
      contextId: move.toContextId,
      customerId: move.customerId,
      revision: sql`${carts.revision} + 1`,
      updatedAt: move.at,
    })
    .where(
      and(eq(carts.tenantId, tenantId), eq(carts.contextId, move.fromContextId), eq(carts.status, 'open')),
    )
    .returning({ id: carts.id });
  return row?.id ?? null;
}

export async function findCustomerHistory(
  tx: Executor,
  tenantId: string,
  customerId: string,
): Promise<CustomerHistoryRow | undefined> {
  const [row] = await tx
    .select()
    .from(customerHistory)
    .where(and(eq(customerHistory.tenantId, tenantId), eq(customerHistory.customerId, customerId)));
  return row;
}

/** Counts a placed order into the customer's history: one more order, its total, its time. */
export async function addOrderToCustomerHistory(
  tx: Executor,
  tenantId: string,
  order: {
    readonly customerId: string;
    readonly currency: string;
    readonly totalGross: number;
    readonly placedAt: Date;
  },
): Promise<void> {
  await tx
    .insert(customerHistory)
    .values({
      tenantId,
      customerId: order.customerId,
      orderCount: 1,
      totalSpent: { [order.currency]: order.totalGross },
      lastOrderAt: order.placedAt,
    })
    .onConflictDoUpdate({
      target: [customerHistory.tenantId, customerHistory.customerId],
      set: {
        orderCount: sql`${customerHistory.orderCount} + 1`,
        totalSpent: sql`${customerHistory.totalSpent} || jsonb_build_object(${order.currency}::text,
          coalesce((${customerHistory.totalSpent} ->> ${order.currency}::text)::bigint, 0) + ${order.totalGross}::bigint)`,
        // greatest() skips nulls, so the first order sets it and an older replayed one never wins.
        lastOrderAt: sql`greatest(${customerHistory.lastOrderAt}, excluded.last_order_at)`,
      },
    });
}

/** Counts an approved review into the customer's history. */
export async function addReviewToCustomerHistory(
  tx: Executor,
  tenantId: string,
  customerId: string,
): Promise<void> {
  await tx
    .insert(customerHistory)
    .values({ tenantId, customerId, reviewCount: 1 })
    .onConflictDoUpdate({
      target: [customerHistory.tenantId, customerHistory.customerId],
      set: { reviewCount: sql`${customerHistory.reviewCount} + 1` },
    });
}

export type { AddressJson };
