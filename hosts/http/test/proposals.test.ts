import { readFileSync } from 'node:fs';
import { consumeOnce, flowMatchingProjection, runDueJobs } from '@cartwright/service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// AI proposals over HTTP (issue 19, item 5; decision 0046): a plan of three operations (set a
// record of the loyalty app, publish a co-purchase pair, save a rule) approved after its record
// changed applies nothing and is marked stale; approved fresh, all three apply in one transaction
// (a refused last operation leaves the first unapplied); the approver's rights are rechecked; a
// flow's ai_proposal step stores a pending proposal; another shop sees nothing.

const read = (path: string) =>
  readFileSync(new URL(`../../../examples/apps/loyalty/${path}`, import.meta.url), 'utf8');

let h: Harness;
let customerId: string;
let products: string[];
let channelKey: string;
let teaId: string;

const staff = (method: string, path: string, body?: unknown, token = h.shopA.token) =>
  h.call(method, path, { token, body });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

interface Note {
  id: string;
  revision: number;
  data: Record<string, unknown>;
}
interface Pair {
  id: string;
  revision: number;
  status: string;
  productA: { id: string };
  productB: { id: string };
}

async function addNote(body: string): Promise<Note> {
  return expectOk(
    await staff('POST', '/api/apps/loyalty/actions/add_note', { customer_id: customerId, body }),
  ) as unknown as Note;
}
async function note(id: string): Promise<Note> {
  return expectOk(await staff('POST', '/api/apps/loyalty/actions/get_note', { id })) as unknown as Note;
}
async function loyalty(): Promise<{ version: string; revision: number }> {
  const apps = expectOk(await staff('GET', '/api/apps')).items as {
    appId: string;
    version: string;
    revision: number;
  }[];
  return apps.find((app) => app.appId === 'loyalty')!;
}
/** The pair of two of the test's products, as the merchant review lists it. */
async function pair(a: string, b: string): Promise<Pair> {
  const items = expectOk(await staff('GET', '/api/intelligence')).items as Pair[];
  const found = items.find((item) => {
    const ids = [item.productA.id, item.productB.id];
    return ids.includes(a) && ids.includes(b);
  });
  if (!found) throw new Error(`no pair of ${a} and ${b}`);
  return found;
}
async function rule(id: string): Promise<{ revision: number; active: boolean; data: unknown } | undefined> {
  const rules = expectOk(await staff('GET', '/api/automation')).rules as {
    id: string;
    revision: number;
    active: boolean;
    data: unknown;
  }[];
  return rules.find((item) => item.id === id);
}

const ruleData = (amount: number) => ({
  name: { en: `Carts from ${amount}` },
  condition: { type: 'cartCartAmount', value: { operator: '>=', amount } },
});

/** A plan of the three kinds, as an assistant would make it from what it read just now. */
async function threeOperations(target: Note, hypothesis: Pair, ruleId: string, condition?: unknown) {
  const app = await loyalty();
  return [
    {
      kind: 'apps.record.set',
      appId: 'loyalty',
      appVersion: app.version,
      appRevision: app.revision,
      entity: 'note',
      recordId: target.id,
      revision: target.revision,
      data: { body: 'Offer the tea bundle', tier: 'gold' },
    },
    { kind: 'intelligence.publish_pair', hypothesisId: hypothesis.id, revision: hypothesis.revision },
    {
      kind: 'automation.save_rule',
      ruleId,
      revision: 0,
      data: condition ? { name: { en: 'Referencing' }, condition } : ruleData(40),
    },
  ];
}

async function propose(operations: unknown[], token = h.shopA.token) {
  return staff(
    'POST',
    '/api/intelligence/proposals',
    { summary: 'Bundle tea', reason: 'Often bought together', operations },
    token,
  );
}

async function tokenWithout(missing: string): Promise<string> {
  const all = [
    'settings.read',
    'settings.write',
    'catalog.read',
    'catalog.write',
    'customers.read',
    'customers.write',
    'orders.read',
    'orders.write',
    'apps.read',
    'apps.write',
  ];
  const created = expectOk(
    await staff('POST', '/api/tokens', {
      name: `without ${missing}`,
      kind: 'api',
      role: 'admin',
      permissions: all.filter((permission) => permission !== missing),
    }),
    201,
  );
  return created.token as string;
}

async function eventNames(after: number): Promise<string[]> {
  const rows = await h.database.rows<{ name: string }>(
    sql`select name from outbox_events where tenant_id = ${h.shopA.tenantId} and sequence > ${after} order by sequence`,
  );
  return rows.map((row) => row.name);
}
async function lastSequence(): Promise<number> {
  const [row] = await h.database.rows<{ max: string | number | null }>(
    sql`select max(sequence) as max from outbox_events where tenant_id = ${h.shopA.tenantId}`,
  );
  return Number(row?.max ?? 0);
}

