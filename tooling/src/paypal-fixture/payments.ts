import { type ApiFailure, detail, type ErrorDetail, fail } from './errors.ts';
import { isoSeconds, newResourceId } from './identifiers.ts';
import { decimalsOf, formatMoney, type Money, money, parseMoney } from './money.ts';
import type { PayPalAuthorization, PayPalCapture, PayPalLink, PayPalPayee, PayPalRefund } from './shapes.ts';
import {
  type AuthorizationRecord,
  type CaptureOutcome,
  type CaptureRecord,
  type CaptureStatus,
  type FixtureWorld,
  ownRecord,
  type RefundRecord,
} from './state.ts';

/** Payments v2: captures, refunds and authorizations (§4), plus the renderers orders reuse. */

const SELLER_PROTECTION = {
  status: 'ELIGIBLE',
  dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
} as const;

/** 29 days: an authorization's validity (§4.4, honor period 3 days, reauthorize up to day 29). */
const AUTHORIZATION_LIFETIME_MS = 29 * 24 * 3600 * 1000;
/** §4.4 default capture overage: up to 115 % of the authorized amount. */
const MAX_CAPTURE_PERCENT = 115n;

/** A plausible fee (3.49 % + fixed) so `net_amount` differs from `gross_amount`; never more than gross. */
function paypalFee(amount: Money, withFixedPart: boolean): Money {
  const variable = (amount.minor * 349n + 5000n) / 10000n;
  const fixed = withFixedPart ? (decimalsOf(amount.currency) === 0 ? 40n : 49n) : 0n;
  const fee = variable + fixed;
  return money(amount.currency, fee > amount.minor ? amount.minor : fee);
}

function link(href: string, rel: string, method: PayPalLink['method'] = 'GET'): PayPalLink {
  return { href, rel, method };
}

function payeeOf(world: FixtureWorld, accountId: string): PayPalPayee {
  const account = world.accountOf(accountId);
  return { email_address: account.email, merchant_id: account.merchantId };
}

export function notFound(field: string, value: string): ApiFailure {
  return fail(detail('INVALID_RESOURCE_ID', { field, value, location: 'path' }));
}

/** Refunded so far from a capture (completed and pending refunds both hold the money). */
export function refundedMinor(world: FixtureWorld, capture: CaptureRecord): bigint {
  let total = 0n;
  for (const id of capture.refundIds) {
    const refund = world.state.refunds.get(id);
    if (refund && (refund.status === 'COMPLETED' || refund.status === 'PENDING'))
      total += refund.amount.minor;
  }
  return total;
}

/**
 * `capture` as embedded in an order; with `asPaymentsResource` the Payments v2 `capture-2`
 * with `payee` and `supplementary_data.related_ids` (§2.4, §4.2). No `seller_receivable_breakdown`
 * while pending (§2.4) or for a declined capture.
 */
export function renderCapture(
  world: FixtureWorld,
  capture: CaptureRecord,
  asPaymentsResource: boolean,
): PayPalCapture {
  const self = `${world.baseUrl}/v2/payments/captures/${capture.id}`;
  const up = capture.authorizationId
    ? `${world.baseUrl}/v2/payments/authorizations/${capture.authorizationId}`
    : `${world.baseUrl}/v2/checkout/orders/${capture.orderId}`;
  const hasFunds =
    capture.status !== 'PENDING' && capture.status !== 'DECLINED' && capture.status !== 'FAILED';
  const fee = paypalFee(capture.amount, true);
  return {
    id: capture.id,
    status: capture.status,
    ...(capture.statusReason === undefined ? {} : { status_details: { reason: capture.statusReason } }),
    amount: formatMoney(capture.amount),
    ...(capture.invoiceId === undefined ? {} : { invoice_id: capture.invoiceId }),
    ...(capture.customId === undefined ? {} : { custom_id: capture.customId }),
    ...(capture.noteToPayer === undefined ? {} : { note_to_payer: capture.noteToPayer }),
    final_capture: capture.finalCapture,
    seller_protection: SELLER_PROTECTION,
    ...(hasFunds
      ? {
          seller_receivable_breakdown: {
            gross_amount: formatMoney(capture.amount),
            paypal_fee: formatMoney(fee),
            net_amount: formatMoney(money(capture.amount.currency, capture.amount.minor - fee.minor)),
          },
        }
      : {}),
    ...(asPaymentsResource
      ? {
          payee: payeeOf(world, capture.accountId),
          supplementary_data: {
            related_ids: {
              order_id: capture.orderId,
              ...(capture.authorizationId === undefined ? {} : { authorization_id: capture.authorizationId }),
            },
          },
        }
      : {}),
    links: [link(self, 'self'), link(`${self}/refund`, 'refund', 'POST'), link(up, 'up')],
    create_time: isoSeconds(capture.createTime),
    update_time: isoSeconds(capture.updateTime),
  };
}

