import { addOrderToCustomerHistory, addReviewToCustomerHistory } from '@cartwright/repository';
import * as v from 'valibot';
import type { Projection } from './projections.ts';

// The contract this projection reads. Producers of these events must keep to it:
//
//   order.placed     { orderId, number, customerId, currency, totalGross, placedAt }
//                    customerId: the customer's id, or null for an order without a customer
//                    (skipped); currency: ISO 4217; totalGross: the order total in minor units (an
//                    integer); placedAt: ISO 8601 timestamp.
//   review.approved  { reviewId, productId, customerId }
//                    recorded once per review (catalog.reviews.moderate, pending → approved);
//                    only customerId is read.
//
// An event whose payload does not match is skipped rather than retried forever: a malformed event
// can never become valid, and stalling would hold back every later event of the shop.

const OrderPlaced = v.object({
  orderId: v.string(),
  number: v.number(),
  customerId: v.nullable(v.pipe(v.string(), v.uuid())),
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  totalGross: v.pipe(v.number(), v.safeInteger()),
  placedAt: v.pipe(v.string(), v.isoTimestamp()),
});

const ReviewApproved = v.object({ customerId: v.pipe(v.string(), v.uuid()) });

/**
 * Keeps `customer_history` (order count, total spent per currency, last order, review count) from
 * `order.placed` and `review.approved`; every other event is ignored. Receipts make it exact once.
 */
export const customerHistoryProjection: Projection = {
  name: 'customer-history',
  role: 'memory-worker',
  async apply(tx, _services, tenantId, events) {
    for (const event of events) {
      if (event.name === 'order.placed') {
        const order = v.safeParse(OrderPlaced, event.payload);
        if (!order.success || !order.output.customerId) continue;
        await addOrderToCustomerHistory(tx, tenantId, {
          customerId: order.output.customerId,
          currency: order.output.currency,
          totalGross: order.output.totalGross,
          placedAt: new Date(order.output.placedAt),
        });
      } else if (event.name === 'review.approved') {
        const review = v.safeParse(ReviewApproved, event.payload);
        if (review.success) await addReviewToCustomerHistory(tx, tenantId, review.output.customerId);
      }
    }
  },
};
