import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  paymentServicesOf,
  runDuePaymentJobs,
  WEBHOOK_BODY_LIMIT_BYTES,
  WEBHOOK_MAX_TRIES,
} from '@cartwright/service';
import {
  type PayPalFixture,
  startPayPalFixture,
  type WebhookEvent,
} from '@cartwright/tooling/paypal-fixture';
import { type ServerType, serve } from '@hono/node-server';
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

// Verified PayPal webhooks over HTTP with the loopback fixture: `POST /webhooks/payments/{shop}`
// verifies every delivery with the shop's own account before storing it once per event id; the
// payment-worker applies it (order and capture events reconcile, refund events merge). The app
// listens on a real port, because the fixture delivers to a URL like PayPal does.

type Provider = ReturnType<typeof paymentServicesOf>['provider'];
type CreateAnswer = Awaited<ReturnType<Provider['createOrder']>>;

let h: Harness;
let fixture: PayPalFixture;
let server: ServerType;
let base: string;
let productId: string;
let channelKey: string;
const PROVIDER_METHOD = '0190f0c8-0000-7000-8000-0000000e0002';
const MERCHANT = 'MERCHANTA1';

/** While set, the provider's create answer is held back: the attempt does not know its order yet. */
let createGate: { readonly seen: (answer: CreateAnswer) => void; readonly open: Promise<void> } | null = null;

beforeAll(async () => {
  fixture = await startPayPalFixture();
  h = await createPaymentHarness(providerOf, PROVIDER_METHOD);
  ({ productId, channelKey } = await h.sellableTea());
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await h?.close();
  await fixture?.close();
});

let provider: Provider | undefined;
/** Shop A's and shop B's accounts at the fixture, each with its own webhook subscription. */
function providerOf(): Provider {
  if (!provider) {
    const a = { clientId: 'client-a', webhookId: 'WH-A', merchantId: MERCHANT };
    const b = { clientId: 'client-b', webhookId: 'WH-B', merchantId: 'MERCHANTB1' };
    registerAccount(fixture, a);
    registerAccount(fixture, b);
    const real = paymentServicesOf(
      accountVariables(fixture, { [h.shopA.tenantId]: a, [h.shopB.tenantId]: b }),
    ).provider;
    provider = {
      ...real,
      async createOrder(tenantId, order) {
        const answer = await real.createOrder(tenantId, order);
        const gate = createGate;
        if (gate) {
          gate.seen(answer);
          await gate.open;
        }
        return answer;
      },
    };
  }
  return provider;
}

const staff: ReturnType<typeof staffOf> = (...args) => staffOf(h)(...args);

/** The payment-worker, run until nothing is due. */
async function runPayments() {
  for (let round = 0; round < 20; round++) {
    const payments = await runDuePaymentJobs(h.services, { owner: 'webhooks', leaseMs: 30_000, limit: 10 });
    if (payments.ran === 0) return;
  }
  throw new Error('the payment-worker did not settle');
}

/** A registered visitor's order paid with the provider method, and its attempt's provider order. */
async function providerOrder(options: { create?: boolean } = {}) {
  const token = await h.visitorWithCart(channelKey, [{ productId, quantity: 1 }]);
  const headers = { 'x-channel-key': channelKey, 'x-context-token': token };
  expectOk(await h.call('PATCH', '/store-api/cart', { headers, body: { paymentMethodId: PROVIDER_METHOD } }));
  const order = expectOk(await h.call('POST', '/store-api/checkout', { headers }), 201);
  const orderId = order.id as string;
  if (options.create === false) return { orderId, providerOrderId: '', approvalUrl: '' };
  await runPayments();
  const [attempt] = (await ledgerOf(orderId)).attempts;
  expect(attempt).toMatchObject({ status: 'awaiting_approval' });
  return { orderId, providerOrderId: attempt!.providerOrderId, approvalUrl: attempt!.approvalUrl };
}

async function ledgerOf(orderId: string) {
  return expectOk(await staff('GET', `/api/orders/${orderId}/payments`)) as {
    paymentState: string;
    attempts: {
      id: string;
      status: string;
      providerOrderId: string;
      approvalUrl: string;
      capture: { id: string; amount: number } | null;
      refunds: { amount: number; status: string; origin: string; providerRefundId: string | null }[];
    }[];
  };
}