/** `refund` (§4.1): full, or minimal `{ id, status, links }`. */
export function renderRefund(world: FixtureWorld, refund: RefundRecord, full: boolean): PayPalRefund {
  const links = [
    link(`${world.baseUrl}/v2/payments/refunds/${refund.id}`, 'self'),
    link(`${world.baseUrl}/v2/payments/captures/${refund.captureId}`, 'up'),
  ];
  if (!full) return { id: refund.id, status: refund.status, links };
  const fee = paypalFee(refund.amount, false);
  return {
    id: refund.id,
    status: refund.status,
    amount: formatMoney(refund.amount),
    ...(refund.invoiceId === undefined ? {} : { invoice_id: refund.invoiceId }),
    ...(refund.customId === undefined ? {} : { custom_id: refund.customId }),
    ...(refund.noteToPayer === undefined ? {} : { note_to_payer: refund.noteToPayer }),
    seller_payable_breakdown: {
      gross_amount: formatMoney(refund.amount),
      paypal_fee: formatMoney(fee),
      net_amount: formatMoney(money(refund.amount.currency, refund.amount.minor - fee.minor)),
      total_refunded_amount: formatMoney(refund.totalRefunded),
    },
    payer: payeeOf(world, refund.accountId),
    links,
    create_time: isoSeconds(refund.createTime),
    update_time: isoSeconds(refund.updateTime),
  };
}

/** `authorization`, or `authorization-2` with payee and related ids (§2.5, §4.4). */
export function renderAuthorization(
  world: FixtureWorld,
  authorization: AuthorizationRecord,
  asPaymentsResource: boolean,
): PayPalAuthorization {
  const self = `${world.baseUrl}/v2/payments/authorizations/${authorization.id}`;
  return {
    id: authorization.id,
    status: authorization.status,
    amount: formatMoney(authorization.amount),
    ...(authorization.invoiceId === undefined ? {} : { invoice_id: authorization.invoiceId }),
    ...(authorization.customId === undefined ? {} : { custom_id: authorization.customId }),
    seller_protection: SELLER_PROTECTION,
    expiration_time: isoSeconds(authorization.expirationTime),
    ...(asPaymentsResource
      ? {
          payee: payeeOf(world, authorization.accountId),
          supplementary_data: { related_ids: { order_id: authorization.orderId } },
        }
      : {}),
    links: [
      link(self, 'self'),
      link(`${self}/capture`, 'capture', 'POST'),
      link(`${self}/void`, 'void', 'POST'),
      link(`${self}/reauthorize`, 'reauthorize', 'POST'),
      link(`${world.baseUrl}/v2/checkout/orders/${authorization.orderId}`, 'up'),
    ],
    create_time: isoSeconds(authorization.createTime),
    update_time: isoSeconds(authorization.updateTime),
  };
}

