import { createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { FixtureAccount } from './accounts.ts';
import { detail, type ErrorDetail, errorReply, fail, type Reply } from './errors.ts';
import { isoSeconds, newEventId, newTransmissionId } from './identifiers.ts';
import { rawMemberText } from './json-span.ts';
import { formatMoney, type Money } from './money.ts';
import { renderOrder } from './orders.ts';
import { renderAuthorization, renderCapture, renderRefund } from './payments.ts';
import type { WebhookEvent } from './shapes.ts';
import type { FixtureWorld } from './state.ts';

/** Webhooks (§5): events built from the fixture's state, delivery with §5.3 headers, and §5.4 verify. */

export type OrderEventType =
  | 'CHECKOUT.ORDER.APPROVED'
  | 'CHECKOUT.ORDER.COMPLETED'
  | 'CHECKOUT.PAYMENT-APPROVAL.REVERSED';
export type CaptureEventType =
  | 'PAYMENT.CAPTURE.COMPLETED'
  | 'PAYMENT.CAPTURE.PENDING'
  | 'PAYMENT.CAPTURE.DENIED'
  | 'PAYMENT.CAPTURE.DECLINED';
export type RefundEventType =
  | 'PAYMENT.CAPTURE.REFUNDED'
  | 'PAYMENT.CAPTURE.REVERSED'
  | 'PAYMENT.REFUND.PENDING'
  | 'PAYMENT.REFUND.FAILED';
export type AuthorizationEventType = 'PAYMENT.AUTHORIZATION.CREATED' | 'PAYMENT.AUTHORIZATION.VOIDED';

export interface WebhookDeliveryOptions {
  /** Deliver the same event again as separate transmissions: `true` = once more, or a count (§5.6). */
  readonly duplicate?: boolean | number;
  /** Wait before the first transmission. */
  readonly delayMs?: number;
  /** At-least-once: a non-2xx answer or a network error is retried up to this many attempts (default 3). */
  readonly maxAttempts?: number;
  /** Pause between attempts (default 50 ms). */
  readonly retryDelayMs?: number;
  /** Per attempt (default 5000 ms). */
  readonly timeoutMs?: number;
  /** For events not built by the fixture's helpers: whose webhook subscription sends it. */
  readonly clientId?: string;
}

/** One transmission of an event to a listener, as sent and as answered. */
export interface WebhookDelivery {
  readonly eventId: string;
  readonly eventType: string;
  readonly transmissionId: string;
  readonly attempt: number;
  /** The §5.3 headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact bytes sent. */
  readonly body: string;
  readonly status?: number;
  readonly error?: string;
}

interface Transmission {
  readonly clientId: string;
  readonly webhookId: string;
  readonly body: string;
  readonly time: string;
  readonly signature: string;
  readonly certUrl: string;
  readonly authAlgo: string;
}

const AUTH_ALGO = 'SHA256withRSA';

/**
 * The event bytes: compact JSON with `/` written as `\/` (a valid escape some encoders use). A
 * listener that parses and re-serialises the event no longer has these bytes, and §5.4 verification
 * fails as it does against PayPal (§10.4).
 */
export function serializeEvent(event: WebhookEvent): string {
  return JSON.stringify(event).replaceAll('/', '\\/');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(amount: Money): string {
  const { value, currency_code } = formatMoney(amount);
  return `${value} ${currency_code}`;
}

export function createWebhooks(
  world: FixtureWorld,
  accountOf: (clientId: string) => FixtureAccount | undefined,
) {
  const eventAccounts = new Map<string, string>();
  const transmissions = new Map<string, Transmission>();
  const deliveries: WebhookDelivery[] = [];
  const signingKey = randomBytes(32);
  const certUrl = `https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-${randomBytes(4).toString('hex')}`;

  function event(
    accountId: string,
    eventType: string,
    resourceType: string,
    summary: string,
    resource: unknown,
  ): WebhookEvent {
    const id = newEventId();
    eventAccounts.set(id, accountId);
    const self = `${world.baseUrl}/v1/notifications/webhooks-events/${id}`;
    return {
      id,
      event_version: '1.0',
      create_time: new Date(world.now()).toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary,
      resource,
      links: [
        { href: self, rel: 'self', method: 'GET' },
        { href: `${self}/resend`, rel: 'resend', method: 'POST' },
      ],
    };
  }

  function required<T>(record: T | undefined, kind: string, id: string): T {
    if (!record) throw new Error(`unknown ${kind} ${id}`);
    return record;
  }

  /** §5.1 events from the fixture's current state; the resource is a snapshot taken now. */
  const events = {
    /** `CHECKOUT.ORDER.APPROVED` (default) or `.COMPLETED` with the order, or the approval reversal. */
    order(orderId: string, type: OrderEventType = 'CHECKOUT.ORDER.APPROVED'): WebhookEvent {
      const order = required(world.state.orders.get(orderId), 'order', orderId);
      if (type === 'CHECKOUT.PAYMENT-APPROVAL.REVERSED') {
        const resource = {
          order_id: order.id,
          purchase_units: order.purchaseUnits.map((unit) => ({
            reference_id: unit.referenceId,
            ...(unit.customId === undefined ? {} : { custom_id: unit.customId }),
            ...(unit.invoiceId === undefined ? {} : { invoice_id: unit.invoiceId }),
          })),
        };
        return event(
          order.accountId,
          type,
          'checkout-order',
          'A payment has been reversed after approval.',
          resource,
        );
      }
      const summary =
        type === 'CHECKOUT.ORDER.APPROVED'
          ? 'An order has been approved by buyer'
          : 'Checkout Order Completed';
      return event(
        order.accountId,
        type,
        'checkout-order',
        summary,
        renderOrder(world, order, 'representation'),
      );
    },
    /** A capture event (`capture-2` resource); the type follows the capture's status unless given. */
    capture(captureId: string, type?: CaptureEventType): WebhookEvent {
      const capture = required(world.state.captures.get(captureId), 'capture', captureId);
      const eventType =
        type ??
        (capture.status === 'PENDING'
          ? 'PAYMENT.CAPTURE.PENDING'
          : capture.status === 'DECLINED' || capture.status === 'FAILED'
            ? 'PAYMENT.CAPTURE.DECLINED'
            : 'PAYMENT.CAPTURE.COMPLETED');
      const verb = eventType.split('.')[2]!.toLowerCase();
      return event(
        capture.accountId,
        eventType,
        'capture',
        `Payment ${verb} for ${describe(capture.amount)}`,
        renderCapture(world, capture, true),
      );
    },
    /** `PAYMENT.CAPTURE.REFUNDED` (default) and the other refund-shaped events. */
    refund(refundId: string, type: RefundEventType = 'PAYMENT.CAPTURE.REFUNDED'): WebhookEvent {
      const refund = required(world.state.refunds.get(refundId), 'refund', refundId);
      const summaries: Record<RefundEventType, string> = {
        'PAYMENT.CAPTURE.REFUNDED': `A ${describe(refund.amount)} capture payment was refunded`,
        'PAYMENT.CAPTURE.REVERSED': `A ${describe(refund.amount)} capture payment was reversed`,
        'PAYMENT.REFUND.PENDING': `A ${describe(refund.amount)} refund is pending`,
        'PAYMENT.REFUND.FAILED': `A ${describe(refund.amount)} refund has failed`,
      };
      return event(refund.accountId, type, 'refund', summaries[type], renderRefund(world, refund, true));
    },
    /** `PAYMENT.AUTHORIZATION.CREATED`, or `.VOIDED` once the authorization is voided. */
    authorization(authorizationId: string, type?: AuthorizationEventType): WebhookEvent {
      const authorization = required(
        world.state.authorizations.get(authorizationId),
        'authorization',
        authorizationId,
      );
      const eventType =
        type ??
        (authorization.status === 'VOIDED'
          ? 'PAYMENT.AUTHORIZATION.VOIDED'
          : 'PAYMENT.AUTHORIZATION.CREATED');
      const summary =
        eventType === 'PAYMENT.AUTHORIZATION.VOIDED'
          ? 'A payment authorization was voided'
          : `A payment authorization was created for ${describe(authorization.amount)}`;
      return event(
        authorization.accountId,
        eventType,
        'authorization',
        summary,
        renderAuthorization(world, authorization, true),
      );
    },
  };

  /** §5.5's signed message; signed here with a fixture secret, so only the §5.4 postback can check it. */
  function sign(transmissionId: string, time: string, webhookId: string, body: string): string {
    const message = `${transmissionId}|${time}|${webhookId}|${crc32(Buffer.from(body))}`;
    return createHmac('sha256', signingKey).update(message).digest('base64');
  }

  async function transmit(
    url: string,
    account: FixtureAccount,
    sent: WebhookEvent,
    attempt: number,
    timeoutMs: number,
  ) {
    const body = serializeEvent(sent);
    const transmissionId = newTransmissionId();
    const time = isoSeconds(world.now());
    const signature = sign(transmissionId, time, account.webhookId, body);
    transmissions.set(transmissionId, {
      clientId: account.clientId,
      webhookId: account.webhookId,
      body,
      time,
      signature,
      certUrl,
      authAlgo: AUTH_ALGO,
    });
    // §5.3 delivery headers.
    const headers = {
      'content-type': 'application/json',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': signature,
      'paypal-cert-url': certUrl,
      'paypal-auth-algo': AUTH_ALGO,
      'paypal-auth-version': 'v2',
      'correlation-id': randomBytes(7).toString('hex').slice(0, 13),
      'user-agent': 'PayPal/AUHD-214.0-58843213',
    };
    const base = { eventId: sent.id, eventType: sent.event_type, transmissionId, attempt, headers, body };
    let delivery: WebhookDelivery;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.arrayBuffer();
      delivery = { ...base, status: response.status };
    } catch (error) {
      delivery = { ...base, error: error instanceof Error ? error.message : String(error) };
    }
    deliveries.push(delivery);
    return delivery;
  }

  /**
   * POSTs an event to a listener at least once (§5.6): retried on a non-2xx answer or a network
   * error; with `duplicate`, delivered again as a separate transmission with the same event id.
   */
  async function deliver(url: string, sent: WebhookEvent, options: WebhookDeliveryOptions = {}) {
    const clientId = options.clientId ?? eventAccounts.get(sent.id);
    const account = clientId === undefined ? undefined : accountOf(clientId);
    if (!account) throw new Error(`deliverWebhook: no account for event ${sent.id}; pass options.clientId`);
    const copies =
      1 + (options.duplicate === true ? 1 : typeof options.duplicate === 'number' ? options.duplicate : 0);
    const maxAttempts = options.maxAttempts ?? 3;
    if (options.delayMs) await sleep(options.delayMs);
    const sentNow: WebhookDelivery[] = [];
    for (let copy = 0; copy < copies; copy += 1) {
      for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
        if (attempt > 1) await sleep(options.retryDelayMs ?? 50);
        const delivery = await transmit(url, account, sent, attempt, options.timeoutMs ?? 5000);
        sentNow.push(delivery);
        if (delivery.status !== undefined && delivery.status >= 200 && delivery.status < 300) break;
      }
    }
    return sentNow;
  }

  /** Delivers several events one after another in the given order of indexes (default: reversed). */
  async function deliverInOrder(
    url: string,
    sent: readonly WebhookEvent[],
    options: WebhookDeliveryOptions & { readonly order?: readonly number[] | 'reverse' } = {},
  ) {
    const order =
      options.order === undefined || options.order === 'reverse'
        ? sent.map((_, index) => sent.length - 1 - index)
        : options.order;
    const isPermutation =
      order.length === sent.length &&
      [...order].sort((a, b) => a - b).every((value, index) => value === index);
    if (!isPermutation) throw new Error('deliverWebhooks: order must be a permutation of the event indexes');
    const all: WebhookDelivery[] = [];
    for (const index of order) all.push(...(await deliver(url, sent[index]!, options)));
    return all;
  }

  /**
   * `POST /v1/notifications/verify-webhook-signature` (§5.4): SUCCESS only when the transmission
   * was sent by this fixture for the caller's own webhook id, every header value matches, and
   * `webhook_event` is byte for byte the body sent. Otherwise FAILURE, still HTTP 200.
   */
  function verify(account: FixtureAccount, rawBody: string, body: unknown): Reply {
    const request =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : undefined;
    if (!request) return errorReply('notifications', fail(detail('MALFORMED_REQUEST_JSON')));
    const details: ErrorDetail[] = [];
    const limits = {
      auth_algo: 100,
      cert_url: 500,
      transmission_id: 50,
      transmission_sig: 500,
      transmission_time: 100,
      webhook_id: 50,
    } as const;
    for (const [field, max] of Object.entries(limits)) {
      const value = request[field];
      if (value === undefined) details.push(detail('MISSING_REQUIRED_PARAMETER', { field: `/${field}` }));
      else if (typeof value !== 'string')
        details.push(detail('INVALID_PARAMETER_SYNTAX', { field: `/${field}` }));
      else if (value.length > max) details.push(detail('INVALID_STRING_LENGTH', { field: `/${field}` }));
    }
    if (typeof request.auth_algo === 'string' && !/^[a-zA-Z0-9]+$/.test(request.auth_algo)) {
      details.push(detail('INVALID_PARAMETER_SYNTAX', { field: '/auth_algo', value: request.auth_algo }));
    }
    const event = request.webhook_event;
    if (event === undefined) details.push(detail('MISSING_REQUIRED_PARAMETER', { field: '/webhook_event' }));
    else if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      details.push(detail('INVALID_PARAMETER_SYNTAX', { field: '/webhook_event' }));
    }
    if (details.length > 0) return errorReply('notifications', fail(...details));

    const sent = transmissions.get(request.transmission_id as string);
    const isGenuine =
      sent !== undefined &&
      sent.clientId === account.clientId &&
      request.webhook_id === account.webhookId &&
      request.webhook_id === sent.webhookId &&
      request.transmission_time === sent.time &&
      request.transmission_sig === sent.signature &&
      request.cert_url === sent.certUrl &&
      request.auth_algo === sent.authAlgo &&
      rawMemberText(rawBody, 'webhook_event') === sent.body;
    return { status: 200, body: { verification_status: isGenuine ? 'SUCCESS' : 'FAILURE' } };
  }

  return { events, deliver, deliverInOrder, verify, deliveries: deliveries as readonly WebhookDelivery[] };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
