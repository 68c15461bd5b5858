import {
  type CartRow,
  type CustomerRow,
  type Executor,
  findCustomersByIds,
  listOpenCarts,
  readOnlyTransaction,
} from '@cartwright/repository';
import * as v from 'valibot';
import { decodeChangeCursor, encodeChangeCursor, unknownCursor } from '../kernel/cursor.ts';
import { ok } from '../kernel/errors.ts';
import { defineOperation } from '../kernel/registry.ts';
import { iso, Limit, Timestamp, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { NO_APP_RATES } from './app-shipping.ts';
import { priceModeOf, priceStoredCart } from './pricing.ts';

// The merchant's view of the shop's open carts (issue 20: the rule builder previews against a
// cart the merchant chooses). A cart is named by its id; its visitor's context token is a secret
// and never leaves the storefront, so nothing here carries it.

/** Who may list carts, and so name one by id to `automation.preview`: those who read orders. */
export const CART_LIST_PERMISSION = 'orders.read';

const OpenCart = v.object({
  id: Uuid,
  channelId: Uuid,
  customerId: v.nullable(Uuid),
  /** The customer's e-mail when the cart belongs to one (a registered customer or a guest). */
  customerEmail: v.nullable(v.string()),
  lineCount: v.number(),
  /**
   * Σ line totals in minor units of `currency`, priced now in the cart's price mode (gross for
   * consumers, net for business customers), before shipping and promotions; null when the cart
   * cannot be priced (its currency is not offered).
   */
  itemTotal: v.nullable(v.number()),
  currency: v.string(),
  priceMode: v.picklist(['gross', 'net']),
  updatedAt: Timestamp,
});

export const listShopCarts = defineOperation({
  name: 'carts.list',
  summary:
    'The shop’s open carts, most recently changed first, a page at a time (`limit` up to 100; `before` is the previous page’s `next`): each with its id, channel, customer id and e-mail when it has a customer, line count, item total (minor units of its currency, priced now in its price mode, before shipping and promotions) and last change. Never a context token. Pass a cart’s id to `automation.preview` as `cartId` to test a rule against it.',
  http: { method: 'GET', path: '/api/carts' },
  permission: CART_LIST_PERMISSION,
  readOnly: true,
  input: v.object({ limit: Limit, before: v.optional(v.pipe(v.string(), v.maxLength(200))) }),
  output: v.object({ items: v.array(OpenCart), next: v.nullable(v.string()) }),
  async handler({ services, tenantId }, input) {
    const before = input.before ? decodeChangeCursor(input.before) : undefined;
    if (input.before && !before) return unknownCursor('/before');
    return services.database.transaction(async (tx) => {
      // Pricing reads only; the database refuses any write it might attempt.
      await readOnlyTransaction(tx);
      const rows = await listOpenCarts(tx, tenantId, {
        limit: input.limit + 1,
        ...(before ? { before } : {}),
      });
      const page = rows.slice(0, input.limit);
      const customerIds = [...new Set(page.flatMap((cart) => (cart.customerId ? [cart.customerId] : [])))];
      const customers = new Map(
        (await findCustomersByIds(tx, tenantId, customerIds)).map((customer) => [customer.id, customer]),
      );
      const items = [];
      for (const cart of page) {
        const customer = cart.customerId ? customers.get(cart.customerId) : undefined;
        items.push(await openCartView(tx, services, tenantId, cart, customer ?? null));
      }
      const last = page.at(-1);
      return ok({ items, next: rows.length > input.limit && last ? encodeChangeCursor(last) : null });
    });
  },
});

/** One listed cart, priced for its customer's group without asking any shipping app. */
async function openCartView(
  tx: Executor,
  services: Services,
  tenantId: string,
  cart: CartRow,
  customer: CustomerRow | null,
): Promise<v.InferOutput<typeof OpenCart>> {
  const group = customer?.group ?? null;
  const { priced } = await priceStoredCart(tx, services, tenantId, cart, group, NO_APP_RATES);
  return {
    id: cart.id,
    channelId: cart.channelId,
    customerId: cart.customerId,
    customerEmail: customer?.email ?? null,
    lineCount: cart.lines.length,
    itemTotal: priced ? priced.subtotal[priced.priceMode] : null,
    currency: cart.currency,
    priceMode: priced?.priceMode ?? priceModeOf(group),
    updatedAt: iso(cart.updatedAt),
  };
}
