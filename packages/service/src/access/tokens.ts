import {
  type ApiTokenRow,
  type Executor,
  findMembership,
  insertToken,
  revokeToken,
} from '@cartwright/repository';
import * as v from 'valibot';
import { issueToken, type TokenKind } from '../kernel/auth.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { type Permission, Role } from '../kernel/permissions.ts';
import { iso, NullableTimestamp, Timestamp, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';

export interface NewToken {
  readonly name: string;
  readonly kind: TokenKind;
  /** Channel access grants: the sales channel they open (the caller checked it is the shop's). */
  readonly channelId?: string | undefined;
  /** Personal tokens: the member they act as. */
  readonly userId?: string | undefined;
  /** API tokens: their role (personal tokens follow the member's role). */
  readonly role?: Role | undefined;
  readonly permissions?: readonly Permission[] | undefined;
  readonly expiresAt?: Date | undefined;
  readonly createdBy?: string | null | undefined;
}

/** A token as staff see it (never its secret); `channelId` names the channel a grant opens. */
export const Token = v.object({
  id: Uuid,
  name: v.string(),
  kind: v.picklist(['personal', 'api', 'channel'] satisfies TokenKind[]),
  channelId: v.nullable(Uuid),
  userId: v.nullable(Uuid),
  role: v.nullable(Role),
  permissions: v.nullable(v.array(v.string())),
  hint: v.string(),
  expiresAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  lastUsedAt: NullableTimestamp,
  createdAt: Timestamp,
});
export type TokenView = v.InferOutput<typeof Token>;

export function tokenView(row: ApiTokenRow): TokenView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    channelId: row.channelId,
    userId: row.userId,
    role: row.role,
    permissions: row.permissions,
    hint: row.hint,
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
    lastUsedAt: iso(row.lastUsedAt),
    createdAt: iso(row.createdAt),
  };
}

/** Creates a token in the caller's transaction; the secret is returned here and never again. */
export async function createToken(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  input: NewToken,
): Promise<Result<{ token: string; details: TokenView }>> {
  if (input.expiresAt && input.expiresAt <= services.clock.now()) {
    return fail('VALIDATION_FAILED', 'The expiry must lie in the future.', {
      errors: [{ pointer: '/expiresAt', message: 'must lie in the future' }],
    });
  }
  if (input.kind === 'personal') {
    if (!input.userId || !(await findMembership(tx, tenantId, input.userId))) {
      return fail('VALIDATION_FAILED', 'A personal token needs the id of a member of this shop.', {
        errors: [{ pointer: '/userId', message: 'must be a member of this shop' }],
      });
    }
  } else if (input.kind === 'api' && !input.role) {
    return fail('VALIDATION_FAILED', 'An API token needs a role.', {
      errors: [{ pointer: '/role', message: 'required for API tokens' }],
    });
  } else if (input.kind === 'channel' && !input.channelId) {
    return fail('VALIDATION_FAILED', 'A channel access grant needs its sales channel.', {
      errors: [{ pointer: '/channelId', message: 'required for channel access grants' }],
    });
  }
  const issued = issueToken(tenantId, input.kind);
  const row = await insertToken(tx, {
    tenantId,
    id: services.ids.next(),
    kind: input.kind,
    name: input.name,
    channelId: input.kind === 'channel' ? input.channelId! : null,
    userId: input.kind === 'personal' ? input.userId! : null,
    role: input.kind === 'api' ? input.role! : null,
    permissions: input.kind === 'api' && input.permissions ? [...input.permissions] : null,
    tokenHash: issued.hash,
    hint: issued.hint,
    createdBy: input.createdBy ?? null,
    expiresAt: input.expiresAt ?? null,
  });
  await recordEvent(tx, services, tenantId, actor, 'token.created', { tokenId: row.id, kind: row.kind });
  return ok({ token: issued.token, details: tokenView(row) });
}

/**
 * Revokes a staff token of this shop, or with `channelId` an access grant of that channel;
 * revoking twice, another shop's token or a token of the other sort answers NOT_FOUND.
 */
export async function revokeTokenOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  tokenId: string,
  channelId?: string,
): Promise<Result<TokenView>> {
  const row = await revokeToken(tx, tenantId, tokenId, services.clock.now(), channelId);
  if (!row) return fail('NOT_FOUND', 'No active token with this id exists in this shop.');
  await recordEvent(tx, services, tenantId, actor, 'token.revoked', { tokenId });
  return ok(tokenView(row));
}
