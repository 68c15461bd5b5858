import { readFileSync } from 'node:fs';
import { createMcpServer } from '@cartwright/mcp';
import { authenticate, createWorkerAppSandbox } from '@cartwright/service';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// App actions through every door (issue 15, item 4): the loyalty example installed unchanged with
// its module; its actions over /api (and the legacy entity routes), /store-api (only the public
// list) and MCP (only `mcp: true` actions, the list following installs); the four access
// decisions: a reader, another shop, a public caller, an MCP client without the flag.

const read = (path: string) =>
  readFileSync(new URL(`../../../examples/apps/loyalty/${path}`, import.meta.url), 'utf8');
const manifest = JSON.parse(read('manifest.json')) as Record<string, unknown> & {
  entities: { id: string; fields: Record<string, unknown>[] }[];
};
const module = read('module.js');

const sandbox = createWorkerAppSandbox();
let h: Harness;
let channelKey: string;
let customerId: string;

type Reply = { status: number; body: Record<string, unknown> };
const as = (token: string) => (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token, body });
const staff = (method: string, path: string, body?: unknown) => as(h.shopA.token)(method, path, body);
const store = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { body, headers: { 'x-channel-key': channelKey } });
function expectOk(response: Reply, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}
function expectProblem(response: Reply, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
  return response.body;
}
const action = (id: string, body?: unknown) => staff('POST', `/api/apps/loyalty/actions/${id}`, body);

async function tokenWithRole(role: 'reader' | 'editor'): Promise<string> {
  const created = expectOk(await staff('POST', '/api/tokens', { name: role, kind: 'api', role }), 201);
  return created.token as string;
}

beforeAll(async () => {
  h = await createHarness({ ports: { sandbox } });
  channelKey = (await h.sellableTea()).channelKey;
  customerId = expectOk(
    await staff('POST', '/api/customers', { email: 'ada@a.test', firstName: 'Ada', lastName: 'L' }),
    201,
  ).id as string;
  expectOk(await staff('PUT', '/api/apps/loyalty', { revision: 0, manifest, module }));
});
afterAll(async () => {
  await sandbox.close();
  await h?.close();
});

