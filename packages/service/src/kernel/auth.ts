import { createHash, randomBytes } from 'node:crypto';
import {
  type ApiTokenRow,
  type Executor,
  findChannelByAccessKey,
  findMembership,
  findTenant,
  findToken,
  findTokenByHash,
  touchToken,
} from '@cartwright/repository';
import { fail, type Result } from './errors.ts';
import { effectivePermissions, type Permission, type Role } from './permissions.ts';
import type { Services } from './services.ts';

/** Who is calling: always exactly one shop. */
export interface Principal {
  readonly tenantId: string;
  readonly tokenId: string;
  readonly tokenKind: StaffTokenKind;
  readonly userId: string | null;
  readonly role: Role;
  readonly permissions: ReadonlySet<Permission>;
}

/** Personal and API tokens are staff's; a `channel` token is an access grant to one private channel. */
export type TokenKind = 'personal' | 'api' | 'channel';
export type StaffTokenKind = Exclude<TokenKind, 'channel'>;

// cw_<pat|api|cag>_<shop id as 32 hex>_<43 base64url characters of secret>. Carrying the shop id
// lets the lookup stay inside one shop's rows, and the prefix lets secret scanners recognise a leak.
const TOKEN_PATTERN = /^cw_(pat|api|cag)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const TOKEN_PREFIXES: Record<TokenKind, string> = { personal: 'pat', api: 'api', channel: 'cag' };

export interface IssuedToken {
  readonly token: string;
  readonly hash: string;
  readonly hint: string;
}

