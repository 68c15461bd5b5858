import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type PayPalFixture, startPayPalFixture } from '@cartwright/tooling/paypal-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CreateProviderOrder,
  PaymentProvider,
  ProviderAnswer,
  ProviderOrder,
} from '../src/kernel/payment-provider.ts';
import type { PaymentConfig, ProviderAccount } from '../src/payments/config.ts';
import { createPayPalProvider, type PayPalProviderOptions } from '../src/payments/paypal/index.ts';

// The PayPal adapter against the loopback PayPal (`@cartwright/tooling/paypal-fixture`) over real
// HTTP: the order → approve → capture → refund path, idempotent replays, token caching and renewal,
// accounts that never cross, injected transport faults (each an unknown outcome, never a refusal)
// and webhook verification over the exact delivered bytes. A few answers the fixture cannot give
// (429, non-JSON, a provider that echoes credentials) come from a tiny scripted server at the end.

const SHOP_A = '0190f0c8-0000-7000-8000-00000000aa01';
const SHOP_B = '0190f0c8-0000-7000-8000-00000000bb02';
const SHOP_NONE = '0190f0c8-0000-7000-8000-00000000cc03';
const SHOP_BAD = '0190f0c8-0000-7000-8000-00000000dd04';
const SECRET_A = 'secret-of-shop-a-5f0c2e9d71';
const SECRET_B = 'secret-of-shop-b-a83d0b4e22';
const TOKEN_LIFETIME_S = 3600;

const account = (clientId: string, clientSecret: string, webhookId: string): ProviderAccount => ({
  clientId,
  clientSecret,
  webhookId,
  bnCode: 'CARTWRIGHT_SP',
  environment: 'sandbox',
  merchantId: null,
});

let fixture: PayPalFixture;
let config: PaymentConfig;
let clock = Date.parse('2025-01-01T10:00:00Z');
const now = () => clock;

/** Every answer any provider in this file gave, and every credential any of them sent. */
const answers: unknown[] = [];
const sentCredentials = new Set<string>();

const spyFetch: typeof fetch = (input, init) => {
  const authorization = new Headers(init?.headers).get('authorization');
  if (authorization) {
    sentCredentials.add(authorization);
    sentCredentials.add(authorization.replace(/^\S+\s+/, ''));
  }
  return fetch(input, init);
};

/** A provider whose answers are all recorded for the secret check. */
function recorded(provider: PaymentProvider): PaymentProvider {
  const keep = async <T>(answer: Promise<ProviderAnswer<T>>) => {
    const settled = await answer;
    answers.push(settled);
    return settled;
  };
  return {
    accountOf: (tenantId) => {
      const info = provider.accountOf(tenantId);
      answers.push(info);
      return info;
    },
    createOrder: (tenantId, order) => keep(provider.createOrder(tenantId, order)),
    getOrder: (tenantId, id) => keep(provider.getOrder(tenantId, id)),
    captureOrder: (tenantId, id, requestId) => keep(provider.captureOrder(tenantId, id, requestId)),
    refundCapture: (tenantId, id, refund) => keep(provider.refundCapture(tenantId, id, refund)),
    getRefund: (tenantId, id) => keep(provider.getRefund(tenantId, id)),
    verifyWebhook: (tenantId, delivery) => keep(provider.verifyWebhook(tenantId, delivery)),
  };
}

/** A fresh provider (empty token cache) over the fixture. */
function provider(options: PayPalProviderOptions = {}, over: PaymentConfig = config): PaymentProvider {
  return recorded(createPayPalProvider(over, { fetch: spyFetch, now, ...options }));
}

let sequence = 0;
function orderInput(value = '25.00'): CreateProviderOrder {
  sequence += 1;
  return {
    requestId: `create-${sequence}-${clock}`,
    amount: { currency: 'EUR', value },
    customId: `attempt-${sequence}`,
    invoiceId: `ORDER-${sequence}-${clock}`,
    returnUrl: 'http://127.0.0.1:3000/paypal/return',
    cancelUrl: 'http://127.0.0.1:3000/paypal/cancel',
    locale: 'de-DE',
  };
}

function done<T>(answer: ProviderAnswer<T>): T {
  if (answer.outcome !== 'done') throw new Error(`expected done, got ${JSON.stringify(answer)}`);
  return answer.value;
}

