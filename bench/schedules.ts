// App schedule ticks per second with 1,000 schedules due at once (issue 16), on PGlite and on
// PostgreSQL, printed against a named baseline in the same run: 1,000 plain outbox events appended
// through `recordEvent`, one per transaction, to the same shops (what a tick costs at least: its
// event in its own transaction). A tick adds the lease claim, the tick row under its unique key,
// the cron arithmetic and the fenced settle. Repeatable: fixed counts, a fresh database per
// engine, a clock the benchmark moves (every schedule ticks at second 0 of each minute).
//
//   corepack pnpm bench:schedules                PGlite, and PostgreSQL when BENCH_DATABASE_URL is set
//   BENCH_MINUTES=5 corepack pnpm bench:schedules

import type { Database } from '@cartwright/repository';
import {
  createServices,
  createShop,
  invokeOperation,
  operations,
  type RoundOptions,
  recordEvent,
  runners,
  type Services,
} from '@cartwright/service';
import { adminPrincipal } from '@cartwright/service/testing';
import { onEachEngine } from './engines.ts';

const SHOPS = 5;
const APPS_PER_SHOP = 25;
const SCHEDULES_PER_APP = 8;
const SCHEDULES = SHOPS * APPS_PER_SHOP * SCHEDULES_PER_APP;
/** Simulated minutes, each with every schedule due at once; each side is measured once per minute. */
const MINUTES = Number(process.env.BENCH_MINUTES ?? 3);
/** Schedules a round claims (the worker host's jobBatchSize). */
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const START = Date.UTC(2030, 0, 7, 12, 0, 30);
const MINUTE = 60_000;

const scheduleRunner = runners.find((runner) => runner.name === 'schedule-runner');
if (!scheduleRunner) throw new Error('no schedule-runner among the service runners');

function manifest(app: number) {
  return {
    apiVersion: 1,
    id: `bench-${app}`,
    version: '1.0.0',
    name: { en: `Bench ${app}` },
    actions: [
      {
        id: 'tick',
        kind: 'service',
        runtime: 'external',
        mcp: false,
        emits: true,
        input: [{ name: 'n', type: 'integer', min: 0, max: 100, required: true }],
        output: [],
      },
    ],
    schedules: Array.from({ length: SCHEDULES_PER_APP }, (_, index) => ({
      id: `s${index}`,
      cron: '0 * * * * *',
      action: 'tick',
      input: { n: index },
    })),
  };
}

async function setUp(services: Services): Promise<string[]> {
  const install = operations.find((operation) => operation.name === 'apps.install')!;
  const tenants: string[] = [];
  for (let shop = 0; shop < SHOPS; shop++) {
    const { tenantId } = await createShop(services, { name: `Schedules bench ${shop}` });
    const { principal } = await adminPrincipal(services, tenantId, 'bench');
    for (let app = 0; app < APPS_PER_SHOP; app++) {
      const installed = await invokeOperation(services, install, principal, {
        appId: `bench-${app}`,
        revision: 0,
        manifest: manifest(app),
      });
      if (!installed.ok) throw new Error(`install: ${installed.code} ${installed.detail}`);
    }
    tenants.push(tenantId);
  }
  return tenants;
}

function roundOptions(owner: string): RoundOptions {
  return {
    owner,
    leaseMs: 30_000,
    batchSize: 100,
    maxBatches: 10,
    jobBatchSize: BATCH,
    signal: new AbortController().signal,
  };
}

/** Rounds of `workers` schedule runners at once until none finds anything due; answers the ticks. */
async function drain(services: Services, workers: number): Promise<number> {
  let ticks = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (;;) {
        const round = await scheduleRunner!.round(services, roundOptions(`bench-worker-${worker}`));
        for (const line of round.lines) if (line.msg === 'schedule ticks') ticks += Number(line.ticks);
        if (!round.busy) return;
      }
    }),
  );
  return ticks;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function run(engine: string, database: Database) {
  let now = START;
  const services = createServices(database, { clock: { now: () => new Date(now) } });
  const tenants = await setUp(services);
  const actor = { kind: 'system', process: 'bench' } as const;

  const baseline: number[] = [];
  const single: number[] = [];
  const pair: number[] = [];
  for (let minute = 1; minute <= MINUTES * 2; minute++) {
    // The baseline first, then the ticks of this minute: 1,000 due at once.
    baseline.push(
      await timed(async () => {
        for (let event = 0; event < SCHEDULES; event++) {
          await database.transaction((tx) =>
            recordEvent(tx, services, tenants[event % SHOPS]!, actor, 'bench.baseline', { n: event }),
          );
        }
      }),
    );
    now = START + minute * MINUTE;
    const workers = minute % 2 === 1 ? 1 : 2;
    let ticks = 0;
    const ms = await timed(async () => {
      ticks = await drain(services, workers);
    });
    if (ticks !== SCHEDULES) throw new Error(`minute ${minute}: ${ticks} ticks, expected ${SCHEDULES}`);
    (workers === 1 ? single : pair).push(ms);
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const base = median(baseline);
  const line = (label: string, ms: number) =>
    `  ${label.padEnd(34)} ${((SCHEDULES / ms) * 1000).toFixed(0).padStart(7)} /s   ${(ms / base).toFixed(2).padStart(6)}× baseline time`;
  console.log(
    `${engine}: ${SCHEDULES} schedules due at once (${SHOPS} shops × ${APPS_PER_SHOP} apps × ${SCHEDULES_PER_APP}), ${MINUTES} minutes per line, batches of ${BATCH}, medians`,
  );
  console.log(line('baseline: recordEvent, 1 per tx', base));
  console.log(line('ticks, one worker', median(single)));
  console.log(line('ticks, two workers at once', median(pair)));
}

await onEachEngine(run, () => ({ maxConnections: 6 }));
