import { consumeOnce, flowMatchingProjection, runDueJobs } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// Flows over HTTP as a merchant uses them: orders placed through the store API start the starter
// flow and a merchant flow (condition → tag → delay 2 s → set order state), the executions view
// shows each decision, and every graph error is refused before saving with its code and nodes.

let h: Harness;
let channelKey: string;
let productId: string;
const FLOW = '0190f0c8-0000-7000-8000-0000000f3001';

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
const store = (method: string, path: string, contextToken: string | null, body?: unknown) =>
  h.call(method, path, {
    body,
    headers: { 'x-channel-key': channelKey, ...(contextToken ? { 'x-context-token': contextToken } : {}) },
  });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

/** What the memory-worker and app-worker roles do, driven to completion. */
async function runWorkers() {
  const options = { owner: 'e2e', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  while ((await consumeOnce(h.services, flowMatchingProjection, options)).tenantId !== null) {
    // every shop's events into jobs
  }
  while ((await runDueJobs(h.services, { owner: 'e2e', leaseMs: 30_000, batchSize: 20 })) > 0) {
    // every due job
  }
}

async function placeOrder(quantity: number): Promise<string> {
  const token = await h.visitorWithCart(channelKey, [{ productId, quantity }]);
  return expectOk(await store('POST', '/store-api/checkout', token), 201).id as string;
}

const pipeline = (nodes: unknown[], entry = 'a') => ({ entry, nodes });
const saveFlow = (id: string, data: Record<string, unknown>, revision = 0) =>
  staff('PUT', `/api/automation/flows/${id}`, {
    revision,
    data: { name: { en: 'Flow' }, trigger: 'order.placed', ...data },
  });

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea());
});
afterAll(async () => h?.close());

describe('flows after orders placed through the store API', () => {
  it('writes one starter activity note per order', async () => {
    const orderId = await placeOrder(1);
    await runWorkers();
    await runWorkers();
    const order = expectOk(await staff('GET', `/api/orders/${orderId}`));
    const notes = (order.activities as { kind: string }[]).filter((entry) => entry.kind === 'note');
    expect(notes).toHaveLength(1);
  });

  it('runs a merchant flow to the end: condition → tag → delay 2 s → set order state, with the trace', async () => {
    expectOk(
      await saveFlow(FLOW, {
        condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 1 } },
        pipeline: pipeline(
          [
            {
              id: 'a',
              kind: 'condition',
              condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 25 } },
              on_true: 'tag',
              on_false: 'end',
            },
            {
              id: 'tag',
              kind: 'action',
              action: 'action.add.order.tag',
              config: { tags: ['big', 'big'] },
              next: 'wait',
            },
            { id: 'wait', kind: 'delay', seconds: 2, next: 'progress' },
            {
              id: 'progress',
              kind: 'action',
              action: 'action.set.order.state',
              config: { kind: 'order', state: 'in_progress' },
              next: 'end',
            },
            { id: 'end', kind: 'stop' },
          ],
          'a',
        ),
      }),
    );
    const big = await placeOrder(3);
    const small = await placeOrder(1);
    await runWorkers();
    const waiting = expectOk(await staff('GET', '/api/automation/executions?limit=10')).items as {
      flowId: string;
      status: string;
      subject: { orderId: string };
      trace: { node: string; outcome: string }[];
    }[];
    const mine = (orderId: string) =>
      waiting.find((item) => item.flowId === FLOW && item.subject.orderId === orderId)!;
    expect(mine(big).status).toBe('waiting');
    expect(mine(small).status).toBe('finished');
    expect(mine(small).trace.map((entry) => `${entry.node}:${entry.outcome}`)).toEqual([
      '(start):condition true',
      'a:false',
      'end:stop',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await runWorkers();
    const items = expectOk(await staff('GET', '/api/automation/executions?limit=10')).items as typeof waiting;
    const done = items.find((item) => item.flowId === FLOW && item.subject.orderId === big)!;
    expect(done.status).toBe('finished');
    expect(done.trace.map((entry) => `${entry.node}:${entry.outcome}`)).toEqual([
      '(start):condition true',
      'a:true',
      'tag:ok',
      'wait:wait 2s',
      'progress:ok',
      'end:stop',
    ]);
    const order = expectOk(await staff('GET', `/api/orders/${big}`)).order as {
      tags: string[];
      state: string;
    };
    expect(order).toMatchObject({ tags: ['big'], state: 'in_progress' });
    const untouched = expectOk(await staff('GET', `/api/orders/${small}`)).order as {
      tags: string[];
      state: string;
    };
    expect(untouched).toMatchObject({ tags: [], state: 'open' });
  });
});

