import {
  type Executor,
  findBasis,
  findChannelForStaff,
  findOrderByIdempotencyKey,
  insertOrder,
  insertOrderActivity,
  insertStockReservation,
  isUniqueViolation,
  nextCounterValue,
  type OrderRow,
  reserveProductStock,
  type StoreContextRow,
  updateCart,
} from '@cartwright/repository';
import { fail, ok, type Result } from '../errors.ts';
import { recordEvent } from '../events.ts';
import type { Services } from '../services.ts';
import { groupOf, openCartOf } from './cart.ts';
import { priceStoredCart } from './pricing.ts';

/** The payload of `order.placed` (consumers such as the customer history rely on it). */
export interface OrderPlacedPayload {
  readonly orderId: string;
  readonly number: number;
  readonly customerId: string | null;
  readonly currency: string;
  readonly totalGross: number;
  readonly placedAt: string;
}

class StockShortfall extends Error {
  constructor(readonly sku: string) {
    super(`not enough stock of ${sku}`);
  }
}

/**
 * Places the context's cart as an order in ONE transaction: validates the cart, reserves stock
 * (a guarded decrement per product, all or nothing), takes the next gapless order number, stores
 * the order with snapshots of lines, prices, taxes, addresses, methods and settings, marks the
 * cart ordered and appends `order.placed`. With an idempotency key a retry answers the same
 * order; the key reused for another cart is refused.
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
  const { customer, group } = await groupOf(tx, tenantId, context);
  if (!customer)
    return fail('UNAUTHENTICATED', 'Log in or register (a guest account is enough) before checkout.');
  const cart = await openCartOf(tx, services, tenantId, context);
  if (cart.lines.length === 0) return fail('CART_INVALID', 'The cart is empty.');
  const missing: { pointer: string; message: string }[] = [];
  if (!cart.billingAddress) missing.push({ pointer: '/billingAddress', message: 'set a billing address' });
  if (!cart.shippingAddress) missing.push({ pointer: '/shippingAddress', message: 'set a shipping address' });
  if (!cart.shippingMethodId)
    missing.push({ pointer: '/shippingMethodId', message: 'choose a shipping method' });
  if (!cart.paymentMethodId)
    missing.push({ pointer: '/paymentMethodId', message: 'choose a payment method' });
  if (missing.length > 0)
    return fail('CART_INVALID', 'The cart is not ready for checkout.', { errors: missing });
  const pricing = await priceStoredCart(tx, services, tenantId, cart, group);
  // The methods as the cart's channel offers them (its overrides over the shared basis).
  const offered = (area: 'shippingMethods' | 'paymentMethods', id: string) =>
    ((pricing.settings[area] ?? {}) as Record<string, { active?: boolean; translations?: unknown }>)[id];
  // Held FOR SHARE until the order commits, so neither method can be deleted under it.
  const paymentMethod = await findBasis(tx, 'paymentMethods', tenantId, cart.paymentMethodId!, 'share');
  const payment = offered('paymentMethods', cart.paymentMethodId!);
  if (!paymentMethod || payment?.active !== true) {
    return fail('CART_INVALID', 'Choose another payment method.', {
      errors: [{ pointer: '/paymentMethodId', message: 'not available' }],
    });
  }
  const shippingMethod = (await findBasis(tx, 'shippingMethods', tenantId, cart.shippingMethodId!, 'share'))!;
  const shipping = offered('shippingMethods', cart.shippingMethodId!);
  if (pricing.problems.length > 0 || !pricing.priced) {
    return fail('CART_INVALID', 'Some lines of the cart cannot be bought as they are.', {
      extensions: { problems: pricing.problems },
    });
  }
  const priced = pricing.priced;

  // Stock first: a shortfall aborts before the order number is taken.
  const orderId = services.ids.next();
  const quantities = new Map<string, { sku: string; quantity: number }>();
  for (const line of priced.lines) {
    const entry = quantities.get(line.productId);
    quantities.set(line.productId, { sku: line.sku, quantity: (entry?.quantity ?? 0) + line.quantity });
  }
  for (const [productId, { sku, quantity }] of quantities) {
    if (!(await reserveProductStock(tx, tenantId, productId, quantity))) throw new StockShortfall(sku);
    await insertStockReservation(tx, {
      tenantId,
      id: services.ids.next(),
      orderId,
      productId,
      sku,
      quantity,
    });
  }

  const number = await nextCounterValue(tx, tenantId, 'order');
  const now = services.clock.now();
  const channel = await findChannelForStaff(tx, tenantId, cart.channelId);
  const lines = priced.lines.map((line) => {
    const info = pricing.lines.find((candidate) => candidate.id === line.id);
    const product = pricing.products.get(line.productId)!;
    return {
      id: line.id,
      type: 'product',
      productId: line.productId,
      parentId: product.parentId,
      sku: line.sku,
      name: info?.name ?? null,
      options: product.options ?? {},
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      total: line.total,
      taxRate: line.taxRate,
    };
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
    price: {
      priceMode: priced.priceMode,
      currency: priced.currency,
      subtotal: priced.subtotal,
      shipping: priced.shipping,
      taxes: priced.taxes,
      total: priced.total,
    },
    lines,
    customer: {
      id: customer.id,
      email: customer.email,
      group: customer.group,
      salutation: customer.salutation,
      firstName: customer.firstName,
      lastName: customer.lastName,
      company: customer.company,
      vatId: customer.vatId,
      guest: customer.guest,
    },
    billingAddress: cart.billingAddress!,
    shippingAddress: cart.shippingAddress!,
    shippingMethod: {
      id: shippingMethod.id,
      key: shippingMethod.key,
      translations: shipping?.translations ?? shippingMethod.translations,
      taxClassId: shippingMethod.taxClassId,
    },
    paymentMethod: {
      id: paymentMethod.id,
      key: paymentMethod.key,
      translations: payment.translations ?? paymentMethod.translations,
      handler: paymentMethod.handler,
    },
    settingsSnapshot: {
      priceMode: priced.priceMode,
      currency: priced.currency,
      taxRates: Object.fromEntries(pricing.taxRates),
      channel: channel ? { id: channel.id, revision: channel.revision, data: channel.data } : null,
      // The effective settings the order was placed under; later setting changes never touch them.
      effective: {
        company: pricing.settings.company ?? null,
        deliveryCountries: pricing.settings.deliveryCountries ?? null,
        taxRates: pricing.settings.taxRates ?? {},
        taxLabels: pricing.settings.taxLabels ?? {},
        taxRules: pricing.settings.taxRules ?? {},
        shippingMethod: shipping ?? null,
        paymentMethod: payment,
      },
    },
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
  const payload: OrderPlacedPayload = {
    orderId,
    number,
    customerId: customer.id,
    currency: cart.currency,
    totalGross: priced.total.gross,
    placedAt: now.toISOString(),
  };
  await recordEvent(tx, services, tenantId, actor, 'order.placed', { ...payload });
  return ok(order);
}
