import type { CartRow, CustomerHistoryRow, CustomerRow } from '@cartwright/repository';
import type { CartPricing } from './pricing.ts';

/**
 * The server-owned facts of a cart, in one shape: what rules evaluate against. Built only from
 * stored data (never from client input). Money is minor units of `currency`.
 */
export interface CartFacts {
  readonly channelId: string;
  readonly currency: string;
  readonly language: string;
  readonly priceMode: 'gross' | 'net';
  readonly cart: {
    /** Total to pay (gross), subtotal of the lines (gross and net), shipping (gross). */
    readonly amount: number;
    readonly positionPrice: { readonly gross: number; readonly net: number };
    readonly shippingCost: number;
    readonly lineItemCount: number;
    readonly quantity: number;
    readonly weightGrams: number;
    readonly allShippingFree: boolean;
  };
  readonly lineItems: readonly {
    readonly id: string;
    readonly type: 'product';
    readonly productId: string;
    readonly sku: string;
    readonly quantity: number;
    readonly unitPrice: number;
    readonly totalGross: number;
    readonly totalNet: number;
    readonly taxRate: number;
    readonly product: {
      readonly parentId: string | null;
      readonly manufacturer: string | null;
      readonly categoryIds: readonly string[];
      readonly tags: readonly string[];
      readonly properties: Readonly<Record<string, string>>;
      readonly options: Readonly<Record<string, string>>;
      readonly weightGrams: number | null;
      readonly widthMm: number | null;
      readonly heightMm: number | null;
      readonly lengthMm: number | null;
      readonly releaseDate: string | null;
      readonly stockAvailable: number;
      readonly flags: {
        readonly new?: boolean | null;
        readonly closeout?: boolean | null;
        readonly topseller?: boolean | null;
        readonly shippingFree?: boolean | null;
      };
      readonly listPrice: { readonly gross: number; readonly net: number } | null;
      readonly customFields: Readonly<Record<string, unknown>>;
      readonly ruleMetadata: Readonly<Record<string, unknown>>;
    };
  }[];
  readonly billingAddress: CartRow['billingAddress'];
  readonly shippingAddress: CartRow['shippingAddress'];
  readonly shippingMethodId: string | null;
  readonly paymentMethodId: string | null;
  readonly customer: {
    readonly id: string;
    readonly group: 'consumer' | 'business';
    readonly email: string;
    readonly guest: boolean;
    readonly tags: readonly string[];
    readonly company: string | null;
    readonly birthday: string | null;
    readonly affiliateCode: string | null;
    readonly campaignCode: string | null;
    readonly newsletter: boolean;
    readonly customFields: Readonly<Record<string, unknown>>;
    readonly ruleMetadata: Readonly<Record<string, unknown>>;
    readonly createdAt: string;
    readonly history: {
      readonly orderCount: number;
      readonly totalSpent: Readonly<Record<string, number>>;
      readonly lastOrderAt: string | null;
      readonly reviewCount: number;
    };
  } | null;
  /** When the facts were taken (the rules engine's "current time"). */
  readonly now: string;
}

/** The one function that turns a priced cart and its customer into rule facts. */
export function cartFacts(
  cart: CartRow,
  pricing: CartPricing,
  customer: CustomerRow | null,
  history: CustomerHistoryRow | null,
  now: Date,
): CartFacts {
  const priced = pricing.priced;
  const lineItems = (priced?.lines ?? []).map((line) => {
    const product = pricing.products.get(line.productId)!;
    const list = product.prices?.find((price) => price.currency === cart.currency);
    return {
      id: line.id,
      type: 'product' as const,
      productId: line.productId,
      sku: line.sku,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      totalGross: line.total.gross,
      totalNet: line.total.net,
      taxRate: line.taxRate,
      product: {
        parentId: product.parentId,
        manufacturer: product.manufacturer,
        categoryIds: product.categoryIds ?? [],
        tags: product.tags ?? [],
        properties: product.properties ?? {},
        options: product.options ?? {},
        weightGrams: product.weightGrams,
        widthMm: product.widthMm,
        heightMm: product.heightMm,
        lengthMm: product.lengthMm,
        releaseDate: product.releaseDate,
        stockAvailable: product.stockAvailable,
        flags: product.flags ?? {},
        listPrice:
          list?.listGross != null && list.listNet != null
            ? { gross: list.listGross, net: list.listNet }
            : null,
        customFields: product.customFields ?? {},
        ruleMetadata: product.ruleMetadata ?? {},
      },
    };
  });
  return {
    channelId: cart.channelId,
    currency: cart.currency,
    language: cart.language,
    priceMode: priced?.priceMode ?? 'gross',
    cart: {
      amount: priced?.total.gross ?? 0,
      positionPrice: { gross: priced?.subtotal.gross ?? 0, net: priced?.subtotal.net ?? 0 },
      shippingCost: priced?.shipping.gross ?? 0,
      lineItemCount: lineItems.length,
      quantity: lineItems.reduce((sum, line) => sum + line.quantity, 0),
      weightGrams: lineItems.reduce((sum, line) => sum + (line.product.weightGrams ?? 0) * line.quantity, 0),
      allShippingFree:
        lineItems.length > 0 && lineItems.every((line) => line.product.flags.shippingFree === true),
    },
    lineItems,
    billingAddress: cart.billingAddress,
    shippingAddress: cart.shippingAddress,
    shippingMethodId: cart.shippingMethodId,
    paymentMethodId: cart.paymentMethodId,
    customer: customer
      ? {
          id: customer.id,
          group: customer.group,
          email: customer.email,
          guest: customer.guest,
          tags: customer.tags,
          company: customer.company,
          birthday: customer.birthday,
          affiliateCode: customer.affiliateCode,
          campaignCode: customer.campaignCode,
          newsletter: customer.newsletter,
          customFields: customer.customFields,
          ruleMetadata: customer.ruleMetadata,
          createdAt: customer.createdAt.toISOString(),
          history: {
            orderCount: history?.orderCount ?? 0,
            totalSpent: history?.totalSpent ?? {},
            lastOrderAt: history?.lastOrderAt?.toISOString() ?? null,
            reviewCount: history?.reviewCount ?? 0,
          },
        }
      : null,
    now: now.toISOString(),
  };
}
