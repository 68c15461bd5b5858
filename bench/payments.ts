// Provider payments end to end on PGlite and PostgreSQL, printed against a named baseline measured
// in the same run on the same engine: (a) checkout alone with the invoice method. (b) is checkout
// with a provider method driven to paid against the loopback PayPal fixture: checkout → the
// payment worker runs until the provider order exists → the buyer approves at the fixture →
// `returnFromProvider` → the worker runs until the order is paid (reconcile, then capture). Both
// are timed per order, end to end, N orders sequential and N with CONCURRENCY in flight (each loop
// drives its own orders; a worker round may run another loop's job). The worker rounds run in this
// process, one job per round (the HTTP calls to the fixture leave no transaction open).
//
// Repeatable: fixed counts, a fresh database and fixture per engine, the same cart for every order
// (2 × one product + parcel shipping), one uncounted warm-up provider order (the provider's first
// OAuth token). At the end every provider order must be paid exactly once with exactly one capture
// at the fixture and every payment job done, or the run fails.
//
//   corepack pnpm bench:payments            PGlite, and PostgreSQL when BENCH_DATABASE_URL is set
//   BENCH_ORDERS=200 BENCH_CONCURRENCY=8 corepack pnpm bench:payments

import {
  type Database,
  findOpenCart,
  findOrder,
  findPaymentAttempt,
  insertProduct,
  listPaymentAttempts,
  type StoreContextRow,
  updateCart,
} from '@cartwright/repository';
import {
  authenticate,
  checkout,
  createServices,
  createToken,
  invokeOperation,
  operations,
  paymentServicesOf,
  returnFromProvider,
  runDuePaymentJobs,
  type Services,
} from '@cartwright/service';
import { createSellableShop, readyVisitor, SELLABLE, type SellableShop } from '@cartwright/service/testing';
import { type PayPalFixture, startPayPalFixture } from '@cartwright/tooling/paypal-fixture';
import { sql } from 'drizzle-orm';
import { onEachEngine } from './engines.ts';

const ORDERS = positive('BENCH_ORDERS', 100);
const CONCURRENCY = positive('BENCH_CONCURRENCY', 4);
const PRODUCT = '0190f0c8-0000-7000-8000-00000000be05';
const PROVIDER_METHOD = '0190f0c8-0000-7000-8000-00000000be06';
const ACCOUNT = {
  clientId: 'bench-client',
  clientSecret: 'bench-secret',
  merchantId: 'BENCHMERCHANT1',
  webhookId: 'WH-BENCH',
};
const PUBLIC_BASE_URL = 'http://127.0.0.1:3000';
/** One job per round: in-flight loops share the queue without one round holding several jobs. */
const WORKER = { owner: 'bench-payments', leaseMs: 30_000, limit: 1 } as const;
/** A provider order not paid within this long is a broken path, not a slow one. */
const ORDER_TIMEOUT_MS = 30_000;
const ACTOR = { kind: 'system', process: 'bench' } as const;

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** What the run counts while it goes (per engine). */
interface Meters {
  /** Transactions begun by callers, and the time spent inside them (retries included). */
  transactions: number;
  transactionMs: number;
  /** Reruns after a deadlock or serialization failure (the database's own retries). */
  retries: number;
  /** Provider HTTP exchanges and the time waiting on them (to the response head). */
  httpCalls: number;
  httpMs: number;
  /** Payment-worker rounds, and those that found no due job (another loop held it). */
  rounds: number;
  idleRounds: number;
}

const newMeters = (): Meters => ({
  transactions: 0,
  transactionMs: 0,
  retries: 0,
  httpCalls: 0,
  httpMs: 0,
  rounds: 0,
  idleRounds: 0,
});

/** `meters` minus `before`, field by field. */
function since(meters: Meters, before: Meters): Meters {
  const delta = newMeters();
  for (const key of Object.keys(delta) as (keyof Meters)[]) delta[key] = meters[key] - before[key];
  return delta;
}

interface Bench {
  readonly services: Services;
  readonly shop: SellableShop;
  readonly fixture: PayPalFixture;
  readonly meters: Meters;
}

/**
 * The fixture shop with one product (stock for every order of the run), a provider account at the
 * fixture and a provider payment method saved through its operation, as a merchant saves it.
 */
