// End-to-end flow jobs per second on PostgreSQL, printed against a named baseline: graphile-worker
// processing the same number of single-step jobs on the same database, with the same concurrency,
// in the same run. Cartwright: N `order.placed` events → the flow-matching projection makes one job
// each → the job runs three nodes (cart amount condition → `action.add.order.tag` → stop) with step
// receipts. graphile-worker: N jobs whose one task appends a tag to the same orders. Each side is
// timed from the commit of its N work items (events / jobs) until every job is done.
//
// Repeatable: fresh database per run, fixed counts, one warm-up round per side, rounds alternate
// which side goes first (ABBA), medians reported. Needs PostgreSQL:
//
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test corepack pnpm bench:flows
//   BENCH_JOBS=2000 BENCH_ROUNDS=5 BENCH_CONCURRENCY=4 …   jobs per round, rounds, workers per side

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import {
  appendEvents,
  createDatabase,
  type Database,
  listDefinitions,
  type OrderRow,
} from '@cartwright/repository';
import {
  authenticate,
  createServices,
  createShop,
  createToken,
  flowMatchingProjection,
  flowRunner,
  invokeOperation,
  operations,
  type Principal,
  projectionRunner,
  type Services,
} from '@cartwright/service';
import { insertTestOrder } from '@cartwright/service/testing';
import { startWorkers, type WorkerHandle, type WorkerLogLine } from '@cartwright/worker';
import { Logger, makeWorkerUtils, type Runner, run, type WorkerUtils } from 'graphile-worker';
import postgres from 'postgres';

const JOBS = positive('BENCH_JOBS', 1000);
const ROUNDS = positive('BENCH_ROUNDS', 3);
const CONCURRENCY = positive('BENCH_CONCURRENCY', 2);
const WARMUP_JOBS = Math.min(100, JOBS);
const TARGET = 0.5;
/** How often the finish line is checked (the same query cadence on both sides). */
const POLL_MS = 5;
const ROUND_TIMEOUT_MS = 10 * 60_000;
const FLOW_ID = '0190f0c8-0000-7000-8000-00000000f10b';
const CARTWRIGHT_TAG = 'flow-bench';
const GRAPHILE_TAG = 'graphile-bench';
const ACTOR = { kind: 'system', process: 'bench' } as const;

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function graphileVersion(): string {
  const entry = new URL(import.meta.resolve('graphile-worker'));
  const manifest = JSON.parse(readFileSync(new URL('../package.json', entry), 'utf8')) as { version: string };
  return manifest.version;
}

/** Polls `done` until it answers true; answers the time it did (ms, performance clock). */
async function finishLine(label: string, done: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await done()) return performance.now();
    if (performance.now() - started > ROUND_TIMEOUT_MS) throw new Error(`${label}: not done in time`);
    await sleep(POLL_MS);
  }
}

/** The flow under test: condition → tag action → stop, on `order.placed`. */
const FLOW_DATA = {
  name: { en: 'Bench: tag orders of 15 or more' },
  trigger: 'order.placed',
  condition: null,
  pipeline: {
    entry: 'big',
    nodes: [
      {
        id: 'big',
        kind: 'condition',
        condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 15 } },
        on_true: 'tag',
        on_false: 'end',
      },
      {
        id: 'tag',
        kind: 'action',
        action: 'action.add.order.tag',
        config: { tags: [CARTWRIGHT_TAG] },
        next: 'end',
      },
      { id: 'end', kind: 'stop' },
    ],
  },
};

async function save(services: Services, principal: Principal, input: unknown): Promise<void> {
  const operation = operations.find((candidate) => candidate.name === 'automation.save')!;
  const saved = await invokeOperation(services, operation, principal, input);
  if (!saved.ok) throw new Error(`automation.save: ${saved.code} ${saved.detail}`);
}

