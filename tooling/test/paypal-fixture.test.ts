import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FixtureAccountInput,
  type PayPalCapture,
  type PayPalFixture,
  type PayPalOrder,
  type PayPalRefund,
  startPayPalFixture,
  type WebhookEvent,
} from '../src/paypal-fixture/index.ts';
import { rawMemberText } from '../src/paypal-fixture/json-span.ts';

const SHOP_A: FixtureAccountInput = {
  clientId: 'client-a',
  clientSecret: 'secret-a',
  merchantId: 'MERCHANTAAAA1',
  webhookId: 'WH-SHOP-A',
};
const SHOP_B: FixtureAccountInput = {
  clientId: 'client-b',
  clientSecret: 'secret-b',
  merchantId: 'MERCHANTBBBB2',
  webhookId: 'WH-SHOP-B',
};

interface ErrorBody {
  name: string;
  message: string;
  debug_id: string;
  details?: { issue: string; field?: string; location?: string; description: string }[];
  links: { href: string; rel: string; method: string }[];
}

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

let fixture: PayPalFixture;
let invoiceCounter = 0;

beforeEach(async () => {
  fixture = await startPayPalFixture({ accounts: [SHOP_A, SHOP_B] });
});

afterEach(async () => {
  await fixture.close();
});

function basic(account: FixtureAccountInput, secret = account.clientSecret): string {
  return `Basic ${Buffer.from(`${account.clientId}:${secret}`).toString('base64')}`;
}

async function api<T = ErrorBody>(
  method: string,
  path: string,
  options: { token?: string; json?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const body = options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${fixture.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text === '' ? undefined : JSON.parse(text)) as T,
  };
}

