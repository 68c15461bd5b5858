import { appendEvents, type Database, insertProduct } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from '../src/checkout/checkout.ts';
import { createServices, type Services } from '../src/index.ts';
import { intelligenceEvidenceProjection } from '../src/intelligence/evidence.ts';
import { listHypotheses } from '../src/intelligence/listing.ts';
import { setHypothesisStatus } from '../src/intelligence/review.ts';
import { addLabelledEvidence } from '../src/intelligence/simulation.ts';
import { consumeOnce } from '../src/outbox/projections.ts';
import { createSellableShop, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// Evidence through the service: a variant counts as its main product, a sandbox shop's orders
// are `sandbox` evidence (and it may publish simulated pairs), a malformed event is skipped, and
// setHypothesisStatus writes nothing when the caller's transaction rolls back.

let database: Database;
let services: Services;
let live: SellableShop;
let sandbox: SellableShop;
const SHIRT = '0190f0c8-0000-7000-8000-0000000019a1';
const SHIRT_M = '0190f0c8-0000-7000-8000-0000000019a2';
const SHIRT_L = '0190f0c8-0000-7000-8000-0000000019a3';
const BOOK = '0190f0c8-0000-7000-8000-0000000019a4';
const MUG = '0190f0c8-0000-7000-8000-0000000019a5';
const system = { kind: 'system', process: 'test' } as const;

async function addProducts(shop: SellableShop) {
  await database.transaction(async (tx) => {
    const at = services.clock.now();
    const product = (id: string, sku: string, more: Record<string, unknown> = {}) =>
      insertProduct(
        tx,
        shop.tenantId,
        {
          id,
          sku,
          translations: { en: { name: sku } },
          prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
          taxClassId: SELLABLE.standardTax,
          stockAvailable: 100,
          ...more,
        },
        at,
      );
    await product(SHIRT, 'SHIRT');
    await product(SHIRT_M, 'SHIRT-M', { parentId: SHIRT, options: { size: 'M' } });
    await product(SHIRT_L, 'SHIRT-L', { parentId: SHIRT, options: { size: 'L' } });
    await product(BOOK, 'BOOK');
    await product(MUG, 'MUG');
  });
}

async function order(shop: SellableShop, lines: Record<string, number>) {
  const { context } = await readyVisitor(services, shop, lines);
  const placed = await checkout(services, shop.tenantId, context, undefined);
  if (!placed.ok) throw new Error(placed.detail);
  return placed.value;
}

async function consume() {
  const options = { owner: 'test', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  while ((await consumeOnce(services, intelligenceEvidenceProjection, options)).tenantId !== null);
}

const skus = (pair: { productA: { sku: string | null }; productB: { sku: string | null } }) =>
  [pair.productA.sku, pair.productB.sku].sort().join('|');

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  live = await createSellableShop(services, 'Intelligence shop');
  sandbox = await createSellableShop(services, 'Intelligence sandbox');
  await database.db.execute(sql`update tenants set stage = 'sandbox' where id = ${sandbox.tenantId}`);
  await addProducts(live);
  await addProducts(sandbox);
});
afterAll(async () => database?.close());

describe('evidence from orders', () => {
  it('counts a variant as its main product, and two sizes of one product never as a pair', async () => {
    await order(live, { [SHIRT_M]: 1, [BOOK]: 1 });
    await order(live, { [SHIRT_M]: 1, [SHIRT_L]: 2, [BOOK]: 1, [MUG]: 1 });
    await consume();
    const view = await listHypotheses(database.db, live.tenantId, {});
    expect(view.totals).toEqual({ observed: 2, manual: 0, simulated: 0, sandbox: 0 });
    expect(Object.fromEntries(view.items.map((pair) => [skus(pair), pair.counts.observed]))).toEqual({
      'BOOK|SHIRT': 2,
      'MUG|SHIRT': 1,
      'BOOK|MUG': 1,
    });
  });

  it('labels a sandbox shop’s orders sandbox, and never observed', async () => {
    await order(sandbox, { [BOOK]: 1, [MUG]: 1 });
    await consume();
    const view = await listHypotheses(database.db, sandbox.tenantId, {});
    expect(view.totals).toEqual({ observed: 0, manual: 0, simulated: 0, sandbox: 1 });
    expect(view.items.map((pair) => [skus(pair), pair.counts])).toEqual([
      ['BOOK|MUG', { observed: 0, manual: 0, simulated: 0, sandbox: 1 }],
    ]);
  });

  it('skips an order.placed whose payload does not name an order', async () => {
    await database.transaction((tx) =>
      appendEvents(tx, live.tenantId, [
        {
          id: services.ids.next(),
          name: 'order.placed',
          payload: { orderId: 42 },
          actor: system,
          occurredAt: new Date(),
        },
        {
          id: services.ids.next(),
          name: 'payment.captured',
          payload: { orderId: services.ids.next() },
          actor: system,
          occurredAt: new Date(),
        },
      ]),
    );
    const before = await listHypotheses(database.db, live.tenantId, {});
    await consume();
    expect(await listHypotheses(database.db, live.tenantId, {})).toEqual(before);
  });
});

