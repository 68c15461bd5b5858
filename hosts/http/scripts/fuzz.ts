import { describeFinding, formatCoverage, formatReport, runFuzz } from '../test/fuzz/run.ts';
import { createWorld } from '../test/fuzz/world.ts';

// `corepack pnpm fuzz`: the long fuzz run (issue 12). Prints every failure as it happens, then the
// totals, RSS over the run, every distinct cause with reproductions, and per-operation coverage.
//   FUZZ_REQUESTS (default 100000)  FUZZ_SEED (default: random, printed)
//   FUZZ_ONLY=operationId,…  FUZZ_SWEEP=0 (skip the deterministic sweep)  FUZZ_DIGEST_EVERY (1000)
// Exits 1 when anything failed.

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) {
    process.stderr.write(`${name} must be an integer, got ${JSON.stringify(raw)}\n`);
    process.exit(2);
  }
  return value;
}

const total = integer('FUZZ_REQUESTS', 100_000);
const seed = integer('FUZZ_SEED', Math.floor(Math.random() * 2 ** 31));
const digestEvery = integer('FUZZ_DIGEST_EVERY', 1_000);
const only = (process.env.FUZZ_ONLY ?? '').split(',').filter(Boolean);
const sweep = process.env.FUZZ_SWEEP === '0' ? 'none' : 'thorough';
const out = (line: string) => process.stdout.write(`${line}\n`);

out(
  `fuzz: ${total} requests, seed ${seed}${only.length > 0 ? `, only ${only.join(',')}` : ''}${sweep === 'none' ? ', no sweep' : ''}`,
);
const world = await createWorld();
try {
  const report = await runFuzz(world, {
    seed,
    total,
    sweep,
    digestEvery,
    only,
    onFinding: (finding) => out(`FAIL ${describeFinding(finding)}`),
    onMemory: (point) =>
      out(
        `memory after ${point.requests} requests: RSS ${point.rssMiB} MiB, JS heap ${point.heapMiB} MiB, database ${point.databaseMiB} MiB`,
      ),
  });
  out('');
  out(
    formatReport(
      report,
      `FUZZ_SEED=${seed} FUZZ_REQUESTS=${total}${only.length > 0 ? ` FUZZ_ONLY=${only.join(',')}` : ''}`,
    ),
  );
  out('slowest requests:');
  for (const { request, ms } of report.slowest) {
    out(
      `  ${ms.toFixed(0)} ms ${request.operationId} (${request.mutation}) ${request.method} ${request.url.slice(0, 120)}`,
    );
  }
  out('coverage (answers per operation by status class; "valid" = unmutated requests):');
  out(formatCoverage(report));
  process.exitCode = report.findings.length > 0 ? 1 : 0;
} finally {
  await world.close();
}
