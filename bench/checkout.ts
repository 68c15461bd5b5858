// Checkout throughput and latency on PGlite and PostgreSQL, printed against a named baseline:
// one empty transaction (BEGIN; SELECT 1; COMMIT) on the same engine. Repeatable: fixed counts,
// fresh database per engine, same cart for every checkout (1 product line + shipping).
//
//   corepack pnpm bench:checkout                 PGlite, and PostgreSQL when BENCH_DATABASE_URL is set
//   BENCH_CHECKOUTS=500 corepack pnpm bench:checkout

import { type Database, insertProduct } from '@cartwright/repository';
import { checkout, createServices, type Services } from '@cartwright/service';
import { createSellableShop, readyVisitor, SELLABLE, type SellableShop } from '@cartwright/service/testing';
import { sql } from 'drizzle-orm';
import { onEachEngine } from './engines.ts';

const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PRODUCT = '0190f0c8-0000-7000-8000-00000000be04';

/** The fixture shop plus one product with stock for every checkout of the run. */
async function setUp(services: Services): Promise<SellableShop> {
  const shop = await createSellableShop(services, 'Bench');
  await services.database.transaction((tx) =>
    insertProduct(
      tx,
      shop.tenantId,
      {
        id: PRODUCT,
        sku: 'BENCH',
        translations: { en: { name: 'Bench' } },
        prices: [{ currency: 'EUR', gross: 1999, net: 1680 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 1_000_000,
      },
      services.clock.now(),
    ),
  );
  return shop;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function run(engine: string, database: Database) {
  const services = createServices(database);
  const shop = await setUp(services);
  const { tenantId } = shop;
  const baseline: number[] = [];
  for (let i = 0; i < CHECKOUTS; i++)
    baseline.push(await timed(() => database.transaction((tx) => tx.execute(sql`select 1`))));
  baseline.sort((a, b) => a - b);

  const contexts = [];
  for (let i = 0; i < CHECKOUTS * 2; i++)
    contexts.push((await readyVisitor(services, shop, { [PRODUCT]: 2 })).context);
  const latencies: number[] = [];
  for (const context of contexts.slice(0, CHECKOUTS)) {
    latencies.push(
      await timed(async () => {
        const placed = await checkout(services, tenantId, context, undefined);
        if (!placed.ok) throw new Error(placed.detail);
      }),
    );
  }
  latencies.sort((a, b) => a - b);

  const queue = contexts.slice(CHECKOUTS);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let context = queue.pop(); context; context = queue.pop()) {
        const placed = await checkout(services, tenantId, context, undefined);
        if (!placed.ok) throw new Error(placed.detail);
      }
    }),
  );
  const concurrentSeconds = (performance.now() - started) / 1000;

  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const base = percentile(baseline, 50);
  const line = (label: string, ms: number) =>
    `  ${label.padEnd(22)} ${ms.toFixed(2).padStart(8)} ms   ${(ms / base).toFixed(1).padStart(6)}× baseline`;
  console.log(
    `${engine}: ${CHECKOUTS} sequential checkouts, then ${CHECKOUTS} with ${CONCURRENCY} in flight`,
  );
  console.log(line('baseline p50 (empty tx)', base));
  console.log(line('checkout p50', p50));
  console.log(line('checkout p99', p99));
  console.log(
    `  sequential throughput  ${(1000 / (latencies.reduce((a, b) => a + b, 0) / latencies.length)).toFixed(0).padStart(8)} checkouts/s`,
  );
  console.log(
    `  concurrent throughput  ${(CHECKOUTS / concurrentSeconds).toFixed(0).padStart(8)} checkouts/s (${CONCURRENCY} in flight)`,
  );
}

await onEachEngine(run, () => ({ maxConnections: CONCURRENCY + 2 }));
