import {
  type CartPriceInput,
  type DiscountedCart,
  type PricedCart,
  priceCart,
  resolveTranslated,
} from '@cartwright/commerce';
import {
  type CartRow,
  type CustomerHistoryRow,
  type CustomerRow,
  type Executor,
  findBasis,
  findCustomer,
  findCustomerHistory,
  findProduct,
  findTenant,
  listVariants,
  type ProductRow,
} from '@cartwright/repository';
import type { Facts } from '@cartwright/rules-engine';
import type { JsonObject } from '@cartwright/settings-inheritance';
import { compileWithSavedRules } from '../automation/rules.ts';
import { effectiveProduct } from '../catalog/product-view.ts';
import type { Services } from '../kernel/services.ts';
import { type AppliedPromotion, applyPromotions, type PromotionCodeState } from '../promotions/pricing.ts';
import { type AppShippingRates, appShippingRates, type ShippingRate } from './app-shipping.ts';
import { type ChannelPricing, channelPricing, destinationOf } from './channel-pricing.ts';
import { cartFacts } from './facts.ts';

/** Why a cart line cannot be bought as it is; checkout refuses while any remains. */
export interface CartProblem {
  readonly lineId: string | null;
  readonly code:
    | 'PRODUCT_UNAVAILABLE'
    | 'CHOOSE_A_VARIANT'
    | 'NO_PRICE'
    | 'NO_TAX_CLASS'
    | 'SHIPPING_METHOD_UNAVAILABLE'
    | 'SHIPPING_PRICE_MISSING'
    | 'SHIPPING_RATE_UNAVAILABLE'
    | 'CURRENCY_UNAVAILABLE'
    | 'DELIVERY_COUNTRY_UNAVAILABLE'
    | 'AMOUNT_OUT_OF_RANGE'
    | 'PROMOTION_CODE_EXHAUSTED';
  readonly detail: string;
}

/** What the storefront shows of a line besides its price. */
export interface CartLineInfo {
  readonly id: string;
  readonly productId: string;
  readonly sku: string;
  readonly name: string | null;
  readonly quantity: number;
  readonly shippingFree: boolean;
}

/** A cart priced before promotions (one pass of `pricePass`). */
interface CartPrices {
  readonly priced: PricedCart | null;
  readonly lines: readonly CartLineInfo[];
  readonly problems: readonly CartProblem[];
  /** The effective products of the priceable lines, by product id (for snapshots and facts). */
  readonly products: ReadonlyMap<string, ProductRow>;
  /** The tax rate applied per product id (hundredths of a percent). */
  readonly taxRates: ReadonlyMap<string, number>;
  /** The channel's effective settings the cart was priced under (orders keep them). */
  readonly settings: JsonObject;
}

export interface CartPricing extends CartPrices {
  /**
   * The priced cart with its promotions' discounts (lines with problems left out), or null when
   * the currency is unusable or the total is too large to hold in minor units.
   */
  readonly priced: DiscountedCart | null;
  /** The promotions the cart earned, in the order they were applied. */
  readonly promotions: readonly AppliedPromotion[];
  /** What became of each code the visitor entered. */
  readonly promotionCodes: readonly PromotionCodeState[];
}

/** Consumers see and pay gross prices; business customers net prices plus tax. */
export function priceModeOf(group: 'consumer' | 'business' | null): 'gross' | 'net' {
  return group === 'business' ? 'net' : 'gross';
}

/**
 * Prices a stored cart with `@cartwright/commerce` under its channel's effective settings:
 * effective products (variants through their parents), the price in the cart currency, the tax
 * rate of each product's tax class for the shipping destination (a matching tax destination rule
 * of the channel, else the class's rate for the country, else its default rate; the default rate
 * while no address is set), and the chosen shipping method as the channel offers it, taxed by its
 * own tax class or else by the highest rate among the lines. A destination rule with a saved rule
 * condition applies when that rule matches the cart as priced without such rules (decision 0023).
 * Last, the shop's promotions take their discounts (`applyPromotions`, decision 0031). `rates`
 * answers app-priced shipping (default: the apps are asked; a list that shows only the lines'
 * subtotal passes `NO_APP_RATES` and asks no app).
 */
