import { appendEvents, type Executor } from '@cartwright/repository';
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

/** Appends one domain event to the outbox in the caller's transaction. */
export async function recordEvent(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  name: string,
  payload: Record<string, unknown>,
): Promise<void> {
  await appendEvents(tx, tenantId, [
    { id: services.ids.next(), name, payload, actor, occurredAt: services.clock.now() },
  ]);
}
