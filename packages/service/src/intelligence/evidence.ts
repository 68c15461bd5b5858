import {
  basketEvidence,
  type EvidenceSource,
  orderSource,
  SOURCE_EVENT_LIMIT,
} from '@cartwright/intelligence';
import {
  addBasketEvidence,
  claimEvidenceOrder,
  type Executor,
  findOrder,
  findTenant,
  listPaymentAttempts,
  type OrderRow,
} from '@cartwright/repository';
import * as v from 'valibot';
import type { Services } from '../kernel/services.ts';
import type { Projection } from '../outbox/projections.ts';

// Pair evidence from the outbox (decision 0045). The contract this projection reads:
//
//   order.placed      { orderId, … }  an order without payment attempts (invoice, cash on
//                     delivery, prepayment: no provider confirms anything) counts now; an order
//                     with an attempt (PayPal, an app's payment method) waits for its capture.
//   payment.captured  { orderId, … }  the provider confirmed the money: the order counts now.
//
// Either way the order counts once (`intelligence_orders`), and the outbox receipts make each event
// apply once, so replaying the outbox adds nothing. The order's lines are read from the order
// row (the event names only the order). A variant counts as its main product, so a pair is two
// products a shopper would see, never two sizes of one shirt. A live shop's orders are `observed`,
// a sandbox shop's are `sandbox`.

const OrderEvent = v.object({ orderId: v.pipe(v.string(), v.uuid()) });
const OrderLine = v.object({ productId: v.pipe(v.string(), v.uuid()), parentId: v.nullish(v.string()) });

/** The main products of an order's lines (with repeats; `basketEvidence` takes each once). */
export function orderProductIds(order: OrderRow): string[] {
  const ids: string[] = [];
  for (const line of order.lines) {
    const parsed = v.safeParse(OrderLine, line);
    if (parsed.success) ids.push(parsed.output.parentId ?? parsed.output.productId);
  }
  return ids;
}

/** Adds one basket under `source`, remembering `eventId` on each of its pairs. */
export async function addBasket(
  tx: Executor,
  services: Services,
  tenantId: string,
  productIds: readonly string[],
  source: EvidenceSource,
  eventId: string,
): Promise<void> {
  const evidence = basketEvidence(productIds, source);
  await addBasketEvidence(tx, tenantId, {
    source,
    products: evidence.products,
    pairs: evidence.pairs.map((pair) => ({ ...pair, newId: services.ids.next() })),
    sourceEvent: { id: eventId, source },
    sourceEventLimit: SOURCE_EVENT_LIMIT,
    at: services.clock.now(),
  });
}

/** Counts the order once, as evidence of `eventId`; an order already counted adds nothing. */
async function countOrder(
  tx: Executor,
  services: Services,
  tenantId: string,
  order: OrderRow,
  source: EvidenceSource,
  eventId: string,
): Promise<void> {
  if (!(await claimEvidenceOrder(tx, tenantId, { orderId: order.id, eventId, source }))) return;
  await addBasket(tx, services, tenantId, orderProductIds(order), source, eventId);
}

/** Turns placed orders (after capture, when a provider takes the money) into pair evidence. */
export const intelligenceEvidenceProjection: Projection = {
  name: 'intelligence-evidence',
  role: 'memory-worker',
  async apply(tx, services, tenantId, events) {
    let source: EvidenceSource | undefined;
    for (const event of events) {
      if (event.name !== 'order.placed' && event.name !== 'payment.captured') continue;
      const parsed = v.safeParse(OrderEvent, event.payload);
      // A malformed event can never become valid: skipped, like the other projections do.
      if (!parsed.success) continue;
      const order = await findOrder(tx, tenantId, parsed.output.orderId);
      if (!order) continue;
      if (event.name === 'order.placed' && (await listPaymentAttempts(tx, tenantId, order.id)).length > 0) {
        continue;
      }
      source ??= orderSource((await findTenant(tx, tenantId))?.stage ?? 'live');
      await countOrder(tx, services, tenantId, order, source, event.id);
    }
  },
};
