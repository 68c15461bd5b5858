import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../request-body.ts';
import { createAccounts, type FixtureAccount, type FixtureAccountInput } from './accounts.ts';
import { type ApiFamily, detail, errorReply, fail, type Reply } from './errors.ts';
import { createPaypalFaults, type FaultKind, type FaultRule, OVERSIZED_BYTES } from './faults.ts';
import { createIdempotencyStore, idempotencyKey } from './idempotency.ts';
import { newDebugId } from './identifiers.ts';
import { approveOrder, cancelUrlOf, isOrderExpired, type PayerInput, renderOrder } from './orders.ts';
import { renderAuthorization, renderCapture, renderRefund, settleCapture } from './payments.ts';
import { type ActionRoute, type IdempotentRoute, matchRoute, type RouteContext } from './routes.ts';
import type {
  PayPalAuthorization,
  PayPalCapture,
  PayPalOrder,
  PayPalRefund,
  WebhookEvent,
} from './shapes.ts';
import { type CaptureOutcome, createState, type FixtureWorld, type OrderRecord } from './state.ts';
import { createWebhooks, type WebhookDelivery, type WebhookDeliveryOptions } from './webhooks.ts';

export interface PayPalFixtureOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  readonly accounts?: readonly FixtureAccountInput[];
  /** `expires_in` of issued tokens (§1: observed ~32400 s; never assume a constant). */
  readonly tokenExpiresInSeconds?: number;
  /** Approval window of an order from creation (§2.2: 3 h). */
  readonly orderLifetimeSeconds?: number;
  /** How long `PayPal-Request-Id` keys are kept (§3: orders 6 h, payments 45 days). */
  readonly idempotencyTtlSeconds?: { readonly orders?: number; readonly payments?: number };
  /** Capture outcome for orders without `setCaptureOutcome` (default COMPLETED). */
  readonly captureOutcome?: CaptureOutcome;
  /** The fixture's clock in epoch ms (token and order expiry, timestamps); `Date.now` by default. */
  readonly now?: () => number;
}

/** One HTTP call the fixture received. */
export interface FixtureCall {
  readonly method: string;
  /** Pathname without query. */
  readonly path: string;
  readonly requestId?: string;
  /** Client id behind the Basic credentials or bearer token, when known. */
  readonly account?: string;
  readonly fault?: FaultKind;
  /** Status answered; absent while in flight or when the fault left it unanswered. */
  readonly status?: number;
}

/** The loopback PayPal: HTTP surface at `url`, plus test hooks as plain methods. */
export interface PayPalFixture {
  /** Base URL, e.g. `http://127.0.0.1:41234` (use in place of `https://api-m.sandbox.paypal.com`). */
  readonly url: string;
  /** Every call received, oldest first. */
  readonly calls: readonly FixtureCall[];
  /** Every webhook transmission sent, oldest first. */
  readonly webhookDeliveries: readonly WebhookDelivery[];
  addAccount(account: FixtureAccountInput): FixtureAccount;
  /** The buyer approves on PayPal; returns the return_url redirect PayPal would send them to. */
  approve(orderId: string, payer?: PayerInput): { readonly payerId: string; readonly returnUrl?: string };
  setCaptureOutcome(orderId: string, outcome: CaptureOutcome): void;
  /** A PENDING capture clears or fails, as after PayPal's review. */
  settleCapture(captureId: string, status: 'COMPLETED' | 'DECLINED' | 'FAILED'): void;
  /** The order is gone: GET and capture answer 404 `INVALID_RESOURCE_ID` (§2.3). */
  expire(orderId: string): void;
  /** Every live token (of one client id, or all) answers `invalid_token` from now on (§1). */
  expireTokens(clientId?: string): void;
  /** Injects a fault into the next matching call(s). */
  failNext(rule: FaultRule): void;
  clearFaults(): void;
  /** The order's full representation as GET would answer it (expired orders too). */
  order(orderId: string): PayPalOrder;
  /** Provider captures of an order (`capture-2`), oldest first. */
  captures(orderId: string): PayPalCapture[];
  authorizations(orderId: string): PayPalAuthorization[];
  /** Refunds of a capture, oldest first. */
  refunds(captureId: string): PayPalRefund[];
  /** §5.1 event builders over the fixture's current state. */
  readonly webhookEvents: ReturnType<typeof createWebhooks>['events'];
  /** POSTs an event with §5.3 headers, at least once; resolves with every transmission made. */
  deliverWebhook(
    url: string,
    event: WebhookEvent,
    options?: WebhookDeliveryOptions,
  ): Promise<WebhookDelivery[]>;
  /** Several events one after another in the given index order (default reversed). */
  deliverWebhooks(
    url: string,
    events: readonly WebhookEvent[],
    options?: WebhookDeliveryOptions & { readonly order?: readonly number[] | 'reverse' },
  ): Promise<WebhookDelivery[]>;
  close(): Promise<void>;
}

