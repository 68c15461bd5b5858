import { describe, expect, it } from 'vitest';
import { decide } from '../../test-support/results.ts';
import {
  DEFAULT_NOW,
  parsePriceDefinition,
  parseRelativeTime,
  type ReferenceCase,
  translateCase,
  translateTree,
} from './translate.ts';

const translate = (facts: Record<string, unknown>, condition = 'alwaysValid', params: unknown = {}) =>
  translateCase({ condition, params, facts, expected: true } satisfies ReferenceCase);

const evaluate = (condition: string, params: Record<string, unknown>, facts: Record<string, unknown>) => {
  const { tree, facts: translated } = translate(facts, condition, params);
  return decide(tree, translated);
};

describe('the tree', () => {
  it('puts the params in value and turns children into nodes, recursively', () => {
    const tree = translateTree('allLineItemsContainer', {
      minimumShouldMatch: 1,
      children: [
        { type: 'cartLineItemInCategory', value: { operator: '=', categoryIds: ['1'] } },
        {
          type: 'orContainer',
          value: { children: [{ type: 'alwaysValid', value: {} }] },
        },
        { type: 'andContainer', value: {}, children: [{ type: 'alwaysValid' }] },
      ],
    });
    expect(tree).toEqual({
      type: 'allLineItemsContainer',
      value: { minimumShouldMatch: 1 },
      children: [
        { type: 'cartLineItemInCategory', value: { operator: '=', categoryIds: ['1'] } },
        { type: 'orContainer', value: {}, children: [{ type: 'alwaysValid', value: {} }] },
        { type: 'andContainer', value: {}, children: [{ type: 'alwaysValid', value: {} }] },
      ],
    });
  });

  it('gives a leaf no children key and tolerates missing params', () => {
    expect(translateTree('currency', { operator: '=', currencyIds: ['a'] })).toEqual({
      type: 'currency',
      value: { operator: '=', currencyIds: ['a'] },
    });
    expect(translateTree('alwaysValid', undefined)).toEqual({ type: 'alwaysValid', value: {} });
  });
});

describe('scopes', () => {
  it('LineItemScope gives the line item only', () => {
    const { facts, unknownFacts } = translate({ scope: 'LineItemScope', lineItem: { type: 'product' } });
    expect(facts.lineItem?.type).toBe('product');
    expect(facts.cart).toBeUndefined();
    expect(facts.order).toBeUndefined();
    expect(unknownFacts).toEqual([]);
  });

  it('CartRuleScope gives the cart (empty when no items are given)', () => {
    expect(translate({ scope: 'CartRuleScope' }).facts.cart?.lineItems).toEqual([]);
    const { facts } = translate({
      scope: 'CartRuleScope',
      lineItems: [{ type: 'product' }, { type: 'promotion' }],
    });
    expect(facts.cart?.lineItems.map((item) => item.type)).toEqual(['product', 'promotion']);
    expect(facts.lineItem).toBeUndefined();
  });

  it('FlowRuleScope gives the order and an empty cart', () => {
    const { facts } = translate({ scope: 'FlowRuleScope' });
    expect(facts.order).toMatchObject({ stateId: null, tagIds: [], deliveries: [] });
    expect(facts.cart?.lineItems).toEqual([]);
  });

  it('CheckoutRuleScope and any give neither cart, line item nor order', () => {
    for (const scope of ['CheckoutRuleScope', 'any']) {
      const { facts } = translate({ scope });
      expect([facts.cart, facts.lineItem, facts.order]).toEqual([undefined, undefined, undefined]);
    }
  });

  it('reports an unknown scope and parts the scope does not have', () => {
    expect(translate({ scope: 'SomeScope' }).unknownFacts).toEqual(['scope (unknown scope SomeScope)']);
    expect(translate({ scope: 'CheckoutRuleScope', lineItems: [{ type: 'product' }] }).unknownFacts).toEqual([
      'lineItems (not part of CheckoutRuleScope)',
    ]);
    expect(translate({ scope: 'LineItemScope' }).unknownFacts).toEqual([
      'lineItem (missing for LineItemScope)',
    ]);
  });
});

