import {
  type Executor,
  findBasis,
  findCustomer,
  findCustomerHistory,
  findOrder,
  findProducts,
  listOrderDocuments,
  type OrderRow,
  type ProductRow,
} from '@cartwright/repository';
import type { Facts, LineItemFacts } from '@cartwright/rules-engine';
import * as v from 'valibot';
import { addressFacts, customerFacts, type FactsMoney, lineItemFacts, major } from '../carts/facts.ts';
import { effectiveProduct } from '../catalog/product-view.ts';
import type { Services } from '../kernel/services.ts';
import { NATIVE_CUSTOMER_GROUPS } from '../shop/starter-definitions.ts';

// The ORDER scope of the rules engine: the facts of a stored order, for flows. Everything comes
// from what the order stored (its snapshots of prices, lines, customer, addresses and methods, its
// states, tags and documents); only what a line snapshot lacks of its product is read from the
// current product. Native identifiers and units as for carts (decision 0017): state ids are the
// states' technical names, document types their text, money in major units.

const Amount = v.object({ gross: v.number(), net: v.number() });

/** The parts of the price snapshot facts read (checkout stores minor units). */
const PriceSnapshot = v.object({
  priceMode: v.optional(v.picklist(['gross', 'net'])),
  currency: v.optional(v.object({ precision: v.optional(v.number()) })),
  subtotal: v.optional(Amount),
  shipping: v.optional(Amount),
  total: v.optional(Amount),
});

/** A line of the order's line snapshot; lines of another shape are left out of the facts. */
const LineSnapshot = v.object({
  id: v.string(),
  productId: v.string(),
  parentId: v.optional(v.nullable(v.string())),
  options: v.optional(v.record(v.string(), v.string())),
  quantity: v.number(),
  unitPrice: v.number(),
  total: Amount,
});

const CustomerGroup = v.picklist(['consumer', 'business']);

function idOf(snapshot: Readonly<Record<string, unknown>>): string | null {
  return typeof snapshot.id === 'string' && snapshot.id !== '' ? snapshot.id : null;
}

/** The precision the price snapshot was computed in, else the currency's, else 2. */
async function precisionOf(
  tx: Executor,
  tenantId: string,
  order: OrderRow,
  price: v.InferOutput<typeof PriceSnapshot> | null,
): Promise<number> {
  const stored = price?.currency?.precision;
  if (stored !== undefined) return stored;
  const currency = await findBasis(tx, 'currencies', tenantId, order.currency);
  return currency?.precision ?? 2;
}

/**
 * The current effective products (variant over parent) of these ids, read in at most two queries
 * (the products, then the parents they name); null for one that no longer exists.
 */
