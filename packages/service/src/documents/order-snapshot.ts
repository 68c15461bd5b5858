import { Currency, MinorAmount } from '@cartwright/commerce';
import type { OrderRow } from '@cartwright/repository';
import * as v from 'valibot';

// What a document reads from an order's snapshot (written by checkout): `orders.price` is the
// priced cart of `@cartwright/commerce` (`PricedCart`), each of `orders.lines` a priced line plus
// the product name it was sold under. Other members of the snapshot are ignored.

const Taxed = v.object({ net: MinorAmount, tax: MinorAmount, gross: MinorAmount });

const Line = v.object({
  productId: v.string(),
  sku: v.string(),
  name: v.nullish(v.string()),
  /** What distinguishes a variant, e.g. `{ "size": "M" }`; printed after the name. */
  options: v.nullish(v.record(v.string(), v.string())),
  quantity: v.pipe(v.number(), v.integer()),
  /** Per unit, in the price mode of the order (gross or net). */
  unitPrice: MinorAmount,
  taxRate: v.pipe(v.number(), v.integer()),
  total: Taxed,
});

const Price = v.object({
  currency: Currency,
  priceMode: v.picklist(['gross', 'net']),
  subtotal: Taxed,
  shipping: v.object({ ...Taxed.entries, taxRate: v.pipe(v.number(), v.integer()) }),
  /** The promotions the order redeemed (orders placed before promotions have none). */
  promotions: v.optional(v.array(v.object({ name: v.record(v.string(), v.string()), amount: Taxed })), []),
  taxes: v.array(v.object({ rate: v.pipe(v.number(), v.integer()), tax: MinorAmount, base: MinorAmount })),
  total: Taxed,
});

const Address = v.object({
  salutation: v.nullish(v.string()),
  firstName: v.string(),
  lastName: v.string(),
  company: v.nullish(v.string()),
  street: v.string(),
  additionalLine: v.nullish(v.string()),
  zipcode: v.string(),
  city: v.string(),
  country: v.string(),
});

/** The order data a document is rendered from; kept in the document's snapshot. */
export const DocumentOrder = v.object({
  id: v.string(),
  number: v.number(),
  language: v.string(),
  placedAt: v.string(),
  lines: v.array(Line),
  price: Price,
  billingAddress: Address,
  shippingAddress: Address,
});
export type DocumentOrder = v.InferOutput<typeof DocumentOrder>;
export type DocumentAddress = v.InferOutput<typeof Address>;

/**
 * The document view of an order. A snapshot that does not have this shape was written by a
 * broken checkout: that is a bug, so it throws rather than rendering a wrong document.
 */
export function documentOrderOf(order: OrderRow): DocumentOrder {
  const parsed = v.safeParse(DocumentOrder, {
    id: order.id,
    number: order.number,
    language: order.language,
    placedAt: order.placedAt.toISOString(),
    lines: order.lines,
    price: order.price,
    billingAddress: order.billingAddress,
    shippingAddress: order.shippingAddress,
  });
  if (!parsed.success) {
    const where = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
    throw new Error(`order ${order.id} has a snapshot documents cannot read: ${where.join('; ')}`);
  }
  if (parsed.output.price.currency.code !== order.currency) {
    throw new Error(
      `order ${order.id} is in ${order.currency} but priced in ${parsed.output.price.currency.code}`,
    );
  }
  return parsed.output;
}
