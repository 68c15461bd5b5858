import type { FixtureAccount } from './accounts.ts';
import { type ApiFailure, type ApiFamily, errorReply, type Reply } from './errors.ts';
import { authorizeOrder, captureOrder, createOrder, findOrder, patchOrder, renderOrder } from './orders.ts';
import {
  captureAuthorization,
  notFound,
  refundCapture,
  renderAuthorization,
  renderCapture,
  renderRefund,
  voidAuthorization,
} from './payments.ts';
import { type FixtureWorld, ownRecord } from './state.ts';
import type { Webhooks } from './webhooks.ts';

/** What a route sees of an authenticated API call. */
export interface RouteContext {
  readonly world: FixtureWorld;
  readonly webhooks: Webhooks;
  readonly account: FixtureAccount;
  /** Path parameters captured by the route's pattern. */
  readonly params: readonly string[];
  /** Parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
  readonly rawBody: string;
  /** §3 `Prefer`: minimal is the default. */
  readonly isRepresentation: boolean;
}

interface RouteBase {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly pattern: RegExp;
  readonly family: ApiFamily;
}

/** A call answered from the state as it is (GETs, void, verify). */
export interface ActionRoute extends RouteBase {
  readonly kind: 'action';
  handle(context: RouteContext): Reply;
  /** Calls that share this key may not overlap: a second one meets 409 (§4.4 void). */
  lockKey?(context: RouteContext): string;
}

/**
 * A POST that creates a resource and honours `PayPal-Request-Id` (§3): `perform` runs once per key
 * and names the resource; `render` answers both the first call and replays, from current state.
 */
export interface IdempotentRoute extends RouteBase {
  readonly kind: 'idempotent';
  /** §3: Orders v2 answer a replay with 200; the Payments v2 example in DOC-IDEM shows 201. */
  readonly replayStatus: 200 | 201;
  perform(context: RouteContext): { ok: true; id: string } | ApiFailure;
  render(context: RouteContext, id: string): unknown;
}

export type Route = ActionRoute | IdempotentRoute;

const ID = '([A-Za-z0-9-]{1,64})';

function ok(body: unknown): Reply {
  return { status: 200, body };
}

/** The operation's value mapped to a reply, or its refusal as the standard error body (§6). */
function answer<T extends { ok: true }>(
  result: T | ApiFailure,
  family: ApiFamily,
  map: (value: T) => Reply,
): Reply {
  return result.ok ? map(result) : errorReply(family, result);
}

function orderAnswer(context: RouteContext, id: string) {
  const order = context.world.state.orders.get(id)!;
  return renderOrder(context.world, order, context.isRepresentation ? 'representation' : 'payments-minimal');
}