/** Records one provider capture with the order's configured outcome (§2.4 statuses). */
export function recordCapture(
  world: FixtureWorld,
  input: {
    accountId: string;
    orderId: string;
    authorizationId?: string;
    referenceId: string;
    amount: Money;
    outcome: CaptureOutcome;
    customId?: string;
    invoiceId?: string;
    noteToPayer?: string;
    finalCapture: boolean;
  },
): CaptureRecord {
  const now = world.now();
  const capture: CaptureRecord = {
    id: newResourceId(),
    accountId: input.accountId,
    orderId: input.orderId,
    ...(input.authorizationId === undefined ? {} : { authorizationId: input.authorizationId }),
    referenceId: input.referenceId,
    amount: input.amount,
    status: input.outcome,
    ...(input.outcome === 'PENDING' ? { statusReason: 'PENDING_REVIEW' } : {}),
    ...(input.customId === undefined ? {} : { customId: input.customId }),
    ...(input.invoiceId === undefined ? {} : { invoiceId: input.invoiceId }),
    ...(input.noteToPayer === undefined ? {} : { noteToPayer: input.noteToPayer }),
    finalCapture: input.finalCapture,
    createTime: now,
    updateTime: now,
    refundIds: [],
  };
  world.state.captures.set(capture.id, capture);
  world.state.orders.get(input.orderId)?.captureIds.push(capture.id);
  if (input.authorizationId)
    world.state.authorizations.get(input.authorizationId)?.captureIds.push(capture.id);
  return capture;
}

/** An optional string field of 1..max characters; a wrong type or length adds a 400 detail. */
export function optionalText(
  input: Record<string, unknown>,
  key: string,
  pointer: string,
  max: number,
  details: ErrorDetail[],
): string | undefined {
  const value = input[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    details.push(detail('INVALID_PARAMETER_SYNTAX', { field: pointer }));
    return undefined;
  }
  if (value.length < 1 || value.length > max) {
    details.push(detail('INVALID_STRING_LENGTH', { field: pointer, value }));
    return undefined;
  }
  return value;
}

function asObject(body: unknown): Record<string, unknown> | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

/**
 * `POST /v2/payments/captures/{id}/refund` (§4.1): no `amount` refunds what is left; amounts add
 * up in `total_refunded_amount`; the capture turns PARTIALLY_REFUNDED or REFUNDED. An amount over
 * the remainder is refused, never trimmed.
 */
export function refundCapture(
  world: FixtureWorld,
  accountId: string,
  captureId: string,
  body: unknown,
): { ok: true; refund: RefundRecord } | ApiFailure {
  const capture = ownRecord(world.state.captures, captureId, accountId);
  if (!capture) return notFound('capture_id', captureId);
  const request = asObject(body);
  if (!request) return fail(detail('MALFORMED_REQUEST_JSON'));
  const syntax: ErrorDetail[] = [];
  const invoiceId = optionalText(request, 'invoice_id', '/invoice_id', 127, syntax);
  const customId = optionalText(request, 'custom_id', '/custom_id', 127, syntax);
  const noteToPayer = optionalText(request, 'note_to_payer', '/note_to_payer', 255, syntax);
  const parsed = request.amount === undefined ? undefined : parseMoney(request.amount, '/amount', 'positive');
  if (parsed && !parsed.ok) syntax.push(...parsed.details);
  if (syntax.length > 0) return fail(...syntax);

  if (capture.status === 'PENDING') return fail(detail('PENDING_CAPTURE'));
  if (capture.status === 'DECLINED' || capture.status === 'FAILED') {
    return fail(
      detail('REFUND_NOT_ALLOWED', { description: `A ${capture.status} capture cannot be refunded.` }),
    );
  }
  const refunded = refundedMinor(world, capture);
  const remaining = capture.amount.minor - refunded;
  if (capture.status === 'REFUNDED' || remaining <= 0n) return fail(detail('CAPTURE_FULLY_REFUNDED'));
  const amount = parsed?.ok ? parsed.money : money(capture.amount.currency, remaining);
  if (amount.currency !== capture.amount.currency) {
    return fail(
      detail('REFUND_CAPTURE_CURRENCY_MISMATCH', { field: '/amount/currency_code', value: amount.currency }),
    );
  }
  if (amount.minor > remaining) {
    return fail(
      detail('REFUND_AMOUNT_EXCEEDED', { field: '/amount/value', value: formatMoney(amount).value }),
    );
  }
  if (invoiceId !== undefined && world.accountOf(accountId).blocksDuplicateInvoiceIds) {
    const taken = [...world.state.refunds.values()].some(
      (refund) => refund.accountId === accountId && refund.invoiceId === invoiceId,
    );
    if (taken) {
      return fail(
        detail('DUPLICATE_INVOICE_ID', {
          field: '/invoice_id',
          value: invoiceId,
          description: 'Invoice ID was previously used to refund a capture.',
        }),
      );
    }
  }

  const now = world.now();
  const refund: RefundRecord = {
    id: newResourceId(),
    accountId,
    captureId,
    amount,
    status: 'COMPLETED',
    ...(invoiceId === undefined ? {} : { invoiceId }),
    ...(customId === undefined ? {} : { customId }),
    ...(noteToPayer === undefined ? {} : { noteToPayer }),
    totalRefunded: money(amount.currency, refunded + amount.minor),
    createTime: now,
    updateTime: now,
  };
  world.state.refunds.set(refund.id, refund);
  capture.refundIds.push(refund.id);
  capture.status = refunded + amount.minor === capture.amount.minor ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  capture.updateTime = now;
  return { ok: true, refund };
}

