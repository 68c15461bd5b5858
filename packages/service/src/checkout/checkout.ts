import { type OrderPlacedPayload, planStockReservations, snapshotOrder } from '@cartwright/commerce';
import {
  type Executor,
  findChannelForStaff,
  findOrderByIdempotencyKey,
  insertOrder,
  insertOrderActivity,
  isUniqueViolation,
  nextCounterValue,
  type OrderRow,
  type StoreContextRow,
  updateCart,
} from '@cartwright/repository';
import { collisionFailureOf, type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';
import { openProviderAttempt } from '../payments/attempts.ts';
import { providerKeyOf } from '../payments/providers.ts';
import { redeemPromotions } from '../promotions/redemptions.ts';
import { checkReadiness, type ReadyCart } from './readiness.ts';
import { reserveStock, StockShortfall } from './stock.ts';

export type { OrderPlacedPayload };

/**
 * Places the context's cart as an order in ONE transaction: checks it is ready, reserves stock
 * (all or nothing, products in id order), takes the next gapless order number, stores the order
 * with snapshots of lines, prices, promotions, taxes, addresses, methods and settings, records the
 * promotions it redeemed, marks the cart ordered and appends `order.placed`. With an idempotency key a retry answers the same order; the key
 * reused for another cart is refused. A deadlock that persists through the transaction runner's
 * retries answers `BUSY` (nothing was placed), never an exception.
 */
export async function checkout(
  services: Services,
  tenantId: string,
  context: StoreContextRow,
  idempotencyKey: string | undefined,
): Promise<Result<OrderRow>> {
  try {
    return await services.database.transaction((tx) =>
      placeOrder(tx, services, tenantId, context, idempotencyKey),
    );
  } catch (error) {
    if (error instanceof CheckoutRefused) return error.failure;
    if (error instanceof StockShortfall) {
      return fail('INSUFFICIENT_STOCK', `Not enough stock of ${error.sku}.`, {
        extensions: { sku: error.sku },
      });
    }
    if (idempotencyKey && isUniqueViolation(error)) {
      // A concurrent retry with the same key committed first: answer its order.
      const placed = await findOrderByIdempotencyKey(services.database.db, tenantId, idempotencyKey);
      if (placed) return ok(placed);
    }
    // Collisions that outlasted the runner's retries: checkout is also called outside the
    // registry's door (flows' tests, the benchmark), so it answers BUSY or CONFLICT itself.
    const collision = collisionFailureOf(error);
    if (collision) return collision;
    throw error;
  }
}

async function placeOrder(
  tx: Executor,
  services: Services,
  tenantId: string,
  context: StoreContextRow,
  idempotencyKey: string | undefined,
): Promise<Result<OrderRow>> {
  if (idempotencyKey) {
    const placed = await findOrderByIdempotencyKey(tx, tenantId, idempotencyKey);
    if (placed) {
      // The key belongs to the visitor context that first used it.
      return placed.idempotencyFingerprint === context.id
        ? ok(placed)
        : fail('CONFLICT', 'This Idempotency-Key was already used for another checkout.');
    }
  }
  const ready = await checkReadiness(tx, services, tenantId, context);
  if (!ready.ok) return ready;
  // Stock first: a shortfall aborts before the order number is taken.
  const orderId = services.ids.next();
  const reservations = planStockReservations(ready.value.priced.lines);
  await reserveStock(tx, services, tenantId, orderId, reservations);
  const order = await insertPlacedOrder(
    tx,
    services,
    tenantId,
    context,
    orderId,
    ready.value,
    idempotencyKey,
  );
  // Redemptions commit with the order (a code's last redemption goes to one order only).
  const unredeemable = await redeemPromotions(
    tx,
    services,
    tenantId,
    orderId,
    ready.value.pricing.promotions,
  );
  if (unredeemable) throw new CheckoutRefused(unredeemable);
  const provider = providerKeyOf(ready.value.paymentMethod);
  if (provider) {
    // The immutable attempt and its create job commit with the order (or not at all).
    const refused = await openProviderAttempt(tx, services, tenantId, order, reservations, provider);
    if (refused) throw new CheckoutRefused(refused);
  }
  return ok(order);
}

/** Thrown inside the checkout transaction to roll the order back; `checkout` answers the failure. */
class CheckoutRefused extends Error {
  constructor(readonly failure: Failure) {
    super(failure.detail);
  }
}

/** Stores the order of a ready cart with its snapshots, closes the cart, and records `order.placed`. */
async function insertPlacedOrder(
  tx: Executor,
  services: Services,
  tenantId: string,
  context: StoreContextRow,
  orderId: string,
  ready: ReadyCart,
  idempotencyKey: string | undefined,
): Promise<OrderRow> {
  const { cart, customer, pricing, priced } = ready;
  const number = await nextCounterValue(tx, tenantId, 'order');
  const now = services.clock.now();
  const channel = await findChannelForStaff(tx, tenantId, cart.channelId);
  const { placed, ...snapshot } = snapshotOrder({
    orderId,
    number,
    placedAt: now,
    priced,
    lineNames: pricing.lines,
    products: pricing.products,
    taxRates: pricing.taxRates,
    settings: pricing.settings,
    promotions: pricing.promotions,
    customer,
    shippingMethod: ready.shippingMethod,
    paymentMethod: ready.paymentMethod,
    channel: channel ?? null,
  });
  const order = await insertOrder(tx, {
    tenantId,
    id: orderId,
    number,
    channelId: cart.channelId,
    customerId: customer.id,
    cartId: cart.id,
    currency: cart.currency,
    language: cart.language,
    ...snapshot,
    billingAddress: cart.billingAddress!,
    shippingAddress: cart.shippingAddress!,
    affiliateCode: customer.affiliateCode,
    campaignCode: customer.campaignCode,
    idempotencyKey: idempotencyKey ?? null,
    idempotencyFingerprint: idempotencyKey ? context.id : null,
    placedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  await updateCart(tx, tenantId, cart.id, { status: 'ordered', orderId, updatedAt: now });
  const actor = { kind: 'customer', customerId: customer.id, contextId: context.id } as const;
  await insertOrderActivity(tx, {
    tenantId,
    id: services.ids.next(),
    orderId,
    kind: 'placed',
    author: actor,
    text: null,
    data: { number, total: priced.total },
    createdAt: now,
  });
  await recordEvent(tx, services, tenantId, actor, 'order.placed', { ...placed });
  return order;
}
