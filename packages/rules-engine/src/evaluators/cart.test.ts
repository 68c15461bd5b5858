import { describe, expect, it } from 'vitest';
import type { FactsInput } from '../../test-support/facts.ts';
import { compiled, decide, successValue } from '../../test-support/results.ts';
import { findCondition } from '../catalog/catalog.ts';
import type { Facts } from '../facts.ts';
import { buildFacts } from '../facts-schema.ts';
import type { ConditionTree } from '../tree.ts';
import { CART_EVALUATORS } from './cart.ts';

const NAMES = [
  'cartHasDeliveryFreeItem',
  'cartTotalPurchasePrice',
  'cartWeight',
  'cartVolume',
  'cartCartAmount',
  'cartPositionPrice',
  'cartShippingCost',
  'paymentMethod',
  'shippingMethod',
  'promotionsInCartCount',
];

const NOW = '2024-05-01T12:00:00Z';
const CONTEXT = { shippingMethodId: 'standard', paymentMethodId: 'invoice' };

/** Facts in the cart scope with the given cart (`null`: none) and whatever else is given. */
function baseFacts(cart: FactsInput['cart'] | null = {}, more: Partial<FactsInput> = {}): Facts {
  return buildFacts({ now: NOW, context: CONTEXT, ...(cart === null ? {} : { cart }), ...more });
}

const product = { type: 'product' };
const promotion = { type: 'promotion', good: false };

function evaluate(type: string, value: Record<string, unknown>, facts: Facts) {
  return decide({ type, value }, facts);
}

describe('the cart evaluators', () => {
  it('bind every cart condition to an enabled catalog entry', () => {
    expect(Object.keys(CART_EVALUATORS).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(findCondition(name)?.enabled, name).toBe(true);
  });

  it('need the cart scope for cart conditions', () => {
    expect(evaluate('cartCartAmount', { operator: '=', amount: 1 }, baseFacts(null))).toMatchObject({
      ok: false,
      code: 'RULE_SCOPE_MISSING',
    });
  });
});

describe('cartHasDeliveryFreeItem', () => {
  const free = { delivery: { freeDelivery: true } };
  const paid = { delivery: { freeDelivery: false } };
  const unknown = { delivery: null };

  it('compares whether any goods item ships free with `allowed`', () => {
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: true }, baseFacts({ lineItems: [free] }))).toBe(
      true,
    );
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: true }, baseFacts({ lineItems: [paid] }))).toBe(
      false,
    );
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: false }, baseFacts({ lineItems: [paid] }))).toBe(
      true,
    );
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: false }, baseFacts({ lineItems: [free] }))).toBe(
      false,
    );
    expect(
      evaluate('cartHasDeliveryFreeItem', { allowed: true }, baseFacts({ lineItems: [paid, free] })),
    ).toBe(true);
  });

  it('treats an item without delivery information as not free, and an empty cart as having none', () => {
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: false }, baseFacts({ lineItems: [unknown] }))).toBe(
      true,
    );
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: true }, baseFacts({ lineItems: [unknown] }))).toBe(
      false,
    );
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: false }, baseFacts({ lineItems: [] }))).toBe(true);
  });

  it('looks at nested goods and ignores items that are not goods', () => {
    const container = { type: 'container', good: false, children: [free] };
    expect(
      evaluate('cartHasDeliveryFreeItem', { allowed: true }, baseFacts({ lineItems: [container] })),
    ).toBe(true);
    const freeCredit = { type: 'credit', good: false, delivery: { freeDelivery: true } };
    expect(
      evaluate('cartHasDeliveryFreeItem', { allowed: true }, baseFacts({ lineItems: [freeCredit] })),
    ).toBe(false);
  });

  it('defaults `allowed` to true, as the reference does', () => {
    expect(evaluate('cartHasDeliveryFreeItem', {}, baseFacts({ lineItems: [free] }))).toBe(true);
    expect(evaluate('cartHasDeliveryFreeItem', {}, baseFacts({ lineItems: [paid] }))).toBe(false);
  });

  it('asks the one item in the line-item scope', () => {
    const itemScope = (lineItem: FactsInput['lineItem']): Facts => baseFacts(null, { lineItem });
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: true }, itemScope(free))).toBe(true);
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: false }, itemScope(paid))).toBe(true);
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: false }, itemScope(unknown))).toBe(true);
    expect(evaluate('cartHasDeliveryFreeItem', { allowed: true }, itemScope(unknown))).toBe(false);
  });

  it('asks each item when wrapped, not the cart as a whole', () => {
    const tree: ConditionTree = {
      type: 'allLineItemsContainer',
      children: [{ type: 'cartHasDeliveryFreeItem', value: { allowed: true } }],
    };
    expect(decide(tree, baseFacts({ lineItems: [free, free] }))).toBe(true);
    expect(decide(tree, baseFacts({ lineItems: [free, paid] }))).toBe(false);
  });
});

