import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

// The HTTP load driver of the benchmarks that run a real server process (bench:store,
// bench:webhooks): CONCURRENCY loops send one kind of request for SECONDS after a short warm-up,
// and the server's own CPU is read from /proc (Linux).

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const ROOT = resolve(import.meta.dirname, '..');

/** `cartwright start` running in its own process on embedded PGlite, with the owner token it printed. */
export interface EmbeddedServer {
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string;
  /** From spawn to the printed token (a first start: migrations and the demo shop). */
  readonly startMs: number;
}

/**
 * Starts `cartwright start` on `dataDir` (fresh: a first start) and waits for its one JSON line;
 * with `profileDir` the server writes a .cpuprofile there.
 */
export async function startEmbeddedServer(dataDir: string, profileDir?: string): Promise<EmbeddedServer> {
  const started = performance.now();
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'hosts/cli/src/main.ts', 'start'], {
    cwd: ROOT,
    env: { ...process.env, CARTWRIGHT_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const { url, token } = JSON.parse(line) as { url: string; token: string };
    return { child, url, token, startMs: performance.now() - started };
  }
  throw new Error('the server stopped before it printed its token');
}

/** Stops a server started by `startEmbeddedServer` and waits for it to exit. */
export async function stopEmbeddedServer(server: EmbeddedServer): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((done) => server.child.once('exit', done));
}

/** Resident memory (MiB) and CPU ticks used so far by a process (Linux /proc). */
export function processUsage(pid: number): { rssMiB: number; cpuTicks: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  // Fields after the command name: utime is the 14th and stime the 15th field of the line.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { rssMiB: rssKiB / 1024, cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

export interface Measured {
  readonly name: string;
  readonly perSecond: number;
  /** The server process's CPU per request. */
  readonly cpuMsPerRequest: number;
  readonly p50: number;
}

export interface Load {
  readonly name: string;
  /** The server process whose CPU is counted. */
  readonly pid: number;
  readonly request: () => Promise<Response>;
  /** Throws when an answer is not the expected one (the run stops). */
  readonly check: (response: Response) => Promise<void>;
  readonly seconds: number;
  readonly concurrency: number;
}

/** Answers 2xx, else throws naming the load and the answer. */
export async function expectOk(response: Response, name: string): Promise<void> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${name}: ${response.status} ${text.slice(0, 300)}`);
}

/** Runs the load: half a second of warm-up, then `concurrency` loops for `seconds`. */
export async function measure(load: Load): Promise<Measured> {
  const warmUntil = performance.now() + 500;
  while (performance.now() < warmUntil) await load.check(await load.request());
  const before = processUsage(load.pid);
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + load.seconds * 1000;
  await Promise.all(
    Array.from({ length: load.concurrency }, async () => {
      while (performance.now() < until) {
        const sent = performance.now();
        await load.check(await load.request());
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const after = processUsage(load.pid);
  latencies.sort((a, b) => a - b);
  return {
    name: load.name,
    perSecond: latencies.length / elapsed,
    cpuMsPerRequest: (((after.cpuTicks - before.cpuTicks) / TICKS_PER_SECOND) * 1000) / latencies.length,
    p50: latencies[Math.floor(latencies.length / 2)]!,
  };
}