async function setUp(database: Database, fixture: PayPalFixture, meters: Meters): Promise<Bench> {
  const counted: Database = {
    ...database,
    async transaction(work) {
      meters.transactions += 1;
      const started = performance.now();
      try {
        return await database.transaction(work);
      } finally {
        meters.transactionMs += performance.now() - started;
      }
    },
  };
  const plain = createServices(counted);
  const shop = await createSellableShop(plain, 'Payments bench');
  const { tenantId } = shop;
  await counted.transaction((tx) =>
    insertProduct(
      tx,
      tenantId,
      {
        id: PRODUCT,
        sku: 'BENCH-PAY',
        translations: { en: { name: 'Bench' } },
        prices: [{ currency: 'EUR', gross: 1999, net: 1680 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 1_000_000,
      },
      plain.clock.now(),
    ),
  );

  fixture.addAccount(ACCOUNT);
  const timedFetch: typeof fetch = async (input, init) => {
    const started = performance.now();
    try {
      return await fetch(input, init);
    } finally {
      meters.httpCalls += 1;
      meters.httpMs += performance.now() - started;
    }
  };
  const payments = paymentServicesOf(
    {
      PROVIDER_ACCOUNTS: JSON.stringify({
        [tenantId]: {
          clientId: ACCOUNT.clientId,
          clientSecret: ACCOUNT.clientSecret,
          webhookId: ACCOUNT.webhookId,
          bnCode: 'CARTWRIGHT_BENCH',
          environment: 'sandbox',
          merchantId: ACCOUNT.merchantId,
        },
      }),
      PUBLIC_BASE_URL,
      PROVIDER_CONTRACT_BASE_URL: fixture.url,
    },
    { fetch: timedFetch },
  );
  const services = createServices(counted, { payments });

  const created = await counted.transaction((tx) =>
    createToken(tx, services, tenantId, ACTOR, { name: 'bench', kind: 'api', role: 'admin' }),
  );
  if (!created.ok) throw new Error(created.detail);
  const principal = await authenticate(services, created.value.token);
  if (!principal.ok) throw new Error(principal.detail);
  const save = operations.find((operation) => operation.name === 'basis.payment_methods.save')!;
  const saved = await invokeOperation(services, save, principal.value, {
    id: PROVIDER_METHOD,
    revision: 0,
    key: 'paypal',
    translations: { en: { name: 'PayPal' } },
    handler: 'provider',
  });
  if (!saved.ok) throw new Error(`basis.payment_methods.save: ${saved.code} ${saved.detail}`);
  return { services, shop, fixture, meters };
}

/** Logged-in visitors whose carts are ready for checkout, paying with `paymentMethodId`. */
async function visitors(bench: Bench, count: number, paymentMethodId: string): Promise<StoreContextRow[]> {
  const { services, shop } = bench;
  const contexts: StoreContextRow[] = [];
  for (let i = 0; i < count; i++) {
    const { context } = await readyVisitor(services, shop, { [PRODUCT]: 2 });
    if (paymentMethodId !== SELLABLE.invoice) {
      await services.database.transaction(async (tx) => {
        const cart = await findOpenCart(tx, shop.tenantId, context.id, { forUpdate: true });
        await updateCart(tx, shop.tenantId, cart!.id, { paymentMethodId });
      });
    }
    contexts.push(context);
  }
  return contexts;
}

async function placeOrder(bench: Bench, context: StoreContextRow): Promise<string> {
  const placed = await checkout(bench.services, bench.shop.tenantId, context, undefined);
  if (!placed.ok) throw new Error(`checkout: ${placed.code} ${placed.detail}`);
  return placed.value.id;
}

/**
 * Runs payment-worker rounds until `reached` answers a value (another loop may run our job);
 * `ran` is told after each round that ran a job and its check.
 */
async function workUntil<T>(
  bench: Bench,
  what: string,
  reached: () => Promise<T | null>,
  ran: () => void,
): Promise<T> {
  const deadline = performance.now() + ORDER_TIMEOUT_MS;
  for (;;) {
    const round = await runDuePaymentJobs(bench.services, WORKER);
    bench.meters.rounds += 1;
    if (round.ran === 0) bench.meters.idleRounds += 1;
    if (round.unresolved.length > 0)
      throw new Error(`${what}: payment jobs unresolved ${JSON.stringify(round.unresolved)}`);
    const value = await reached();
    if (round.ran > 0) ran();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not reached within ${ORDER_TIMEOUT_MS} ms`);
    if (round.ran === 0) await sleep(1);
  }
}

/** A step's wall time, and the part of it inside transactions and waiting on provider HTTP (ms). */
interface Step {
  readonly ms: number;
  readonly transactionMs: number;
  readonly httpMs: number;
}

interface Paid {
  readonly orderId: string;
  readonly providerOrderId: string;
  /** Checkout, then each worker round that ran a job and the approval + return between them. */
  readonly steps: readonly Step[];
}

/** Marks step boundaries (the meter parts are only this order's when it is alone in flight). */
function stepClock(meters: Meters) {
  const read = () => ({ at: performance.now(), tx: meters.transactionMs, http: meters.httpMs });
  let last = read();
  const steps: Step[] = [];
  return {
    steps,
    mark() {
      const now = read();
      steps.push({ ms: now.at - last.at, transactionMs: now.tx - last.tx, httpMs: now.http - last.http });
      last = now;
    },
  };
}

/** One order from checkout to paid through the provider, as the buyer and the worker go. */
async function payWithProvider(bench: Bench, context: StoreContextRow): Promise<Paid> {
  const { services, shop, fixture } = bench;
  const { tenantId } = shop;
  const db = services.database.db;
  const clock = stepClock(bench.meters);
  const orderId = await placeOrder(bench, context);
  const [attempt] = await listPaymentAttempts(db, tenantId, orderId);
  if (!attempt) throw new Error(`checkout of ${orderId} opened no payment attempt`);
  clock.mark();
  const providerOrderId = await workUntil(
    bench,
    `provider order of ${orderId}`,
    async () => (await findPaymentAttempt(db, tenantId, attempt.id))?.providerOrderId ?? null,
    clock.mark,
  );
  fixture.approve(providerOrderId);
  const back = await returnFromProvider(services, tenantId, attempt.id, providerOrderId);
  if (!back.ok) throw new Error(`return of ${orderId}: ${back.code} ${back.detail}`);
  clock.mark();
  await workUntil(
    bench,
    `payment of ${orderId}`,
    async () => ((await findOrder(db, tenantId, orderId))?.paymentState === 'paid' ? true : null),
    clock.mark,
  );
  return { orderId, providerOrderId, steps: clock.steps };
}

interface Measured<T> {
  /** End-to-end latency per order, ms, sorted. */
  readonly latencies: number[];
  readonly seconds: number;
  readonly cpuMsPerOrder: number;
  readonly results: T[];
}

/** `each` over `contexts` with `inFlight` loops, each taking the next context when it is done. */
async function measure<T>(
  contexts: readonly StoreContextRow[],
  inFlight: number,
  each: (context: StoreContextRow) => Promise<T>,
): Promise<Measured<T>> {
  const queue = [...contexts].reverse();
  const latencies: number[] = [];
  const results: T[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let context = queue.pop(); context; context = queue.pop()) {
        const began = performance.now();
        results.push(await each(context));
        latencies.push(performance.now() - began);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { latencies, seconds, cpuMsPerOrder: cpuMs(process.cpuUsage(cpu)) / contexts.length, results };
}

/** Fails loudly unless every provider order is paid exactly once with exactly one capture. */
async function verify(bench: Bench, paid: readonly Paid[], invoiceOrders: readonly string[]) {
  const { services, shop, fixture } = bench;
  const { tenantId } = shop;
  const problems: string[] = [];
  const rows = await services.database.rows<{
    id: string;
    payment_state: string;
    attempts: number;
    captured: number;
    captured_events: number;
    paid_moves: number;
  }>(sql`
    select o.id::text as id, o.payment_state,
      (select count(*)::int from payment_attempts a
        where a.tenant_id = o.tenant_id and a.order_id = o.id) as attempts,
      (select count(*)::int from payment_attempts a
        where a.tenant_id = o.tenant_id and a.order_id = o.id and a.status = 'captured') as captured,
      (select count(*)::int from outbox_events e
        where e.tenant_id = o.tenant_id and e.name = 'payment.captured'
          and e.payload->>'orderId' = o.id::text) as captured_events,
      (select count(*)::int from order_activities t
        where t.tenant_id = o.tenant_id and t.order_id = o.id and t.kind = 'transition'
          and t.data->>'machine' = 'payment' and t.data->>'to' = 'paid') as paid_moves
    from orders o where o.tenant_id = ${tenantId}`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  if (rows.length !== paid.length + invoiceOrders.length)
    problems.push(`${rows.length} orders in the shop, expected ${paid.length + invoiceOrders.length}`);
  for (const { orderId, providerOrderId } of paid) {
    const row = byId.get(orderId);
    if (!row) {
      problems.push(`${orderId}: missing`);
      continue;
    }
    if (row.payment_state !== 'paid') problems.push(`${orderId}: payment state ${row.payment_state}`);
    if (row.attempts !== 1 || row.captured !== 1)
      problems.push(`${orderId}: ${row.attempts} attempts, ${row.captured} captured`);
    if (row.captured_events !== 1)
      problems.push(`${orderId}: ${row.captured_events} payment.captured events`);
    if (row.paid_moves !== 1) problems.push(`${orderId}: moved to paid ${row.paid_moves} times`);
    const captures = fixture.captures(providerOrderId);
    if (captures.length !== 1 || captures[0]?.status !== 'COMPLETED')
      problems.push(
        `${orderId}: ${captures.length} captures at the fixture (${captures.map((c) => c.status).join(', ')})`,
      );
  }
  for (const orderId of invoiceOrders) {
    const row = byId.get(orderId);
    const untouched = row?.payment_state === 'open' && row.attempts === 0 && row.captured_events === 0;
    if (!untouched) problems.push(`${orderId}: the invoice order is missing or was touched by payments`);
  }
  if (new Set(paid.map((order) => order.providerOrderId)).size !== paid.length)
    problems.push('provider order ids are not distinct');
  const jobs = await services.database.rows<{ kind: string; status: string; count: number }>(
    sql`select kind, status, count(*)::int as count from payment_jobs where tenant_id = ${tenantId} group by kind, status order by kind, status`,
  );
  for (const job of jobs)
    if (job.status !== 'done') problems.push(`${job.count} ${job.kind} payment jobs ${job.status}`);
  const creates = fixture.calls.filter(
    (call) => call.method === 'POST' && call.path === '/v2/checkout/orders' && call.status === 201,
  ).length;
  if (creates !== paid.length) problems.push(`${creates} provider orders created for ${paid.length} orders`);
  if (problems.length > 0) {
    throw new Error(
      `payments bench: the measured path is broken (${problems.length} problems):\n  ${problems.slice(0, 20).join('\n  ')}`,
    );
  }
  return { jobs: jobs.reduce((sum, job) => sum + job.count, 0) };
}

/** Provider HTTP calls by route (ids folded), for the breakdown. */
function callsByRoute(fixture: PayPalFixture): Map<string, number> {
  const routes = new Map<string, number>();
  for (const call of fixture.calls) {
    const route = `${call.method} ${call.path.replace(/^(\/v2\/checkout\/orders\/)[^/]+/, '$1{id}')}`;
    routes.set(route, (routes.get(route) ?? 0) + 1);
  }
  return routes;
}

async function run(engine: string, database: Database, meters: Meters) {
  const fixture = await startPayPalFixture();
  try {
    const bench = await setUp(database, fixture, meters);
    const invoice = await visitors(bench, ORDERS * 2, SELLABLE.invoice);
    const provider = await visitors(bench, ORDERS * 2 + 1, PROVIDER_METHOD);

    const baselineSequential = await measure(invoice.slice(0, ORDERS), 1, (context) =>
      placeOrder(bench, context),
    );
    const baselineConcurrent = await measure(invoice.slice(ORDERS), CONCURRENCY, (context) =>
      placeOrder(bench, context),
    );
    const warmUp = await payWithProvider(bench, provider[0]!);

    const atStart = { ...meters };
    const paidSequential = await measure(provider.slice(1, ORDERS + 1), 1, (context) =>
      payWithProvider(bench, context),
    );
    const afterSequential = { ...meters };
    const paidConcurrent = await measure(provider.slice(ORDERS + 1), CONCURRENCY, (context) =>
      payWithProvider(bench, context),
    );
    const sequentialMeters = since(afterSequential, atStart);
    const concurrentMeters = since(meters, afterSequential);

    const paid = [warmUp, ...paidSequential.results, ...paidConcurrent.results];
    const checked = await verify(bench, paid, [...baselineSequential.results, ...baselineConcurrent.results]);

    const rate = (m: Measured<unknown>) => m.results.length / m.seconds;
    const row = (label: string, m: Measured<unknown>, base: Measured<unknown>) =>
      `  ${label.padEnd(46)} ${rate(m).toFixed(1).padStart(8)} ${percentile(m.latencies, 50).toFixed(2).padStart(9)} ${percentile(m.latencies, 99).toFixed(2).padStart(9)} ${m.cpuMsPerOrder.toFixed(2).padStart(9)} ${(rate(m) / rate(base)).toFixed(2).padStart(8)}×`;
    console.log(
      `${engine}: ${ORDERS} orders per phase, sequential then ${CONCURRENCY} in flight; baseline (a): checkout alone, invoice method`,
    );
    console.log(
      `  ${'phase'.padEnd(46)} ${'orders/s'.padStart(8)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'CPU ms/o'.padStart(9)} ${'vs (a)'.padStart(9)}`,
    );
    console.log(row('(a) checkout, invoice, sequential', baselineSequential, baselineSequential));
    console.log(
      row(`(a) checkout, invoice, ${CONCURRENCY} in flight`, baselineConcurrent, baselineConcurrent),
    );
    console.log(row('(b) checkout + provider to paid, sequential', paidSequential, baselineSequential));
    console.log(
      row(`(b) checkout + provider to paid, ${CONCURRENCY} in flight`, paidConcurrent, baselineConcurrent),
    );
    console.log(
      `  ratio (b)/(a) orders/s: ${(rate(paidSequential) / rate(baselineSequential)).toFixed(2)}× sequential, ${(rate(paidConcurrent) / rate(baselineConcurrent)).toFixed(2)}× with ${CONCURRENCY} in flight`,
    );

    const names = [
      'checkout (+ read the attempt id)',
      'worker round: create (+ read attempt)',
      'approve at the fixture + return',
      'worker round: reconcile (+ read order)',
      'worker round: capture (+ read order)',
    ];
    if (paidSequential.results.every((result) => result.steps.length === names.length)) {
      console.log(
        '  (b) sequential, per step: p50 / p99 ms; mean ms = inside transactions + waiting on provider HTTP + rest',
      );
      names.forEach((name, index) => {
        const steps = paidSequential.results.map((result) => result.steps[index]!);
        const sorted = steps.map((step) => step.ms).sort((a, b) => a - b);
        const mean = (pick: (step: Step) => number) =>
          steps.reduce((sum, step) => sum + pick(step), 0) / steps.length;
        const [ms, tx, http] = [mean((s) => s.ms), mean((s) => s.transactionMs), mean((s) => s.httpMs)];
        console.log(
          `    ${name.padEnd(40)} ${percentile(sorted, 50).toFixed(2).padStart(7)} / ${percentile(sorted, 99).toFixed(2).padStart(7)}   mean ${ms.toFixed(2).padStart(6)} = ${tx.toFixed(2)} tx + ${http.toFixed(2)} http + ${(ms - tx - http).toFixed(2)} rest`,
        );
      });
    } else {
      console.log('  (b) sequential steps: not shown (some orders took other than one job per round)');
    }
    const per = (value: number) => (value / ORDERS).toFixed(2);
    const perOrder = (m: Meters) =>
      `${per(m.transactions)} transactions (${per(m.transactionMs)} ms inside them, ${m.retries} retries in all), ${per(m.rounds)} worker rounds (${per(m.idleRounds)} idle), ${per(m.httpCalls)} provider HTTP calls (${per(m.httpMs)} ms waiting on them)`;
    console.log(`  (b) sequential, per order: ${perOrder(sequentialMeters)}`);
    console.log(`  (b) ${CONCURRENCY} in flight, per order: ${perOrder(concurrentMeters)} (times overlap)`);
    const routes = [...callsByRoute(fixture)].map(([route, count]) => `${route} ×${count}`).join(', ');
    console.log(`  provider calls, whole run: ${routes}`);
    console.log(
      `  verified: ${paid.length} provider orders paid once with one capture each at the fixture (${checked.jobs} payment jobs, all done); ${baselineSequential.results.length + baselineConcurrent.results.length} invoice orders untouched`,
    );
  } finally {
    await fixture.close();
  }
}

let meters = newMeters();
await onEachEngine(
  (label, database) => run(label, database, meters),
  () => {
    meters = newMeters();
    return { maxConnections: CONCURRENCY + 2, onTransactionRetry: () => (meters.retries += 1) };
  },
);
