import { MAX_LINE_QUANTITY } from '@cartwright/commerce';
import {
  type CartRow,
  type Executor,
  findBasis,
  findProduct,
  findProductBySku,
  type StoreContextRow,
  updateCart,
} from '@cartwright/repository';
import * as v from 'valibot';
import { isInChannel } from '../catalog/channel-assortment.ts';
import { Address, checkAddress } from '../customers/addresses.ts';
import { contextRequired, resolveStoreContext } from '../customers/contexts.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { defineStoreOperation, type StoreOperationContext } from '../kernel/registry.ts';
import { Uuid } from '../kernel/schemas.ts';
import { codeKey } from '../promotions/definition.ts';
import { promotionCodeExists } from '../promotions/pricing.ts';
import { openCartOf, viewCart } from './cart.ts';

const Amounts = v.object({ net: v.number(), tax: v.number(), gross: v.number() });
const CartLine = v.object({
  id: Uuid,
  productId: Uuid,
  sku: v.string(),
  name: v.nullable(v.string()),
  quantity: v.number(),
  unitPrice: v.nullable(v.number()),
  total: v.nullable(Amounts),
  taxRate: v.nullable(v.number()),
});
const AddressOut = v.record(v.string(), v.unknown());
export const Cart = v.object({
  id: v.nullable(Uuid),
  currency: v.string(),
  language: v.string(),
  priceMode: v.picklist(['gross', 'net']),
  lines: v.array(CartLine),
  subtotal: Amounts,
  shipping: v.object({ ...Amounts.entries, taxRate: v.number() }),
  promotions: v.array(
    v.object({
      promotionId: Uuid,
      name: v.nullable(v.string()),
      code: v.nullable(v.string()),
      amount: Amounts,
    }),
  ),
  promotionCodes: v.array(
    v.object({
      code: v.string(),
      promotionId: v.nullable(Uuid),
      status: v.picklist(['applied', 'not_applicable', 'exhausted', 'unknown']),
    }),
  ),
  discountTotal: Amounts,
  taxes: v.array(v.object({ rate: v.number(), tax: v.number(), base: v.number() })),
  total: Amounts,
  billingAddress: v.nullable(AddressOut),
  shippingAddress: v.nullable(AddressOut),
  shippingMethodId: v.nullable(Uuid),
  paymentMethodId: v.nullable(Uuid),
  customerId: v.nullable(Uuid),
  problems: v.array(v.object({ lineId: v.nullable(Uuid), code: v.string(), detail: v.string() })),
  revision: v.number(),
});
const MAX_LINES = 100;
const Quantity = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_LINE_QUANTITY));

/** Runs `work` on the visitor's open cart in one transaction and answers the repriced cart. */
async function withCart(
  { services, storefront, tenantId }: StoreOperationContext,
  work: (tx: Executor, cart: CartRow, context: StoreContextRow) => Promise<Failure | Partial<CartRow>>,
): Promise<Result<v.InferOutput<typeof Cart>>> {
  return services.database.transaction(async (tx) => {
    const context = await resolveStoreContext(tx, services, storefront);
    if (!context) return contextRequired();
    const cart = await openCartOf(tx, services, tenantId, context);
    const changes = await work(tx, cart, context);
    if ('ok' in changes && changes.ok === false) return changes as Failure;
    const updated = await updateCart(tx, tenantId, cart.id, {
      ...(changes as Partial<CartRow>),
      revision: cart.revision + 1,
      updatedAt: services.clock.now(),
    });
    return ok((await viewCart(tx, services, tenantId, updated, context)) as v.InferOutput<typeof Cart>);
  });
}