/** Captured so far from an authorization, declined captures excluded. */
function capturedMinor(world: FixtureWorld, authorization: AuthorizationRecord): bigint {
  let total = 0n;
  for (const id of authorization.captureIds) {
    const capture = world.state.captures.get(id);
    if (capture && capture.status !== 'DECLINED' && capture.status !== 'FAILED')
      total += capture.amount.minor;
  }
  return total;
}

/**
 * `POST /v2/payments/authorizations/{id}/capture` (§4.4): no `amount` captures what is left of the
 * authorization; captures may add up to 115 %; `final_capture` closes the authorization.
 */
export function captureAuthorization(
  world: FixtureWorld,
  accountId: string,
  authorizationId: string,
  body: unknown,
  outcome: CaptureOutcome,
): { ok: true; capture: CaptureRecord } | ApiFailure {
  const authorization = ownRecord(world.state.authorizations, authorizationId, accountId);
  if (!authorization) return notFound('authorization_id', authorizationId);
  const request = asObject(body ?? {});
  if (!request) return fail(detail('MALFORMED_REQUEST_JSON'));
  const syntax: ErrorDetail[] = [];
  const invoiceId = optionalText(request, 'invoice_id', '/invoice_id', 127, syntax);
  const noteToPayer = optionalText(request, 'note_to_payer', '/note_to_payer', 255, syntax);
  const finalCapture = request.final_capture ?? false;
  if (typeof finalCapture !== 'boolean')
    syntax.push(detail('INVALID_PARAMETER_SYNTAX', { field: '/final_capture' }));
  const parsed = request.amount === undefined ? undefined : parseMoney(request.amount, '/amount', 'positive');
  if (parsed && !parsed.ok) syntax.push(...parsed.details);
  if (syntax.length > 0) return fail(...syntax);

  if (authorization.status === 'VOIDED') return fail(detail('AUTHORIZATION_VOIDED'));
  if (authorization.status === 'CAPTURED') return fail(detail('AUTHORIZATION_ALREADY_CAPTURED'));
  if (authorization.status === 'DENIED') return fail(detail('AUTHORIZATION_DENIED'));
  if (world.now() >= authorization.expirationTime) return fail(detail('AUTHORIZATION_EXPIRED'));
  const captured = capturedMinor(world, authorization);
  const remaining = authorization.amount.minor - captured;
  const amount = parsed?.ok ? parsed.money : money(authorization.amount.currency, remaining);
  if (amount.currency !== authorization.amount.currency) {
    return fail(
      detail('AUTH_CAPTURE_CURRENCY_MISMATCH', { field: '/amount/currency_code', value: amount.currency }),
    );
  }
  if (amount.minor <= 0n) return fail(detail('AUTHORIZATION_ALREADY_CAPTURED'));
  if ((captured + amount.minor) * 100n > authorization.amount.minor * MAX_CAPTURE_PERCENT) {
    return fail(
      detail('MAX_CAPTURE_AMOUNT_EXCEEDED', { field: '/amount/value', value: formatMoney(amount).value }),
    );
  }
  const captureInvoiceId = invoiceId ?? authorization.invoiceId;
  const capture = recordCapture(world, {
    accountId,
    orderId: authorization.orderId,
    authorizationId: authorization.id,
    referenceId: authorization.referenceId,
    amount,
    outcome,
    ...(authorization.customId === undefined ? {} : { customId: authorization.customId }),
    ...(captureInvoiceId === undefined ? {} : { invoiceId: captureInvoiceId }),
    ...(noteToPayer === undefined ? {} : { noteToPayer }),
    finalCapture: finalCapture as boolean,
  });
  const isClosed = finalCapture === true || capturedMinor(world, authorization) >= authorization.amount.minor;
  authorization.status = isClosed ? 'CAPTURED' : 'PARTIALLY_CAPTURED';
  authorization.updateTime = world.now();
  return { ok: true, capture };
}