describe('cartTotalPurchasePrice', () => {
  const priced = (gross: number | null, net: number | null, quantity: number) => ({
    quantity,
    product: { purchasePrice: { gross, net } },
  });
  const cart = baseFacts({
    lineItems: [
      priced(10, 8, 2),
      { type: 'container', good: false, children: [priced(5, 4, 1)] },
      { type: 'credit', good: false, product: { purchasePrice: { gross: 100, net: 100 } } },
      { product: null },
      priced(null, 1, 3),
    ],
  });

  it('sums the goods purchase prices of the chosen type times quantity', () => {
    expect(evaluate('cartTotalPurchasePrice', { operator: '=', type: 'gross', amount: 25 }, cart)).toBe(true);
    expect(evaluate('cartTotalPurchasePrice', { operator: '=', type: 'net', amount: 23 }, cart)).toBe(true);
    expect(evaluate('cartTotalPurchasePrice', { operator: '>', type: 'gross', amount: 25 }, cart)).toBe(
      false,
    );
    expect(evaluate('cartTotalPurchasePrice', { operator: '>=', type: 'gross', amount: 25 }, cart)).toBe(
      true,
    );
    expect(evaluate('cartTotalPurchasePrice', { operator: '!=', type: 'net', amount: 23 }, cart)).toBe(false);
  });

  it('traces the total of the chosen type', () => {
    const value = { operator: '<', type: 'net', amount: 20 };
    expect(successValue(compiled({ type: 'cartTotalPurchasePrice', value }).explain(cart))).toMatchObject({
      result: false,
      actual: 23,
    });
  });

  it('defaults the type to gross and the amount to 0; an unknown type sums 0', () => {
    expect(evaluate('cartTotalPurchasePrice', { operator: '=', amount: 25 }, cart)).toBe(true);
    expect(evaluate('cartTotalPurchasePrice', { operator: '=', type: 'list', amount: 0 }, cart)).toBe(true);
    expect(evaluate('cartTotalPurchasePrice', { operator: '=', type: 'net' }, baseFacts())).toBe(true);
    expect(evaluate('cartTotalPurchasePrice', { operator: '>', type: 'net' }, baseFacts())).toBe(false);
  });
});

describe('cartWeight', () => {
  const heavy = (weight: number | null, quantity: number, good = true) => ({
    quantity,
    good,
    delivery: { weight },
  });
  const cart = baseFacts({
    lineItems: [
      heavy(1.5, 2),
      heavy(null, 4),
      { delivery: null },
      heavy(100, 1, false),
      { good: false, type: 'container', children: [heavy(0.25, 4)] },
    ],
  });

  it('sums goods weight times quantity, nested goods included', () => {
    expect(evaluate('cartWeight', { operator: '=', weight: 4 }, cart)).toBe(true);
    expect(evaluate('cartWeight', { operator: '<', weight: 4 }, cart)).toBe(false);
    expect(evaluate('cartWeight', { operator: '<=', weight: 4.00000001 }, cart)).toBe(true);
    expect(evaluate('cartWeight', { operator: '>', weight: 3.9 }, cart)).toBe(true);
    expect(evaluate('cartWeight', { operator: '!=', weight: 4 }, cart)).toBe(false);
  });

  it('weighs an empty cart 0 and defaults a missing weight to 0', () => {
    expect(evaluate('cartWeight', { operator: '=', weight: 0 }, baseFacts())).toBe(true);
    expect(evaluate('cartWeight', { operator: '=' }, baseFacts())).toBe(true);
    expect(evaluate('cartWeight', { operator: '=' }, cart)).toBe(false);
  });
});

describe('cartVolume', () => {
  const bulky = (volume: number | null, quantity: number, good = true) => ({
    quantity,
    good,
    delivery: { volume },
  });
  const cart = baseFacts({
    lineItems: [bulky(100_000_000, 3), bulky(null, 1), bulky(1e9, 1, false), bulky(100_000_000, 2)],
  });

  it('sums goods volume (mm³) times quantity against the rule in m³', () => {
    expect(evaluate('cartVolume', { operator: '=', volume: 0.5 }, cart)).toBe(true);
    expect(evaluate('cartVolume', { operator: '>', volume: 0.5 }, cart)).toBe(false);
    expect(evaluate('cartVolume', { operator: '<', volume: 0.6 }, cart)).toBe(true);
    expect(evaluate('cartVolume', { operator: '!=', volume: 0.5 }, cart)).toBe(false);
    expect(evaluate('cartVolume', { operator: '=', volume: 0 }, baseFacts())).toBe(true);
  });

  it('does not match without a rule volume (the reference throws)', () => {
    expect(evaluate('cartVolume', { operator: '!=' }, cart)).toBe(false);
    expect(evaluate('cartVolume', { operator: '=', volume: null }, baseFacts())).toBe(false);
  });
});

