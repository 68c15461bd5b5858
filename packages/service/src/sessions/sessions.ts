import { randomBytes } from 'node:crypto';
import {
  type AdminSessionRow,
  deleteAdminSession,
  deleteAdminSessionShop,
  type Executor,
  findAdminSession,
  findAdminSessionShop,
  findMembership,
  findUserByEmail,
  findUserPassword,
  insertAdminSession,
  listAdminSessionShops,
  listExpiredAdminSessions,
  listUserShops,
  rotateAdminSessionSecret,
  setAdminSessionShop,
  setUserPassword,
  upsertAdminSessionShop,
} from '@cartwright/repository';
import { createToken, revokeTokenOf } from '../access/tokens.ts';
import { hashPassword, verifyPassword } from '../customers/passwords.ts';
import { authenticate, authenticateTokenId, hashToken, type Principal } from '../kernel/auth.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import type { Actor } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';

// Admin UI sessions (decision 0047). A session is a person signed in in one browser: the cookie
// holds a random secret (only its SHA-256 is stored), and every shop the session may act in is one
// personal token of that person in that shop. Each request resolves the current shop's token with
// the same checks as a bearer token, so revoking the token or removing the member ends the
// session's access to that shop at once, and the pages act with exactly the API's rights.

/** How long a session lasts from sign-in (absolute; sign in again after). */
export const ADMIN_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Shortest admin password a member may set. */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;

const SIGN_IN_ACTOR: Actor = { kind: 'system', process: 'admin-sign-in' };

/** Failed password sign-ins an e-mail address may have per window before further tries are refused. */
export const PASSWORD_FAILURES_ALLOWED = 10;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** Addresses remembered at most (the oldest is forgotten first), so the counter's memory is bounded. */
const FAILURES_TRACKED = 10_000;

/**
 * Failed password sign-ins per e-mail address, per process (every address alike, known or not, so
 * the refusal tells nothing about accounts). A process restart forgets them; several HTTP replicas
 * each allow their own count.
 */
const failures = new WeakMap<Services, Map<string, { count: number; since: number }>>();

function failuresOf(services: Services): Map<string, { count: number; since: number }> {
  let map = failures.get(services);
  if (!map) {
    map = new Map();
    failures.set(services, map);
  }
  return map;
}

function throttled(services: Services, email: string): boolean {
  const entry = failuresOf(services).get(email);
  const now = services.clock.now().getTime();
  return (
    entry !== undefined && now - entry.since < FAILURE_WINDOW_MS && entry.count >= PASSWORD_FAILURES_ALLOWED
  );
}

function recordFailure(services: Services, email: string): void {
  const map = failuresOf(services);
  const now = services.clock.now().getTime();
  const entry = map.get(email);
  map.delete(email);
  map.set(
    email,
    entry && now - entry.since < FAILURE_WINDOW_MS
      ? { count: entry.count + 1, since: entry.since }
      : { count: 1, since: now },
  );
  if (map.size > FAILURES_TRACKED) map.delete(map.keys().next().value!);
}

export interface AdminSession {
  readonly id: string;
  readonly userId: string;
  readonly method: 'token' | 'password';
  readonly expiresAt: Date;
  /** The principal of the current shop: what every page acts with. */
  readonly principal: Principal;
  /** The shops the switcher offers (a password session: every membership; a token session: its tokens' shops). */
  readonly shops: readonly { readonly tenantId: string; readonly name: string }[];
}

