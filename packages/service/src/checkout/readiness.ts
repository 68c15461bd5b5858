import { type DiscountedCart, findMethodOffer, type MethodOffer } from '@cartwright/commerce';
import {
  type BasisRow,
  type CartRow,
  type CustomerRow,
  type Executor,
  findBasis,
  type StoreContextRow,
} from '@cartwright/repository';
import { groupOf, openCartOf } from '../carts/cart.ts';
import { type CartPricing, priceStoredCart } from '../carts/pricing.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import type { Services } from '../kernel/services.ts';
import { providerKeyOf, unavailableProvider } from '../payments/providers.ts';

/** A cart that can become an order: priced without problems, its methods offered and held. */
export interface ReadyCart {
  readonly cart: CartRow;
  readonly customer: CustomerRow;
  readonly pricing: CartPricing;
  readonly priced: DiscountedCart;
  readonly shippingMethod: BasisRow<'shippingMethods'>;
  readonly paymentMethod: BasisRow<'paymentMethods'>;
}

/**
 * Everything checkout refuses before it writes: no customer, an empty cart, a missing address or
 * method, a payment method the channel does not offer, lines that cannot be bought as they are.
 * The chosen method rows stay locked FOR SHARE until the order commits, so neither can be deleted
 * under it.
 */
export async function checkReadiness(
  tx: Executor,
  services: Services,
  tenantId: string,
  context: StoreContextRow,
): Promise<Result<ReadyCart>> {
  const { customer, group } = await groupOf(tx, tenantId, context);
  if (!customer)
    return fail('UNAUTHENTICATED', 'Log in or register (a guest account is enough) before checkout.');
  const cart = await openCartOf(tx, services, tenantId, context);
  if (cart.lines.length === 0) return fail('CART_INVALID', 'The cart is empty.');
  const missing: { pointer: string; message: string }[] = [];
  if (!cart.billingAddress) missing.push({ pointer: '/billingAddress', message: 'set a billing address' });
  if (!cart.shippingAddress) missing.push({ pointer: '/shippingAddress', message: 'set a shipping address' });
  if (!cart.shippingMethodId)
    missing.push({ pointer: '/shippingMethodId', message: 'choose a shipping method' });
  if (!cart.paymentMethodId)
    missing.push({ pointer: '/paymentMethodId', message: 'choose a payment method' });
  if (missing.length > 0)
    return fail('CART_INVALID', 'The cart is not ready for checkout.', { errors: missing });
  const pricing = await priceStoredCart(tx, services, tenantId, cart, group);
  const paymentMethod = await findBasis(tx, 'paymentMethods', tenantId, cart.paymentMethodId!, 'share');
  const payment: MethodOffer | undefined = findMethodOffer(
    pricing.settings,
    'paymentMethods',
    cart.paymentMethodId!,
  );
  if (!paymentMethod || payment?.active !== true) {
    return fail('CART_INVALID', 'Choose another payment method.', {
      errors: [{ pointer: '/paymentMethodId', message: 'not available' }],
    });
  }
  const provider = providerKeyOf(paymentMethod);
  const unavailable = provider === null ? null : await unavailableProvider(tx, services, tenantId, provider);
  if (unavailable) {
    return fail('CART_INVALID', 'Choose another payment method: the payment provider is not set up.', {
      errors: [{ pointer: '/paymentMethodId', message: unavailable }],
    });
  }
  const shippingMethod = (await findBasis(tx, 'shippingMethods', tenantId, cart.shippingMethodId!, 'share'))!;
  if (pricing.problems.length > 0 || !pricing.priced) {
    return fail('CART_INVALID', 'Some lines of the cart cannot be bought as they are.', {
      extensions: { problems: pricing.problems },
    });
  }
  return ok({ cart, customer, pricing, priced: pricing.priced, shippingMethod, paymentMethod });
}