const HOUR_SECONDS = 3600;

type MutableCall = { -readonly [K in keyof FixtureCall]: FixtureCall[K] };

function familyOf(path: string): ApiFamily {
  if (path.startsWith('/v2/payments/')) return 'payments';
  if (path.startsWith('/v1/notifications/')) return 'notifications';
  return 'orders';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A JSON body, none (undefined), or the 415 / 400 PayPal answers (§6). */
function parseJsonBody(
  request: IncomingMessage,
  raw: string,
  family: ApiFamily,
): { ok: true; body: unknown } | { ok: false; reply: Reply } {
  if (raw.trim() === '') return { ok: true, body: undefined };
  if (!/json/i.test(header(request, 'content-type') ?? '')) {
    return { ok: false, reply: errorReply(family, { status: 415 }) };
  }
  try {
    return { ok: true, body: JSON.parse(raw) };
  } catch {
    return { ok: false, reply: errorReply(family, fail(detail('MALFORMED_REQUEST_JSON'))) };
  }
}

/** §3 negative testing: `PayPal-Mock-Response: {"mock_application_codes":"INSTRUMENT_DECLINED"}`. */
function mockedIssue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const code = (JSON.parse(value) as { mock_application_codes?: unknown }).mock_application_codes;
    return typeof code === 'string' && code !== '' ? code : undefined;
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined) {
    response.writeHead(reply.status, headers).end();
    return;
  }
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  headers['content-type'] ??= 'application/json';
  headers['content-length'] = String(Buffer.byteLength(text));
  response.writeHead(reply.status, headers).end(text);
}

function padded(reply: Reply): Reply {
  const body =
    typeof reply.body === 'object' && reply.body !== null && !Array.isArray(reply.body) ? reply.body : {};
  return { ...reply, body: { ...body, fixture_padding: 'x'.repeat(OVERSIZED_BYTES) } };
}

function page(status: number, text: string): Reply {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text };
}

