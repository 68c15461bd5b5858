import { type FlowJobRow, findOrder, listRecentFlowJobs } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import {
  type Actor,
  authenticate,
  consumeOnce,
  createServices,
  createShop,
  findOperation,
  flowMatchingProjection,
  invokeOperation,
  type Principal,
  recordEvent,
  type Services,
} from '@cartwright/service';
import { insertTestOrder } from '@cartwright/service/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICA_KIND, type Replica, type Replicas, replicasOn } from './replicas.ts';

// Flow jobs survive their workers being killed (real processes SIGKILLed on PostgreSQL; on PGlite,
// workers in this process cut off from the database, see replicas.ts): a step killed between its
// receipt and its confirmation is reported uncertain and never repeated blindly, a job killed
// during a delay is finished once by another worker, and two workers on one database never run a
// step twice.

const system: Actor = { kind: 'system', process: 'flow-crash-test' };
/** Short leases, so a killed worker's job is found by another one within seconds. */
const LEASE_MS = 1500;

let database: TestDatabase;
let services: Services;
let replicas: Replicas;

interface Shop {
  readonly tenantId: string;
  readonly principal: Principal;
}

/** The step keys whose receipt this worker committed (and then went on to run, unless it hung). */
function receiptKeysOf(worker: Replica): string[] {
  return worker.lines
    .filter((line) => line.msg === 'step receipt committed')
    .map((line) => line.key as string);
}

/** An app-worker replica with the flow runner's test seam, on the test database. */
function startFlowWorker(
  owner: string,
  options: { hangNode?: string; leaseMs?: number } = {},
): Promise<Replica> {
  return replicas.start({
    role: 'app-worker',
    owner,
    pollMs: 50,
    leaseMs: options.leaseMs ?? LEASE_MS,
    ...(options.hangNode === undefined ? {} : { hangNode: options.hangNode }),
  });
}

/**
 * Stops gracefully; the worker logged no warning or error on the way, except the warning that a
 * job became uncertain, which a rescuer must log (checked where it is expected).
 */
async function stop(worker: Replica): Promise<void> {
  await worker.stop();
  const unexpected = (line: { level?: string; msg?: string }) =>
    line.level === 'error' || (line.level === 'warn' && line.msg !== 'flow job uncertain');
  expect(worker.lines.filter(unexpected)).toEqual([]);
}

/** Polls `check` every 25 ms until it holds, failing with `what` after `ms`. */
async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function newShop(name: string): Promise<Shop> {
  const { tenantId, token } = await createShop(services, { name });
  const authenticated = await authenticate(services, token);
  if (!authenticated.ok) throw new Error(authenticated.detail);
  return { tenantId, principal: authenticated.value };
}

async function call(shop: Shop, name: string, input: unknown): Promise<Record<string, unknown>> {
  const result = await invokeOperation(services, findOperation(name)!, shop.principal, input);
  if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
  return result.value as Record<string, unknown>;
}

/** Saves an active flow on `trigger` (by the shop owner's token, the flow's actor); answers its id. */
async function saveFlow(shop: Shop, trigger: string, entry: string, nodes: unknown[]): Promise<string> {
  const id = services.ids.next();
  await call(shop, 'automation.save', {
    kind: 'flows',
    id,
    revision: 0,
    data: { name: { en: `Crash test ${trigger}` }, trigger, condition: null, pipeline: { entry, nodes } },
  });
  return id;
}

/**
 * `count` orders without events of their own: one written the way checkout writes it, the rest
 * copies of it under new ids and numbers (one statement; 1,000 checkouts would cost the machine
 * more than the flows under test). Answers their ids.
 */
async function createOrders(shop: Shop, count: number): Promise<string[]> {
  const order = await insertTestOrder(services, shop.tenantId);
  if (count === 1) return [order.id];
  const copies = await database.rows<{ id: string }>(sql`
    insert into orders
    select (jsonb_populate_record(null::orders,
      to_jsonb(o) || jsonb_build_object('id', gen_random_uuid(), 'number', o.number + copy))).*
    from orders o, generate_series(1, ${count - 1}::int) as copy
    where o.tenant_id = ${shop.tenantId} and o.id = ${order.id}
    returning id`);
  return [order.id, ...copies.map((copy) => copy.id)];
}

