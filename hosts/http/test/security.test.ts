import { createMcpServer } from '@cartwright/mcp';
import {
  type AnyOperation,
  authenticate,
  createToken,
  operations,
  PERMISSIONS,
  type Principal,
  permissionOf,
} from '@cartwright/service';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The shared security suite: every registered route and every MCP tool must reject a missing
// token, never let a token of another shop read or change this shop, and answer 403 to a token
// that lacks the operation's permission.

let h: Harness;
let shopATokenId: string;

const A_TAX_CLASS = '0190f0c8-0000-7000-8000-0000000000a1';
const A_SHIPPING = '0190f0c8-0000-7000-8000-0000000000a2';
const A_PAYMENT = '0190f0c8-0000-7000-8000-0000000000a3';
const B_ONLY = '0190f0c8-0000-7000-8000-0000000000b9';
const translations = { en: { name: 'Thing' } };

/**
 * A valid input for every operation. `foreign` marks inputs that name a record only shop A has:
 * another shop must get 403/404 for them. Other inputs act on the caller's own shop.
 */
function sample(operation: AnyOperation): { input: Record<string, unknown>; foreign: boolean } {
  const samples: Record<string, [Record<string, unknown>, boolean]> = {
    'shop.get': [{}, false],
    'shop.sandbox.create': [{ name: 'security sandbox' }, false],
    'members.list': [{}, false],
    'members.add': [{ email: 'intruder@security.test', role: 'reader' }, false],
    'members.remove': [{ userId: h.shopA.userId }, true],
    'tokens.list': [{}, false],
    'tokens.create': [{ name: 'intruder', kind: 'api', role: 'reader' }, false],
    'tokens.revoke': [{ tokenId: shopATokenId }, true],
    'events.list': [{}, false],
    'events.status': [{}, false],
    'automation.list': [{}, false],
    'basis.languages.list': [{}, false],
    'basis.languages.save': [{ code: 'es', revision: 0, name: 'Español' }, false],
    'basis.languages.delete': [{ code: 'nl', revision: 1 }, true],
    'basis.currencies.list': [{}, false],
    'basis.currencies.save': [{ code: 'GBP', revision: 0, precision: 2, symbol: '£' }, false],
    'basis.currencies.delete': [{ code: 'USD', revision: 1 }, true],
    'basis.countries.list': [{}, false],
    'basis.countries.save': [{ code: 'FR', revision: 0, translations }, false],
    'basis.countries.delete': [{ code: 'AT', revision: 1 }, true],
    'basis.tax_classes.list': [{}, false],
    'basis.tax_classes.save': [
      { id: B_ONLY, revision: 0, translations, rates: [{ country: null, rate: 1900 }] },
      false,
    ],
    'basis.tax_classes.delete': [{ id: A_TAX_CLASS, revision: 1 }, true],
    'basis.shipping_methods.list': [{}, false],
    'basis.shipping_methods.save': [{ id: B_ONLY, revision: 0, translations }, false],
    'basis.shipping_methods.delete': [{ id: A_SHIPPING, revision: 1 }, true],
    'basis.payment_methods.list': [{}, false],
    'basis.payment_methods.save': [{ id: B_ONLY, revision: 0, translations, handler: 'invoice' }, false],
    'basis.payment_methods.delete': [{ id: A_PAYMENT, revision: 1 }, true],
  };
  const found = samples[operation.name];
  if (!found) throw new Error(`the security suite has no sample input for ${operation.name}: add one`);
  return { input: found[0], foreign: found[1] };
}

/** Records only shop A has, named by the `foreign` samples. */
async function seedShopA() {
  const A = h.shopA.token;
  const put = (path: string, body: unknown) => h.call('PUT', path, { token: A, body });
  const seeded = [
    await put('/api/basis/languages/nl', { revision: 0, name: 'Nederlands' }),
    await put('/api/basis/currencies/USD', { revision: 0, precision: 2, symbol: '$' }),
    await put('/api/basis/countries/AT', { revision: 0, translations }),
    await put(`/api/basis/tax-classes/${A_TAX_CLASS}`, {
      revision: 0,
      translations,
      rates: [{ country: null, rate: 1900 }],
    }),
    await put(`/api/basis/shipping-methods/${A_SHIPPING}`, { revision: 0, translations }),
    await put(`/api/basis/payment-methods/${A_PAYMENT}`, { revision: 0, translations, handler: 'invoice' }),
  ];
  for (const response of seeded) if (response.status !== 200) throw new Error(JSON.stringify(response.body));
}

function request(operation: AnyOperation, input: Record<string, unknown>) {
  const http = operation.http!;
  let path = http.path;
  const rest = { ...input };
  for (const [, name] of http.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    path = path.replace(`:${name}`, String(rest[name!]));
    delete rest[name!];
  }
  const body = http.method === 'GET' ? undefined : rest;
  return { method: http.method, path, body };
}

