import { type Executor, findProducts } from '@cartwright/repository';
import { type FieldError, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';
import { addBasket } from './evidence.ts';

// Evidence that did not come from orders (decision 0045): `simulated` baskets for demonstrations
// and sandboxes, and `manual` baskets a merchant enters. Each call is one outbox event
// (`intelligence.evidence.added`) whose id every pair of the call remembers as its source event.
// The counts go to their own source only; simulated counts never reach observed ones.

export const SIMULATION_BASKET_LIMIT = 200;

export interface EvidenceBaskets {
  readonly source: 'simulated' | 'manual';
  /** Product ids (a variant counts as its main product). */
  readonly baskets: readonly (readonly string[])[];
}

export interface AddedEvidence {
  readonly eventId: string;
  readonly source: 'simulated' | 'manual';
  readonly baskets: number;
}

/** Adds labelled baskets to the shop's evidence in `tx`; an unknown product refuses the whole call. */
export async function addLabelledEvidence(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  input: EvidenceBaskets,
): Promise<Result<AddedEvidence>> {
  const ids = [...new Set(input.baskets.flat())];
  const products = new Map((await findProducts(tx, tenantId, ids)).map((row) => [row.id, row]));
  const errors: FieldError[] = [];
  input.baskets.forEach((basket, i) => {
    basket.forEach((id, j) => {
      if (!products.has(id))
        errors.push({ pointer: `/baskets/${i}/${j}`, message: 'no such product in this shop' });
    });
  });
  if (errors.length > 0)
    return fail('VALIDATION_FAILED', 'Every basket names products of this shop.', { errors });
  const eventId = services.ids.next();
  await recordEvent(
    tx,
    services,
    tenantId,
    actor,
    'intelligence.evidence.added',
    { source: input.source, baskets: input.baskets.length },
    eventId,
  );
  for (const basket of input.baskets) {
    const main = basket.map((id) => products.get(id)!.parentId ?? id);
    await addBasket(tx, services, tenantId, main, input.source, eventId);
  }
  return ok({ eventId, source: input.source, baskets: input.baskets.length });
}