describe('cart prices', () => {
  const cart = baseFacts({ amount: 119, positionPrice: 100, shippingCost: 4.95 });

  it('compare the cart total, the positions and the shipping cost', () => {
    expect(evaluate('cartCartAmount', { operator: '>=', amount: 119 }, cart)).toBe(true);
    expect(evaluate('cartCartAmount', { operator: '>', amount: 119 }, cart)).toBe(false);
    expect(evaluate('cartPositionPrice', { operator: '=', amount: 100 }, cart)).toBe(true);
    expect(evaluate('cartPositionPrice', { operator: '<', amount: 100 }, cart)).toBe(false);
    expect(evaluate('cartShippingCost', { operator: '=', cartShippingCost: 4.95 }, cart)).toBe(true);
    expect(evaluate('cartShippingCost', { operator: '!=', cartShippingCost: 4.95 }, cart)).toBe(false);
  });

  it('match only `!=` when the cart figure is missing', () => {
    const missing = baseFacts({ amount: null, positionPrice: null, shippingCost: null });
    expect(evaluate('cartCartAmount', { operator: '=', amount: 0 }, missing)).toBe(false);
    expect(evaluate('cartCartAmount', { operator: '!=', amount: 0 }, missing)).toBe(true);
    expect(evaluate('cartPositionPrice', { operator: '<=', amount: 10 }, missing)).toBe(false);
    expect(evaluate('cartShippingCost', { operator: '!=', cartShippingCost: 1 }, missing)).toBe(true);
  });

  it('default a missing amount to 0 but leave a missing shipping cost missing', () => {
    const zero = baseFacts({ amount: 0, positionPrice: 0, shippingCost: 0 });
    expect(evaluate('cartCartAmount', { operator: '=' }, zero)).toBe(true);
    expect(evaluate('cartPositionPrice', { operator: '=' }, zero)).toBe(true);
    expect(evaluate('cartShippingCost', { operator: '=' }, zero)).toBe(false);
    expect(evaluate('cartShippingCost', { operator: '!=' }, zero)).toBe(true);
  });
});

describe('paymentMethod and shippingMethod', () => {
  it('compare the context method with the rule ids', () => {
    const facts = baseFacts();
    expect(evaluate('paymentMethod', { operator: '=', paymentMethodIds: ['card', 'invoice'] }, facts)).toBe(
      true,
    );
    expect(evaluate('paymentMethod', { operator: '=', paymentMethodIds: ['card'] }, facts)).toBe(false);
    expect(evaluate('paymentMethod', { operator: '!=', paymentMethodIds: ['card'] }, facts)).toBe(true);
    expect(evaluate('paymentMethod', { operator: '!=', paymentMethodIds: ['invoice'] }, facts)).toBe(false);
    expect(evaluate('shippingMethod', { operator: '=', shippingMethodIds: ['standard'] }, facts)).toBe(true);
    expect(evaluate('shippingMethod', { operator: '!=', shippingMethodIds: ['standard'] }, facts)).toBe(
      false,
    );
    expect(evaluate('shippingMethod', { operator: '=', shippingMethodIds: ['express'] }, facts)).toBe(false);
  });

  it('need no cart and treat a missing method as none', () => {
    const facts = buildFacts({ now: NOW });
    expect(evaluate('paymentMethod', { operator: '=', paymentMethodIds: ['invoice'] }, facts)).toBe(false);
    expect(evaluate('paymentMethod', { operator: '!=', paymentMethodIds: ['invoice'] }, facts)).toBe(true);
    expect(evaluate('shippingMethod', { operator: '=' }, facts)).toBe(false);
    expect(evaluate('shippingMethod', { operator: '!=', shippingMethodIds: ['standard'] }, facts)).toBe(true);
  });
});

describe('promotionsInCartCount', () => {
  it('counts promotion items, nested ones included', () => {
    const cart = baseFacts({
      lineItems: [product, promotion, { type: 'container', good: false, children: [promotion] }],
    });
    expect(evaluate('promotionsInCartCount', { operator: '=', count: 2 }, cart)).toBe(true);
    expect(evaluate('promotionsInCartCount', { operator: '>', count: 2 }, cart)).toBe(false);
    expect(evaluate('promotionsInCartCount', { operator: '>=', count: 1 }, cart)).toBe(true);
    expect(evaluate('promotionsInCartCount', { operator: '!=', count: 2 }, cart)).toBe(false);
  });

  it('counts 0 in a cart without promotions, and defaults a missing count to 0', () => {
    const cart = baseFacts({ lineItems: [product] });
    expect(evaluate('promotionsInCartCount', { operator: '=', count: 0 }, cart)).toBe(true);
    expect(evaluate('promotionsInCartCount', { operator: '>', count: 0 }, cart)).toBe(false);
    expect(evaluate('promotionsInCartCount', { operator: '=' }, cart)).toBe(true);
  });
});
