import { and, eq, lte } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { adminSessionShops, adminSessions, memberships, tenants, userPasswords } from '../schema.ts';
import { deleteRows, findRow, insertRow } from './tenant-rows.ts';

// The admin UI's sessions (decision 0047). `admin_sessions` and `user_passwords` are global like
// `users`; `admin_session_shops` is tenant-keyed and every statement on it names its shop.

export type AdminSessionRow = typeof adminSessions.$inferSelect;
export type AdminSessionShopRow = typeof adminSessionShops.$inferSelect;

export function insertAdminSession(
  tx: Executor,
  session: typeof adminSessions.$inferInsert,
): Promise<AdminSessionRow> {
  return insertRow(tx, adminSessions, session);
}

/** The session whose secret has this hash (expired ones included: the caller judges). */
export async function findAdminSession(
  tx: Executor,
  secretHash: string,
): Promise<AdminSessionRow | undefined> {
  const [row] = await tx.select().from(adminSessions).where(eq(adminSessions.secretHash, secretHash));
  return row;
}

export async function setAdminSessionShop(tx: Executor, sessionId: string, tenantId: string): Promise<void> {
  await tx.update(adminSessions).set({ currentTenantId: tenantId }).where(eq(adminSessions.id, sessionId));
}

/** Gives a session a new secret (each sign-in rotates it, so a cookie known before sign-in opens nothing after). */
export async function rotateAdminSessionSecret(
  tx: Executor,
  sessionId: string,
  secretHash: string,
): Promise<void> {
  await tx.update(adminSessions).set({ secretHash }).where(eq(adminSessions.id, sessionId));
}

/** Deletes a session row; its shops are deleted shop by shop by the caller (`deleteAdminSessionShop`). */
export async function deleteAdminSession(tx: Executor, sessionId: string): Promise<boolean> {
  const rows = await tx
    .delete(adminSessions)
    .where(eq(adminSessions.id, sessionId))
    .returning({ id: adminSessions.id });
  return rows.length > 0;
}

/** A person's sessions that have expired by `now` (the sign-in sweeps them). */
export function listExpiredAdminSessions(
  tx: Executor,
  userId: string,
  now: Date,
): Promise<AdminSessionRow[]> {
  return tx
    .select()
    .from(adminSessions)
    .where(and(eq(adminSessions.userId, userId), lte(adminSessions.expiresAt, now)));
}

/** Gives the session (another) shop through `tokenId`; signing in again replaces the token. */
export async function upsertAdminSessionShop(
  tx: Executor,
  row: typeof adminSessionShops.$inferInsert,
): Promise<AdminSessionShopRow> {
  const [stored] = await tx
    .insert(adminSessionShops)
    .values(row)
    .onConflictDoUpdate({
      target: [adminSessionShops.tenantId, adminSessionShops.sessionId],
      set: { tokenId: row.tokenId },
    })
    .returning();
  return stored!;
}

export function findAdminSessionShop(
  tx: Executor,
  tenantId: string,
  sessionId: string,
): Promise<AdminSessionShopRow | undefined> {
  return findRow(tx, adminSessionShops, tenantId, [eq(adminSessionShops.sessionId, sessionId)]);
}

export async function deleteAdminSessionShop(
  tx: Executor,
  tenantId: string,
  sessionId: string,
): Promise<void> {
  await deleteRows(tx, adminSessionShops, tenantId, [eq(adminSessionShops.sessionId, sessionId)]);
}

/**
 * The shops a session holds, each with its name (the shop switcher). Reads the session's own rows
 * by its id (the index not led by tenant_id) and the global `tenants`: no shop's data joins another's.
 */
export function listAdminSessionShops(
  tx: Executor,
  sessionId: string,
): Promise<{ tenantId: string; tokenId: string; name: string }[]> {
  return tx
    .select({ tenantId: adminSessionShops.tenantId, tokenId: adminSessionShops.tokenId, name: tenants.name })
    .from(adminSessionShops)
    .innerJoin(tenants, eq(tenants.id, adminSessionShops.tenantId))
    .where(eq(adminSessionShops.sessionId, sessionId))
    .orderBy(tenants.name, tenants.id);
}

/** The shops a person is a member of, with their names (a password sign-in may switch to each). */
export function listUserShops(tx: Executor, userId: string): Promise<{ tenantId: string; name: string }[]> {
  return tx
    .select({ tenantId: memberships.tenantId, name: tenants.name })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.userId, userId))
    .orderBy(tenants.name, tenants.id);
}

export async function findUserPassword(tx: Executor, userId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ hash: userPasswords.passwordHash })
    .from(userPasswords)
    .where(eq(userPasswords.userId, userId));
  return row?.hash;
}

export async function setUserPassword(tx: Executor, userId: string, passwordHash: string, at: Date) {
  await tx
    .insert(userPasswords)
    .values({ userId, passwordHash, updatedAt: at })
    .onConflictDoUpdate({ target: userPasswords.userId, set: { passwordHash, updatedAt: at } });
}