/** One shop, an admin token that saves the flow (the flow acts for it), starters on the trigger off. */
async function setUpShop(services: Services): Promise<string> {
  const { tenantId } = await createShop(services, { name: 'Flow bench' });
  const created = await services.database.transaction((tx) =>
    createToken(tx, services, tenantId, ACTOR, { name: 'bench', kind: 'api', role: 'admin' }),
  );
  if (!created.ok) throw new Error(created.detail);
  const principal = await authenticate(services, created.value.token);
  if (!principal.ok) throw new Error(principal.detail);
  for (const flow of await listDefinitions(services.database.db, tenantId, 'flow')) {
    if (!flow.active || (flow.data as { trigger?: unknown }).trigger !== 'order.placed') continue;
    await save(services, principal.value, {
      kind: 'flows',
      id: flow.id,
      revision: flow.revision,
      active: false,
      data: flow.data,
    });
  }
  await save(services, principal.value, { kind: 'flows', id: FLOW_ID, revision: 0, data: FLOW_DATA });
  return tenantId;
}

async function prepareOrders(services: Services, tenantId: string, count: number): Promise<OrderRow[]> {
  const orders: OrderRow[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        next += 1;
        orders.push(await insertTestOrder(services, tenantId));
      }
    }),
  );
  return orders;
}

interface RoundResult {
  readonly jobsPerSecond: number;
  /** CPU time of this (the bench's) Node process per job while the side ran, in ms. */
  readonly cpuMsPerJob: number;
  /** Cartwright only: transactions its workers began per job (measured). */
  readonly transactionsPerJob?: number;
}

interface Side {
  readonly name: string;
  round(orders: readonly OrderRow[]): Promise<RoundResult>;
}

function cartwrightSide(
  services: Services,
  tenantId: string,
  sql: postgres.Sql,
  counter: { transactions: number },
  handles: readonly WorkerHandle[],
): Side {
  let finishedBefore = 0;
  return {
    name: 'cartwright',
    async round(orders) {
      const placedAt = services.clock.now();
      // All events commit at once, in batches of 250 rows, the way checkouts append theirs.
      await services.database.transaction(async (tx) => {
        for (let at = 0; at < orders.length; at += 250) {
          await appendEvents(
            tx,
            tenantId,
            orders.slice(at, at + 250).map((order) => ({
              id: services.ids.next(),
              name: 'order.placed',
              payload: {
                orderId: order.id,
                number: order.number,
                customerId: null,
                currency: 'EUR',
                placedAt: placedAt.toISOString(),
              },
              actor: ACTOR,
              occurredAt: placedAt,
            })),
          );
        }
      });
      const started = performance.now();
      const cpu = process.cpuUsage();
      counter.transactions = 0;
      const target = finishedBefore + orders.length;
      const ended = await finishLine('cartwright', async () => {
        const [row] = await sql<{ finished: number; broken: number }[]>`
          select count(*) filter (where status = 'finished')::int as finished,
                 count(*) filter (where status in ('failed', 'uncertain', 'cancelled'))::int as broken
          from flow_jobs where tenant_id = ${tenantId} and flow_id = ${FLOW_ID}`;
        if (row!.broken > 0) throw new Error(`cartwright: ${row!.broken} jobs did not finish`);
        return row!.finished >= target;
      });
      const transactions = counter.transactions;
      const cpuMsPerJob = cpuMs(process.cpuUsage(cpu)) / orders.length;
      finishedBefore = target;
      // The tag actions' order.updated events go through the projection too: let it drain before
      // the other side runs.
      await Promise.all(handles.map((handle) => handle.idle()));
      await expectTagged(sql, tenantId, orders, CARTWRIGHT_TAG);
      const seconds = (ended - started) / 1000;
      return {
        jobsPerSecond: orders.length / seconds,
        cpuMsPerJob,
        transactionsPerJob: transactions / orders.length,
      };
    },
  };
}

function graphileSide(tenantId: string, sql: postgres.Sql, utils: WorkerUtils): Side {
  return {
    name: 'graphile-worker',
    async round(orders) {
      await utils.addJobs(
        orders.map((order) => ({ identifier: 'tag', payload: { tenantId, orderId: order.id } })),
      );
      const started = performance.now();
      const cpu = process.cpuUsage();
      const ended = await finishLine('graphile-worker', async () => {
        const [row] = await sql<{ left: number; broken: number }[]>`
          select count(*)::int as left, count(*) filter (where last_error is not null)::int as broken
          from graphile_worker._private_jobs`;
        if (row!.broken > 0) throw new Error(`graphile-worker: ${row!.broken} jobs failed`);
        return row!.left === 0;
      });
      const cpuMsPerJob = cpuMs(process.cpuUsage(cpu)) / orders.length;
      await expectTagged(sql, tenantId, orders, GRAPHILE_TAG);
      return { jobsPerSecond: orders.length / ((ended - started) / 1000), cpuMsPerJob };
    },
  };
}

