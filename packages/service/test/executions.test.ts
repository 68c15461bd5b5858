import { type FlowJobStatus, insertFlowJobs, type NewFlowJob } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, invokeOperation, type Principal, type Services } from '../src/index.ts';
import { createShop } from '../src/shop/shops.ts';
import { apiPrincipal, operationNamed } from './principals.ts';

// The executions view (issue 12, item 12): an uncertain job behind hundreds of newer finished ones
// is found by its status, every answer counts the shop's unresolved jobs whatever the filters,
// and pages follow a stable key.

let database: TestDatabase;
let services: Services;
let reader: Principal;
let tenantId: string;
const FLOW_A = '0190f0c8-0000-7000-8000-0000000ec0a1';
const FLOW_B = '0190f0c8-0000-7000-8000-0000000ec0b1';
const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const FINISHED = 275;
let uncertainId: string;
let failedId: string;

type Execution = { id: string; status: string; flowId: string; event: { name: string }; createdAt: string };
type Listing = { items: Execution[]; next: string | null; unresolved: { uncertain: number; failed: number } };

function job(
  shop: string,
  status: FlowJobStatus,
  secondsAfterT0: number,
  more: Partial<NewFlowJob> = {},
): Omit<NewFlowJob, 'availableAt'> {
  const at = new Date(T0 + secondsAfterT0 * 1000);
  return {
    tenantId: shop,
    id: services.ids.next(),
    flowId: FLOW_A,
    flowRevision: 1,
    eventSequence: secondsAfterT0 + 1,
    eventName: 'order.placed',
    subject: {},
    definition: { flow: {}, rules: [] },
    actor: { kind: 'system' },
    status,
    currentNode: null,
    trace: [],
    createdAt: at,
    updatedAt: at,
    ...more,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  ({ tenantId } = await createShop(services, { name: 'Executions shop' }));
  const other = await createShop(services, { name: 'Other shop' });
  reader = await apiPrincipal(services, tenantId, 'reader');
  const uncertain = job(tenantId, 'uncertain', 0);
  const failed = job(tenantId, 'failed', 1, { flowId: FLOW_B, eventName: 'customer.registered' });
  uncertainId = uncertain.id;
  failedId = failed.id;
  const finished = Array.from({ length: FINISHED }, (_, index) =>
    job(tenantId, 'finished', 2 + index, { eventName: index % 5 === 0 ? 'order.paid' : 'order.placed' }),
  );
  await database.transaction(async (tx) => {
    await insertFlowJobs(tx, [uncertain, failed, ...finished]);
    // Another shop's unresolved jobs count for that shop only.
    await insertFlowJobs(tx, [job(other.tenantId, 'uncertain', 500), job(other.tenantId, 'failed', 501)]);
  });
});
afterAll(async () => database?.close());

async function list(input: Record<string, unknown>): Promise<Listing> {
  const result = await invokeOperation(services, operationNamed('automation.executions'), reader, input);
  if (!result.ok) throw new Error(`${result.code}: ${result.detail}`);
  return result.value as Listing;
}

describe('automation.executions', () => {
  it('shows newest first; the uncertain job is not among the latest 100, but it is counted', async () => {
    const latest = await list({ limit: 100 });
    expect(latest.items).toHaveLength(100);
    expect(latest.items.map((item) => item.id)).not.toContain(uncertainId);
    expect(latest.items.every((item) => item.status === 'finished')).toBe(true);
    expect(latest.unresolved).toEqual({ uncertain: 1, failed: 1 });
    expect(latest.next).toBe(latest.items.at(-1)!.id);
  });

  it('finds the uncertain job behind 275 finished ones by its status, with the counts', async () => {
    const uncertain = await list({ status: ['uncertain'] });
    expect(uncertain.items.map((item) => [item.id, item.status])).toEqual([[uncertainId, 'uncertain']]);
    expect(uncertain.next).toBeNull();
    expect(uncertain.unresolved).toEqual({ uncertain: 1, failed: 1 });

    const unresolved = await list({ status: ['uncertain', 'failed'] });
    expect(unresolved.items.map((item) => item.id)).toEqual([failedId, uncertainId]);
  });

  it('filters by flow, event name and creation time, and keeps counting every unresolved job', async () => {
    const flowB = await list({ flowId: FLOW_B });
    expect(flowB.items.map((item) => item.id)).toEqual([failedId]);
    expect(flowB.unresolved).toEqual({ uncertain: 1, failed: 1 });

    const paid = await list({ event: 'order.paid', limit: 100 });
    expect(paid.items).toHaveLength(55);
    expect(paid.items.every((item) => item.event.name === 'order.paid')).toBe(true);

    const window = await list({
      createdFrom: new Date(T0 + 10_000).toISOString(),
      createdBefore: new Date(T0 + 20_000).toISOString(),
    });
    expect(window.items.map((item) => item.createdAt)).toEqual(
      Array.from({ length: 10 }, (_, index) => new Date(T0 + (19 - index) * 1000).toISOString()),
    );

    const none = await list({ status: ['uncertain'], flowId: FLOW_B });
    expect(none).toEqual({ items: [], next: null, unresolved: { uncertain: 1, failed: 1 } });
  });

  it('pages with `after` without skipping or repeating a job, even while new ones arrive', async () => {
    const seen: string[] = [];
    let page = await list({ limit: 100 });
    seen.push(...page.items.map((item) => item.id));
    // A job newer than all others arrives between two pages: it belongs before page one.
    await database.transaction((tx) => insertFlowJobs(tx, [job(tenantId, 'queued', 10_000)]));
    // 277 jobs older than the new one: three pages (bounded, so a broken cursor cannot loop).
    for (let pages = 1; typeof page.next === 'string' && pages <= 3; pages++) {
      page = await list({ limit: 100, after: page.next });
      seen.push(...page.items.map((item) => item.id));
    }
    expect(page.next).toBeNull();
    expect(seen).toHaveLength(FINISHED + 2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(-2)).toEqual([failedId, uncertainId]);
  });

  it('is also carried by automation.list (the spec names that tool for both reads): the newest page and the counts', async () => {
    const result = await invokeOperation(services, operationNamed('automation.list'), reader, {});
    if (!result.ok) throw new Error(`${result.code}: ${result.detail}`);
    const { executions } = result.value as { executions: Listing };
    const newest = await list({ limit: 20 });
    expect(executions.items.map((item) => item.id)).toEqual(newest.items.map((item) => item.id));
    expect(executions.next).toBe(newest.next);
    expect(executions.unresolved).toEqual({ uncertain: 1, failed: 1 });
  });

  it('refuses an empty time range and an unknown status', async () => {
    const operation = operationNamed('automation.executions');
    const empty = await invokeOperation(services, operation, reader, {
      createdFrom: new Date(T0 + 5000).toISOString(),
      createdBefore: new Date(T0 + 5000).toISOString(),
    });
    expect(empty).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
      errors: [{ pointer: '/createdBefore' }],
    });
    const unknown = await invokeOperation(services, operation, reader, { status: ['stuck'] });
    expect(unknown).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' });
  });
});