export const getCart = defineStoreOperation({
  name: 'store.cart.get',
  summary: 'The visitor’s cart with prices, taxes and shipping calculated now.',
  http: { method: 'GET', path: '/store-api/cart' },
  readOnly: true,
  input: v.object({}),
  output: Cart,
  async handler({ services, storefront, tenantId }) {
    const db = services.database.db;
    const context = await resolveStoreContext(db, services, storefront);
    if (!context) return contextRequired();
    return services.database.transaction(async (tx) => {
      const cart = await openCartOf(tx, services, tenantId, context);
      return ok((await viewCart(tx, services, tenantId, cart, context)) as v.InferOutput<typeof Cart>);
    });
  },
});

export const addCartLine = defineStoreOperation({
  name: 'store.cart.lines.add',
  summary: 'Adds a product (by id or SKU) to the cart; the same product again adds to its quantity.',
  http: { method: 'POST', path: '/store-api/cart/lines' },
  readOnly: false,
  input: v.pipe(
    v.object({
      productId: v.optional(Uuid),
      sku: v.optional(v.pipe(v.string(), v.maxLength(200))),
      quantity: Quantity,
    }),
    v.check(
      (input) => (input.productId === undefined) !== (input.sku === undefined),
      'give productId or sku',
    ),
  ),
  output: Cart,
  handler: (context, input) =>
    withCart(context, async (tx, cart) => {
      const product = input.productId
        ? await findProduct(tx, context.tenantId, input.productId)
        : await findProductBySku(tx, context.tenantId, input.sku!);
      // A product the channel does not show answers as if it did not exist (decision 0030).
      if (!product || !(await isInChannel(tx, context.storefront, product))) {
        return fail('NOT_FOUND', 'No such product exists in this shop.');
      }
      const existing = cart.lines.find((line) => line.productId === product.id);
      const quantity = (existing?.quantity ?? 0) + input.quantity;
      if (quantity > MAX_LINE_QUANTITY) {
        return fail('VALIDATION_FAILED', `At most ${MAX_LINE_QUANTITY} of one product fit in a cart.`, {
          errors: [
            {
              pointer: '/quantity',
              message: `at most ${MAX_LINE_QUANTITY - (existing?.quantity ?? 0)} more`,
            },
          ],
        });
      }
      if (!existing && cart.lines.length >= MAX_LINES) {
        return fail('VALIDATION_FAILED', `A cart holds at most ${MAX_LINES} lines.`);
      }
      const lines = existing
        ? cart.lines.map((line) => (line.id === existing.id ? { ...line, quantity } : line))
        : [...cart.lines, { id: context.services.ids.next(), productId: product.id, quantity }];
      return { lines };
    }),
});

export const updateCartLine = defineStoreOperation({
  name: 'store.cart.lines.update',
  summary: 'Sets the quantity of a cart line.',
  http: { method: 'PATCH', path: '/store-api/cart/lines/:lineId' },
  readOnly: false,
  input: v.object({ lineId: Uuid, quantity: Quantity }),
  output: Cart,
  handler: (context, input) =>
    withCart(context, async (_tx, cart) => {
      if (!cart.lines.some((line) => line.id === input.lineId))
        return fail('NOT_FOUND', 'No such line in the cart.');
      return {
        lines: cart.lines.map((line) =>
          line.id === input.lineId ? { ...line, quantity: input.quantity } : line,
        ),
      };
    }),
});

export const removeCartLine = defineStoreOperation({
  name: 'store.cart.lines.remove',
  summary: 'Removes a line from the cart.',
  http: { method: 'DELETE', path: '/store-api/cart/lines/:lineId' },
  readOnly: false,
  input: v.object({ lineId: Uuid }),
  output: Cart,
  handler: (context, input) =>
    withCart(context, async (_tx, cart) => {
      if (!cart.lines.some((line) => line.id === input.lineId))
        return fail('NOT_FOUND', 'No such line in the cart.');
      return { lines: cart.lines.filter((line) => line.id !== input.lineId) };
    }),
});

