// The embedded default as a user runs it: `cartwright start` on a fresh PGlite data directory, in
// its own process, served over loopback HTTP. Prints the server's RSS after start, then requests/s
// and server CPU per request for store-API reads and a cart write, each against a named baseline
// measured in the same run: `GET /healthz` on the same server (the HTTP floor: routing, logging,
// no database).
//
//   corepack pnpm bench:store
//   BENCH_SECONDS=10 BENCH_CONCURRENCY=8 corepack pnpm bench:store
//   BENCH_PROFILE=/tmp/profiles corepack pnpm bench:store   (the server writes a .cpuprofile there)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type EmbeddedServer,
  expectOk,
  type Measured,
  measure,
  processUsage,
  startEmbeddedServer,
  stopEmbeddedServer,
} from './http-load.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PROFILE = process.env.BENCH_PROFILE;

type Server = EmbeddedServer;

/** CONCURRENCY loops send `request` for SECONDS; every answer must be a 2xx. */
function measureStore(server: Server, name: string, request: () => Promise<Response>): Promise<Measured> {
  return measure({
    name,
    pid: server.child.pid!,
    request,
    check: (response) => expectOk(response, name),
    seconds: SECONDS,
    concurrency: CONCURRENCY,
  });
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const dataDir = mkdtempSync(join(tmpdir(), 'cartwright-bench-store-'));
const server = await startEmbeddedServer(dataDir, PROFILE);
try {
  await new Promise((done) => setTimeout(done, 2000)); // workers settle after the demo shop
  const afterStart = processUsage(server.child.pid!);
  const staff = { authorization: `Bearer ${server.token}` };
  const automation = await json<{ channels: { isMain: boolean; accessKey: string }[] }>(
    await fetch(`${server.url}/api/automation`, { headers: staff }),
  );
  const channelKey = automation.channels.find((channel) => channel.isMain)!.accessKey;
  const { contextToken } = await json<{ contextToken: string }>(
    await fetch(`${server.url}/store-api/context`, {
      method: 'POST',
      headers: { 'x-channel-key': channelKey },
    }),
  );
  const visitor = { 'x-channel-key': channelKey, 'x-context-token': contextToken };
  const products = await json<{ items: { id: string }[] }>(
    await fetch(`${server.url}/store-api/products`, { headers: visitor }),
  );
  const productId = products.items[0]!.id;
  await json(
    await fetch(`${server.url}/store-api/cart/lines`, {
      method: 'POST',
      headers: { ...visitor, 'content-type': 'application/json' },
      body: JSON.stringify({ sku: 'DEMO-MUG', quantity: 1 }),
    }),
  );
  const { lines } = await json<{ lines: { id: string }[] }>(
    await fetch(`${server.url}/store-api/cart`, { headers: visitor }),
  );
  const lineId = lines[0]!.id;

  let quantity = 1;
  const results = [
    await measureStore(server, 'GET /healthz (baseline)', () => fetch(`${server.url}/healthz`)),
    await measureStore(server, 'GET /store-api/products', () =>
      fetch(`${server.url}/store-api/products`, { headers: visitor }),
    ),
    await measureStore(server, 'GET /store-api/products/{id}', () =>
      fetch(`${server.url}/store-api/products/${productId}`, { headers: visitor }),
    ),
    await measureStore(server, 'GET /store-api/cart', () =>
      fetch(`${server.url}/store-api/cart`, { headers: visitor }),
    ),
    await measureStore(server, 'PATCH /store-api/cart/lines/{id}', () =>
      fetch(`${server.url}/store-api/cart/lines/${lineId}`, {
        method: 'PATCH',
        headers: { ...visitor, 'content-type': 'application/json' },
        body: JSON.stringify({ quantity: (quantity++ % 5) + 1 }),
      }),
    ),
  ];
  const afterLoad = processUsage(server.child.pid!);

  const baseline = results[0]!;
  console.log(
    `store API on embedded PGlite: ${CONCURRENCY} in flight, ${SECONDS} s per route, loopback HTTP`,
  );
  console.log(
    `server: first start ${(server.startMs / 1000).toFixed(1)} s, RSS ${afterStart.rssMiB.toFixed(0)} MiB after start, ${afterLoad.rssMiB.toFixed(0)} MiB after the load`,
  );
  console.log('route                               req/s   × baseline   server CPU/req   p50');
  for (const result of results) {
    console.log(
      `${result.name.padEnd(34)} ${result.perSecond.toFixed(0).padStart(6)}   ${(result.perSecond / baseline.perSecond).toFixed(3).padStart(9)}   ${result.cpuMsPerRequest.toFixed(2).padStart(11)} ms   ${result.p50.toFixed(1).padStart(5)} ms`,
    );
  }
} finally {
  await stopEmbeddedServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}
