import {
  type AppWebhookSettings,
  appDeliveryMatchingProjection,
  appServicesOf,
  consumeOnce,
  createWorkerAppSandbox,
  noPaymentProvider,
  runDueDeliveries,
  runDuePaymentJobs,
  runDueSchedules,
} from '@cartwright/service';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { signedRequest } from './signed-webhook.ts';

// Issue 17 (decision 0042): each of the nine assistants generates an app over HTTP, installs it in
// one step, and the app is exercised as a merchant, a visitor and its own service would use it.
// Regeneration keeps access settings; every generated manifest round-trips through a merchant's
// edit and an upgrade.

const CREDENTIAL = 'assistant-apps-credential-0123456789';
const WEBHOOK_SECRET = 'assistant-apps-webhook-secret-0123456789abcdef';
/** Apps whose external service the loopback fixture plays. */
const SERVED = ['care-notes', 'erp', 'feed', 'inbound', 'shop-pay'];

const sandbox = createWorkerAppSandbox();
let h: Harness;
let fixture: AppServiceFixture;
let channelKey: string;
let productId: string;
const webhookKeys = new Map<string, Map<string, Uint8Array>>();

type Reply = { status: number; body: Record<string, unknown> };
const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
const store = (method: string, path: string, body?: unknown, contextToken?: string) =>
  h.call(method, path, {
    body,
    headers: { 'x-channel-key': channelKey, ...(contextToken ? { 'x-context-token': contextToken } : {}) },
  });
function expectOk(response: Reply, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}
function expectProblem(response: Reply, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
  return response.body;
}

interface Manifest {
  id: string;
  version: string;
  actions: { id: string; kind: string; mcp?: boolean; public: boolean }[];
  blocks: { id: string; kind: string; mount: string; action: string }[];
  entities: { id: string; fields: Record<string, unknown>[] }[];
  subscriptions: string[];
  schedules: { id: string; action: string }[];
  webhooks: { id: string; action: string }[];
}

async function preview(assistant: string, answers: Record<string, unknown>) {
  return expectOk(await staff('POST', `/api/apps/assistants/${assistant}/preview`, { answers })) as {
    manifest: Manifest;
    module: string | null;
    revision: number;
    installedVersion: string | null;
    diff: { compatible: boolean; reasons: unknown[] } | null;
    externalService: { needed: boolean; configured: boolean };
  };
}

/** The module source each generated app was installed with (a merchant's upgrade sends it again). */
const modules = new Map<string, string>();

async function install(assistant: string, answers: Record<string, unknown>, revision = 0) {
  const { module } = await preview(assistant, answers);
  if (module !== null) modules.set(answers.app_id as string, module);
  return expectOk(
    await staff('POST', `/api/apps/assistants/${assistant}/install`, { answers, revision }),
  ) as { change: string; app: { appId: string; version: string; revision: number; manifest: Manifest } };
}

const appAction = (app: string, action: string, body?: unknown) =>
  staff('POST', `/api/apps/${app}/actions/${action}`, body);

