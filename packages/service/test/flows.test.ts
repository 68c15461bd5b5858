import {
  type Database,
  findOrder,
  insertProduct,
  listEvents,
  listOrderActivities,
  listRecentFlowJobs,
  revokeToken,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from '../src/checkout/checkout.ts';
import { runDueJobs } from '../src/flows/executor.ts';
import { flowMatchingProjection } from '../src/flows/matching.ts';
import { createServices, invokeOperation, operations, type Services } from '../src/index.ts';
import type { Principal } from '../src/kernel/auth.ts';
import { consumeOnce } from '../src/outbox/projections.ts';
import {
  adminPrincipal,
  createSellableShop,
  readyVisitor,
  SELLABLE,
  type SellableShop,
} from '../src/testing.ts';

// Flows end to end inside the service: events become jobs (one per matching flow), jobs run step
// by step with receipts, delays release the worker, a lost worker's action makes the job uncertain
// and is never repeated blindly, and the merchant resolves it.

let database: Database;
let services: Services;
let shop: SellableShop;
let principal: Principal;
const TEA = '0190f0c8-0000-7000-8000-0000000f1001';
const FLOW = (n: number) => `0190f0c8-0000-7000-8000-0000000f20${String(n).padStart(2, '0')}`;
const worker = { owner: 'test-worker', leaseMs: 30_000, batchSize: 20 };

function operation(name: string) {
  return operations.find((candidate) => candidate.name === name)!;
}

async function call(name: string, input: unknown) {
  const result = await invokeOperation(services, operation(name), principal, input);
  if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
  return result.value as Record<string, unknown>;
}

/** Turns committed events into jobs (the memory-worker's projection), then runs due jobs. */
async function work(owner = worker.owner, leaseMs = worker.leaseMs) {
  while (
    (await consumeOnce(services, flowMatchingProjection, { owner, leaseMs, batchSize: 100, maxBatches: 10 }))
      .tenantId
  ) {
    // until no shop has events left
  }
  while ((await runDueJobs(services, { ...worker, owner, leaseMs })) > 0) {
    // until nothing is due
  }
}

async function placeOrder(quantity = 2) {
  const { context } = await readyVisitor(services, shop, { [TEA]: quantity });
  const placed = await checkout(services, shop.tenantId, context, undefined);
  if (!placed.ok) throw new Error(placed.detail);
  return placed.value;
}

async function jobsOf(flowId: string) {
  return (await listRecentFlowJobs(database.db, shop.tenantId, 100)).filter((job) => job.flowId === flowId);
}

const flow = (trigger: string, pipeline: unknown, condition: unknown = null) => ({
  name: { en: 'Test flow' },
  trigger,
  condition,
  pipeline,
});

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await createSellableShop(services, 'Flow shop');
  await database.transaction(async (tx) => {
    await insertProduct(
      tx,
      shop.tenantId,
      {
        id: TEA,
        sku: 'TEA',
        translations: { en: { name: 'Tea' } },
        prices: [{ currency: 'EUR', gross: 1000, net: 840 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 1000,
      },
      services.clock.now(),
    );
  });
  principal = (await adminPrincipal(services, shop.tenantId, 'flows')).principal;
});
afterAll(async () => database?.close());

describe('the starter flow', () => {
  it('writes one activity note after order.placed, and nothing more on a second run', async () => {
    const order = await placeOrder();
    await work();
    await work();
    const notes = (await listOrderActivities(database.db, shop.tenantId, order.id)).filter(
      (entry) => entry.kind === 'note',
    );
    expect(notes).toHaveLength(1);
    const jobs = (await listRecentFlowJobs(database.db, shop.tenantId, 100)).filter(
      (job) => job.eventName === 'order.placed' && (job.subject as { orderId: string }).orderId === order.id,
    );
    expect(jobs.map((job) => job.status)).toEqual(['finished']);
  });
});

describe('a merchant flow', () => {
  it('decides, tags, waits 2 s without holding a worker, then sets the order state, with a trace of each step', async () => {
    await call('automation.save', {
      kind: 'flows',
      id: FLOW(1),
      revision: 0,
      data: flow('order.placed', {
        entry: 'big',
        nodes: [
          {
            id: 'big',
            kind: 'condition',
            condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 15 } },
            on_true: 'tag',
            on_false: null,
          },
          {
            id: 'tag',
            kind: 'action',
            action: 'action.add.order.tag',
            config: { tagIds: ['vip', 'vip'] },
            next: 'wait',
          },
          { id: 'wait', kind: 'delay', seconds: 2, next: 'progress' },
          {
            id: 'progress',
            kind: 'action',
            action: 'action.set.order.state',
            config: { kind: 'order', state: 'in_progress' },
            next: null,
          },
        ],
      }),
    });
    const order = await placeOrder(2);
    await work();
    const [waiting] = await jobsOf(FLOW(1));
    expect(waiting).toMatchObject({ status: 'waiting', currentNode: 'progress', leaseOwner: null });
    expect((await findOrder(database.db, shop.tenantId, order.id))!.tags).toEqual(['vip']);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await work('another-worker');
    const [done] = await jobsOf(FLOW(1));
    expect(done!.status).toBe('finished');
    expect(done!.trace.map((entry) => [entry.node, entry.outcome, entry.next])).toEqual([
      ['big', 'true', 'tag'],
      ['tag', 'ok', 'wait'],
      ['wait', 'wait 2s', 'progress'],
      ['progress', 'ok', null],
    ]);
    expect((await findOrder(database.db, shop.tenantId, order.id))!.state).toBe('in_progress');
    await call('automation.save', {
      kind: 'flows',
      id: FLOW(1),
      revision: 1,
      active: false,
      data: (await jobsOf(FLOW(1)))[0]!.definition.flow,
    });
  });

  it('marks a job uncertain when its worker is lost inside an action, never repeating it, and lets the merchant retry it', async () => {
    await call('automation.save', {
      kind: 'flows',
      id: FLOW(2),
      revision: 0,
      data: flow('order.placed', {
        entry: 'tag',
        nodes: [
          {
            id: 'tag',
            kind: 'action',
            action: 'action.add.order.tag',
            config: { tags: ['audited'] },
            next: null,
          },
        ],
      }),
    });
    const order = await placeOrder(1);
    await consumeOnce(services, flowMatchingProjection, {
      owner: 'm',
      leaseMs: 30_000,
      batchSize: 100,
      maxBatches: 10,
    });
    // The worker dies right after the receipt commits (its lease is short and never renewed).
    const lost = runDueJobs(services, {
      owner: 'doomed',
      leaseMs: 300,
      batchSize: 20,
      afterReceipt: (key) =>
        key.endsWith(':tag') ? Promise.reject(new Error('worker lost')) : Promise.resolve(),
    });
    await expect(lost).rejects.toThrow('worker lost');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await work('rescuer');
    const [job] = await jobsOf(FLOW(2));
    expect(job).toMatchObject({ status: 'uncertain', currentNode: 'tag' });
    expect(job!.error).toMatchObject({ code: 'STEP_UNCERTAIN', node: 'tag' });
    expect((await findOrder(database.db, shop.tenantId, order.id))!.tags).not.toContain('audited');
    const executions = await call('automation.executions', {});
    expect(
      (executions.items as { id: string; status: string }[]).find((item) => item.id === job!.id)?.status,
    ).toBe('uncertain');
    await call('automation.executions.resolve', { id: job!.id, resolution: 'retry' });
    await work('rescuer');
    expect((await jobsOf(FLOW(2)))[0]!.status).toBe('finished');
    expect((await findOrder(database.db, shop.tenantId, order.id))!.tags).toEqual(['audited']);
    await call('automation.save', {
      kind: 'flows',
      id: FLOW(2),
      revision: 1,
      active: false,
      data: job!.definition.flow,
    });
  });

  it('fails the job clearly when the actor’s token was revoked before a delayed action', async () => {
    const saver = await adminPrincipal(services, shop.tenantId, 'short-lived');
    const saved = await invokeOperation(services, operation('automation.save'), saver.principal, {
      kind: 'flows',
      id: FLOW(3),
      revision: 0,
      data: flow('order.placed', {
        entry: 'wait',
        nodes: [
          { id: 'wait', kind: 'delay', seconds: 1, next: 'tag' },
          {
            id: 'tag',
            kind: 'action',
            action: 'action.add.order.tag',
            config: { tags: ['late'] },
            next: null,
          },
        ],
      }),
    });
    expect(saved.ok).toBe(true);
    const order = await placeOrder(1);
    await work();
    await database.transaction((tx) =>
      revokeToken(tx, shop.tenantId, saver.principal.tokenId, services.clock.now()),
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await work();
    const [job] = await jobsOf(FLOW(3));
    expect(job).toMatchObject({ status: 'failed', error: { code: 'ACTOR_LAPSED', node: 'tag' } });
    expect((await findOrder(database.db, shop.tenantId, order.id))!.tags).not.toContain('late');
  });

  it('fails only its own job when a referenced rule is inactive, and survives deletion of its flow', async () => {
    await call('automation.save', {
      kind: 'rules',
      id: FLOW(10),
      revision: 0,
      data: { name: { en: 'Any' }, condition: { type: 'alwaysValid' } },
    });
    await call('automation.save', {
      kind: 'flows',
      id: FLOW(4),
      revision: 0,
      data: flow(
        'order.placed',
        { entry: 'end', nodes: [{ id: 'end', kind: 'stop' }] },
        { type: 'ruleReference', ruleId: FLOW(10) },
      ),
    });
    await call('automation.save', {
      kind: 'rules',
      id: FLOW(10),
      revision: 1,
      active: false,
      data: { name: { en: 'Any' }, condition: { type: 'alwaysValid' } },
    });
    await placeOrder(1);
    await work();
    const [job] = await jobsOf(FLOW(4));
    expect(job).toMatchObject({ status: 'failed', error: { code: 'RULE_REFERENCE_DISABLED' } });
    const blocked = await invokeOperation(services, operation('automation.delete'), principal, {
      kind: 'flows',
      id: FLOW(4),
      revision: 1,
    });
    expect(blocked.ok).toBe(false);
    await call('automation.executions.resolve', { id: job!.id, resolution: 'abandon' });
    await call('automation.delete', { kind: 'flows', id: FLOW(4), revision: 1 });
    expect((await jobsOf(FLOW(4)))[0]!.status).toBe('cancelled');
  });
});