const hookUrl = (tenantId: string) => `${base}/webhooks/payments/${tenantId}`;

/** Delivers an event to a shop's webhook address (once, unless told), answering the statuses. */
async function deliver(
  event: WebhookEvent,
  tenantId = h.shopA.tenantId,
  options: Parameters<PayPalFixture['deliverWebhook']>[2] = {},
) {
  const sent = await fixture.deliverWebhook(hookUrl(tenantId), event, { maxAttempts: 1, ...options });
  return sent.map((delivery) => delivery.status);
}

async function inbox(eventId: string) {
  return h.database.rows<{ status: string; attempt_id: string | null; tenant_id: string }>(
    sql`select status, attempt_id, tenant_id from payment_webhook_events where event_id = ${eventId}`,
  );
}

async function webhookJobs(eventId: string) {
  return h.database.rows<{ status: string; tries: number; error: { code: string; message: string } | null }>(
    sql`select status, tries, error from payment_jobs where kind = 'webhook' and subject_id = ${eventId}`,
  );
}

async function countOf(query: ReturnType<typeof sql>) {
  const [row] = await h.database.rows<{ count: number }>(query);
  return row?.count ?? 0;
}

/** A digest of the payment records a replayed job must leave as they were (jobs: all but webhook jobs). */
async function paymentRecords() {
  const [row] = await h.database.rows<{ digest: string }>(sql`
    select md5(concat(
      (select coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '') from payment_attempts t),
      (select coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '') from payment_webhook_events t),
      (select coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '') from outbox_events t),
      (select coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '') from orders t),
      (select coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '') from payment_jobs t where kind <> 'webhook')
    )) as digest`);
  return row!.digest;
}

const captureCalls = (providerOrderId: string) =>
  fixture.calls.filter(
    (call) => call.method === 'POST' && call.path === `/v2/checkout/orders/${providerOrderId}/capture`,
  ).length;

const capturedEvents = (orderId: string) =>
  countOf(
    sql`select count(*)::int as count from outbox_events where name = 'payment.captured' and payload->>'orderId' = ${orderId}`,
  );

/** The buyer at the approval link: approves, and answers the path PayPal sends them back to. */
async function approveAtProvider(approvalUrl: string): Promise<string> {
  const approved = await fetch(approvalUrl, { redirect: 'manual' });
  const location = new URL(approved.headers.get('location')!);
  return `${location.pathname}${location.search}`;
}

/** One genuine transmission of `event`, as PayPal sent it (to an address that refused it). */
async function genuineTransmission(event: WebhookEvent) {
  const [delivery] = await fixture.deliverWebhook(`${base}/webhooks/payments/not-a-shop`, event, {
    maxAttempts: 1,
  });
  expect(delivery?.status).toBe(404);
  return { headers: { ...delivery!.headers }, body: delivery!.body };
}

const post = (tenantId: string, body: string, headers: Record<string, string> = {}) =>
  h.app.request(`/webhooks/payments/${tenantId}`, { method: 'POST', headers, body });

