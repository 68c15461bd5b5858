import type { PricedCart } from './cart-pricing.ts';
import type { AppliedDiscount, DiscountedCart } from './discounts.ts';
import type { Currency } from './money.ts';
import type { PriceMode, TaxBreakdownEntry, TaxedAmount } from './tax.ts';

// Object types here are type aliases, not interfaces, so a snapshot is assignable to the
// `Record<string, unknown>` of a JSON column without a cast.

/** The customer fields an order keeps as they were at checkout (never the password or tokens). */
export type CustomerSnapshot = {
  readonly id: string;
  readonly email: string;
  readonly group: string;
  readonly salutation: string | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly company: string | null;
  readonly vatId: string | null;
  readonly guest: boolean;
};

/**
 * A shipping or payment method as a channel offers it: its entry in the channel's effective
 * settings (the basis entry with the channel's overrides), read as stored.
 */
export type MethodOffer = {
  readonly active?: boolean;
  readonly translations?: unknown;
  readonly [field: string]: unknown;
};

/** The settings areas that offer methods. */
export type MethodArea = 'shippingMethods' | 'paymentMethods';

/** A shipping method's shared basis record, as far as an order keeps it. */
export type ShippingMethodBasis = {
  readonly id: string;
  readonly key: string | null;
  readonly translations: unknown;
  readonly taxClassId: string | null;
};

/** A payment method's shared basis record, as far as an order keeps it. */
export type PaymentMethodBasis = {
  readonly id: string;
  readonly key: string | null;
  readonly translations: unknown;
  readonly handler: string;
};

/** What checkout has read and priced when it stores an order; ids, number and time come from the caller. */
export type OrderSnapshotInput = {
  readonly orderId: string;
  /** The order's gapless number. */
  readonly number: number;
  readonly placedAt: Date;
  /** The priced cart, with the discounts its promotions took when it earned any. */
  readonly priced: PricedCart | DiscountedCart;
  /** The promotions the cart earned, in the order they were applied (none when absent). */
  readonly promotions?: readonly PromotionSnapshot[];
  /** Cart lines by line id with their display names; a priced line without one keeps `name: null`. */
  readonly lineNames: readonly { readonly id: string; readonly name: string | null }[];
  /** The effective product of every priced line, by product id. */
  readonly products: ReadonlyMap<
    string,
    { readonly parentId: string | null; readonly options: Readonly<Record<string, string>> | null }
  >;
  /** The tax rate applied per product id (hundredths of a percent). */
  readonly taxRates: ReadonlyMap<string, number>;
  /** The channel's effective settings the cart was priced under. */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly customer: CustomerSnapshot;
  readonly shippingMethod: ShippingMethodBasis;
  readonly paymentMethod: PaymentMethodBasis;
  /** The cart's channel as read at checkout, or null when it could not be read. */
  readonly channel: { readonly id: string; readonly revision: number; readonly data: unknown } | null;
};

/** One order line as placed. */
export type OrderLineSnapshot = {
  readonly id: string;
  readonly type: 'product';
  readonly productId: string;
  readonly parentId: string | null;
  readonly sku: string;
  readonly name: string | null;
  readonly options: Readonly<Record<string, string>>;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly total: TaxedAmount;
  readonly taxRate: number;
};

/** A promotion as an order redeemed it: what it was then and what it took off. */
export type PromotionSnapshot = {
  readonly promotionId: string;
  readonly revision: number;
  readonly name: Readonly<Record<string, string>>;
  readonly code: string | null;
  readonly priority: number;
  readonly exclusive: boolean;
  readonly ruleIds: readonly string[];
  readonly amount: TaxedAmount;
  readonly discounts: readonly AppliedDiscount[];
};

/**
 * The priced cart as the order keeps it. `total` and `taxes` include the promotions' discounts;
 * `subtotal` and `shipping` are before them, so total = subtotal + shipping + discountTotal.
 */
export type OrderPriceSnapshot = {
  readonly priceMode: PriceMode;
  readonly currency: Currency;
  readonly subtotal: TaxedAmount;
  readonly shipping: PricedCart['shipping'];
  readonly promotions: readonly PromotionSnapshot[];
  readonly discountTotal: TaxedAmount;
  readonly taxes: readonly TaxBreakdownEntry[];
  readonly total: TaxedAmount;
};

/** The shipping method as placed: the channel's translations over the basis's. */
export type ShippingMethodSnapshot = {
  readonly id: string;
  readonly key: string | null;
  readonly translations: unknown;
  readonly taxClassId: string | null;
};

/** The payment method as placed: the channel's translations over the basis's. */
export type PaymentMethodSnapshot = {
  readonly id: string;
  readonly key: string | null;
  readonly translations: unknown;
  readonly handler: string;
};