async function expectTagged(sql: postgres.Sql, tenantId: string, orders: readonly OrderRow[], tag: string) {
  const [row] = await sql<{ tagged: number }[]>`
    select count(*)::int as tagged from orders
    where tenant_id = ${tenantId} and id = any(${orders.map((order) => order.id)}::uuid[])
      and ${tag} = any(tags)`;
  if (row!.tagged !== orders.length)
    throw new Error(`${tag}: ${row!.tagged} of ${orders.length} orders tagged`);
}

/** What the finished Cartwright jobs left behind, per job: the durable work actually done. */
async function cartwrightWork(sql: postgres.Sql, tenantId: string) {
  const [row] = await sql<
    { jobs: number; traces: number; receipts: number; confirmed: number; updates: number; matched: number }[]
  >`
    select
      (select count(*)::int from flow_jobs where tenant_id = ${tenantId} and flow_id = ${FLOW_ID}) as jobs,
      (select coalesce(sum(jsonb_array_length(trace)), 0)::int from flow_jobs
        where tenant_id = ${tenantId} and flow_id = ${FLOW_ID}) as traces,
      (select count(*)::int from effect_receipts r join flow_jobs j on j.tenant_id = r.tenant_id and j.id = r.scope_id
        where j.tenant_id = ${tenantId} and j.flow_id = ${FLOW_ID}) as receipts,
      (select count(*)::int from effect_receipts r join flow_jobs j on j.tenant_id = r.tenant_id and j.id = r.scope_id
        where j.tenant_id = ${tenantId} and j.flow_id = ${FLOW_ID} and r.status = 'confirmed') as confirmed,
      (select count(*)::int from outbox_events where tenant_id = ${tenantId} and name = 'order.updated'
        and actor->>'flowId' = ${FLOW_ID}) as updates,
      (select count(*)::int from outbox_receipts where tenant_id = ${tenantId} and consumer = 'flow-matching') as matched`;
  return row!;
}