/** Makes a new opaque token for a shop. The caller stores only `hash` and shows `token` once. */
export function issueToken(tenantId: string, kind: TokenKind): IssuedToken {
  const secret = randomBytes(32).toString('base64url');
  const token = `cw_${TOKEN_PREFIXES[kind]}_${tenantId.replaceAll('-', '')}_${secret}`;
  return { token, hash: hashToken(token), hint: `${token.slice(0, 7)}…${secret.slice(-4)}` };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// cwk_<shop id as 32 hex>_<24 characters>. Public (storefronts send it in the clear); the shop id
// inside keeps the lookup within one shop's rows, like bearer tokens.
const CHANNEL_KEY_PATTERN = /^cwk_([0-9a-f]{32})_([A-Za-z0-9_-]{24})$/;

/** A new public access key for a sales channel of this shop. */
export function issueChannelKey(tenantId: string): string {
  return `cwk_${tenantId.replaceAll('-', '')}_${randomBytes(18).toString('base64url')}`;
}

/** The storefront a request speaks for: its shop and sales channel, and the visitor's context token. */
export interface Storefront {
  readonly tenantId: string;
  readonly channelId: string;
  readonly contextToken: string | undefined;
}

/**
 * Resolves the `x-channel-key` of a storefront request to its shop and channel. Unknown keys
 * answer UNAUTHENTICATED; a private channel answers CHANNEL_PRIVATE unless `credential` (the
 * request's bearer token) is a staff token of its shop or a live access grant of the channel; a
 * paused channel serves nothing (NOT_READY), and tells only those it would serve that it is paused.
 */
export async function authenticateStorefront(
  services: Services,
  channelKey: string | undefined,
  contextToken: string | undefined,
  credential?: string | undefined,
): Promise<Result<Storefront>> {
  const match = channelKey ? CHANNEL_KEY_PATTERN.exec(channelKey) : null;
  if (!match || !channelKey) return fail('UNAUTHENTICATED', 'A valid x-channel-key header is required.');
  const tenantId = tenantIdOf(match[1]!);
  const channel = await findChannelByAccessKey(services.database.db, tenantId, channelKey);
  if (!channel) return fail('UNAUTHENTICATED', 'A valid x-channel-key header is required.');
  const state = channel.data as { paused?: boolean; private?: boolean };
  if (state.private && !(await opensChannel(services, tenantId, channel.id, credential))) {
    return fail(
      'CHANNEL_PRIVATE',
      'This sales channel is private: send a staff token of its shop or an access grant of the channel as the bearer token.',
    );
  }
  if (state.paused) return fail('NOT_READY', 'This sales channel is paused.');
  return { ok: true, value: { tenantId, channelId: channel.id, contextToken } };
}

function tenantIdOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The live token row a token names: its kind the one its prefix says, neither revoked nor
 * expired, its shop existing. The one lookup behind staff tokens and channel access grants.
 */
async function liveToken(
  services: Services,
  token: string | undefined,
): Promise<{ tenantId: string; row: ApiTokenRow } | null> {
  const match = token ? TOKEN_PATTERN.exec(token) : null;
  if (!match || !token) return null;
  const tenantId = tenantIdOf(match[2]!);
  const db = services.database.db;
  const row = await findTokenByHash(db, tenantId, hashToken(token));
  const now = services.clock.now();
  if (!row || TOKEN_PREFIXES[row.kind] !== match[1]) return null;
  if (row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  if (!(await findTenant(db, tenantId))) return null;
  return { tenantId, row };
}

/**
 * Whether a credential opens a private channel: a staff token of the channel's shop (that would
 * authenticate at /api) or a live access grant of this very channel. Another shop's token never does.
 */
async function opensChannel(
  services: Services,
  tenantId: string,
  channelId: string,
  credential: string | undefined,
): Promise<boolean> {
  const live = await liveToken(services, credential);
  if (!live || live.tenantId !== tenantId) return false;
  const db = services.database.db;
  const { row } = live;
  const opens =
    row.kind === 'channel' ? row.channelId === channelId : (await grantOfToken(db, tenantId, row)) !== null;
  if (opens) await touchToken(db, tenantId, row.id, services.clock.now());
  return opens;
}

/**
 * Resolves a bearer token to a principal. Every failure answers the same UNAUTHENTICATED so a
 * caller cannot tell a revoked token from an unknown one. Personal tokens take the member's
 * current role, so removing a membership disables its tokens at once. A channel access grant is
 * never a staff token.
 */
export async function authenticate(
  services: Services,
  token: string | undefined,
): Promise<Result<Principal>> {
  const denied = fail('UNAUTHENTICATED', 'A valid bearer token is required.');
  const live = await liveToken(services, token);
  if (!live) return denied;
  const { tenantId, row } = live;
  if (row.kind === 'channel') return denied;
  const db = services.database.db;
  const grant = await grantOfToken(db, tenantId, row);
  if (!grant) return denied;
  await touchToken(db, tenantId, row.id, services.clock.now());
  return {
    ok: true,
    value: { tenantId, tokenId: row.id, tokenKind: row.kind, userId: row.userId, ...grant },
  };
}

/**
 * The principal of a staff token known by its id (an admin session holds its shops' token ids,
 * never their secrets, decision 0047): the same checks as `authenticate` (live, staff, the member
 * still a member), the same UNAUTHENTICATED otherwise.
 */
export async function authenticateTokenId(
  services: Services,
  tenantId: string,
  tokenId: string,
): Promise<Result<Principal>> {
  const denied = fail('UNAUTHENTICATED', 'Sign in again.');
  const db = services.database.db;
  const row = await findToken(db, tenantId, tokenId);
  const now = services.clock.now();
  if (!row || row.kind === 'channel' || row.revokedAt || (row.expiresAt && row.expiresAt <= now))
    return denied;
  if (!(await findTenant(db, tenantId))) return denied;
  const grant = await grantOfToken(db, tenantId, row);
  if (!grant) return denied;
  await touchToken(db, tenantId, row.id, now);
  return {
    ok: true,
    value: { tenantId, tokenId: row.id, tokenKind: row.kind, userId: row.userId, ...grant },
  };
}

/**
 * What a live token may do now: a personal token its member's current role and permissions (none
 * once the membership is gone), an API token its own, a channel access grant nothing at all. Also
 * asked again when a flow acts later.
 */
export async function grantOfToken(
  db: Executor,
  tenantId: string,
  row: { kind: TokenKind; userId: string | null; role: Role | null; permissions: readonly string[] | null },
): Promise<{ role: Role; permissions: ReadonlySet<Permission> } | null> {
  if (row.kind === 'channel') return null;
  if (row.kind === 'personal') {
    const membership = row.userId ? await findMembership(db, tenantId, row.userId) : undefined;
    if (!membership) return null;
    return {
      role: membership.role,
      permissions: effectivePermissions(membership.role, membership.permissions),
    };
  }
  const role = row.role ?? 'reader';
  return { role, permissions: effectivePermissions(role, row.permissions) };
}

/** The actor recorded on events and activity. */
export function actorOf(principal: Principal): { kind: 'token'; tokenId: string; userId: string | null } {
  return { kind: 'token', tokenId: principal.tokenId, userId: principal.userId };
}