describe('provider webhooks: verification fails closed', () => {
  it('refuses altered, re-serialised, unsigned and other-subscription deliveries and changes nothing', async () => {
    const placed = await providerOrder();
    fixture.approve(placed.providerOrderId);
    const event = fixture.webhookEvents.order(placed.providerOrderId);
    const genuine = await genuineTransmission(event);
    const before = await h.digest();

    const altered = genuine.body.replace('"APPROVED"', '"COMPLETED"');
    expect(altered).not.toBe(genuine.body);
    const refusedAltered = await post(h.shopA.tenantId, altered, genuine.headers);
    expect(refusedAltered.status).toBe(401);
    expect(await refusedAltered.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    // The same event, parsed and written again: no longer the bytes PayPal signed (§10.4).
    const reserialised = JSON.stringify(JSON.parse(genuine.body));
    expect((await post(h.shopA.tenantId, reserialised, genuine.headers)).status).toBe(401);
    // No transmission headers at all.
    expect((await post(h.shopA.tenantId, genuine.body, { 'content-type': 'application/json' })).status).toBe(
      401,
    );
    // Signed for another account's webhook subscription.
    expect(await deliver(event, h.shopA.tenantId, { clientId: 'client-b' })).toEqual([401]);

    expect(await h.digest()).toBe(before);
    expect(await inbox(event.id)).toEqual([]);
    expect(await webhookJobs(event.id)).toEqual([]);

    // The genuine bytes with their headers are accepted, stored once and applied by the worker.
    const accepted = await post(h.shopA.tenantId, genuine.body, genuine.headers);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ eventId: event.id, status: 'received', duplicate: false });
    await runPayments();
    expect((await ledgerOf(placed.orderId)).paymentState).toBe('paid');
    expect(await inbox(event.id)).toMatchObject([{ status: 'applied' }]);
  });

  it("refuses shop A's event at shop B's address and changes nothing in either shop", async () => {
    const placed = await providerOrder();
    fixture.approve(placed.providerOrderId);
    const event = fixture.webhookEvents.order(placed.providerOrderId);
    const before = await h.digest();
    expect(await deliver(event, h.shopB.tenantId)).toEqual([401]);
    expect(await h.digest()).toBe(before);
    expect(await inbox(event.id)).toEqual([]);
    expect((await ledgerOf(placed.orderId)).attempts[0]).toMatchObject({ status: 'awaiting_approval' });
    expect(captureCalls(placed.providerOrderId)).toBe(0);
  });

  it('answers 404 for a malformed or unconfigured shop, 405 for GET, 413 past 64 KiB', async () => {
    const before = await h.digest();
    expect((await post('not-a-uuid', '{}')).status).toBe(404);
    expect((await post(randomUUID(), '{}')).status).toBe(404);
    expect((await h.app.request(`/webhooks/payments/${h.shopA.tenantId}`)).status).toBe(405);

    const oversized = 'x'.repeat(WEBHOOK_BODY_LIMIT_BYTES + 1);
    const viaApp = await post(h.shopA.tenantId, oversized);
    expect(viaApp.status).toBe(413);
    expect(await viaApp.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const viaSocket = await fetch(hookUrl(h.shopA.tenantId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: oversized,
    });
    expect(viaSocket.status).toBe(413);
    // Exactly at the limit is read (and then refused by verification, having no signature).
    const head = '{"id":"WH-PAD","event_type":"X","pad":"';
    const atLimit = `${head}${'x'.repeat(WEBHOOK_BODY_LIMIT_BYTES - head.length - 2)}"}`;
    expect(Buffer.byteLength(atLimit)).toBe(WEBHOOK_BODY_LIMIT_BYTES);
    expect((await post(h.shopA.tenantId, atLimit)).status).toBe(401);
    expect(await h.digest()).toBe(before);
  });
});

