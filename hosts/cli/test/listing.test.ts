import { createDatabase, type Database } from '@cartwright/repository';
import {
  authenticate,
  createSandbox,
  createServices,
  createShop,
  createToken,
  revokeTokenOf,
  type Services,
} from '@cartwright/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedStorage, run, type Storage } from './storage.ts';

// `shop list` and `token list`: what an operator needs to find a shop and recover from a lost
// owner token (`token create … --role owner`), one JSON document per line, never a secret. The
// shops and tokens are made in this process (each `cartwright` run costs seconds); the commands
// under test run as the real binary.

let storage: Storage;

beforeEach(async () => {
  storage = await migratedStorage();
});
afterEach(async () => storage.dispose());

/** Opens the storage in this process (no `cartwright` may run meanwhile on embedded storage). */
async function withServices<T>(work: (services: Services) => Promise<T>): Promise<T> {
  const database: Database = await createDatabase({
    databaseUrl: storage.env.DATABASE_URL,
    dataDir: storage.env.CARTWRIGHT_DATA_DIR,
  });
  try {
    return await work(createServices(database));
  } finally {
    await database.close();
  }
}

const jsonLines = (lines: readonly string[]) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const system = { kind: 'system', process: 'test' } as const;

describe('cartwright shop list', () => {
  it('prints one line per shop, oldest first: id, name, stage, createdAt', async () => {
    const [first, second, sandbox] = await withServices(async (services) => {
      const first = await createShop(services, { name: 'First' });
      const second = await createShop(services, { name: 'Second' });
      const sandbox = await createSandbox(services, first.tenantId, {
        name: 'First (sandbox)',
        ownerUserId: null,
        actor: system,
      });
      return [first, second, sandbox];
    });

    const listed = await run(storage, ['shop', 'list']);
    expect(listed.code).toBe(0);
    const shops = jsonLines(listed.stdout);
    expect(shops.map((shop) => [shop.id, shop.name, shop.stage])).toEqual([
      [first.tenantId, 'First', 'live'],
      [second.tenantId, 'Second', 'live'],
      [sandbox.tenantId, 'First (sandbox)', 'sandbox'],
    ]);
    for (const shop of shops) {
      expect(Object.keys(shop).sort()).toEqual(['createdAt', 'id', 'name', 'stage']);
      expect(Number.isNaN(Date.parse(String(shop.createdAt)))).toBe(false);
    }
  });
});

describe('cartwright token list', () => {
  it('prints every token with its role and state, never its secret; a lost owner token is replaced', async () => {
    const made = await withServices(async (services) => {
      const shop = await createShop(services, { name: 'Tokens' });
      const issue = async (name: string, role: 'reader' | 'editor', expiresAt?: Date) => {
        const created = await services.database.transaction((tx) =>
          createToken(tx, services, shop.tenantId, system, { name, kind: 'api', role, expiresAt }),
        );
        if (!created.ok) throw new Error(created.detail);
        return { id: created.value.details.id, token: created.value.token };
      };
      const reader = await issue('ci', 'reader');
      const soon = await issue('soon', 'editor', new Date(Date.now() + 1_000));
      await services.database.transaction((tx) =>
        revokeTokenOf(tx, services, shop.tenantId, system, reader.id),
      );
      return { tenantId: shop.tenantId, owner: shop.token, reader, soon };
    });

    // The recovery path the README gives for a lost demo token.
    const created = await run(storage, [
      'token',
      'create',
      '--shop',
      made.tenantId,
      '--name',
      'recovered',
      '--role',
      'owner',
    ]);
    expect(created.code).toBe(0);
    const recovered = jsonLines(created.stdout)[0]!;
    const caller = await withServices(async (services) => authenticate(services, String(recovered.token)));
    expect(caller.ok && caller.value.role).toBe('owner');

    const listed = await run(storage, ['token', 'list', '--shop', made.tenantId]);
    expect(listed.code).toBe(0);
    const output = listed.stdout.join('\n');
    for (const secret of [made.owner, made.reader.token, made.soon.token, String(recovered.token)]) {
      expect(output).not.toContain(secret.slice(-20));
    }
    const tokens = jsonLines(listed.stdout);
    const byName = Object.fromEntries(tokens.map((token) => [token.name, token]));
    expect(Object.keys(byName).sort()).toEqual(['ci', 'owner', 'recovered', 'soon']);
    expect(byName.owner).toMatchObject({ kind: 'api', role: 'owner', status: 'active', lastUsedAt: null });
    expect(byName.ci).toMatchObject({ id: made.reader.id, role: 'reader', status: 'revoked' });
    expect(byName.soon).toMatchObject({ id: made.soon.id, role: 'editor', status: 'expired' });
    expect(byName.recovered).toMatchObject({ id: recovered.tokenId, role: 'owner', status: 'active' });
    expect(byName.recovered?.lastUsedAt).toEqual(expect.any(String));
    for (const token of tokens) {
      expect(Object.keys(token).sort()).toEqual([
        'createdAt',
        'expiresAt',
        'hint',
        'id',
        'kind',
        'lastUsedAt',
        'name',
        'revokedAt',
        'role',
        'status',
        'userId',
      ]);
    }
  });

  it('names a personal token’s role from the membership, and refuses an unknown shop', async () => {
    const shop = await withServices((services) =>
      createShop(services, { name: 'Owned', ownerEmail: 'me@owned.test' }),
    );
    const listed = await run(storage, ['token', 'list', '--shop', shop.tenantId]);
    expect(jsonLines(listed.stdout)).toEqual([
      expect.objectContaining({ name: 'owner', kind: 'personal', role: 'owner', userId: shop.userId }),
    ]);
    const unknown = await run(storage, ['token', 'list', '--shop', '0190f0c8-0000-7000-8000-000000000000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.join('\n')).toContain('no shop');
    expect(unknown.stdout).toEqual([]);
  });
});
