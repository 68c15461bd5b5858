import {
  countOwners,
  type Database,
  findMembership,
  findUserByEmail,
  listEvents,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  type CreatedShop,
  createServices,
  createShop,
  invokeOperation,
  type Principal,
  type Role,
  type Services,
} from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNamed, principalOf, successOf } from './principals.ts';

let database: Database;
let services: Services;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
});
afterAll(async () => database?.close());

interface Member {
  readonly userId: string;
  readonly email: string;
  readonly role: Role;
}

async function addMember(principal: Principal, email: string, role: Role) {
  return invokeOperation(services, operationNamed('members.add'), principal, { email, role });
}

async function removeMember(principal: Principal, userId: string) {
  return invokeOperation(services, operationNamed('members.remove'), principal, { userId });
}

/** A member of the shop with this role, and the principal of a personal token acting as them. */
async function memberWithToken(owner: Principal, email: string, role: Role) {
  const member = successOf(await addMember(owner, email, role)) as Member;
  const created = successOf(
    await invokeOperation(services, operationNamed('tokens.create'), owner, {
      name: email,
      kind: 'personal',
      userId: member.userId,
    }),
  ) as { token: string };
  return { member, principal: await principalOf(services, created.token) };
}

async function eventsNamed(tenantId: string, name: string) {
  return listEvents(database.db, tenantId, { name, limit: 100 });
}

describe('members.add', () => {
  let shop: CreatedShop;
  let owner: Principal;

  beforeAll(async () => {
    shop = await createShop(services, { name: 'Adding shop', ownerEmail: 'owner@adding.test' });
    owner = await principalOf(services, shop.token);
  });

  it('creates a membership and records member.added in the outbox', async () => {
    const member = successOf(await addMember(owner, 'Staff@Adding.test', 'editor')) as Member;
    expect(member).toMatchObject({ email: 'Staff@Adding.test', role: 'editor' });
    expect(await findMembership(database.db, shop.tenantId, member.userId)).toMatchObject({ role: 'editor' });

    const added = await eventsNamed(shop.tenantId, 'member.added');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      payload: { userId: member.userId, role: 'editor' },
      actor: { kind: 'token', tokenId: owner.tokenId, userId: owner.userId },
    });
  });

  it('changes the role of an existing member (email in any case) as member.updated', async () => {
    const member = successOf(await addMember(owner, 'staff@adding.test', 'reader')) as Member;
    expect(await findMembership(database.db, shop.tenantId, member.userId)).toMatchObject({ role: 'reader' });
    expect(await eventsNamed(shop.tenantId, 'member.added')).toHaveLength(1);
    expect((await eventsNamed(shop.tenantId, 'member.updated')).map((event) => event.payload)).toEqual([
      { userId: member.userId, role: 'reader' },
    ]);
  });

  it('does not let an admin make an owner', async () => {
    const { principal: admin } = await memberWithToken(owner, 'admin@adding.test', 'admin');
    expect(admin.role).toBe('admin');
    expect(await addMember(admin, 'usurper@adding.test', 'owner')).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    expect(await findUserByEmail(database.db, 'usurper@adding.test')).toBeUndefined();

    const colleague = successOf(await addMember(admin, 'colleague@adding.test', 'editor')) as Member;
    expect(await addMember(admin, colleague.email, 'owner')).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(await findMembership(database.db, shop.tenantId, colleague.userId)).toMatchObject({
      role: 'editor',
    });
  });

  it('does not let an admin demote or remove an owner', async () => {
    const { principal: admin } = await memberWithToken(owner, 'second-admin@adding.test', 'admin');
    expect(await addMember(admin, 'owner@adding.test', 'reader')).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    expect(await removeMember(admin, shop.userId!)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(await findMembership(database.db, shop.tenantId, shop.userId!)).toMatchObject({ role: 'owner' });
  });
});

describe('the last owner', () => {
  let shop: CreatedShop;
  let owner: Principal;

  beforeAll(async () => {
    shop = await createShop(services, { name: 'Owned shop', ownerEmail: 'owner@owned.test' });
    owner = await principalOf(services, shop.token);
  });

  it('can be neither removed nor demoted', async () => {
    expect(await removeMember(owner, shop.userId!)).toMatchObject({ ok: false, code: 'LAST_OWNER' });
    expect(await addMember(owner, 'owner@owned.test', 'admin')).toMatchObject({
      ok: false,
      code: 'LAST_OWNER',
    });
    expect(await findMembership(database.db, shop.tenantId, shop.userId!)).toMatchObject({ role: 'owner' });
    expect(await countOwners(database.db, shop.tenantId)).toBe(1);
    expect(await eventsNamed(shop.tenantId, 'member.removed')).toEqual([]);
  });

  it('is guarded only while alone: a second owner can be demoted and removed', async () => {
    const second = successOf(await addMember(owner, 'co-owner@owned.test', 'owner')) as Member;
    expect(await countOwners(database.db, shop.tenantId)).toBe(2);
    successOf(await addMember(owner, second.email, 'admin'));
    successOf(await addMember(owner, second.email, 'owner'));
    successOf(await removeMember(owner, second.userId));
    expect(await findMembership(database.db, shop.tenantId, second.userId)).toBeUndefined();
    expect(await countOwners(database.db, shop.tenantId)).toBe(1);
    expect(await removeMember(owner, shop.userId!)).toMatchObject({ ok: false, code: 'LAST_OWNER' });
  });
});

describe('members of another shop', () => {
  it('cannot be removed: NOT_FOUND, and nothing changes in either shop', async () => {
    const shopA = await createShop(services, { name: 'Shop A', ownerEmail: 'owner@a.test' });
    const shopB = await createShop(services, { name: 'Shop B', ownerEmail: 'owner@b.test' });
    const ownerA = await principalOf(services, shopA.token);
    const ownerB = await principalOf(services, shopB.token);
    const memberOfB = successOf(await addMember(ownerB, 'clerk@b.test', 'editor')) as Member;

    for (const userId of [memberOfB.userId, shopB.userId!]) {
      expect(await removeMember(ownerA, userId)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    }
    expect(await findMembership(database.db, shopB.tenantId, memberOfB.userId)).toMatchObject({
      role: 'editor',
    });
    expect(await findMembership(database.db, shopB.tenantId, shopB.userId!)).toMatchObject({ role: 'owner' });
    expect(await eventsNamed(shopA.tenantId, 'member.removed')).toEqual([]);
    expect(await eventsNamed(shopB.tenantId, 'member.removed')).toEqual([]);

    const listed = successOf(await invokeOperation(services, operationNamed('members.list'), ownerA, {})) as {
      items: Member[];
    };
    expect(listed.items.map((member) => member.userId)).toEqual([shopA.userId]);
  });

  it('keep their role there when another shop adds the same person', async () => {
    const shopC = await createShop(services, { name: 'Shop C', ownerEmail: 'owner@c.test' });
    const shopD = await createShop(services, { name: 'Shop D', ownerEmail: 'owner@d.test' });
    const ownerD = await principalOf(services, shopD.token);
    const added = successOf(await addMember(ownerD, 'owner@c.test', 'reader')) as Member;
    expect(added.userId).toBe(shopC.userId);
    expect(await findMembership(database.db, shopD.tenantId, added.userId)).toMatchObject({ role: 'reader' });
    expect(await findMembership(database.db, shopC.tenantId, added.userId)).toMatchObject({ role: 'owner' });
  });
});