export async function priceStoredCart(
  tx: Executor,
  services: Services,
  tenantId: string,
  cart: CartRow,
  group: 'consumer' | 'business' | null,
  rates: AppShippingRates = appShippingRates(tx, services, tenantId),
): Promise<CartPricing> {
  const channel = await channelPricing(tx, tenantId, cart.channelId);
  const at = services.clock.now();
  const factsOf = cartFactsReader(tx, tenantId, cart, at);
  const pass = { tx, tenantId, cart, group, channel, at, rates };
  let prices = await pricePass(pass, new Set());
  if (channel.conditionRuleIds.length > 0) {
    const matching = await matchingRules(tx, tenantId, await factsOf(prices), channel.conditionRuleIds);
    if (matching.size > 0) prices = await pricePass(pass, matching);
  }
  const priced = prices;
  const promotions = await applyPromotions(
    tx,
    tenantId,
    cart.promotionCodes,
    priced.priced,
    () => factsOf(priced),
    at,
  );
  return {
    ...priced,
    priced: promotions.priced,
    promotions: promotions.promotions,
    promotionCodes: promotions.promotionCodes,
    problems: [
      ...priced.problems,
      ...promotions.exhaustedCodes.map((code) => ({
        lineId: null,
        code: 'PROMOTION_CODE_EXHAUSTED' as const,
        detail: `The code ${code} has been redeemed as often as it may be; remove it to check out.`,
      })),
    ],
  };
}

/** The rule facts of the cart as priced, its customer and their history read once, on first use. */
function cartFactsReader(tx: Executor, tenantId: string, cart: CartRow, at: Date) {
  let people: Promise<{ customer: CustomerRow | null; history: CustomerHistoryRow | null }> | undefined;
  return async (prices: CartPrices): Promise<Facts> => {
    people ??= (async () => {
      const customer = cart.customerId ? ((await findCustomer(tx, tenantId, cart.customerId)) ?? null) : null;
      const history = customer ? ((await findCustomerHistory(tx, tenantId, customer.id)) ?? null) : null;
      return { customer, history };
    })();
    const { customer, history } = await people;
    return cartFacts(cart, prices, customer, history, at);
  };
}

/** The saved rules (of `ruleIds`) that match the cart's `facts`. */
async function matchingRules(
  tx: Executor,
  tenantId: string,
  facts: Facts,
  ruleIds: readonly string[],
): Promise<Set<string>> {
  const matching = new Set<string>();
  for (const ruleId of ruleIds) {
    // A missing, inactive or order-scope rule does not match: the destination rule stays out.
    const compiled = await compileWithSavedRules(tx, tenantId, { type: 'ruleReference', ruleId }, '');
    if (!compiled.ok) continue;
    // A rule reading a scope a cart lacks decides nothing here.
    const decided = compiled.value.evaluate(facts);
    if (decided.ok && decided.value) matching.add(ruleId);
  }
  return matching;
}

/** What every pass over one cart shares, its app shipping rates included (asked once per pricing). */
interface PassScope {
  readonly tx: Executor;
  readonly tenantId: string;
  readonly cart: CartRow;
  readonly group: 'consumer' | 'business' | null;
  readonly channel: ChannelPricing;
  readonly at: Date;
  readonly rates: AppShippingRates;
}

