// The admin UI on a shop with 10,000 products (issue 20: "pages fast on a shop with 10,000
// products"): `cartwright start` on a fresh PGlite data directory in its own process, 10,000
// products created through the API, then a signed-in admin session (the sign-in form, its CSRF
// token and cookie, as a browser sends them). Each admin page is printed against the API read it
// renders, measured in the same run on the same server: the page's cost over the operation it
// calls is the HTML (the operation itself is the same door).
//
//   corepack pnpm bench:admin
//   BENCH_PRODUCTS=2000 BENCH_SECONDS=3 corepack pnpm bench:admin
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
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);

type Server = EmbeddedServer;

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The value of `name` in a response's set-cookie headers. */
function cookieOf(response: Response, name: string): string {
  const found = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .find((pair) => pair.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in the answer (${response.status})`);
  return found;
}

/** Signs in through the sign-in form as a browser would and answers the session's cookie. */
async function signIn(server: Server): Promise<string> {
  const form = await fetch(`${server.url}/admin/sign-in`);
  const signInCookie = cookieOf(form, 'cw_admin_signin');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error('the sign-in page has no CSRF field');
  const answer = await fetch(`${server.url}/admin/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: signInCookie,
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ csrf, token: server.token }),
  });
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
  return cookieOf(answer, 'cw_admin');
}

/** Creates `count` products through the API, `CONCURRENCY` at a time. */
async function seedProducts(server: Server, count: number): Promise<void> {
  let next = 0;
  const names = ['Mug', 'Teapot', 'Cup', 'Plate', 'Bowl', 'Saucer', 'Jug', 'Spoon'];
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const name = `${names[index % names.length]} ${index}`;
      await json(
        await fetch(`${server.url}/api/catalog/products`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            sku: `BENCH-${index}`,
            translations: { en: { name } },
            prices: [{ currency: 'EUR', gross: 1190 + index, net: 1000 + index }],
            stockAvailable: index % 50,
          }),
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

function measureRoute(server: Server, name: string, request: () => Promise<Response>): Promise<Measured> {
  return measure({
    name,
    pid: server.child.pid!,
    request,
    check: (response) => expectOk(response, name),
    seconds: SECONDS,
    concurrency: CONCURRENCY,
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'cartwright-bench-admin-'));
const server = await startEmbeddedServer(dataDir);
try {
  const seeded = performance.now();
  await seedProducts(server, PRODUCTS);
  const seedSeconds = (performance.now() - seeded) / 1000;
  const staff = { authorization: `Bearer ${server.token}` };
  const session = { cookie: await signIn(server) };
  const { channels } = await json<{ channels: { id: string; isMain: boolean }[] }>(
    await fetch(`${server.url}/api/automation`, { headers: staff }),
  );
  const main = channels.find((channel) => channel.isMain)!.id;
  const { next } = await json<{ next: string }>(
    await fetch(`${server.url}/api/catalog/products?limit=25`, { headers: staff }),
  );

  const api = (path: string) => () => fetch(`${server.url}${path}`, { headers: staff });
  const page = (path: string) => () => fetch(`${server.url}${path}`, { headers: session });
  // Each admin page beside the API read it renders.
  const pairs: [string, () => Promise<Response>, string, () => Promise<Response>][] = [
    [
      'GET /api/catalog/products?limit=25',
      api('/api/catalog/products?limit=25'),
      'GET /admin/products',
      page('/admin/products'),
    ],
    [
      'GET /api/catalog/products?after=…',
      api(`/api/catalog/products?limit=25&after=${next}`),
      'GET /admin/products?after=…',
      page(`/admin/products?after=${next}`),
    ],
    [
      'GET /api/catalog/products?search=teapot 77',
      api('/api/catalog/products?limit=25&search=teapot%2077'),
      'GET /admin/products?search=teapot 77',
      page('/admin/products?search=teapot%2077'),
    ],
    [
      'GET /api/merchant/commerce/channels/{main}',
      api(`/api/merchant/commerce/channels/${main}`),
      'GET /admin/settings/channels/{main}',
      page(`/admin/settings/channels/${main}`),
    ],
  ];
  console.log(
    `admin UI on embedded PGlite with ${PRODUCTS} products (seeded through the API in ${seedSeconds.toFixed(0)} s): ${CONCURRENCY} in flight, ${SECONDS} s per route, loopback HTTP`,
  );
  console.log(
    'route                                          req/s   × its API read   p50        server CPU/req',
  );
  for (const [apiName, apiRequest, pageName, pageRequest] of pairs) {
    const baseline = await measureRoute(server, apiName, apiRequest);
    const measured = await measureRoute(server, pageName, pageRequest);
    for (const result of [baseline, measured]) {
      console.log(
        `${result.name.padEnd(46)} ${result.perSecond.toFixed(0).padStart(5)}   ${(result.perSecond / baseline.perSecond).toFixed(3).padStart(13)}   ${result.p50.toFixed(1).padStart(6)} ms  ${result.cpuMsPerRequest.toFixed(2).padStart(7)} ms`,
      );
    }
  }
  console.log(`server RSS after the load: ${processUsage(server.child.pid!).rssMiB.toFixed(0)} MiB`);
} finally {
  await stopEmbeddedServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}