/** An approved order of shop A (or B) in the fixture. */
async function approvedOrder(
  paypal: PaymentProvider,
  shop = SHOP_A,
  value = '25.00',
): Promise<ProviderOrder> {
  const order = done(await paypal.createOrder(shop, orderInput(value)));
  fixture.approve(order.id);
  return order;
}

const callsSince = (mark: number) => fixture.calls.slice(mark);
const tokenCalls = (mark: number, clientId = 'client-a') =>
  callsSince(mark).filter((call) => call.path === '/v1/oauth2/token' && call.account === clientId);

beforeAll(async () => {
  fixture = await startPayPalFixture({
    now,
    tokenExpiresInSeconds: TOKEN_LIFETIME_S,
    accounts: [
      { clientId: 'client-a', clientSecret: SECRET_A, merchantId: 'MERCHANTAAAA1', webhookId: 'WH-A' },
      { clientId: 'client-b', clientSecret: SECRET_B, merchantId: 'MERCHANTBBBB2', webhookId: 'WH-B' },
    ],
  });
  config = {
    accounts: new Map([
      [SHOP_A, { ...account('client-a', SECRET_A, 'WH-A'), merchantId: 'MERCHANTAAAA1' }],
      [SHOP_B, account('client-b', SECRET_B, 'WH-B')],
      [SHOP_BAD, account('client-a', 'not-the-secret-of-a-9b1c', 'WH-A')],
    ]),
    publicBaseUrl: 'http://127.0.0.1:3000',
    contractBaseUrl: fixture.url,
  };
});

afterAll(async () => {
  await fixture?.close();
});

describe('PayPal adapter: accounts', () => {
  it('describes a configured shop without its secrets, and no other shop', () => {
    const paypal = provider();
    expect(paypal.accountOf(SHOP_A)).toEqual({
      environment: 'sandbox',
      merchantId: 'MERCHANTAAAA1',
      contractFixture: true,
      adapterVersion: 1,
    });
    expect(paypal.accountOf(SHOP_NONE)).toBeUndefined();
    expect(
      createPayPalProvider({ ...config, contractBaseUrl: null }).accountOf(SHOP_B)?.contractFixture,
    ).toBe(false);
  });

  it('answers not-configured for a shop without an account, without any network call', async () => {
    let fetched = 0;
    const paypal = createPayPalProvider(config, {
      fetch: (input, init) => {
        fetched += 1;
        return fetch(input, init);
      },
    });
    const mark = fixture.calls.length;
    const all = await Promise.all([
      paypal.createOrder(SHOP_NONE, orderInput()),
      paypal.getOrder(SHOP_NONE, 'ORDER1'),
      paypal.captureOrder(SHOP_NONE, 'ORDER1', 'capture-x'),
      paypal.refundCapture(SHOP_NONE, 'CAPTURE1', {
        requestId: 'refund-x',
        amount: { currency: 'EUR', value: '1.00' },
      }),
      paypal.getRefund(SHOP_NONE, 'REFUND1'),
      paypal.verifyWebhook(SHOP_NONE, { headers: {}, body: '{}' }),
    ]);
    expect(all).toEqual(Array(6).fill({ outcome: 'not-configured' }));
    expect(fetched).toBe(0);
    expect(callsSince(mark)).toEqual([]);
  });

  it('uses shop B’s credentials for shop B’s calls, and B cannot see A’s order', async () => {
    const paypal = provider();
    const mark = fixture.calls.length;
    const orderA = await approvedOrder(paypal, SHOP_A);
    const markB = fixture.calls.length;
    const orderB = done(await paypal.createOrder(SHOP_B, orderInput('7.50')));
    expect(await paypal.getOrder(SHOP_B, orderA.id)).toEqual({ outcome: 'not-found' });
    expect(await paypal.captureOrder(SHOP_B, orderA.id, 'capture-by-b')).toEqual({ outcome: 'not-found' });
    expect(done(await paypal.getOrder(SHOP_B, orderB.id)).amount).toEqual({ currency: 'EUR', value: '7.50' });

    const callsOfB = callsSince(markB);
    expect(callsOfB.length).toBeGreaterThanOrEqual(5);
    expect(callsOfB.every((call) => call.account === 'client-b')).toBe(true);
    expect(
      callsSince(mark)
        .slice(0, markB - mark)
        .every((call) => call.account === 'client-a'),
    ).toBe(true);
    // A's order was not touched by B's capture attempt.
    expect(fixture.order(orderA.id).status).toBe('APPROVED');
  });

  it('refuses a shop whose credentials PayPal rejects (invalid_client), without the secret', async () => {
    const answer = await provider().getOrder(SHOP_BAD, 'ORDER1');
    expect(answer).toMatchObject({ outcome: 'refused', status: 401, issue: 'invalid_client' });
    expect(JSON.stringify(answer)).not.toContain('not-the-secret-of-a-9b1c');
  });
});

