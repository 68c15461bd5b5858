import { ATTEMPT_STATUSES } from '@cartwright/payment-ledger';
import { findOrder } from '@cartwright/repository';
import * as v from 'valibot';
import { contextRequired, resolveStoreContext } from '../customers/contexts.ts';
import { fail, ok } from '../kernel/errors.ts';
import { defineOperation, defineStoreOperation } from '../kernel/registry.ts';
import { Amount, Count, Limit, Timestamp, Uuid } from '../kernel/schemas.ts';
import {
  buyerPayment,
  listShopPayments,
  orderPaymentLedger,
  reconcileOrderPayments,
  requestOrderRefund,
} from './ledger.ts';

const Balance = v.object({
  captured: v.number(),
  confirmed: v.number(),
  pending: v.number(),
  remaining: v.number(),
});

const Attempt = v.object({
  id: Uuid,
  status: v.string(),
  provider: v.string(),
  environment: v.picklist(['sandbox', 'live']),
  contractFixture: v.boolean(),
  adapterVersion: v.number(),
  amount: v.number(),
  currency: v.string(),
  precision: v.number(),
  providerOrderId: v.nullable(v.string()),
  approvalUrl: v.nullable(v.string()),
  capture: v.nullable(v.object({ id: v.string(), status: v.string(), amount: v.nullable(v.number()) })),
  paid: v.boolean(),
  stockReleased: v.boolean(),
  review: v.nullable(
    v.object({ reason: v.string(), mismatches: v.array(v.record(v.string(), v.unknown())) }),
  ),
  failure: v.nullable(v.string()),
  refunds: v.array(
    v.object({
      id: v.string(),
      amount: v.number(),
      status: v.string(),
      providerRefundId: v.nullable(v.string()),
      origin: v.string(),
      kind: v.string(),
      failure: v.nullable(v.string()),
    }),
  ),
  balance: v.nullable(Balance),
  jobs: v.array(
    v.object({
      id: Uuid,
      kind: v.string(),
      status: v.string(),
      tries: v.number(),
      error: v.nullable(v.object({ code: v.string(), message: v.string() })),
      createdAt: Timestamp,
    }),
  ),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const listPayments = defineOperation({
  name: 'payments.list',
  summary:
    "The shop's provider payments that need a look (default: uncertain, in review, or pending at the provider), or those in `status`, most recently changed first, a page at a time, with the shop's counts of uncertain and failed payment jobs.",
  http: { method: 'GET', path: '/api/payments' },
  permission: 'orders.read',
  readOnly: true,
  input: v.object({
    status: v.optional(v.picklist(ATTEMPT_STATUSES)),
    limit: Limit,
    before: v.optional(v.pipe(v.string(), v.maxLength(200))),
  }),
  output: v.object({
    items: v.array(v.object({ orderId: Uuid, ...Attempt.entries })),
    next: v.nullable(v.string()),
    unresolved: v.object({ uncertain: Count, failed: Count }),
  }),
  handler: ({ services, tenantId }, input) =>
    listShopPayments(services.database.db, tenantId, {
      ...(input.status ? { statuses: [input.status] } : {}),
      limit: input.limit,
      ...(input.before ? { before: input.before } : {}),
    }),
});

const getPayments = defineOperation({
  name: 'orders.payments.get',
  summary:
    "An order's payment ledger: each provider attempt with its status, provider ids, capture, refunds, remaining balance and recent jobs (never a secret), and the shop's count of uncertain and failed payment jobs.",
  http: { method: 'GET', path: '/api/orders/:orderId/payments' },
  permission: 'orders.read',
  readOnly: true,
  input: v.object({ orderId: Uuid }),
  output: v.object({
    orderId: Uuid,
    paymentState: v.string(),
    attempts: v.array(Attempt),
    unresolved: v.object({ uncertain: Count, failed: Count }),
  }),
  handler: ({ services, tenantId }, input) =>
    orderPaymentLedger(services.database.db, tenantId, input.orderId),
});

const reconcilePayments = defineOperation({
  name: 'orders.payments.reconcile',
  summary:
    "Asks the payment-worker to read the provider's state of every open attempt of the order now and apply it (the same decisions as any provider answer).",
  http: { method: 'POST', path: '/api/orders/:orderId/payments/reconcile' },
  permission: 'orders.write',
  readOnly: false,
  input: v.object({ orderId: Uuid }),
  output: v.object({ orderId: Uuid, queued: Count }),
  handler: ({ services, tenantId }, input) => reconcileOrderPayments(services, tenantId, input.orderId),
});

const refundPayment = defineOperation({
  name: 'orders.payments.refund',
  summary:
    "Refunds part or all of the order's captured payment: the amount (minor units) is reserved against the remaining captured balance at once, then sent by the payment-worker. Send an Idempotency-Key (scoped to the order): a replay answers the same refund; an amount past the balance is refused (REFUND_EXCEEDS_BALANCE).",
  http: {
    method: 'POST',
    path: '/api/orders/:orderId/payments/refunds',
    status: 201,
    headers: { 'idempotency-key': 'idempotencyKey' },
  },
  permission: 'orders.write',
  readOnly: false,
  input: v.object({
    orderId: Uuid,
    amount: v.pipe(Amount, v.minValue(1, 'Expected at least 1 (minor units).')),
    idempotencyKey: v.pipe(v.string(), v.minLength(8), v.maxLength(200)),
  }),
  output: v.object({
    orderId: Uuid,
    attemptId: Uuid,
    refund: v.object({ id: v.string(), amount: v.number(), status: v.string() }),
    replayed: v.boolean(),
    balance: Balance,
  }),
  handler: ({ services, tenantId }, input) =>
    requestOrderRefund(services, tenantId, input.orderId, {
      amount: input.amount,
      idempotencyKey: input.idempotencyKey,
    }),
});

const storePayment = defineStoreOperation({
  name: 'store.orders.payment',
  summary:
    "The payment of one of the visitor's orders: its payment state and, while the provider waits for the buyer, the link to approve it. Returning from the provider only asks for a capture; the state moves when the provider confirms it.",
  http: { method: 'GET', path: '/store-api/orders/:orderId/payment' },
  readOnly: true,
  input: v.object({ orderId: Uuid }),
  output: v.object({
    orderId: Uuid,
    paymentState: v.string(),
    attempt: v.nullable(
      v.object({
        attemptId: Uuid,
        status: v.string(),
        approvalUrl: v.nullable(v.string()),
        amount: v.number(),
        currency: v.string(),
      }),
    ),
  }),
  async handler({ services, storefront, tenantId }, input) {
    const db = services.database.db;
    const context = await resolveStoreContext(db, services, storefront);
    if (!context) return contextRequired();
    const order = await findOrder(db, tenantId, input.orderId);
    if (!order || order.customerId === null || order.customerId !== context.customerId) {
      return fail('NOT_FOUND', 'No such order of yours exists.');
    }
    return ok({
      orderId: order.id,
      paymentState: order.paymentState,
      attempt: await buyerPayment(db, tenantId, order.id),
    });
  },
});

/** The payment operations, in the order the OpenAPI document lists them. */
export const paymentOperations = [listPayments, getPayments, reconcilePayments, refundPayment, storePayment];