async function tokenFor(account: FixtureAccountInput): Promise<string> {
  const response = await fetch(`${fixture.url}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basic(account), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function orderRequest(overrides: Record<string, unknown> = {}, unit: Record<string, unknown> = {}) {
  invoiceCounter += 1;
  return {
    intent: 'CAPTURE',
    purchase_units: [
      {
        amount: { currency_code: 'EUR', value: '10.00' },
        custom_id: 'txn-42',
        invoice_id: `inv-${invoiceCounter}`,
        ...unit,
      },
    ],
    ...overrides,
  };
}

async function createOrder(token: string, request: unknown = orderRequest()): Promise<PayPalOrder> {
  const answer = await api<PayPalOrder>('POST', '/v2/checkout/orders', { token, json: request });
  expect(answer.status).toBe(201);
  return answer.body;
}

/** An order captured with a COMPLETED capture of EUR 10.00. */
async function capturedOrder(token: string): Promise<{ orderId: string; captureId: string }> {
  const order = await createOrder(token);
  fixture.approve(order.id);
  const answer = await api<PayPalOrder>('POST', `/v2/checkout/orders/${order.id}/capture`, { token });
  expect(answer.status).toBe(201);
  return { orderId: order.id, captureId: fixture.captures(order.id)[0]!.id };
}

function firstCapture(order: PayPalOrder): PayPalCapture {
  return order.purchase_units![0]!.payments!.captures![0]!;
}

function rels(links: readonly { rel: string; method?: string }[]): string[] {
  return links.map((entry) => `${entry.rel}:${entry.method}`);
}

async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('OAuth2 token (§1)', () => {
  it('issues a bearer token for Basic credentials and a form grant_type', async () => {
    const response = await fetch(`${fixture.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic(SHOP_A), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(200);
    expect(body).toEqual({
      scope: expect.stringContaining('https://uri.paypal.com/services/payments/refund'),
      access_token: expect.stringMatching(/^A21AA/),
      token_type: 'Bearer',
      app_id: expect.stringMatching(/^APP-/),
      expires_in: 32_400,
      nonce: expect.any(String),
    });
    const lookup = await api('GET', '/v2/checkout/orders/UNKNOWN1', { token: body.access_token as string });
    expect(lookup.status).toBe(404);
  });

  it('accepts grant_type in the query string with an empty body', async () => {
    const response = await fetch(`${fixture.url}/v1/oauth2/token?grant_type=client_credentials`, {
      method: 'POST',
      headers: { authorization: basic(SHOP_B) },
    });
    expect(response.status).toBe(200);
    expect(fixture.calls.at(-1)).toMatchObject({
      path: '/v1/oauth2/token',
      account: 'client-b',
      status: 200,
    });
  });

  it('refuses bad credentials with invalid_client and a missing grant type with unsupported_grant_type', async () => {
    const wrongSecret = await fetch(`${fixture.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic(SHOP_A, 'nope'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(wrongSecret.status).toBe(401);
    expect(await wrongSecret.json()).toEqual({
      error: 'invalid_client',
      error_description: 'Client Authentication failed',
    });
    const noGrant = await fetch(`${fixture.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic(SHOP_A) },
    });
    expect(noGrant.status).toBe(400);
    expect(await noGrant.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('answers an unknown bearer with invalid_token and a missing one with AUTHENTICATION_FAILURE', async () => {
    const unknown = await api('GET', '/v2/checkout/orders/ABC', { token: 'A21AAnot-a-token' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      error: 'invalid_token',
      error_description: 'Access Token not found in cache',
    });
    const missing = await api('GET', '/v2/checkout/orders/ABC');
    expect(missing.status).toBe(401);
    expect(missing.body.name).toBe('AUTHENTICATION_FAILURE');
  });

  it('expires tokens after expires_in on the fixture clock and reuses a live one meanwhile', async () => {
    await fixture.close();
    let clock = Date.parse('2025-03-01T10:00:00Z');
    fixture = await startPayPalFixture({ accounts: [SHOP_A], tokenExpiresInSeconds: 60, now: () => clock });
    const first = await tokenFor(SHOP_A);
    clock += 30_000;
    const again = await fetch(`${fixture.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic(SHOP_A), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(await again.json()).toMatchObject({ access_token: first, expires_in: 30 });
    expect((await api('GET', '/v2/checkout/orders/X1', { token: first })).status).toBe(404);
    clock += 31_000;
    const expired = await api('GET', '/v2/checkout/orders/X1', { token: first });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'invalid_token' });
    const fresh = await tokenFor(SHOP_A);
    expect(fresh).not.toBe(first);
    expect((await api('GET', '/v2/checkout/orders/X1', { token: fresh })).status).toBe(404);
  });

  it('revokes live tokens through expireTokens', async () => {
    const token = await tokenFor(SHOP_A);
    fixture.expireTokens('client-a');
    expect((await api('GET', '/v2/checkout/orders/X1', { token })).status).toBe(401);
  });
});

describe('Orders v2 (§2)', () => {
  it('creates an order: 201, minimal body with self/approve/update/capture links and a debug id', async () => {
    const token = await tokenFor(SHOP_A);
    const answer = await api<PayPalOrder>('POST', '/v2/checkout/orders', { token, json: orderRequest() });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('paypal-debug-id')).toMatch(/^[0-9a-f]{13}$/);
    const { id } = answer.body;
    expect(id).toMatch(/^[A-Z0-9]{17}$/);
    expect(answer.body).toEqual({
      id,
      status: 'CREATED',
      links: [
        { href: `${fixture.url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
        { href: `${fixture.url}/checkoutnow?token=${id}`, rel: 'approve', method: 'GET' },
        { href: `${fixture.url}/v2/checkout/orders/${id}`, rel: 'update', method: 'PATCH' },
        { href: `${fixture.url}/v2/checkout/orders/${id}/capture`, rel: 'capture', method: 'POST' },
      ],
    });
  });

  it('answers the full order with Prefer: return=representation', async () => {
    const token = await tokenFor(SHOP_A);
    const request = orderRequest({}, { description: 'Cart 7' });
    const answer = await api<PayPalOrder>('POST', '/v2/checkout/orders', {
      token,
      json: request,
      headers: { prefer: 'return=representation' },
    });
    expect(answer.body).toMatchObject({
      intent: 'CAPTURE',
      status: 'CREATED',
      purchase_units: [
        {
          reference_id: 'default',
          amount: { currency_code: 'EUR', value: '10.00' },
          payee: { merchant_id: 'MERCHANTAAAA1', email_address: expect.any(String) },
          custom_id: 'txn-42',
          invoice_id: request.purchase_units[0]!.invoice_id,
          description: 'Cart 7',
        },
      ],
      create_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(answer.body.purchase_units![0]!.payments).toBeUndefined();
  });

  it('create → approve → capture: COMPLETED order with the capture, payee and payer', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    const { payerId } = fixture.approve(order.id, { email: 'buyer@example.com' });
    const approved = await api<PayPalOrder>('GET', `/v2/checkout/orders/${order.id}`, { token });
    expect(approved.body.status).toBe('APPROVED');
    expect(rels(approved.body.links)).toEqual(['self:GET', 'update:PATCH', 'capture:POST']);

    const answer = await api<PayPalOrder>('POST', `/v2/checkout/orders/${order.id}/capture`, {
      token,
      json: {},
      headers: { prefer: 'return=representation', 'paypal-request-id': 'capture-1' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: order.id,
      status: 'COMPLETED',
      payer: { payer_id: payerId, email_address: 'buyer@example.com' },
      payment_source: { paypal: { account_id: payerId, account_status: 'VERIFIED' } },
      purchase_units: [{ payee: { merchant_id: 'MERCHANTAAAA1' } }],
      links: [{ rel: 'self', href: `${fixture.url}/v2/checkout/orders/${order.id}`, method: 'GET' }],
    });
    expect(answer.body.links).toHaveLength(1);
    const capture = firstCapture(answer.body);
    expect(capture).toMatchObject({
      status: 'COMPLETED',
      amount: { currency_code: 'EUR', value: '10.00' },
      custom_id: 'txn-42',
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE' },
      seller_receivable_breakdown: { gross_amount: { currency_code: 'EUR', value: '10.00' } },
    });
    const { paypal_fee, net_amount } = capture.seller_receivable_breakdown!;
    expect(Number(net_amount.value) + Number(paypal_fee.value)).toBeCloseTo(10, 2);
    expect(capture.links).toEqual([
      { href: `${fixture.url}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
      { href: `${fixture.url}/v2/payments/captures/${capture.id}/refund`, rel: 'refund', method: 'POST' },
      { href: `${fixture.url}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
    ]);
    expect(capture.payee).toBeUndefined();

    const fetched = await api<PayPalCapture>('GET', `/v2/payments/captures/${capture.id}`, { token });
    expect(fetched.body).toMatchObject({
      id: capture.id,
      payee: { merchant_id: 'MERCHANTAAAA1' },
      supplementary_data: { related_ids: { order_id: order.id } },
    });
    expect(fixture.captures(order.id)).toHaveLength(1);
  });

  it('keeps amounts out of the minimal capture answer but names the purchase unit and its captures', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    const answer = await api<PayPalOrder>('POST', `/v2/checkout/orders/${order.id}/capture`, { token });
    const [unit] = answer.body.purchase_units!;
    expect(unit!.reference_id).toBe('default');
    expect(unit!.amount).toBeUndefined();
    expect(unit!.payments!.captures).toHaveLength(1);
  });

  it('with experience_context: PAYER_ACTION_REQUIRED, and the payer-action link redirects to return_url', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(
      token,
      orderRequest({
        payment_source: {
          paypal: {
            experience_context: {
              return_url: 'https://shop.example/paypal/return?session=9',
              cancel_url: 'https://shop.example/paypal/cancel',
            },
          },
        },
      }),
    );
    expect(order.status).toBe('PAYER_ACTION_REQUIRED');
    expect(rels(order.links)).toEqual(['self:GET', 'payer-action:GET']);
    const notYet = await api('POST', `/v2/checkout/orders/${order.id}/capture`, { token });
    expect(notYet.body.details?.[0]?.issue).toBe('ORDER_NOT_APPROVED');

    const browser = await fetch(order.links[1]!.href, { redirect: 'manual' });
    expect(browser.status).toBe(302);
    const location = new URL(browser.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/paypal/return');
    expect(location.searchParams.get('session')).toBe('9');
    expect(location.searchParams.get('token')).toBe(order.id);
    expect(location.searchParams.get('PayerID')).toMatch(/^[A-Z0-9]{13}$/);

    const captured = await api<PayPalOrder>('POST', `/v2/checkout/orders/${order.id}/capture`, { token });
    expect(captured.status).toBe(201);
    expect(captured.body.payer?.payer_id).toBe(location.searchParams.get('PayerID'));
  });

  it('sends a cancelling buyer to cancel_url and leaves the order unapproved', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(
      token,
      orderRequest({
        application_context: { return_url: 'https://shop.example/r', cancel_url: 'https://shop.example/c' },
      }),
    );
    expect(order.status).toBe('CREATED');
    const browser = await fetch(`${fixture.url}/checkoutnow?token=${order.id}&action=cancel`, {
      redirect: 'manual',
    });
    expect(browser.headers.get('location')).toBe(`https://shop.example/c?token=${order.id}`);
    expect(fixture.order(order.id).status).toBe('CREATED');
  });

  it('refuses a capture before approval with 422 ORDER_NOT_APPROVED in the standard error body', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    const answer = await api('POST', `/v2/checkout/orders/${order.id}/capture`, { token, json: {} });
    expect(answer.status).toBe(422);
    expect(answer.headers.get('paypal-debug-id')).toBe(answer.body.debug_id);
    expect(answer.body).toMatchObject({
      name: 'UNPROCESSABLE_ENTITY',
      message:
        'The requested action could not be performed, semantically incorrect, or failed business validation.',
      details: [{ issue: 'ORDER_NOT_APPROVED', description: expect.any(String) }],
      links: [
        {
          href: 'https://developer.paypal.com/docs/api/orders/v2/#error-ORDER_NOT_APPROVED',
          rel: 'information_link',
          method: 'GET',
        },
      ],
    });
    expect(fixture.captures(order.id)).toHaveLength(0);
  });

  it('refuses a second capture with a new request id (ORDER_ALREADY_CAPTURED); one provider capture', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    const headers = { 'paypal-request-id': 'cap-1' };
    expect((await api('POST', `/v2/checkout/orders/${order.id}/capture`, { token, headers })).status).toBe(
      201,
    );
    const second = await api('POST', `/v2/checkout/orders/${order.id}/capture`, {
      token,
      headers: { 'paypal-request-id': 'cap-2' },
    });
    expect(second.status).toBe(422);
    expect(second.body.details?.[0]?.issue).toBe('ORDER_ALREADY_CAPTURED');
    expect(fixture.captures(order.id)).toHaveLength(1);
  });

  it('replays a capture with the same request id: 200 and the stored capture, not a second one', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    const headers = { 'paypal-request-id': 'same-key', prefer: 'return=representation' };
    const first = await api<PayPalOrder>('POST', `/v2/checkout/orders/${order.id}/capture`, {
      token,
      headers,
    });
    const replay = await api<PayPalOrder>('POST', `/v2/checkout/orders/${order.id}/capture`, {
      token,
      headers,
    });
    expect([first.status, replay.status]).toEqual([201, 200]);
    expect(firstCapture(replay.body).id).toBe(firstCapture(first.body).id);
    expect(fixture.captures(order.id)).toHaveLength(1);
  });

  it('creates 201 then replays 200 per (PayPal-Request-Id, endpoint); no key creates anew', async () => {
    const token = await tokenFor(SHOP_A);
    const request = orderRequest();
    const headers = { 'paypal-request-id': 'create-7' };
    const first = await api<PayPalOrder>('POST', '/v2/checkout/orders', { token, json: request, headers });
    const replay = await api<PayPalOrder>('POST', '/v2/checkout/orders', { token, json: request, headers });
    expect([first.status, replay.status]).toEqual([201, 200]);
    expect(replay.body.id).toBe(first.body.id);

    fixture.approve(first.body.id);
    const samekeyOtherEndpoint = await api('POST', `/v2/checkout/orders/${first.body.id}/capture`, {
      token,
      headers,
    });
    expect(samekeyOtherEndpoint.status).toBe(201);
    const replayAfterCapture = await api<PayPalOrder>('POST', '/v2/checkout/orders', {
      token,
      json: request,
      headers,
    });
    expect(replayAfterCapture.body.status).toBe('COMPLETED');

    // A fresh invoice id: the first one is paid now, and reusing it would be DUPLICATE_INVOICE_ID.
    const unkeyed = orderRequest();
    const unkeyedA = await createOrder(token, unkeyed);
    const unkeyedB = await createOrder(token, unkeyed);
    expect(unkeyedA.id).not.toBe(unkeyedB.id);
  });

  it('declined capture: the order still turns COMPLETED; pending captures show a reason and settle later', async () => {
    const token = await tokenFor(SHOP_A);
    const declined = await createOrder(token);
    fixture.setCaptureOutcome(declined.id, 'DECLINED');
    fixture.approve(declined.id);
    const answer = await api<PayPalOrder>('POST', `/v2/checkout/orders/${declined.id}/capture`, { token });
    expect(answer.body.status).toBe('COMPLETED');
    expect(firstCapture(answer.body).status).toBe('DECLINED');
    expect(firstCapture(answer.body).seller_receivable_breakdown).toBeUndefined();

    const pending = await createOrder(token);
    fixture.setCaptureOutcome(pending.id, 'PENDING');
    fixture.approve(pending.id);
    await api('POST', `/v2/checkout/orders/${pending.id}/capture`, { token });
    const [capture] = fixture.captures(pending.id);
    expect(capture).toMatchObject({ status: 'PENDING', status_details: { reason: 'PENDING_REVIEW' } });
    fixture.settleCapture(capture!.id, 'COMPLETED');
    const settled = await api<PayPalCapture>('GET', `/v2/payments/captures/${capture!.id}`, { token });
    expect(settled.body.status).toBe('COMPLETED');
    expect(settled.body.status_details).toBeUndefined();
  });

  it('answers an expired order with 404 INVALID_RESOURCE_ID on GET and capture', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    fixture.expire(order.id);
    const get = await api('GET', `/v2/checkout/orders/${order.id}`, { token });
    const capture = await api('POST', `/v2/checkout/orders/${order.id}/capture`, { token });
    expect([get.status, capture.status]).toEqual([404, 404]);
    expect(get.body).toMatchObject({
      name: 'RESOURCE_NOT_FOUND',
      details: [{ issue: 'INVALID_RESOURCE_ID' }],
    });
    expect(fixture.captures(order.id)).toHaveLength(0);
  });

  it('refuses to capture an order whose invoice id was already paid (DUPLICATE_INVOICE_ID)', async () => {
    const token = await tokenFor(SHOP_A);
    const first = await createOrder(token, orderRequest({}, { invoice_id: 'shop-order-1' }));
    const second = await createOrder(token, orderRequest({}, { invoice_id: 'shop-order-1' }));
    fixture.approve(first.id);
    fixture.approve(second.id);
    await api('POST', `/v2/checkout/orders/${first.id}/capture`, { token });
    const answer = await api('POST', `/v2/checkout/orders/${second.id}/capture`, { token });
    expect(answer.status).toBe(422);
    expect(answer.body.details?.[0]?.issue).toBe('DUPLICATE_INVOICE_ID');
  });

  it('PATCH removes an invoice id (204) so a blocked capture goes through; patched amounts are revalidated', async () => {
    const token = await tokenFor(SHOP_A);
    const paid = await createOrder(token, orderRequest({}, { invoice_id: 'shop-order-9' }));
    fixture.approve(paid.id);
    await api('POST', `/v2/checkout/orders/${paid.id}/capture`, { token });
    const retry = await createOrder(token, orderRequest({}, { invoice_id: 'shop-order-10' }));
    fixture.approve(retry.id);
    const unit = "/purchase_units/@reference_id=='default'";
    const clash = await api('PATCH', `/v2/checkout/orders/${retry.id}`, {
      token,
      json: [{ op: 'replace', path: `${unit}/invoice_id`, value: 'shop-order-9' }],
    });
    expect(clash.body.details?.[0]?.issue).toBe('DUPLICATE_INVOICE_ID');

    const mismatch = await api('PATCH', `/v2/checkout/orders/${retry.id}`, {
      token,
      json: [
        {
          op: 'replace',
          path: `${unit}/amount`,
          value: {
            currency_code: 'EUR',
            value: '12.00',
            breakdown: { item_total: { currency_code: 'EUR', value: '11.00' } },
          },
        },
      ],
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.details?.[0]).toMatchObject({
      issue: 'AMOUNT_MISMATCH',
      field: `${unit}/amount/value`,
    });
    expect(fixture.order(retry.id).purchase_units![0]!.amount?.value).toBe('10.00');

    const patched = await api('PATCH', `/v2/checkout/orders/${retry.id}`, {
      token,
      json: [
        { op: 'remove', path: `${unit}/invoice_id` },
        { op: 'replace', path: `${unit}/amount`, value: { currency_code: 'EUR', value: '12.00' } },
      ],
    });
    expect(patched.status).toBe(204);
    const captured = await api<PayPalOrder>('POST', `/v2/checkout/orders/${retry.id}/capture`, { token });
    expect(firstCapture(captured.body).amount.value).toBe('12.00');
    expect(firstCapture(captured.body).invoice_id).toBeUndefined();
    const late = await api('PATCH', `/v2/checkout/orders/${retry.id}`, {
      token,
      json: [{ op: 'add', path: `${unit}/description`, value: 'too late' }],
    });
    expect(late.body.details?.[0]?.issue).toBe('ORDER_ALREADY_COMPLETED');
  });

  it("hides each account's resources from the others (404), so shop A's token never reaches shop B", async () => {
    const tokenA = await tokenFor(SHOP_A);
    const tokenB = await tokenFor(SHOP_B);
    const { orderId, captureId } = await capturedOrder(tokenA);
    const attempts = [
      await api('GET', `/v2/checkout/orders/${orderId}`, { token: tokenB }),
      await api('POST', `/v2/checkout/orders/${orderId}/capture`, { token: tokenB }),
      await api('GET', `/v2/payments/captures/${captureId}`, { token: tokenB }),
      await api('POST', `/v2/payments/captures/${captureId}/refund`, { token: tokenB, json: {} }),
    ];
    expect(attempts.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect(fixture.refunds(captureId)).toHaveLength(0);
    expect(fixture.calls.slice(-4).map((call) => call.account)).toEqual(Array(4).fill('client-b'));
    expect((await api('GET', `/v2/checkout/orders/${orderId}`, { token: tokenA })).status).toBe(200);
  });

  it('authorize → capture partially → capture the rest; then void is refused', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token, orderRequest({ intent: 'AUTHORIZE' }));
    expect(rels(order.links).at(-1)).toBe('authorize:POST');
    fixture.approve(order.id);
    const wrongAction = await api('POST', `/v2/checkout/orders/${order.id}/capture`, { token });
    expect(wrongAction.body.details?.[0]?.issue).toBe('ACTION_DOES_NOT_MATCH_INTENT');

    const authorized = await api<PayPalOrder>('POST', `/v2/checkout/orders/${order.id}/authorize`, { token });
    expect(authorized.status).toBe(201);
    const authorization = authorized.body.purchase_units![0]!.payments!.authorizations![0]!;
    expect(authorization.status).toBe('CREATED');
    expect(rels(authorization.links)).toEqual([
      'self:GET',
      'capture:POST',
      'void:POST',
      'reauthorize:POST',
      'up:GET',
    ]);

    const path = `/v2/payments/authorizations/${authorization.id}`;
    const part = await api<PayPalCapture>('POST', `${path}/capture`, {
      token,
      json: { amount: { currency_code: 'EUR', value: '4.00' } },
      headers: { prefer: 'return=representation' },
    });
    expect(part.status).toBe(201);
    expect(part.body.supplementary_data?.related_ids).toEqual({
      order_id: order.id,
      authorization_id: authorization.id,
    });
    expect((await api<{ status: string }>('GET', path, { token })).body.status).toBe('PARTIALLY_CAPTURED');
    const rest = await api<PayPalCapture>('POST', `${path}/capture`, {
      token,
      json: { final_capture: true },
    });
    expect(rest.status).toBe(201);
    expect(fixture.captures(order.id).map((capture) => capture.amount.value)).toEqual(['4.00', '6.00']);
    expect((await api<{ status: string }>('GET', path, { token })).body.status).toBe('CAPTURED');
    const voided = await api('POST', `${path}/void`, { token });
    expect(voided.body.details?.[0]?.issue).toBe('PREVIOUSLY_CAPTURED');
  });

  it('voids an authorization (204 minimal) and then refuses to capture it', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token, orderRequest({ intent: 'AUTHORIZE' }));
    fixture.approve(order.id);
    await api('POST', `/v2/checkout/orders/${order.id}/authorize`, { token });
    const [authorization] = fixture.authorizations(order.id);
    const path = `/v2/payments/authorizations/${authorization!.id}`;
    const voided = await api('POST', `${path}/void`, { token });
    expect(voided.status).toBe(204);
    expect(fixture.order(order.id).status).toBe('VOIDED');
    const capture = await api('POST', `${path}/capture`, { token, json: {} });
    expect(capture.body.details?.[0]?.issue).toBe('AUTHORIZATION_VOIDED');
  });

  it('forces an issue through PayPal-Mock-Response without performing the call', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    const answer = await api('POST', `/v2/checkout/orders/${order.id}/capture`, {
      token,
      headers: { 'paypal-mock-response': '{"mock_application_codes":"INSTRUMENT_DECLINED"}' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.details?.[0]?.issue).toBe('INSTRUMENT_DECLINED');
    expect(fixture.captures(order.id)).toHaveLength(0);
  });
});

