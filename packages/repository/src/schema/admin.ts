import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tenantKey, tenantKeyed } from '../columns.ts';

// The admin UI's sign-in (decision 0047). A session belongs to a person (`users` is global), so
// `admin_sessions` is global like `users`; what it may do in each shop is a staff token of that
// shop (`admin_session_shops`, tenant-keyed), checked again on every request.

/**
 * A signed-in browser. The cookie holds a random secret; only its SHA-256 is stored, so a copy
 * of this table signs nobody in. `current_tenant_id` is the shop the pages act in.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: uuid('id').primaryKey(),
    secretHash: text('secret_hash').notNull(),
    userId: uuid('user_id').notNull(),
    /** How the person proved who they are: a personal token, or their e-mail and password. */
    method: text('method', { enum: ['token', 'password'] }).notNull(),
    currentTenantId: uuid('current_tenant_id').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('admin_sessions_secret_key').on(t.secretHash),
    index('admin_sessions_user_idx').on(t.userId),
  ],
);

/** The shops a session may act in, each through one personal token of the session's person. */
export const adminSessionShops = pgTable(
  'admin_session_shops',
  {
    ...tenantKeyed(),
    sessionId: uuid('session_id').notNull(),
    tokenId: uuid('token_id').notNull(),
    createdAt: createdAt(),
  },
  // Not led by tenant_id on purpose: a session's shops, like a person's memberships.
  (t) => [tenantKey(t, t.sessionId), index('admin_session_shops_session_idx').on(t.sessionId)],
);

/** A member's admin password (scrypt, the format of customer passwords); one per person. */
export const userPasswords = pgTable('user_passwords', {
  userId: uuid('user_id').primaryKey(),
  passwordHash: text('password_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
