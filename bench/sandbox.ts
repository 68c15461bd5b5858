// The app sandbox's cost per call, printed against a named baseline measured in the same run: the
// same module function called directly in this process (imported from the same source text).
// The sandboxed call goes through the port as an app action will: JSON input to a worker thread,
// a fresh QuickJS instance on zeroed memory, the module evaluated, the export called, its JSON
// output parsed back. Measured: the first call of a new pool (threads start and warm up), p50/p99
// of sequential calls, calls/s with many in flight, the same at a non-default memory cap (each
// call then gets a fresh `WebAssembly.Memory`), and the process's RSS after the load.
//
// Repeatable: fixed module, fixed input, fixed counts; uncounted warm-up calls before each phase.
//
//   corepack pnpm bench:sandbox
//   BENCH_CALLS=2000 BENCH_CONCURRENCY=64 BENCH_POOL=4 corepack pnpm bench:sandbox

import { availableParallelism, loadavg } from 'node:os';
import { type AppSandbox, createWorkerAppSandbox, type SandboxRequest } from '@cartwright/service';

const CALLS = positive('BENCH_CALLS', 500);
const CONCURRENCY = positive('BENCH_CONCURRENCY', 32);
const POOL = process.env.BENCH_POOL ? positive('BENCH_POOL', 2) : undefined;

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/** A small pure action: prices a cart of three lines, as an app's `quote` export might. */
const MODULE = `export default function quote({ lines, discountPercent }) {
  const subtotal = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  const discount = Math.round((subtotal * discountPercent) / 100);
  return { subtotal, discount, total: subtotal - discount, lines: lines.length };
}`;
const INPUT = {
  discountPercent: 10,
  lines: [
    { sku: 'A-1', unitPrice: 1250, quantity: 2 },
    { sku: 'B-7', unitPrice: 499, quantity: 1 },
    { sku: 'C-3', unitPrice: 8990, quantity: 3 },
  ],
};
const EXPECTED = { subtotal: 29969, discount: 2997, total: 26972, lines: 3 };

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const formatMs = (ms: number) => (ms < 0.01 ? `${(ms * 1000).toFixed(3)} µs` : `${ms.toFixed(3)} ms`);

/**
 * The baseline: the module's function, imported in-process, called directly (ms per call); and
 * the same with the port's JSON round trip around it (input text parsed, output stringified).
 */
async function directCallMs(): Promise<{ direct: number; withJson: number }> {
  const imported = (await import(`data:text/javascript,${encodeURIComponent(MODULE)}`)) as {
    default: (input: unknown) => { total: number };
  };
  const quote = imported.default;
  if (JSON.stringify(quote(INPUT)) !== JSON.stringify(EXPECTED)) throw new Error('the direct call disagrees');
  const inputJson = JSON.stringify(INPUT);
  let sink = 0;
  const timePerCall = (once: () => number): number => {
    const batch = 100_000;
    const times: number[] = [];
    for (let round = 0; round < 21; round++) {
      const started = performance.now();
      for (let i = 0; i < batch; i++) sink += once();
      times.push((performance.now() - started) / batch);
    }
    return percentile(
      times.slice(1).sort((a, b) => a - b),
      50,
    );
  };
  const direct = timePerCall(() => quote(INPUT).total);
  const withJson = timePerCall(() => JSON.stringify(quote(JSON.parse(inputJson))).length);
  if (sink < 0) console.log(sink);
  return { direct, withJson };
}

async function expectQuote(sandbox: AppSandbox, request: SandboxRequest): Promise<void> {
  const result = await sandbox.run(request);
  if (!result.ok || JSON.stringify(result.output) !== JSON.stringify(EXPECTED))
    throw new Error(`the sandbox answered ${JSON.stringify(result)}`);
}

async function sequential(sandbox: AppSandbox, request: SandboxRequest): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await expectQuote(sandbox, request);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Calls per second with CONCURRENCY calls in flight. */
async function inFlight(sandbox: AppSandbox, request: SandboxRequest): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) await expectQuote(sandbox, request);
    }),
  );
  return CALLS / ((performance.now() - started) / 1000);
}

const load = loadavg()[0]!;
console.log(
  `Node ${process.version}, ${availableParallelism()} cores, load average ${load.toFixed(2)}${load > availableParallelism() / 2 ? ' (busy: other work skews these timings)' : ''}`,
);
const { direct: base, withJson } = await directCallMs();
const rssBefore = process.memoryUsage().rss;
const sandbox = createWorkerAppSandbox(POOL ? { size: POOL } : {});
const poolSize = POOL ?? Math.min(2, availableParallelism());
const request: SandboxRequest = { moduleSource: MODULE, exportName: 'default', input: INPUT };
const bigger: SandboxRequest = { ...request, limits: { memoryBytes: 64 * 2 ** 20 } };

const firstStarted = performance.now();
await expectQuote(sandbox, request);
const firstMs = performance.now() - firstStarted;
for (let i = 0; i < 20; i++) await expectQuote(sandbox, request);
const seq = await sequential(sandbox, request);
const rate = await inFlight(sandbox, request);
for (let i = 0; i < 5; i++) await expectQuote(sandbox, bigger);
const seqBigger = await sequential(sandbox, bigger);
const rateBigger = await inFlight(sandbox, bigger);
const rssAfter = process.memoryUsage().rss;
await sandbox.close();

const line = (label: string, ms: number, note = '') =>
  `  ${label.padEnd(44)} ${formatMs(ms).padStart(12)}   ${`${(ms / base).toFixed(0)}× baseline`.padStart(18)}${note}`;
console.log(`App sandbox: ${CALLS} calls per phase, pool of ${poolSize} threads, ${CONCURRENCY} in flight`);
console.log(
  line('baseline: direct in-process call', base, '   the same function, imported from the same source'),
);
console.log(line('direct call with JSON in and out', withJson));
console.log(line('first call of a new pool (threads start)', firstMs));
console.log(line('sandboxed call p50, sequential', percentile(seq, 50)));
console.log(line('sandboxed call p99, sequential', percentile(seq, 99)));
console.log(
  line(
    `sandboxed call, ${CONCURRENCY} in flight (wall / call)`,
    1000 / rate,
    `   ${rate.toFixed(0)} calls/s`,
  ),
);
console.log(line('64 MiB cap (fresh memory) p50, sequential', percentile(seqBigger, 50)));
console.log(
  line(
    `64 MiB cap, ${CONCURRENCY} in flight (wall / call)`,
    1000 / rateBigger,
    `   ${rateBigger.toFixed(0)} calls/s`,
  ),
);
console.log(
  `  per-call overhead (p50 − baseline): ${formatMs(percentile(seq, 50) - base)}; RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before the pool, ${(rssAfter / 2 ** 20).toFixed(0)} MiB after the load`,
);
