import type { PricedCart } from '@cartwright/commerce';
import type {
  AddressJson,
  CartRow,
  CustomerHistoryRow,
  CustomerRow,
  ProductRow,
} from '@cartwright/repository';
import type { AddressFacts, CustomerFacts, Facts, LineItemFacts } from '@cartwright/rules-engine';
import { NATIVE_CUSTOMER_GROUPS } from '../shop/starter-definitions.ts';

// The one place stored commerce data becomes the rules engine's facts. Native identifiers are what
// the shop stores: channel, method, product, category and tax-class ids are UUIDs; currencies,
// languages and countries are ISO codes, subdivisions ISO 3166-2 codes, tags their text, customer
// groups the two fixed native group ids (decision 0017). Money turns from minor units into the
// major units rule values are written in.

/**
 * Rule metadata supplies the facts the catalog stores nowhere else (decision 0017): a product's
 * `streamIds`, `productType` and line-item `states`; a customer's `number` and `requestedGroupId`.
 * Keys of the wrong type are ignored.
 */
function metaText(meta: Readonly<Record<string, unknown>> | null, key: string): string | null {
  const value = meta?.[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function metaList(meta: Readonly<Record<string, unknown>> | null, key: string): string[] {
  const value = meta?.[key];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** Minor units → major units of a currency with `precision` decimals. */
export function major(minor: number, precision: number): number {
  return minor / 10 ** precision;
}

/** An address has no id of its own in a cart: two addresses are the same when their fields are. */
export function addressFacts(address: AddressJson | null): AddressFacts | null {
  if (!address) return null;
  return {
    id: [address.street, address.additionalLine ?? '', address.zipcode, address.city, address.country].join(
      '\n',
    ),
    street: address.street,
    city: address.city,
    zipcode: address.zipcode,
    countryId: address.country,
    stateId: address.subdivision ?? null,
  };
}

function volumeOf(product: ProductRow): number | null {
  const { widthMm, heightMm, lengthMm } = product;
  return widthMm != null && heightMm != null && lengthMm != null ? widthMm * heightMm * lengthMm : null;
}

/** The money of the cart or order the facts describe. */
export interface FactsMoney {
  readonly currency: string;
  readonly precision: number;
  readonly priceMode: 'gross' | 'net';
}

/** A priced line (minor units): a priced cart's line or an order's line snapshot. */
export interface FactsLine {
  readonly id: string;
  readonly productId: string;
  readonly quantity: number;
  /** The unit price of the price mode. */
  readonly unitPrice: number;
  readonly total: { readonly gross: number; readonly net: number };
}

/** What an order's line snapshot recorded of its product; each key present wins over the product. */
export interface LineProductSnapshot {
  readonly parentId?: string | null;
  readonly options?: Readonly<Record<string, string>>;
}

function optionIdsOf(options: Readonly<Record<string, string>>): string[] {
  return Object.entries(options).map(([name, value]) => `${name}:${value}`);
}

/**
 * The facts of a product line. `product` is the effective product (variant over parent), null
 * when it no longer exists: the item then carries only what `snapshot` recorded of it.
 */
export function lineItemFacts(
  line: FactsLine,
  product: ProductRow | null,
  money: FactsMoney,
  snapshot: LineProductSnapshot = {},
): LineItemFacts {
  const { currency, precision, priceMode } = money;
  const unit = major(line.unitPrice, precision);
  const totalPrice = major(line.total[priceMode], precision);
  const snapshotParentId = 'parentId' in snapshot ? (snapshot.parentId ?? null) : undefined;
  const snapshotOptionIds = snapshot.options ? optionIdsOf(snapshot.options) : undefined;
  if (!product) {
    return {
      id: line.id,
      type: 'product',
      referencedId: line.productId,
      good: true,
      quantity: line.quantity,
      states: [],
      price: { unitPrice: unit, totalPrice, listPrice: null },
      delivery: null,
      product: {
        parentId: snapshotParentId ?? null,
        manufacturerId: null,
        categoryIds: null,
        streamIds: null,
        tagIds: null,
        propertyIds: null,
        optionIds: snapshotOptionIds ?? null,
        taxId: null,
        stock: null,
        isNew: null,
        isCloseout: null,
        markAsTopseller: null,
        createdAt: null,
        releaseDate: null,
        productType: null,
        purchasePrice: null,
        customFields: null,
        ruleMetadata: {},
      },
      promotion: null,
      children: [],
    };
  }
  const price = product.prices?.find((candidate) => candidate.currency === currency);
  const list = priceMode === 'gross' ? price?.listGross : price?.listNet;
  const listPrice =
    list != null && list > 0
      ? { price: major(list, precision), percentage: Math.round((1 - line.unitPrice / list) * 10_000) / 100 }
      : null;
  const purchase = product.purchasePrices?.find((candidate) => candidate.currency === currency);
  const flags = product.flags ?? {};
  return {
    id: line.id,
    type: 'product',
    referencedId: line.productId,
    good: true,
    quantity: line.quantity,
    states: metaList(product.ruleMetadata, 'states'),
    price: { unitPrice: unit, totalPrice, listPrice },
    delivery: {
      weight: product.weightGrams != null ? product.weightGrams / 1000 : null,
      width: product.widthMm,
      height: product.heightMm,
      length: product.lengthMm,
      volume: volumeOf(product),
      stock: product.stockAvailable,
      freeDelivery: flags.shippingFree ?? false,
    },
    product: {
      parentId: snapshotParentId !== undefined ? snapshotParentId : product.parentId,
      manufacturerId: product.manufacturer,
      categoryIds: product.categoryIds ?? [],
      streamIds: metaList(product.ruleMetadata, 'streamIds'),
      tagIds: product.tags ?? [],
      propertyIds: Object.entries(product.properties ?? {}).map(([name, value]) => `${name}:${value}`),
      optionIds: snapshotOptionIds ?? optionIdsOf(product.options ?? {}),
      taxId: product.taxClassId,
      stock: product.stockAvailable,
      isNew: flags.new ?? null,
      isCloseout: flags.closeout ?? null,
      markAsTopseller: flags.topseller ?? null,
      createdAt: product.createdAt.toISOString(),
      releaseDate: product.releaseDate,
      productType: metaText(product.ruleMetadata, 'productType'),
      purchasePrice: purchase
        ? { gross: major(purchase.gross, precision), net: major(purchase.net, precision) }
        : null,
      customFields: product.customFields ?? {},
      ruleMetadata: product.ruleMetadata ?? {},
    },
    promotion: null,
    children: [],
  };
}

/** The facts of a customer with their history, for a channel and the money of a cart or order. */
export function customerFacts(
  customer: CustomerRow,
  history: CustomerHistoryRow | null,
  channelId: string,
  money: Pick<FactsMoney, 'currency' | 'precision'>,
): CustomerFacts {
  return {
    id: customer.id,
    number: metaText(customer.ruleMetadata, 'number'),
    active: customer.active,
    guest: customer.guest,
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    company: customer.company,
    birthday: customer.birthday,
    groupId: NATIVE_CUSTOMER_GROUPS[customer.group],
    requestedGroupId: metaText(customer.ruleMetadata, 'requestedGroupId'),
    salutationId: customer.salutation,
    tagIds: customer.tags,
    affiliateCode: customer.affiliateCode,
    campaignCode: customer.campaignCode,
    createdByAdmin: customer.createdByAdmin,
    // The newsletter consent is per shop, so it covers every channel.
    newsletterChannelIds: customer.newsletter ? [channelId] : [],
    customFields: customer.customFields,
    ruleMetadata: customer.ruleMetadata,
    firstLogin: customer.firstLoginAt?.toISOString() ?? null,
    lastLogin: customer.lastLoginAt?.toISOString() ?? null,
    lastOrderDate: history?.lastOrderAt?.toISOString() ?? null,
    orderCount: history?.orderCount ?? 0,
    orderTotalAmount: major(history?.totalSpent[money.currency] ?? 0, money.precision),
    reviewCount: history?.reviewCount ?? 0,
  };
}

/** What facts read of a cart's pricing (`CartPricing` of ./pricing.ts, which calls this). */
export interface PricedLines {
  readonly priced: PricedCart | null;
  readonly products: ReadonlyMap<string, ProductRow>;
}

/** The facts of a priced cart and its customer: cart, line items, addresses, customer, context. */
export function cartFacts(
  cart: CartRow,
  pricing: PricedLines,
  customer: CustomerRow | null,
  history: CustomerHistoryRow | null,
  now: Date,
): Facts {
  const priced = pricing.priced;
  const money: FactsMoney = {
    currency: cart.currency,
    precision: priced?.currency.precision ?? 2,
    priceMode: priced?.priceMode ?? 'gross',
  };
  const { precision, priceMode } = money;
  const lineItems = (priced?.lines ?? []).map((line) =>
    lineItemFacts(line, pricing.products.get(line.productId)!, money),
  );
  const group = customer?.group ?? 'consumer';
  return {
    now: now.toISOString(),
    context: {
      channelId: cart.channelId,
      currencyId: cart.currency,
      languageId: cart.language,
      taxDisplay: priceMode,
      shippingMethodId: cart.shippingMethodId,
      paymentMethodId: cart.paymentMethodId,
      customerGroupId: NATIVE_CUSTOMER_GROUPS[group],
      adminSource: false,
    },
    customer: customer ? customerFacts(customer, history, cart.channelId, money) : null,
    billingAddress: addressFacts(cart.billingAddress),
    shippingAddress: addressFacts(cart.shippingAddress),
    cart: {
      amount: priced ? major(priced.total.gross, precision) : 0,
      positionPrice: priced ? major(priced.subtotal[priceMode], precision) : 0,
      shippingCost: priced ? major(priced.shipping.gross, precision) : 0,
      lineItems,
    },
  };
}
