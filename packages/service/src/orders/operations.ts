import { MachineName } from '@cartwright/commerce';
import {
  type Executor,
  findOrder,
  insertOrderActivity,
  listOrderActivities,
  listOrders,
  listStockReservations,
  type OrderActivityRow,
  type OrderRow,
  updateOrderAtRevision,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../auth.ts';
import { fail, ok, type Result } from '../errors.ts';
import { type Actor, recordEvent } from '../events.ts';
import { transitionOrder } from '../orders/transitions.ts';
import { defineOperation } from '../registry.ts';
import { iso, Revision, Timestamp, Uuid } from '../schemas.ts';
import type { Services } from '../services.ts';

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

export const listShopOrders = defineOperation({
  name: 'orders.list',
  summary: 'Orders of the shop, newest first; page with `before` (the last number seen).',
  http: { method: 'GET', path: '/api/orders' },
  permission: 'orders.read',
  readOnly: true,
  input: v.object({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50),
    before: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    state: v.optional(v.string()),
    paymentState: v.optional(v.string()),
    deliveryState: v.optional(v.string()),
    customerId: v.optional(Uuid),
    tag: v.optional(v.string()),
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
/** The order tags `orders.update` accepts (each trimmed, 1 to 100 characters). */
export const OrderTags = v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)));

/** What `orders.update` may change on an order. */
export interface OrderChanges {
  readonly tags?: readonly string[] | undefined;
  readonly customFields?: Record<string, unknown> | undefined;
  readonly affiliateCode?: string | null | undefined;
  readonly campaignCode?: string | null | undefined;
}

/**
 * Sets an order's tags (de-duplicated), custom fields, affiliate and campaign codes in the caller's
 * transaction and records `order.updated`. `revision` binds the change to the revision the caller
 * read; flows, which act on the current order, omit it. The staff operation and the flow actions
 * on order metadata both call this.
 */
export async function updateOrder(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  orderId: string,
  revision: number | undefined,
  changes: OrderChanges,
): Promise<Result<OrderRow>> {
  const order = await findOrder(tx, tenantId, orderId, { forUpdate: true });
  if (!order) return fail('NOT_FOUND', 'No order with this id exists in this shop.');
  return updateLockedOrder(tx, services, tenantId, actor, order, revision, changes);
}

/**
 * `updateOrder` on an order the caller has already read locked (`FOR UPDATE`) in this
 * transaction: the same revision check, write and event, without reading the row again.
 */
export async function updateLockedOrder(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  order: OrderRow,
  revision: number | undefined,
  changes: OrderChanges,
): Promise<Result<OrderRow>> {
  const orderId = order.id;
  if (revision !== undefined && order.revision !== revision) {
    return fail('STALE_REVISION', `The order is at revision ${order.revision}, not ${revision}.`, {
      extensions: { expected: revision, actual: order.revision },
    });
  }
  const { tags, ...rest } = changes;
  const updated = await updateOrderAtRevision(
    tx,
    tenantId,
    orderId,
    order.revision,
    { ...rest, ...(tags ? { tags: [...new Set(tags)] } : {}) },
    services.clock.now(),
  );
  if (!updated) throw new Error('order row changed while locked');
  await recordEvent(tx, services, tenantId, actor, 'order.updated', {
    orderId,
    revision: updated.revision,
    fields: Object.keys(changes),
  });
  return ok(updated);
}

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
    customFields: v.optional(v.record(v.string(), v.unknown())),
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

/** Order activity entries written by hand or by a flow: a note, or a flow's proposal for review. */
export type WrittenActivityKind = 'note' | 'proposal';

const writtenActivityEvent: Record<WrittenActivityKind, string> = {
  note: 'order.note_added',
  proposal: 'order.proposal_added',
};

/**
 * Adds a note (or a flow's proposal) to the order's activity timeline in the caller's transaction,
 * with its author and time, and records `order.note_added` (`order.proposal_added`). `data` is
 * stored with the entry (flows keep their step key there). The staff operation and the flow
 * actions "note" and "ai_proposal" all call this.
 */
export async function addOrderActivityNote(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  orderId: string,
  entry: {
    readonly text: string;
    readonly kind?: WrittenActivityKind;
    readonly data?: Record<string, unknown>;
  },
): Promise<Result<OrderActivityRow>> {
  const order = await findOrder(tx, tenantId, orderId);
  if (!order) return fail('NOT_FOUND', 'No order with this id exists in this shop.');
  const kind = entry.kind ?? 'note';
  const activity = await insertOrderActivity(tx, {
    tenantId,
    id: services.ids.next(),
    orderId: order.id,
    kind,
    author: actor,
    text: entry.text,
    ...(entry.data ? { data: entry.data } : {}),
    createdAt: services.clock.now(),
  });
  await recordEvent(tx, services, tenantId, actor, writtenActivityEvent[kind], {
    orderId: order.id,
    activityId: activity.id,
  });
  return ok(activity);
}

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
