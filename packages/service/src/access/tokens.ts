import {
  type ApiTokenRow,
  type Executor,
  findMembership,
  insertToken,
  revokeToken,
} from '@cartwright/repository';
import { issueToken } from '../kernel/auth.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Permission, Role } from '../kernel/permissions.ts';
import { iso } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';

export interface NewToken {
  readonly name: string;
  readonly kind: 'personal' | 'api';
  /** Personal tokens: the member they act as. */
  readonly userId?: string | undefined;
  /** API tokens: their role (personal tokens follow the member's role). */
  readonly role?: Role | undefined;
  readonly permissions?: readonly Permission[] | undefined;
  readonly expiresAt?: Date | undefined;
  readonly createdBy?: string | null | undefined;
}

export interface TokenView {
  readonly id: string;
  readonly name: string;
  readonly kind: 'personal' | 'api';
  readonly userId: string | null;
  readonly role: Role | null;
  readonly permissions: string[] | null;
  readonly hint: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
}

export function tokenView(row: ApiTokenRow): TokenView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
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
  } else if (!input.role) {
    return fail('VALIDATION_FAILED', 'An API token needs a role.', {
      errors: [{ pointer: '/role', message: 'required for API tokens' }],
    });
  }
  const issued = issueToken(tenantId, input.kind);
  const row = await insertToken(tx, {
    tenantId,
    id: services.ids.next(),
    kind: input.kind,
    name: input.name,
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

/** Revokes a token of this shop; revoking twice or another shop's token answers NOT_FOUND. */
export async function revokeTokenOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  tokenId: string,
): Promise<Result<TokenView>> {
  const row = await revokeToken(tx, tenantId, tokenId, services.clock.now());
  if (!row) return fail('NOT_FOUND', 'No active token with this id exists in this shop.');
  await recordEvent(tx, services, tenantId, actor, 'token.revoked', { tokenId });
  return ok(tokenView(row));
}