/** Starts the loopback PayPal on 127.0.0.1 and resolves once it listens. */
export async function startPayPalFixture(options: PayPalFixtureOptions = {}): Promise<PayPalFixture> {
  const now = options.now ?? Date.now;
  const accounts = createAccounts({ now, tokenExpiresInSeconds: options.tokenExpiresInSeconds ?? 32_400 });
  for (const account of options.accounts ?? []) accounts.add(account);
  const faults = createPaypalFaults();
  const idempotency = createIdempotencyStore(now);
  const ttlMs: Record<ApiFamily, number> = {
    orders: (options.idempotencyTtlSeconds?.orders ?? 6 * HOUR_SECONDS) * 1000,
    payments: (options.idempotencyTtlSeconds?.payments ?? 45 * 24 * HOUR_SECONDS) * 1000,
    notifications: 6 * HOUR_SECONDS * 1000,
  };
  const calls: FixtureCall[] = [];
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const world: FixtureWorld = {
    state: createState(),
    accountOf: (clientId) => {
      const account = accounts.get(clientId);
      if (!account) throw new Error(`unknown account ${clientId}`);
      return account;
    },
    now,
    baseUrl: url,
    orderLifetimeMs: (options.orderLifetimeSeconds ?? 3 * HOUR_SECONDS) * 1000,
    captureOutcome: options.captureOutcome ?? 'COMPLETED',
  };
  const webhooks = createWebhooks(world, (clientId) => accounts.get(clientId));

  async function runIdempotent(
    route: IdempotentRoute,
    context: RouteContext,
    key: string | undefined,
    pause: () => Promise<void>,
  ): Promise<Reply> {
    if (key !== undefined) {
      // §3: a replay answers the earlier request's resource in its current state, not a second action.
      const earlier = idempotency.recall(key);
      if (earlier !== undefined) return { status: route.replayStatus, body: route.render(context, earlier) };
      if (!idempotency.claim(key)) {
        return errorReply(route.family, fail(detail('PREVIOUS_REQUEST_IN_PROGRESS')));
      }
    }
    try {
      await pause();
      const result = route.perform(context);
      if (!result.ok) return errorReply(route.family, result);
      if (key !== undefined) idempotency.remember(key, result.id, ttlMs[route.family]);
      return { status: 201, body: route.render(context, result.id) };
    } finally {
      if (key !== undefined) idempotency.release(key);
    }
  }

  async function runAction(
    route: ActionRoute,
    context: RouteContext,
    pause: () => Promise<void>,
  ): Promise<Reply> {
    const lock = route.lockKey?.(context);
    if (lock !== undefined && !idempotency.claim(lock)) {
      return errorReply(route.family, fail(detail('PREVIOUS_REQUEST_IN_PROGRESS')));
    }
    try {
      await pause();
      return route.handle(context);
    } finally {
      if (lock !== undefined) idempotency.release(lock);
    }
  }

  /** The buyer's browser at the `approve` / `payer-action` link (§2.2): approve, then redirect. */
  function buyerPage(target: URL): Reply {
    const order = world.state.orders.get(target.searchParams.get('token') ?? '');
    if (!order || isOrderExpired(world, order)) {
      return page(404, 'This checkout session does not exist or has expired.');
    }
    if (target.searchParams.get('action') === 'cancel') {
      const cancelUrl = cancelUrlOf(order);
      return cancelUrl ? { status: 302, headers: { location: cancelUrl } } : page(200, 'Payment cancelled.');
    }
    if (order.status === 'COMPLETED' || order.status === 'VOIDED') {
      return page(409, 'This order is already complete.');
    }
    const { returnUrl } = approveOrder(world, order.id);
    return returnUrl
      ? { status: 302, headers: { location: returnUrl } }
      : page(200, `Order ${order.id} approved.`);
  }

  async function dispatch(
    request: IncomingMessage,
    target: URL,
    method: string,
    raw: string,
    pause: () => Promise<void>,
  ): Promise<Reply> {
    const path = target.pathname;
    if (method === 'POST' && path === '/v1/oauth2/token') {
      await pause();
      // §1: grant_type in the form body, or (as WOO sends it) in the query string.
      const grantType = new URLSearchParams(raw).get('grant_type') ?? target.searchParams.get('grant_type');
      return accounts.issueToken(header(request, 'authorization'), grantType);
    }
    if (method === 'GET' && path === '/checkoutnow') {
      await pause();
      return buyerPage(target);
    }
    const family = familyOf(path);
    const matched = matchRoute(method, path);
    if (!matched) return errorReply(family, { status: 404 });
    const { route, params } = matched;
    const authentication = accounts.authenticate(header(request, 'authorization'), family);
    if (!authentication.ok) return authentication.reply;
    const parsed = parseJsonBody(request, raw, family);
    if (!parsed.ok) return parsed.reply;
    const requestId = header(request, 'paypal-request-id');
    if (requestId !== undefined && (requestId.length < 1 || requestId.length > 108)) {
      return errorReply(
        family,
        fail(
          detail('INVALID_STRING_LENGTH', {
            field: 'PayPal-Request-Id',
            location: 'header',
            value: requestId,
          }),
        ),
      );
    }
    const mocked = mockedIssue(header(request, 'paypal-mock-response'));
    if (mocked !== undefined) {
      return errorReply(
        family,
        fail({ issue: mocked, description: `Forced by PayPal-Mock-Response: ${mocked}.` }),
      );
    }
    const context: RouteContext = {
      world,
      webhooks,
      account: authentication.account,
      params,
      body: parsed.body,
      rawBody: raw,
      isRepresentation: /return=representation/i.test(header(request, 'prefer') ?? ''),
    };
    if (route.kind === 'action') return runAction(route, context, pause);
    const key =
      requestId === undefined
        ? undefined
        : idempotencyKey(authentication.account.clientId, requestId, method, path);
    return runIdempotent(route, context, key, pause);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = new URL(request.url ?? '/', url);
    const method = (request.method ?? 'GET').toUpperCase();
    const raw = await readBody(request);
    const requestId = header(request, 'paypal-request-id');
    const account = accounts.identify(header(request, 'authorization'));
    const call: MutableCall = {
      method,
      path: target.pathname,
      ...(requestId === undefined ? {} : { requestId }),
      ...(account === undefined ? {} : { account }),
    };
    calls.push(call);
    if (raw === undefined) {
      call.status = 413;
      send(response, {
        ...errorReply(familyOf(target.pathname), { status: 413 }),
        headers: { connection: 'close' },
      });
      return;
    }
    const fault = faults.take(method, target.pathname);
    if (fault) call.fault = fault.kind;
    if (fault?.kind === 'status-500' || fault?.kind === 'status-503') {
      const reply = errorReply(familyOf(target.pathname), {
        status: fault.kind === 'status-500' ? 500 : 503,
      });
      call.status = reply.status;
      send(response, reply);
      return;
    }
    // Never answered; the connection ends when the client gives up or the fixture closes.
    if (fault?.kind === 'timeout' && !fault.performs) return;
    const pause = fault?.kind === 'slow' ? () => sleep(fault.delayMs ?? 1000) : () => Promise.resolve();
    let reply = await dispatch(request, target, method, raw, pause);
    if (fault?.kind === 'timeout') return;
    if (fault?.kind === 'drop-after-performing') {
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'oversized') reply = padded(reply);
    if (target.pathname !== '/checkoutnow' && reply.headers?.['paypal-debug-id'] === undefined) {
      reply = { ...reply, headers: { ...reply.headers, 'paypal-debug-id': newDebugId() } };
    }
    call.status = reply.status;
    send(response, reply);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      // A fixture bug: answer like PayPal's 500 (no internals in the body) and keep the text for the test log.
      console.error('paypal-fixture: unexpected error', error);
      if (!response.headersSent) send(response, errorReply('orders', { status: 500 }));
    });
  });

  function orderRecord(orderId: string): OrderRecord {
    const order = world.state.orders.get(orderId);
    if (!order) throw new Error(`unknown order ${orderId}`);
    return order;
  }

  return {
    url,
    calls,
    webhookDeliveries: webhooks.deliveries,
    addAccount: (account) => accounts.add(account),
    approve(orderId, payer) {
      const { order, returnUrl } = approveOrder(world, orderId, payer);
      return { payerId: order.payer!.payerId, ...(returnUrl === undefined ? {} : { returnUrl }) };
    },
    setCaptureOutcome(orderId, outcome) {
      orderRecord(orderId).captureOutcome = outcome;
    },
    settleCapture(captureId, status) {
      settleCapture(world, captureId, status);
    },
    expire(orderId) {
      orderRecord(orderId).expired = true;
    },
    expireTokens: (clientId) => accounts.expireTokens(clientId),
    failNext: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    order: (orderId) => renderOrder(world, orderRecord(orderId), 'representation'),
    captures: (orderId) =>
      orderRecord(orderId).captureIds.map((id) => renderCapture(world, world.state.captures.get(id)!, true)),
    authorizations: (orderId) =>
      orderRecord(orderId).authorizationIds.map((id) =>
        renderAuthorization(world, world.state.authorizations.get(id)!, true),
      ),
    refunds(captureId) {
      const capture = world.state.captures.get(captureId);
      if (!capture) throw new Error(`unknown capture ${captureId}`);
      return capture.refundIds.map((id) => renderRefund(world, world.state.refunds.get(id)!, true));
    },
    webhookEvents: webhooks.events,
    deliverWebhook: (target, event, deliveryOptions) => webhooks.deliver(target, event, deliveryOptions),
    deliverWebhooks: (target, events, deliveryOptions) =>
      webhooks.deliverInOrder(target, events, deliveryOptions),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