const RULE = (n: number) => `0190f0c8-0000-7000-8000-0000000e${String(n).padStart(4, '0')}`;

beforeAll(async () => {
  h = await createHarness();
  ({ productId: teaId, channelKey } = await h.sellableTea());
  expectOk(
    await staff('PUT', '/api/apps/loyalty', {
      revision: 0,
      manifest: JSON.parse(read('manifest.json')),
      module: read('module.js'),
    }),
  );
  customerId = expectOk(
    await staff('POST', '/api/customers', {
      email: 'buyer@a.test',
      password: 'buyer-password',
      firstName: 'Bea',
      lastName: 'Buyer',
    }),
    201,
  ).id as string;
  products = [];
  for (const sku of ['CUP', 'POT', 'LID']) {
    const created = expectOk(
      await staff('POST', '/api/catalog/products', { sku, translations: { en: { name: sku } } }),
      201,
    );
    products.push(((created.product ?? created) as { id: string }).id);
  }
  // The merchant's own (manual) baskets: three pairs, publishable in a live shop.
  expectOk(
    await staff('POST', '/api/intelligence/simulations', {
      source: 'manual',
      baskets: [products, products, [products[0], products[1]]],
    }),
    201,
  );
});
afterAll(async () => h?.close());

describe('a proposal of three operations', () => {
  it('approved after one of its app records changed: nothing applied, marked stale, a second approval refused', async () => {
    const target = await addNote('Call back');
    const hypothesis = await pair(products[0]!, products[1]!);
    const created = expectOk(await propose(await threeOperations(target, hypothesis, RULE(1))), 201);
    expect(created).toMatchObject({
      status: 'pending',
      summary: 'Bundle tea',
      reason: 'Often bought together',
      createdBy: { kind: 'token' },
    });
    // The merchant edits the note after the plan read it.
    expectOk(
      await staff('POST', '/api/apps/loyalty/actions/update_note', {
        id: target.id,
        revision: target.revision,
        data: { body: 'Changed by hand' },
      }),
    );
    const before = await lastSequence();
    const approved = await staff('POST', `/api/intelligence/proposals/${created.id}/approve`);
    expect(approved.status).toBe(409);
    expect(approved.type).toContain('application/problem+json');
    expect(approved.body.code).toBe('PROPOSAL_STALE');
    expect(approved.body.stale).toEqual([
      expect.objectContaining({
        operation: 0,
        kind: 'apps.record.set',
        expected: expect.objectContaining({ revision: target.revision }),
        actual: expect.objectContaining({ revision: target.revision + 1 }),
      }),
    ]);
    // All three targets as they were: the note as the merchant left it, the pair unpublished, no rule.
    expect(await note(target.id)).toMatchObject({
      revision: target.revision + 1,
      data: { body: 'Changed by hand', tier: null },
    });
    expect(await pair(products[0]!, products[1]!)).toMatchObject({
      revision: hypothesis.revision,
      status: hypothesis.status,
    });
    expect(await rule(RULE(1))).toBeUndefined();
    expect(await eventNames(before)).toEqual(['intelligence.proposal.stale']);
    const stored = expectOk(await staff('GET', `/api/intelligence/proposals/${created.id}`));
    expect(stored).toMatchObject({
      status: 'stale',
      decision: { stale: [expect.objectContaining({ operation: 0 })] },
    });
    const again = await staff('POST', `/api/intelligence/proposals/${created.id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'PROPOSAL_DECIDED', proposalStatus: 'stale' });
  });

  it('approved fresh: all three applied with their events; a second approval refused', async () => {
    const target = await addNote('Call back');
    const hypothesis = await pair(products[0]!, products[1]!);
    const created = expectOk(await propose(await threeOperations(target, hypothesis, RULE(2))), 201);
    const before = await lastSequence();
    const approved = expectOk(await staff('POST', `/api/intelligence/proposals/${created.id}/approve`));
    expect(approved).toMatchObject({ status: 'approved', decidedBy: { kind: 'token' } });
    expect((approved.decision as { results: unknown[] }).results).toHaveLength(3);
    expect(await note(target.id)).toMatchObject({
      revision: target.revision + 1,
      data: { body: 'Offer the tea bundle', tier: 'gold', customer_id: customerId },
    });
    expect(await pair(products[0]!, products[1]!)).toMatchObject({
      revision: hypothesis.revision + 1,
      status: 'published',
    });
    expect(await rule(RULE(2))).toMatchObject({ revision: 1, active: true, data: ruleData(40) });
    expect(await eventNames(before)).toEqual([
      'intelligence.hypothesis.reviewed',
      'automation.rule.saved',
      'intelligence.proposal.approved',
    ]);
    const again = await staff('POST', `/api/intelligence/proposals/${created.id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'PROPOSAL_DECIDED', proposalStatus: 'approved' });
    const rejected = await staff('POST', `/api/intelligence/proposals/${created.id}/reject`, {});
    expect(rejected.body.code).toBe('PROPOSAL_DECIDED');
  });

  it('applies all or nothing: a last operation refused while applying leaves the first two unapplied', async () => {
    // The plan's rule names a rule the merchant deactivates after the plan was made: the plan is
    // not stale (it never named that rule), but its rule save is refused when it applies.
    const referenced = RULE(3);
    expectOk(await staff('PUT', `/api/automation/rules/${referenced}`, { revision: 0, data: ruleData(10) }));
    const target = await addNote('Call back');
    const hypothesis = await pair(products[1]!, products[2]!);
    const created = expectOk(
      await propose(
        await threeOperations(target, hypothesis, RULE(4), { type: 'ruleReference', ruleId: referenced }),
      ),
      201,
    );
    expectOk(
      await staff('PUT', `/api/automation/rules/${referenced}`, {
        revision: 1,
        active: false,
        data: ruleData(10),
      }),
    );
    const before = await lastSequence();
    const approved = await staff('POST', `/api/intelligence/proposals/${created.id}/approve`);
    expect(approved.status).toBe(422);
    expect(approved.body).toMatchObject({ code: 'RULE_REFERENCE_DISABLED', operation: 2 });
    expect(await note(target.id)).toMatchObject({ revision: target.revision, data: { body: 'Call back' } });
    expect(await pair(products[1]!, products[2]!)).toMatchObject({
      revision: hypothesis.revision,
      status: hypothesis.status,
    });
    expect(await rule(RULE(4))).toBeUndefined();
    expect(await eventNames(before)).toEqual([]);
    expect(expectOk(await staff('GET', `/api/intelligence/proposals/${created.id}`)).status).toBe('pending');
  });

  it('rechecks the approver’s rights: without apps.write nothing applies and the proposal stays pending', async () => {
    const target = await addNote('Call back');
    const hypothesis = await pair(products[0]!, products[2]!);
    const operations = await threeOperations(target, hypothesis, RULE(5));
    const limited = await tokenWithout('apps.write');
    const refusedToMake = await propose(operations, limited);
    expect(refusedToMake.status).toBe(403);
    expect(refusedToMake.body).toMatchObject({ code: 'FORBIDDEN', permission: 'apps.write', operation: 0 });
    const created = expectOk(await propose(operations), 201);
    const approved = await staff(
      'POST',
      `/api/intelligence/proposals/${created.id}/approve`,
      undefined,
      limited,
    );
    expect(approved.status).toBe(403);
    expect(approved.body).toMatchObject({ code: 'FORBIDDEN', permission: 'apps.write', operation: 0 });
    const withoutSettings = await tokenWithout('settings.write');
    expect(
      (await staff('POST', `/api/intelligence/proposals/${created.id}/approve`, undefined, withoutSettings))
        .status,
    ).toBe(403);
    expect(await note(target.id)).toMatchObject({ revision: target.revision });
    expect(await rule(RULE(5))).toBeUndefined();
    expect(expectOk(await staff('GET', `/api/intelligence/proposals/${created.id}`)).status).toBe('pending');
    // Rejected, it never applies.
    const rejected = expectOk(
      await staff('POST', `/api/intelligence/proposals/${created.id}/reject`, { note: 'Not this week' }),
    );
    expect(rejected).toMatchObject({ status: 'rejected', decision: { note: 'Not this week' } });
    expect((await staff('POST', `/api/intelligence/proposals/${created.id}/approve`)).body.code).toBe(
      'PROPOSAL_DECIDED',
    );
  });

  it('refuses to store a plan that is stale already or names one target twice', async () => {
    const target = await addNote('Call back');
    const hypothesis = await pair(products[0]!, products[1]!);
    const [setRecord] = await threeOperations(target, hypothesis, RULE(6));
    const stale = await propose([{ ...setRecord, revision: target.revision + 5 }]);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('PROPOSAL_STALE');
    const twice = await propose([setRecord, setRecord]);
    expect(twice.status).toBe(422);
    expect(twice.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/operations/1' }] });
    const badData = await propose([{ ...setRecord, data: { tier: 'diamond' } }]);
    expect(badData.status).toBe(422);
    expect((badData.body.errors as { pointer: string }[])[0]!.pointer).toBe('/operations/0/data/tier');
  });
});

describe('proposals made by flows, listed and isolated', () => {
  it('a flow with an ai_proposal node stores a pending proposal when its trigger fires', async () => {
    const flowId = '0190f0c8-0000-7000-8000-0000000e9001';
    expectOk(
      await staff('PUT', `/api/automation/flows/${flowId}`, {
        revision: 0,
        data: {
          name: { en: 'Propose a rule' },
          trigger: 'order.placed',
          pipeline: {
            entry: 'propose',
            nodes: [
              {
                id: 'propose',
                kind: 'action',
                action: 'ai_proposal',
                config: {
                  summary: 'Reward big carts',
                  operations: [
                    { kind: 'automation.save_rule', ruleId: RULE(7), revision: 0, data: ruleData(90) },
                  ],
                },
                next: 'end',
              },
              { id: 'end', kind: 'stop' },
            ],
          },
        },
      }),
    );
    const visitor = await h.visitorWithCart(channelKey, [{ productId: teaId, quantity: 1 }]);
    const order = expectOk(
      await h.call('POST', '/store-api/checkout', {
        headers: { 'x-channel-key': channelKey, 'x-context-token': visitor },
      }),
      201,
    );
    const options = { owner: 'proposals', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
    while ((await consumeOnce(h.services, flowMatchingProjection, options)).tenantId !== null) {
      // every event into jobs
    }
    while ((await runDueJobs(h.services, { owner: 'proposals', leaseMs: 30_000, batchSize: 20 })) > 0) {
      // every due job
    }
    const pending = expectOk(await staff('GET', '/api/intelligence/proposals?status=pending')).items as {
      summary: string;
      createdBy: Record<string, unknown>;
      subject: Record<string, unknown>;
      operations: unknown[];
    }[];
    const made = pending.filter((item) => item.summary === 'Reward big carts');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      createdBy: { kind: 'flow', flowId, nodeId: 'propose' },
      subject: { orderId: order.id },
      operations: [{ kind: 'automation.save_rule', ruleId: RULE(7) }],
    });
    expect(await rule(RULE(7))).toBeUndefined();
  });

  it('lists newest first, by status, a page at a time; the same operations over MCP', async () => {
    const all = expectOk(await staff('GET', '/api/intelligence/proposals')).items as {
      id: string;
      createdAt: string;
    }[];
    expect(all.length).toBeGreaterThanOrEqual(5);
    const stamps = all.map((item) => item.createdAt);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const first = expectOk(await staff('GET', '/api/intelligence/proposals?limit=2'));
    expect((first.items as { id: string }[]).map((item) => item.id)).toEqual(
      all.slice(0, 2).map((item) => item.id),
    );
    const second = expectOk(await staff('GET', `/api/intelligence/proposals?limit=2&after=${first.next}`));
    expect((second.items as { id: string }[]).map((item) => item.id)).toEqual(
      all.slice(2, 4).map((item) => item.id),
    );
    const approved = expectOk(await staff('GET', '/api/intelligence/proposals?status=approved')).items as {
      status: string;
    }[];
    expect(approved.length).toBeGreaterThan(0);
    expect(approved.every((item) => item.status === 'approved')).toBe(true);
    const tool = await h.mcp(h.shopA.token);
    const listed = await tool('intelligence.proposals.list', { status: ['stale'] });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent?.items).toHaveLength(1);
    const decided = await tool('intelligence.proposals.approve', { id: all.at(-1)!.id });
    expect(decided.isError).toBe(true);
    expect(decided.content[0]?.text).toContain('PROPOSAL_DECIDED');
  });

  it('another shop sees, approves and rejects nothing of shop A', async () => {
    const mine = expectOk(await staff('GET', '/api/intelligence/proposals')).items as { id: string }[];
    const B = h.shopB.token;
    expect(expectOk(await staff('GET', '/api/intelligence/proposals', undefined, B)).items).toEqual([]);
    for (const { id } of mine) {
      expect((await staff('GET', `/api/intelligence/proposals/${id}`, undefined, B)).status).toBe(404);
      expect((await staff('POST', `/api/intelligence/proposals/${id}/approve`, undefined, B)).status).toBe(
        404,
      );
      expect((await staff('POST', `/api/intelligence/proposals/${id}/reject`, {}, B)).status).toBe(404);
    }
  });
});