describe('a batch of jobs', () => {
  const tagFlow = (tag: string) =>
    flow('order.placed', {
      entry: 'tag',
      nodes: [
        { id: 'tag', kind: 'action', action: 'action.add.order.tag', config: { tags: [tag] }, next: null },
      ],
    });

  async function deactivate(...ids: string[]) {
    for (const id of ids) {
      const [job] = await jobsOf(id);
      await call('automation.save', {
        kind: 'flows',
        id,
        revision: 1,
        active: false,
        data: job!.definition.flow,
      });
    }
  }

  it('moves many jobs together: two actions on one order both apply, a refusal fails only its own job and leaves nothing behind, each event is appended once', async () => {
    await call('automation.save', { kind: 'flows', id: FLOW(20), revision: 0, data: tagFlow('batch-a') });
    await call('automation.save', { kind: 'flows', id: FLOW(21), revision: 0, data: tagFlow('batch-b') });
    // Flows may not mark an order paid: this action always refuses (TRANSITION_REFUSED).
    await call('automation.save', {
      kind: 'flows',
      id: FLOW(22),
      revision: 0,
      data: flow('order.placed', {
        entry: 'pay',
        nodes: [
          {
            id: 'pay',
            kind: 'action',
            action: 'action.set.order.state',
            config: { kind: 'payment', state: 'paid' },
            next: null,
          },
        ],
      }),
    });
    const placed = [await placeOrder(1), await placeOrder(1), await placeOrder(1)];
    const before = (await listEvents(database.db, shop.tenantId, { limit: 10_000 })).at(-1)!.sequence;
    await work();

    for (const order of placed) {
      const stored = (await findOrder(database.db, shop.tenantId, order.id))!;
      expect([...stored.tags].sort()).toEqual(['batch-a', 'batch-b']);
      expect(stored.paymentState).toBe(order.paymentState);
    }
    for (const id of [FLOW(20), FLOW(21)]) {
      expect((await jobsOf(id)).map((job) => job.status)).toEqual(['finished', 'finished', 'finished']);
    }
    const refused = await jobsOf(FLOW(22));
    expect(refused.map((job) => [job.status, job.error?.code])).toEqual([
      ['failed', 'TRANSITION_REFUSED'],
      ['failed', 'TRANSITION_REFUSED'],
      ['failed', 'TRANSITION_REFUSED'],
    ]);
    const receipts = await database.rows<{ status: string; n: number }>(sql`
      select r.status, count(*)::int as n from effect_receipts r
      join flow_jobs j on j.tenant_id = r.tenant_id and j.id = r.scope_id
      where j.tenant_id = ${shop.tenantId} and j.flow_id in (${FLOW(20)}, ${FLOW(21)}, ${FLOW(22)})
      group by r.status order by r.status`);
    expect(receipts).toEqual([
      { status: 'confirmed', n: 6 },
      { status: 'failed', n: 3 },
    ]);

    // The events of the batch: one order.updated per tag action, none from the refused actions,
    // and the shop's sequence stays gapless.
    const events = await listEvents(database.db, shop.tenantId, { afterSequence: before, limit: 10_000 });
    const fromFlow = (id: string) =>
      events.filter((event) => (event.actor as { flowId?: string }).flowId === id).map((event) => event.name);
    expect(fromFlow(FLOW(20))).toEqual(['order.updated', 'order.updated', 'order.updated']);
    expect(fromFlow(FLOW(21))).toEqual(['order.updated', 'order.updated', 'order.updated']);
    expect(fromFlow(FLOW(22))).toEqual([]);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => before + index + 1));
    await deactivate(FLOW(20), FLOW(21), FLOW(22));
  });

  it('keeps the others going when one job of a batch loses its lease: that job’s action rolls back, the rest commit', async () => {
    await call('automation.save', { kind: 'flows', id: FLOW(23), revision: 0, data: tagFlow('leased') });
    const placed = [await placeOrder(1), await placeOrder(1), await placeOrder(1)];
    await consumeOnce(services, flowMatchingProjection, {
      owner: 'm',
      leaseMs: 30_000,
      batchSize: 100,
      maxBatches: 10,
    });
    const jobs = await jobsOf(FLOW(23));
    expect(jobs).toHaveLength(3);
    const stolen = jobs.find((job) => job.subject.orderId === placed[1]!.id)!;
    // Between the two transactions another owner takes one job's lease (as after an expiry).
    let taken = false;
    await runDueJobs(services, {
      owner: 'batch-owner',
      leaseMs: 30_000,
      batchSize: 20,
      afterReceipt: async () => {
        if (taken) return;
        taken = true;
        await database.rows(sql`
          update flow_jobs set lease_owner = 'thief'
          where tenant_id = ${shop.tenantId} and id = ${stolen.id}`);
      },
    });
    const tags = async (index: number) =>
      (await findOrder(database.db, shop.tenantId, placed[index]!.id))!.tags;
    expect(await tags(0)).toEqual(['leased']);
    expect(await tags(1)).toEqual([]);
    expect(await tags(2)).toEqual(['leased']);
    const after = await jobsOf(FLOW(23));
    const byId = new Map(after.map((job) => [job.id, job]));
    expect(byId.get(stolen.id)).toMatchObject({ status: 'running', leaseOwner: 'thief', currentNode: 'tag' });
    expect(after.filter((job) => job.status === 'finished')).toHaveLength(2);
    await database.rows(sql`
      update flow_jobs set status = 'cancelled', lease_owner = null, lease_expires_at = null
      where tenant_id = ${shop.tenantId} and id = ${stolen.id}`);
    await deactivate(FLOW(23));
  });
});
