import {
  type AddressJson,
  type CartRow,
  type Executor,
  findChannel,
  findCustomer,
  findCustomerAddress,
  findCustomerHistory,
  findOpenCart,
  insertCart,
  type StoreContextRow,
  updateCart,
} from '@cartwright/repository';
import { effectiveSettings } from '../channels/settings.ts';
import type { Services } from '../kernel/services.ts';
import type { PromotionCodeState } from '../promotions/pricing.ts';
import { cartFacts } from './facts.ts';
import { type CartPricing, type CartProblem, priceStoredCart } from './pricing.ts';

/**
 * What checkout refuses besides pricing's problems, listed so the cart says it first: a line whose
 * product has less stock than the cart holds, a missing address. Checkout itself still decides
 * (stock with its guarded decrement, answering INSUFFICIENT_STOCK).
 */
export interface ReadinessProblem {
  readonly lineId: string | null;
  readonly code: 'INSUFFICIENT_STOCK' | 'BILLING_ADDRESS_MISSING' | 'SHIPPING_ADDRESS_MISSING';
  readonly detail: string;
}

/** A cart as the storefront reads it: its choices plus prices calculated now. */
export interface CartView {
  readonly id: string | null;
  readonly currency: string;
  readonly language: string;
  readonly priceMode: 'gross' | 'net';
  readonly lines: readonly {
    readonly id: string;
    readonly productId: string;
    readonly sku: string;
    readonly name: string | null;
    readonly quantity: number;
    readonly unitPrice: number | null;
    readonly total: { readonly net: number; readonly tax: number; readonly gross: number } | null;
    readonly taxRate: number | null;
  }[];
  readonly subtotal: { readonly net: number; readonly tax: number; readonly gross: number };
  readonly shipping: {
    readonly net: number;
    readonly tax: number;
    readonly gross: number;
    readonly taxRate: number;
  };
  /** The promotions the cart earned, in the order applied, each with what it takes off (negative). */
  readonly promotions: readonly {
    readonly promotionId: string;
    readonly name: string | null;
    readonly code: string | null;
    readonly amount: { readonly net: number; readonly tax: number; readonly gross: number };
  }[];
  readonly promotionCodes: readonly PromotionCodeState[];
  /** Σ promotions (negative or zero); total = subtotal + shipping + discountTotal. */
  readonly discountTotal: { readonly net: number; readonly tax: number; readonly gross: number };
  readonly taxes: readonly { readonly rate: number; readonly tax: number; readonly base: number }[];
  readonly total: { readonly net: number; readonly tax: number; readonly gross: number };
  readonly billingAddress: CartRow['billingAddress'];
  readonly shippingAddress: CartRow['shippingAddress'];
  readonly shippingMethodId: string | null;
  readonly paymentMethodId: string | null;
  readonly customerId: string | null;
  readonly problems: readonly (CartProblem | ReadinessProblem)[];
  readonly revision: number;
}

const zero = { net: 0, tax: 0, gross: 0 };

/** A translated name in the cart's language, else its first language, else null. */
function nameIn(name: Readonly<Record<string, string>>, language: string): string | null {
  const base = language.split('-')[0]!;
  return name[language] ?? name[base] ?? Object.values(name)[0] ?? null;
}

export function cartView(cart: CartRow, pricing: CartPricing): CartView {
  const priced = pricing.priced;
  const byId = new Map((priced?.lines ?? []).map((line) => [line.id, line]));
  return {
    id: cart.id,
    currency: cart.currency,
    language: cart.language,
    priceMode: priced?.priceMode ?? 'gross',
    lines: pricing.lines.map((line) => {
      const pricedLine = byId.get(line.id);
      return {
        id: line.id,
        productId: line.productId,
        sku: line.sku,
        name: line.name,
        quantity: line.quantity,
        unitPrice: pricedLine?.unitPrice ?? null,
        total: pricedLine?.total ?? null,
        taxRate: pricedLine?.taxRate ?? null,
      };
    }),
    subtotal: priced?.subtotal ?? zero,
    shipping: priced?.shipping ?? { ...zero, taxRate: 0 },
    promotions: pricing.promotions.map((promotion) => ({
      promotionId: promotion.promotionId,
      name: nameIn(promotion.name, cart.language),
      code: promotion.code,
      amount: promotion.amount,
    })),
    promotionCodes: pricing.promotionCodes,
    discountTotal: priced?.discountTotal ?? zero,
    taxes: priced?.taxes ?? [],
    total: priced?.total ?? zero,
    billingAddress: cart.billingAddress,
    shippingAddress: cart.shippingAddress,
    shippingMethodId: cart.shippingMethodId,
    paymentMethodId: cart.paymentMethodId,
    customerId: cart.customerId,
    problems: [...pricing.problems, ...stockProblems(pricing), ...addressProblems(cart)],
    revision: cart.revision,
  };
}