/** A new session's secret (the cookie's value) and the session it opens. */
export interface SignedIn {
  readonly secret: string;
  readonly session: AdminSession;
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The session of a cookie's secret, with the principal of its current shop; UNAUTHENTICATED otherwise. */
export async function openAdminSession(
  services: Services,
  secret: string | undefined,
): Promise<Result<AdminSession>> {
  const denied = fail('UNAUTHENTICATED', 'Sign in to continue.');
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return denied;
  const db = services.database.db;
  const row = await findAdminSession(db, hashToken(secret));
  if (!row || row.expiresAt <= services.clock.now()) return denied;
  const shop = await findAdminSessionShop(db, row.currentTenantId, row.id);
  if (!shop) return denied;
  const principal = await authenticateTokenId(services, row.currentTenantId, shop.tokenId);
  if (!principal.ok || principal.value.userId !== row.userId) return denied;
  return ok(await sessionOf(db, row, principal.value));
}

async function sessionOf(db: Executor, row: AdminSessionRow, principal: Principal): Promise<AdminSession> {
  const shops =
    row.method === 'password' ? await listUserShops(db, row.userId) : await listAdminSessionShops(db, row.id);
  return {
    id: row.id,
    userId: row.userId,
    method: row.method,
    expiresAt: row.expiresAt,
    principal,
    shops: shops.map(({ tenantId, name }) => ({ tenantId, name })),
  };
}

/** Ends a session: its rows go, and the tokens a password sign-in made for it are revoked. */
async function endSession(tx: Executor, services: Services, row: AdminSessionRow): Promise<void> {
  for (const shop of await listAdminSessionShops(tx, row.id)) {
    if (row.method === 'password') {
      await revokeTokenOf(tx, services, shop.tenantId, SIGN_IN_ACTOR, shop.tokenId);
    }
    await deleteAdminSessionShop(tx, shop.tenantId, row.id);
  }
  await deleteAdminSession(tx, row.id);
}

/**
 * Signs in with a personal token. With the cookie of a live session of the same person, the
 * token's shop joins that session (the switcher then offers it) under a new secret; otherwise a
 * new session starts (a session of another person in this browser ends).
 */
export async function signInWithToken(
  services: Services,
  token: string,
  currentSecret: string | undefined,
): Promise<Result<SignedIn>> {
  const authenticated = await authenticate(services, token.trim());
  if (!authenticated.ok) return fail('UNAUTHENTICATED', 'This token does not sign anybody in.');
  const principal = authenticated.value;
  if (principal.tokenKind !== 'personal' || !principal.userId) {
    return fail('UNAUTHENTICATED', 'Sign in with a personal token: an API token belongs to no person.');
  }
  const userId = principal.userId;
  const now = services.clock.now();
  return services.database.transaction(async (tx) => {
    const current = currentSecret ? await findAdminSession(tx, hashToken(currentSecret)) : undefined;
    const joins = current && current.userId === userId && current.expiresAt > now;
    if (current && !joins) await endSession(tx, services, current);
    await sweepExpired(tx, services, userId, now);
    // A new secret on every sign-in, also when the shop joins the live session.
    const secret = newSecret();
    if (joins) await rotateAdminSessionSecret(tx, current!.id, hashToken(secret));
    const row = joins
      ? current!
      : await insertAdminSession(tx, {
          id: services.ids.next(),
          secretHash: hashToken(secret),
          userId,
          method: 'token',
          currentTenantId: principal.tenantId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + ADMIN_SESSION_TTL_MS),
        });
    await upsertAdminSessionShop(tx, {
      tenantId: principal.tenantId,
      sessionId: row.id,
      tokenId: principal.tokenId,
      createdAt: now,
    });
    await setAdminSessionShop(tx, row.id, principal.tenantId);
    return ok({
      secret,
      session: await sessionOf(tx, { ...row, currentTenantId: principal.tenantId }, principal),
    });
  });
}

async function sweepExpired(tx: Executor, services: Services, userId: string, now: Date): Promise<void> {
  for (const expired of await listExpiredAdminSessions(tx, userId, now))
    await endSession(tx, services, expired);
}

/**
 * A personal token for a password session in one shop: it lives as long as the session, and
 * signing out revokes it.
 */
async function sessionToken(
  tx: Executor,
  services: Services,
  tenantId: string,
  userId: string,
  expiresAt: Date,
): Promise<Result<string>> {
  const created = await createToken(tx, services, tenantId, SIGN_IN_ACTOR, {
    name: 'Admin sign-in',
    kind: 'personal',
    userId,
    expiresAt,
  });
  return created.ok ? ok(created.value.details.id) : created;
}

/**
 * Signs in with e-mail and password. Every failure answers the same UNAUTHENTICATED after one
 * scrypt run (an unknown e-mail costs what a wrong password costs); after
 * PASSWORD_FAILURES_ALLOWED failures in 15 minutes an address is refused without a try. The
 * session starts in the person's first shop by name.
 */