/** A digest of every row that belongs to shop A, in every tenant-owned table. */
async function snapshotOfShopA(): Promise<Record<string, string>> {
  const tables = await h.database.rows<{ table_name: string }>(sql`
    select table_name from information_schema.columns
    where column_name = 'tenant_id' and table_schema = current_schema() order by table_name`);
  const digest: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await h.database.rows<{ digest: string | null }>(
      // last_used_at moves whenever a token authenticates; everything else must stay as it was.
      sql`select md5(coalesce(string_agg((to_jsonb(t) - 'last_used_at')::text, '|' order by t::text), '')) as digest
          from ${sql.identifier(table_name)} t where tenant_id = ${h.shopA.tenantId}`,
    );
    digest[table_name] = row?.digest ?? '';
  }
  return digest;
}

/** An API token of shop A holding every permission except `missing`. */
async function tokenWithout(missing: string): Promise<string> {
  const created = await h.database.transaction((tx) =>
    createToken(
      tx,
      h.services,
      h.shopA.tenantId,
      { kind: 'system', process: 'test' },
      {
        name: `without ${missing}`,
        kind: 'api',
        role: 'admin',
        permissions: PERMISSIONS.filter((permission) => permission !== missing),
      },
    ),
  );
  if (!created.ok) throw new Error(created.detail);
  return created.value.token;
}

async function principalOf(token: string): Promise<Principal> {
  const result = await authenticate(h.services, token);
  if (!result.ok) throw new Error(result.detail);
  return result.value;
}

beforeAll(async () => {
  h = await createHarness();
  shopATokenId = (await principalOf(h.shopA.token)).tokenId;
  await seedShopA();
});
afterAll(async () => h?.close());

const routes = operations.filter((operation) => operation.http);
const guarded = operations.filter((operation) => permissionOf(operation));

describe('every route', () => {
  it('covers a non-empty registry', () => {
    expect(routes.length).toBeGreaterThan(5);
  });

  it.each(routes.map((operation) => [operation.name, operation] as const))(
    '%s answers 401 without a token, or with a malformed or revoked one',
    async (_name, operation) => {
      const before = await snapshotOfShopA();
      const { method, path, body } = request(operation, sample(operation).input);
      for (const token of [undefined, 'cw_api_nope', `${h.shopA.token}x`]) {
        const response = await h.call(method, path, { token, body });
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('UNAUTHENTICATED');
      }
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );

  it.each(routes.map((operation) => [operation.name, operation] as const))(
    '%s with a token of another shop neither reads nor changes this shop',
    async (_name, operation) => {
      const before = await snapshotOfShopA();
      const { method, path, body } = request(operation, sample(operation).input);
      const response = await h.call(method, path, { token: h.shopB.token, body });
      if (sample(operation).foreign) expect([403, 404]).toContain(response.status);
      const text = JSON.stringify(response.body);
      expect(text).not.toContain(h.shopA.tenantId);
      expect(text).not.toContain(h.shopA.userId);
      expect(text).not.toContain(shopATokenId);
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );

  it.each(
    routes
      .filter((operation) => permissionOf(operation))
      .map((operation) => [operation.name, operation] as const),
  )('%s answers 403 to a token without its permission and changes nothing', async (_name, operation) => {
    const token = await tokenWithout(permissionOf(operation)!);
    const before = await snapshotOfShopA();
    const { method, path, body } = request(operation, sample(operation).input);
    const response = await h.call(method, path, { token, body });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN');
    expect(await snapshotOfShopA()).toEqual(before);
  });
});

describe('every MCP tool', () => {
  async function connect(principal: Principal): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.services, principal).connect(serverSide);
    const client = new Client({ name: 'security-suite', version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  }

  it('/mcp answers 401 without a token or with another shop’s forged one', async () => {
    for (const token of [undefined, 'cw_api_nope', `${h.shopB.token}x`]) {
      const response = await h.call('POST', '/mcp', {
        token,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHENTICATED');
    }
  });

  it('lists every operation as a tool', async () => {
    const client = await connect(await principalOf(h.shopA.token));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      operations.map((operation) => operation.name).sort(),
    );
    await client.close();
  });

  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s called by another shop neither reads nor changes this shop',
    async (_name, operation) => {
      const client = await connect(await principalOf(h.shopB.token));
      const before = await snapshotOfShopA();
      const { input, foreign } = sample(operation);
      const result = await client.callTool({ name: operation.name, arguments: input });
      const text = JSON.stringify(result);
      expect(text).not.toContain(h.shopA.tenantId);
      expect(text).not.toContain(h.shopA.userId);
      expect(text).not.toContain(shopATokenId);
      if (foreign) {
        expect(result.isError).toBe(true);
        expect(['FORBIDDEN', 'NOT_FOUND']).toContain((result.structuredContent as { code: string }).code);
      }
      expect(await snapshotOfShopA()).toEqual(before);
      await client.close();
    },
  );

  it.each(guarded.map((operation) => [operation.name, operation] as const))(
    '%s refuses a caller without its permission with FORBIDDEN',
    async (_name, operation) => {
      const client = await connect(await principalOf(await tokenWithout(permissionOf(operation)!)));
      const before = await snapshotOfShopA();
      const result = await client.callTool({ name: operation.name, arguments: sample(operation).input });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as { code: string }).code).toBe('FORBIDDEN');
      expect(await snapshotOfShopA()).toEqual(before);
      await client.close();
    },
  );
});