/** The priceable lines whose product has less stock available than the cart holds of it in all. */
function stockProblems(pricing: CartPricing): ReadinessProblem[] {
  const wanted = new Map<string, number>();
  for (const line of pricing.lines) {
    if (pricing.products.has(line.productId))
      wanted.set(line.productId, (wanted.get(line.productId) ?? 0) + line.quantity);
  }
  return pricing.lines.flatMap((line) => {
    const product = pricing.products.get(line.productId);
    const quantity = wanted.get(line.productId) ?? 0;
    if (!product || quantity <= product.stockAvailable) return [];
    return [
      {
        lineId: line.id,
        code: 'INSUFFICIENT_STOCK' as const,
        detail: `${quantity} wanted, ${Math.max(0, product.stockAvailable)} in stock.`,
      },
    ];
  });
}

function addressProblems(cart: CartRow): ReadinessProblem[] {
  return [
    ...(cart.billingAddress
      ? []
      : [{ lineId: null, code: 'BILLING_ADDRESS_MISSING' as const, detail: 'Set a billing address.' }]),
    ...(cart.shippingAddress
      ? []
      : [{ lineId: null, code: 'SHIPPING_ADDRESS_MISSING' as const, detail: 'Set a shipping address.' }]),
  ];
}

/** The customer group a context prices for (anonymous visitors see consumer prices). */
export async function groupOf(tx: Executor, tenantId: string, context: StoreContextRow) {
  if (!context.customerId) return { customer: null, group: null } as const;
  const customer = await findCustomer(tx, tenantId, context.customerId);
  return { customer: customer ?? null, group: customer?.group ?? null } as const;
}

/** A customer's default billing and shipping addresses (null where they have none). */
async function defaultAddressesOf(
  tx: Executor,
  tenantId: string,
  customerId: string,
): Promise<{ billingAddress: AddressJson | null; shippingAddress: AddressJson | null }> {
  const customer = await findCustomer(tx, tenantId, customerId);
  const addressOf = async (addressId: string | null | undefined) => {
    const row = addressId ? await findCustomerAddress(tx, tenantId, addressId) : undefined;
    return row && row.customerId === customerId ? row.address : null;
  };
  return {
    billingAddress: await addressOf(customer?.defaultBillingAddressId),
    shippingAddress: await addressOf(customer?.defaultShippingAddressId),
  };
}

type MethodOffers = Record<string, { active?: unknown; position?: unknown; prices?: unknown } | null>;