export const updateCartChoices = defineStoreOperation({
  name: 'store.cart.update',
  summary: 'Sets the cart’s addresses, shipping and payment method, or currency.',
  http: { method: 'PATCH', path: '/store-api/cart' },
  readOnly: false,
  input: v.object({
    billingAddress: v.optional(Address),
    shippingAddress: v.optional(Address),
    shippingMethodId: v.optional(Uuid),
    paymentMethodId: v.optional(Uuid),
    currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))),
  }),
  output: Cart,
  handler: (context, input) =>
    withCart(context, async (tx) => {
      const { tenantId } = context;
      for (const [field, address] of [
        ['billingAddress', input.billingAddress],
        ['shippingAddress', input.shippingAddress],
      ] as const) {
        if (!address) continue;
        const refused = await checkAddress(tx, tenantId, address, `/${field}`, { requireActive: true });
        if (refused) return refused;
      }
      // Chosen records are held FOR SHARE until the cart commits: a concurrent delete waits, then
      // finds this cart among the references (or this choice waits and finds the record gone).
      if (input.shippingMethodId) {
        const method = await findBasis(tx, 'shippingMethods', tenantId, input.shippingMethodId, 'share');
        if (!method?.active) return invalidChoice('/shippingMethodId', 'no such active shipping method');
      }
      if (input.paymentMethodId) {
        const method = await findBasis(tx, 'paymentMethods', tenantId, input.paymentMethodId, 'share');
        if (!method?.active) return invalidChoice('/paymentMethodId', 'no such active payment method');
      }
      if (input.currency) {
        const currency = await findBasis(tx, 'currencies', tenantId, input.currency, 'share');
        if (!currency?.active) return invalidChoice('/currency', 'not offered by this shop');
      }
      return Object.fromEntries(
        Object.entries(input).filter(([, value]) => value !== undefined),
      ) as Partial<CartRow>;
    }),
});

function invalidChoice(pointer: string, message: string): Failure {
  return fail('VALIDATION_FAILED', 'The cart cannot use this choice.', { errors: [{ pointer, message }] });
}

/** The most promotion codes one cart holds. */
const MAX_CODES = 10;

const PromotionCode = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64));

export const addPromotionCode = defineStoreOperation({
  name: 'store.cart.promotionCodes.add',
  summary:
    'Enters a promotion code into the cart. A code no promotion of the shop holds is refused; an entered code shows whether it applies (`promotionCodes`), and the discounts it earns show under `promotions`.',
  http: { method: 'POST', path: '/store-api/cart/promotion-codes' },
  readOnly: false,
  input: v.object({ code: PromotionCode }),
  output: Cart,
  handler: (context, input) =>
    withCart(context, async (tx, cart) => {
      const key = codeKey(input.code);
      if (cart.promotionCodes.some((code) => codeKey(code) === key)) return {};
      if (!(await promotionCodeExists(tx, context.tenantId, input.code))) {
        return fail('PROMOTION_CODE_UNKNOWN', 'No promotion of this shop has this code.', {
          errors: [{ pointer: '/code', message: 'unknown code' }],
        });
      }
      if (cart.promotionCodes.length >= MAX_CODES) {
        return fail('VALIDATION_FAILED', `A cart holds at most ${MAX_CODES} promotion codes.`, {
          errors: [{ pointer: '/code', message: 'too many codes' }],
        });
      }
      return { promotionCodes: [...cart.promotionCodes, input.code] };
    }),
});

export const removePromotionCode = defineStoreOperation({
  name: 'store.cart.promotionCodes.remove',
  summary: 'Takes a promotion code out of the cart (compared without regard to case).',
  http: { method: 'DELETE', path: '/store-api/cart/promotion-codes/:code' },
  readOnly: false,
  input: v.object({ code: PromotionCode }),
  output: Cart,
  handler: (context, input) =>
    withCart(context, async (_tx, cart) => {
      const key = codeKey(input.code);
      if (!cart.promotionCodes.some((code) => codeKey(code) === key)) {
        return fail('NOT_FOUND', 'The cart holds no such promotion code.');
      }
      return { promotionCodes: cart.promotionCodes.filter((code) => codeKey(code) !== key) };
    }),
});