describe('PayPal adapter: orders, captures and refunds', () => {
  it('creates an order, the buyer approves, captures, and the order shows the capture', async () => {
    const paypal = provider();
    const mark = fixture.calls.length;
    const input = orderInput('25.00');
    const created = done(await paypal.createOrder(SHOP_A, input));
    expect(created).toMatchObject({
      status: 'PAYER_ACTION_REQUIRED',
      amount: { currency: 'EUR', value: '25.00' },
      customId: input.customId,
      captures: [],
    });
    expect(created.approvalUrl).toContain(created.id);

    const { returnUrl } = fixture.approve(created.id);
    expect(returnUrl).toContain(input.returnUrl);
    expect(done(await paypal.getOrder(SHOP_A, created.id)).status).toBe('APPROVED');

    const captured = done(await paypal.captureOrder(SHOP_A, created.id, 'capture-1'));
    expect(captured.status).toBe('COMPLETED');
    expect(captured.captures).toHaveLength(1);
    expect(captured.captures[0]).toMatchObject({
      status: 'COMPLETED',
      amount: { currency: 'EUR', value: '25.00' },
      customId: input.customId,
      merchantId: 'MERCHANTAAAA1',
    });
    expect(captured.merchantId).toBe('MERCHANTAAAA1');

    const read = done(await paypal.getOrder(SHOP_A, created.id));
    expect(read.captures.map((capture) => capture.id)).toEqual([captured.captures[0]!.id]);

    // POST commands carry their request id; GETs carry none.
    const api = callsSince(mark).filter((call) => call.path !== '/v1/oauth2/token');
    expect(api.map((call) => [call.method, call.requestId])).toEqual([
      ['POST', input.requestId],
      ['GET', undefined],
      ['POST', 'capture-1'],
      ['GET', undefined],
    ]);
  });

  it('answers a replayed capture with the first capture, and PayPal holds one', async () => {
    const paypal = provider();
    const order = await approvedOrder(paypal);
    const first = done(await paypal.captureOrder(SHOP_A, order.id, 'capture-replay'));
    const again = done(await paypal.captureOrder(SHOP_A, order.id, 'capture-replay'));
    expect(again.captures.map((capture) => capture.id)).toEqual(first.captures.map((capture) => capture.id));
    expect(fixture.captures(order.id)).toHaveLength(1);
    // A new key is a new capture attempt, which PayPal refuses.
    expect(await paypal.captureOrder(SHOP_A, order.id, 'capture-other')).toMatchObject({
      outcome: 'refused',
      status: 422,
      issue: 'ORDER_ALREADY_CAPTURED',
    });
  });

  it('refuses to capture an order the buyer has not approved', async () => {
    const paypal = provider();
    const order = done(await paypal.createOrder(SHOP_A, orderInput()));
    const answer = await paypal.captureOrder(SHOP_A, order.id, 'capture-early');
    expect(answer).toMatchObject({ outcome: 'refused', status: 422, issue: 'ORDER_NOT_APPROVED' });
    if (answer.outcome === 'refused') expect(answer.detail).toMatch(/debug id [0-9a-f]+/);
    expect(fixture.captures(order.id)).toHaveLength(0);
  });

  it('answers not-found for an unknown or expired order and an id PayPal never issues', async () => {
    const paypal = provider();
    const order = done(await paypal.createOrder(SHOP_A, orderInput()));
    fixture.expire(order.id);
    const mark = fixture.calls.length;
    expect(await paypal.getOrder(SHOP_A, order.id)).toEqual({ outcome: 'not-found' });
    expect(await paypal.getOrder(SHOP_A, 'NOSUCHORDER000001')).toEqual({ outcome: 'not-found' });
    expect(await paypal.getOrder(SHOP_A, '../../v1/oauth2/token')).toEqual({ outcome: 'not-found' });
    expect(await paypal.getRefund(SHOP_A, 'NOSUCHREFUND00001')).toEqual({ outcome: 'not-found' });
    // The malformed id was never sent.
    expect(callsSince(mark).filter((call) => call.path !== '/v1/oauth2/token')).toHaveLength(3);
  });

  it('refunds part of a capture, refuses a refund beyond the rest, and reads the refund', async () => {
    const paypal = provider();
    const order = await approvedOrder(paypal, SHOP_A, '30.00');
    const capture = done(await paypal.captureOrder(SHOP_A, order.id, 'capture-for-refund')).captures[0]!;

    const refund = done(
      await paypal.refundCapture(SHOP_A, capture.id, {
        requestId: 'refund-1',
        amount: { currency: 'EUR', value: '10.00' },
      }),
    );
    expect(refund).toMatchObject({
      status: 'COMPLETED',
      amount: { currency: 'EUR', value: '10.00' },
      captureId: capture.id,
    });
    const replay = done(
      await paypal.refundCapture(SHOP_A, capture.id, {
        requestId: 'refund-1',
        amount: { currency: 'EUR', value: '10.00' },
      }),
    );
    expect(replay.id).toBe(refund.id);
    expect(fixture.refunds(capture.id)).toHaveLength(1);

    expect(
      await paypal.refundCapture(SHOP_A, capture.id, {
        requestId: 'refund-2',
        amount: { currency: 'EUR', value: '20.01' },
      }),
    ).toMatchObject({ outcome: 'refused', status: 422, issue: 'REFUND_AMOUNT_EXCEEDED' });
    expect(fixture.refunds(capture.id)).toHaveLength(1);

    expect(done(await paypal.getRefund(SHOP_A, refund.id))).toEqual(refund);
    expect(done(await paypal.getOrder(SHOP_A, order.id)).captures[0]?.status).toBe('PARTIALLY_REFUNDED');
  });
});