describe('money validation (§8)', () => {
  const unitPointer = "/purchase_units/@reference_id=='default'";
  const cases: {
    name: string;
    unit: Record<string, unknown>;
    status: number;
    issue: string;
    field: string;
  }[] = [
    {
      name: 'JPY with decimals',
      unit: { amount: { currency_code: 'JPY', value: '1500.00' } },
      status: 422,
      issue: 'DECIMALS_NOT_SUPPORTED',
      field: `${unitPointer}/amount/value`,
    },
    {
      name: 'a comma as decimal separator',
      unit: { amount: { currency_code: 'EUR', value: '10,00' } },
      status: 400,
      issue: 'INVALID_PARAMETER_SYNTAX',
      field: `${unitPointer}/amount/value`,
    },
    {
      name: 'a JSON number',
      unit: { amount: { currency_code: 'EUR', value: 51.9 } },
      status: 400,
      issue: 'INVALID_PARAMETER_SYNTAX',
      field: `${unitPointer}/amount/value`,
    },
    {
      name: 'three decimals',
      unit: { amount: { currency_code: 'EUR', value: '10.005' } },
      status: 422,
      issue: 'DECIMAL_PRECISION',
      field: `${unitPointer}/amount/value`,
    },
    {
      name: 'zero',
      unit: { amount: { currency_code: 'EUR', value: '0.00' } },
      status: 422,
      issue: 'CANNOT_BE_ZERO_OR_NEGATIVE',
      field: `${unitPointer}/amount/value`,
    },
    {
      name: 'sixteen integer digits',
      unit: { amount: { currency_code: 'USD', value: '1000000000000000.00' } },
      status: 422,
      issue: 'MAX_VALUE_EXCEEDED',
      field: `${unitPointer}/amount/value`,
    },
    {
      name: 'an unsupported currency',
      unit: { amount: { currency_code: 'XYZ', value: '1.00' } },
      status: 422,
      issue: 'INVALID_CURRENCY_CODE',
      field: `${unitPointer}/amount/currency_code`,
    },
    {
      name: 'a breakdown that does not add up',
      unit: {
        amount: {
          currency_code: 'EUR',
          value: '12.00',
          breakdown: {
            item_total: { currency_code: 'EUR', value: '10.00' },
            shipping: { currency_code: 'EUR', value: '3.00' },
          },
        },
      },
      status: 422,
      issue: 'AMOUNT_MISMATCH',
      field: `${unitPointer}/amount/value`,
    },
    {
      name: 'items that do not match item_total',
      unit: {
        amount: {
          currency_code: 'EUR',
          value: '10.00',
          breakdown: { item_total: { currency_code: 'EUR', value: '10.00' } },
        },
        items: [{ name: 'Mug', quantity: '3', unit_amount: { currency_code: 'EUR', value: '3.33' } }],
      },
      status: 422,
      issue: 'ITEM_TOTAL_MISMATCH',
      field: `${unitPointer}/amount/breakdown/item_total/value`,
    },
    {
      name: 'items without item_total',
      unit: {
        amount: { currency_code: 'EUR', value: '9.99' },
        items: [{ name: 'Mug', quantity: '3', unit_amount: { currency_code: 'EUR', value: '3.33' } }],
      },
      status: 422,
      issue: 'ITEM_TOTAL_REQUIRED',
      field: `${unitPointer}/amount/breakdown/item_total`,
    },
    {
      name: 'item tax without tax_total',
      unit: {
        amount: {
          currency_code: 'EUR',
          value: '12.00',
          breakdown: { item_total: { currency_code: 'EUR', value: '12.00' } },
        },
        items: [
          {
            name: 'Mug',
            quantity: '2',
            unit_amount: { currency_code: 'EUR', value: '6.00' },
            tax: { currency_code: 'EUR', value: '1.14' },
          },
        ],
      },
      status: 422,
      issue: 'TAX_TOTAL_REQUIRED',
      field: `${unitPointer}/amount/breakdown/tax_total`,
    },
  ];

  it.each(cases)('refuses $name with $status $issue at the field', async ({ unit, status, issue, field }) => {
    const token = await tokenFor(SHOP_A);
    const answer = await api('POST', '/v2/checkout/orders', {
      token,
      json: { intent: 'CAPTURE', purchase_units: [unit] },
    });
    expect(answer.status).toBe(status);
    expect(answer.body.name).toBe(status === 400 ? 'INVALID_REQUEST' : 'UNPROCESSABLE_ENTITY');
    expect(answer.body.details).toEqual([expect.objectContaining({ issue, field, location: 'body' })]);
  });

  it('accepts whole JPY and a breakdown with items, tax and a discount that add up exactly', async () => {
    const token = await tokenFor(SHOP_A);
    const jpy = await api<PayPalOrder>('POST', '/v2/checkout/orders', {
      token,
      json: { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'JPY', value: '1500' } }] },
      headers: { prefer: 'return=representation' },
    });
    expect(jpy.status).toBe(201);
    expect(jpy.body.purchase_units![0]!.amount).toMatchObject({ currency_code: 'JPY', value: '1500' });
    const detailed = await api<PayPalOrder>('POST', '/v2/checkout/orders', {
      token,
      json: {
        intent: 'CAPTURE',
        purchase_units: [
          {
            amount: {
              currency_code: 'EUR',
              value: '13.27',
              breakdown: {
                item_total: { currency_code: 'EUR', value: '9.99' },
                tax_total: { currency_code: 'EUR', value: '1.89' },
                shipping: { currency_code: 'EUR', value: '4.90' },
                discount: { currency_code: 'EUR', value: '3.51' },
              },
            },
            items: [
              {
                name: 'Mug',
                quantity: '3',
                unit_amount: { currency_code: 'EUR', value: '3.33' },
                tax: { currency_code: 'EUR', value: '0.63' },
              },
            ],
          },
        ],
      },
    });
    expect(detailed.status).toBe(201);
  });

  it('reports schema problems (400) before business rules (422)', async () => {
    const token = await tokenFor(SHOP_A);
    const answer = await api('POST', '/v2/checkout/orders', {
      token,
      json: {
        intent: 'SELL',
        purchase_units: [{ amount: { currency_code: 'JPY', value: '10.5' } }],
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details?.map((entry) => entry.issue)).toEqual(['INVALID_PARAMETER_VALUE']);
    const malformed = await api('POST', '/v2/checkout/orders', { token, raw: '{"intent":' });
    expect(malformed.body.details?.[0]?.issue).toBe('MALFORMED_REQUEST_JSON');
  });
});