describe('line items', () => {
  it('reads dotted and nested payload keys alike', () => {
    const dotted = translate({ scope: 'LineItemScope', lineItem: { 'payload.categoryIds': ['1', '2'] } });
    const nested = translate({ scope: 'LineItemScope', lineItem: { payload: { categoryIds: ['1', '2'] } } });
    expect(dotted.facts.lineItem?.product?.categoryIds).toEqual(['1', '2']);
    expect(nested.facts).toEqual(dotted.facts);
  });

  it('maps the product payload', () => {
    const { facts, unknownFacts } = translate({
      scope: 'LineItemScope',
      lineItem: {
        type: 'product',
        'payload.stock': 50,
        'payload.isCloseout': false,
        'payload.taxId': '3',
        'payload.optionIds': ['<id>'],
        'payload.createdAt': '2020-02-06 02:00:00',
        'payload.purchasePrices': '{"gross": 12.5, "net": 10}',
        'payload.customFields': { color: 'red' },
      },
    });
    expect(unknownFacts).toEqual([]);
    expect(facts.lineItem?.product).toMatchObject({
      stock: 50,
      isCloseout: false,
      isNew: null,
      taxId: '3',
      optionIds: ['<id>'],
      categoryIds: null,
      createdAt: '2020-02-06T02:00:00Z',
      purchasePrice: { gross: 12.5, net: 10 },
      customFields: { color: 'red' },
    });
  });

  it('takes the dimensions beside an item as its delivery information', () => {
    const { facts } = translate({
      scope: 'LineItemScope',
      lineItem: { type: 'product', quantity: 1, height: 10.0, width: 20, length: 30, weight: 4.5 },
    });
    expect(facts.lineItem?.delivery).toEqual({
      weight: 4.5,
      width: 20,
      height: 10,
      length: 30,
      volume: null,
      stock: null,
      freeDelivery: null,
    });
  });

  it('has no delivery information when told so, or when nothing speaks of it', () => {
    const without = translate({
      scope: 'LineItemScope',
      lineItem: { type: 'product', weight: null, hasDeliveryInformation: false },
    });
    expect(without.facts.lineItem?.delivery).toBeNull();
    expect(
      translate({ scope: 'LineItemScope', lineItem: { type: 'product' } }).facts.lineItem?.delivery,
    ).toBeNull();
    const empty = translate({
      scope: 'LineItemScope',
      lineItem: { hasDeliveryInformation: true, length: null },
    });
    expect(empty.facts.lineItem?.delivery).toMatchObject({ length: null, weight: null });
  });

  it('keeps the delivery stock apart from the product stock', () => {
    const { facts } = translate({
      scope: 'CartRuleScope',
      lineItems: [{ type: 'product', 'deliveryInformation.stock': 6, 'payload.stock': 100 }],
    });
    expect(facts.cart?.lineItems[0]?.delivery?.stock).toBe(6);
    expect(facts.cart?.lineItems[0]?.product?.stock).toBe(100);
  });

  it('converts unit-suffixed dimensions and checks keys that say the same thing', () => {
    const agreeing = translate({
      scope: 'LineItemScope',
      lineItem: { volume_m3: 200, 'deliveryInformation.volume_mm3': 200_000_000_000 },
    });
    expect(agreeing.facts.lineItem?.delivery?.volume).toBe(200e9);
    expect(agreeing.unknownFacts).toEqual([]);
    const contradicting = translate({
      scope: 'LineItemScope',
      lineItem: { volume_m3: 200, 'deliveryInformation.volume_mm3': 5 },
    });
    expect(contradicting.unknownFacts).toEqual([
      'lineItem.deliveryInformation.volume_mm3 (5 contradicts 200000000000 given by another key)',
    ]);
    expect(
      translate({ scope: 'LineItemScope', lineItem: { weight_g: 500 } }).facts.lineItem?.delivery?.weight,
    ).toBe(0.5);
  });

  it('reads the quantity of a quantity price definition', () => {
    const { facts } = translate({
      scope: 'LineItemScope',
      lineItem: { type: 'product', good: true, priceDefinition: 'QuantityPriceDefinition quantity 6' },
    });
    expect(facts.lineItem?.quantity).toBe(6);
    expect(
      translate({ scope: 'LineItemScope', lineItem: { priceDefinition: 'no definition' } }).unknownFacts,
    ).toEqual(['lineItem.priceDefinition (unparsable price definition)']);
  });

  it('defaults to a good product of quantity 1 and reads price, states, flags and children', () => {
    const { facts } = translate({
      scope: 'CartRuleScope',
      lineItems: [
        {
          'price.totalPrice': 280,
          states: ['is-physical', 'is-download'],
          children: [{ type: 'product', good: false, quantity: 2 }],
        },
        { type: 'promotion', good: false, 'payload.promotionId': 'p1', 'price.listPrice': 30 },
      ],
    });
    const [first, second] = facts.cart?.lineItems ?? [];
    expect(first).toMatchObject({
      type: 'product',
      good: true,
      quantity: 1,
      states: ['is-physical', 'is-download'],
      price: { totalPrice: 280, unitPrice: null, listPrice: null },
      promotion: null,
    });
    expect(first?.children[0]).toMatchObject({ good: false, quantity: 2 });
    expect(second).toMatchObject({
      good: false,
      product: null,
      promotion: { promotionId: 'p1', codeType: null },
      price: { listPrice: { price: 30, percentage: null } },
    });
  });

  it('evaluates as the reference on translated items', () => {
    const items = [
      { type: 'product', width: 100, hasDeliveryInformation: true },
      { type: 'product', width: null, hasDeliveryInformation: false },
    ];
    const width = (operator: string) =>
      evaluate(
        'cartLineItemDimensionWidth',
        { operator, amount: 100 },
        { scope: 'CartRuleScope', lineItems: items },
      );
    expect(width('=')).toBe(true);
    expect(width('>')).toBe(false);
    // The item without delivery information matches the negative operators.
    expect(width('empty')).toBe(true);
  });
});

