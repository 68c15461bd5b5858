import {
  type CartRow,
  type Executor,
  findCustomer,
  findCustomerHistory,
  findOpenCart,
  insertCart,
  type StoreContextRow,
} from '@cartwright/repository';
import type { Services } from '../kernel/services.ts';
import { cartFacts } from './facts.ts';
import { type CartPricing, priceStoredCart } from './pricing.ts';

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
  readonly taxes: readonly { readonly rate: number; readonly tax: number; readonly base: number }[];
  readonly total: { readonly net: number; readonly tax: number; readonly gross: number };
  readonly billingAddress: CartRow['billingAddress'];
  readonly shippingAddress: CartRow['shippingAddress'];
  readonly shippingMethodId: string | null;
  readonly paymentMethodId: string | null;
  readonly customerId: string | null;
  readonly problems: CartPricing['problems'];
  readonly revision: number;
}

const zero = { net: 0, tax: 0, gross: 0 };

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
    taxes: priced?.taxes ?? [],
    total: priced?.total ?? zero,
    billingAddress: cart.billingAddress,
    shippingAddress: cart.shippingAddress,
    shippingMethodId: cart.shippingMethodId,
    paymentMethodId: cart.paymentMethodId,
    customerId: cart.customerId,
    problems: pricing.problems,
    revision: cart.revision,
  };
}

/** The customer group a context prices for (anonymous visitors see consumer prices). */
export async function groupOf(tx: Executor, tenantId: string, context: StoreContextRow) {
  if (!context.customerId) return { customer: null, group: null } as const;
  const customer = await findCustomer(tx, tenantId, context.customerId);
  return { customer: customer ?? null, group: customer?.group ?? null } as const;
}

/** The cart a context starts with: its currency and language, no lines, nothing chosen. */
function newCartOf(services: Services, tenantId: string, context: StoreContextRow): CartRow {
  const now = services.clock.now();
  return {
    tenantId,
    id: services.ids.next(),
    contextId: context.id,
    channelId: context.channelId,
    customerId: context.customerId,
    currency: context.currency ?? 'EUR',
    language: context.language ?? 'en',
    lines: [],
    billingAddress: null,
    shippingAddress: null,
    shippingMethodId: null,
    paymentMethodId: null,
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
  return insertCart(tx, newCartOf(services, tenantId, context));
}

/** The context's open cart as it is, or the empty cart it would start with; never writes. */
export async function currentCartOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  context: StoreContextRow,
): Promise<CartRow> {
  return (await findOpenCart(tx, tenantId, context.id)) ?? newCartOf(services, tenantId, context);
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
