import { idMatches, idSet, numberMatches } from '../compare.ts';
import type { Facts, LineItemFacts } from '../facts.ts';
import { cartLineItems, forEachItem, someItem } from './line-items.ts';
import { type Evaluator, factsCondition } from './model.ts';

// Conditions over the cart as a whole (group `cart`), the cart's choice of payment and shipping
// method, and the count of promotions in it.

/** `Rule::VOLUME_FACTOR`: rule volumes are cubic metres, item volumes cubic millimetres. */
const VOLUME_FACTOR = 1e9;

function numberOr(given: unknown, fallback: number | null): number | null {
  if (typeof given === 'number') return given;
  return given === undefined ? fallback : null;
}

/**
 * A cart figure against a number parameter. `fallback` is the reference's default for a missing
 * parameter (its `(float) null` casts give 0; a nullable parameter stays null).
 */
function cartNumber(
  parameter: string,
  fallback: number | null,
  read: (facts: Facts) => number | null,
): Evaluator {
  return factsCondition({
    prepare: (value) => ({ operator: value.operator, expected: numberOr(value[parameter], fallback) }),
    read,
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  });
}

const isFreeDelivery = (item: LineItemFacts): boolean => item.delivery?.freeDelivery === true;

export const CART_EVALUATORS: Readonly<Record<string, Evaluator>> = {
  /** Any goods item (nested included) ships free, or, in the line-item scope, that item does. */
  cartHasDeliveryFreeItem: factsCondition({
    prepare: (value) => ({ allowed: typeof value.allowed === 'boolean' ? value.allowed : true }),
    read: (facts, item) =>
      item !== undefined ? isFreeDelivery(item) : someItem(cartLineItems(facts), true, isFreeDelivery),
    test: (actual, { allowed }) => actual === allowed,
  }),
  /** Goods' purchase prices (of the rule's type) times quantity; a missing price counts 0. */
  cartTotalPurchasePrice: factsCondition({
    prepare: (value) => {
      const given = value.type ?? 'gross';
      const type: 'gross' | 'net' | null = given === 'gross' || given === 'net' ? given : null;
      return {
        operator: value.operator,
        type,
        expected: numberOr(value.amount, 0),
      };
    },
    read: (facts, _item, { type }) => {
      let total = 0;
      if (type === null) return total;
      forEachItem(cartLineItems(facts), true, (item) => {
        total += (item.product?.purchasePrice?.[type] ?? 0) * item.quantity;
      });
      return total;
    },
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  }),
  /** Goods' weight (kg) times quantity; an item without a weight counts 0. */
  cartWeight: cartNumber('weight', 0, (facts) => {
    let weight = 0;
    forEachItem(cartLineItems(facts), true, (item) => {
      weight += (item.delivery?.weight ?? 0) * item.quantity;
    });
    return weight;
  }),
  /**
   * Goods' volume (mm³) times quantity against the rule's cubic metres. The reference throws on a
   * missing volume; here such a condition does not match.
   */
  cartVolume: factsCondition({
    prepare: (value) => ({
      operator: value.operator,
      expected: typeof value.volume === 'number' ? value.volume * VOLUME_FACTOR : null,
    }),
    read: (facts) => {
      let volume = 0;
      forEachItem(cartLineItems(facts), true, (item) => {
        volume += (item.delivery?.volume ?? 0) * item.quantity;
      });
      return volume;
    },
    test: (actual, { operator, expected }) => expected !== null && numberMatches(actual, operator, expected),
  }),
  cartCartAmount: cartNumber('amount', 0, (facts) => facts.cart?.amount ?? null),
  cartPositionPrice: cartNumber('amount', 0, (facts) => facts.cart?.positionPrice ?? null),
  cartShippingCost: cartNumber('cartShippingCost', null, (facts) => facts.cart?.shippingCost ?? null),
  paymentMethod: factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.paymentMethodIds) }),
    read: (facts) => facts.context.paymentMethodId,
    test: (actual, { operator, ids }) => idMatches(actual, operator, ids),
  }),
  shippingMethod: factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.shippingMethodIds) }),
    read: (facts) => facts.context.shippingMethodId,
    test: (actual, { operator, ids }) => idMatches(actual, operator, ids),
  }),
  /** Promotion items anywhere in the cart (nested included, goods or not). */
  promotionsInCartCount: cartNumber('count', 0, (facts) => {
    let count = 0;
    forEachItem(cartLineItems(facts), false, (item) => {
      if (item.type === 'promotion') count += 1;
    });
    return count;
  }),
};