describe('purchase prices', () => {
  const priceOf = (item: Record<string, unknown>) => {
    const { facts, unknownFacts } = translate({ scope: 'CartRuleScope', lineItems: [item] });
    return { price: facts.cart?.lineItems[0]?.product?.purchasePrice, unknownFacts };
  };
  const serialised = JSON.stringify({
    currencyId: '<currency-id>',
    net: 10,
    gross: 11.9,
    linked: false,
    listPrice: null,
    percentage: null,
    regulationPrice: null,
  });

  it('reads them beside an item or in its payload, as text, object, list or one amount', () => {
    const expected = { price: { gross: 11.9, net: 10 }, unknownFacts: [] };
    expect(priceOf({ purchasePrices: serialised })).toEqual(expected);
    expect(priceOf({ purchasePrices: JSON.parse(serialised) })).toEqual(expected);
    expect(priceOf({ purchasePrice: [JSON.parse(serialised)] })).toEqual(expected);
    expect(priceOf({ payload: { purchasePrices: serialised } })).toEqual(expected);
    expect(priceOf({ 'payload.purchasePrice': { gross: 11.9, net: 10 } })).toEqual(expected);
    expect(priceOf({ 'purchasePrices.gross': 11.9, 'purchasePrices.net': 10 })).toEqual(expected);
    expect(priceOf({ purchasePrice: 4 })).toEqual({ price: { gross: 4, net: 4 }, unknownFacts: [] });
    expect(priceOf({ purchasePrice: '4.5' })).toEqual({ price: { gross: 4.5, net: 4.5 }, unknownFacts: [] });
    expect(priceOf({ purchasePrices: '{"gross": "2.5", "net": "2.1"}' })).toEqual({
      price: { gross: 2.5, net: 2.1 },
      unknownFacts: [],
    });
    expect(priceOf({ purchasePrices: { gross: 3 } })).toEqual({
      price: { gross: 3, net: null },
      unknownFacts: [],
    });
  });

  it('takes null, blank text and an empty list as none', () => {
    for (const none of [null, '', '  ', []]) {
      expect(priceOf({ purchasePrices: none })).toEqual({ price: null, unknownFacts: [] });
    }
    expect(priceOf({ type: 'product' }).price).toBeNull();
  });

  it('reports what it cannot read', () => {
    expect(priceOf({ purchasePrices: 'cheap' }).unknownFacts).toEqual([
      'lineItems[].purchasePrices (unparsable purchase price)',
    ]);
    expect(priceOf({ purchasePrice: true }).unknownFacts).toEqual([
      'lineItems[].purchasePrice (expected a price with gross and net)',
    ]);
    expect(priceOf({ purchasePrices: { gross: 'a lot', margin: 3 } }).unknownFacts).toEqual([
      'lineItems[].purchasePrices.gross (expected a number)',
      'lineItems[].purchasePrices.margin',
    ]);
  });

  it('gives cartTotalPurchasePrice the goods purchase prices times quantity', () => {
    const total = (type: string, amount: number) =>
      evaluate(
        'cartTotalPurchasePrice',
        { operator: '=', type, amount },
        {
          scope: 'CartRuleScope',
          lineItems: [
            { type: 'product', quantity: 2, purchasePrices: serialised },
            { type: 'credit', good: false, purchasePrice: 100 },
            { type: 'container', good: false, children: [{ type: 'product', purchasePrice: 1 }] },
          ],
        },
      );
    expect(total('gross', 24.8)).toBe(true);
    expect(total('net', 21)).toBe(true);
    expect(total('net', 24.8)).toBe(false);
  });
});