describe('PayPal adapter: tokens', () => {
  it('fetches one token for many commands, also when they start at once', async () => {
    const paypal = provider();
    const mark = fixture.calls.length;
    const order = done(await paypal.createOrder(SHOP_A, orderInput()));
    await Promise.all(Array.from({ length: 5 }, () => paypal.getOrder(SHOP_A, order.id)));
    await paypal.getOrder(SHOP_A, order.id);
    expect(tokenCalls(mark)).toHaveLength(1);

    const fresh = provider();
    const freshMark = fixture.calls.length;
    const parallel = await Promise.all(Array.from({ length: 4 }, () => fresh.getOrder(SHOP_A, order.id)));
    expect(parallel.every((answer) => answer.outcome === 'done')).toBe(true);
    expect(tokenCalls(freshMark)).toHaveLength(1);
  });

  it('fetches a new token once the old one expires, before PayPal has to refuse it', async () => {
    const paypal = provider();
    const order = done(await paypal.createOrder(SHOP_A, orderInput()));
    clock += TOKEN_LIFETIME_S * 1000 + 1000;
    const mark = fixture.calls.length;
    expect(done(await paypal.getOrder(SHOP_A, order.id)).id).toBe(order.id);
    expect(
      callsSince(mark).map((call) => [call.path === '/v1/oauth2/token' ? 'token' : 'api', call.status]),
    ).toEqual([
      ['token', 200],
      ['api', 200],
    ]);
  });

  it('renews the token once when PayPal answers 401 invalid_token, then retries the command', async () => {
    const paypal = provider();
    const order = await approvedOrder(paypal);
    fixture.expireTokens('client-a');
    const mark = fixture.calls.length;
    const captured = done(await paypal.captureOrder(SHOP_A, order.id, 'capture-after-401'));
    expect(captured.status).toBe('COMPLETED');
    expect(callsSince(mark).map((call) => [call.path, call.status, call.requestId])).toEqual([
      [`/v2/checkout/orders/${order.id}/capture`, 401, 'capture-after-401'],
      ['/v1/oauth2/token', 200, undefined],
      [`/v2/checkout/orders/${order.id}/capture`, 201, 'capture-after-401'],
    ]);
    expect(fixture.captures(order.id)).toHaveLength(1);
  });
});

