import * as v from 'valibot';
import { contextRequired, resolveStoreContext } from '../customers/contexts.ts';
import { ok } from '../kernel/errors.ts';
import { defineStoreOperation } from '../kernel/registry.ts';
import { Timestamp, Uuid } from '../kernel/schemas.ts';
import { checkout } from './checkout.ts';

export const StoreOrder = v.object({
  id: Uuid,
  number: v.number(),
  state: v.string(),
  paymentState: v.string(),
  deliveryState: v.string(),
  currency: v.string(),
  price: v.record(v.string(), v.unknown()),
  lines: v.array(v.record(v.string(), v.unknown())),
  placedAt: Timestamp,
});

export const placeCheckout = defineStoreOperation({
  name: 'store.checkout',
  summary:
    'Places the cart as an order (one transaction: stock reserved, gapless number, order.placed). Send an Idempotency-Key to make retries safe.',
  http: {
    method: 'POST',
    path: '/store-api/checkout',
    status: 201,
    headers: { 'idempotency-key': 'idempotencyKey' },
  },
  readOnly: false,
  input: v.object({ idempotencyKey: v.optional(v.pipe(v.string(), v.minLength(8), v.maxLength(200))) }),
  output: StoreOrder,
  async handler({ services, storefront, tenantId }, input) {
    const context = await resolveStoreContext(services.database.db, services, storefront);
    if (!context) return contextRequired();
    const placed = await checkout(services, tenantId, context, input.idempotencyKey);
    if (!placed.ok) return placed;
    const order = placed.value;
    return ok({
      id: order.id,
      number: order.number,
      state: order.state,
      paymentState: order.paymentState,
      deliveryState: order.deliveryState,
      currency: order.currency,
      price: order.price,
      lines: order.lines,
      placedAt: order.placedAt.toISOString(),
    });
  },
});
