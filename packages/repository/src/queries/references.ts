import { asc, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { carts, channels, definitions, orders, products, shippingMethods, taxRules } from '../schema.ts';
import { findRedemptionsNaming } from './promotions.ts';
import { inTenant } from './tenant-rows.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** At most this many records per table kind are listed: enough to act on, bounded on any shop. */
const LIMIT = 100;

export interface Reference {
  readonly kind:
    | 'rule'
    | 'flow'
    | 'promotion'
    | 'channel'
    | 'product'
    | 'shipping_method'
    | 'tax_rule'
    | 'order'
    | 'cart'
    | 'promotion_redemption';
  readonly id: string;
  /** A human handle when the record has one: a definition's or channel's key, an order's number. */
  readonly key?: string | null;
}

/**
 * Everything in the shop that names `id`: definitions and channels whose JSON holds the id as a
 * value anywhere (any exact id in rule or flow JSON counts; channel overrides key methods by id),
 * products and shipping methods that use it as their tax class, the shop's tax destination rules
 * that name it as their tax class or saved rule condition, orders whose shipping or payment
 * method snapshot carries it, open carts that chose it as their shipping or payment method, and
 * the redemptions of the promotion, or of a promotion that referenced the rule when it was redeemed.
 *
 * The one search behind every refused delete and every dependencies listing, so what the
 * merchant is shown as blocking is exactly what the delete checks. Ordered carts are left out:
 * their order carries the method, and the cart itself is never priced or checked out again.
 */
export async function findReferences(tx: Executor, tenantId: string, id: string): Promise<Reference[]> {
  const quoted = JSON.stringify(id);
  const fromDefinitions = await tx
    .select({ kind: definitions.kind, id: definitions.id, key: definitions.key })
    .from(definitions)
    .where(inTenant(definitions, tenantId, sql`strpos(${definitions.data}::text, ${quoted}) > 0`))
    .orderBy(asc(definitions.id))
    .limit(LIMIT);
  const fromChannels = await tx
    .select({ id: channels.id, key: channels.key })
    .from(channels)
    .where(inTenant(channels, tenantId, sql`strpos(${channels.data}::text, ${quoted}) > 0`))
    .orderBy(asc(channels.id))
    .limit(LIMIT);
  const named = [...fromDefinitions, ...fromChannels.map((row) => ({ kind: 'channel' as const, ...row }))];
  // The columns below are uuid-typed: a non-uuid key (a language or currency code) cannot match
  // them and would make PostgreSQL reject the comparison.
  if (!UUID.test(id)) return named;
  const fromProducts = await tx
    .select({ id: products.id })
    .from(products)
    .where(inTenant(products, tenantId, eq(products.taxClassId, id)))
    .limit(LIMIT);
  const fromShippingMethods = await tx
    .select({ id: shippingMethods.id, key: shippingMethods.key })
    .from(shippingMethods)
    .where(inTenant(shippingMethods, tenantId, eq(shippingMethods.taxClassId, id)))
    .limit(LIMIT);
  const fromTaxRules = await tx
    .select({ id: taxRules.id })
    .from(taxRules)
    .where(inTenant(taxRules, tenantId, or(eq(taxRules.taxClassId, id), eq(taxRules.ruleId, id))))
    .orderBy(asc(taxRules.id))
    .limit(LIMIT);
  const fromOrders = await tx
    .select({ id: orders.id, number: orders.number })
    .from(orders)
    .where(
      inTenant(
        orders,
        tenantId,
        or(sql`${orders.shippingMethod}->>'id' = ${id}`, sql`${orders.paymentMethod}->>'id' = ${id}`),
      ),
    )
    .orderBy(asc(orders.number))
    .limit(LIMIT);
  const fromCarts = await tx
    .select({ id: carts.id })
    .from(carts)
    .where(
      inTenant(
        carts,
        tenantId,
        eq(carts.status, 'open'),
        or(eq(carts.shippingMethodId, id), eq(carts.paymentMethodId, id)),
      ),
    )
    .orderBy(asc(carts.id))
    .limit(LIMIT);
  return [
    ...named,
    ...fromProducts.map((row) => ({ kind: 'product' as const, id: row.id })),
    ...fromShippingMethods.map((row) => ({ kind: 'shipping_method' as const, ...row })),
    ...fromTaxRules.map((row) => ({ kind: 'tax_rule' as const, id: row.id })),
    ...fromOrders.map((row) => ({ kind: 'order' as const, id: row.id, key: String(row.number) })),
    ...fromCarts.map((row) => ({ kind: 'cart' as const, id: row.id })),
    ...(await findRedemptionsNaming(tx, tenantId, id, LIMIT)).map((row) => ({
      kind: 'promotion_redemption' as const,
      id: row.id,
      key: row.orderId,
    })),
  ];
}