describe('PayPal adapter: faults leave the outcome unknown', () => {
  it('a 500 is unknown, and the retry with the same key captures once', async () => {
    const paypal = provider();
    const order = await approvedOrder(paypal);
    fixture.failNext({ path: `/v2/checkout/orders/${order.id}/capture`, kind: 'status-500' });
    const answer = await paypal.captureOrder(SHOP_A, order.id, 'capture-500');
    expect(answer).toMatchObject({ outcome: 'unknown' });
    if (answer.outcome === 'unknown') expect(answer.reason).toContain('500');
    expect(fixture.captures(order.id)).toHaveLength(0);
    expect(done(await paypal.captureOrder(SHOP_A, order.id, 'capture-500')).captures).toHaveLength(1);
  });

  it('a 503 on a read and on the token request is unknown', async () => {
    const paypal = provider();
    const order = done(await paypal.createOrder(SHOP_A, orderInput()));
    fixture.failNext({ path: `/v2/checkout/orders/${order.id}`, method: 'GET', kind: 'status-503' });
    expect(await paypal.getOrder(SHOP_A, order.id)).toMatchObject({ outcome: 'unknown' });

    const fresh = provider();
    fixture.failNext({ path: '/v1/oauth2/token', kind: 'status-503' });
    const answer = await fresh.getOrder(SHOP_A, order.id);
    expect(answer).toMatchObject({ outcome: 'unknown' });
    if (answer.outcome === 'unknown') expect(answer.reason).toMatch(/^token request: HTTP 503/);
    // The failure was not cached: the next call gets a token.
    expect(done(await fresh.getOrder(SHOP_A, order.id)).id).toBe(order.id);
  });

  it('a connection dropped after PayPal captured is unknown; the retry answers that capture', async () => {
    const paypal = provider();
    const order = await approvedOrder(paypal);
    fixture.failNext({ path: `/v2/checkout/orders/${order.id}/capture`, kind: 'drop-after-performing' });
    const answer = await paypal.captureOrder(SHOP_A, order.id, 'capture-dropped');
    expect(answer).toMatchObject({ outcome: 'unknown' });
    expect(fixture.captures(order.id)).toHaveLength(1);
    const retried = done(await paypal.captureOrder(SHOP_A, order.id, 'capture-dropped'));
    expect(retried.captures.map((capture) => capture.id)).toEqual([fixture.captures(order.id)[0]!.id]);
  });

  it('a timeout is unknown, for a read and for a command PayPal performed', async () => {
    // Only the faulted calls run with the short deadline, so a slow machine cannot fail the setup.
    const order = await approvedOrder(provider());
    const paypal = provider({ timeoutMs: 1000 });
    fixture.failNext({ path: `/v2/checkout/orders/${order.id}`, method: 'GET', kind: 'timeout' });
    expect(await paypal.getOrder(SHOP_A, order.id)).toEqual({ outcome: 'unknown', reason: 'timeout' });

    fixture.failNext({ path: `/v2/checkout/orders/${order.id}/capture`, kind: 'timeout', performs: true });
    expect(await paypal.captureOrder(SHOP_A, order.id, 'capture-timeout')).toEqual({
      outcome: 'unknown',
      reason: 'timeout',
    });
    expect(fixture.captures(order.id)).toHaveLength(1);
  });

  it('an answer over 64 KiB is unknown, though PayPal performed the command', async () => {
    const paypal = provider();
    const order = await approvedOrder(paypal);
    fixture.failNext({ path: `/v2/checkout/orders/${order.id}/capture`, kind: 'oversized' });
    const answer = await paypal.captureOrder(SHOP_A, order.id, 'capture-oversized');
    expect(answer).toMatchObject({ outcome: 'unknown' });
    if (answer.outcome === 'unknown') expect(answer.reason).toContain('65536 bytes');
    expect(fixture.captures(order.id)).toHaveLength(1);
  });

  it('a duplicate refund while the first is in flight (409 PREVIOUS_REQUEST_IN_PROGRESS) is unknown', async () => {
    const paypal = provider();
    const order = await approvedOrder(paypal);
    const capture = done(await paypal.captureOrder(SHOP_A, order.id, 'capture-for-409')).captures[0]!;
    const path = `/v2/payments/captures/${capture.id}/refund`;
    fixture.failNext({ path, kind: 'slow', delayMs: 1000 });
    const refund = { requestId: 'refund-409', amount: { currency: 'EUR', value: '5.00' } };
    const first = paypal.refundCapture(SHOP_A, capture.id, refund);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await paypal.refundCapture(SHOP_A, capture.id, refund);
    expect(second).toMatchObject({ outcome: 'unknown' });
    if (second.outcome === 'unknown') expect(second.reason).toContain('409 PREVIOUS_REQUEST_IN_PROGRESS');
    expect(done(await first).amount).toEqual({ currency: 'EUR', value: '5.00' });
    expect(fixture.refunds(capture.id)).toHaveLength(1);
  });
});

