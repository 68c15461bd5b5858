import { appendEvents, type Executor, type NewOutboxEvent } from '@cartwright/repository';
import type { Services } from './services.ts';

export type Actor =
  | { readonly kind: 'token'; readonly tokenId: string; readonly userId: string | null }
  | { readonly kind: 'system'; readonly process: string }
  | { readonly kind: 'customer'; readonly customerId: string; readonly contextId: string }
  /** A flow's action step, acting for whoever last saved the flow (or the shop, for starters). */
  | {
      readonly kind: 'flow';
      readonly flowId: string;
      readonly jobId: string;
      readonly nodeId: string;
      readonly onBehalfOf:
        | { readonly kind: 'token'; readonly tokenId: string; readonly userId: string | null }
        | { readonly kind: 'system' };
    };

/** Events recorded in transactions that defer their appends (see collectingEvents), per shop. */
const collecting = new WeakMap<Executor, Map<string, NewOutboxEvent[]>>();

/**
 * Appends one domain event to the outbox in the caller's transaction (or, inside collectingEvents,
 * when that work is done, with every other event it recorded).
 */
export async function recordEvent(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  name: string,
  payload: Record<string, unknown>,
  /** The event's id, when the caller stores it beside the event too (a schedule's tick row). */
  id: string = services.ids.next(),
): Promise<void> {
  const event = { id, name, payload, actor, occurredAt: services.clock.now() };
  const pending = collecting.get(tx);
  if (!pending) {
    await appendEvents(tx, tenantId, [event]);
    return;
  }
  const own = pending.get(tenantId);
  if (own) own.push(event);
  else pending.set(tenantId, [event]);
}

/**
 * Runs `work` in `tx` with the events it records collected, then appends them in the order they
 * were recorded, one append per shop: a batch of many effects takes each shop's outbox counter
 * once, at its end, instead of once per event. If `work` throws, nothing is appended (its
 * transaction rolls back).
 */
export async function collectingEvents<T>(tx: Executor, work: () => Promise<T>): Promise<T> {
  if (collecting.has(tx)) return work();
  const pending = new Map<string, NewOutboxEvent[]>();
  collecting.set(tx, pending);
  let result: T;
  try {
    result = await work();
  } finally {
    collecting.delete(tx);
  }
  for (const [tenantId, events] of pending) await appendEvents(tx, tenantId, events);
  return result;
}