/** The settings an order was placed under; later setting changes never touch them. */
export type OrderSettingsSnapshot = {
  readonly priceMode: PriceMode;
  readonly currency: Currency;
  readonly taxRates: Record<string, number>;
  readonly channel: { readonly id: string; readonly revision: number; readonly data: unknown } | null;
  readonly effective: {
    readonly company: unknown;
    readonly deliveryCountries: unknown;
    readonly taxRates: unknown;
    readonly taxLabels: unknown;
    readonly taxRules: unknown;
    readonly shippingMethod: MethodOffer | null;
    readonly paymentMethod: MethodOffer | null;
  };
};

/** The payload of `order.placed` (consumers such as the customer history rely on it). */
export type OrderPlacedPayload = {
  readonly orderId: string;
  readonly number: number;
  readonly customerId: string | null;
  readonly currency: string;
  readonly totalGross: number;
  readonly placedAt: string;
};

/** The snapshot fields of an order record and its `order.placed` payload. */
export type OrderSnapshot = {
  readonly price: OrderPriceSnapshot;
  readonly lines: OrderLineSnapshot[];
  readonly customer: CustomerSnapshot;
  readonly shippingMethod: ShippingMethodSnapshot;
  readonly paymentMethod: PaymentMethodSnapshot;
  readonly settingsSnapshot: OrderSettingsSnapshot;
  readonly placed: OrderPlacedPayload;
};

/** The method `id` of `area` as the channel's effective settings offer it; undefined when they do not. */
export function findMethodOffer(
  settings: Readonly<Record<string, unknown>>,
  area: MethodArea,
  id: string,
): MethodOffer | undefined {
  const offers = settings[area];
  if (offers === null || typeof offers !== 'object') return undefined;
  // Own entries only: an id is data, never an inherited property such as `constructor`.
  return Object.hasOwn(offers, id) ? (offers as Record<string, MethodOffer | undefined>)[id] : undefined;
}

/**
 * The snapshot fields of the order that `input.priced` becomes, and its `order.placed` payload: the
 * lines with their names and variant data, the prices, the customer, both methods as the channel
 * offers them, and the settings the cart was priced under. A priced line's product missing from
 * `products` is a caller's bug and throws.
 */
export function snapshotOrder(input: OrderSnapshotInput): OrderSnapshot {
  const { priced, settings, customer, shippingMethod, paymentMethod } = input;
  const names = new Map<string, string | null>();
  for (const line of input.lineNames) if (!names.has(line.id)) names.set(line.id, line.name);
  const lines = priced.lines.map((line): OrderLineSnapshot => {
    const product = input.products.get(line.productId);
    if (!product) throw new Error(`no product ${line.productId} for the priced line ${line.id}`);
    return {
      id: line.id,
      type: 'product',
      productId: line.productId,
      parentId: product.parentId,
      sku: line.sku,
      name: names.get(line.id) ?? null,
      options: product.options ?? {},
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      total: line.total,
      taxRate: line.taxRate,
    };
  });
  const shipping = findMethodOffer(settings, 'shippingMethods', shippingMethod.id);
  const payment = findMethodOffer(settings, 'paymentMethods', paymentMethod.id);
  return {
    price: {
      priceMode: priced.priceMode,
      currency: priced.currency,
      subtotal: priced.subtotal,
      shipping: priced.shipping,
      promotions: (input.promotions ?? []).map((promotion) => ({
        promotionId: promotion.promotionId,
        revision: promotion.revision,
        name: promotion.name,
        code: promotion.code,
        priority: promotion.priority,
        exclusive: promotion.exclusive,
        ruleIds: promotion.ruleIds,
        amount: promotion.amount,
        discounts: promotion.discounts,
      })),
      discountTotal: 'discountTotal' in priced ? priced.discountTotal : { net: 0, tax: 0, gross: 0 },
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
    shippingMethod: {
      id: shippingMethod.id,
      key: shippingMethod.key,
      translations: shipping?.translations ?? shippingMethod.translations,
      taxClassId: shippingMethod.taxClassId,
    },
    paymentMethod: {
      id: paymentMethod.id,
      key: paymentMethod.key,
      translations: payment?.translations ?? paymentMethod.translations,
      handler: paymentMethod.handler,
    },
    settingsSnapshot: {
      priceMode: priced.priceMode,
      currency: priced.currency,
      taxRates: Object.fromEntries(input.taxRates),
      channel: input.channel
        ? { id: input.channel.id, revision: input.channel.revision, data: input.channel.data }
        : null,
      effective: {
        company: settings.company ?? null,
        deliveryCountries: settings.deliveryCountries ?? null,
        taxRates: settings.taxRates ?? {},
        taxLabels: settings.taxLabels ?? {},
        taxRules: settings.taxRules ?? {},
        shippingMethod: shipping ?? null,
        paymentMethod: payment ?? null,
      },
    },
    placed: {
      orderId: input.orderId,
      number: input.number,
      customerId: customer.id,
      currency: priced.currency.code,
      totalGross: priced.total.gross,
      placedAt: input.placedAt.toISOString(),
    },
  };
}