describe('PayPal adapter: webhook verification', () => {
  let listener: {
    url: string;
    received: { headers: Record<string, string | undefined>; body: string }[];
    close(): Promise<void>;
  };

  beforeAll(async () => {
    const received: { headers: Record<string, string | undefined>; body: string }[] = [];
    const started = await serve(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
    listener = { ...started, received };
  });

  afterAll(async () => {
    await listener?.close();
  });

  async function deliveredEvent() {
    const paypal = provider();
    const order = await approvedOrder(paypal);
    const captured = done(await paypal.captureOrder(SHOP_A, order.id, `capture-webhook-${order.id}`));
    const before = listener.received.length;
    await fixture.deliverWebhook(listener.url, fixture.webhookEvents.capture(captured.captures[0]!.id));
    expect(listener.received.length).toBe(before + 1);
    return { paypal, delivery: listener.received[listener.received.length - 1]! };
  }

  it('verifies a delivered event by its exact bytes', async () => {
    const { paypal, delivery } = await deliveredEvent();
    const mark = fixture.calls.length;
    expect(await paypal.verifyWebhook(SHOP_A, delivery)).toEqual({
      outcome: 'done',
      value: { verified: true },
    });
    const verify = callsSince(mark).filter(
      (call) => call.path === '/v1/notifications/verify-webhook-signature',
    );
    expect(verify).toMatchObject([{ method: 'POST', account: 'client-a', status: 200 }]);
    expect(verify[0]?.requestId).toBeUndefined();
  });

  it('does not verify an altered or re-serialised body, another shop’s account, or missing headers', async () => {
    const { paypal, delivery } = await deliveredEvent();
    const notVerified = { outcome: 'done', value: { verified: false } };
    const altered = delivery.body.replace('"COMPLETED"', '"REFUNDED"');
    expect(altered).not.toBe(delivery.body);
    expect(await paypal.verifyWebhook(SHOP_A, { ...delivery, body: altered })).toEqual(notVerified);
    // Same event, same content, other bytes (the fixture escapes `/` as `\/`).
    const reserialised = JSON.stringify(JSON.parse(delivery.body));
    expect(reserialised).not.toBe(delivery.body);
    expect(await paypal.verifyWebhook(SHOP_A, { ...delivery, body: reserialised })).toEqual(notVerified);
    expect(await paypal.verifyWebhook(SHOP_B, delivery)).toEqual(notVerified);

    const mark = fixture.calls.length;
    const { 'paypal-transmission-sig': _signature, ...unsigned } = delivery.headers;
    expect(await paypal.verifyWebhook(SHOP_A, { headers: unsigned, body: delivery.body })).toEqual(
      notVerified,
    );
    expect(await paypal.verifyWebhook(SHOP_A, { headers: delivery.headers, body: '[1]' })).toEqual(
      notVerified,
    );
    expect(
      await paypal.verifyWebhook(SHOP_A, {
        headers: delivery.headers,
        body: '{"a":1},"webhook_id":"WH-A"',
      }),
    ).toEqual(notVerified);
    expect(callsSince(mark)).toEqual([]);
  });

  it('reads header names in any case', async () => {
    const { paypal, delivery } = await deliveredEvent();
    const upper = Object.fromEntries(
      Object.entries(delivery.headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    expect(await paypal.verifyWebhook(SHOP_A, { headers: upper, body: delivery.body })).toEqual({
      outcome: 'done',
      value: { verified: true },
    });
  });
});

/** Starts a scripted loopback server; the handler decides every answer. */
async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('PayPal adapter: answers the fixture does not give', () => {
  const SCRIPTED_TOKEN = 'A21AAscripted-token-7c1f0e';
  let scripted: { url: string; close(): Promise<void> };
  /** The answer of the next API call (the token request always succeeds). */
  let next: (response: ServerResponse) => void = (response) => response.writeHead(500).end();
  let tokenRequests = 0;

  beforeAll(async () => {
    scripted = await serve(async (request, response) => {
      for await (const _ of request) {
        // drain the body
      }
      if (request.url === '/v1/oauth2/token') {
        tokenRequests += 1;
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: SCRIPTED_TOKEN, token_type: 'Bearer', expires_in: 32400 }));
        return;
      }
      next(response);
    });
  });

  afterAll(async () => {
    await scripted?.close();
  });

  const scriptedProvider = () => provider({}, { ...config, contractBaseUrl: scripted.url });
  const json = (status: number, body: unknown) => (response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it.each([
    [
      '429',
      json(429, { name: 'RATE_LIMIT_REACHED', message: 'Too many requests.' }),
      'HTTP 429 RATE_LIMIT_REACHED',
    ],
    [
      '502 as HTML',
      (response: ServerResponse) => response.writeHead(502).end('<html>bad gateway</html>'),
      'HTTP 502',
    ],
    [
      'a 2xx that is not JSON',
      (response: ServerResponse) => response.writeHead(201).end('OK'),
      'HTTP 201 with an unreadable answer',
    ],
    [
      'a 2xx of another shape',
      json(201, { id: 'X', status: 'SHIPPED' }),
      'HTTP 201 with an unreadable answer',
    ],
    ['a 409 RESOURCE_CONFLICT', json(409, { name: 'RESOURCE_CONFLICT' }), 'HTTP 409 RESOURCE_CONFLICT'],
    [
      'a redirect',
      (response: ServerResponse) => response.writeHead(302, { location: 'http://127.0.0.1:1/' }).end(),
      'HTTP 302',
    ],
    [
      'a streamed answer past 64 KiB without a length',
      (response: ServerResponse) => {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.write('{"id":"X","padding":"');
        for (let index = 0; index < 40; index++) response.write('x'.repeat(2048));
        response.end('"}');
      },
      'HTTP 201 with an answer over 65536 bytes',
    ],
  ])('%s is unknown', async (_name, answer, reason) => {
    next = answer;
    expect(await scriptedProvider().captureOrder(SHOP_A, 'ORDER1', 'capture-scripted')).toEqual({
      outcome: 'unknown',
      reason,
    });
  });

  it('a 400 without a JSON body is refused under its status', async () => {
    next = (response) => response.writeHead(400).end('bad');
    expect(await scriptedProvider().getOrder(SHOP_A, 'ORDER1')).toEqual({
      outcome: 'refused',
      status: 400,
      issue: 'HTTP_400',
      detail: 'HTTP 400',
    });
  });

  it('a 401 that persists after one renewal is refused, after exactly one retry', async () => {
    next = json(401, {
      name: 'AUTHENTICATION_FAILURE',
      message: 'Authentication failed due to invalid authentication credentials.',
    });
    const before = tokenRequests;
    expect(await scriptedProvider().getOrder(SHOP_A, 'ORDER1')).toMatchObject({
      outcome: 'refused',
      status: 401,
      issue: 'AUTHENTICATION_FAILURE',
    });
    expect(tokenRequests - before).toBe(2);
  });

  it('cuts the secret and the token out of text PayPal echoes back', async () => {
    next = (response) =>
      json(422, {
        name: 'UNPROCESSABLE_ENTITY',
        details: [
          {
            issue: 'INSTRUMENT_DECLINED',
            description: `Declined for ${SECRET_A} with Bearer ${SCRIPTED_TOKEN}`,
          },
        ],
      })(response);
    const answer = await scriptedProvider().captureOrder(SHOP_A, 'ORDER1', 'capture-echo');
    expect(answer).toEqual({
      outcome: 'refused',
      status: 422,
      issue: 'INSTRUMENT_DECLINED',
      detail: 'Declined for [redacted] with Bearer [redacted]',
    });
    sentCredentials.add(SCRIPTED_TOKEN);
  });
});

describe('PayPal adapter: secrets', () => {
  it('never puts a client secret, token or Authorization value into any answer', () => {
    expect(answers.length).toBeGreaterThan(50);
    expect(sentCredentials.size).toBeGreaterThan(4);
    const text = JSON.stringify(answers);
    for (const secret of [SECRET_A, SECRET_B, 'not-the-secret-of-a-9b1c', ...sentCredentials]) {
      expect(text).not.toContain(secret);
    }
  });
});