/** Runs the app-worker's matching and delivery rounds until the fixture holds `count` deliveries of `name`. */
async function deliveredOf(name: string, count = 1) {
  const lease = { owner: 'matcher', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  const deadline = Date.now() + 10_000;
  for (;;) {
    while ((await consumeOnce(h.services, appDeliveryMatchingProjection, lease)).tenantId !== null) {
      // until no shop has unmatched events
    }
    await runDueDeliveries(h.services, { owner: 'test', leaseMs: 30_000, limit: 20 });
    const delivered = fixture.deliveries.filter((delivery) => delivery.eventName === name);
    if (delivered.length >= count) return delivered;
    if (Date.now() > deadline) throw new Error(`no delivery of ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function eventsNamed(name: string) {
  const listed = expectOk(await staff('GET', `/api/events?name=${name}&limit=100`));
  return listed.items as { id: string; payload: Record<string, unknown> }[];
}

/**
 * The payment app's own books, as its service keeps them: payments by id, each created once per
 * request id (the contract's idempotency), approved by the buyer at the app, captured once.
 */
interface ShopPayment {
  readonly id: string;
  readonly attemptId: string;
  readonly amount: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  captures: number;
  readonly refunds: Map<string, string>;
}
const shopPayments = new Map<string, ShopPayment>();
type PayInput = Record<string, string>;
const paymentState = (payment: ShopPayment) => ({
  order_id: payment.id,
  status: payment.status,
  ...(payment.status === 'CREATED' ? { approval_url: `https://pay.example.test/approve/${payment.id}` } : {}),
  ...(payment.status === 'COMPLETED'
    ? { capture_id: `CAP${payment.id}`, capture_status: 'COMPLETED', capture_amount: payment.amount }
    : {}),
});
const PAYMENT_APP_SERVICE = {
  authorize: ({ input }: { input: unknown }) => {
    const { request_id, attempt_id, amount } = input as PayInput;
    const known = [...shopPayments.values()].find((payment) => payment.attemptId === attempt_id);
    if (known) return paymentState(known);
    const payment: ShopPayment = {
      id: `SP${shopPayments.size + 1}`,
      attemptId: attempt_id!,
      amount: amount!,
      status: 'CREATED',
      captures: 0,
      refunds: new Map(),
    };
    expect(request_id).toContain(attempt_id);
    shopPayments.set(payment.id, payment);
    return paymentState(payment);
  },
  status: ({ input }: { input: unknown }) => paymentState(shopPayments.get((input as PayInput).order_id!)!),
  capture: ({ input }: { input: unknown }) => {
    const payment = shopPayments.get((input as PayInput).order_id!)!;
    if (payment.status === 'APPROVED') {
      payment.status = 'COMPLETED';
      payment.captures += 1;
    }
    return paymentState(payment);
  },
  refund: ({ input }: { input: unknown }) => {
    const { capture_id, request_id, amount } = input as PayInput;
    const payment = [...shopPayments.values()].find((candidate) => `CAP${candidate.id}` === capture_id)!;
    if (!payment.refunds.has(request_id!)) payment.refunds.set(request_id!, amount!);
    return { refund_id: `REF-${request_id}`, status: 'COMPLETED' };
  },
};

beforeAll(async () => {
  fixture = await startAppServiceFixture({
    credential: CREDENTIAL,
    actions: {
      run: ({ input }) => ({ message: `checked ${(input as { product_id: string }).product_id}` }),
      ...PAYMENT_APP_SERVICE,
    },
  });
  const appServices = appServicesOf({
    APP_SERVICES: JSON.stringify(
      Object.fromEntries(SERVED.map((app) => [app, { baseUrl: fixture.url, credential: CREDENTIAL }])),
    ),
  });
  const appWebhooks = { keys: webhookKeys, allowHttp: true } as AppWebhookSettings;
  h = await createHarness({
    ports: { sandbox, appServices, appWebhooks },
    payments: { provider: noPaymentProvider, publicBaseUrl: 'https://shop.example' },
  });
  ({ channelKey, productId } = await h.sellableTea());
  const secret = new TextEncoder().encode(WEBHOOK_SECRET);
  webhookKeys.set(
    h.shopA.tenantId,
    new Map([
      ['erp', secret],
      ['inbound', secret],
    ]),
  );
});
afterAll(async () => {
  await sandbox.close();
  await fixture?.close();
  await h?.close();
});

describe('GET /api/apps/assistants', () => {
  it('lists the nine with their questions in the language asked, English otherwise', async () => {
    const german = expectOk(await staff('GET', '/api/apps/assistants?language=de')).items as {
      id: string;
      title: string;
      questions: { id: string; label: string; help: string }[];
    }[];
    const english = expectOk(await staff('GET', '/api/apps/assistants')).items as typeof german;
    expect(german.map((assistant) => assistant.id)).toEqual([
      'frontend',
      'admin',
      'combined',
      'payment',
      'shipping',
      'integration',
      'subscriber',
      'webhook',
      'schedule',
    ]);
    for (const [index, assistant] of german.entries()) {
      const en = english[index]!;
      expect(assistant.title).not.toBe(en.title);
      expect(assistant.questions.map((question) => question.id)).toEqual(
        en.questions.map((question) => question.id),
      );
      expect(assistant.questions.find((question) => question.id === 'app_id')?.label).not.toBe(
        en.questions.find((question) => question.id === 'app_id')?.label,
      );
    }
    expectProblem(await staff('GET', '/api/apps/assistants?language=nl'), 422, 'VALIDATION_FAILED');
  });

  it('refuses answers that do not fit, with pointers into the answers, and installs nothing', async () => {
    const before = await h.digest();
    const refused = expectProblem(
      await staff('POST', '/api/apps/assistants/schedule/install', {
        answers: { app_id: 'Bad Id', name: 'x', cron: 'every day' },
        revision: 0,
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect((refused.errors as { pointer: string }[]).map((error) => error.pointer).sort()).toEqual([
      '/answers/app_id',
      '/answers/cron',
    ]);
    expectProblem(
      await staff('POST', '/api/apps/assistants/nothing/preview', { answers: {} }),
      422,
      'VALIDATION_FAILED',
    );
    expect(await h.digest()).toBe(before);
  });
});

describe('frontend: a public entity, a public list and a storefront block', () => {
  const answers = {
    app_id: 'size-guide',
    name: 'Size guide',
    entity: 'size',
    fields: [
      { name: 'label', type: 'string', label: 'Size', required: true },
      { name: 'chest_cm', type: 'integer', label: 'Chest (cm)' },
    ],
    product_bound: true,
  };

  it('previews, installs, and visitors read the product’s rows through the block', async () => {
    const previewed = await preview('frontend', answers);
    expect(previewed).toMatchObject({ revision: 0, installedVersion: null, diff: null, module: null });
    expect(previewed.manifest.actions.every((action) => action.mcp === false)).toBe(true);
    const installed = await install('frontend', answers);
    expect(installed).toMatchObject({ change: 'installed', app: { appId: 'size-guide', version: '1.0.0' } });
    expect(installed.app.manifest).toEqual(previewed.manifest);

    expectOk(await appAction('size-guide', 'create', { product_id: productId, label: 'M', chest_cm: 100 }));
    const blocks = expectOk(await store('GET', '/store-api/apps/blocks')).items as Record<string, unknown>[];
    const block = blocks.find((item) => item.appId === 'size-guide');
    expect(block).toMatchObject({
      mount: 'storefront.product',
      action: 'list',
      contextBinding: { field: 'product_id', key: 'productId' },
    });
    const listed = expectOk(
      await store('POST', '/store-api/apps/size-guide/actions/list', {
        block: block!.blockId,
        context: { productId },
      }),
    );
    expect((listed.items as { data: unknown }[]).map((item) => item.data)).toEqual([
      { product_id: productId, label: 'M', chest_cm: 100 },
    ]);
    // Writing stays private: the storefront cannot create.
    expectProblem(
      await store('POST', '/store-api/apps/size-guide/actions/create', { product_id: productId, label: 'S' }),
      404,
      'APP_ACTION_NOT_FOUND',
    );
  });

  it('regenerated with new answers keeps the merchant’s and the manifest’s mcp flags', async () => {
    // The merchant exposes `list` over MCP, and edits the manifest to expose `get`.
    const app = expectOk(await staff('GET', '/api/apps')).items as {
      appId: string;
      revision: number;
      manifest: Manifest;
    }[];
    const current = app.find((item) => item.appId === 'size-guide')!;
    const configured = expectOk(
      await staff('PUT', '/api/apps/size-guide/actions/list/settings', {
        revision: current.revision,
        mcp: true,
      }),
    ).app as { revision: number };
    const edited = {
      ...current.manifest,
      version: '1.0.1',
      actions: current.manifest.actions.map((action) =>
        action.id === 'get' ? { ...action, mcp: true } : action,
      ),
    };
    const upgraded = expectOk(
      await staff('PUT', '/api/apps/size-guide', { revision: configured.revision, manifest: edited }),
    ) as { change: string; app: { revision: number } };
    expect(upgraded.change).toBe('upgraded');

    const next = {
      ...answers,
      fields: [...answers.fields, { name: 'waist_cm', type: 'integer', label: 'Waist' }],
    };
    const previewed = await preview('frontend', next);
    expect(previewed).toMatchObject({
      installedVersion: '1.0.1',
      revision: upgraded.app.revision,
      diff: { compatible: true },
    });
    const regenerated = await install('frontend', next, upgraded.app.revision);
    expect(regenerated.change).toBe('upgraded');
    expect(regenerated.app.version).toBe('1.1.0');
    const flags = Object.fromEntries(
      regenerated.app.manifest.actions.map((action) => [action.id, action.mcp]),
    );
    expect(flags).toEqual({ list: false, get: true, create: false, update: false, delete: false });
    expect((regenerated.app as unknown as { actionSettings: unknown }).actionSettings).toEqual({
      list: { mcp: true },
    });
    const tools = await (await h.mcp(h.shopA.token))('app.size-guide.list', {});
    expect(tools.isError).not.toBe(true);
  });
});

describe('admin: an entity bound to a product with the four block kinds on the chosen mounts', () => {
  const answers = {
    app_id: 'care-notes',
    name: 'Care notes',
    entity: 'note',
    object: 'product',
    mounts: ['admin.product.general', 'admin.product.tab'],
    blocks: ['table', 'card', 'form', 'action'],
    fields: [{ name: 'body', type: 'text', label: 'Note', required: true }],
  };

  it('installs, writes through the form’s action, reads through the table and runs the action block', async () => {
    const { app } = await install('admin', answers);
    const blocks = app.manifest.blocks;
    expect(new Set(blocks.map((block) => block.mount))).toEqual(new Set(answers.mounts));
    expect(new Set(blocks.map((block) => block.kind))).toEqual(new Set(answers.blocks));
    const form = blocks.find((block) => block.kind === 'form')!;
    const table = blocks.find((block) => block.kind === 'table')!;
    const action = blocks.find((block) => block.kind === 'action')!;
    expectOk(await appAction('care-notes', form.action, { product_id: productId, body: 'Keep dry' }));
    const rows = expectOk(
      await appAction('care-notes', table.action, { block: table.id, context: { productId } }),
    ).items as { data: { body: string } }[];
    expect(rows.map((row) => row.data.body)).toEqual(['Keep dry']);
    const ran = expectOk(await appAction('care-notes', action.action, { product_id: productId }));
    expect(ran).toEqual({ message: `checked ${productId}` });
    expect(fixture.calls.at(-1)).toMatchObject({ action: 'run', tenant: h.shopA.tenantId });
    // A block bound to the product never lists without its context.
    expectProblem(
      await appAction('care-notes', table.action, { block: table.id }),
      422,
      'APP_CONTEXT_REQUIRED',
    );
  });
});

describe('combined: one entity edited in the admin and shown on the storefront', () => {
  it('installs both faces of the same rows', async () => {
    const { app } = await install('combined', {
      app_id: 'faq',
      name: 'Product FAQ',
      entity: 'question',
      fields: [
        { name: 'question', type: 'string', label: 'Question', required: true },
        { name: 'answer', type: 'text', label: 'Answer' },
      ],
      mounts: ['admin.product.tab'],
      blocks: ['table', 'form'],
    });
    const admin = app.manifest.blocks.filter((block) => block.mount === 'admin.product.tab');
    expect(admin.map((block) => block.kind).sort()).toEqual(['form', 'table']);
    const form = admin.find((block) => block.kind === 'form')!;
    expectOk(
      await appAction('faq', form.action, { product_id: productId, question: 'Loose leaf?', answer: 'Yes.' }),
    );
    const storefront = app.manifest.blocks.find((block) => block.mount === 'storefront.product')!;
    const listed = expectOk(
      await store('POST', `/store-api/apps/faq/actions/${storefront.action}`, {
        block: storefront.id,
        context: { productId },
      }),
    );
    expect((listed.items as { data: { question: string } }[]).map((item) => item.data.question)).toEqual([
      'Loose leaf?',
    ]);
  });
});

describe('integration (ERP): entity mapping, a sync on every tick and signed pushes', () => {
  it('syncs on a tick and on a signed push, both reaching the app’s service', async () => {
    const { app } = await install('integration', {
      app_id: 'erp',
      name: 'ERP link',
      object: 'product',
      fields: [{ name: 'stock', type: 'integer', label: 'Stock' }],
      cron: '0 0 * * * *',
      webhook: 'push',
    });
    expect(app.manifest.schedules).toEqual([expect.objectContaining({ id: 'sync', action: 'sync' })]);
    expect(app.manifest.webhooks).toEqual([expect.objectContaining({ id: 'push', action: 'upsert' })]);

    // The hour turns: the schedule's next tick (the top of an hour) has come.
    await h.database.db.execute(
      sql`update app_schedules set next_tick_at = date_trunc('hour', now()) where app_id = 'erp'`,
    );
    const round = await runDueSchedules(h.services, { owner: 'test', leaseMs: 30_000, limit: 10 });

    expect(round.emitted).toBe(1);
    const [tick] = await deliveredOf('app.erp.sync');
    expect(tick).toMatchObject({ signatureValid: true });

    // The ERP pushes a stock level through its signed webhook.
    const body = JSON.stringify({ external_id: 'SKU-TEA', product_id: productId, stock: 12 });
    const pushed = signedRequest({
      tenant: h.shopA.tenantId,
      app: 'erp',
      webhook: 'push',
      body,
      secret: WEBHOOK_SECRET,
    });
    const accepted = await h.app.request(pushed.path, { method: 'POST', headers: pushed.headers, body });
    expect(accepted.status, await accepted.clone().text()).toBe(202);
    const [push] = await deliveredOf('app.erp.upsert');
    expect((push!.body as { event: { payload: { input: unknown } } }).event.payload.input).toEqual({
      external_id: 'SKU-TEA',
      product_id: productId,
      stock: 12,
    });

    // The ERP's service keeps the mapping through the app's own action.
    expectOk(await appAction('erp', 'upsert', { external_id: 'SKU-TEA', product_id: productId, stock: 12 }));
    const mapped = expectOk(await appAction('erp', 'list', { filter: { external_id: 'SKU-TEA' } }));
    expect((mapped.items as { data: unknown }[]).map((item) => item.data)).toEqual([
      { external_id: 'SKU-TEA', product_id: productId, stock: 12 },
    ]);
  });
});

describe('subscriber: chosen events delivered to the app’s service', () => {
  it('delivers order.placed after a checkout', async () => {
    const { app } = await install('subscriber', {
      app_id: 'feed',
      name: 'Order feed',
      events: ['order.placed'],
    });
    expect(app.manifest.subscriptions).toEqual(['order.placed']);
    const visitor = await h.visitorWithCart(channelKey, [{ productId, quantity: 1 }]);
    const order = expectOk(await store('POST', '/store-api/checkout', {}, visitor), 201);
    const delivered = await deliveredOf('order.placed');
    const placed = delivered.map(
      (delivery) => (delivery.body as { event: { payload: { orderId: string } } }).event.payload.orderId,
    );
    expect(placed).toContain(order.id);
  });
});

describe('webhook: a signed incoming webhook and its emitting action', () => {
  it('accepts a signed body that fits the declared input, as the event app.<app>.receive', async () => {
    const { app } = await install('webhook', {
      app_id: 'inbound',
      name: 'Inbound',
      webhook: 'inbound',
      fields: [{ name: 'message', type: 'string', label: 'Message', required: true }],
    });
    expect(app.manifest.webhooks).toEqual([expect.objectContaining({ id: 'inbound', action: 'receive' })]);
    const body = JSON.stringify({ message: 'hello' });
    const signed = signedRequest({
      tenant: h.shopA.tenantId,
      app: 'inbound',
      webhook: 'inbound',
      body,
      secret: WEBHOOK_SECRET,
    });
    const accepted = await h.app.request(signed.path, { method: 'POST', headers: signed.headers, body });
    expect(accepted.status).toBe(202);
    const [event] = await eventsNamed('app.inbound.receive');
    expect(event!.payload).toMatchObject({ input: { message: 'hello' } });
    // A body that does not fit the input is refused.
    const bad = JSON.stringify({ message: 42 });
    const refused = signedRequest({
      tenant: h.shopA.tenantId,
      app: 'inbound',
      webhook: 'inbound',
      body: bad,
      secret: WEBHOOK_SECRET,
    });
    const answer = await h.app.request(refused.path, { method: 'POST', headers: refused.headers, body: bad });
    expect(answer.status).toBe(422);
  });
});

describe('schedule: a schedule and its emitting module action', () => {
  it('emits app.<app>.tick when due, and the module action runs', async () => {
    const previewed = await preview('schedule', { app_id: 'nightly', name: 'Nightly', cron: '0 30 5 * * *' });
    expect(previewed.module).toEqual(expect.any(String));
    expect(previewed.externalService).toEqual({ needed: false, configured: false });
    await install('schedule', { app_id: 'nightly', name: 'Nightly', cron: '0 30 5 * * *' });
    await h.database.db.execute(
      sql`update app_schedules set next_tick_at = date_trunc('day', now()) - interval '18 hours 30 minutes' where app_id = 'nightly'`,
    );
    expect((await runDueSchedules(h.services, { owner: 'test', leaseMs: 30_000, limit: 10 })).emitted).toBe(
      1,
    );
    const ticks = await eventsNamed('app.nightly.tick');
    expect(ticks).toHaveLength(1);
    expect(ticks[0]!.payload).toMatchObject({ appId: 'nightly', scheduleId: 'tick' });
    // The same action run by hand: the generated module answers its declared output.
    const ran = expectOk(await appAction('nightly', 'tick', {}));
    expect(Object.keys(ran).length).toBeGreaterThan(0);
  });
});

/** Runs payment-worker rounds until no job is due (bounded: an endless loop would be a bug). */
async function settlePayments() {
  for (let round = 0; round < 20; round++) {
    const ran = await runDuePaymentJobs(h.services, { owner: 'test', leaseMs: 30_000, limit: 10 });
    if (ran.ran === 0) return;
  }
  throw new Error('the payment jobs did not settle');
}

describe('payment: a payment method served by the app’s service', () => {
  it('takes a checkout through the app: authorize, buyer approval, one capture, paid, a refund', async () => {
    const previewed = await preview('payment', {
      app_id: 'shop-pay',
      name: 'Shop Pay',
      method_label: 'Pay later',
    });
    expect(previewed.externalService).toEqual({ needed: true, configured: true });
    expect(previewed.manifest.actions.map((action) => [action.id, action.kind, action.mcp]).sort()).toEqual([
      ['authorize', 'service', false],
      ['capture', 'service', false],
      ['refund', 'service', false],
      ['status', 'service', false],
    ]);
    await install('payment', { app_id: 'shop-pay', name: 'Shop Pay', method_label: 'Pay later' });
    const methodId = '0190f0c8-0000-7000-8000-00000017a001';
    expectOk(
      await staff('PUT', `/api/basis/payment-methods/${methodId}`, {
        revision: 0,
        handler: 'app',
        appId: 'shop-pay',
        translations: { en: { name: 'Pay later' } },
      }),
    );
    const visitor = await h.visitorWithCart(channelKey, [{ productId, quantity: 2 }]);
    const cart = expectOk(await store('PATCH', '/store-api/cart', { paymentMethodId: methodId }, visitor));
    expect(cart.problems).toEqual([]);
    const order = expectOk(await store('POST', '/store-api/checkout', {}, visitor), 201) as {
      id: string;
      price: { total: { gross: number } };
    };
    await settlePayments();
    const waiting = expectOk(
      await store('GET', `/store-api/orders/${order.id}/payment`, undefined, visitor),
    ) as {
      paymentState: string;
      attempt: { attemptId: string; status: string; approvalUrl: string | null; amount: number };
    };
    const [payment] = [...shopPayments.values()];
    expect(payment).toMatchObject({ attemptId: waiting.attempt.attemptId, status: 'CREATED' });
    expect(waiting).toMatchObject({
      paymentState: 'open',
      attempt: {
        status: 'awaiting_approval',
        approvalUrl: `https://pay.example.test/approve/${payment!.id}`,
      },
    });
    expect(payment!.amount).toBe((order.price.total.gross / 100).toFixed(2));
    // The buyer approves at the app and comes back; the return only asks the worker to look.
    payment!.status = 'APPROVED';
    const back = await h.app.request(
      `/payments/return/${h.shopA.tenantId}/${waiting.attempt.attemptId}?token=${payment!.id}`,
    );
    expect(back.status).toBe(200);
    await settlePayments();
    expect(payment!.captures).toBe(1);
    const ledger = expectOk(await staff('GET', `/api/orders/${order.id}/payments`)) as {
      paymentState: string;
      attempts: { provider: string; status: string }[];
    };
    expect(ledger.paymentState).toBe('paid');
    expect(ledger.attempts).toEqual([
      expect.objectContaining({ provider: 'app:shop-pay', status: 'captured' }),
    ]);
    // A refund reaches the app's refund action once; more than the capture is refused.
    const refund = expectOk(
      await h.call('POST', `/api/orders/${order.id}/payments/refunds`, {
        token: h.shopA.token,
        body: { amount: 500 },
        headers: { 'idempotency-key': 'assistant-refund-1' },
      }),
      201,
    );
    expect(refund.refund).toMatchObject({ amount: 500 });
    await settlePayments();
    expect([...payment!.refunds.values()]).toEqual(['5.00']);
    expectProblem(
      await h.call('POST', `/api/orders/${order.id}/payments/refunds`, {
        token: h.shopA.token,
        body: { amount: order.price.total.gross },
        headers: { 'idempotency-key': 'assistant-refund-2' },
      }),
      409,
      'REFUND_EXCEEDS_BALANCE',
    );
  });
});

describe('shipping: a shipping method whose rate the app computes', () => {
  it('prices the cart with the generated module: base plus per item, free from the subtotal', async () => {
    const answers = {
      app_id: 'flat-ship',
      name: 'Flat shipping',
      method_label: 'Flat parcel',
      base: 390,
      per_item: 50,
      free_from: 5000,
      tax_rate_percent: 19,
    };
    const previewed = await preview('shipping', answers);
    expect(previewed.externalService).toEqual({ needed: false, configured: false });
    await install('shipping', answers);
    const methodId = '0190f0c8-0000-7000-8000-00000017b001';
    expectOk(
      await staff('PUT', `/api/basis/shipping-methods/${methodId}`, {
        revision: 0,
        appId: 'flat-ship',
        translations: { en: { name: 'Flat parcel' } },
      }),
    );
    const visitor = await h.visitorWithCart(channelKey, [{ productId, quantity: 2 }]);
    const cart = expectOk(
      await store('PATCH', '/store-api/cart', { shippingMethodId: methodId }, visitor),
    ) as {
      problems: unknown[];
      shipping: { gross: number; net: number };
    };
    expect(cart.problems).toEqual([]);
    // 390 + 2 × 50 = 490 gross, net = round(490 × 100 / 119) = 412.
    expect(cart.shipping).toMatchObject({ gross: 490, net: 412 });
    // Five teas at 10.00 reach the 50.00 from which shipping is free.
    const lines = (expectOk(await store('GET', '/store-api/cart', undefined, visitor)).lines ?? []) as {
      id: string;
    }[];
    expectOk(await store('PATCH', `/store-api/cart/lines/${lines[0]!.id}`, { quantity: 5 }, visitor));
    const free = expectOk(await store('GET', '/store-api/cart', undefined, visitor)) as {
      shipping: { gross: number };
    };
    expect(free.shipping).toMatchObject({ gross: 0 });
    const order = expectOk(await store('POST', '/store-api/checkout', {}, visitor), 201) as {
      price: { shipping: { gross: number } };
    };
    expect(order.price.shipping).toMatchObject({ gross: 0 });
  });
});

describe('every generated manifest round-trips through a merchant’s edit and an upgrade', () => {
  it('takes an added optional field and a raised version as a compatible upgrade', async () => {
    const apps = expectOk(await staff('GET', '/api/apps')).items as {
      appId: string;
      revision: number;
      version: string;
      manifest: Manifest;
    }[];
    expect(apps.length).toBeGreaterThanOrEqual(9);
    for (const app of apps) {
      const [major, minor, patch] = app.version.split('.').map(Number) as [number, number, number];
      const edited = JSON.parse(JSON.stringify(app.manifest)) as Manifest;
      edited.version = `${major}.${minor}.${patch + 1}`;
      const entity = edited.entities[0];
      if (entity) entity.fields.push({ name: 'merchant_note', type: 'string', maxLength: 200 });
      const upgraded = expectOk(
        await staff('PUT', `/api/apps/${app.appId}`, {
          revision: app.revision,
          manifest: edited,
          module: modules.get(app.appId),
        }),
      ).change;
      expect(upgraded, app.appId).toBe('upgraded');
    }
  });
});
