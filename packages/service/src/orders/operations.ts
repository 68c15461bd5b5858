import { MachineName } from '@cartwright/commerce';
import {
  findOrder,
  listOrderActivities,
  listOrders,
  listStockReservations,
  type OrderActivityRow,
  type OrderRow,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { defineOperation } from '../kernel/registry.ts';
import { INT64_SAFE, IntegerIn, iso, Limit, Revision, Timestamp, Uuid } from '../kernel/schemas.ts';
import { addOrderActivityNote, OrderTags, updateOrder } from './changes.ts';
import { transitionOrder } from './transitions.ts';

const Order = v.object({
  id: Uuid,
  number: v.number(),
  channelId: Uuid,
  customerId: v.nullable(Uuid),
  currency: v.string(),
  language: v.string(),
  state: v.string(),
  paymentState: v.string(),
  deliveryState: v.string(),
  price: v.record(v.string(), v.unknown()),
  lines: v.array(v.record(v.string(), v.unknown())),
  customer: v.record(v.string(), v.unknown()),
  billingAddress: v.record(v.string(), v.unknown()),
  shippingAddress: v.record(v.string(), v.unknown()),
  shippingMethod: v.record(v.string(), v.unknown()),
  paymentMethod: v.record(v.string(), v.unknown()),
  settingsSnapshot: v.record(v.string(), v.unknown()),
  tags: v.array(v.string()),
  customFields: v.record(v.string(), v.unknown()),
  affiliateCode: v.nullable(v.string()),
  campaignCode: v.nullable(v.string()),
  ruleMetadata: v.record(v.string(), v.unknown()),
  revision: v.number(),
  placedAt: Timestamp,
  updatedAt: Timestamp,
});

const Activity = v.object({
  id: Uuid,
  kind: v.string(),
  author: v.record(v.string(), v.unknown()),
  text: v.nullable(v.string()),
  data: v.record(v.string(), v.unknown()),
  createdAt: Timestamp,
});

/** The staff view of an order (idempotency bookkeeping stays internal). */
export function orderView(row: OrderRow): v.InferOutput<typeof Order> {
  const {
    tenantId: _,
    cartId: __,
    idempotencyKey: ___,
    idempotencyFingerprint: ____,
    createdAt: _____,
    ...rest
  } = row;
  return {
    ...rest,
    billingAddress: { ...rest.billingAddress },
    shippingAddress: { ...rest.shippingAddress },
    placedAt: iso(row.placedAt),
    updatedAt: iso(row.updatedAt),
  };
}

function activityView(row: OrderActivityRow): v.InferOutput<typeof Activity> {
  return {
    id: row.id,
    kind: row.kind,
    author: row.author,
    text: row.text,
    data: row.data,
    createdAt: iso(row.createdAt),
  };
}

/** A state filter (`open`, `paid`, …); an unknown one matches nothing. */
const StateName = v.pipe(v.string(), v.maxLength(50));

export const listShopOrders = defineOperation({
  name: 'orders.list',
  summary: 'Orders of the shop, newest first; page with `before` (the last number seen).',
  http: { method: 'GET', path: '/api/orders' },
  permission: 'orders.read',
  readOnly: true,
  input: v.object({
    limit: Limit,
    /** An order number (a `bigint` column). */
    before: v.optional(IntegerIn(1, INT64_SAFE.max, 'an order number')),
    state: v.optional(StateName),
    paymentState: v.optional(StateName),
    deliveryState: v.optional(StateName),
    customerId: v.optional(Uuid),
    tag: v.optional(v.pipe(v.string(), v.maxLength(100))),
  }),
  output: v.object({ items: v.array(Order), next: v.nullable(v.number()) }),
  async handler({ services, tenantId }, input) {
    const rows = await listOrders(services.database.db, tenantId, {
      ...input,
      limit: input.limit + 1,
      beforeNumber: input.before,
    });
    const page = rows.slice(0, input.limit);
    return ok({ items: page.map(orderView), next: rows.length > input.limit ? page.at(-1)!.number : null });
  },
});

export const getShopOrder = defineOperation({
  name: 'orders.get',
  summary: 'One order with its activity timeline and stock reservations.',
  http: { method: 'GET', path: '/api/orders/:orderId' },
  permission: 'orders.read',
  readOnly: true,
  input: v.object({ orderId: Uuid }),
  output: v.object({
    order: Order,
    activities: v.array(Activity),
    reservations: v.array(
      v.object({ productId: Uuid, sku: v.string(), quantity: v.number(), status: v.string() }),
    ),
  }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const order = await findOrder(db, tenantId, input.orderId);
    if (!order) return fail('NOT_FOUND', 'No order with this id exists in this shop.');
    const [activities, reservations] = await Promise.all([
      listOrderActivities(db, tenantId, order.id),
      listStockReservations(db, tenantId, order.id),
    ]);
    return ok({
      order: orderView(order),
      activities: activities.map(activityView),
      reservations: reservations.map(({ productId, sku, quantity, status }) => ({
        productId,
        sku,
        quantity,
        status,
      })),
    });
  },
});

export const transitionShopOrder = defineOperation({
  name: 'orders.transition',
  summary:
    'Moves the order, payment or delivery state (revision-bound; every guard applies; cancel releases stock once).',
  http: { method: 'POST', path: '/api/orders/:orderId/transitions' },
  permission: 'orders.write',
  readOnly: false,
  input: v.object({
    orderId: Uuid,
    machine: MachineName,
    to: v.pipe(v.string(), v.maxLength(40)),
    revision: Revision,
  }),
  output: Order,
  async handler({ services, tenantId, principal }, input) {
    const moved = await services.database.transaction((tx) =>
      transitionOrder(tx, services, tenantId, input.orderId, {
        machine: input.machine,
        to: input.to,
        revision: input.revision,
        source: 'merchant',
        actor: actorOf(principal),
      }),
    );
    return moved.ok ? ok(orderView(moved.value)) : moved;
  },
});

const Code = v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)));
export const updateShopOrder = defineOperation({
  name: 'orders.update',
  summary: 'Sets an order’s tags, custom fields, affiliate and campaign codes (revision-bound).',
  http: { method: 'PATCH', path: '/api/orders/:orderId' },
  permission: 'orders.write',
  readOnly: false,
  input: v.object({
    orderId: Uuid,
    revision: Revision,
    tags: v.optional(OrderTags),
    customFields: v.optional(v.record(v.pipe(v.string(), v.maxLength(100)), v.unknown())),
    affiliateCode: v.optional(Code),
    campaignCode: v.optional(Code),
  }),
  output: Order,
  async handler({ services, tenantId, principal }, input) {
    const { orderId, revision, ...changes } = input;
    const updated = await services.database.transaction((tx) =>
      updateOrder(tx, services, tenantId, actorOf(principal), orderId, revision, changes),
    );
    return updated.ok ? ok(orderView(updated.value)) : updated;
  },
});

export const addOrderNote = defineOperation({
  name: 'orders.notes.add',
  summary: 'Adds a note to the order’s activity timeline, with its author and time.',
  http: { method: 'POST', path: '/api/orders/:orderId/notes', status: 201 },
  permission: 'orders.write',
  readOnly: false,
  input: v.object({ orderId: Uuid, text: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(5000)) }),
  output: Activity,
  async handler({ services, tenantId, principal }, input) {
    const added = await services.database.transaction((tx) =>
      addOrderActivityNote(tx, services, tenantId, actorOf(principal), input.orderId, { text: input.text }),
    );
    return added.ok ? ok(activityView(added.value)) : added;
  },
});
