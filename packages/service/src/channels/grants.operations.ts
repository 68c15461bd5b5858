import { findChannel, listTokens } from '@cartwright/repository';
import * as v from 'valibot';
import { createToken, revokeTokenOf, Token, tokenView } from '../access/tokens.ts';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { Limit, Timestamp, Uuid } from '../kernel/schemas.ts';

// Access grants of a private sales channel (decision 0030): tokens of the one token mechanism
// (`api_tokens`, kind `channel`, only the hash stored, shown once) that open the store API of one
// channel, sent as the bearer token beside its `x-channel-key`. They never authenticate at /api.

const ChannelGrantId = v.object({ channelId: Uuid });
const NO_CHANNEL = (channelId: string) => fail('NOT_FOUND', `No channel ${channelId} exists in this shop.`);

export const createChannelGrant = defineOperation({
  name: 'merchant.commerce.grants.create',
  summary:
    'Creates an access grant to a sales channel’s store API (needed while the channel is private); the token is shown once.',
  http: { method: 'POST', path: '/api/merchant/commerce/channels/:channelId/grants', status: 201 },
  permission: 'settings.write',
  readOnly: false,
  input: v.object({
    ...ChannelGrantId.entries,
    name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
    expiresAt: v.optional(Timestamp),
  }),
  output: v.object({ token: v.string(), grant: Token }),
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction(async (tx) => {
      // Locked: a concurrent delete of the channel (which deletes its grants) waits, or this finds none.
      if (!(await findChannel(tx, tenantId, input.channelId, 'update'))) return NO_CHANNEL(input.channelId);
      const created = await createToken(tx, services, tenantId, actorOf(principal), {
        name: input.name,
        kind: 'channel',
        channelId: input.channelId,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : undefined,
        createdBy: principal.userId,
      });
      if (!created.ok) return created;
      return ok({ token: created.value.token, grant: created.value.details });
    });
  },
});

export const listChannelGrants = defineOperation({
  name: 'merchant.commerce.grants.list',
  summary: 'Access grants of a sales channel, newest first (their tokens are never shown again).',
  http: { method: 'GET', path: '/api/merchant/commerce/channels/:channelId/grants' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({ ...ChannelGrantId.entries, limit: Limit, after: v.optional(Uuid) }),
  output: v.object({ items: v.array(Token), next: v.nullable(Uuid) }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    if (!(await findChannel(db, tenantId, input.channelId))) return NO_CHANNEL(input.channelId);
    const rows = await listTokens(db, tenantId, {
      limit: input.limit + 1,
      after: input.after,
      channelId: input.channelId,
    });
    const page = rows.slice(0, input.limit);
    return ok({ items: page.map(tokenView), next: rows.length > input.limit ? page.at(-1)!.id : null });
  },
});

export const revokeChannelGrant = defineOperation({
  name: 'merchant.commerce.grants.revoke',
  summary: 'Revokes an access grant of a sales channel; it stops working at once.',
  http: { method: 'DELETE', path: '/api/merchant/commerce/channels/:channelId/grants/:grantId' },
  permission: 'settings.write',
  readOnly: false,
  input: v.object({ ...ChannelGrantId.entries, grantId: Uuid }),
  output: Token,
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction((tx) =>
      revokeTokenOf(tx, services, tenantId, actorOf(principal), input.grantId, input.channelId),
    );
  },
});

export const channelGrantOperations: readonly AnyOperation[] = [
  createChannelGrant,
  listChannelGrants,
  revokeChannelGrant,
];