async function currentProducts(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, ProductRow | null>> {
  const own = new Map((await findProducts(tx, tenantId, ids)).map((row) => [row.id, row]));
  const parentIds = [
    ...new Set(
      [...own.values()].flatMap((row) => (row.parentId && !own.has(row.parentId) ? [row.parentId] : [])),
    ),
  ];
  const all = new Map(own);
  for (const row of await findProducts(tx, tenantId, parentIds)) all.set(row.id, row);
  const products = new Map<string, ProductRow | null>();
  for (const id of ids) {
    const row = own.get(id);
    if (!row) {
      products.set(id, null);
      continue;
    }
    const parent = row.parentId ? (all.get(row.parentId) ?? null) : null;
    products.set(id, effectiveProduct(row, parent));
  }
  return products;
}

async function orderLineItems(
  tx: Executor,
  tenantId: string,
  order: OrderRow,
  money: FactsMoney,
): Promise<LineItemFacts[]> {
  const lines = order.lines.flatMap((raw) => {
    const parsed = v.safeParse(LineSnapshot, raw);
    return parsed.success ? [parsed.output] : [];
  });
  const products = await currentProducts(tx, tenantId, [...new Set(lines.map((line) => line.productId))]);
  return lines.map((line) => {
    const snapshot = {
      ...(line.parentId !== undefined ? { parentId: line.parentId } : {}),
      ...(line.options !== undefined ? { options: line.options } : {}),
    };
    return lineItemFacts(line, products.get(line.productId) ?? null, money, snapshot);
  });
}

/**
 * The facts of a stored order (the ORDER scope, with its cart, customer, addresses and context),
 * or undefined when the order does not exist in this shop.
 */
export async function orderFacts(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
  options: {
    readonly defer?: boolean;
    /** The order's row as this transaction already read it (saves reading it again). */
    readonly order?: OrderRow | undefined;
  } = {},
): Promise<Facts | undefined> {
  const order = options.order ?? (await findOrder(tx, tenantId, orderId));
  if (!order) return undefined;
  const defer = options.defer === true;

  const parsedPrice = v.safeParse(PriceSnapshot, order.price);
  const price = parsedPrice.success ? parsedPrice.output : null;
  const settingsMode = v.safeParse(v.picklist(['gross', 'net']), order.settingsSnapshot.priceMode);
  const priceMode = price?.priceMode ?? (settingsMode.success ? settingsMode.output : 'gross');
  const money: FactsMoney = {
    currency: order.currency,
    precision: await precisionOf(tx, tenantId, order, price),
    priceMode,
  };

  // The group the order was placed (and priced) for, else the customer's current one.
  const snapshotGroup = v.safeParse(CustomerGroup, order.customer.group);
  // Deferred: what needs more reads than the order row (its customer account, documents and
  // current products) is left out, and reading it throws FactsDeferred.
  const deferCustomer = defer && order.customerId !== null;
  const deferGroup = deferCustomer && !snapshotGroup.success;
  const customer =
    order.customerId && !deferCustomer
      ? ((await findCustomer(tx, tenantId, order.customerId)) ?? null)
      : null;
  const history = customer ? ((await findCustomerHistory(tx, tenantId, customer.id)) ?? null) : null;
  const group = snapshotGroup.success ? snapshotGroup.output : (customer?.group ?? 'consumer');

  const documents = defer ? [] : await listOrderDocuments(tx, tenantId, order.id);
  const lineItems = defer ? [] : await orderLineItems(tx, tenantId, order, money);

  const facts: Facts = {
    now: services.clock.now().toISOString(),
    context: {
      channelId: order.channelId,
      currencyId: order.currency,
      languageId: order.language,
      taxDisplay: priceMode,
      shippingMethodId: idOf(order.shippingMethod),
      paymentMethodId: idOf(order.paymentMethod),
      customerGroupId: NATIVE_CUSTOMER_GROUPS[group],
      // Orders are placed by customers at checkout; no order records staff creation.
      adminSource: false,
    },
    customer: customer ? customerFacts(customer, history, order.channelId, money) : null,
    billingAddress: addressFacts(order.billingAddress),
    shippingAddress: addressFacts(order.shippingAddress),
    cart: {
      amount: price?.total ? major(price.total.gross, money.precision) : 0,
      positionPrice: price?.subtotal ? major(price.subtotal[priceMode], money.precision) : 0,
      shippingCost: price?.shipping ? major(price.shipping.gross, money.precision) : 0,
      lineItems,
    },
    order: {
      id: order.id,
      stateId: order.state,
      tagIds: order.tags,
      affiliateCode: order.affiliateCode,
      campaignCode: order.campaignCode,
      createdByAdmin: false,
      customFields: order.customFields,
      ruleMetadata: order.ruleMetadata,
      // The order has one delivery; it stores no tracking codes.
      deliveries: [{ stateId: order.deliveryState, trackingCodes: [] }],
      transactions: [{ stateId: order.paymentState, stateName: order.paymentState }],
      // Documents record no sending.
      documents: documents.map((document) => ({ documentTypeId: document.type, sent: false })),
    },
  };
  if (!defer) return facts;
  deferred(facts, 'customer', deferCustomer);
  deferred(facts.context, 'customerGroupId', deferGroup);
  deferred(facts.cart!, 'lineItems', true);
  deferred(facts.order!, 'documents', true);
  return facts;
}

/**
 * Thrown when a condition reads a part of deferred facts: the caller loads the whole facts and
 * evaluates again (evaluation is pure, so the first attempt leaves nothing behind).
 */
export class FactsDeferred extends Error {
  constructor(readonly part: string) {
    super(`The facts part ${part} was not loaded.`);
  }
}

function deferred(target: object, key: string, when: boolean): void {
  if (!when) return;
  Object.defineProperty(target, key, {
    enumerable: true,
    get() {
      throw new FactsDeferred(key);
    },
  });
}
