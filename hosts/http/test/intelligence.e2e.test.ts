import {
  consumeOnce,
  intelligenceEvidenceProjection,
  paymentServicesOf,
  runDuePaymentJobs,
} from '@cartwright/service';
import { type PayPalFixture, startPayPalFixture } from '@cartwright/tooling/paypal-fixture';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from './harness.ts';
import {
  accountVariables,
  createPaymentHarness,
  expectOk,
  registerAccount,
  staffOf,
} from './payment-accounts.ts';

// Issue 19 over HTTP: 30 orders through the storefront's checkout (27 on invoice, 3 through the
// loopback PayPal fixture) feed co-purchase evidence; the hand-counted pair table below is what
// the merchant sees. A PayPal order counts only once its capture is confirmed; replaying the outbox
// adds nothing; simulated evidence stays apart; review moves follow the spec's table; the public
// recommendations show a pair only while it is published and never an order id, a customer id
// or a count; another shop sees none of it.

let h: Harness;
let fixture: PayPalFixture;
let channelKey: string;
const PROVIDER_METHOD = '0190f0c8-0000-7000-8000-0000000e0019';
const ACCOUNT_A = { clientId: 'client-intel', webhookId: 'WH-INTEL', merchantId: 'MERCHANTI1' };
let provider: ReturnType<typeof paymentServicesOf>['provider'] | undefined;

function providerOf() {
  if (!provider) {
    registerAccount(fixture, ACCOUNT_A);
    provider = paymentServicesOf(accountVariables(fixture, { [h.shopA.tenantId]: ACCOUNT_A })).provider;
  }
  return provider;
}

const staff: ReturnType<typeof staffOf> = (...args) => staffOf(h)(...args);
const products: Record<string, string> = {};
const orderIds: string[] = [];

/** Creates shop A's product `sku` with an English and a German name, in stock. */
async function createProduct(sku: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = expectOk(
    await staff('POST', '/api/catalog/products', {
      sku,
      translations: { en: { name: `${sku} (en)` }, de: { name: `${sku} (de)` } },
      prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
      taxClassId: '0190f0c8-0000-7000-8000-0000000f0001',
      stockAvailable: 1000,
      ...extra,
    }),
    201,
  );
  return ((created.product ?? created) as { id: string }).id;
}

/** Places one order of `skus` through the storefront, paid by invoice or the PayPal method. */
async function placeOrder(skus: readonly string[], payment: 'invoice' | 'paypal' = 'invoice') {
  const token = await h.visitorWithCart(
    channelKey,
    skus.map((sku) => ({ productId: products[sku]!, quantity: 1 })),
  );
  const headers = { 'x-channel-key': channelKey, 'x-context-token': token };
  if (payment === 'paypal') {
    expectOk(
      await h.call('PATCH', '/store-api/cart', { headers, body: { paymentMethodId: PROVIDER_METHOD } }),
    );
  }
  const order = expectOk(await h.call('POST', '/store-api/checkout', { headers }), 201);
  orderIds.push(order.id as string);
  return { orderId: order.id as string, token };
}