async function pricePass(
  { tx, tenantId, cart, group, channel, at, rates }: PassScope,
  matchingRuleIds: ReadonlySet<string>,
): Promise<CartPrices> {
  const settings = channel.effective;
  const destination = destinationOf(cart.shippingAddress);
  const rateOf = (taxClassId: string | null) =>
    channel.rateOf(taxClassId, destination, at.toISOString(), matchingRuleIds);
  const problems: CartProblem[] = [];
  const lines: CartLineInfo[] = [];
  const products = new Map<string, ProductRow>();
  const taxRates = new Map<string, number>();
  const tenant = await findTenant(tx, tenantId);
  const mainLanguage = tenant?.mainLanguage ?? 'en';
  const currency = await findBasis(tx, 'currencies', tenantId, cart.currency);
  const priceable: Parameters<typeof priceCart>[0]['lines'] = [];

  for (const line of cart.lines) {
    const own = await findProduct(tx, tenantId, line.productId);
    const parent = own?.parentId ? ((await findProduct(tx, tenantId, own.parentId)) ?? null) : null;
    const product = own ? effectiveProduct(own, parent) : null;
    const name = product?.translations
      ? (resolveTranslated(product.translations, 'name', cart.language, mainLanguage)?.value ?? null)
      : null;
    const shippingFree = product?.flags?.shippingFree === true;
    lines.push({
      id: line.id,
      productId: line.productId,
      sku: product?.sku ?? '',
      name,
      quantity: line.quantity,
      shippingFree,
    });
    if (!product || product.active === false || !channel.sells(product)) {
      problems.push({
        lineId: line.id,
        code: 'PRODUCT_UNAVAILABLE',
        detail: 'This product is not available.',
      });
      continue;
    }
    if (!product.parentId && (await listVariants(tx, tenantId, product.id)).length > 0) {
      problems.push({
        lineId: line.id,
        code: 'CHOOSE_A_VARIANT',
        detail: 'Choose one of the product’s variants.',
      });
      continue;
    }
    const price = product.prices?.find((candidate) => candidate.currency === cart.currency);
    if (!price) {
      problems.push({
        lineId: line.id,
        code: 'NO_PRICE',
        detail: `The product has no price in ${cart.currency}.`,
      });
      continue;
    }
    if (!isSafePrice(price)) {
      // Stored before prices were bounded (decision 0025): never a 500, a problem of this line.
      problems.push({
        lineId: line.id,
        code: 'AMOUNT_OUT_OF_RANGE',
        detail: 'The product’s price is too large to hold in minor units.',
      });
      continue;
    }
    const rate = rateOf(product.taxClassId);
    if (rate === null) {
      problems.push({
        lineId: line.id,
        code: 'NO_TAX_CLASS',
        detail: 'The product has no usable tax class.',
      });
      continue;
    }
    products.set(product.id, product);
    taxRates.set(product.id, rate);
    priceable.push({
      id: line.id,
      productId: product.id,
      sku: product.sku,
      quantity: line.quantity,
      unitPrice: { gross: price.gross, net: price.net },
      taxRate: rate,
      shippingFree,
    });
  }

  if (!currency?.active) {
    problems.push({
      lineId: null,
      code: 'CURRENCY_UNAVAILABLE',
      detail: `The currency ${cart.currency} is not offered.`,
    });
    return { priced: null, lines, problems, products, taxRates, settings };
  }

  // The channel delivers to its effective delivery countries only.
  const delivered = settings.deliveryCountries;
  if (destination && Array.isArray(delivered) && !delivered.includes(destination.country)) {
    problems.push({
      lineId: null,
      code: 'DELIVERY_COUNTRY_UNAVAILABLE',
      detail: `This shop does not deliver to ${destination.country} through this channel.`,
    });
  }

  const unshipped: CartPriceInput = {
    currency: { code: currency.code, precision: currency.precision },
    priceMode: priceModeOf(group),
    lines: priceable,
    shipping: null,
  };
  let shipping: CartPriceInput['shipping'] = null;
  if (cart.shippingMethodId) {
    const method = channel.shippingMethod(cart.shippingMethodId);
    if (!method?.active) {
      problems.push({
        lineId: null,
        code: 'SHIPPING_METHOD_UNAVAILABLE',
        detail: 'Choose another shipping method.',
      });
    } else {
      const ownRate = rateOf(method.taxClassId);
      const rate = ownRate ?? Math.max(0, ...priceable.map((line) => line.taxRate));
      const price = method.appId
        ? await appShippingPrice(rates, method.appId, unshipped, destination?.country)
        : method.prices.find((candidate) => candidate.currency === cart.currency);
      if (price === 'unavailable') {
        problems.push({
          lineId: null,
          code: 'SHIPPING_RATE_UNAVAILABLE',
          detail:
            'The shipping rate cannot be calculated right now; try again or choose another shipping method.',
        });
      } else if (price === 'unpriceable') {
        // Shipping stays out: the lines' total is the cart's problem (AMOUNT_OUT_OF_RANGE).
      } else if (price && !isSafePrice(price)) {
        problems.push({
          lineId: null,
          code: 'AMOUNT_OUT_OF_RANGE',
          detail: 'The shipping method’s price is too large to hold in minor units.',
        });
      } else {
        shipping = { price: price ? { gross: price.gross, net: price.net } : null, taxRate: rate };
      }
    }
  }

  const priced = priceReporting({ ...unshipped, shipping }, problems);
  return { priced, lines, problems, products, taxRates, settings };
}