describe('saving flows', () => {
  const action = (id: string, next: string | null) => ({
    id,
    kind: 'action',
    action: 'note',
    config: { text: 'hi' },
    next,
  });
  const cases: [string, unknown, string, string[]][] = [
    ['an edge to an absent node', pipeline([action('a', 'ghost')]), 'FLOW_EDGE_MISSING', ['a']],
    ['a duplicate node id', pipeline([action('a', null), action('a', null)]), 'FLOW_DUPLICATE_NODE', ['a']],
    ['a cycle', pipeline([action('a', 'b'), action('b', 'a')]), 'FLOW_CYCLE', ['a', 'b']],
    ['an unreachable node', pipeline([action('a', null), action('b', null)]), 'FLOW_UNREACHABLE', ['b']],
    ['no nodes', { entry: 'a', nodes: [] }, 'FLOW_SIZE', []],
    [
      'more than 100 reachable nodes',
      pipeline(
        Array.from({ length: 101 }, (_, n) =>
          action(n === 0 ? 'a' : `n${n}`, n === 100 ? null : `n${n + 1}`),
        ),
      ),
      'FLOW_SIZE',
      [],
    ],
    [
      'a delay over 30 days',
      pipeline([{ id: 'a', kind: 'delay', seconds: 30 * 86_400 + 1, next: null }]),
      'FLOW_DELAY_TOO_LONG',
      ['a'],
    ],
    [
      'an unknown action',
      pipeline([{ id: 'a', kind: 'action', action: 'action.launch.rocket', config: {}, next: null }]),
      'FLOW_UNKNOWN_ACTION',
      ['a'],
    ],
    [
      'an invalid action config',
      pipeline([
        { id: 'a', kind: 'action', action: 'action.add.order.tag', config: { tags: 'vip' }, next: null },
      ]),
      'FLOW_INVALID_ACTION_CONFIG',
      ['a'],
    ],
    [
      'force_transition',
      pipeline([
        {
          id: 'a',
          kind: 'action',
          action: 'action.set.order.state',
          config: { kind: 'order', state: 'done', force_transition: true },
          next: null,
        },
      ]),
      'FLOW_UNSUPPORTED_OPTION',
      ['a'],
    ],
  ];
  it.each(cases)(
    'refuses %s with its code and node ids, storing nothing',
    async (_name, graph, code, nodeIds) => {
      const id = '0190f0c8-0000-7000-8000-0000000f3099';
      const refused = await saveFlow(id, { pipeline: graph });
      expect(refused.status).toBe(422);
      expect(refused.body.codes).toContain(code);
      expect(refused.body.code).toBe((refused.body.codes as string[])[0]);
      for (const node of nodeIds) expect(refused.body.nodeIds).toContain(node);
      expect((await staff('GET', `/api/automation/flows/${id}/dependencies`)).status).toBe(404);
    },
  );

  it('refuses a stale revision and blocks deleting a flow with unfinished jobs', async () => {
    const stale = await saveFlow(FLOW, { pipeline: pipeline([action('a', null)]) }, 7);
    expect(stale.body.code).toBe('STALE_REVISION');
    const slow = '0190f0c8-0000-7000-8000-0000000f3002';
    expectOk(
      await saveFlow(slow, { pipeline: pipeline([{ id: 'a', kind: 'delay', seconds: 3600, next: null }]) }),
    );
    await placeOrder(1);
    await runWorkers();
    const blocked = await staff('DELETE', `/api/automation/flows/${slow}`, { revision: 1 });
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('REFERENCED');
    expect((blocked.body.references as { kind: string; key: string }[])[0]).toMatchObject({
      kind: 'job',
      key: 'waiting',
    });
  });
});
