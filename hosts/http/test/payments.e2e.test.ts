import {
  consumeOnce,
  createServices,
  flowMatchingProjection,
  paymentServicesOf,
  runDueJobs,
  runDuePaymentJobs,
  sweepQuietAttempts,
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

// Issue 13, end to end over HTTP with the loopback PayPal fixture: checkout with a provider method
// → the payment-worker creates the provider order → the buyer approves and returns → the worker
// reads the provider and captures → the order is paid once, `payment.captured` runs the starter
// flow; refunds are reserved against the captured balance and never exceed it.

let h: Harness;
let fixture: PayPalFixture;
let productId: string;
let channelKey: string;
const PROVIDER_METHOD = '0190f0c8-0000-7000-8000-0000000e0001';
const MERCHANT = 'MERCHANTA1';

beforeAll(async () => {
  fixture = await startPayPalFixture();
  h = await createPaymentHarness(providerOf, PROVIDER_METHOD);
  ({ productId, channelKey } = await h.sellableTea());
});
afterAll(async () => {
  await h?.close();
  await fixture?.close();
});

let provider: ReturnType<typeof paymentServicesOf>['provider'] | undefined;
const ACCOUNT_A = { clientId: 'client-a', webhookId: 'WH-A', merchantId: MERCHANT };
/** Shop A's account at the fixture (contract base URL: attempts are labelled contract-fixture). */
function providerOf() {
  if (!provider) {
    registerAccount(fixture, ACCOUNT_A);
    provider = paymentServicesOf(accountVariables(fixture, { [h.shopA.tenantId]: ACCOUNT_A })).provider;
  }
  return provider;
}

const staff: ReturnType<typeof staffOf> = (...args) => staffOf(h)(...args);

/** Every role's work, driven until nothing is due: payments, then flow matching and flow jobs. */
async function runWorkers() {
  for (let round = 0; round < 20; round++) {
    const payments = await runDuePaymentJobs(h.services, { owner: 'e2e', leaseMs: 30_000, limit: 10 });
    const options = { owner: 'e2e', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
    let matched = 0;
    while ((await consumeOnce(h.services, flowMatchingProjection, options)).tenantId !== null) matched += 1;
    const flows = await runDueJobs(h.services, { owner: 'e2e', leaseMs: 30_000, batchSize: 20 });
    if (payments.ran === 0 && matched === 0 && flows === 0) return;
  }
  throw new Error('the workers did not settle');
}

/** A registered visitor's order paid with the provider method: answers its id and context token. */
async function providerOrder(quantity = 1): Promise<{ orderId: string; token: string }> {
  const token = await h.visitorWithCart(channelKey, [{ productId, quantity }]);
  const headers = { 'x-channel-key': channelKey, 'x-context-token': token };
  expectOk(await h.call('PATCH', '/store-api/cart', { headers, body: { paymentMethodId: PROVIDER_METHOD } }));
  const order = expectOk(await h.call('POST', '/store-api/checkout', { headers }), 201);
  return { orderId: order.id as string, token };
}

async function buyerPayment(orderId: string, token: string) {
  const headers = { 'x-channel-key': channelKey, 'x-context-token': token };
  return expectOk(await h.call('GET', `/store-api/orders/${orderId}/payment`, { headers }));
}

/** What the buyer's browser does at the provider: approve, then follow the redirect back to us. */
async function approveAndReturn(approvalUrl: string): Promise<number> {
  const approved = await fetch(approvalUrl, { redirect: 'manual' });
  const location = new URL(approved.headers.get('location')!);
  return (await h.app.request(`${location.pathname}${location.search}`)).status;
}

async function ledgerOf(orderId: string) {
  return expectOk(await staff('GET', `/api/orders/${orderId}/payments`)) as {
    paymentState: string;
    attempts: {
      id: string;
      status: string;
      contractFixture: boolean;
      providerOrderId: string;
      capture: { id: string; amount: number } | null;
      balance: { captured: number; confirmed: number; pending: number; remaining: number } | null;
      refunds: { amount: number; status: string }[];
    }[];
  };
}

describe('a provider payment, end to end', () => {
  let orderId: string;
  let total: number;

  it('checkout opens an attempt; the worker creates the provider order and the buyer sees its link', async () => {
    const placed = await providerOrder();
    orderId = placed.orderId;
    const before = await buyerPayment(orderId, placed.token);
    expect(before).toMatchObject({
      paymentState: 'open',
      attempt: { status: 'creating', approvalUrl: null },
    });
    await runWorkers();
    const waiting = await buyerPayment(orderId, placed.token);
    expect(waiting.attempt).toMatchObject({ status: 'awaiting_approval' });
    const approvalUrl = (waiting.attempt as { approvalUrl: string }).approvalUrl;
    expect(approvalUrl.startsWith(fixture.url)).toBe(true);

    // The return alone changes nothing: only the provider's answer, read by the worker, does.
    expect(await approveAndReturn(approvalUrl)).toBe(200);
    expect((await ledgerOf(orderId)).paymentState).toBe('open');
    await runWorkers();

    const ledger = await ledgerOf(orderId);
    expect(ledger.paymentState).toBe('paid');
    const [attempt] = ledger.attempts;
    expect(attempt).toMatchObject({ status: 'captured', contractFixture: true });
    expect(fixture.captures(attempt!.providerOrderId)).toHaveLength(1);
    total = attempt!.capture!.amount!;
    const order = expectOk(await staff('GET', `/api/orders/${orderId}`)).order as Record<string, unknown>;
    expect(order.paymentState).toBe('paid');
    expect((order.price as { total: { gross: number } }).total.gross).toBe(total);

    // payment.captured was recorded once and the starter flow wrote its note.
    const captured = await h.database.rows<{ count: number }>(
      sql`select count(*)::int as count from outbox_events where tenant_id = ${h.shopA.tenantId} and name = 'payment.captured' and payload->>'orderId' = ${orderId}`,
    );
    expect(captured[0]?.count).toBe(1);
    const activities = expectOk(await staff('GET', `/api/orders/${orderId}`)).activities as {
      kind: string;
      text: string | null;
    }[];
    expect(activities.some((activity) => activity.text === 'Payment received.')).toBe(true);
  });

  it('refunds 30 % and 40 %, refuses a further 40 %, and keeps the balance exact to the cent', async () => {
    const thirty = Math.round(total * 0.3);
    const forty = Math.round(total * 0.4);
    const refund = (amount: number, key: string) =>
      staff('POST', `/api/orders/${orderId}/payments/refunds`, { amount }, { 'idempotency-key': key });
    expect((await refund(thirty, 'refund-thirty-1')).status).toBe(201);
    const replay = expectOk(await refund(thirty, 'refund-thirty-1'), 201);
    expect(replay.replayed).toBe(true);
    const reused = await refund(thirty + 1, 'refund-thirty-1');
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'CONFLICT', reason: 'IDEMPOTENCY_KEY_CONFLICT' });
    expect((await refund(forty, 'refund-forty-01')).status).toBe(201);
    const refused = await refund(forty, 'refund-forty-02');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'REFUND_EXCEEDS_BALANCE', remaining: total - thirty - forty });
    await runWorkers();
    const [attempt] = (await ledgerOf(orderId)).attempts;
    expect(attempt!.refunds.map((item) => [item.amount, item.status])).toEqual([
      [thirty, 'confirmed'],
      [forty, 'confirmed'],
    ]);
    expect(attempt!.balance).toMatchObject({
      captured: total,
      confirmed: thirty + forty,
      pending: 0,
      remaining: total - thirty - forty,
    });
    expect(
      fixture
        .refunds(attempt!.capture!.id)
        .map((item) => item.amount?.value)
        .sort(),
    ).toEqual([(thirty / 100).toFixed(2), (forty / 100).toFixed(2)].sort());
    expect((await ledgerOf(orderId)).paymentState).toBe('refunded_partially');
  });

  it('recovers a capture whose answer was lost by reading the provider: paid once, one capture', async () => {
    const placed = await providerOrder();
    await runWorkers();
    const waiting = await buyerPayment(placed.orderId, placed.token);
    fixture.failNext({ path: /\/capture$/, kind: 'drop-after-performing' });
    expect(await approveAndReturn((waiting.attempt as { approvalUrl: string }).approvalUrl)).toBe(200);
    await runWorkers();
    const ledger = await ledgerOf(placed.orderId);
    expect(ledger.paymentState).toBe('paid');
    expect(fixture.captures(ledger.attempts[0]!.providerOrderId)).toHaveLength(1);
  });

  it('refuses a return whose token is not the attempt’s provider order, and changes nothing', async () => {
    const placed = await providerOrder();
    await runWorkers();
    const waiting = (await buyerPayment(placed.orderId, placed.token)).attempt as { attemptId: string };
    const forged = await h.app.request(
      `/payments/return/${h.shopA.tenantId}/${waiting.attemptId}?token=FORGED123`,
    );
    expect(forged.status).toBe(404);
    const foreign = await h.app.request(`/payments/return/${h.shopB.tenantId}/${waiting.attemptId}?token=X`);
    expect(foreign.status).toBe(404);
    expect((await ledgerOf(placed.orderId)).attempts[0]!.status).toBe('awaiting_approval');
  });

  it('lets 50 concurrent refund requests over one capture accept at most the captured amount', async () => {
    const placed = await providerOrder(3);
    await runWorkers();
    const waiting = await buyerPayment(placed.orderId, placed.token);
    expect(await approveAndReturn((waiting.attempt as { approvalUrl: string }).approvalUrl)).toBe(200);
    await runWorkers();
    const captured = (await ledgerOf(placed.orderId)).attempts[0]!.capture!.amount!;
    const amount = Math.ceil(captured * 0.07);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        staff(
          'POST',
          `/api/orders/${placed.orderId}/payments/refunds`,
          { amount },
          { 'idempotency-key': `concurrent-refund-${index}` },
        ),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 201).length;
    expect(
      answers.every((answer) => answer.status === 201 || answer.body.code === 'REFUND_EXCEEDS_BALANCE'),
    ).toBe(true);
    expect(accepted).toBe(Math.floor(captured / amount));
    await runWorkers();
    const [attempt] = (await ledgerOf(placed.orderId)).attempts;
    expect(attempt!.balance).toMatchObject({ confirmed: accepted * amount, pending: 0 });
    expect(attempt!.balance!.confirmed).toBeLessThanOrEqual(captured);
    const sent = fixture
      .refunds(attempt!.capture!.id)
      .map((refund) => Math.round(Number(refund.amount?.value) * 100));
    expect(sent.reduce((sum, value) => sum + value, 0)).toBe(accepted * amount);
  });

  it('moves an order to payment review when the provider captured after the order was cancelled', async () => {
    const placed = await providerOrder();
    await runWorkers();
    const [created] = (await ledgerOf(placed.orderId)).attempts;
    fixture.approve(created!.providerOrderId);
    // A capture that reached the provider (its dashboard, or a call in flight) while the merchant
    // cancelled the order here.
    const raced = await h.services.payments.provider.captureOrder(
      h.shopA.tenantId,
      created!.providerOrderId,
      'race-capture-1',
    );
    expect(raced.outcome).toBe('done');
    const order = expectOk(await staff('GET', `/api/orders/${placed.orderId}`)).order as { revision: number };
    expectOk(
      await staff('POST', `/api/orders/${placed.orderId}/transitions`, {
        machine: 'order',
        to: 'cancelled',
        revision: order.revision,
      }),
    );
    // The cancellation already asked the worker to read the provider: nothing more to queue.
    expect(expectOk(await staff('POST', `/api/orders/${placed.orderId}/payments/reconcile`)).queued).toBe(0);
    await runWorkers();
    const ledger = await ledgerOf(placed.orderId);
    expect(ledger.attempts[0]).toMatchObject({ status: 'review' });
    const activities = expectOk(await staff('GET', `/api/orders/${placed.orderId}`)).activities as {
      kind: string;
    }[];
    expect(activities.filter((activity) => activity.kind === 'payment_review')).toHaveLength(1);
    expect(fixture.captures(created!.providerOrderId)).toHaveLength(1);
  });

  it('cancels an order awaiting the buyer only after the provider is read, releasing its stock once', async () => {
    const placed = await providerOrder(2);
    await runWorkers();
    const stockOf = async () =>
      (
        (expectOk(await staff('GET', `/api/catalog/products/${productId}`)).product ??
          expectOk(await staff('GET', `/api/catalog/products/${productId}`))) as { stockAvailable: number }
      ).stockAvailable;
    const reserved = await stockOf();
    const order = expectOk(await staff('GET', `/api/orders/${placed.orderId}`)).order as { revision: number };
    expectOk(
      await staff('POST', `/api/orders/${placed.orderId}/transitions`, {
        machine: 'order',
        to: 'cancelled',
        revision: order.revision,
      }),
    );
    // The provider has not been asked yet: the stock is still held.
    const held = expectOk(await staff('GET', `/api/orders/${placed.orderId}`)).reservations as {
      status: string;
    }[];
    expect(held.map((reservation) => reservation.status)).toEqual(['reserved']);
    expect(await stockOf()).toBe(reserved);
    await runWorkers();
    const released = expectOk(await staff('GET', `/api/orders/${placed.orderId}`)).reservations as {
      status: string;
    }[];
    expect(released.map((reservation) => reservation.status)).toEqual(['released']);
    expect(await stockOf()).toBe(reserved + 2);
    expect((await ledgerOf(placed.orderId)).attempts[0]).toMatchObject({ status: 'cancelled' });
    // A buyer who approves afterwards pays nothing: the return reads the provider, captures nothing.
    const [attempt] = (await ledgerOf(placed.orderId)).attempts;
    fixture.approve(attempt!.providerOrderId);
    await runWorkers();
    expect(fixture.captures(attempt!.providerOrderId)).toHaveLength(0);
    expect(await stockOf()).toBe(reserved + 2);
  });

  it('lists the payments that need a look across the shop, a page at a time', async () => {
    const attention = expectOk(await staff('GET', '/api/payments')) as {
      items: { orderId: string; status: string }[];
      next: string | null;
      unresolved: { uncertain: number; failed: number };
    };
    expect(attention.items.map((item) => item.status)).toEqual(['review']);
    expect(attention.unresolved).toEqual({ uncertain: 0, failed: 0 });
    const captured = expectOk(await staff('GET', '/api/payments?status=captured&limit=2')) as {
      items: { id: string; status: string }[];
      next: string | null;
    };
    expect(captured.items).toHaveLength(2);
    const rest = expectOk(
      await staff('GET', `/api/payments?status=captured&limit=2&before=${captured.next}`),
    ) as {
      items: { id: string }[];
      next: string | null;
    };
    const ids = [...captured.items, ...rest.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect((await staff('GET', '/api/payments?before=bm90IGEgY3Vyc29y')).status).toBe(422);
    expect((await staff('GET', '/api/payments?status=paid')).status).toBe(422);
  });

  it('never reconciles an attempt with another environment or adapter than it was made with', async () => {
    const placed = await providerOrder();
    await runWorkers();
    // The same shop's account switched to live: its process must not speak for the sandbox attempt.
    const live = createServices(h.database, {
      payments: paymentServicesOf(
        accountVariables(
          fixture,
          { [h.shopA.tenantId]: { ...ACCOUNT_A, environment: 'live' } },
          'https://shop.example',
        ),
      ),
    });
    const calls = fixture.calls.length;
    expectOk(await staff('POST', `/api/orders/${placed.orderId}/payments/reconcile`));
    const round = await runDuePaymentJobs(live, { owner: 'live', leaseMs: 30_000, limit: 10 });
    expect(round.unresolved).toEqual([expect.objectContaining({ kind: 'reconcile', status: 'uncertain' })]);
    expect(fixture.calls.length).toBe(calls);
    const [attempt] = (await ledgerOf(placed.orderId)).attempts as unknown as {
      status: string;
      jobs: { kind: string; status: string; error: { code: string } | null }[];
    }[];
    expect(attempt!.status).toBe('awaiting_approval');
    expect(attempt!.jobs[0]).toMatchObject({
      kind: 'reconcile',
      status: 'uncertain',
      error: { code: 'ADAPTER_MISMATCH' },
    });
    const listed = expectOk(await staff('GET', '/api/payments')) as { unresolved: { uncertain: number } };
    expect(listed.unresolved.uncertain).toBe(1);
  });

  it('sweeps quiet attempts: an approval nobody reported is captured, an abandoned one expires and frees its stock', async () => {
    const approved = await providerOrder();
    const abandoned = await providerOrder(2);
    await runWorkers();
    const providerOrderOf = async (orderId: string) => (await ledgerOf(orderId)).attempts[0]!.providerOrderId;
    // The buyer approved at the provider but never came back, and no webhook is configured.
    fixture.approve(await providerOrderOf(approved.orderId));
    // The other buyer walked away; the provider lets the order expire.
    fixture.expire(await providerOrderOf(abandoned.orderId));
    expect(await sweepQuietAttempts(h.services, { quietMs: 60_000 })).toBe(0);
    expect(await sweepQuietAttempts(h.services, { quietMs: 0 })).toBeGreaterThanOrEqual(2);
    await runWorkers();
    expect((await ledgerOf(approved.orderId)).paymentState).toBe('paid');
    const expired = await ledgerOf(abandoned.orderId);
    expect(expired.attempts[0]).toMatchObject({ status: 'expired' });
    const reservations = expectOk(await staff('GET', `/api/orders/${abandoned.orderId}`)).reservations as {
      status: string;
    }[];
    expect(reservations.map((reservation) => reservation.status)).toEqual(['released']);
  });
});
