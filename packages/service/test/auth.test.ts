import { type Database, findToken, listTokens } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  authenticate,
  type CreatedShop,
  createServices,
  createShop,
  createToken,
  hashToken,
  invokeOperation,
  revokeTokenOf,
  type Services,
} from '@cartwright/service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNamed, principalOf, successOf, testActor } from './principals.ts';

let database: Database;
let services: Services;
let shopA: CreatedShop;
let shopB: CreatedShop;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shopA = await createShop(services, { name: 'Shop A', ownerEmail: 'owner@a.test' });
  shopB = await createShop(services, { name: 'Shop B', ownerEmail: 'owner@b.test' });
});
afterAll(async () => database?.close());

const hexOf = (tenantId: string) => tenantId.replaceAll('-', '');

/** The token with one character replaced by another character the token format allows there. */
function withCharacterChanged(token: string, index: number): string {
  const replacement = token[index] === 'a' ? 'b' : 'a';
  return `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
}

async function newApiToken(
  serviceSet: Services,
  tenantId: string,
  extra: { expiresAt?: Date } = {},
): Promise<{ token: string; id: string }> {
  const issued = await serviceSet.database.transaction((tx) =>
    createToken(tx, serviceSet, tenantId, testActor, { name: 'api', kind: 'api', role: 'editor', ...extra }),
  );
  const { token, details } = successOf(issued);
  return { token, id: details.id };
}

describe('authenticate', () => {
  it('resolves a new shop’s owner token to that shop, as its owner', async () => {
    for (const shop of [shopA, shopB]) {
      const principal = await principalOf(services, shop.token);
      expect(principal).toMatchObject({
        tenantId: shop.tenantId,
        tokenKind: 'personal',
        userId: shop.userId,
        role: 'owner',
      });
      expect(principal.permissions.has('members.manage')).toBe(true);
    }
  });

  it('gives a shop without an owner email an owner API token', async () => {
    const shop = await createShop(services, { name: 'Ownerless shop' });
    expect(shop.userId).toBeNull();
    expect(await principalOf(services, shop.token)).toMatchObject({
      tenantId: shop.tenantId,
      tokenKind: 'api',
      userId: null,
      role: 'owner',
    });
  });

  it.each<[string, () => string | undefined]>([
    ['a secret with one character changed', () => withCharacterChanged(shopA.token, shopA.token.length - 1)],
    ['a shop id with one character changed', () => withCharacterChanged(shopA.token, 10)],
    ['another shop’s id spliced in', () => shopA.token.replace(hexOf(shopA.tenantId), hexOf(shopB.tenantId))],
    ['a token without its prefix', () => shopA.token.slice(3)],
    ['an empty string', () => ''],
    ['no token at all', () => undefined],
  ])('rejects %s', async (_, tokenOf) => {
    const token = tokenOf();
    expect(token).not.toBe(shopA.token);
    expect(await authenticate(services, token)).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
  });

  it('rejects a revoked token, and another shop cannot revoke it', async () => {
    const { token, id } = await newApiToken(services, shopA.tenantId);
    expect((await principalOf(services, token)).tenantId).toBe(shopA.tenantId);

    const fromB = await database.transaction((tx) =>
      revokeTokenOf(tx, services, shopB.tenantId, testActor, id),
    );
    expect(fromB).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await principalOf(services, token)).tenantId).toBe(shopA.tenantId);

    const revoked = await database.transaction((tx) =>
      revokeTokenOf(tx, services, shopA.tenantId, testActor, id),
    );
    expect(successOf(revoked).revokedAt).not.toBeNull();
    expect(await authenticate(services, token)).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });

    const again = await database.transaction((tx) =>
      revokeTokenOf(tx, services, shopA.tenantId, testActor, id),
    );
    expect(again).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('token expiry', () => {
  const start = new Date('2031-03-01T12:00:00.000Z');
  const hour = 3_600_000;
  let currentDate = start;
  let clocked: Services;

  beforeAll(() => {
    clocked = createServices(database, { clock: { now: () => currentDate } });
  });

  it.each([
    ['in the past', -1],
    ['at this very moment', 0],
  ])('refuses to create a token that expires %s', async (_, offset) => {
    currentDate = start;
    const before = await listTokens(database.db, shopA.tenantId, { limit: 100 });
    const result = await database.transaction((tx) =>
      createToken(tx, clocked, shopA.tenantId, testActor, {
        name: 'stale',
        kind: 'api',
        role: 'reader',
        expiresAt: new Date(start.getTime() + offset),
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
      errors: [{ pointer: '/expiresAt' }],
    });
    expect(await listTokens(database.db, shopA.tenantId, { limit: 100 })).toHaveLength(before.length);
  });

  it('accepts a token until its expiry and rejects it from then on', async () => {
    currentDate = start;
    const { token } = await newApiToken(clocked, shopA.tenantId, {
      expiresAt: new Date(start.getTime() + hour),
    });
    expect(await authenticate(clocked, token)).toMatchObject({ ok: true });

    currentDate = new Date(start.getTime() + hour - 1);
    expect(await authenticate(clocked, token)).toMatchObject({ ok: true });

    currentDate = new Date(start.getTime() + hour);
    expect(await authenticate(clocked, token)).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    currentDate = new Date(start.getTime() + 2 * hour);
    expect(await authenticate(clocked, token)).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
  });
});

describe('personal tokens', () => {
  it('follow the member’s current role and stop working when the membership is removed', async () => {
    const owner = await principalOf(services, shopA.token);
    const added = successOf(
      await invokeOperation(services, operationNamed('members.add'), owner, {
        email: 'clerk@a.test',
        role: 'editor',
      }),
    ) as { userId: string };
    const created = successOf(
      await invokeOperation(services, operationNamed('tokens.create'), owner, {
        name: 'clerk',
        kind: 'personal',
        userId: added.userId,
      }),
    ) as { token: string };
    expect(await principalOf(services, created.token)).toMatchObject({
      tenantId: shopA.tenantId,
      userId: added.userId,
      role: 'editor',
    });

    successOf(
      await invokeOperation(services, operationNamed('members.add'), owner, {
        email: 'clerk@a.test',
        role: 'reader',
      }),
    );
    const demoted = await principalOf(services, created.token);
    expect(demoted.role).toBe('reader');
    expect(demoted.permissions.has('catalog.write')).toBe(false);

    successOf(
      await invokeOperation(services, operationNamed('members.remove'), owner, { userId: added.userId }),
    );
    expect(await authenticate(services, created.token)).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
  });

  it('cannot be created for a person who is not a member of the shop', async () => {
    const result = await database.transaction((tx) =>
      createToken(tx, services, shopA.tenantId, testActor, {
        name: 'intruder',
        kind: 'personal',
        userId: shopB.userId ?? undefined,
      }),
    );
    expect(result).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', errors: [{ pointer: '/userId' }] });
  });
});

describe('token storage', () => {
  it('stores only the token’s hash, and no table holds the token or its secret', async () => {
    const { token, id } = await newApiToken(services, shopB.tenantId);
    const tokens = [token, shopA.token, shopB.token];

    const row = await findToken(database.db, shopB.tenantId, id);
    expect(row?.tokenHash).toBe(hashToken(token));
    expect(row?.tokenHash).not.toBe(token);

    const tables = await database.rows<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
    );
    expect(tables.map((table) => table.name)).toContain('api_tokens');
    for (const { name } of tables) {
      const stored = JSON.stringify(await database.rows(sql`select * from ${sql.identifier(name)}`));
      for (const issued of tokens) {
        expect(stored).not.toContain(issued);
        expect(stored).not.toContain(issued.slice(-43));
      }
    }
  });
});