/** The Orders v2, Payments v2 and verify-webhook-signature endpoints the fixture serves. */
export const ROUTES: readonly Route[] = [
  // §2.1–2.2 create
  {
    kind: 'idempotent',
    method: 'POST',
    pattern: /^\/v2\/checkout\/orders$/,
    family: 'orders',
    replayStatus: 200,
    perform: (context) => {
      const result = createOrder(
        context.world,
        context.account.clientId,
        context.body,
        context.world.captureOutcome,
      );
      return result.ok ? { ok: true, id: result.order.id } : result;
    },
    render: (context, id) =>
      renderOrder(
        context.world,
        context.world.state.orders.get(id)!,
        context.isRepresentation ? 'representation' : 'minimal',
      ),
  },
  // §2.3 get: always the full representation
  {
    kind: 'action',
    method: 'GET',
    pattern: new RegExp(`^/v2/checkout/orders/${ID}$`),
    family: 'orders',
    handle: (context) =>
      answer(findOrder(context.world, context.account.clientId, context.params[0]!), 'orders', ({ order }) =>
        ok(renderOrder(context.world, order, 'representation')),
      ),
  },
  // §2.6 update: JSON Patch, 204 without body
  {
    kind: 'action',
    method: 'PATCH',
    pattern: new RegExp(`^/v2/checkout/orders/${ID}$`),
    family: 'orders',
    handle: (context) =>
      answer(
        patchOrder(context.world, context.account.clientId, context.params[0]!, context.body),
        'orders',
        () => ({
          status: 204,
        }),
      ),
  },
  // §2.4 capture
  {
    kind: 'idempotent',
    method: 'POST',
    pattern: new RegExp(`^/v2/checkout/orders/${ID}/capture$`),
    family: 'orders',
    replayStatus: 200,
    perform: (context) => {
      const result = captureOrder(context.world, context.account.clientId, context.params[0]!);
      return result.ok ? { ok: true, id: result.order.id } : result;
    },
    render: orderAnswer,
  },
  // §2.5 authorize
  {
    kind: 'idempotent',
    method: 'POST',
    pattern: new RegExp(`^/v2/checkout/orders/${ID}/authorize$`),
    family: 'orders',
    replayStatus: 200,
    perform: (context) => {
      const result = authorizeOrder(context.world, context.account.clientId, context.params[0]!);
      return result.ok ? { ok: true, id: result.order.id } : result;
    },
    render: orderAnswer,
  },
  // §4.2 get capture (capture-2)
  {
    kind: 'action',
    method: 'GET',
    pattern: new RegExp(`^/v2/payments/captures/${ID}$`),
    family: 'payments',
    handle: (context) => {
      const capture = ownRecord(context.world.state.captures, context.params[0]!, context.account.clientId);
      if (!capture) return errorReply('payments', notFound('capture_id', context.params[0]!));
      return ok(renderCapture(context.world, capture, true));
    },
  },
  // §4.1 refund
  {
    kind: 'idempotent',
    method: 'POST',
    pattern: new RegExp(`^/v2/payments/captures/${ID}/refund$`),
    family: 'payments',
    replayStatus: 201,
    perform: (context) => {
      const result = refundCapture(context.world, context.account.clientId, context.params[0]!, context.body);
      return result.ok ? { ok: true, id: result.refund.id } : result;
    },
    render: (context, id) =>
      renderRefund(context.world, context.world.state.refunds.get(id)!, context.isRepresentation),
  },
  // §4.3 get refund
  {
    kind: 'action',
    method: 'GET',
    pattern: new RegExp(`^/v2/payments/refunds/${ID}$`),
    family: 'payments',
    handle: (context) => {
      const refund = ownRecord(context.world.state.refunds, context.params[0]!, context.account.clientId);
      if (!refund) return errorReply('payments', notFound('refund_id', context.params[0]!));
      return ok(renderRefund(context.world, refund, true));
    },
  },
  // §4.4 get authorization (authorization-2)
  {
    kind: 'action',
    method: 'GET',
    pattern: new RegExp(`^/v2/payments/authorizations/${ID}$`),
    family: 'payments',
    handle: (context) => {
      const authorization = ownRecord(
        context.world.state.authorizations,
        context.params[0]!,
        context.account.clientId,
      );
      if (!authorization) return errorReply('payments', notFound('authorization_id', context.params[0]!));
      return ok(renderAuthorization(context.world, authorization, true));
    },
  },
  // §4.4 capture an authorization
  {
    kind: 'idempotent',
    method: 'POST',
    pattern: new RegExp(`^/v2/payments/authorizations/${ID}/capture$`),
    family: 'payments',
    replayStatus: 201,
    perform: (context) => {
      const { world, account, params, body } = context;
      const authorization = world.state.authorizations.get(params[0]!);
      const order = authorization && world.state.orders.get(authorization.orderId);
      const outcome = order?.captureOutcome ?? world.captureOutcome;
      const result = captureAuthorization(world, account.clientId, params[0]!, body, outcome);
      return result.ok ? { ok: true, id: result.capture.id } : result;
    },
    render: (context, id) => {
      const capture = renderCapture(context.world, context.world.state.captures.get(id)!, true);
      return context.isRepresentation
        ? capture
        : { id: capture.id, status: capture.status, links: capture.links };
    },
  },
  // §4.4 void: no PayPal-Request-Id; minimal → 204, representation → 200
  {
    kind: 'action',
    method: 'POST',
    pattern: new RegExp(`^/v2/payments/authorizations/${ID}/void$`),
    family: 'payments',
    lockKey: (context) => `void ${context.params[0]}`,
    handle: (context) =>
      answer(
        voidAuthorization(context.world, context.account.clientId, context.params[0]!),
        'payments',
        ({ authorization }) =>
          context.isRepresentation
            ? ok(renderAuthorization(context.world, authorization, true))
            : { status: 204 },
      ),
  },
  // §5.4 verify
  {
    kind: 'action',
    method: 'POST',
    pattern: /^\/v1\/notifications\/verify-webhook-signature$/,
    family: 'notifications',
    handle: (context) => context.webhooks.verify(context.account, context.rawBody, context.body),
  },
];

/** The route for a method and pathname, with its captured path parameters. */
export function matchRoute(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1) };
  }
  return undefined;
}