describe('refunds (§4.1)', () => {
  it('refunds partially, then the remainder with an empty body; totals add up and the capture follows', async () => {
    const token = await tokenFor(SHOP_A);
    const { captureId } = await capturedOrder(token);
    const path = `/v2/payments/captures/${captureId}/refund`;
    const headers = { prefer: 'return=representation' };
    const part = await api<PayPalRefund>('POST', path, {
      token,
      headers,
      json: { amount: { currency_code: 'EUR', value: '4.00' }, note_to_payer: 'Broken mug' },
    });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({
      status: 'COMPLETED',
      amount: { currency_code: 'EUR', value: '4.00' },
      note_to_payer: 'Broken mug',
      seller_payable_breakdown: { total_refunded_amount: { currency_code: 'EUR', value: '4.00' } },
      links: [
        { rel: 'self', href: `${fixture.url}/v2/payments/refunds/${part.body.id}` },
        { rel: 'up', href: `${fixture.url}/v2/payments/captures/${captureId}` },
      ],
    });
    const afterPart = await api<PayPalCapture>('GET', `/v2/payments/captures/${captureId}`, { token });
    expect(afterPart.body.status).toBe('PARTIALLY_REFUNDED');

    const rest = await api<PayPalRefund>('POST', path, { token, headers, json: {} });
    expect(rest.body.amount).toEqual({ currency_code: 'EUR', value: '6.00' });
    expect(rest.body.seller_payable_breakdown?.total_refunded_amount.value).toBe('10.00');
    const afterRest = await api<PayPalCapture>('GET', `/v2/payments/captures/${captureId}`, { token });
    expect(afterRest.body.status).toBe('REFUNDED');
    const fetched = await api<PayPalRefund>('GET', `/v2/payments/refunds/${rest.body.id}`, { token });
    expect(fetched.body.id).toBe(rest.body.id);
    expect(fixture.refunds(captureId).map((refund) => refund.amount?.value)).toEqual(['4.00', '6.00']);
  });

  it('answers the minimal refund by default', async () => {
    const token = await tokenFor(SHOP_A);
    const { captureId } = await capturedOrder(token);
    const answer = await api<PayPalRefund>('POST', `/v2/payments/captures/${captureId}/refund`, {
      token,
      json: {},
    });
    expect(Object.keys(answer.body)).toEqual(['id', 'status', 'links']);
  });

  it('refuses more than the remainder (not trimmed), then anything once fully refunded', async () => {
    const token = await tokenFor(SHOP_A);
    const { captureId } = await capturedOrder(token);
    const path = `/v2/payments/captures/${captureId}/refund`;
    await api('POST', path, { token, json: { amount: { currency_code: 'EUR', value: '7.00' } } });
    const exceeded = await api('POST', path, {
      token,
      json: { amount: { currency_code: 'EUR', value: '3.01' } },
    });
    expect(exceeded.status).toBe(422);
    expect(exceeded.body.details?.[0]).toMatchObject({
      issue: 'REFUND_AMOUNT_EXCEEDED',
      field: '/amount/value',
    });
    expect(fixture.refunds(captureId)).toHaveLength(1);
    expect((await api('POST', path, { token, json: {} })).status).toBe(201);
    const again = await api('POST', path, { token, json: {} });
    expect(again.body.details?.[0]?.issue).toBe('CAPTURE_FULLY_REFUNDED');
  });

  it('refuses a refund of a pending capture, in another currency, or without a JSON body', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.setCaptureOutcome(order.id, 'PENDING');
    fixture.approve(order.id);
    await api('POST', `/v2/checkout/orders/${order.id}/capture`, { token });
    const pendingId = fixture.captures(order.id)[0]!.id;
    const pending = await api('POST', `/v2/payments/captures/${pendingId}/refund`, { token, json: {} });
    expect(pending.body.details?.[0]?.issue).toBe('PENDING_CAPTURE');

    const { captureId } = await capturedOrder(token);
    const path = `/v2/payments/captures/${captureId}/refund`;
    const currency = await api('POST', path, {
      token,
      json: { amount: { currency_code: 'USD', value: '1.00' } },
    });
    expect(currency.body.details?.[0]?.issue).toBe('REFUND_CAPTURE_CURRENCY_MISMATCH');
    const noBody = await api('POST', path, { token });
    expect(noBody.status).toBe(400);
    expect(noBody.body.details?.[0]?.issue).toBe('MALFORMED_REQUEST_JSON');
  });

  it('is idempotent by PayPal-Request-Id: a replay returns the same refund and refunds nothing more', async () => {
    const token = await tokenFor(SHOP_A);
    const { captureId } = await capturedOrder(token);
    const path = `/v2/payments/captures/${captureId}/refund`;
    const json = { amount: { currency_code: 'EUR', value: '2.50' } };
    const headers = { 'paypal-request-id': 'refund-1' };
    const first = await api<PayPalRefund>('POST', path, { token, json, headers });
    const replay = await api<PayPalRefund>('POST', path, { token, json, headers });
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replay.body.id).toBe(first.body.id);
    expect(fixture.refunds(captureId)).toHaveLength(1);
    const another = await api<PayPalRefund>('POST', path, {
      token,
      json,
      headers: { 'paypal-request-id': 'refund-2' },
    });
    expect(another.body.id).not.toBe(first.body.id);
    expect(fixture.refunds(captureId)).toHaveLength(2);
  });

  it('answers a duplicate sent while the first is in flight with 409 PREVIOUS_REQUEST_IN_PROGRESS', async () => {
    const token = await tokenFor(SHOP_A);
    const { captureId } = await capturedOrder(token);
    const path = `/v2/payments/captures/${captureId}/refund`;
    const headers = { 'paypal-request-id': 'refund-slow' };
    fixture.failNext({ path, kind: 'slow', delayMs: 1000 });
    const first = api<PayPalRefund>('POST', path, { token, json: {}, headers });
    await until(() => fixture.calls.some((call) => call.path === path));
    const duplicate = await api('POST', path, { token, json: {}, headers });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({
      name: 'RESOURCE_CONFLICT',
      details: [{ issue: 'PREVIOUS_REQUEST_IN_PROGRESS' }],
    });
    expect((await first).status).toBe(201);
    expect(fixture.refunds(captureId)).toHaveLength(1);
  });
});