describe('provider webhooks: stored once, applied once', () => {
  let paidOrder: string;

  it('answers 503 while the provider cannot verify; the redelivery is stored and captures once', async () => {
    const placed = await providerOrder();
    fixture.approve(placed.providerOrderId);
    const event = fixture.webhookEvents.order(placed.providerOrderId);
    fixture.failNext({ path: '/v1/notifications/verify-webhook-signature', kind: 'status-503' });
    const before = await h.digest();
    const first = await fixture.deliverWebhook(hookUrl(h.shopA.tenantId), event, { maxAttempts: 1 });
    expect(first.map((delivery) => delivery.status)).toEqual([503]);
    expect(await h.digest()).toBe(before);
    // PayPal delivers again later (at least once, §5.6).
    expect(await deliver(event)).toEqual([200]);
    const [attempt] = (await ledgerOf(placed.orderId)).attempts;
    expect(await inbox(event.id)).toEqual([
      { status: 'received', attempt_id: attempt!.id, tenant_id: h.shopA.tenantId },
    ]);
    expect(await webhookJobs(event.id)).toHaveLength(1);

    // No return URL at all: the webhook alone leads to the capture.
    await runPayments();
    const ledger = await ledgerOf(placed.orderId);
    expect(ledger.paymentState).toBe('paid');
    expect(fixture.captures(placed.providerOrderId)).toHaveLength(1);
    expect(captureCalls(placed.providerOrderId)).toBe(1);
    expect(await capturedEvents(placed.orderId)).toBe(1);
    expect(await inbox(event.id)).toMatchObject([{ status: 'applied' }]);
    expect(await webhookJobs(event.id)).toMatchObject([{ status: 'done' }]);
    paidOrder = placed.orderId;
  });

  it('captures once when the return URL and a duplicated CHECKOUT.ORDER.APPROVED race', async () => {
    const placed = await providerOrder();
    const returnPath = await approveAtProvider(placed.approvalUrl);
    const event = fixture.webhookEvents.order(placed.providerOrderId);
    const [returned, statuses] = await Promise.all([
      h.app.request(returnPath),
      deliver(event, h.shopA.tenantId, { duplicate: true }),
    ]);
    expect(returned.status).toBe(200);
    expect(statuses).toEqual([200, 200]);
    expect(await inbox(event.id)).toHaveLength(1);
    expect(await webhookJobs(event.id)).toHaveLength(1);

    await runPayments();
    const ledger = await ledgerOf(placed.orderId);
    expect(ledger.paymentState).toBe('paid');
    expect(ledger.attempts).toHaveLength(1);
    expect(ledger.attempts[0]).toMatchObject({ status: 'captured' });
    expect(fixture.captures(placed.providerOrderId)).toHaveLength(1);
    expect(captureCalls(placed.providerOrderId)).toBe(1);
    expect(await capturedEvents(placed.orderId)).toBe(1);
    expect(await inbox(event.id)).toMatchObject([{ status: 'applied' }]);

    // A later redelivery of the same event changes nothing, and neither does its job run again.
    const settled = await h.digest();
    expect(await deliver(event)).toEqual([200]);
    expect(await h.digest()).toBe(settled);
    const records = await paymentRecords();
    await h.database.rows(
      sql`update payment_jobs set status = 'queued', available_at = now(), finished_at = null where kind = 'webhook' and subject_id = ${event.id}`,
    );
    await runPayments();
    expect(await webhookJobs(event.id)).toMatchObject([{ status: 'done', tries: 2 }]);
    expect(await paymentRecords()).toBe(records);
    // The capture's own event has nothing to add to a paid attempt.
    const captured = fixture.webhookEvents.capture(ledger.attempts[0]!.capture!.id);
    expect(captured.event_type).toBe('PAYMENT.CAPTURE.COMPLETED');
    expect(await deliver(captured)).toEqual([200]);
    await runPayments();
    expect(await inbox(captured.id)).toMatchObject([{ status: 'ignored' }]);
    expect(await webhookJobs(captured.id)).toMatchObject([
      { status: 'done', error: { code: 'WEBHOOK_IGNORED', message: 'settled' } },
    ]);
    expect(captureCalls(placed.providerOrderId)).toBe(1);
    expect(await capturedEvents(placed.orderId)).toBe(1);
  });

  it('applies an event that arrived before its attempt stored the provider order, once it can', async () => {
    let seen!: (answer: CreateAnswer) => void;
    const answered = new Promise<CreateAnswer>((resolve) => {
      seen = resolve;
    });
    let open!: () => void;
    createGate = { seen, open: new Promise<void>((resolve) => (open = resolve)) };
    try {
      const placed = await providerOrder({ create: false });
      // The create job has its answer but has not stored it yet.
      const creating = runDuePaymentJobs(h.services, { owner: 'slow-create', leaseMs: 30_000, limit: 1 });
      const answer = await answered;
      if (answer.outcome !== 'done') throw new Error(`create answered ${answer.outcome}`);
      const providerOrderId = answer.value.id;
      fixture.approve(providerOrderId);
      const event = fixture.webhookEvents.order(providerOrderId);
      expect(await deliver(event)).toEqual([200]);
      const [attempt] = (await ledgerOf(placed.orderId)).attempts;
      expect(attempt).toMatchObject({ status: 'creating', providerOrderId: null });
      expect(await inbox(event.id)).toMatchObject([{ status: 'received', attempt_id: attempt!.id }]);

      // The worker meets the event first: it waits for the provider order.
      const early = await runDuePaymentJobs(h.services, { owner: 'webhooks', leaseMs: 30_000, limit: 10 });
      expect(early.ran).toBe(1);
      expect(await inbox(event.id)).toMatchObject([{ status: 'received' }]);
      expect(await webhookJobs(event.id)).toMatchObject([
        { status: 'queued', tries: 1, error: { code: 'WEBHOOK_DEFERRED' } },
      ]);

      createGate = null;
      open();
      await creating;
      expect((await ledgerOf(placed.orderId)).attempts[0]).toMatchObject({
        status: 'awaiting_approval',
        providerOrderId,
      });
      expect(captureCalls(providerOrderId)).toBe(0);

      // After its pause the event is applied: reconcile, capture, paid once.
      for (let wait = 0; wait < 40 && (await inbox(event.id))[0]?.status === 'received'; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await runPayments();
      }
      await runPayments();
      expect(await inbox(event.id)).toMatchObject([{ status: 'applied' }]);
      const ledger = await ledgerOf(placed.orderId);
      expect(ledger.paymentState).toBe('paid');
      expect(captureCalls(providerOrderId)).toBe(1);
      expect(await capturedEvents(placed.orderId)).toBe(1);
    } finally {
      createGate = null;
    }
  });

  it('gives up on an event its attempt never catches up with, and ignores one about another order', async () => {
    let open!: () => void;
    createGate = { seen: () => {}, open: new Promise<void>((resolve) => (open = resolve)) };
    try {
      const placed = await providerOrder({ create: false });
      const creating = runDuePaymentJobs(h.services, { owner: 'slow-create', leaseMs: 30_000, limit: 1 });
      const [attempt] = (await ledgerOf(placed.orderId)).attempts;
      // An event the provider sent about an order naming our attempt (verified like any other).
      const crafted = (id: string): WebhookEvent => ({
        id,
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type: 'checkout-order',
        resource_version: '2.0',
        event_type: 'CHECKOUT.ORDER.APPROVED',
        summary: 'An order has been approved by buyer',
        resource: {
          id: 'ELSEWHERE0000001',
          status: 'APPROVED',
          purchase_units: [{ custom_id: attempt!.id }],
        },
        links: [],
      });
      const stale = crafted('WH-CRAFTED-STALE-0001');
      expect(await deliver(stale, h.shopA.tenantId, { clientId: 'client-a' })).toEqual([200]);
      expect(await inbox(stale.id)).toMatchObject([{ status: 'received', attempt_id: attempt!.id }]);
      await runDuePaymentJobs(h.services, { owner: 'webhooks', leaseMs: 30_000, limit: 10 });
      expect(await webhookJobs(stale.id)).toMatchObject([{ status: 'queued', tries: 1 }]);

      // The last try comes and the attempt still does not know the order: ignored, with the reason.
      await h.database.rows(
        sql`update payment_jobs set tries = ${WEBHOOK_MAX_TRIES - 1}, available_at = now() where kind = 'webhook' and subject_id = ${stale.id}`,
      );
      await runDuePaymentJobs(h.services, { owner: 'webhooks', leaseMs: 30_000, limit: 10 });
      expect(await inbox(stale.id)).toMatchObject([{ status: 'ignored', attempt_id: attempt!.id }]);
      const [given] = await webhookJobs(stale.id);
      expect(given).toMatchObject({ status: 'done', error: { code: 'WEBHOOK_IGNORED' } });
      expect(given!.error!.message).toContain(`after ${WEBHOOK_MAX_TRIES} tries`);

      createGate = null;
      open();
      await creating;
      const [created] = (await ledgerOf(placed.orderId)).attempts;
      expect(created).toMatchObject({ status: 'awaiting_approval' });
      expect(created!.providerOrderId).not.toBe('ELSEWHERE0000001');

      // Once the attempt knows its own order, an event about another one is ignored at once.
      const other = crafted('WH-CRAFTED-OTHER-0001');
      expect(await deliver(other, h.shopA.tenantId, { clientId: 'client-a' })).toEqual([200]);
      await runPayments();
      expect(await inbox(other.id)).toMatchObject([{ status: 'ignored' }]);
      expect(await webhookJobs(other.id)).toMatchObject([
        { status: 'done', error: { code: 'WEBHOOK_IGNORED', message: 'other-order' } },
      ]);
      expect((await ledgerOf(placed.orderId)).attempts[0]).toMatchObject({ status: 'awaiting_approval' });
    } finally {
      createGate = null;
    }
  });

  it('merges a refund made in the provider dashboard into the refund ledger once', async () => {
    const [attempt] = (await ledgerOf(paidOrder)).attempts;
    const captureId = attempt!.capture!.id;
    const dashboard = await h.services.payments.provider.refundCapture(h.shopA.tenantId, captureId, {
      requestId: 'dashboard-refund-1',
      amount: { currency: 'EUR', value: '2.50' },
    });
    if (dashboard.outcome !== 'done') throw new Error(`refund answered ${dashboard.outcome}`);
    const refundId = dashboard.value.id;
    const event = fixture.webhookEvents.refund(refundId);
    expect(await deliver(event, h.shopA.tenantId, { duplicate: true })).toEqual([200, 200]);
    // Another event about the same refund (a new event id) is merged into the same record.
    const again = fixture.webhookEvents.refund(refundId);
    expect(await deliver(again)).toEqual([200]);
    expect(await inbox(event.id)).toMatchObject([{ status: 'received', attempt_id: attempt!.id }]);
    await runPayments();

    const dashboardRefunds = (ledger: Awaited<ReturnType<typeof ledgerOf>>) =>
      ledger.attempts[0]!.refunds.filter((refund) => refund.providerRefundId === refundId);
    let ledger = await ledgerOf(paidOrder);
    expect(dashboardRefunds(ledger)).toEqual([
      expect.objectContaining({ amount: 250, status: 'confirmed', origin: 'provider' }),
    ]);
    expect(ledger.attempts[0]!.refunds).toHaveLength(1);
    expect(ledger.paymentState).toBe('refunded_partially');
    expect(await inbox(event.id)).toMatchObject([{ status: 'applied' }]);
    expect(await inbox(again.id)).toMatchObject([{ status: 'applied' }]);
    const refunded = () =>
      countOf(
        sql`select count(*)::int as count from outbox_events where name = 'payment.refunded' and payload->>'orderId' = ${paidOrder}`,
      );
    expect(await refunded()).toBe(1);

    // Our own refund's event finds the refund the ledger already holds: no second record.
    expectOk(
      await staff(
        'POST',
        `/api/orders/${paidOrder}/payments/refunds`,
        { amount: 100 },
        { 'idempotency-key': 'own-refund-1' },
      ),
      201,
    );
    await runPayments();
    const own = fixture.refunds(captureId).find((refund) => refund.id !== refundId)!;
    const ownEvent = fixture.webhookEvents.refund(own.id);
    expect(await deliver(ownEvent)).toEqual([200]);
    await runPayments();
    ledger = await ledgerOf(paidOrder);
    expect(
      ledger.attempts[0]!.refunds.map((refund) => [refund.amount, refund.status, refund.origin]),
    ).toEqual([
      [250, 'confirmed', 'provider'],
      [100, 'confirmed', 'ledger'],
    ]);
    expect(dashboardRefunds(ledger)).toHaveLength(1);
    expect(await refunded()).toBe(2);
    expect(await inbox(ownEvent.id)).toMatchObject([{ status: 'applied' }]);
  });

  it("ignores a verified order event that is not one of the shop's payments", async () => {
    const created = await h.services.payments.provider.createOrder(h.shopA.tenantId, {
      requestId: 'elsewhere-create-1',
      amount: { currency: 'EUR', value: '5.00' },
      customId: 'another-integration-1',
      invoiceId: 'ELSEWHERE-1',
      returnUrl: 'http://127.0.0.1:3000/elsewhere/return',
      cancelUrl: 'http://127.0.0.1:3000/elsewhere/cancel',
    });
    if (created.outcome !== 'done') throw new Error(`create answered ${created.outcome}`);
    fixture.approve(created.value.id);
    const event = fixture.webhookEvents.order(created.value.id);
    const sent = await fixture.deliverWebhook(hookUrl(h.shopA.tenantId), event, { maxAttempts: 1 });
    expect(sent.map((delivery) => delivery.status)).toEqual([200]);
    expect(await inbox(event.id)).toMatchObject([{ status: 'ignored', attempt_id: null }]);
    expect(await webhookJobs(event.id)).toEqual([]);
    expect(captureCalls(created.value.id)).toBe(0);
  });
});