/**
 * The price of a method its app computes, asked with the lines as they will be priced: their units
 * and gross subtotal before promotions. `'unavailable'` when the app gives no usable rate (the
 * cart's problem, never a free rate). Nothing is asked when every line ships free (undefined: no
 * price is needed) or when even the lines' total cannot be priced (`'unpriceable'`).
 */
async function appShippingPrice(
  rates: AppShippingRates,
  appId: string,
  unshipped: CartPriceInput,
  country: string | undefined,
): Promise<ShippingRate | 'unavailable' | 'unpriceable' | undefined> {
  // The lines' own problems are the final pricing's to report.
  const lines = priceReporting(unshipped, []);
  if (!lines) return 'unpriceable';
  const kept = new Set(lines.lines.map((line) => line.id));
  if (unshipped.lines.every((line) => line.shippingFree || !kept.has(line.id))) return undefined;
  const rate = await rates(appId, {
    currency: unshipped.currency.code,
    ...(country === undefined ? {} : { country }),
    quantity: lines.lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotal: lines.subtotal.gross,
  });
  return rate ?? 'unavailable';
}

/** Both components are amounts `priceCart` takes (safe, non-negative integers). */
function isSafePrice(price: { readonly gross: number; readonly net: number }): boolean {
  return [price.gross, price.net].every((amount) => Number.isSafeInteger(amount) && amount >= 0);
}

/**
 * `priceCart`, with the refusals a cart can earn turned into its problems (decision 0025): a line
 * whose own total leaves the safe integers is left out (`AMOUNT_OUT_OF_RANGE` on that line); a
 * shipping method without a price in the currency (`SHIPPING_PRICE_MISSING`) or a total too large
 * (`AMOUNT_OUT_OF_RANGE`, no line) leaves shipping out; a total too large even then leaves the
 * cart unpriced (null). Any other refusal is of input this service built, a bug: it throws.
 */
function priceReporting(input: CartPriceInput, problems: CartProblem[]): PricedCart | null {
  let attempt = input;
  let totalReported = false;
  for (;;) {
    const priced = priceCart(attempt);
    if (priced.ok) return priced.value;
    const { lineId } = priced;
    if (priced.code === 'AMOUNT_OUT_OF_RANGE' && lineId !== undefined) {
      problems.push({
        lineId,
        code: 'AMOUNT_OUT_OF_RANGE',
        detail: 'The line total is too large to price; lower the quantity.',
      });
      attempt = { ...attempt, lines: attempt.lines.filter((line) => line.id !== lineId) };
      continue;
    }
    if (priced.code === 'SHIPPING_PRICE_MISSING') {
      problems.push({ lineId: null, code: 'SHIPPING_PRICE_MISSING', detail: priced.detail });
    } else if (priced.code === 'AMOUNT_OUT_OF_RANGE') {
      if (!totalReported) {
        problems.push({
          lineId: null,
          code: 'AMOUNT_OUT_OF_RANGE',
          detail: 'The cart total is too large to price; remove lines or lower quantities.',
        });
      }
      totalReported = true;
    } else {
      throw new Error(`cart pricing failed: ${priced.code} ${priced.detail}`);
    }
    if (attempt.shipping === null) return null;
    attempt = { ...attempt, shipping: null };
  }
}
