import { operations } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('health', () => {
  it('answers /healthz and /readyz without a token', async () => {
    expect((await h.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await h.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.storage).toBe(h.database.kind);
  });
});

describe('openapi', () => {
  it('documents every HTTP operation of the registry, with its MCP tool name', async () => {
    const { status, body } = await h.call('GET', '/api/openapi.json', { token: h.shopA.token });
    expect(status).toBe(200);
    const paths = body.paths as Record<string, Record<string, { operationId: string; 'x-mcp-tool': string }>>;
    const documented = Object.values(paths).flatMap((methods) =>
      Object.values(methods).map((m) => m.operationId),
    );
    const expected = operations.filter((operation) => operation.http).map((operation) => operation.name);
    expect(documented.sort()).toEqual(expected.sort());
    expect(paths['/api/tokens/{tokenId}']?.delete?.['x-mcp-tool']).toBe('tokens.revoke');
  });
});

describe('shop and starters', () => {
  it('tells the caller which shop and role it holds', async () => {
    const { body } = await h.call('GET', '/api/shop', { token: h.shopA.token });
    expect((body.shop as { id: string }).id).toBe(h.shopA.tenantId);
    expect((body.caller as { role: string }).role).toBe('owner');
  });

  it('lists exactly the starter definitions of a new shop', async () => {
    const { body } = await h.call('GET', '/api/automation', { token: h.shopA.token });
    const keys = (list: unknown) => (list as { key: string }[]).map((item) => item.key).sort();
    expect(keys(body.rules)).toEqual([
      'default_all_orders',
      'default_business_customers',
      'default_cart_100',
    ]);
    expect(keys(body.flows)).toEqual(['default_order_received', 'default_payment_received']);
    expect(body.promotions).toEqual([]);
    expect(keys(body.channels)).toEqual(['main_storefront']);
    const triggers = (body.flows as { data: { trigger: string } }[]).map((flow) => flow.data.trigger).sort();
    expect(triggers).toEqual(['order.placed', 'payment.captured']);
  });

  it('creates a sandbox that copies the current definitions', async () => {
    const created = await h.call('POST', '/api/shop/sandboxes', { token: h.shopA.token, body: {} });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    const shop = await h.call('GET', '/api/shop', { token });
    expect((shop.body.shop as { stage: string }).stage).toBe('sandbox');
    const original = await h.call('GET', '/api/automation', { token: h.shopA.token });
    const copy = await h.call('GET', '/api/automation', { token });
    const ids = (body: Record<string, unknown>) =>
      (body.rules as { id: string }[]).map((rule) => rule.id).sort();
    expect(ids(copy.body)).toEqual(ids(original.body));
  });
});

describe('tokens', () => {
  it('creates a token shown once, lists it without the secret, and revokes it', async () => {
    const created = await h.call('POST', '/api/tokens', {
      token: h.shopA.token,
      body: { name: 'ci', kind: 'api', role: 'reader' },
    });
    expect(created.status).toBe(201);
    const secret = created.body.token as string;
    expect(secret).toMatch(/^cw_api_/);
    const id = (created.body.details as { id: string }).id;

    const asReader = await h.call('GET', '/api/shop', { token: secret });
    expect((asReader.body.caller as { role: string }).role).toBe('reader');

    const listed = await h.call('GET', '/api/tokens?limit=100', { token: h.shopA.token });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect((listed.body.items as { id: string }[]).some((item) => item.id === id)).toBe(true);

    const revoked = await h.call('DELETE', `/api/tokens/${id}`, { token: h.shopA.token });
    expect(revoked.status).toBe(200);
    expect((await h.call('GET', '/api/shop', { token: secret })).status).toBe(401);
    expect((await h.call('DELETE', `/api/tokens/${id}`, { token: h.shopA.token })).status).toBe(404);
  });

  it('pages through tokens with limit and after', async () => {
    for (const name of ['p1', 'p2', 'p3']) {
      await h.call('POST', '/api/tokens', {
        token: h.shopA.token,
        body: { name, kind: 'api', role: 'reader' },
      });
    }
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const query: string = after ? `?limit=2&after=${after}` : '?limit=2';
      const page = await h.call('GET', `/api/tokens${query}`, { token: h.shopA.token });
      const items = page.body.items as { id: string }[];
      expect(items.length).toBeLessThanOrEqual(2);
      seen.push(...items.map((item) => item.id));
      after = page.body.next as string | null;
    } while (after);
    const all = await h.call('GET', '/api/tokens?limit=100', { token: h.shopA.token });
    expect(seen).toEqual((all.body.items as { id: string }[]).map((item) => item.id));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('members', () => {
  it('adds a reader whose personal token works until the membership is removed', async () => {
    const added = await h.call('POST', '/api/members', {
      token: h.shopA.token,
      body: { email: 'reader@a.test', role: 'reader' },
    });
    expect(added.status).toBe(201);
    const userId = added.body.userId as string;
    const personal = await h.call('POST', '/api/tokens', {
      token: h.shopA.token,
      body: { name: 'reader laptop', kind: 'personal', userId },
    });
    const token = personal.body.token as string;
    expect((await h.call('GET', '/api/automation', { token })).status).toBe(200);
    expect((await h.call('GET', '/api/members', { token })).status).toBe(403);
    expect((await h.call('DELETE', `/api/members/${userId}`, { token: h.shopA.token })).status).toBe(200);
    expect((await h.call('GET', '/api/automation', { token })).status).toBe(401);
  });
});

describe('events', () => {
  it('lists committed events in sequence order and pages with after', async () => {
    const first = await h.call('GET', '/api/events?limit=2', { token: h.shopA.token });
    const items = first.body.items as { sequence: number; name: string }[];
    expect(items.map((item) => item.sequence)).toEqual([1, 2]);
    const rest = await h.call('GET', `/api/events?after=${first.body.next}&limit=100`, {
      token: h.shopA.token,
    });
    expect((rest.body.items as { sequence: number }[])[0]?.sequence).toBe(3);
    const named = await h.call('GET', '/api/events?name=shop.created', { token: h.shopA.token });
    expect((named.body.items as { name: string }[]).map((item) => item.name)).toEqual(['shop.created']);
  });
});
