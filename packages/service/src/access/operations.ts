import { listTokens } from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { Permission, Role } from '../kernel/permissions.ts';
import { defineOperation } from '../kernel/registry.ts';
import { Limit, Timestamp, Uuid } from '../kernel/schemas.ts';
import { createToken, revokeTokenOf, Token, tokenView } from './tokens.ts';

export const listShopTokens = defineOperation({
  name: 'tokens.list',
  summary: 'Tokens of this shop, newest first (secrets are never shown again).',
  http: { method: 'GET', path: '/api/tokens' },
  permission: 'members.manage',
  readOnly: true,
  input: v.object({ limit: Limit, after: v.optional(Uuid) }),
  output: v.object({ items: v.array(Token), next: v.nullable(Uuid) }),
  async handler({ services, tenantId }, input) {
    const rows = await listTokens(services.database.db, tenantId, {
      limit: input.limit + 1,
      after: input.after,
    });
    const page = rows.slice(0, input.limit);
    return ok({ items: page.map(tokenView), next: rows.length > input.limit ? page.at(-1)!.id : null });
  },
});

export const createShopToken = defineOperation({
  name: 'tokens.create',
  summary:
    'Creates a personal token (acts as a member) or an API token (carries its own role). The secret is shown once.',
  http: { method: 'POST', path: '/api/tokens', status: 201 },
  permission: 'members.manage',
  readOnly: false,
  input: v.object({
    name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
    kind: v.picklist(['personal', 'api']),
    userId: v.optional(Uuid),
    role: v.optional(Role),
    permissions: v.optional(v.array(Permission)),
    expiresAt: v.optional(Timestamp),
  }),
  output: v.object({ token: v.string(), details: Token }),
  async handler({ services, tenantId, principal }, input) {
    if (input.kind === 'api' && input.role === 'owner' && principal.role !== 'owner') {
      return fail('FORBIDDEN', 'Only owners may create owner tokens.');
    }
    return services.database.transaction((tx) =>
      createToken(tx, services, tenantId, actorOf(principal), {
        ...input,
        userId: input.kind === 'personal' ? (input.userId ?? principal.userId ?? undefined) : undefined,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : undefined,
        createdBy: principal.userId,
      }),
    );
  },
});

export const revokeShopToken = defineOperation({
  name: 'tokens.revoke',
  summary: 'Revokes a token of this shop; it stops working at once.',
  http: { method: 'DELETE', path: '/api/tokens/:tokenId' },
  permission: 'members.manage',
  readOnly: false,
  input: v.object({ tokenId: Uuid }),
  output: Token,
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction((tx) =>
      revokeTokenOf(tx, services, tenantId, actorOf(principal), input.tokenId),
    );
  },
});