describe('customer, context and time', () => {
  it('distinguishes no customer from a customer without details', () => {
    expect(translate({ scope: 'CheckoutRuleScope' }).facts.customer).toBeNull();
    expect(translate({ scope: 'CheckoutRuleScope', customer: null }).facts.customer).toBeNull();
    const known = translate({ scope: 'CheckoutRuleScope', customer: {} }).facts.customer;
    expect(known).toMatchObject({ lastName: null, tagIds: [], createdByAdmin: false });
    expect(
      evaluate('customerLoggedIn', { isLoggedIn: true }, { scope: 'CheckoutRuleScope', customer: {} }),
    ).toBe(true);
    expect(
      evaluate('customerLoggedIn', { isLoggedIn: true }, { scope: 'CheckoutRuleScope', customer: null }),
    ).toBe(false);
  });

  it('maps the customer fields and the active billing address', () => {
    const { facts, unknownFacts } = translate({
      scope: 'CheckoutRuleScope',
      customer: {
        lastName: 'shopware',
        tagIds: ['kyln123'],
        salutationId: '<id>',
        groupId: 'g1',
        reviewCount: 10,
        customFields: { custom_test: ['option_1'] },
        activeBillingAddress: { city: 'kyln123', countryStateId: '<random-uuid-1>' },
      },
    });
    expect(unknownFacts).toEqual([]);
    expect(facts.customer).toMatchObject({
      lastName: 'shopware',
      tagIds: ['kyln123'],
      salutationId: '<id>',
      reviewCount: 10,
      customFields: { custom_test: ['option_1'] },
    });
    expect(facts.billingAddress).toMatchObject({ city: 'kyln123', stateId: '<random-uuid-1>', street: null });
    expect(facts.shippingAddress).toBeNull();
    // The context prices for the customer's group when the case names no other.
    expect(facts.context.customerGroupId).toBe('g1');
  });

  it('reads the context and the shipping location', () => {
    const { facts, unknownFacts } = translate({
      scope: 'CheckoutRuleScope',
      'context.salesChannelId': '<uuid-of:test>',
      context: { currencyId: 'id-1', taxState: 'net' },
      shippingLocation: { country: { id: 'de' }, address: { zipcode: '48624' } },
    });
    expect(unknownFacts).toEqual([]);
    expect(facts.context).toMatchObject({
      channelId: '<uuid-of:test>',
      currencyId: 'id-1',
      taxDisplay: 'net',
    });
    expect(facts.shippingAddress).toMatchObject({ countryId: 'de', zipcode: '48624', city: null });
  });

  it('uses the case time, or a fixed instant, and reads relative times against it', () => {
    const relative = { lastLogin: 'currentTime minus 30 minutes (same calendar day; 0 days passed)' };
    const fixed = translate({ scope: 'CheckoutRuleScope', customer: relative });
    expect(fixed.facts.now).toBe(DEFAULT_NOW);
    expect(fixed.facts.customer?.lastLogin).toBe('2021-06-15T11:30:00Z');
    const given = translate({ scope: 'any', currentTime: '2021-01-01 10:00:00 UTC', customer: relative });
    expect(given.facts.now).toBe('2021-01-01T10:00:00Z');
    expect(given.facts.customer?.lastLogin).toBe('2021-01-01T09:30:00Z');
    expect(given.unknownFacts).toEqual([]);
    // The description's own statement of the days passed is checked.
    const early = translate({ scope: 'any', currentTime: '2021-01-01 00:10:00', customer: relative });
    expect(early.unknownFacts).toEqual([
      'customer.lastLogin (not 0 calendar days before the current time 2021-01-01T00:10:00Z)',
    ]);
  });

  it('evaluates day counts on translated relative times', () => {
    const facts = {
      scope: 'CheckoutRuleScope',
      customer: { firstLogin: 'currentTime minus 30 minutes (same calendar day; 0 days passed)' },
    };
    expect(evaluate('customerDaysSinceFirstLogin', { operator: '=', daysPassed: 0 }, facts)).toBe(true);
    expect(evaluate('customerDaysSinceFirstLogin', { operator: '>', daysPassed: 0 }, facts)).toBe(false);
  });
});

