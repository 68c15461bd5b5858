import { asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import {
  type AddressJson,
  carts,
  customerAddresses,
  customerGroups,
  customerHistory,
  customers,
  orders,
  storeContexts,
} from '../schema.ts';
import { deleteRows, findRow, insertRow, inTenant, listPage, reviseRows, selectRows } from './tenant-rows.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerAddressRow = typeof customerAddresses.$inferSelect;
export type StoreContextRow = typeof storeContexts.$inferSelect;
export type CustomerHistoryRow = typeof customerHistory.$inferSelect;
export type CustomerGroupRow = typeof customerGroups.$inferSelect;
/** One of the two native customer groups. */
export type CustomerGroupName = CustomerGroupRow['group'];
/** What an edit of a customer may change (never the tenant, id, revision or timestamps). */
export type CustomerFields = Partial<
  Omit<typeof customers.$inferInsert, 'tenantId' | 'id' | 'revision' | 'createdAt' | 'updatedAt'>
>;

export function insertCustomer(tx: Executor, customer: typeof customers.$inferInsert): Promise<CustomerRow> {
  return insertRow(tx, customers, customer);
}

/** The customer; `lock` holds the row (`FOR UPDATE`) until the transaction ends. */
export function findCustomer(
  tx: Executor,
  tenantId: string,
  customerId: string,
  lock: 'update' | undefined = undefined,
): Promise<CustomerRow | undefined> {
  return findRow(tx, customers, tenantId, [eq(customers.id, customerId)], lock);
}

/** The shop's customers among `customerIds` (unknown ids are left out), in no particular order. */
export function findCustomersByIds(
  tx: Executor,
  tenantId: string,
  customerIds: readonly string[],
): Promise<CustomerRow[]> {
  if (customerIds.length === 0) return Promise.resolve([]);
  return selectRows(tx, customers, tenantId, { where: [inArray(customers.id, [...customerIds])] });
}

/** The registered (non-guest) customer with this email, compared case-insensitively. */
export function findRegisteredCustomerByEmail(
  tx: Executor,
  tenantId: string,
  email: string,
): Promise<CustomerRow | undefined> {
  return findRow(tx, customers, tenantId, [
    eq(customers.guest, false),
    sql`lower(${customers.email}) = lower(${email})`,
  ]);
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

export function listCustomers(tx: Executor, tenantId: string, query: CustomerQuery): Promise<CustomerRow[]> {
  const pattern = query.search ? likePattern(query.search) : undefined;
  return listPage(tx, customers, tenantId, { key: customers.id, direction: 'asc' }, query, [
    pattern
      ? sql`(${customers.email} ilike ${pattern} or (${customers.firstName} || ' ' || ${customers.lastName}) ilike ${pattern})`
      : undefined,
    query.group ? eq(customers.group, query.group) : undefined,
    query.active !== undefined ? eq(customers.active, query.active) : undefined,
    query.guest !== undefined ? eq(customers.guest, query.guest) : undefined,
    query.tag ? sql`${query.tag} = any(${customers.tags})` : undefined,
  ]);
}

/** Writes an edit and moves the revision on; the caller has checked the revision under a lock. */
export async function updateCustomer(
  tx: Executor,
  tenantId: string,
  customerId: string,
  fields: CustomerFields,
  at: Date,
): Promise<CustomerRow> {
  const [row] = await reviseRows(tx, customers, tenantId, [eq(customers.id, customerId)], fields, at);
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
    .where(inTenant(customers, tenantId, eq(customers.id, customerId)));
}

/** What the shop stores on a native customer group, or undefined while nothing is stored on it. */
export function findCustomerGroup(
  tx: Executor,
  tenantId: string,
  group: CustomerGroupName,
): Promise<CustomerGroupRow | undefined> {
  return findRow(tx, customerGroups, tenantId, [eq(customerGroups.group, group)]);
}

/** What the shop stores on its native customer groups: a row per group written to, by name. */
export function listCustomerGroups(tx: Executor, tenantId: string): Promise<CustomerGroupRow[]> {
  return selectRows(tx, customerGroups, tenantId, { orderBy: [asc(customerGroups.group)] });
}

/**
 * Writes a native group's custom fields: its first write creates the row at revision 1, later ones
 * move the revision on. The caller serialises the group's writers (`lockTransaction`) and has read
 * the row it changes. `lastStepKey` names the flow step writing, or null.
 */
export async function saveCustomerGroupFields(
  tx: Executor,
  tenantId: string,
  group: CustomerGroupName,
  fields: { readonly customFields: Record<string, unknown>; readonly lastStepKey: string | null },
  at: Date,
): Promise<CustomerGroupRow> {
  const [row] = await tx
    .insert(customerGroups)
    .values({ tenantId, group, ...fields, revision: 1, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [customerGroups.tenantId, customerGroups.group],
      set: { ...fields, revision: sql`${customerGroups.revision} + 1`, updatedAt: at },
    })
    .returning();
  return row!;
}

/** Deletes the customer with their addresses and history facts. */
export async function deleteCustomer(tx: Executor, tenantId: string, customerId: string): Promise<void> {
  await deleteRows(tx, customerAddresses, tenantId, [eq(customerAddresses.customerId, customerId)]);
  await deleteRows(tx, customerHistory, tenantId, [eq(customerHistory.customerId, customerId)]);
  await deleteRows(tx, customers, tenantId, [eq(customers.id, customerId)]);
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
    .where(inTenant(orders, tenantId, eq(orders.customerId, customerId)))
    .orderBy(asc(orders.number))
    .limit(limit);
}

export function listCustomerAddresses(
  tx: Executor,
  tenantId: string,
  customerId: string,
): Promise<CustomerAddressRow[]> {
  return selectRows(tx, customerAddresses, tenantId, {
    where: [eq(customerAddresses.customerId, customerId)],
    orderBy: [asc(customerAddresses.createdAt), asc(customerAddresses.id)],
  });
}

/** The address with this id in the shop, whichever customer it belongs to. */
export function findCustomerAddress(
  tx: Executor,
  tenantId: string,
  addressId: string,
): Promise<CustomerAddressRow | undefined> {
  return findRow(tx, customerAddresses, tenantId, [eq(customerAddresses.id, addressId)]);
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
    .where(inTenant(customerAddresses, tenantId, eq(customerAddresses.id, addressId)))
    .returning();
  return row!;
}

export async function deleteCustomerAddress(
  tx: Executor,
  tenantId: string,
  addressId: string,
): Promise<void> {
  await deleteRows(tx, customerAddresses, tenantId, [eq(customerAddresses.id, addressId)]);
}

export function insertStoreContext(
  tx: Executor,
  context: typeof storeContexts.$inferInsert,
): Promise<StoreContextRow> {
  return insertRow(tx, storeContexts, context);
}

/** The context with this token hash in this shop (revoked and expired ones included). */
export function findStoreContextByTokenHash(
  tx: Executor,
  tenantId: string,
  tokenHash: string,
): Promise<StoreContextRow | undefined> {
  return findRow(tx, storeContexts, tenantId, [eq(storeContexts.tokenHash, tokenHash)]);
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
      inTenant(storeContexts, tenantId, eq(storeContexts.id, contextId), isNull(storeContexts.revokedAt)),
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
      inTenant(
        storeContexts,
        tenantId,
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
    .where(inTenant(carts, tenantId, eq(carts.contextId, move.fromContextId), eq(carts.status, 'open')))
    .returning({ id: carts.id });
  return row?.id ?? null;
}

export function findCustomerHistory(
  tx: Executor,
  tenantId: string,
  customerId: string,
): Promise<CustomerHistoryRow | undefined> {
  return findRow(tx, customerHistory, tenantId, [eq(customerHistory.customerId, customerId)]);
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