describe('fault injection', () => {
  it('drop-after-performing captures, then destroys the socket; a retry with the same key replays', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    const path = `/v2/checkout/orders/${order.id}/capture`;
    const headers = { 'paypal-request-id': 'cap-dropped' };
    fixture.failNext({ path, method: 'POST', kind: 'drop-after-performing' });
    await expect(api('POST', path, { token, headers })).rejects.toThrow('fetch failed');
    expect(fixture.captures(order.id)).toHaveLength(1);
    const retry = await api<PayPalOrder>('POST', path, { token, headers });
    expect(retry.status).toBe(200);
    expect(firstCapture(retry.body).id).toBe(fixture.captures(order.id)[0]!.id);
    expect(fixture.captures(order.id)).toHaveLength(1);
  });

  it('timeout never answers and performs nothing; the next call is served', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    const path = `/v2/checkout/orders/${order.id}/capture`;
    fixture.failNext({ path: /\/capture$/, kind: 'timeout' });
    const call = fetch(`${fixture.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(300),
    });
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(fixture.captures(order.id)).toHaveLength(0);
    expect(fixture.calls.at(-1)).toMatchObject({ path, fault: 'timeout' });
    expect(fixture.calls.at(-1)?.status).toBeUndefined();
    expect((await api('POST', path, { token })).status).toBe(201);
  });

  it('oversized answers the real body padded past 64 KiB', async () => {
    const token = await tokenFor(SHOP_A);
    const order = await createOrder(token);
    fixture.approve(order.id);
    const path = `/v2/checkout/orders/${order.id}/capture`;
    fixture.failNext({ path, kind: 'oversized' });
    const response = await fetch(`${fixture.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await response.text();
    expect(text.length).toBeGreaterThan(64 * 1024);
    expect((JSON.parse(text) as PayPalOrder).id).toBe(order.id);
    expect(fixture.captures(order.id)).toHaveLength(1);
  });

  it('status-503 (twice) answers the 5xx body without performing; the same key then creates (201)', async () => {
    const token = await tokenFor(SHOP_A);
    fixture.failNext({ path: '/v2/checkout/orders', method: 'POST', kind: 'status-503', times: 2 });
    const headers = { 'paypal-request-id': 'create-after-503' };
    const request = orderRequest();
    const failures = [
      await api('POST', '/v2/checkout/orders', { token, json: request, headers }),
      await api('POST', '/v2/checkout/orders', { token, json: request, headers }),
    ];
    expect(failures.map((answer) => answer.status)).toEqual([503, 503]);
    expect(failures[0]!.body).toMatchObject({ name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.' });
    expect(failures[0]!.body.details).toBeUndefined();
    const created = await api<PayPalOrder>('POST', '/v2/checkout/orders', { token, json: request, headers });
    expect(created.status).toBe(201);
    fixture.failNext({ path: /^\/v2\/checkout\/orders\//, kind: 'status-500' });
    const internal = await api('GET', `/v2/checkout/orders/${created.body.id}`, { token });
    expect(internal.body.name).toBe('INTERNAL_SERVER_ERROR');
  });
});

describe('webhooks (§5)', () => {
  interface Received {
    headers: IncomingHttpHeaders;
    body: string;
  }

  /** A listener that records raw bodies and answers the given statuses in turn (then 200). */
  async function startListener(statuses: number[] = []) {
    const received: Received[] = [];
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(statuses.shift() ?? 200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/webhooks/paypal`,
      received,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }

  let listener: Awaited<ReturnType<typeof startListener>> | undefined;

  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  /** The verify request with the event text spliced in verbatim, as a careful listener builds it. */
  function verifyRequest(headers: IncomingHttpHeaders, webhookId: string, eventText: string): string {
    const field = (name: string) => JSON.stringify(headers[name]);
    return `{"auth_algo":${field('paypal-auth-algo')},"cert_url":${field('paypal-cert-url')},"transmission_id":${field('paypal-transmission-id')},"transmission_sig":${field('paypal-transmission-sig')},"transmission_time":${field('paypal-transmission-time')},"webhook_id":${JSON.stringify(webhookId)},"webhook_event":${eventText}}`;
  }

  async function verify(token: string, raw: string): Promise<string | undefined> {
    const answer = await api<{ verification_status: string }>(
      'POST',
      '/v1/notifications/verify-webhook-signature',
      {
        token,
        raw,
      },
    );
    expect(answer.status).toBe(200);
    return answer.body.verification_status;
  }

  it('delivers a capture event with the §5.3 headers, and verify answers SUCCESS for the exact bytes', async () => {
    listener = await startListener();
    const token = await tokenFor(SHOP_A);
    const { orderId, captureId } = await capturedOrder(token);
    const deliveries = await fixture.deliverWebhook(listener.url, fixture.webhookEvents.capture(captureId));
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
    expect(listener.received).toHaveLength(1);
    const [{ headers, body }] = listener.received as [Received];
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'paypal-transmission-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'paypal-transmission-time': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      'paypal-transmission-sig': expect.any(String),
      'paypal-cert-url': expect.stringMatching(
        /^https:\/\/api\.sandbox\.paypal\.com\/v1\/notifications\/certs\//,
      ),
      'paypal-auth-algo': 'SHA256withRSA',
    });
    const event = JSON.parse(body) as WebhookEvent & { resource: PayPalCapture };
    expect(event).toMatchObject({
      id: expect.stringMatching(/^WH-[A-Z0-9]{17}-[A-Z0-9]{17}$/),
      event_version: '1.0',
      resource_type: 'capture',
      resource_version: '2.0',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: captureId,
        custom_id: 'txn-42',
        payee: { merchant_id: 'MERCHANTAAAA1' },
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    });
    expect(rels(event.links)).toEqual(['self:GET', 'resend:POST']);
    expect(await verify(token, verifyRequest(headers, 'WH-SHOP-A', body))).toBe('SUCCESS');
  });

  it('answers FAILURE for a re-serialised event, a wrong webhook id, or another account', async () => {
    listener = await startListener();
    const tokenA = await tokenFor(SHOP_A);
    const tokenB = await tokenFor(SHOP_B);
    const { orderId } = await capturedOrder(tokenA);
    await fixture.deliverWebhook(listener.url, fixture.webhookEvents.order(orderId));
    const [{ headers, body }] = listener.received as [Received];
    const reserialised = JSON.stringify(JSON.parse(body));
    expect(reserialised).not.toBe(body);
    expect(await verify(tokenA, verifyRequest(headers, 'WH-SHOP-A', reserialised))).toBe('FAILURE');
    expect(await verify(tokenA, verifyRequest(headers, 'WEBHOOK_ID', body))).toBe('FAILURE');
    expect(await verify(tokenA, verifyRequest(headers, 'WH-SHOP-B', body))).toBe('FAILURE');
    expect(await verify(tokenB, verifyRequest(headers, 'WH-SHOP-B', body))).toBe('FAILURE');
    const forged = { ...headers, 'paypal-transmission-id': '7d3c5d4e-0000-4000-8000-000000000000' };
    expect(await verify(tokenA, verifyRequest(forged, 'WH-SHOP-A', body))).toBe('FAILURE');
    expect(await verify(tokenA, verifyRequest(headers, 'WH-SHOP-A', body))).toBe('SUCCESS');
  });

  it('refuses a verify request without the required fields (400)', async () => {
    const token = await tokenFor(SHOP_A);
    const answer = await api('POST', '/v1/notifications/verify-webhook-signature', {
      token,
      json: { webhook_id: 'WH-SHOP-A', webhook_event: {} },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details?.map((entry) => entry.field)).toEqual([
      '/auth_algo',
      '/cert_url',
      '/transmission_id',
      '/transmission_sig',
      '/transmission_time',
    ]);
  });

  it('duplicates a delivery as a second transmission of the same event, both verifiable', async () => {
    listener = await startListener();
    const token = await tokenFor(SHOP_A);
    const { captureId } = await capturedOrder(token);
    await fixture.deliverWebhook(listener.url, fixture.webhookEvents.capture(captureId), { duplicate: true });
    expect(listener.received).toHaveLength(2);
    const [one, two] = listener.received as [Received, Received];
    expect(one.body).toBe(two.body);
    expect(one.headers['paypal-transmission-id']).not.toBe(two.headers['paypal-transmission-id']);
    for (const { headers, body } of listener.received) {
      expect(await verify(token, verifyRequest(headers, 'WH-SHOP-A', body))).toBe('SUCCESS');
    }
  });

  it('retries until the listener answers 2xx (at least once)', async () => {
    listener = await startListener([500, 503]);
    const token = await tokenFor(SHOP_A);
    const { captureId } = await capturedOrder(token);
    const deliveries = await fixture.deliverWebhook(listener.url, fixture.webhookEvents.capture(captureId), {
      retryDelayMs: 1,
    });
    expect(deliveries.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(new Set(listener.received.map((entry) => (JSON.parse(entry.body) as WebhookEvent).id)).size).toBe(
      1,
    );
  });

  it('sends several events in the order asked for, built from the fixture state', async () => {
    listener = await startListener();
    const token = await tokenFor(SHOP_A);
    const { orderId, captureId } = await capturedOrder(token);
    const refund = await api<PayPalRefund>('POST', `/v2/payments/captures/${captureId}/refund`, {
      token,
      json: {},
    });
    const events = [
      fixture.webhookEvents.order(orderId),
      fixture.webhookEvents.capture(captureId),
      fixture.webhookEvents.refund(refund.body.id),
    ];
    await fixture.deliverWebhooks(listener.url, events, { order: [2, 0, 1] });
    const received = listener.received.map((entry) => JSON.parse(entry.body) as WebhookEvent);
    expect(received.map((event) => event.event_type)).toEqual([
      'PAYMENT.CAPTURE.REFUNDED',
      'CHECKOUT.ORDER.APPROVED',
      'PAYMENT.CAPTURE.COMPLETED',
    ]);
    expect(received[0]!.resource).toMatchObject({
      id: refund.body.id,
      seller_payable_breakdown: { total_refunded_amount: { value: '10.00' } },
    });
    expect(received[1]!.resource).toMatchObject({ id: orderId, purchase_units: [{ custom_id: 'txn-42' }] });
  });
});

describe('rawMemberText (the §5.4 byte-for-byte comparison)', () => {
  it.each([
    ['compact', '{"a":1,"webhook_event":{"x":"y"}}', '{"x":"y"}'],
    ['spaced', '{ "webhook_event" :  {"x": [1, 2]} \n}', '{"x": [1, 2]}'],
    ['braces and quotes inside strings', '{"webhook_event":{"s":"}\\"{]"},"b":2}', '{"s":"}\\"{]"}'],
    ['a decoy value before it', '{"note":"\\"webhook_event\\":{}","webhook_event":{"k":"v"}}', '{"k":"v"}'],
    ['an escaped key', '{"webhook\\u005fevent":{"k":1}}', '{"k":1}'],
    ['escaped slashes kept', '{"webhook_event":{"u":"a\\/b"}}', '{"u":"a\\/b"}'],
    ['absent', '{"other":{"webhook_event":{}}}', undefined],
  ])('%s', (_name, text, expected) => {
    JSON.parse(text);
    expect(rawMemberText(text, 'webhook_event')).toBe(expected);
  });
});