describe('order', () => {
  it('reads dotted and nested order keys and its lists', () => {
    const { facts, unknownFacts } = translate({
      scope: 'FlowRuleScope',
      'order.affiliateCode': 'testingCode',
      order: {
        tagIds: ['kyln123'],
        stateId: '<id>',
        deliveries: [{ stateId: 'd1' }],
        transactions: [{ stateId: 't1', stateTechnicalName: 'in_progress' }],
        documents: [{ documentTypeId: 'invoice' }],
      },
    });
    expect(unknownFacts).toEqual([]);
    expect(facts.order).toMatchObject({
      affiliateCode: 'testingCode',
      campaignCode: null,
      tagIds: ['kyln123'],
      stateId: '<id>',
      deliveries: [{ stateId: 'd1', trackingCodes: [] }],
      transactions: [{ stateId: 't1', stateName: 'in_progress' }],
      documents: [{ documentTypeId: 'invoice', sent: false }],
    });
  });
});

describe('keys the translation does not use', () => {
  it('reports unknown keys with their paths, and values it cannot read', () => {
    const { unknownFacts } = translate({
      scope: 'CartRuleScope',
      mystery: 1,
      customer: { shoeSize: 44, reviewCount: 'many' },
      lineItems: [{ type: 'product', 'payload.colour': 'red', deliveryInformation: { depth: 3 } }],
    });
    expect(unknownFacts).toEqual([
      'mystery',
      'customer.shoeSize',
      'customer.reviewCount (expected a number)',
      'lineItems[].payload.colour',
      'lineItems[].deliveryInformation.depth',
    ]);
  });

  it('ignores notes, and derived counts that agree with the line items', () => {
    const agreeing = translate({
      scope: 'CartRuleScope',
      note: 'how the test builds its input',
      lineItems: [
        { type: 'product', good: true, quantity: 4 },
        { type: 'product', good: true, quantity: 2 },
      ],
      totalGoodsQuantity: 6,
      goodsCount: 2,
    });
    expect(agreeing.unknownFacts).toEqual([]);
    const disagreeing = translate({
      scope: 'LineItemScope',
      lineItem: { type: 'product', good: true },
      goodsCount: 3,
    });
    expect(disagreeing.unknownFacts).toEqual(['goodsCount (states 3, the line items give 1)']);
  });
});

describe('parsers', () => {
  it('parses relative time descriptions', () => {
    const now = Date.UTC(2021, 5, 15, 12);
    expect(parseRelativeTime('currentTime', now)).toEqual({ at: now });
    expect(parseRelativeTime('currentTime plus 2 hours', now)).toEqual({ at: now + 2 * 3_600_000 });
    expect(parseRelativeTime('3 days ago', now)).toEqual({ at: now - 3 * 86_400_000 });
    expect(parseRelativeTime('currentTime minus 1 day (1 days passed)', now)).toEqual({
      at: now - 86_400_000,
      daysPassed: 1,
    });
    expect(parseRelativeTime('currentTime minus 1 month', now)).toEqual({ at: Date.UTC(2021, 4, 15, 12) });
    expect(parseRelativeTime('yesterday-ish', now)).toBeUndefined();
  });

  it('parses price definitions', () => {
    expect(parsePriceDefinition('QuantityPriceDefinition quantity 6')).toEqual({
      kind: 'QuantityPriceDefinition',
      numbers: { quantity: 6 },
    });
    expect(parsePriceDefinition('PercentagePriceDefinition percentage -10')).toEqual({
      kind: 'PercentagePriceDefinition',
      numbers: { percentage: -10 },
    });
    expect(parsePriceDefinition('quantity 6')).toBeNull();
  });
});
