import { PAYMENT_CONTRACT } from '@cartwright/app-manifest';
import {
  type Database,
  findOrder,
  findProduct,
  insertProduct,
  listPaymentAttempts,
  type PaymentAttemptRow,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAppServices } from '../src/apps/external/http-app-services.ts';
import { checkout } from '../src/checkout/checkout.ts';
import { createServices, invokeOperation, operations, type Services } from '../src/index.ts';
import { intelligenceEvidenceProjection } from '../src/intelligence/evidence.ts';
import { listHypotheses } from '../src/intelligence/listing.ts';
import type { Principal } from '../src/kernel/auth.ts';
import { noPaymentProvider } from '../src/kernel/payment-provider.ts';
import { consumeOnce } from '../src/outbox/projections.ts';
import { CONTRACT_OUTPUT_FIELDS } from '../src/payments/app/contract.ts';
import { createAppPaymentProvider } from '../src/payments/app/provider.ts';
import { runDuePaymentJobs } from '../src/payments/jobs.ts';
import { buyerPayment, returnFromProvider } from '../src/payments/ledger.ts';
import { providerOf } from '../src/payments/providers.ts';
import { createShop } from '../src/shop/shops.ts';
import { adminPrincipal, makeSellable, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// A payment method served by an installed app (decision 0042): checkout opens an attempt labelled
// `app:<appId>`, the payment-worker calls the app's `payment` actions through its external service
// (the loopback fixture plays a small payment app that keeps its payments by request id, as the
// contract asks), the order is paid on one capture, refunds reach the app's refund action and
// never exceed the capture, a lost authorize answer is replayed with the same request id, and an
// app that is gone is refused at checkout.

const TEA = '0190f0c8-0000-7000-8000-0000000c1001';
const APP_METHOD = '0190f0c8-0000-7000-8000-0000000c2001';
const HIDDEN_METHOD = '0190f0c8-0000-7000-8000-0000000c2002';
const SECOND_CHANNEL = '0190f0c8-0000-7000-8000-0000000c3001';
const CREDENTIAL = 'payapp-credential-0123456789';

const field = (name: string, maxLength: number, required = true) => ({
  name,
  type: 'string',
  maxLength,
  required,
});
const ORDER_STATE = [
  field('order_id', 36),
  field('status', 40),
  field('approval_url', 1000, false),
  field('capture_id', 64, false),
  field('capture_status', 40, false),
  field('capture_amount', 32, false),
];
const external = (id: string, input: unknown[], output: unknown[]) => ({
  id,
  kind: 'service',
  runtime: 'external',
  mcp: false,
  input,
  output,
});

/** A payment app, written out with the payment contract's fields. */
const PAY_APP = {
  apiVersion: 1,
  id: 'payapp',
  version: '1.0.0',
  name: { en: 'Pay by app' },
  actions: [
    external(
      'authorize',
      [
        field('request_id', 100),
        field('attempt_id', 64),
        field('amount', 32),
        field('currency', 3),
        field('invoice_id', 127),
        field('return_url', 1000),
        field('cancel_url', 1000),
      ],
      ORDER_STATE,
    ),
    external('capture', [field('order_id', 36), field('request_id', 100)], ORDER_STATE),
    external('status', [field('order_id', 36)], ORDER_STATE),
    external(
      'refund',
      [
        field('capture_id', 64),
        field('request_id', 100),
        field('refund_reference', 64),
        field('amount', 32),
        field('currency', 3),
      ],
      [field('refund_id', 64), field('status', 40)],
    ),
  ],
  payment: {
    label: { en: 'Pay by app' },
    authorize: 'authorize',
    capture: 'capture',
    refund: 'refund',
    status: 'status',
  },
};

/** An app with a service action but no payment role. */
const PLAIN_APP = {
  apiVersion: 1,
  id: 'plain',
  version: '1.0.0',
  name: { en: 'Plain' },
  actions: [external('ping', [], [field('pong', 10)])],
};

/** The payment app's own books: payments by order id, each created once per request id. */
interface AppPayment {
  readonly orderId: string;
  readonly attemptId: string;
  readonly amount: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  capture: { id: string; requestId: string } | null;
  readonly refunds: Map<string, { id: string; amount: string; reference: string }>;
}
const payments = new Map<string, AppPayment>();
const createdBy = new Map<string, string>();
/** When true, authorize needs no buyer step: it answers APPROVED without an approval URL. */
let noBuyerStep = false;

const stateOf = (payment: AppPayment) => ({
  order_id: payment.orderId,
  status: payment.status,
  ...(payment.status === 'CREATED'
    ? { approval_url: `https://pay.example.test/approve/${payment.orderId}` }
    : {}),
  ...(payment.capture
    ? { capture_id: payment.capture.id, capture_status: 'COMPLETED', capture_amount: payment.amount }
    : {}),
});

type Input = Record<string, string>;
const HANDLERS = {
  authorize: ({ input }: { input: unknown }) => {
    const { request_id, attempt_id, amount } = input as Input;
    const known = createdBy.get(request_id!);
    if (known) return stateOf(payments.get(known)!);
    const orderId = `PAY${payments.size + 1}`;
    const payment: AppPayment = {
      orderId,
      attemptId: attempt_id!,
      amount: amount!,
      status: noBuyerStep ? 'APPROVED' : 'CREATED',
      capture: null,
      refunds: new Map(),
    };
    payments.set(orderId, payment);
    createdBy.set(request_id!, orderId);
    return stateOf(payment);
  },
  status: ({ input }: { input: unknown }) => stateOf(payments.get((input as Input).order_id!)!),
  capture: ({ input }: { input: unknown }) => {
    const { order_id, request_id } = input as Input;
    const payment = payments.get(order_id!)!;
    if (!payment.capture && payment.status === 'APPROVED') {
      payment.capture = { id: `CAP-${order_id}`, requestId: request_id! };
      payment.status = 'COMPLETED';
    }
    return stateOf(payment);
  },
  refund: ({ input }: { input: unknown }) => {
    const { capture_id, request_id, refund_reference, amount } = input as Input;
    const payment = [...payments.values()].find((candidate) => candidate.capture?.id === capture_id)!;
    const known = payment.refunds.get(request_id!);
    if (known) return { refund_id: known.id, status: 'COMPLETED' };
    const refund = {
      id: `REF${payment.refunds.size + 1}-${payment.orderId}`,
      amount: amount!,
      reference: refund_reference!,
    };
    payment.refunds.set(request_id!, refund);
    return { refund_id: refund.id, status: 'COMPLETED' };
  },
};

let database: Database;
let services: Services;
let fixture: AppServiceFixture;
let shop: SellableShop & { principal: Principal };

async function call(name: string, input: unknown) {
  const operation = operations.find((candidate) => candidate.name === name)!;
  return invokeOperation(services, operation, shop.principal, input);
}

async function callOk(name: string, input: unknown) {
  const result = await call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
  return result.value as Record<string, unknown>;
}

/** Runs payment-worker rounds until no job is due (bounded: a loop would be a bug). */
async function work(rounds = 20) {
  for (let round = 0; round < rounds; round++) {
    const ran = await runDuePaymentJobs(services, { owner: 'test-worker', leaseMs: 30_000, limit: 10 });
    if (ran.ran === 0) return;
  }
  throw new Error('the payment jobs did not settle');
}

async function placeOrder(options: { paymentMethodId?: string; channelId?: string } = {}) {
  const { context } = await readyVisitor(
    services,
    { tenantId: shop.tenantId, channelId: options.channelId ?? shop.channelId },
    { [TEA]: 2 },
    { paymentMethodId: options.paymentMethodId ?? APP_METHOD },
  );
  return checkout(services, shop.tenantId, context, undefined);
}

async function placedOrder(options: { paymentMethodId?: string; channelId?: string } = {}) {
  const placed = await placeOrder(options);
  if (!placed.ok) throw new Error(`${placed.code}: ${placed.detail}`);
  return placed.value;
}

async function attemptOf(orderId: string): Promise<PaymentAttemptRow> {
  const [attempt] = await listPaymentAttempts(database.db, shop.tenantId, orderId);
  return attempt!;
}

const callsOf = (action: string, attemptId: string) =>
  fixture.calls.filter(
    (item) => item.action === action && (item.input as Input | null)?.request_id?.includes(attemptId),
  );

/** The buyer approves at the app and comes back to the return URL with the app's order id. */
async function approveAndReturn(attempt: PaymentAttemptRow) {
  const orderId = (await attemptOf(attempt.orderId)).providerOrderId!;
  payments.get(orderId)!.status = 'APPROVED';
  const back = await returnFromProvider(services, shop.tenantId, attempt.id, orderId);
  expect(back.ok).toBe(true);
}

async function saveMethod(id: string, body: Record<string, unknown>) {
  return call('basis.payment_methods.save', {
    id,
    revision: 0,
    translations: { en: { name: 'Pay by app' } },
    ...body,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  fixture = await startAppServiceFixture({ credential: CREDENTIAL, actions: HANDLERS });
  services = createServices(database, {
    appServices: createHttpAppServices(
      new Map([
        ['payapp', { baseUrl: fixture.url, credential: CREDENTIAL, timeoutMs: 2_000 }],
        ['plain', { baseUrl: fixture.url, credential: CREDENTIAL, timeoutMs: 2_000 }],
      ]),
    ),
    payments: { provider: noPaymentProvider, publicBaseUrl: 'https://shop.example' },
  });
  const { tenantId } = await createShop(services, { name: 'App payments' });
  const sellable = await makeSellable(services, tenantId);
  await database.transaction((tx) =>
    insertProduct(
      tx,
      tenantId,
      {
        id: TEA,
        sku: 'TEA',
        translations: { en: { name: 'Tea' } },
        prices: [{ currency: 'EUR', gross: 1000, net: 840 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 1000,
      },
      services.clock.now(),
    ),
  );
  shop = { ...sellable, principal: (await adminPrincipal(services, tenantId, 'payments')).principal };
  await callOk('apps.install', { appId: 'payapp', revision: 0, manifest: PAY_APP });
  await callOk('apps.install', { appId: 'plain', revision: 0, manifest: PLAIN_APP });
});
afterAll(async () => {
  await fixture?.close();
  await database?.close();
});

describe('the payment contract as the adapter reads it', () => {
  it('knows every output field of the contract', () => {
    const names = (role: keyof typeof PAYMENT_CONTRACT) =>
      PAYMENT_CONTRACT[role].output.map((item) => item.name);
    expect(CONTRACT_OUTPUT_FIELDS.order).toEqual(names('authorize'));
    expect(names('capture')).toEqual(names('authorize'));
    expect(names('status')).toEqual(names('authorize'));
    expect(CONTRACT_OUTPUT_FIELDS.refund).toEqual(names('refund'));
  });
});

describe('a payment method with handler app', () => {
  it('is refused without an installed app that serves payments, and appId with another handler', async () => {
    const pointerOf = (result: Awaited<ReturnType<typeof call>>) =>
      result.ok ? null : { code: result.code, pointer: result.errors?.[0]?.pointer };
    const refused = { code: 'VALIDATION_FAILED', pointer: '/appId' };
    expect(pointerOf(await saveMethod(APP_METHOD, { handler: 'app' }))).toEqual(refused);
    expect(pointerOf(await saveMethod(APP_METHOD, { handler: 'app', appId: 'nosuchapp' }))).toEqual(refused);
    expect(pointerOf(await saveMethod(APP_METHOD, { handler: 'app', appId: 'plain' }))).toEqual(refused);
    expect(pointerOf(await saveMethod(APP_METHOD, { handler: 'invoice', appId: 'payapp' }))).toEqual(refused);
    const saved = await saveMethod(APP_METHOD, { handler: 'app', appId: 'payapp' });
    expect(saved.ok && saved.value).toMatchObject({ id: APP_METHOD, handler: 'app', appId: 'payapp' });
  });

  it('follows the channel settings: inactive in the basis, offered where a channel overrides it', async () => {
    expect((await saveMethod(HIDDEN_METHOD, { handler: 'app', appId: 'payapp', active: false })).ok).toBe(
      true,
    );
    const main = await callOk('merchant.commerce.read', { channelId: shop.channelId });
    await callOk('merchant.commerce.save', {
      channelId: SECOND_CHANNEL,
      revision: 0,
      baseRevision: main.baseRevision,
      channel: {
        name: { en: 'App channel' },
        mode: 'headless',
        paused: false,
        private: false,
        languages: ['en'],
      },
      overrides: { paymentMethods: { [HIDDEN_METHOD]: { active: true } } },
    });
    const hidden = await placeOrder({ paymentMethodId: HIDDEN_METHOD });
    expect(hidden).toMatchObject({ ok: false, code: 'CART_INVALID' });
    const order = await placedOrder({ paymentMethodId: HIDDEN_METHOD, channelId: SECOND_CHANNEL });
    expect((await attemptOf(order.id)).provider).toBe('app:payapp');
  });
});

describe('an order paid through the app', () => {
  let orderId: string;
  let attempt: PaymentAttemptRow;

  it('opens an attempt labelled with the app, live, no contract fixture, no merchant', async () => {
    orderId = (await placedOrder()).id;
    attempt = await attemptOf(orderId);
    expect(attempt).toMatchObject({
      provider: 'app:payapp',
      environment: 'live',
      contractFixture: false,
      merchantId: null,
      amount: 2490,
      currency: 'EUR',
      status: 'creating',
    });
  });

  it('authorizes with the contract fields and the create request id as Idempotency-Key; the buyer gets the link', async () => {
    await work();
    const [authorize] = callsOf('authorize', attempt.id);
    const order = (await findOrder(database.db, shop.tenantId, orderId))!;
    expect(authorize).toMatchObject({
      authorized: true,
      tenant: shop.tenantId,
      idempotencyKey: `cw-${attempt.id}-create`,
      input: {
        request_id: `cw-${attempt.id}-create`,
        attempt_id: attempt.id,
        amount: '24.90',
        currency: 'EUR',
        invoice_id: `${order.number}-${attempt.id.slice(-12)}`,
        return_url: `https://shop.example/payments/return/${shop.tenantId}/${attempt.id}`,
        cancel_url: `https://shop.example/payments/cancel/${shop.tenantId}/${attempt.id}`,
      },
    });
    const buyer = await buyerPayment(database.db, shop.tenantId, orderId);
    const appOrder = (await attemptOf(orderId)).providerOrderId!;
    expect(buyer).toMatchObject({
      status: 'awaiting_approval',
      approvalUrl: `https://pay.example.test/approve/${appOrder}`,
    });
    expect(order.paymentState).toBe('open');
  });

  it('after approval, reads the status, captures once and pays the order', async () => {
    await approveAndReturn(attempt);
    await work();
    const order = (await findOrder(database.db, shop.tenantId, orderId))!;
    expect(order.paymentState).toBe('paid');
    const paid = await attemptOf(orderId);
    expect(paid.status).toBe('captured');
    const captures = callsOf('capture', attempt.id);
    expect(captures).toHaveLength(1);
    expect(captures[0]).toMatchObject({
      idempotencyKey: `cw-${attempt.id}-capture`,
      input: { order_id: paid.providerOrderId, request_id: `cw-${attempt.id}-capture` },
    });
    expect(payments.get(paid.providerOrderId!)!.capture).not.toBeNull();
  });

  it('refunds through the app’s refund action, recorded in the ledger; an over-refund is refused', async () => {
    const refund = await callOk('orders.payments.refund', {
      orderId,
      amount: 1000,
      idempotencyKey: 'refund-one-0001',
    });
    expect(refund).toMatchObject({
      refund: { amount: 1000, status: 'reserved' },
      balance: { remaining: 1490 },
    });
    const refundId = (refund.refund as { id: string }).id;
    await work();
    const sent = fixture.calls.filter((item) => item.action === 'refund');
    expect(sent).toHaveLength(1);
    const captureId = payments.get((await attemptOf(orderId)).providerOrderId!)!.capture!.id;
    expect(sent[0]).toMatchObject({
      idempotencyKey: `cw-${refundId}-refund`,
      input: {
        capture_id: captureId,
        request_id: `cw-${refundId}-refund`,
        refund_reference: refundId,
        amount: '10.00',
        currency: 'EUR',
      },
    });
    const ledger = await callOk('orders.payments.get', { orderId });
    const [view] = ledger.attempts as {
      refunds: { id: string; status: string; providerRefundId: string }[];
      balance: { confirmed: number; remaining: number };
    }[];
    expect(view!.refunds).toEqual([
      expect.objectContaining({
        id: refundId,
        status: 'confirmed',
        providerRefundId: expect.stringMatching(/^REF1-/),
      }),
    ]);
    expect(view!.balance).toMatchObject({ confirmed: 1000, remaining: 1490 });
    expect(ledger.paymentState).toBe('refunded_partially');

    const over = await call('orders.payments.refund', {
      orderId,
      amount: 1491,
      idempotencyKey: 'refund-two-0002',
    });
    expect(over).toMatchObject({
      ok: false,
      code: 'REFUND_EXCEEDS_BALANCE',
      extensions: { remaining: 1490 },
    });
    await work();
    expect(fixture.calls.filter((item) => item.action === 'refund')).toHaveLength(1);
  });
});

describe('a lost authorize answer', () => {
  it('leaves the attempt uncertain, and the replay with the same request id gives one payment', async () => {
    fixture.failNext({ kind: 'drop', action: 'authorize', performs: true });
    const order = await placedOrder();
    const attempt = await attemptOf(order.id);
    await runDuePaymentJobs(services, { owner: 'test-worker', leaseMs: 30_000, limit: 1 });
    expect(await attemptOf(order.id)).toMatchObject({ status: 'uncertain', providerOrderId: null });
    await work();
    const calls = callsOf('authorize', attempt.id);
    expect(calls).toHaveLength(2);
    expect(calls.map((item) => item.idempotencyKey)).toEqual([
      `cw-${attempt.id}-create`,
      `cw-${attempt.id}-create`,
    ]);
    expect([...payments.values()].filter((payment) => payment.attemptId === attempt.id)).toHaveLength(1);
    await approveAndReturn(attempt);
    await work();
    expect((await findOrder(database.db, shop.tenantId, order.id))!.paymentState).toBe('paid');
    expect(callsOf('capture', attempt.id)).toHaveLength(1);
  });
});

describe('an app that needs no buyer step', () => {
  it('authorizes APPROVED without a link: the worker reads the status, captures and pays', async () => {
    noBuyerStep = true;
    try {
      const order = await placedOrder();
      const attempt = await attemptOf(order.id);
      await work();
      expect((await findOrder(database.db, shop.tenantId, order.id))!.paymentState).toBe('paid');
      expect(await attemptOf(order.id)).toMatchObject({ status: 'captured', approvalUrl: null });
      expect(callsOf('capture', attempt.id)).toHaveLength(1);
    } finally {
      noBuyerStep = false;
    }
  });
});

describe('an order paid through the app as co-purchase evidence (issue 19)', () => {
  const evidence = async () => {
    const options = { owner: 'test-evidence', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
    while ((await consumeOnce(services, intelligenceEvidenceProjection, options)).tenantId !== null);
    return (await listHypotheses(database.db, shop.tenantId, {})).totals.observed;
  };

  it('counts only once the app’s capture is confirmed', async () => {
    const before = await evidence();
    const order = await placedOrder();
    const attempt = await attemptOf(order.id);
    await work();
    expect(await evidence()).toBe(before);
    await approveAndReturn(attempt);
    await work();
    expect((await findOrder(database.db, shop.tenantId, order.id))!.paymentState).toBe('paid');
    expect(await evidence()).toBe(before + 1);
    // An invoice order counts at placement.
    await placedOrder({ paymentMethodId: SELLABLE.invoice });
    expect(await evidence()).toBe(before + 2);
  });
});

describe('what the adapter answers', () => {
  const adapter = () => createAppPaymentProvider(services, 'payapp', 'EUR');

  it('a refusal is definite, no answer or a broken contract is unknown, never a failure', async () => {
    const order = await placedOrder();
    await work();
    const appOrder = (await attemptOf(order.id)).providerOrderId!;
    fixture.failNext({ kind: 'refuse', status: 422, action: 'status', detail: 'no such payment' });
    expect(await adapter().getOrder(shop.tenantId, appOrder)).toMatchObject({
      outcome: 'refused',
      issue: 'APP_SERVICE_REFUSED',
    });
    fixture.failNext({ kind: 'status', status: 503, action: 'status' });
    expect(await adapter().getOrder(shop.tenantId, appOrder)).toMatchObject({ outcome: 'unknown' });
    fixture.setAction('status', () => ({ order_id: appOrder.toLowerCase(), status: 'APPROVED' }));
    const broken = await adapter().getOrder(shop.tenantId, appOrder);
    expect(broken).toMatchObject({ outcome: 'unknown', reason: expect.stringContaining('order_id') });
    fixture.setAction('status', () => ({ order_id: appOrder, status: 'PAID' }));
    expect(await adapter().getOrder(shop.tenantId, appOrder)).toMatchObject({ outcome: 'unknown' });
    fixture.setAction('status', () => ({ order_id: appOrder, status: 'COMPLETED', capture_id: 'C1' }));
    expect(await adapter().getOrder(shop.tenantId, appOrder)).toMatchObject({ outcome: 'unknown' });
    fixture.setAction('status', () => ({ order_id: appOrder, status: 'APPROVED', extra: 1 }));
    expect(await adapter().getOrder(shop.tenantId, appOrder)).toMatchObject({ outcome: 'unknown' });
    fixture.setAction('status', HANDLERS.status);
    expect(await adapter().getOrder(shop.tenantId, appOrder)).toMatchObject({
      outcome: 'done',
      value: { id: appOrder, status: 'CREATED', captures: [] },
    });
    // Not an id the contract allows: never sent.
    expect(await adapter().getOrder(shop.tenantId, 'not-an-order')).toEqual({ outcome: 'not-found' });
    expect(await adapter().getRefund(shop.tenantId, 'REF1')).toMatchObject({ outcome: 'unknown' });
    expect(await adapter().verifyWebhook(shop.tenantId, { headers: {}, body: '{}' })).toEqual({
      outcome: 'not-configured',
    });
  });

  it('answers not-configured for an app without a payment role, unknown to this process, or a provider no one knows', async () => {
    const plain = createAppPaymentProvider(services, 'plain', 'EUR');
    expect(await plain.getOrder(shop.tenantId, 'PAY1')).toEqual({ outcome: 'not-configured' });
    const unconfigured = createAppPaymentProvider(services, 'elsewhere', 'EUR');
    expect(unconfigured.accountOf(shop.tenantId)).toBeUndefined();
    expect(await unconfigured.getOrder(shop.tenantId, 'PAY1')).toEqual({ outcome: 'not-configured' });
    const unknown = providerOf(services, { provider: 'stripe', currency: 'EUR' });
    expect(await unknown.getOrder(shop.tenantId, 'PAY1')).toEqual({ outcome: 'not-configured' });
  });

  it('a refused authorize fails the attempt and gives its stock back', async () => {
    const before = (await findProduct(database.db, shop.tenantId, TEA))!;
    fixture.failNext({ kind: 'refuse', status: 422, action: 'authorize', detail: 'amount too high' });
    const order = await placedOrder();
    await work();
    expect(await attemptOf(order.id)).toMatchObject({ status: 'failed' });
    const after = (await findProduct(database.db, shop.tenantId, TEA))!;
    expect(after.stockAvailable).toBe(before.stockAvailable);
  });
});

describe('an app uninstalled', () => {
  it('is refused at checkout; an open attempt is never failed for it, only left for a person', async () => {
    const order = await placedOrder();
    await work();
    const attempt = await attemptOf(order.id);
    expect(attempt.status).toBe('awaiting_approval');
    await callOk('apps.uninstall', { appId: 'payapp', revision: 1 });
    const refused = await placeOrder();
    expect(refused).toMatchObject({
      ok: false,
      code: 'CART_INVALID',
      errors: [{ pointer: '/paymentMethodId', message: 'the app payapp is not installed' }],
    });
    const before = fixture.calls.length;
    const back = await returnFromProvider(services, shop.tenantId, attempt.id, attempt.providerOrderId!);
    expect(back.ok).toBe(true);
    await runDuePaymentJobs(services, { owner: 'test-worker', leaseMs: 30_000, limit: 10 });
    expect(fixture.calls.length).toBe(before);
    expect((await attemptOf(order.id)).status).toBe('awaiting_approval');
  });
});