describe('publication of simulated evidence', () => {
  it('is refused in a live shop and allowed in a sandbox', async () => {
    for (const shop of [live, sandbox]) {
      const added = await database.transaction((tx) =>
        addLabelledEvidence(tx, services, shop.tenantId, system, {
          source: 'simulated',
          baskets: [[SHIRT_L, MUG, SHIRT]],
        }),
      );
      expect(added).toMatchObject({ ok: true, value: { source: 'simulated', baskets: 1 } });
    }
    const livePair = (await listHypotheses(database.db, live.tenantId, {})).items.find(
      (pair) => skus(pair) === 'MUG|SHIRT',
    )!;
    // MUG|SHIRT has observed evidence in the live shop: publishable. A simulated-only pair is not.
    expect(livePair.counts).toMatchObject({ observed: 1, simulated: 1 });
    const sandboxPair = (await listHypotheses(database.db, sandbox.tenantId, {})).items.find(
      (pair) => skus(pair) === 'MUG|SHIRT',
    )!;
    expect(sandboxPair.counts).toEqual({ observed: 0, manual: 0, simulated: 1, sandbox: 0 });
    const publish = (shop: SellableShop, id: string, revision: number) =>
      database.transaction((tx) =>
        setHypothesisStatus(tx, services, shop.tenantId, system, {
          id,
          revision,
          status: 'published',
          approve: true,
        }),
      );
    expect(await publish(sandbox, sandboxPair.id, 1)).toMatchObject({
      ok: true,
      value: { status: 'published' },
    });

    await database.transaction((tx) =>
      addLabelledEvidence(tx, services, live.tenantId, system, {
        source: 'simulated',
        baskets: [[BOOK, SHIRT_M]],
      }),
    );
    await database
      .transaction((tx) =>
        addLabelledEvidence(tx, services, live.tenantId, system, {
          source: 'simulated',
          baskets: [['0190f0c8-0000-7000-8000-0000000019ff', BOOK]],
        }),
      )
      .then((refused) => expect(refused).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' }));
    const manual = await database.transaction((tx) =>
      addLabelledEvidence(tx, services, live.tenantId, system, { source: 'manual', baskets: [[MUG, BOOK]] }),
    );
    expect(manual.ok).toBe(true);
    const view = await listHypotheses(database.db, live.tenantId, {});
    expect(view.totals).toEqual({ observed: 2, manual: 1, simulated: 2, sandbox: 0 });
    const bookMug = view.items.find((pair) => skus(pair) === 'BOOK|MUG')!;
    expect(bookMug.counts).toEqual({ observed: 1, manual: 1, simulated: 0, sandbox: 0 });
  });
});

describe('setHypothesisStatus in the caller’s transaction', () => {
  it('leaves nothing behind when the caller rolls back, and commits with it otherwise', async () => {
    const pair = (await listHypotheses(database.db, live.tenantId, {})).items[0]!;
    class Rollback extends Error {}
    await expect(
      database.transaction(async (tx) => {
        const moved = await setHypothesisStatus(tx, services, live.tenantId, system, {
          id: pair.id,
          revision: pair.revision,
          status: 'published',
          approve: true,
        });
        expect(moved.ok).toBe(true);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    const after = (await listHypotheses(database.db, live.tenantId, {})).items.find(
      (item) => item.id === pair.id,
    )!;
    expect(after).toMatchObject({ status: pair.status, revision: pair.revision });

    const committed = await database.transaction((tx) =>
      setHypothesisStatus(tx, services, live.tenantId, system, {
        id: pair.id,
        revision: pair.revision,
        status: 'experiment',
      }),
    );
    expect(committed).toEqual({
      ok: true,
      value: {
        id: pair.id,
        productAId: expect.any(String),
        productBId: expect.any(String),
        status: 'experiment',
        previousStatus: pair.status,
        revision: pair.revision + 1,
      },
    });
    const stale = await database.transaction((tx) =>
      setHypothesisStatus(tx, services, live.tenantId, system, {
        id: pair.id,
        revision: pair.revision,
        status: 'dismissed',
      }),
    );
    expect(stale).toMatchObject({
      ok: false,
      code: 'STALE_REVISION',
      extensions: { expected: pair.revision, actual: pair.revision + 1 },
    });
    const foreign = await database.transaction((tx) =>
      setHypothesisStatus(tx, services, sandbox.tenantId, system, {
        id: pair.id,
        revision: pair.revision + 1,
        status: 'dismissed',
      }),
    );
    expect(foreign).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('the merchant list', () => {
  it('answers at most 24 pairs, best first', async () => {
    const shop = await createSellableShop(services, 'Many pairs');
    const ids = Array.from({ length: 9 }, (_, i) => `0190f0c8-0000-7000-8000-0000000019b${i}`);
    await database.transaction(async (tx) => {
      for (const [i, id] of ids.entries()) {
        await insertProduct(
          tx,
          shop.tenantId,
          { id, sku: `P${i}`, translations: { en: { name: `P${i}` } } },
          services.clock.now(),
        );
      }
    });
    // One basket of all 9 (36 pairs), then P0 with P1 twice more and P0 with P2 once more.
    const added = await database.transaction((tx) =>
      addLabelledEvidence(tx, services, shop.tenantId, system, {
        source: 'manual',
        baskets: [ids, [ids[0]!, ids[1]!], [ids[0]!, ids[1]!], [ids[0]!, ids[2]!]],
      }),
    );
    expect(added.ok).toBe(true);
    const view = await listHypotheses(database.db, shop.tenantId, {});
    expect(view.totals).toEqual({ observed: 0, manual: 4, simulated: 0, sandbox: 0 });
    expect(view.items).toHaveLength(24);
    expect(view.items.slice(0, 2).map((pair) => [skus(pair), pair.counts.manual])).toEqual([
      ['P0|P1', 3],
      ['P0|P2', 2],
    ]);
    expect(view.items.slice(2).every((pair) => pair.counts.manual === 1)).toBe(true);
  });
});