/** `POST /v2/payments/authorizations/{id}/void` (§4.4); a fully captured authorization cannot be voided. */
export function voidAuthorization(
  world: FixtureWorld,
  accountId: string,
  authorizationId: string,
): { ok: true; authorization: AuthorizationRecord } | ApiFailure {
  const authorization = ownRecord(world.state.authorizations, authorizationId, accountId);
  if (!authorization) return notFound('authorization_id', authorizationId);
  if (authorization.status === 'VOIDED') return fail(detail('PREVIOUSLY_VOIDED'));
  if (authorization.status === 'CAPTURED') return fail(detail('PREVIOUSLY_CAPTURED'));
  if (authorization.status === 'DENIED') {
    return fail(detail('CANNOT_BE_VOIDED', { description: 'A denied authorization cannot be voided.' }));
  }
  authorization.status = 'VOIDED';
  authorization.updateTime = world.now();
  const order = world.state.orders.get(authorization.orderId);
  const isOrderVoided = order?.authorizationIds.every(
    (id) => world.state.authorizations.get(id)?.status === 'VOIDED',
  );
  if (order && isOrderVoided && order.captureIds.length === 0) {
    // §2.2: VOIDED = all purchase units voided.
    order.status = 'VOIDED';
    order.updateTime = world.now();
  }
  return { ok: true, authorization };
}

/** Records an authorization for an approved AUTHORIZE order (§2.5). */
export function recordAuthorization(
  world: FixtureWorld,
  input: {
    accountId: string;
    orderId: string;
    referenceId: string;
    amount: Money;
    outcome: CaptureOutcome;
    customId?: string;
    invoiceId?: string;
  },
): AuthorizationRecord {
  const now = world.now();
  const authorization: AuthorizationRecord = {
    id: newResourceId(),
    accountId: input.accountId,
    orderId: input.orderId,
    referenceId: input.referenceId,
    amount: input.amount,
    status: input.outcome === 'DECLINED' ? 'DENIED' : 'CREATED',
    ...(input.customId === undefined ? {} : { customId: input.customId }),
    ...(input.invoiceId === undefined ? {} : { invoiceId: input.invoiceId }),
    createTime: now,
    updateTime: now,
    expirationTime: now + AUTHORIZATION_LIFETIME_MS,
    captureIds: [],
  };
  world.state.authorizations.set(authorization.id, authorization);
  world.state.orders.get(input.orderId)?.authorizationIds.push(authorization.id);
  return authorization;
}

/** Test hook: a PENDING capture clears or fails later, as PayPal's review would (§2.4, §10.7). */
export function settleCapture(
  world: FixtureWorld,
  captureId: string,
  status: Extract<CaptureStatus, 'COMPLETED' | 'DECLINED' | 'FAILED'>,
): CaptureRecord {
  const capture = world.state.captures.get(captureId);
  if (!capture) throw new Error(`unknown capture ${captureId}`);
  if (capture.status !== 'PENDING') throw new Error(`capture ${captureId} is ${capture.status}, not PENDING`);
  capture.status = status;
  delete capture.statusReason;
  capture.updateTime = world.now();
  return capture;
}
