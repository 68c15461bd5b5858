import {
  countOwners,
  deleteMembership,
  findMembership,
  findUserByEmail,
  insertUser,
  listMembers,
  lockTransaction,
  type MemberRow,
  upsertMembership,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf, type Principal } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { Permission, Role } from '../kernel/permissions.ts';
import { defineOperation } from '../kernel/registry.ts';
import { EmptyInput, iso, Timestamp, Uuid } from '../kernel/schemas.ts';

const Member = v.object({
  userId: Uuid,
  email: v.string(),
  name: v.nullable(v.string()),
  role: Role,
  permissions: v.nullable(v.array(v.string())),
  createdAt: Timestamp,
});

function memberView(row: MemberRow): v.InferOutput<typeof Member> {
  return {
    userId: row.userId,
    email: row.email,
    name: row.name,
    role: row.role,
    permissions: row.permissions,
    createdAt: iso(row.createdAt),
  };
}

/** Only owners make or unmake owners. */
function mayAssign(principal: Principal, role: Role): boolean {
  return role !== 'owner' || principal.role === 'owner';
}

export const listShopMembers = defineOperation({
  name: 'members.list',
  summary: 'The people who belong to this shop, with their roles.',
  http: { method: 'GET', path: '/api/members' },
  permission: 'members.manage',
  readOnly: true,
  input: EmptyInput,
  output: v.object({ items: v.array(Member) }),
  async handler({ services, tenantId }) {
    const rows = await listMembers(services.database.db, tenantId);
    return ok({ items: rows.map(memberView) });
  },
});

export const addMember = defineOperation({
  name: 'members.add',
  summary: 'Adds a person (by email) to this shop with a role, or changes the role of an existing member.',
  http: { method: 'POST', path: '/api/members', status: 201 },
  permission: 'members.manage',
  readOnly: false,
  input: v.object({
    email: v.pipe(v.string(), v.trim(), v.email(), v.maxLength(320)),
    name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
    role: Role,
    permissions: v.optional(v.array(Permission)),
  }),
  output: Member,
  async handler({ services, tenantId, principal }, input) {
    if (!mayAssign(principal, input.role)) return fail('FORBIDDEN', 'Only owners may make owners.');
    return services.database.transaction(async (tx) => {
      const user =
        (await findUserByEmail(tx, input.email)) ??
        (await insertUser(tx, { id: services.ids.next(), email: input.email, name: input.name ?? null }));
      await lockTransaction(tx, `owners:${tenantId}`);
      const existing = await findMembership(tx, tenantId, user.id);
      if (existing?.role === 'owner' && input.role !== 'owner') {
        if (principal.role !== 'owner') return fail('FORBIDDEN', 'Only owners may unmake owners.');
        if ((await countOwners(tx, tenantId)) === 1)
          return fail('LAST_OWNER', 'The last owner cannot be demoted.');
      }
      const row = await upsertMembership(tx, {
        tenantId,
        userId: user.id,
        role: input.role,
        permissions: input.permissions ? [...input.permissions] : null,
        createdAt: services.clock.now(),
      });
      await recordEvent(
        tx,
        services,
        tenantId,
        actorOf(principal),
        existing ? 'member.updated' : 'member.added',
        {
          userId: user.id,
          role: row.role,
        },
      );
      return ok(memberView({ ...row, email: user.email, name: user.name }));
    });
  },
});

export const removeMember = defineOperation({
  name: 'members.remove',
  summary: 'Removes a person from this shop; their personal tokens stop working at once.',
  http: { method: 'DELETE', path: '/api/members/:userId' },
  permission: 'members.manage',
  readOnly: false,
  input: v.object({ userId: Uuid }),
  output: v.object({ userId: Uuid, removed: v.literal(true) }),
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction(async (tx) => {
      // Serialise owner changes per shop: two owners removing each other must leave one.
      await lockTransaction(tx, `owners:${tenantId}`);
      const existing = await findMembership(tx, tenantId, input.userId);
      if (!existing) return fail('NOT_FOUND', 'No member with this id belongs to this shop.');
      if (existing.role === 'owner') {
        if (principal.role !== 'owner') return fail('FORBIDDEN', 'Only owners may remove owners.');
        if ((await countOwners(tx, tenantId)) === 1)
          return fail('LAST_OWNER', 'The last owner cannot be removed.');
      }
      await deleteMembership(tx, tenantId, input.userId);
      await recordEvent(tx, services, tenantId, actorOf(principal), 'member.removed', {
        userId: input.userId,
      });
      return ok({ userId: input.userId, removed: true as const });
    });
  },
});
