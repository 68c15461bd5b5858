import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  api,
  freshStorage,
  migratedStorage,
  run,
  type Server,
  type Storage,
  startServer,
  stopServer,
} from './storage.ts';

let server: Server | undefined;
const owned: Storage[] = [];

/**
 * The test's storage, disposed of after it. Empty (`freshStorage()`) where the test is about a
 * first run on empty storage, else migrated (`migratedStorage()`), which spares creating the
 * embedded database.
 */
async function testStorage(made: Promise<Storage>): Promise<Storage> {
  const storage = await made;
  owned.push(storage);
  return storage;
}

afterEach(async () => {
  if (server) await stopServer(server);
  server = undefined;
  for (const storage of owned.splice(0)) await storage.dispose();
});

function singleJson(lines: readonly string[]): Record<string, unknown> {
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('cartwright start', () => {
  it('creates a demo shop on the first start, prints its token once, and the token works', async () => {
    const storage = await testStorage(freshStorage());
    server = await startServer(storage);
    const printed = singleJson(await Promise.all([server.process.output(() => true)]));
    expect(Object.keys(printed).sort()).toEqual(['tenantId', 'token', 'url']);
    const token = printed.token as string;
    const openapi = await api(server, 'GET', '/api/openapi.json', token);
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(await stopServer(server)).toBe(0);

    server = await startServer(storage);
    expect((await api(server, 'GET', '/readyz', undefined)).status).toBe(200);
    expect(server.process.stdout).toEqual([]);
    expect((await api(server, 'GET', '/api/shop', token)).status).toBe(200);
  });
});

describe('cartwright migrate', () => {
  it('applies the migrations and says so in one JSON line; running it again is harmless', async () => {
    const storage = await testStorage(freshStorage());
    for (let attempt = 0; attempt < 2; attempt++) {
      const migrated = await run(storage, ['migrate']);
      expect(migrated.code).toBe(0);
      expect(singleJson(migrated.stdout)).toEqual({ migrated: true, storage: storage.kind });
    }
  });
});

describe('cartwright shop create', () => {
  it('prints {"tenantId","token"}; the token works on /api and /mcp; the shop has exactly the starters', async () => {
    const storage = await testStorage(migratedStorage());
    const created = await run(storage, [
      'shop',
      'create',
      '--name',
      'Corner shop',
      '--owner-email',
      'me@corner.test',
    ]);
    expect(created.code).toBe(0);
    const shop = singleJson(created.stdout);
    expect(Object.keys(shop).sort()).toEqual(['tenantId', 'token']);
    const token = shop.token as string;

    server = await startServer(storage);
    expect(server.process.stdout).toEqual([]);
    const me = await api(server, 'GET', '/api/shop', token);
    expect(me.status).toBe(200);
    expect((me.body.shop as { id: string; name: string }).id).toBe(shop.tenantId);

    const automation = await api(server, 'GET', '/api/automation', token);
    const keys = (list: unknown) => (list as { key: string }[]).map((item) => item.key).sort();
    expect(keys(automation.body.rules)).toEqual([
      'default_all_orders',
      'default_business_customers',
      'default_cart_100',
    ]);
    expect(keys(automation.body.flows)).toEqual(['default_order_received', 'default_payment_received']);
    expect(keys(automation.body.channels)).toEqual(['main_storefront']);
    expect(automation.body.promotions).toEqual([]);

    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({ name: 'shop.get', arguments: {} });
    expect((result.structuredContent as { shop: { id: string } }).shop.id).toBe(shop.tenantId);
    await client.close();
  });

  it('rejects a missing or empty name with a usage message and exit code 2', async () => {
    const storage = await testStorage(freshStorage());
    const missing = await run(storage, ['shop', 'create']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.join('\n')).toContain('--name is required');
    expect(missing.stdout).toEqual([]);
  });
});

describe('cartwright token create / revoke', () => {
  it('creates an API token that works and revokes it', async () => {
    const storage = await testStorage(migratedStorage());
    const shop = singleJson((await run(storage, ['shop', 'create', '--name', 'Tokens'])).stdout);
    const created = await run(storage, [
      'token',
      'create',
      '--shop',
      String(shop.tenantId),
      '--name',
      'ci',
      '--role',
      'reader',
    ]);
    expect(created.code).toBe(0);
    const token = singleJson(created.stdout);
    expect(Object.keys(token).sort()).toEqual(['token', 'tokenId']);

    const wrongShop = await run(storage, [
      'token',
      'create',
      '--shop',
      'not-a-shop',
      '--name',
      'x',
      '--role',
      'reader',
    ]);
    expect(wrongShop.code).toBe(2);

    server = await startServer(storage);
    const asReader = await api(server, 'GET', '/api/shop', token.token as string);
    expect((asReader.body.caller as { role: string }).role).toBe('reader');
    await stopServer(server);
    server = undefined;

    const revoked = await run(storage, [
      'token',
      'revoke',
      '--shop',
      String(shop.tenantId),
      '--token',
      String(token.tokenId),
    ]);
    expect(revoked.code).toBe(0);
    server = await startServer(storage);
    expect((await api(server, 'GET', '/api/shop', token.token as string)).status).toBe(401);
  });
});

describe.runIf(!process.env.DATABASE_URL)('embedded storage', () => {
  it('refuses a second process on the data directory of a running server, with a clear message', async () => {
    const storage = await testStorage(migratedStorage());
    server = await startServer(storage);
    const second = await run(storage, ['shop', 'create', '--name', 'Intruder']);
    expect(second.code).toBe(3);
    expect(second.stderr.join('\n')).toMatch(/in use by process \d+/);
    expect((await api(server, 'GET', '/readyz', undefined)).status).toBe(200);
  });

  it('refuses a worker role without PostgreSQL', async () => {
    const storage = await testStorage(freshStorage());
    const worker = await run(storage, ['start'], { PROCESS_ROLE: 'memory-worker' });
    expect(worker.code).toBe(2);
    expect(worker.stderr.join('\n')).toContain('PROCESS_ROLE=memory-worker needs PostgreSQL');
  });
});
