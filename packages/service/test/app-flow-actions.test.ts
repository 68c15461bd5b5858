import { readFileSync } from 'node:fs';
import {
  type Database,
  findCustomerHistory,
  findEffectReceipts,
  findOrder,
  insertProduct,
  listRecentFlowJobs,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAppServices } from '../src/apps/external/http-app-services.ts';
import { createWorkerAppSandbox } from '../src/apps/sandbox/worker-pool.ts';
import { checkout } from '../src/checkout/checkout.ts';
import { runDueJobs } from '../src/flows/executor.ts';
import { flowMatchingProjection } from '../src/flows/matching.ts';
import { createServices, invokeOperation, operations, type Services } from '../src/index.ts';
import type { Principal } from '../src/kernel/auth.ts';
import { consumeOnce } from '../src/outbox/projections.ts';
import { createShop } from '../src/shop/shops.ts';
import { adminPrincipal, makeSellable, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// `app_action` in flows (issue 15, item 7): a flow on order.placed calls the loyalty app's
// sandboxed `score` with inputs bound to the order's facts; an app served by an external service
// is called with no transaction open and the step key as its idempotency key, once per step, and
// an answer lost after the service acted leaves the job uncertain instead of calling again.

const read = (path: string) =>
  readFileSync(new URL(`../../../examples/apps/loyalty/${path}`, import.meta.url), 'utf8');
const TEA = '0190f0c8-0000-7000-8000-0000000a1001';
const FLOW = (n: number) => `0190f0c8-0000-7000-8000-0000000a20${String(n).padStart(2, '0')}`;
const CREDENTIAL = 'erp-credential-0123456789';

/** An app served by an external service: one service action that books an order. */
const ERP = {
  apiVersion: 1,
  id: 'erp',
  version: '1.0.0',
  name: { en: 'ERP' },
  permissions: ['orders.read'],
  actions: [
    {
      id: 'book_order',
      kind: 'service',
      runtime: 'external',
      input: [
        { name: 'order_id', type: 'string', maxLength: 36, required: true, coreReference: 'order' },
        { name: 'total', type: 'integer', min: 0, required: true },
      ],
      output: [{ name: 'booking', type: 'string', maxLength: 40, required: true }],
    },
  ],
};

let database: Database;
let services: Services;
let fixture: AppServiceFixture;
const sandbox = createWorkerAppSandbox();
let shop: SellableShop & { principal: Principal };

async function call(name: string, input: unknown) {
  const operation = operations.find((candidate) => candidate.name === name)!;
  const result = await invokeOperation(services, operation, shop.principal, input);
  if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
  return result.value as Record<string, unknown>;
}

/** Turns committed events into jobs, then runs due jobs until none is left. */
async function work() {
  const lease = { owner: 'apps-worker', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  while ((await consumeOnce(services, flowMatchingProjection, lease)).tenantId) {
    // until no shop has events left
  }
  while ((await runDueJobs(services, { owner: 'apps-worker', leaseMs: 30_000, batchSize: 20 })) > 0) {
    // until nothing is due
  }
}

async function placeOrder() {
  const { context } = await readyVisitor(services, shop, { [TEA]: 2 });
  const placed = await checkout(services, shop.tenantId, context, undefined);
  if (!placed.ok) throw new Error(placed.detail);
  return (await findOrder(database.db, shop.tenantId, placed.value.id))!;
}

async function saveFlow(id: string, config: Record<string, unknown>, trigger = 'order.placed') {
  await call('automation.save', {
    kind: 'flows',
    id,
    revision: 0,
    data: {
      name: { en: `App action ${id}` },
      trigger,
      condition: null,
      pipeline: {
        entry: 'app',
        nodes: [{ id: 'app', kind: 'action', action: 'app_action', config, next: null }],
      },
    },
  });
}

/** Deactivates a flow this file saved once (revision 1), so later orders start it no more. */
async function deactivate(id: string, flow: unknown) {
  await call('automation.save', { kind: 'flows', id, revision: 1, active: false, data: flow });
}

async function jobOf(flowId: string, orderId: string) {
  const jobs = await listRecentFlowJobs(database.db, shop.tenantId, 100);
  return jobs.find(
    (job) => job.flowId === flowId && (job.subject as { orderId?: string }).orderId === orderId,
  )!;
}

async function resultOf(jobId: string) {
  const [receipt] = await findEffectReceipts(database.db, shop.tenantId, [`flow:${jobId}:app`]);
  return receipt;
}

beforeAll(async () => {
  database = await createTestDatabase();
  fixture = await startAppServiceFixture({
    credential: CREDENTIAL,
    actions: { book_order: (request) => ({ booking: `B-${(request.input as { total: number }).total}` }) },
  });
  services = createServices(database, {
    sandbox,
    appServices: createHttpAppServices(
      new Map([['erp', { baseUrl: fixture.url, credential: CREDENTIAL, timeoutMs: 2_000 }]]),
    ),
  });
  const { tenantId } = await createShop(services, { name: 'App flows' });
  const sellable = await makeSellable(services, tenantId);
  await database.transaction((tx) =>
    insertProduct(
      tx,
      tenantId,
      {
        id: TEA,
        sku: 'TEA',
        translations: { en: { name: 'Tea' } },
        prices: [{ currency: 'EUR', gross: 1000, net: 840 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 1000,
      },
      services.clock.now(),
    ),
  );
  shop = { ...sellable, principal: (await adminPrincipal(services, tenantId, 'apps')).principal };
  await call('apps.install', {
    appId: 'loyalty',
    revision: 0,
    manifest: JSON.parse(read('manifest.json')),
    module: read('module.js'),
  });
  await call('apps.install', { appId: 'erp', revision: 0, manifest: ERP });
});
afterAll(async () => {
  await sandbox.close();
  await fixture?.close();
  await database?.close();
});

describe('app_action', () => {
  it('calls the sandboxed score on order.placed with inputs bound to the order', async () => {
    await saveFlow(FLOW(1), {
      appId: 'loyalty',
      action: 'score',
      input: {
        customer_id: { $fact: 'order.customerId' },
        order_count: { $fact: 'customer.orderCount' },
        points: 250,
      },
    });
    const order = await placeOrder();
    await work();
    const job = await jobOf(FLOW(1), order.id);
    expect(job.status).toBe('finished');
    // The module's formula over the bound facts: orders × 10 + floor(points / 100).
    const history = order.customerId
      ? await findCustomerHistory(database.db, shop.tenantId, order.customerId)
      : undefined;
    const orders = history?.orderCount ?? 0;
    expect((await resultOf(job.id))!.result).toEqual({
      score: Math.min(100, orders * 10 + 2),
      tier: 'bronze',
    });
    await deactivate(FLOW(1), job.definition.flow);
  });

  it('fails the step with the action’s code when the input does not fit', async () => {
    await saveFlow(FLOW(2), {
      appId: 'loyalty',
      action: 'score',
      input: { customer_id: { $fact: 'order.id' } },
    });
    const order = await placeOrder();
    await work();
    const job = await jobOf(FLOW(2), order.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    await deactivate(FLOW(2), job.definition.flow);
  });

  it('calls an external service once per step with the step key, outside any transaction', async () => {
    await saveFlow(FLOW(3), {
      appId: 'erp',
      action: 'book_order',
      input: { order_id: { $fact: 'order.id' }, total: { $fact: 'order.totalGross' } },
    });
    const order = await placeOrder();
    await work();
    await work();
    const job = await jobOf(FLOW(3), order.id);
    expect(job.status).toBe('finished');
    const calls = fixture.calls.filter((item) => (item.input as { order_id?: string }).order_id === order.id);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      authorized: true,
      tenant: shop.tenantId,
      action: 'book_order',
      idempotencyKey: `flow:${job.id}:app`,
    });
    const total = (order.price.total as { gross: number }).gross;
    expect(calls[0]!.input).toEqual({ order_id: order.id, total });
    expect((await resultOf(job.id))!.result).toEqual({ booking: `B-${total}` });
  });

  it('leaves the job uncertain when the service may have acted without answering, and calls nothing again', async () => {
    fixture.failNext({ kind: 'status', status: 503, action: 'book_order', performs: true });
    const order = await placeOrder();
    await work();
    await work();
    const job = await jobOf(FLOW(3), order.id);
    expect(job.status).toBe('uncertain');
    const calls = fixture.calls.filter((item) => (item.input as { order_id?: string }).order_id === order.id);
    expect(calls).toHaveLength(1);
  });

  it('fails the step when the service refuses for good', async () => {
    fixture.failNext({ kind: 'refuse', status: 422, action: 'book_order', detail: 'unknown order' });
    const order = await placeOrder();
    await work();
    const job = await jobOf(FLOW(3), order.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'APP_SERVICE_REFUSED' });
  });

  it('starts flows from app events like any other trigger, acting on the core object the record names', async () => {
    await call('automation.save', {
      kind: 'flows',
      id: FLOW(4),
      revision: 0,
      data: {
        name: { en: 'Tag customers with a loyalty note' },
        trigger: 'app.loyalty.add_note',
        condition: null,
        pipeline: {
          entry: 'tag',
          nodes: [
            {
              id: 'tag',
              kind: 'action',
              action: 'action.add.customer.tag',
              config: { tags: ['noted'] },
              next: null,
            },
          ],
        },
      },
    });
    const order = await placeOrder();
    const customerId = order.customerId!;
    await call('apps.actions.invoke', {
      appId: 'loyalty',
      actionId: 'add_note',
      customer_id: customerId,
      body: 'VIP',
    });
    await work();
    const customer = await call('customers.get', { id: customerId });
    expect(customer.tags).toContain('noted');
    const rejected = await invokeOperation(
      services,
      operations.find((item) => item.name === 'automation.save')!,
      shop.principal,
      {
        kind: 'flows',
        id: FLOW(5),
        revision: 0,
        data: {
          name: { en: 'x' },
          trigger: 'app.Not Valid',
          condition: null,
          pipeline: {
            entry: 'tag',
            nodes: [
              {
                id: 'tag',
                kind: 'action',
                action: 'action.add.customer.tag',
                config: { tags: ['x'] },
                next: null,
              },
            ],
          },
        },
      },
    );
    expect(rejected).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
      errors: [{ pointer: '/data/trigger' }],
    });
  });
});