/** The id of the first active method (by position, then id) of the offers that `usable` accepts. */
function firstOffer(offers: unknown, usable: (offer: { prices?: unknown }) => boolean): string | null {
  const position = (offer: { position?: unknown }) =>
    typeof offer.position === 'number' ? offer.position : 0;
  const [first] = Object.entries((offers ?? {}) as MethodOffers)
    .flatMap(([id, offer]) => (offer?.active === true && usable(offer) ? [{ id, offer }] : []))
    .sort((a, b) => position(a.offer) - position(b.offer) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return first?.id ?? null;
}

/** The channel's first active shipping method priced in `currency` and its first payment method. */
async function defaultMethodsOf(tx: Executor, tenantId: string, channelId: string, currency: string) {
  const channel = await findChannel(tx, tenantId, channelId);
  if (!channel) return { shippingMethodId: null, paymentMethodId: null };
  const { effective } = await effectiveSettings(tx, tenantId, channel);
  const pricedIn = (offer: { prices?: unknown }) =>
    Array.isArray(offer.prices) && offer.prices.some((price) => price?.currency === currency);
  return {
    shippingMethodId: firstOffer(effective.shippingMethods, pricedIn),
    paymentMethodId: firstOffer(effective.paymentMethods, () => true),
  };
}

type CheckoutChoices = Pick<
  CartRow,
  'billingAddress' | 'shippingAddress' | 'shippingMethodId' | 'paymentMethodId'
>;
const NO_CHOICES: CheckoutChoices = {
  billingAddress: null,
  shippingAddress: null,
  shippingMethodId: null,
  paymentMethodId: null,
};

/**
 * What a customer's cart is prepared for checkout with, as a storefront preselects it: the
 * customer's default billing and shipping address, the channel's first active shipping method
 * (by position, then id) priced in the cart currency and its first active payment method.
 */
async function checkoutDefaultsOf(
  tx: Executor,
  tenantId: string,
  customerId: string,
  cart: Pick<CartRow, 'channelId' | 'currency'>,
): Promise<CheckoutChoices> {
  return {
    ...(await defaultAddressesOf(tx, tenantId, customerId)),
    ...(await defaultMethodsOf(tx, tenantId, cart.channelId, cart.currency)),
  };
}

/**
 * The cart a context starts with: its currency and language, no lines; a logged-in customer's
 * cart is prepared for checkout (`checkoutDefaultsOf`). An anonymous cart chooses nothing: nobody
 * can check it out yet, and where it goes is unknown.
 */
async function newCartOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  context: StoreContextRow,
): Promise<CartRow> {
  const now = services.clock.now();
  const currency = context.currency ?? 'EUR';
  const channelId = context.channelId;
  return {
    tenantId,
    id: services.ids.next(),
    contextId: context.id,
    channelId,
    customerId: context.customerId,
    currency,
    language: context.language ?? 'en',
    lines: [],
    promotionCodes: [],
    ...(context.customerId
      ? await checkoutDefaultsOf(tx, tenantId, context.customerId, { channelId, currency })
      : NO_CHOICES),
    status: 'open',
    orderId: null,
    revision: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** The context's open cart, created on first use with the context's currency and language. */
export async function openCartOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  context: StoreContextRow,
): Promise<CartRow> {
  const existing = await findOpenCart(tx, tenantId, context.id, { forUpdate: true });
  if (existing) return existing;
  return insertCart(tx, await newCartOf(tx, services, tenantId, context));
}

/** The context's open cart as it is, or the empty cart it would start with; never writes. */
export async function currentCartOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  context: StoreContextRow,
): Promise<CartRow> {
  return (await findOpenCart(tx, tenantId, context.id)) ?? newCartOf(tx, services, tenantId, context);
}

/**
 * Prepares the context's open cart, if any, for checkout by the customer who just logged in or
 * registered: each of its addresses and methods that is not set yet takes the customer's or the
 * channel's default (`checkoutDefaultsOf`); nothing the cart has is replaced.
 */
export async function prepareCartForCustomer(
  tx: Executor,
  services: Services,
  tenantId: string,
  contextId: string,
  customerId: string,
): Promise<void> {
  const cart = await findOpenCart(tx, tenantId, contextId, { forUpdate: true });
  const fields = Object.keys(NO_CHOICES) as (keyof CheckoutChoices)[];
  if (!cart || fields.every((field) => cart[field] !== null)) return;
  const defaults = await checkoutDefaultsOf(tx, tenantId, customerId, cart);
  const missing = fields.filter((field) => cart[field] === null && defaults[field] !== null);
  if (missing.length === 0) return;
  await updateCart(tx, tenantId, cart.id, {
    ...Object.fromEntries(missing.map((field) => [field, defaults[field]])),
    revision: cart.revision + 1,
    updatedAt: services.clock.now(),
  });
}

/** Prices a cart for its context's customer and builds the storefront view. */
export async function viewCart(
  tx: Executor,
  services: Services,
  tenantId: string,
  cart: CartRow,
  context: StoreContextRow,
) {
  const { group } = await groupOf(tx, tenantId, context);
  return cartView(cart, await priceStoredCart(tx, services, tenantId, cart, group));
}

/** The rule facts of a context's cart (the rules engine's one entry point to cart facts). */
export async function factsOfCart(
  tx: Executor,
  services: Services,
  tenantId: string,
  cart: CartRow,
  context: StoreContextRow,
) {
  const { customer, group } = await groupOf(tx, tenantId, context);
  const pricing = await priceStoredCart(tx, services, tenantId, cart, group);
  const history = customer ? ((await findCustomerHistory(tx, tenantId, customer.id)) ?? null) : null;
  return cartFacts(cart, pricing, customer, history, services.clock.now());
}
