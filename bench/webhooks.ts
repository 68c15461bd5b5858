// Signed incoming app webhooks (decision 0039) as an operator runs them: `cartwright start` with
// PROCESS_ROLE=http (the HTTP host alone, no workers) in its own process, on a fresh PGlite data
// directory (and on PostgreSQL when BENCH_DATABASE_URL is set), the example app inbound-demo
// installed, signed pings sent over loopback HTTP by CONCURRENCY loops in this process. Prints
// accepted webhooks/s (each a new event id: a receipt and an outbox event committed), identical
// repeats/s (the stored receipt answered), forged requests/s (refused at the signature) and
// `GET /healthz` on the same server, each against the named floor: the bare SHA-256 of the same
// bodies plus the HMAC-SHA256 of their signed strings, computed in this process on one core.
//
//   corepack pnpm bench:webhooks
//   BENCH_SECONDS=10 BENCH_CONCURRENCY=16 corepack pnpm bench:webhooks
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test corepack pnpm bench:webhooks
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { sha256Hex, signWebhook, webhookSignedString } from '@cartwright/service';
import postgres from 'postgres';
import { type Measured, measure } from './http-load.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const ROOT = resolve(import.meta.dirname, '..');
const SECRET = 'bench-inbound-demo-secret-of-more-than-32-bytes';
const KEY = new TextEncoder().encode(SECRET);
const manifest = JSON.parse(readFileSync(join(ROOT, 'examples/apps/inbound-demo/manifest.json'), 'utf8'));

/** Repeatable bodies: pings of 1 to 200 characters (the action's limit), 64 of them. */
const BODIES = Array.from({ length: 64 }, (_, index) =>
  new TextEncoder().encode(JSON.stringify({ message: 'p'.repeat(1 + ((index * 37) % 200)) })),
);

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Starts `cartwright start`; answers it once its stderr says where it listens. */
async function startServer(env: Record<string, string>): Promise<Server & { stdout: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'hosts/cli/src/main.ts', 'start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', PROCESS_ROLE: 'http', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  for await (const line of createInterface({ input: child.stderr! })) {
    const listening = / is listening on (\S+) with /.exec(line);
    if (listening) {
      child.stderr!.resume();
      // The demo shop's line comes right after, on a first start.
      await new Promise((done) => setTimeout(done, 300));
      return { child, url: listening[1]!, stdout };
    }
    if (/error|invalid/i.test(line)) process.stderr.write(`${line}\n`);
  }
  throw new Error('the server stopped before it listened');
}

async function stopServer(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((done) => server.child.once('exit', done));
}

/** CONCURRENCY loops send `request` for SECONDS; every answer must have the expected status. */
function measureStatus(
  server: Server,
  name: string,
  status: number,
  request: () => Promise<Response>,
): Promise<Measured> {
  return measure({
    name,
    pid: server.child.pid!,
    request,
    check: async (response) => {
      const text = await response.text();
      if (response.status !== status) throw new Error(`${name}: ${response.status} ${text.slice(0, 300)}`);
    },
    seconds: SECONDS,
    concurrency: CONCURRENCY,
  });
}

/** The floor: SHA-256 of each body and HMAC-SHA256 of its signed string, per second on one core. */
function measureFloor(tenant: string): number {
  let count = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  while (performance.now() < until) {
    for (let index = 0; index < 1000; index += 1) {
      const body = BODIES[index % BODIES.length]!;
      signWebhook(
        KEY,
        webhookSignedString({
          tenant,
          app: 'inbound-demo',
          webhook: 'ping',
          timestamp: '1700000000',
          eventId: `evt-${count + index}`,
          bodySha256: sha256Hex(body),
        }),
      );
    }
    count += 1000;
  }
  return count / ((performance.now() - started) / 1000);
}

/** A signed ping of shop `tenant`: body `index`, event id `eventId`. */
function ping(url: string, tenant: string, index: number, eventId: string, secret = KEY): Promise<Response> {
  const body = BODIES[index % BODIES.length]!;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = signWebhook(
    secret,
    webhookSignedString({
      tenant,
      app: 'inbound-demo',
      webhook: 'ping',
      timestamp,
      eventId,
      bodySha256: sha256Hex(body),
    }),
  );
  return fetch(`${url}/webhooks/apps/${tenant}/inbound-demo/ping`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-app-timestamp': timestamp,
      'x-app-event-id': eventId,
      'x-app-signature': signature,
    },
    body,
  });
}

/** Runs every measurement against a server on one storage; answers the lines to print. */
async function run(label: string, storage: Record<string, string>): Promise<string[]> {
  // First start: the demo shop and its owner token. Second: the same data, with the shop's key.
  const first = await startServer(storage);
  const demo = JSON.parse(first.stdout[0] ?? 'null') as { tenantId: string; token: string } | null;
  await stopServer(first);
  if (!demo) throw new Error('the first start printed no demo shop');
  const keys = JSON.stringify({ [demo.tenantId]: { 'inbound-demo': SECRET } });
  const server = await startServer({ ...storage, APP_WEBHOOK_KEYS: keys });
  try {
    const installed = await fetch(`${server.url}/api/apps/inbound-demo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ manifest, revision: 0 }),
    });
    if (!installed.ok) throw new Error(`install: ${installed.status} ${await installed.text()}`);
    let sequence = 0;
    const forged = new TextEncoder().encode('not-the-shop-key-but-just-as-long-as-the-real-one');
    const results = [
      await measureStatus(server, 'GET /healthz (HTTP floor)', 200, () => fetch(`${server.url}/healthz`)),
      await measureStatus(server, 'accepted (new event id)', 202, () => {
        sequence += 1;
        return ping(server.url, demo.tenantId, sequence, `evt-${process.pid}-${sequence}`);
      }),
      await measureStatus(server, 'identical repeat (receipt)', 202, () =>
        ping(server.url, demo.tenantId, 1, `evt-${process.pid}-1`),
      ),
      await measureStatus(server, 'forged (signature refused)', 401, () => {
        sequence += 1;
        return ping(server.url, demo.tenantId, sequence, `evt-forged-${sequence}`, forged);
      }),
    ];
    const floor = measureFloor(demo.tenantId);
    const lines = [
      `${label}: ${CONCURRENCY} in flight, ${SECONDS} s each, loopback HTTP, server PROCESS_ROLE=http`,
      `floor (SHA-256 of the body + HMAC-SHA256 of the signed string, one core, this process): ${floor.toFixed(0)}/s`,
      'request                            req/s   × floor   × healthz   server CPU/req   p50',
    ];
    const healthz = results[0]!;
    for (const result of results) {
      lines.push(
        `${result.name.padEnd(32)} ${result.perSecond.toFixed(0).padStart(7)}   ${(result.perSecond / floor).toFixed(4).padStart(7)}   ${(result.perSecond / healthz.perSecond).toFixed(3).padStart(9)}   ${result.cpuMsPerRequest.toFixed(2).padStart(11)} ms   ${result.p50.toFixed(1).padStart(5)} ms`,
      );
    }
    return lines;
  } finally {
    await stopServer(server);
  }
}

const output: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'cartwright-bench-webhooks-'));
try {
  output.push(...(await run('embedded PGlite', { CARTWRIGHT_DATA_DIR: dataDir })));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
if (DATABASE_URL) {
  const name = `cartwright_bench_webhooks_${process.pid}`;
  const admin = postgres(DATABASE_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name}`);
  try {
    const url = new URL(DATABASE_URL);
    url.pathname = `/${name}`;
    output.push('', ...(await run('PostgreSQL', { DATABASE_URL: url.href })));
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
console.log(output.join('\n'));