/** Runs the evidence projection for every shop until no shop has a backlog; answers the events applied. */
async function consumeEvidence(): Promise<number> {
  let applied = 0;
  const options = { owner: 'intelligence-e2e', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  for (;;) {
    const report = await consumeOnce(h.services, intelligenceEvidenceProjection, options);
    if (report.tenantId === null) return applied;
    applied += report.applied;
  }
}

async function runPaymentJobs() {
  for (let round = 0; round < 20; round++) {
    const ran = await runDuePaymentJobs(h.services, {
      owner: 'intelligence-e2e',
      leaseMs: 30_000,
      limit: 10,
    });
    if (ran.ran === 0) return;
  }
}

/** The buyer approves the PayPal order at the fixture and returns; the worker then captures. */
async function payAtProvider(orderId: string, token: string) {
  await runPaymentJobs();
  const headers = { 'x-channel-key': channelKey, 'x-context-token': token };
  const payment = expectOk(await h.call('GET', `/store-api/orders/${orderId}/payment`, { headers }));
  const approvalUrl = (payment.attempt as { approvalUrl: string }).approvalUrl;
  const approved = await fetch(approvalUrl, { redirect: 'manual' });
  const location = new URL(approved.headers.get('location')!);
  expect((await h.app.request(`${location.pathname}${location.search}`)).status).toBe(200);
  await runPaymentJobs();
  const ledger = expectOk(await staff('GET', `/api/orders/${orderId}/payments`));
  expect(ledger.paymentState).toBe('paid');
}

interface Pair {
  id: string;
  status: string;
  revision: number;
  productA: { id: string; sku: string; name: string };
  productB: { id: string; sku: string; name: string };
  counts: { observed: number; manual: number; simulated: number; sandbox: number };
  scores: { trusted: { support: number; confidenceAB: number; confidenceBA: number; lift: number } };
  sourceEvents: { id: string; source: string }[];
}

async function pairs(token = h.shopA.token): Promise<{ totals: Record<string, number>; items: Pair[] }> {
  return expectOk(await h.call('GET', '/api/intelligence', { token })) as never;
}

/** `A|B` → observed count, products named by SKU in alphabetical order. */
function observedTable(items: readonly Pair[]): Record<string, number> {
  return Object.fromEntries(
    items
      .filter((pair) => pair.counts.observed > 0)
      .map((pair) => [[pair.productA.sku, pair.productB.sku].sort().join('|'), pair.counts.observed]),
  );
}

function pairOf(items: readonly Pair[], first: string, second: string): Pair {
  const found = items.find(
    (pair) => [pair.productA.sku, pair.productB.sku].sort().join('|') === [first, second].sort().join('|'),
  );
  if (!found) throw new Error(`no pair ${first}|${second}`);
  return found;
}

// The 30 orders: 27 on invoice, then 3 through PayPal (28 and 29 captured at once, 30 left unpaid).
const INVOICE_BASKETS: readonly (readonly string[])[] = [
  ...Array.from({ length: 10 }, () => ['IA', 'IB']),
  ...Array.from({ length: 5 }, () => ['IA', 'IB', 'IC']),
  ...Array.from({ length: 5 }, () => ['IC', 'ID']),
  ...Array.from({ length: 4 }, () => ['IA', 'IC']),
  ['IE'],
  ['IE'],
  ['IA', 'IB', 'ID'],
];
// Counted by hand from the baskets above plus orders 28 (IB, ID) and 29 (ID, IE):
//   IA|IB = 10 + 5 + 1 = 16, IA|IC = 5 + 4 = 9, IB|IC = 5, IC|ID = 5, IA|ID = 1, IB|ID = 1 + 1 = 2,
//   ID|IE = 1; order 30 (IA, IE) adds IA|IE = 1 only once captured.
const TABLE_29 = { 'IA|IB': 16, 'IA|IC': 9, 'IB|IC': 5, 'IC|ID': 5, 'IA|ID': 1, 'IB|ID': 2, 'ID|IE': 1 };

beforeAll(async () => {
  fixture = await startPayPalFixture();
  h = await createPaymentHarness(providerOf, PROVIDER_METHOD);
  ({ channelKey } = await h.sellableTea());
  expectOk(await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch', active: true }));
  for (const sku of ['IA', 'IB', 'IC', 'ID', 'IE']) products[sku] = await createProduct(sku);
}, 120_000);
afterAll(async () => {
  await h?.close();
  await fixture?.close();
});

describe('evidence from 30 orders through checkout', () => {
  let unpaid: { orderId: string; token: string };

  it('counts the hand-checked pairs; the unpaid PayPal order adds nothing until captured', async () => {
    for (const basket of INVOICE_BASKETS) await placeOrder(basket);
    const paid28 = await placeOrder(['IB', 'ID'], 'paypal');
    const paid29 = await placeOrder(['ID', 'IE'], 'paypal');
    unpaid = await placeOrder(['IA', 'IE'], 'paypal');
    expect(orderIds).toHaveLength(30);

    // Before any capture: the 27 invoice orders only.
    await consumeEvidence();
    const before = await pairs();
    expect(before.totals).toMatchObject({ observed: 27, simulated: 0 });
    expect(observedTable(before.items)).toEqual({ ...TABLE_29, 'IB|ID': 1, 'ID|IE': undefined });

    await payAtProvider(paid28.orderId, paid28.token);
    await payAtProvider(paid29.orderId, paid29.token);
    await consumeEvidence();
    const after = await pairs();
    expect(after.totals).toMatchObject({ observed: 29, manual: 0, simulated: 0, sandbox: 0 });
    expect(observedTable(after.items)).toEqual(TABLE_29);
    // Best first: most baskets with both at the top.
    expect(after.items.map((pair) => pair.counts.observed)).toEqual([16, 9, 5, 5, 2, 1, 1]);
    // IA is in 20 baskets, IB in 17, of 29: support 16/29, confidence 16/20 and 16/17, lift 16·29/(20·17).
    expect(pairOf(after.items, 'IA', 'IB').scores.trusted).toEqual({
      support: 16 / 29,
      confidenceAB: pairOf(after.items, 'IA', 'IB').productA.sku === 'IA' ? 16 / 20 : 16 / 17,
      confidenceBA: pairOf(after.items, 'IA', 'IB').productA.sku === 'IA' ? 16 / 17 : 16 / 20,
      lift: (16 * 29) / (20 * 17),
    });
    expect(pairOf(after.items, 'IA', 'IB').productA.name).toMatch(/^I[AB] \(en\)$/);
  }, 300_000);

  it('counts the external order once its capture is confirmed, and only then', async () => {
    await consumeEvidence();
    expect(observedTable((await pairs()).items)['IA|IE']).toBeUndefined();
    await payAtProvider(unpaid.orderId, unpaid.token);
    await consumeEvidence();
    const after = await pairs();
    expect(after.totals.observed).toBe(30);
    expect(observedTable(after.items)).toEqual({ ...TABLE_29, 'IA|IE': 1 });
  }, 120_000);

  it('keeps the source events of a pair (outbox ids of the placements and captures), bounded', async () => {
    const { items } = await pairs();
    const ab = pairOf(items, 'IA', 'IB');
    expect(ab.sourceEvents).toHaveLength(16);
    expect(ab.sourceEvents.every((event) => event.source === 'observed')).toBe(true);
    const ids = ab.sourceEvents.map((event) => event.id);
    const events = await h.database.rows<{ id: string; name: string }>(sql`
      select id, name from outbox_events where tenant_id = ${h.shopA.tenantId} and id in ${sql.raw(`('${ids.join("','")}')`)}`);
    expect(events).toHaveLength(16);
    expect(new Set(events.map((event) => event.name))).toEqual(new Set(['order.placed']));
    const bd = pairOf(items, 'IB', 'ID');
    const bdEvents = await h.database.rows<{ name: string }>(sql`
      select name from outbox_events where tenant_id = ${h.shopA.tenantId}
      and id in ${sql.raw(`('${bd.sourceEvents.map((event) => event.id).join("','")}')`)} order by sequence`);
    expect(bdEvents.map((event) => event.name)).toEqual(['order.placed', 'payment.captured']);
  });

  it('adds nothing when the outbox is replayed, with or without the receipts', async () => {
    const before = await pairs();
    await h.database.db.execute(
      sql`update outbox_cursors set position = 0 where consumer = ${intelligenceEvidenceProjection.name}`,
    );
    expect(await consumeEvidence()).toBe(0);
    expect(await pairs()).toEqual(before);
    // Without receipts every event is applied again, and still no order counts twice.
    await h.database.db.execute(
      sql`delete from outbox_receipts where consumer = ${intelligenceEvidenceProjection.name}`,
    );
    await h.database.db.execute(
      sql`update outbox_cursors set position = 0 where consumer = ${intelligenceEvidenceProjection.name}`,
    );
    expect(await consumeEvidence()).toBeGreaterThan(30);
    expect(await pairs()).toEqual(before);
  });
});

describe('simulated evidence', () => {
  it('is labelled and never counted as observed', async () => {
    const before = await pairs();
    const added = expectOk(
      await staff('POST', '/api/intelligence/simulations', {
        baskets: [
          [products.IA, products.IE],
          [products.IA, products.IE],
          [products.IC, products.IE],
        ],
      }),
      201,
    );
    expect(added).toMatchObject({ source: 'simulated', baskets: 3 });
    const after = await pairs();
    expect(after.totals).toMatchObject({ observed: 30, simulated: 3 });
    expect(observedTable(after.items)).toEqual(observedTable(before.items));
    expect(pairOf(after.items, 'IA', 'IE').counts).toEqual({
      observed: 1,
      manual: 0,
      simulated: 2,
      sandbox: 0,
    });
    const ce = pairOf(after.items, 'IC', 'IE');
    expect(ce.counts).toEqual({ observed: 0, manual: 0, simulated: 1, sandbox: 0 });
    expect(ce.sourceEvents).toEqual([{ id: added.eventId, source: 'simulated' }]);
    // A simulated-only pair ranks after every pair with observed evidence.
    expect(after.items.at(-1)!.id).toBe(ce.id);
    // It cannot be published in a live shop.
    const refused = await staff('PUT', `/api/intelligence/hypotheses/${ce.id}`, {
      revision: ce.revision,
      status: 'published',
      approve: true,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('EVIDENCE_SIMULATED_ONLY');
  });

  it('refuses a basket naming a product the shop does not have, and adds nothing', async () => {
    const before = await pairs();
    const refused = await staff('POST', '/api/intelligence/simulations', {
      baskets: [[products.IA, '0190f0c8-0000-7000-8000-00000000dead']],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { pointer: '/baskets/0/1', message: 'no such product in this shop' },
    ]);
    expect(await pairs()).toEqual(before);
  });
});

describe('review and public recommendations', () => {
  const store = (path: string, key = channelKey) =>
    h.call('GET', path, { headers: { 'x-channel-key': key } });
  /** No order id or customer id of the shop, and no count, score or source event, in `text`. */
  async function assertNothingPrivate(text: string) {
    const orders = await h.database.rows<{ id: string; customer_id: string }>(
      sql`select id, customer_id from orders where tenant_id = ${h.shopA.tenantId}`,
    );
    expect(orders).toHaveLength(30);
    const ids = new Set([...orderIds, ...orders.flatMap((order) => [order.id, order.customer_id])]);
    for (const id of ids) expect(text).not.toContain(id);
    for (const word of ['observed', 'simulated', 'count', 'support', 'confidence', 'lift', 'sourceEvents']) {
      expect(text).not.toContain(word);
    }
  }

  it('starts every pair as a candidate, and the public endpoint shows nothing unpublished', async () => {
    const { items } = await pairs();
    expect(items.every((pair) => pair.status === 'candidate' && pair.revision === 1)).toBe(true);
    const response = await store('/store-api/intelligence/recommendations/IA');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: [] });
  });

  it('moves as the spec’s table says; a stale revision and a publication without approval are refused', async () => {
    let ab = pairOf((await pairs()).items, 'IA', 'IB');
    const put = (body: Record<string, unknown>) =>
      staff('PUT', `/api/intelligence/hypotheses/${ab.id}`, body);

    const unapproved = await put({ revision: 1, status: 'published' });
    expect(unapproved.status).toBe(422);
    expect(unapproved.body.code).toBe('APPROVAL_REQUIRED');
    expect((await put({ revision: 1, status: 'published', approve: false })).body.code).toBe(
      'APPROVAL_REQUIRED',
    );
    expect((await put({ revision: 1, status: 'candidate' })).status).toBe(422);

    expect(expectOk(await put({ revision: 1, status: 'experiment' }))).toMatchObject({
      status: 'experiment',
      previousStatus: 'candidate',
      revision: 2,
    });
    const stale = await put({ revision: 1, status: 'dismissed' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_REVISION', expected: 1, actual: 2 });
    expect(expectOk(await put({ revision: 2, status: 'dismissed' }))).toMatchObject({
      status: 'dismissed',
      revision: 3,
    });
    expect(expectOk(await put({ revision: 3, status: 'published', approve: true }))).toMatchObject({
      status: 'published',
      previousStatus: 'dismissed',
      revision: 4,
    });
    ab = pairOf((await pairs()).items, 'IA', 'IB');
    expect(ab).toMatchObject({ status: 'published', revision: 4 });
    expect((await pairs(h.shopA.token)).items.length).toBeLessThanOrEqual(24);
    const events = await h.database.rows<{ count: number }>(sql`
      select count(*)::int as count from outbox_events
      where tenant_id = ${h.shopA.tenantId} and name = 'intelligence.hypothesis.reviewed'`);
    expect(events[0]!.count).toBe(3);
  });

  it('shows a published pair from either side, in the visitor’s language, with no private data', async () => {
    const ia = await store('/store-api/intelligence/recommendations/IA');
    expect(ia.status).toBe(200);
    expect(ia.body).toEqual({
      items: [
        {
          id: products.IB,
          sku: 'IB',
          name: 'IB (en)',
          language: 'en',
          price: { currency: 'EUR', gross: 1190, net: 1000 },
          available: true,
        },
      ],
    });
    const ib = await store('/store-api/intelligence/recommendations/ib?language=de');
    expect((ib.body.items as { sku: string; name: string }[]).map((item) => [item.sku, item.name])).toEqual([
      ['IA', 'IA (de)'],
    ]);
    const raw = await h.app.request('/store-api/intelligence/recommendations/IA', {
      headers: { 'x-channel-key': channelKey },
    });
    await assertNothingPrivate(await raw.text());
  });

  it('ranks several published pairs by evidence and leaves out products the channel does not list', async () => {
    const { items } = await pairs();
    const ac = pairOf(items, 'IA', 'IC');
    const ad = pairOf(items, 'IA', 'ID');
    for (const pair of [ac, ad]) {
      expectOk(
        await staff('PUT', `/api/intelligence/hypotheses/${pair.id}`, {
          revision: pair.revision,
          status: 'published',
          approve: true,
        }),
      );
    }
    const listed = await store('/store-api/intelligence/recommendations/IA');
    expect((listed.body.items as { sku: string }[]).map((item) => item.sku)).toEqual(['IB', 'IC', 'ID']);
    await assertNothingPrivate(JSON.stringify(listed.body));

    // ID visible by link only in this channel: not in a list of recommendations.
    const channelId = (
      expectOk(await staff('GET', '/api/automation')).channels as { id: string; isMain: boolean }[]
    ).find((channel) => channel.isMain)!.id;
    const id = expectOk(await staff('GET', `/api/catalog/products/${products.ID}`));
    const revision = ((id.product ?? id) as { revision: number }).revision;
    expectOk(
      await staff('PATCH', `/api/catalog/products/${products.ID}`, {
        revision,
        visibilities: { [channelId]: 'link' },
      }),
    );
    const hidden = await store('/store-api/intelligence/recommendations/IA');
    expect((hidden.body.items as { sku: string }[]).map((item) => item.sku)).toEqual(['IB', 'IC']);
  });

  it('drops a published pair from public responses once dismissed', async () => {
    const ab = pairOf((await pairs()).items, 'IA', 'IB');
    expectOk(
      await staff('PUT', `/api/intelligence/hypotheses/${ab.id}`, {
        revision: ab.revision,
        status: 'dismissed',
      }),
    );
    const after = await store('/store-api/intelligence/recommendations/IA');
    expect((after.body.items as { sku: string }[]).map((item) => item.sku)).toEqual(['IC']);
    const fromB = await store('/store-api/intelligence/recommendations/IB');
    expect(fromB.body).toEqual({ items: [] });
  });

  it('answers 404 for a SKU the channel does not sell, 422 for a language or currency the shop lacks', async () => {
    const response = await store('/store-api/intelligence/recommendations/NOPE');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
    const language = await store('/store-api/intelligence/recommendations/IA?language=fr');
    expect(language.status).toBe(422);
    expect(language.body.code).toBe('LANGUAGE_NOT_ENABLED');
    const currency = await store('/store-api/intelligence/recommendations/IA?currency=JPY');
    expect(currency.status).toBe(422);
    expect(currency.body.errors).toEqual([{ pointer: '/currency', message: 'unknown currency' }]);
    const names = await staff('GET', '/api/intelligence?language=fr');
    expect(names.status).toBe(422);
    expect(names.body.code).toBe('LANGUAGE_NOT_ENABLED');
    const german = await pairs();
    expect(expectOk(await staff('GET', '/api/intelligence?language=de')).items).toHaveLength(
      german.items.length,
    );
  });

  it('serves the same operations as MCP tools', async () => {
    const call = await h.mcp(h.shopA.token);
    const listed = await call('intelligence.list', {});
    expect(listed.isError).toBeFalsy();
    const items = (listed.structuredContent as { items: Pair[] }).items;
    const ac = pairOf(items, 'IA', 'IC');
    const stale = await call('intelligence.review', {
      id: ac.id,
      revision: ac.revision + 5,
      status: 'dismissed',
    });
    expect(stale.isError).toBe(true);
    expect(JSON.stringify(stale.content)).toContain('STALE_REVISION');
    const moved = await call('intelligence.review', {
      id: ac.id,
      revision: ac.revision,
      status: 'experiment',
    });
    expect(moved.isError).toBeFalsy();
    expect(moved.structuredContent).toMatchObject({ status: 'experiment', revision: ac.revision + 1 });
  });
});

describe('another shop', () => {
  it('never sees shop A’s evidence, and cannot review shop A’s pairs', async () => {
    const mine = await pairs();
    const other = await pairs(h.shopB.token);
    expect(other).toEqual({
      totals: { observed: 0, manual: 0, simulated: 0, sandbox: 0 },
      items: [],
    });
    const pair = mine.items[0]!;
    const foreign = await h.call('PUT', `/api/intelligence/hypotheses/${pair.id}`, {
      token: h.shopB.token,
      body: { revision: pair.revision, status: 'dismissed' },
    });
    expect(foreign.status).toBe(404);
    expect(await pairs()).toEqual(mine);
    const keyB = (
      expectOk(await h.call('GET', '/api/automation', { token: h.shopB.token })).channels as {
        accessKey: string;
        isMain: boolean;
      }[]
    ).find((channel) => channel.isMain)!.accessKey;
    const response = await store404(keyB);
    expect(response.status).toBe(404);
  });
});

function store404(key: string) {
  return h.call('GET', '/store-api/intelligence/recommendations/IA', { headers: { 'x-channel-key': key } });
}
