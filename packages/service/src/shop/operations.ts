import { findTenant } from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { defineOperation } from '../kernel/registry.ts';
import { EmptyInput, Timestamp, Uuid } from '../kernel/schemas.ts';
import { createSandbox, shopView } from './shops.ts';

export const Shop = v.object({
  id: Uuid,
  name: v.string(),
  stage: v.picklist(['live', 'sandbox']),
  sourceTenantId: v.nullable(Uuid),
  mainLanguage: v.string(),
  createdAt: Timestamp,
});

export const getShop = defineOperation({
  name: 'shop.get',
  summary: 'The calling shop, and who is calling (role and permissions).',
  http: { method: 'GET', path: '/api/shop' },
  permission: null,
  readOnly: true,
  input: EmptyInput,
  output: v.object({
    shop: Shop,
    caller: v.object({
      tokenId: Uuid,
      tokenKind: v.picklist(['personal', 'api']),
      userId: v.nullable(Uuid),
      role: v.string(),
      permissions: v.array(v.string()),
    }),
  }),
  async handler({ services, tenantId, principal }) {
    const tenant = await findTenant(services.database.db, tenantId);
    if (!tenant) return fail('NOT_FOUND', 'The shop no longer exists.');
    return ok({
      shop: shopView(tenant),
      caller: {
        tokenId: principal.tokenId,
        tokenKind: principal.tokenKind,
        userId: principal.userId,
        role: principal.role,
        permissions: [...principal.permissions].sort(),
      },
    });
  },
});

export const createShopSandbox = defineOperation({
  name: 'shop.sandbox.create',
  summary:
    'Creates a private sandbox shop that copies the current definitions and channels; returns its owner token once.',
  http: { method: 'POST', path: '/api/shop/sandboxes', status: 201 },
  permission: 'members.manage',
  readOnly: false,
  input: v.object({ name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))) }),
  output: v.object({ shop: Shop, token: v.string() }),
  async handler({ services, tenantId, principal }, input) {
    const source = await findTenant(services.database.db, tenantId);
    if (!source) return fail('NOT_FOUND', 'The shop no longer exists.');
    if (source.stage === 'sandbox')
      return fail('CONFLICT', 'A sandbox cannot be copied into another sandbox.');
    const created = await createSandbox(services, tenantId, {
      name: input.name ?? `${source.name} (sandbox)`,
      ownerUserId: principal.userId,
      actor: actorOf(principal),
    });
    return ok({ shop: created.shop, token: created.token });
  },
});