export async function signInWithPassword(
  services: Services,
  email: string,
  password: string,
  currentSecret: string | undefined,
): Promise<Result<SignedIn>> {
  const denied = fail('UNAUTHENTICATED', 'The e-mail address or the password is wrong.');
  const address = email.trim().toLowerCase().slice(0, 320);
  if (throttled(services, address)) {
    return fail(
      'UNAUTHENTICATED',
      'Too many failed sign-ins with this e-mail address: try again in 15 minutes.',
    );
  }
  const db = services.database.db;
  const user = email.length <= 320 ? await findUserByEmail(db, email.trim()) : undefined;
  const stored = user ? await findUserPassword(db, user.id) : undefined;
  const verified = await verifyPassword(password.slice(0, 1024), stored);
  if (!user || !verified) {
    recordFailure(services, address);
    return denied;
  }
  failuresOf(services).delete(address);
  const [first] = await listUserShops(db, user.id);
  if (!first) return denied;
  const now = services.clock.now();
  const expiresAt = new Date(now.getTime() + ADMIN_SESSION_TTL_MS);
  const opened = await services.database.transaction(async (tx): Promise<Result<string>> => {
    const current = currentSecret ? await findAdminSession(tx, hashToken(currentSecret)) : undefined;
    if (current) await endSession(tx, services, current);
    await sweepExpired(tx, services, user.id, now);
    const secret = newSecret();
    const row = await insertAdminSession(tx, {
      id: services.ids.next(),
      secretHash: hashToken(secret),
      userId: user.id,
      method: 'password',
      currentTenantId: first.tenantId,
      createdAt: now,
      expiresAt,
    });
    const tokenId = await sessionToken(tx, services, first.tenantId, user.id, expiresAt);
    if (!tokenId.ok) return tokenId;
    await upsertAdminSessionShop(tx, {
      tenantId: first.tenantId,
      sessionId: row.id,
      tokenId: tokenId.value,
      createdAt: now,
    });
    return ok(secret);
  });
  if (!opened.ok) return opened;
  const session = await openAdminSession(services, opened.value);
  return session.ok ? ok({ secret: opened.value, session: session.value }) : session;
}

/**
 * Makes another shop of the session current: one the session holds a token for, or (password
 * sessions) any shop the person is a member of, for which a session token is made now.
 */
export async function switchAdminShop(
  services: Services,
  session: AdminSession,
  tenantId: string,
): Promise<Result<void>> {
  if (!session.shops.some((shop) => shop.tenantId === tenantId)) {
    return fail('NOT_FOUND', 'This session cannot act in that shop.');
  }
  return services.database.transaction(async (tx) => {
    const held = await findAdminSessionShop(tx, tenantId, session.id);
    if (!held) {
      if (session.method !== 'password' || !(await findMembership(tx, tenantId, session.userId))) {
        return fail('NOT_FOUND', 'This session cannot act in that shop.');
      }
      const tokenId = await sessionToken(tx, services, tenantId, session.userId, session.expiresAt);
      if (!tokenId.ok) return tokenId;
      await upsertAdminSessionShop(tx, {
        tenantId,
        sessionId: session.id,
        tokenId: tokenId.value,
        createdAt: services.clock.now(),
      });
    }
    await setAdminSessionShop(tx, session.id, tenantId);
    return ok(undefined);
  });
}

/** Signs out: the session's rows are deleted (and a password session's tokens revoked). */
export async function signOutAdmin(services: Services, secret: string | undefined): Promise<void> {
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return;
  await services.database.transaction(async (tx) => {
    const row = await findAdminSession(tx, hashToken(secret));
    if (row) await endSession(tx, services, row);
  });
}

/** Sets a person's admin password (the CLI's `cartwright user password`). */
export async function setAdminPassword(
  services: Services,
  email: string,
  password: string,
): Promise<Result<{ userId: string }>> {
  if (password.length < ADMIN_PASSWORD_MIN_LENGTH || password.length > 1024) {
    return fail(
      'VALIDATION_FAILED',
      `An admin password has ${ADMIN_PASSWORD_MIN_LENGTH} to 1024 characters.`,
      { errors: [{ pointer: '/password', message: `at least ${ADMIN_PASSWORD_MIN_LENGTH} characters` }] },
    );
  }
  const db = services.database.db;
  const user = await findUserByEmail(db, email.trim());
  if (!user) return fail('NOT_FOUND', 'No person with this e-mail address exists.');
  await setUserPassword(db, user.id, await hashPassword(password), services.clock.now());
  return ok({ userId: user.id });
}
