import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { memberships, tenants, users } from '../schema.ts';
import { countRows, deleteRows, findRow, insertRow } from './tenant-rows.ts';

export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type Role = MembershipRow['role'];

export function insertTenant(tx: Executor, tenant: typeof tenants.$inferInsert): Promise<TenantRow> {
  return insertRow(tx, tenants, tenant);
}

export async function findTenant(tx: Executor, tenantId: string): Promise<TenantRow | undefined> {
  const [row] = await tx.select().from(tenants).where(eq(tenants.id, tenantId));
  return row;
}

export async function countTenants(tx: Executor): Promise<number> {
  const [row] = await tx.select({ count: sql<number>`count(*)::int` }).from(tenants);
  return row?.count ?? 0;
}

/** Every shop id, oldest first (for the starter backfill). */
export async function listTenantIds(tx: Executor): Promise<string[]> {
  const rows = await tx.select({ id: tenants.id }).from(tenants).orderBy(tenants.createdAt, tenants.id);
  return rows.map((row) => row.id);
}

export async function findUserByEmail(tx: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function findUser(tx: Executor, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId));
  return row;
}

export function insertUser(tx: Executor, user: typeof users.$inferInsert): Promise<UserRow> {
  return insertRow(tx, users, user);
}

export async function upsertMembership(
  tx: Executor,
  membership: typeof memberships.$inferInsert,
): Promise<MembershipRow> {
  const [row] = await tx
    .insert(memberships)
    .values(membership)
    .onConflictDoUpdate({
      target: [memberships.tenantId, memberships.userId],
      set: { role: membership.role, permissions: membership.permissions ?? null },
    })
    .returning();
  return row!;
}

export function findMembership(
  tx: Executor,
  tenantId: string,
  userId: string,
): Promise<MembershipRow | undefined> {
  return findRow(tx, memberships, tenantId, [eq(memberships.userId, userId)]);
}

export interface MemberRow extends MembershipRow {
  readonly email: string;
  readonly name: string | null;
}

export async function listMembers(tx: Executor, tenantId: string): Promise<MemberRow[]> {
  const rows = await tx
    .select({ membership: memberships, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.tenantId, tenantId))
    .orderBy(memberships.createdAt, memberships.userId);
  return rows.map((row) => ({ ...row.membership, email: row.email, name: row.name }));
}

export async function deleteMembership(tx: Executor, tenantId: string, userId: string): Promise<boolean> {
  return (await deleteRows(tx, memberships, tenantId, [eq(memberships.userId, userId)])) > 0;
}

export function countOwners(tx: Executor, tenantId: string): Promise<number> {
  return countRows(tx, memberships, tenantId, [eq(memberships.role, 'owner')]);
}