describe('installing with a module', () => {
  it('needs the module exactly when actions run in it', async () => {
    const missing = expectProblem(
      await as(h.shopB.token)('PUT', '/api/apps/loyalty', { revision: 0, manifest }),
      422,
      'VALIDATION_FAILED',
    );
    expect(missing.errors).toEqual([
      { pointer: '/module', message: 'its module actions need the module source' },
    ]);
    const {
      actions,
      schedules: _schedules,
      ...rest
    } = manifest as unknown as { actions: { kind: string }[]; schedules: unknown[] };
    const withoutModuleActions = {
      ...rest,
      actions: actions.filter((item) => item.kind !== 'service'),
      blocks: [],
      schedules: [],
      intelligence: { tools: [] },
      webhooks: [],
    };
    expectProblem(
      await as(h.shopB.token)('PUT', '/api/apps/loyalty', {
        revision: 0,
        manifest: withoutModuleActions,
        module,
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(expectOk(await as(h.shopB.token)('GET', '/api/apps')).items).toEqual([]);
  });
});

describe('entity actions over /api', () => {
  it('creates, lists with filters, gets, updates at a revision and deletes records', async () => {
    const note = expectOk(
      await action('add_note', { customer_id: customerId, body: 'Prefers tea', tier: 'gold' }),
    );
    expect(note).toMatchObject({
      entity: 'note',
      revision: 1,
      data: { customer_id: customerId, body: 'Prefers tea', tier: 'gold', points: null, follow_up_on: null },
    });
    const other = expectOk(
      await action('add_note', { customer_id: customerId, body: 'Second', tier: 'bronze' }),
    );

    const gold = expectOk(await action('list', { filter: { tier: 'gold' } }));
    expect((gold.items as { id: string }[]).map((item) => item.id)).toEqual([note.id]);
    const paged = expectOk(await action('list', { limit: 1 }));
    expect(paged.items).toHaveLength(1);
    const rest = expectOk(await action('list', { limit: 1, after: paged.next }));
    expect((rest.items as { id: string }[])[0]!.id).toBe(other.id);
    expect(rest.next).toBeNull();
    // Only indexable fields filter, with values of their type.
    expectProblem(await action('list', { filter: { body: 'Prefers tea' } }), 422, 'VALIDATION_FAILED');
    expectProblem(await action('list', { filter: { tier: 'platinum' } }), 422, 'VALIDATION_FAILED');

    expect(expectOk(await action('get_note', { id: note.id }))).toEqual(note);
    const updated = expectOk(
      await action('update_note', { id: note.id, revision: 1, data: { points: 250 } }),
    );
    expect(updated).toMatchObject({ revision: 2, data: { points: 250, body: 'Prefers tea' } });
    expectProblem(
      await action('update_note', { id: note.id, revision: 1, data: { points: 1 } }),
      409,
      'STALE_REVISION',
    );
    expectProblem(
      await action('update_note', { id: note.id, revision: 2, data: { body: null } }),
      422,
      'VALIDATION_FAILED',
    );
    expect(expectOk(await action('delete_note', { id: other.id, revision: 1 }))).toEqual({
      id: other.id,
      deleted: true,
    });
    expectProblem(await action('get_note', { id: other.id }), 404, 'NOT_FOUND');
  });

  it('refuses values that do not fit the declared types, and core references to nothing', async () => {
    const typed = expectProblem(
      await action('add_note', {
        customer_id: customerId,
        body: 'x',
        tier: 'platinum',
        points: -1,
        extra: 1,
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect((typed.errors as { pointer: string }[]).map((error) => error.pointer).sort()).toEqual([
      '/extra',
      '/points',
      '/tier',
    ]);
    const nobody = expectProblem(
      await action('add_note', { customer_id: '0190f0f0-0000-7000-8000-000000000000', body: 'x' }),
      422,
      'VALIDATION_FAILED',
    );
    expect(nobody.errors).toEqual([{ pointer: '/customer_id', message: 'no such customer in this shop' }]);
    // Shop B's customer is not a customer of shop A.
    const theirs = expectOk(
      await as(h.shopB.token)('POST', '/api/customers', { email: 'b@b.test', firstName: 'B', lastName: 'B' }),
      201,
    );
    expectProblem(await action('add_note', { customer_id: theirs.id, body: 'x' }), 422, 'VALIDATION_FAILED');
    expectProblem(await action('no_such_action', {}), 404, 'APP_ACTION_NOT_FOUND');
  });

  it('reads a block bound to a context only with that context, never unfiltered', async () => {
    expectProblem(await action('list', { block: 'customer_notes' }), 422, 'APP_CONTEXT_REQUIRED');
    const bound = expectOk(await action('list', { block: 'customer_notes', context: { customerId } }));
    for (const item of bound.items as { data: { customer_id: string } }[]) {
      expect(item.data.customer_id).toBe(customerId);
    }
    const elsewhere = expectOk(
      await action('list', {
        block: 'customer_notes',
        context: { customerId: '0190f0f0-0000-7000-8000-000000000000' },
      }),
    );
    expect(elsewhere.items).toEqual([]);
  });

  it('serves the legacy entity routes with the same actions and scopes', async () => {
    const created = expectOk(
      await staff('POST', '/api/apps/loyalty/entities/note', { customer_id: customerId, body: 'Legacy' }),
      201,
    );
    const listed = expectOk(await staff('GET', '/api/apps/loyalty/entities/note?limit=100'));
    expect((listed.items as { id: string }[]).map((item) => item.id)).toContain(created.id);
    expect(expectOk(await staff('GET', `/api/apps/loyalty/entities/note/${created.id}`)).id).toBe(created.id);
    expectOk(
      await staff('PATCH', `/api/apps/loyalty/entities/note/${created.id}`, {
        revision: 1,
        data: { tier: 'silver' },
      }),
    );
    expectOk(await staff('DELETE', `/api/apps/loyalty/entities/note/${created.id}?revision=2`));
    // faq declares no get, update or delete action: its legacy routes grant nothing.
    expectProblem(
      await staff('GET', '/api/apps/loyalty/entities/faq/0190f0f0-0000-7000-8000-000000000000'),
      404,
      'APP_ACTION_NOT_FOUND',
    );
  });
});

describe('the sandboxed module', () => {
  it('scores a customer through the module, inputs and outputs checked', async () => {
    expect(expectOk(await action('score', { customer_id: customerId, order_count: 5, points: 300 }))).toEqual(
      {
        score: 53,
        tier: 'silver',
      },
    );
    expect(
      expectOk(await action('score', { customer_id: customerId, order_count: 9, points: 1000 })),
    ).toEqual({
      score: 100,
      tier: 'gold',
    });
    expectProblem(await action('score', { customer_id: customerId }), 422, 'VALIDATION_FAILED');
  });

  it('emits app.<app>.<action> for an emitting action', async () => {
    expect(expectOk(await action('digest', { days: 7 }))).toEqual({
      window_days: 7,
      title: 'Follow-ups due in the next 7 days',
    });
    const events = expectOk(await staff('GET', '/api/events?limit=100'));
    const names = (events.items as { name: string }[]).map((event) => event.name);
    expect(names).toContain('app.loyalty.digest');
    expect(names).toContain('app.loyalty.add_note');
  });
});

describe('public actions over /store-api', () => {
  it('serves the public list and nothing else', async () => {
    expectOk(
      await action('add_faq', { question: 'How do I earn points?', answer: 'By ordering.', position: 1 }),
    );
    const faq = expectOk(await store('POST', '/store-api/apps/loyalty/actions/list_faq', {}));
    expect((faq.items as { data: { question: string } }[]).map((item) => item.data.question)).toEqual([
      'How do I earn points?',
    ]);
    expect(expectOk(await store('GET', '/store-api/apps/loyalty/entities/faq')).items).toEqual(faq.items);
    for (const id of ['list', 'get_note', 'add_note', 'add_faq', 'score', 'nothing']) {
      expectProblem(
        await store('POST', `/store-api/apps/loyalty/actions/${id}`, {}),
        404,
        'APP_ACTION_NOT_FOUND',
      );
    }
    expectProblem(await store('GET', '/store-api/apps/loyalty/entities/note'), 404, 'APP_ACTION_NOT_FOUND');
    // An app that is not installed looks the same as an action that is not public.
    expectProblem(await store('POST', '/store-api/apps/other/actions/list', {}), 404, 'APP_ACTION_NOT_FOUND');
    // Without a channel key there is no storefront caller at all.
    expect((await h.call('POST', '/store-api/apps/loyalty/actions/list_faq', { body: {} })).status).toBe(401);
  });
});

describe('the four access decisions', () => {
  it('lets a reader list and get but not save or invoke service actions; an editor may', async () => {
    const reader = as(await tokenWithRole('reader'));
    expect(expectOk(await reader('POST', '/api/apps/loyalty/actions/list', {})).items).toBeDefined();
    for (const [id, body] of [
      ['add_note', { customer_id: customerId, body: 'no' }],
      ['score', { customer_id: customerId, order_count: 1 }],
    ] as const) {
      const refused = expectProblem(
        await reader('POST', `/api/apps/loyalty/actions/${id}`, body),
        403,
        'FORBIDDEN',
      );
      expect(refused.permission).toBe('apps.write');
    }
    expectProblem(
      await reader('POST', '/api/apps/loyalty/entities/note', { customer_id: customerId, body: 'no' }),
      403,
      'FORBIDDEN',
    );
    const editor = as(await tokenWithRole('editor'));
    expectOk(
      await editor('POST', '/api/apps/loyalty/actions/add_note', { customer_id: customerId, body: 'Editor' }),
    );
    // Installing stays with owners and administrators.
    expectProblem(await editor('DELETE', '/api/apps/loyalty?revision=1'), 403, 'FORBIDDEN');
  });

  it('never shows one shop another shop’s app data', async () => {
    const b = as(h.shopB.token);
    expectProblem(await b('POST', '/api/apps/loyalty/actions/list', {}), 409, 'APP_NOT_INSTALLED');
    expectOk(await b('PUT', '/api/apps/loyalty', { revision: 0, manifest, module }));
    expect(expectOk(await b('POST', '/api/apps/loyalty/actions/list', {})).items).toEqual([]);
    const ours = expectOk(await action('list', { limit: 1 }));
    const id = (ours.items as { id: string }[])[0]!.id;
    expectProblem(await b('POST', '/api/apps/loyalty/actions/get_note', { id }), 404, 'NOT_FOUND');
    expectProblem(
      await b('POST', '/api/apps/loyalty/actions/update_note', { id, revision: 1, data: {} }),
      404,
      'NOT_FOUND',
    );
    expectProblem(
      await b('POST', '/api/apps/loyalty/actions/delete_note', { id, revision: 1 }),
      404,
      'NOT_FOUND',
    );
    expectOk(await b('DELETE', '/api/apps/loyalty?revision=1&purge=true'));
    expect(expectOk(await action('get_note', { id })).id).toBe(id);
  });

  it('offers MCP tools for flagged actions only, following installs', async () => {
    const principal = await authenticate(h.services, h.shopA.token);
    if (!principal.ok) throw new Error(principal.detail);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.services, principal.value).connect(serverSide);
    const client = new Client({ name: 'app-tools-test', version: '1.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    await client.connect(clientSide);
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);

    const listed = await names();
    expect(listed).toContain('app.loyalty.list');
    expect(listed.filter((name) => name.startsWith('app.'))).toEqual(['app.loyalty.list']);
    const tool = (await client.listTools()).tools.find((item) => item.name === 'app.loyalty.list')!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    const result = (await client.callTool({ name: 'app.loyalty.list', arguments: { limit: 100 } })) as {
      isError?: boolean;
      structuredContent?: { items: unknown[] };
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.items.length).toBeGreaterThan(0);
    // Without the flag the action is no tool, called by name or not.
    const hidden = (await client.callTool({
      name: 'app.loyalty.add_note',
      arguments: { customer_id: customerId, body: 'via MCP' },
    })) as { isError?: boolean; structuredContent?: { code: string } };
    expect(hidden.isError).toBe(true);
    expect(hidden.structuredContent!.code).toBe('APP_ACTION_NOT_FOUND');

    // The merchant may expose it; then it is a tool.
    const revision = (expectOk(await staff('GET', '/api/apps')).items as { revision: number }[])[0]!.revision;
    const configured = (await client.callTool({
      name: 'apps.actions.configure',
      arguments: { appId: 'loyalty', actionId: 'score', revision, mcp: true },
    })) as { isError?: boolean };
    expect(configured.isError).toBeFalsy();
    expect(await names()).toContain('app.loyalty.score');

    const uninstalled = (await client.callTool({
      name: 'apps.uninstall',
      arguments: { appId: 'loyalty', revision: revision + 1 },
    })) as { isError?: boolean };
    expect(uninstalled.isError).toBeFalsy();
    await expect.poll(() => changes).toBeGreaterThanOrEqual(2);
    expect((await names()).filter((name) => name.startsWith('app.'))).toEqual([]);
    const gone = (await client.callTool({ name: 'app.loyalty.list', arguments: {} })) as {
      isError?: boolean;
      structuredContent?: { code: string };
    };
    expect(gone.structuredContent!.code).toBe('APP_NOT_INSTALLED');
    await client.close();
    // Reinstall (records were kept) for the tests after this one.
    expectOk(await staff('PUT', '/api/apps/loyalty', { revision: 0, manifest, module }));
  });
});

describe('a compatible upgrade', () => {
  it('adds a nullable field that old records read as null', async () => {
    const [note, ...others] = manifest.entities;
    const next = {
      ...manifest,
      version: '1.1.0',
      entities: [
        { ...note!, fields: [...note!.fields, { name: 'channel', type: 'string', maxLength: 40 }] },
        ...others,
      ],
    };
    const revision = (expectOk(await staff('GET', '/api/apps')).items as { revision: number }[])[0]!.revision;
    expectOk(await staff('PUT', '/api/apps/loyalty', { revision, manifest: next, module }));
    const listed = expectOk(await action('list', { limit: 100 }));
    expect(listed.items).not.toEqual([]);
    for (const item of listed.items as { data: Record<string, unknown> }[])
      expect(item.data.channel).toBeNull();
    const catalog = expectOk(await staff('GET', '/api/app-catalog'));
    expect(catalog.items).toEqual([
      expect.objectContaining({ appId: 'email_delivery', version: '1.0.0', installedVersion: null }),
    ]);
    const tools = expectOk(await staff('GET', '/api/app-tools'));
    expect((tools.items as { actionId: string }[]).map((item) => item.actionId)).toEqual(['list', 'score']);
  });
});
