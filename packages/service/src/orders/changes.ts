import {
  type Executor,
  findOrder,
  insertOrderActivity,
  type OrderActivityRow,
  type OrderRow,
  updateOrderAtRevision,
} from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';

// Changes to a placed order that staff operations and flow actions share: metadata and activity notes.

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