/** One `trigger` event per order, `perTransaction` per transaction (what a flow matches on). */
async function emit(shop: Shop, trigger: string, orderIds: readonly string[], perTransaction = 100) {
  for (let start = 0; start < orderIds.length; start += perTransaction) {
    await services.database.transaction(async (tx) => {
      for (const orderId of orderIds.slice(start, start + perTransaction)) {
        await recordEvent(tx, services, shop.tenantId, system, trigger, { orderId });
      }
    });
  }
}

/** The memory-worker's flow matching, in this process: every committed event becomes its jobs. */
async function match(): Promise<void> {
  const options = { owner: 'matcher', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  while ((await consumeOnce(services, flowMatchingProjection, options)).tenantId !== null) {
    // until no shop has unmatched events
  }
}

async function jobsOf(shop: Shop, flowId: string): Promise<FlowJobRow[]> {
  return (await listRecentFlowJobs(database.db, shop.tenantId, 100)).filter((job) => job.flowId === flowId);
}

async function onlyJob(shop: Shop, flowId: string): Promise<FlowJobRow> {
  const jobs = await jobsOf(shop, flowId);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

async function receiptOf(shop: Shop, key: string) {
  const [row] = await database.rows<{ status: string }>(
    sql`select status from effect_receipts where tenant_id = ${shop.tenantId} and key = ${key}`,
  );
  return row;
}

/** Events a flow job wrote (its actions' effects carry the job as actor). */
async function eventsByJob(shop: Shop, jobId: string): Promise<string[]> {
  const rows = await database.rows<{ name: string }>(sql`
    select name from outbox_events
    where tenant_id = ${shop.tenantId} and actor->>'kind' = 'flow' and actor->>'jobId' = ${jobId}
    order by sequence`);
  return rows.map((row) => row.name);
}

function steps(job: FlowJobRow) {
  return job.trace.map((entry) => [entry.node, entry.outcome, entry.next]);
}

/** Milliseconds since `start`, rounded. */
function since(start: number): number {
  return Math.round(performance.now() - start);
}

describe(`flow jobs whose workers are killed (${REPLICA_KIND})`, () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    services = createServices(database);
    replicas = replicasOn(database);
  });
  afterAll(async () => {
    await replicas?.killAll();
    await database?.close();
  });

  it('a worker killed after a step’s receipt commits leaves the job uncertain, the effect not applied; a retry applies it once', async () => {
    const shop = await newShop('Killed inside a step');
    const trigger = 'order_payment.reminded';
    const flowId = await saveFlow(shop, trigger, 'tag', [
      {
        id: 'tag',
        kind: 'action',
        action: 'action.add.order.tag',
        config: { tags: ['audited'] },
        next: null,
      },
    ]);
    const [orderId] = await createOrders(shop, 1);
    await emit(shop, trigger, [orderId!]);
    await match();
    const { id: jobId } = await onlyJob(shop, flowId);
    const key = `flow:${jobId}:tag`;

    // The first worker claims the job, commits the step's receipt and hangs before the action.
    const doomed = await startFlowWorker('doomed', { hangNode: 'tag' });
    await doomed.line((line) => line.msg === 'step receipt committed' && line.key === key);
    const held = await onlyJob(shop, flowId);
    expect(held).toMatchObject({ status: 'running', leaseOwner: 'doomed', currentNode: 'tag' });
    expect(await receiptOf(shop, key)).toEqual({ status: 'pending' });
    const killedAt = performance.now();
    await doomed.kill();

    // Another worker finds the pending receipt once the dead one's lease has run out.
    const rescuer = await startFlowWorker('rescuer');
    await waitFor('the job to become uncertain', 20_000, async () => {
      return (await onlyJob(shop, flowId)).status === 'uncertain';
    });
    const uncertainAfter = since(killedAt);
    const uncertain = await onlyJob(shop, flowId);
    expect(uncertain).toMatchObject({
      currentNode: 'tag',
      leaseOwner: null,
      error: { code: 'STEP_UNCERTAIN', node: 'tag' },
    });
    expect(steps(uncertain)).toEqual([['tag', 'uncertain', null]]);
    // Marked only after the lease had expired, by the database clock.
    expect(uncertain.updatedAt.getTime()).toBeGreaterThan(held.leaseExpiresAt!.getTime());
    expect(await receiptOf(shop, key)).toEqual({ status: 'pending' });
    // Not applied, and not tried again: the rescuer committed no receipt of its own.
    expect((await findOrder(database.db, shop.tenantId, orderId!))!.tags).toEqual([]);
    expect(await eventsByJob(shop, jobId)).toEqual([]);
    expect(receiptKeysOf(rescuer)).toEqual([]);

    // The merchant retries: the step runs again, exactly once.
    const executions = await call(shop, 'automation.executions', {});
    const listed = (executions.items as { id: string; status: string }[]).find((item) => item.id === jobId);
    expect(listed?.status).toBe('uncertain');
    await call(shop, 'automation.executions.resolve', { id: jobId, resolution: 'retry' });
    await waitFor('the retried job to finish', 20_000, async () => {
      return (await onlyJob(shop, flowId)).status === 'finished';
    });
    const finished = await onlyJob(shop, flowId);
    expect(steps(finished)).toEqual([
      ['tag', 'uncertain', null],
      ['tag', 'retry', 'tag'],
      ['tag', 'ok', null],
    ]);
    expect(await receiptOf(shop, key)).toEqual({ status: 'confirmed' });
    expect((await findOrder(database.db, shop.tenantId, orderId!))!.tags).toEqual(['audited']);
    expect(await eventsByJob(shop, jobId)).toEqual(['order.updated']);
    await stop(rescuer);
    expect(rescuer.lines.filter((line) => line.msg === 'flow job uncertain')).toMatchObject([
      { level: 'warn', jobId, nodeId: 'tag' },
    ]);
    expect(receiptKeysOf(rescuer)).toEqual([key]);
    console.info(`(a) uncertain ${uncertainAfter} ms after the kill (lease ${LEASE_MS} ms)`);
  });

  it('a worker killed while its job waits on a delay: another worker finishes the job once', async () => {
    const shop = await newShop('Killed during a delay');
    const trigger = 'order_payment.reminded';
    const flowId = await saveFlow(shop, trigger, 'wait', [
      { id: 'wait', kind: 'delay', seconds: 3, next: 'tag' },
      {
        id: 'tag',
        kind: 'action',
        action: 'action.add.order.tag',
        config: { tags: ['delayed'] },
        next: 'note',
      },
      { id: 'note', kind: 'action', action: 'note', config: { text: 'Waited.' }, next: null },
    ]);
    const [orderId] = await createOrders(shop, 1);
    await emit(shop, trigger, [orderId!]);
    await match();
    const { id: jobId } = await onlyJob(shop, flowId);

    const first = await startFlowWorker('first');
    await waitFor('the job to wait', 20_000, async () => (await onlyJob(shop, flowId)).status === 'waiting');
    const waiting = await onlyJob(shop, flowId);
    expect(waiting).toMatchObject({ currentNode: 'tag', leaseOwner: null });
    expect(steps(waiting)).toEqual([['wait', 'wait 3s', 'tag']]);
    // Killed while the delay still runs (by the database clock).
    const [pending] = await database.rows<{ due: boolean }>(sql`
      select available_at > clock_timestamp() as due from flow_jobs
      where tenant_id = ${shop.tenantId} and id = ${jobId}`);
    expect(pending!.due).toBe(true);
    await first.kill();
    expect(receiptKeysOf(first)).toEqual([]);

    const second = await startFlowWorker('second');
    await waitFor(
      'the job to finish',
      20_000,
      async () => (await onlyJob(shop, flowId)).status === 'finished',
    );
    const finished = await onlyJob(shop, flowId);
    expect(steps(finished)).toEqual([
      ['wait', 'wait 3s', 'tag'],
      ['tag', 'ok', 'note'],
      ['note', 'ok', null],
    ]);
    // The delay was kept: the later action ran after available_at.
    expect(new Date(finished.trace[1]!.at).getTime()).toBeGreaterThanOrEqual(waiting.availableAt.getTime());
    expect(finished.error).toBeNull();
    expect((await findOrder(database.db, shop.tenantId, orderId!))!.tags).toEqual(['delayed']);
    expect(await eventsByJob(shop, jobId)).toEqual(['order.updated', 'order.note_added']);
    const notes = await database.rows<{ text: string }>(sql`
      select text from order_activities
      where tenant_id = ${shop.tenantId} and order_id = ${orderId} and kind = 'note'`);
    expect(notes).toEqual([{ text: 'Waited.' }]);
    const receipts = await database.rows<{ key: string; status: string }>(sql`
      select key, status from effect_receipts where tenant_id = ${shop.tenantId} and scope_id = ${jobId} order by key`);
    expect(receipts).toEqual([
      { key: `flow:${jobId}:note`, status: 'confirmed' },
      { key: `flow:${jobId}:tag`, status: 'confirmed' },
    ]);
    await stop(second);
    expect(receiptKeysOf(second)).toEqual([`flow:${jobId}:tag`, `flow:${jobId}:note`]);
  });

  it('two app-workers on one database run many jobs (1,000 on PostgreSQL), each step exactly once', async () => {
    // On PGlite every statement of both workers and of this test runs in this one process: 200
    // jobs show the same, both workers taking part, in a fraction of the time.
    const JOBS = database.url ? 1000 : 200;
    const shop = await newShop('Two replicas');
    const trigger = 'order_payment.reminded';
    const flowId = await saveFlow(shop, trigger, 'note', [
      { id: 'note', kind: 'action', action: 'note', config: { text: 'Seen by a flow.' }, next: null },
    ]);
    let start = performance.now();
    const orderIds = await createOrders(shop, JOBS);
    const ordersMs = since(start);

    // Longer leases here: no job should be taken from a live worker on a busy 2-core machine.
    const workers = await Promise.all([
      startFlowWorker('replica-a', { leaseMs: 30_000 }),
      startFlowWorker('replica-b', { leaseMs: 30_000 }),
    ]);
    start = performance.now();
    await emit(shop, trigger, orderIds);
    const emittedMs = since(start);
    await match();
    const matchedMs = since(start);
    const open = async () => {
      const [row] = await database.rows<{ open: number }>(sql`
        select count(*)::int as open from flow_jobs
        where tenant_id = ${shop.tenantId} and status <> 'finished'`);
      return row!.open;
    };
    await waitFor('every job to finish', 45_000, async () => (await open()) === 0);
    const finishedMs = since(start);
    await Promise.all(workers.map(stop));

    const [jobs] = await database.rows<{
      total: number;
      finished: number;
      orders: number;
      traced: number;
    }>(sql`
      select count(*)::int as total,
             count(*) filter (where status = 'finished')::int as finished,
             count(distinct subject->>'orderId')::int as orders,
             count(*) filter (where jsonb_array_length(trace) = 1 and trace->0->>'outcome' = 'ok')::int as traced
      from flow_jobs where tenant_id = ${shop.tenantId} and flow_id = ${flowId}`);
    expect(jobs).toEqual({ total: JOBS, finished: JOBS, orders: JOBS, traced: JOBS });
    const [receipts] = await database.rows<{ total: number; confirmed: number; jobs: number }>(sql`
      select count(*)::int as total, count(*) filter (where status = 'confirmed')::int as confirmed,
             count(distinct scope_id)::int as jobs
      from effect_receipts where tenant_id = ${shop.tenantId}`);
    expect(receipts).toEqual({ total: JOBS, confirmed: JOBS, jobs: JOBS });
    // One note per order, and one note event per job.
    const [notes] = await database.rows<{ total: number; orders: number; steps: number }>(sql`
      select count(*)::int as total, count(distinct order_id)::int as orders,
             count(distinct data->>'stepKey')::int as steps
      from order_activities where tenant_id = ${shop.tenantId} and kind = 'note'`);
    expect(notes).toEqual({ total: JOBS, orders: JOBS, steps: JOBS });
    const [events] = await database.rows<{ total: number; jobs: number }>(sql`
      select count(*)::int as total, count(distinct actor->>'jobId')::int as jobs from outbox_events
      where tenant_id = ${shop.tenantId} and name = 'order.note_added' and actor->>'kind' = 'flow'`);
    expect(events).toEqual({ total: JOBS, jobs: JOBS });
    // Each step went past its receipt in exactly one worker, and both workers took part.
    const [a, b] = workers.map(receiptKeysOf) as [string[], string[]];
    expect(a.length + b.length).toBe(JOBS);
    expect(new Set([...a, ...b]).size).toBe(JOBS);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    console.info(
      `(c) ${JOBS} orders in ${ordersMs} ms; events in ${emittedMs} ms, jobs in ${matchedMs} ms; all finished ${finishedMs} ms after the first event; replica-a ran ${a.length}, replica-b ${b.length}`,
    );
  });
});