async function main(url: string) {
  const name = `cartwright_bench_flows_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const databaseUrl = target.toString();
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const cleanups: (() => Promise<unknown>)[] = [];
  const errors: WorkerLogLine[] = [];
  try {
    const database: Database = await createDatabase({ databaseUrl, maxConnections: 4 * CONCURRENCY + 2 });
    cleanups.unshift(() => database.close());
    // Counts the transactions Cartwright begins (every step, claim, projection batch and idle poll).
    const counter = { transactions: 0 };
    const counted: Database = {
      ...database,
      transaction: (work) => {
        counter.transactions += 1;
        return database.transaction(work);
      },
    };
    const services = createServices(counted);
    const tenantId = await setUpShop(services);
    const orders = await prepareOrders(services, tenantId, WARMUP_JOBS + ROUNDS * JOBS);
    const serverVersion = (await sql<{ v: string }[]>`select current_setting('server_version') as v`)[0]!.v;

    // Cartwright: CONCURRENCY workers, each with the loops a `PROCESS_ROLE=memory-worker,app-worker`
    // process runs (the flow-matching projection and the flow runner, woken by NOTIFY).
    const handles = Array.from({ length: CONCURRENCY }, (_, index) =>
      startWorkers(services, {
        roles: ['memory-worker', 'app-worker'],
        runners: [projectionRunner(flowMatchingProjection), flowRunner],
        owner: `bench-cartwright-${index}`,
        log: (line) => {
          if (line.level !== 'info') errors.push(line);
        },
      }),
    );
    cleanups.unshift(() => Promise.all(handles.map((handle) => handle.stop())));

    // graphile-worker: one runner with CONCURRENCY concurrent jobs, its defaults otherwise.
    const quiet = new Logger(() => (level, message) => {
      if (level === 'error') errors.push({ level: 'error', msg: `graphile-worker: ${message}` });
    });
    const runner: Runner = await run({
      connectionString: databaseUrl,
      concurrency: CONCURRENCY,
      noHandleSignals: true,
      logger: quiet,
      taskList: {
        async tag(payload, helpers) {
          const { tenantId: tenant, orderId } = payload as { tenantId: string; orderId: string };
          await helpers.query(
            'update orders set tags = array_append(tags, $3) where tenant_id = $1 and id = $2',
            [tenant, orderId, GRAPHILE_TAG],
          );
        },
      },
    });
    cleanups.unshift(() => runner.stop());
    const utils = await makeWorkerUtils({ connectionString: databaseUrl, logger: quiet });
    cleanups.unshift(async () => utils.release());
    await Promise.all(handles.map((handle) => handle.idle()));

    const sides = [
      cartwrightSide(services, tenantId, sql, counter, handles),
      graphileSide(tenantId, sql, utils),
    ];
    const warmup = orders.slice(0, WARMUP_JOBS);
    for (const side of sides) await side.round(warmup);

    const results: Record<string, RoundResult[]> = { cartwright: [], 'graphile-worker': [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch = orders.slice(WARMUP_JOBS + round * JOBS, WARMUP_JOBS + (round + 1) * JOBS);
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        results[side.name]!.push(await side.round(batch));
      }
    }
    if (errors.length > 0) throw new Error(`worker errors: ${JSON.stringify(errors.slice(0, 3))}`);
    const work = await cartwrightWork(sql, tenantId);

    const ours = results.cartwright!;
    const theirs = results['graphile-worker']!;
    const cartwright = median(ours.map((result) => result.jobsPerSecond));
    const graphile = median(theirs.map((result) => result.jobsPerSecond));
    const ratio = cartwright / graphile;
    const rate = (value: number) =>
      `${value.toFixed(0).padStart(6)} jobs/s (${(1000 / value).toFixed(2)} ms/job)`;
    console.log(
      `PostgreSQL ${serverVersion}: ${JOBS} jobs per side per round, ${ROUNDS} rounds (alternating which side goes first) after a ${WARMUP_JOBS}-job warm-up, ${CONCURRENCY} workers per side`,
    );
    console.log(
      `  baseline: graphile-worker ${graphileVersion()}, concurrency ${CONCURRENCY}, defaults otherwise; timed from addJobs committed until its jobs table is empty`,
    );
    console.log(
      `  cartwright: ${CONCURRENCY} × startWorkers(memory-worker + app-worker); timed from the events' commit until every job is finished`,
    );
    for (let round = 0; round < ROUNDS; round += 1) {
      console.log(
        `  round ${round + 1}   cartwright ${rate(ours[round]!.jobsPerSecond)}   graphile-worker ${rate(theirs[round]!.jobsPerSecond)}   ${(ours[round]!.jobsPerSecond / theirs[round]!.jobsPerSecond).toFixed(2)}×`,
      );
    }
    console.log(`  median    cartwright ${rate(cartwright)}   graphile-worker ${rate(graphile)}`);
    console.log(
      `  ratio cartwright / graphile-worker: ${ratio.toFixed(2)}×   target ≥ ${TARGET}×: ${ratio >= TARGET ? 'met' : 'MISSED'}`,
    );
    const per = (count: number) => (count / work.jobs).toFixed(2);
    const transactions = median(ours.map((result) => result.transactionsPerJob ?? 0));
    const cpu = (results: readonly RoundResult[]) =>
      `${median(results.map((result) => result.cpuMsPerJob)).toFixed(2)} ms Node CPU/job`;
    console.log(
      '  durable work per job (rows counted in the database after the run; transactions as its workers began them):',
    );
    console.log(
      `    cartwright:      ${per(work.matched)} flow-matching receipts (its order.placed and the order.updated it causes) + ${per(work.jobs)} job row (frozen definition, ${per(work.traces)} trace entries) + ${per(work.receipts)} step receipt (pending, then ${per(work.confirmed)} confirmed) + 1 order tag (revision bump) + ${per(work.updates)} order.updated outbox event; ${transactions.toFixed(2)} transactions/job, ${cpu(ours)}`,
    );
    console.log(
      `    graphile-worker: 1 job row (added, locked, deleted) + 1 order tag; 3 statements/job (get_job, the task, complete_job), no explicit transaction, ${cpu(theirs)}`,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    await sql.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const load = loadavg()[0]!;
console.log(
  `Node ${process.version}, ${availableParallelism()} cores, load average ${load.toFixed(2)}${load > availableParallelism() / 2 ? ' (busy: other work skews these timings)' : ''}`,
);
const url = process.env.BENCH_DATABASE_URL;
if (url) {
  await main(url);
} else {
  console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)');
}
