import { describe, expect, it } from 'vitest';
import { compiled, decide, successValue } from '../../test-support/results.ts';
import { findCondition } from '../catalog/catalog.ts';
import type { DeliveryFacts, Facts, LineItemFacts, PriceFacts, ProductFacts } from '../facts.ts';
import { buildFacts } from '../facts-schema.ts';
import { compileRule } from '../index.ts';
import { ITEMS_EVALUATORS } from './items.ts';

// Builders: a line item with sensible values (its parts as `buildFacts` takes them, the rest
// "nothing known"); each test overrides what it is about.

const NOW = '2024-06-01T12:00:00+00:00';

/** A line item as `buildFacts` takes it. */
interface ItemInput extends Partial<Omit<LineItemFacts, 'product' | 'children'>> {
  readonly product?: Partial<ProductFacts> | null;
  readonly children?: readonly ItemInput[];
}

function product(overrides: Partial<ProductFacts> = {}): Partial<ProductFacts> {
  return {
    manufacturerId: 'maker-1',
    categoryIds: ['cat-1', 'cat-2'],
    streamIds: ['stream-1'],
    tagIds: ['tag-1'],
    propertyIds: ['prop-1'],
    optionIds: ['opt-1'],
    taxId: 'tax-1',
    stock: 10,
    isNew: true,
    isCloseout: false,
    markAsTopseller: true,
    createdAt: '2020-02-06 02:00:00',
    releaseDate: '2021-03-01 00:00:00',
    productType: 'physical',
    purchasePrice: { gross: 11.9, net: 10 },
    customFields: { colour: 'red', size: 42, fragile: true },
    ...overrides,
  };
}

function delivery(overrides: Partial<DeliveryFacts> = {}): DeliveryFacts {
  return {
    weight: 2,
    width: 100,
    height: 200,
    length: 300,
    volume: 6_000_000,
    stock: 5,
    freeDelivery: false,
    ...overrides,
  };
}

function price(overrides: Partial<PriceFacts> = {}): PriceFacts {
  return { unitPrice: 20, totalPrice: 40, listPrice: { price: 25, percentage: 20 }, ...overrides };
}

function item(overrides: ItemInput = {}): ItemInput {
  return {
    id: 'line-1',
    referencedId: 'product-1',
    quantity: 2,
    states: ['is-physical'],
    price: price(),
    delivery: delivery(),
    product: product(),
    ...overrides,
  };
}

/** A non-product item with nothing of a product: no payload, no delivery information, no price. */
function bareItem(overrides: ItemInput = {}): ItemInput {
  return item({
    type: 'custom',
    referencedId: null,
    price: null,
    delivery: null,
    product: null,
    ...overrides,
  });
}

const cartFacts = (lineItems: ItemInput[]): Facts => buildFacts({ now: NOW, cart: { lineItems } });

/** The condition evaluated against one item in the line-item scope. */
function onItem(type: string, value: Record<string, unknown>, subject: ItemInput) {
  return decide({ type, value }, buildFacts({ now: NOW, lineItem: subject }));
}

/** The condition evaluated in the cart scope (matches when any goods item does). */
function inCart(type: string, value: Record<string, unknown>, lineItems: ItemInput[]) {
  return decide({ type, value }, cartFacts(lineItems));
}

const CONDITIONS = [
  'cartLineItemOfManufacturer',
  'cartLineItemActualStock',
  'cartLineItemClearanceSale',
  'cartLineItemCreationDate',
  'cartLineItemCustomField',
  'cartLineItemDimensionHeight',
  'cartLineItemDimensionLength',
  'cartLineItemDimensionWidth',
  'cartLineItemDimensionWeight',
  'cartLineItemDimensionVolume',
  'cartLineItemInCategory',
  'cartLineItemInProductStream',
  'cartLineItemIsNew',
  'cartLineItemListPrice',
  'cartLineItemListPriceRatio',
  'cartLineItemPromoted',
  'cartLineItemProperty',
  'cartLineItemPropertyValue',
  'cartLineItemVariantValue',
  'cartLineItemPurchasePrice',
  'cartLineItemReleaseDate',
  'cartLineItemTag',
  'cartLineItemTaxation',
  'cartLineItemStock',
  'cartLineItemProductStates',
  'cartLineItemProductType',
  'cartLineItemPerItemQuantity',
  'cartLineItem',
  'cartLineItemWithQuantity',
  'cartLineItemTotalPrice',
  'cartLineItemUnitPrice',
  'cartLineItemOfType',
  'cartLineItemsInCartCount',
] as const;

describe('the line-item evaluators', () => {
  it('cover every line-item condition of the catalog, and nothing else', () => {
    expect(Object.keys(ITEMS_EVALUATORS).sort()).toEqual([...CONDITIONS].sort());
    for (const name of CONDITIONS) {
      expect(findCondition(name)?.enabled, name).toBe(true);
    }
  });

  it('compile every condition from a malformed value without refusing it', () => {
    for (const name of CONDITIONS) {
      expect(compileRule({ type: name, value: { operator: 42, identifiers: 'x', amount: 'y' } }).ok).toBe(
        true,
      );
      expect(compileRule({ type: name }).ok).toBe(true);
    }
  });
});

describe('id conditions', () => {
  const cases: readonly [string, string, (ids: string[]) => Partial<ProductFacts>][] = [
    ['cartLineItemInCategory', 'categoryIds', (ids) => ({ categoryIds: ids })],
    ['cartLineItemInProductStream', 'streamIds', (ids) => ({ streamIds: ids })],
    ['cartLineItemTag', 'identifiers', (ids) => ({ tagIds: ids })],
    ['cartLineItemPropertyValue', 'identifiers', (ids) => ({ propertyIds: ids })],
    ['cartLineItemVariantValue', 'identifiers', (ids) => ({ optionIds: ids })],
  ];

  for (const [type, key, facts] of cases) {
    describe(type, () => {
      const withIds = (ids: string[]): ItemInput => item({ product: product(facts(ids)) });

      it('= matches a shared id, != matches none shared', () => {
        expect(onItem(type, { operator: '=', [key]: ['a', 'b'] }, withIds(['b', 'c']))).toBe(true);
        expect(onItem(type, { operator: '=', [key]: ['a'] }, withIds(['b', 'c']))).toBe(false);
        expect(onItem(type, { operator: '!=', [key]: ['a'] }, withIds(['b', 'c']))).toBe(true);
        expect(onItem(type, { operator: '!=', [key]: ['b'] }, withIds(['b', 'c']))).toBe(false);
      });

      it('empty matches an empty list only', () => {
        expect(onItem(type, { operator: 'empty' }, withIds([]))).toBe(true);
        expect(onItem(type, { operator: 'empty' }, withIds(['a']))).toBe(false);
      });

      it('treats a missing payload as no ids', () => {
        expect(onItem(type, { operator: '=', [key]: ['a'] }, bareItem())).toBe(false);
        expect(onItem(type, { operator: '!=', [key]: ['a'] }, bareItem())).toBe(true);
        expect(onItem(type, { operator: 'empty' }, bareItem())).toBe(true);
        expect(
          onItem(type, { operator: '=', [key]: ['a'] }, item({ product: product(facts(null as never)) })),
        ).toBe(false);
      });

      it('matches in the cart when any goods item does', () => {
        expect(inCart(type, { operator: '=', [key]: ['a'] }, [withIds(['x']), withIds(['a'])])).toBe(true);
        expect(inCart(type, { operator: '=', [key]: ['a'] }, [withIds(['x']), withIds(['y'])])).toBe(false);
        expect(inCart(type, { operator: '!=', [key]: ['a'] }, [withIds(['a']), withIds(['a', 'b'])])).toBe(
          false,
        );
        expect(inCart(type, { operator: '=', [key]: ['a'] }, [])).toBe(false);
      });
    });
  }

  it('cartLineItemProperty merges property and option ids', () => {
    const subject = item({ product: product({ propertyIds: ['p'], optionIds: ['o'] }) });
    expect(onItem('cartLineItemProperty', { operator: '=', identifiers: ['o'] }, subject)).toBe(true);
    expect(onItem('cartLineItemProperty', { operator: '=', identifiers: ['p'] }, subject)).toBe(true);
    expect(onItem('cartLineItemProperty', { operator: '=', identifiers: ['x'] }, subject)).toBe(false);
    expect(onItem('cartLineItemProperty', { operator: '!=', identifiers: ['o'] }, subject)).toBe(false);
    expect(onItem('cartLineItemProperty', { operator: '!=', identifiers: ['x'] }, subject)).toBe(true);
    const onlyOptions = item({ product: product({ propertyIds: null, optionIds: ['o'] }) });
    expect(onItem('cartLineItemProperty', { operator: '=', identifiers: ['o'] }, onlyOptions)).toBe(true);
    expect(onItem('cartLineItemProperty', { operator: '!=', identifiers: ['o'] }, bareItem())).toBe(true);
    expect(inCart('cartLineItemProperty', { operator: '=', identifiers: ['p'] }, [bareItem(), subject])).toBe(
      true,
    );
  });
});

describe('single-id conditions', () => {
  it('cartLineItemOfManufacturer compares the manufacturer id', () => {
    const type = 'cartLineItemOfManufacturer';
    expect(onItem(type, { operator: '=', manufacturerIds: ['maker-1', 'x'] }, item())).toBe(true);
    expect(onItem(type, { operator: '=', manufacturerIds: ['x'] }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', manufacturerIds: ['x'] }, item())).toBe(true);
    expect(onItem(type, { operator: '!=', manufacturerIds: ['maker-1'] }, item())).toBe(false);
    expect(onItem(type, { operator: 'empty' }, item())).toBe(false);
    const noMaker = item({ product: product({ manufacturerId: null }) });
    expect(onItem(type, { operator: 'empty' }, noMaker)).toBe(true);
    expect(onItem(type, { operator: 'empty' }, item({ product: product({ manufacturerId: '' }) }))).toBe(
      true,
    );
    expect(onItem(type, { operator: '!=', manufacturerIds: ['maker-1'] }, noMaker)).toBe(true);
    expect(onItem(type, { operator: '=', manufacturerIds: ['maker-1'] }, bareItem())).toBe(false);
    expect(
      inCart(type, { operator: '=', manufacturerIds: ['maker-2'] }, [
        item(),
        item({ product: product({ manufacturerId: 'maker-2' }) }),
      ]),
    ).toBe(true);
    expect(inCart(type, { operator: '=', manufacturerIds: ['maker-2'] }, [item(), item()])).toBe(false);
  });

  it('cartLineItemTaxation compares the tax id', () => {
    const type = 'cartLineItemTaxation';
    expect(onItem(type, { operator: '=', taxIds: ['tax-1', 'tax-2'] }, item())).toBe(true);
    expect(onItem(type, { operator: '=', taxIds: ['tax-2'] }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', taxIds: ['tax-2'] }, item())).toBe(true);
    expect(onItem(type, { operator: '!=', taxIds: ['tax-1'] }, item())).toBe(false);
    expect(onItem(type, { operator: '=', taxIds: ['tax-1'] }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=', taxIds: ['tax-1'] }, bareItem())).toBe(true);
    expect(
      inCart(type, { operator: '=', taxIds: ['tax-2'] }, [
        item(),
        item({ product: product({ taxId: 'tax-2' }) }),
      ]),
    ).toBe(true);
  });

  it('cartLineItem matches the product, a variant through its parent', () => {
    const type = 'cartLineItem';
    const variant = item({ referencedId: 'variant-1', product: product({ parentId: 'parent-1' }) });
    expect(onItem(type, { operator: '=', identifiers: ['product-1'] }, item())).toBe(true);
    expect(onItem(type, { operator: '=', identifiers: ['other'] }, item())).toBe(false);
    expect(onItem(type, { operator: '=', identifiers: ['parent-1'] }, variant)).toBe(true);
    expect(onItem(type, { operator: '=', identifiers: ['variant-1'] }, variant)).toBe(true);
    expect(onItem(type, { operator: '!=', identifiers: ['product-1'] }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', identifiers: ['other'] }, item())).toBe(true);
    // Either id outside the list is enough for != (the reference tries the parent, then the item).
    expect(onItem(type, { operator: '!=', identifiers: ['parent-1'] }, variant)).toBe(true);
    expect(onItem(type, { operator: '!=', identifiers: ['parent-1', 'variant-1'] }, variant)).toBe(false);
    expect(onItem(type, { operator: '=', identifiers: ['product-1'] }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=', identifiers: ['product-1'] }, bareItem())).toBe(true);
    expect(inCart(type, { operator: '=', identifiers: ['parent-1'] }, [item(), variant])).toBe(true);
    expect(inCart(type, { operator: '=', identifiers: ['nope'] }, [item(), variant])).toBe(false);
  });
});

describe('cartLineItemWithQuantity', () => {
  const type = 'cartLineItemWithQuantity';

  it('compares the quantity of the item for the id', () => {
    expect(onItem(type, { operator: '=', id: 'product-1', quantity: 2 }, item())).toBe(true);
    expect(onItem(type, { operator: '>', id: 'product-1', quantity: 2 }, item())).toBe(false);
    expect(onItem(type, { operator: '>=', id: 'product-1', quantity: 2 }, item())).toBe(true);
    expect(onItem(type, { operator: '!=', id: 'product-1', quantity: 3 }, item())).toBe(true);
  });

  it('finds a variant through its parent and ignores other items', () => {
    const variant = item({
      referencedId: 'variant-1',
      quantity: 5,
      product: product({ parentId: 'parent-1' }),
    });
    expect(onItem(type, { operator: '=', id: 'parent-1', quantity: 5 }, variant)).toBe(true);
    expect(onItem(type, { operator: '!=', id: 'other', quantity: 5 }, variant)).toBe(false);
    expect(inCart(type, { operator: '=', id: 'parent-1', quantity: 5 }, [item(), variant])).toBe(true);
    expect(inCart(type, { operator: '=', id: 'product-1', quantity: 5 }, [item(), variant])).toBe(false);
  });

  it('matches any quantity without one, and nothing without an id', () => {
    expect(onItem(type, { operator: '=', id: 'product-1' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', quantity: 2 }, item())).toBe(false);
    expect(onItem(type, { operator: '=', quantity: 2 }, bareItem())).toBe(false);
  });
});

describe('product flags', () => {
  const cases: readonly [string, string, keyof ProductFacts][] = [
    ['cartLineItemClearanceSale', 'clearanceSale', 'isCloseout'],
    ['cartLineItemIsNew', 'isNew', 'isNew'],
    ['cartLineItemPromoted', 'isPromoted', 'markAsTopseller'],
  ];

  for (const [type, key, field] of cases) {
    it(`${type} compares payload ${field} with ${key}`, () => {
      const on = item({ product: product({ [field]: true }) });
      const off = item({ product: product({ [field]: false }) });
      expect(onItem(type, { [key]: true }, on)).toBe(true);
      expect(onItem(type, { [key]: true }, off)).toBe(false);
      expect(onItem(type, { [key]: false }, off)).toBe(true);
      expect(onItem(type, { [key]: false }, on)).toBe(false);
      // A missing flag is false, on both sides.
      expect(onItem(type, {}, off)).toBe(true);
      expect(onItem(type, { [key]: false }, item({ product: product({ [field]: null }) }))).toBe(true);
      expect(onItem(type, { [key]: true }, bareItem())).toBe(false);
      expect(inCart(type, { [key]: true }, [off, on])).toBe(true);
      expect(inCart(type, { [key]: true }, [off, off])).toBe(false);
    });
  }
});

describe('stock', () => {
  it('cartLineItemActualStock compares the product stock; a missing one never matches', () => {
    const type = 'cartLineItemActualStock';
    expect(onItem(type, { operator: '=', stock: 10 }, item())).toBe(true);
    expect(onItem(type, { operator: '<', stock: 10 }, item())).toBe(false);
    expect(onItem(type, { operator: '<=', stock: 10 }, item())).toBe(true);
    expect(onItem(type, { operator: '>', stock: 9 }, item())).toBe(true);
    const unknown = item({ product: product({ stock: null }) });
    expect(onItem(type, { operator: '!=', stock: 10 }, unknown)).toBe(false);
    expect(onItem(type, { operator: '!=', stock: 10 }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=' }, item())).toBe(false);
    const low = item({ product: product({ stock: 1 }) });
    expect(inCart(type, { operator: '<', stock: 5 }, [item(), low])).toBe(true);
    expect(inCart(type, { operator: '<', stock: 5 }, [item(), unknown])).toBe(false);
  });

  it('cartLineItemStock compares the delivery stock; no delivery information matches !=', () => {
    const type = 'cartLineItemStock';
    expect(onItem(type, { operator: '=', stock: 5 }, item())).toBe(true);
    expect(onItem(type, { operator: '>', stock: 5 }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', stock: 5 }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', stock: 5 }, bareItem())).toBe(true);
    expect(onItem(type, { operator: '=', stock: 5 }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=' }, bareItem())).toBe(false);
    expect(
      inCart(type, { operator: '>=', stock: 6 }, [item(), item({ delivery: delivery({ stock: 6 }) })]),
    ).toBe(true);
  });
});

describe('dimensions', () => {
  const cases: readonly [string, keyof DeliveryFacts, number][] = [
    ['cartLineItemDimensionHeight', 'height', 200],
    ['cartLineItemDimensionLength', 'length', 300],
    ['cartLineItemDimensionWidth', 'width', 100],
    ['cartLineItemDimensionWeight', 'weight', 2],
  ];

  for (const [type, field, size] of cases) {
    describe(type, () => {
      it(`compares delivery ${field} with amount`, () => {
        expect(onItem(type, { operator: '=', amount: size }, item())).toBe(true);
        expect(onItem(type, { operator: '!=', amount: size }, item())).toBe(false);
        expect(onItem(type, { operator: '>', amount: size }, item())).toBe(false);
        expect(onItem(type, { operator: '>=', amount: size }, item())).toBe(true);
        expect(onItem(type, { operator: '<', amount: size + 1 }, item())).toBe(true);
        expect(onItem(type, { operator: '<=', amount: size - 1 }, item())).toBe(false);
        expect(onItem(type, { operator: 'empty' }, item())).toBe(false);
      });

      it('matches only != and empty without the dimension or the delivery information', () => {
        const unknown = item({ delivery: delivery({ [field]: null }) });
        for (const subject of [unknown, bareItem()]) {
          expect(onItem(type, { operator: '=', amount: size }, subject)).toBe(false);
          expect(onItem(type, { operator: '<', amount: size }, subject)).toBe(false);
          expect(onItem(type, { operator: '!=', amount: size }, subject)).toBe(true);
          expect(onItem(type, { operator: 'empty' }, subject)).toBe(true);
        }
      });

      it('matches in the cart when any goods item does', () => {
        const big = item({ delivery: delivery({ [field]: size * 10 }) });
        expect(inCart(type, { operator: '>', amount: size }, [item(), big])).toBe(true);
        expect(inCart(type, { operator: '>', amount: size * 10 }, [item(), big])).toBe(false);
        expect(inCart(type, { operator: 'empty' }, [item(), bareItem()])).toBe(true);
        expect(inCart(type, { operator: '!=', amount: size }, [item(), item()])).toBe(false);
      });
    });
  }

  it('cartLineItemDimensionVolume compares mm³ with the amount in m³', () => {
    const type = 'cartLineItemDimensionVolume';
    const cubicMetre = item({ delivery: delivery({ volume: 1e9 }) });
    expect(onItem(type, { operator: '=', amount: 1 }, cubicMetre)).toBe(true);
    expect(onItem(type, { operator: '=', amount: 0.006 }, item())).toBe(true);
    expect(onItem(type, { operator: '>', amount: 0.5 }, cubicMetre)).toBe(true);
    expect(onItem(type, { operator: '<', amount: 1 }, cubicMetre)).toBe(false);
    expect(onItem(type, { operator: '!=', amount: 1 }, cubicMetre)).toBe(false);
    expect(onItem(type, { operator: '=', amount: 1 }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=', amount: 1 }, bareItem())).toBe(true);
    expect(onItem(type, { operator: 'empty' }, bareItem())).toBe(true);
    // A missing amount is 0.
    expect(onItem(type, { operator: '>' }, cubicMetre)).toBe(true);
    expect(inCart(type, { operator: '>=', amount: 1 }, [item(), cubicMetre])).toBe(true);
    expect(inCart(type, { operator: '>=', amount: 2 }, [item(), cubicMetre])).toBe(false);
  });
});

describe('dates', () => {
  const cases: readonly [string, string, 'createdAt' | 'releaseDate'][] = [
    ['cartLineItemCreationDate', 'lineItemCreationDate', 'createdAt'],
    ['cartLineItemReleaseDate', 'lineItemReleaseDate', 'releaseDate'],
  ];

  for (const [type, key, field] of cases) {
    describe(type, () => {
      const dated = (date: string | null): ItemInput => item({ product: product({ [field]: date }) });

      it(`compares payload ${field} as a date-time`, () => {
        const subject = dated('2020-02-06 02:00:00');
        expect(onItem(type, { operator: '=', [key]: '2020-02-06 02:00:00' }, subject)).toBe(true);
        expect(onItem(type, { operator: '=', [key]: '2020-02-06 02:00:01' }, subject)).toBe(false);
        expect(onItem(type, { operator: '!=', [key]: '2020-02-06 02:00:00' }, subject)).toBe(false);
        expect(onItem(type, { operator: '>', [key]: '2020-02-06 01:00:00' }, subject)).toBe(true);
        expect(onItem(type, { operator: '<', [key]: '2020-02-06 01:00:00' }, subject)).toBe(false);
        expect(onItem(type, { operator: '>=', [key]: '2020-02-06 02:00:00' }, subject)).toBe(true);
        expect(onItem(type, { operator: '<=', [key]: '2020-02-05' }, subject)).toBe(false);
        expect(onItem(type, { operator: '=', [key]: '2020-02-06T03:00:00+01:00' }, subject)).toBe(true);
      });

      it('takes between inclusively', () => {
        const subject = dated('2020-02-06 02:00:00');
        const range = (from: string, to: string) => ({ operator: 'between', [key]: { from, to } });
        expect(onItem(type, range('2020-02-06 02:00:00', '2020-02-07 00:00:00'), subject)).toBe(true);
        expect(onItem(type, range('2020-02-01 00:00:00', '2020-02-06 02:00:00'), subject)).toBe(true);
        expect(onItem(type, range('2020-02-07 00:00:00', '2020-02-08 00:00:00'), subject)).toBe(false);
        expect(onItem(type, { operator: 'between', [key]: '2020-02-06 02:00:00' }, subject)).toBe(false);
      });

      it('matches only != without the item date, and never without the rule date or a parsable one', () => {
        expect(onItem(type, { operator: '!=', [key]: '2020-02-06 02:00:00' }, dated(null))).toBe(true);
        expect(onItem(type, { operator: '!=', [key]: '2020-02-06 02:00:00' }, bareItem())).toBe(true);
        expect(onItem(type, { operator: '=', [key]: '2020-02-06 02:00:00' }, dated(null))).toBe(false);
        expect(onItem(type, { operator: '!=' }, dated(null))).toBe(false);
        expect(onItem(type, { operator: '!=' }, dated('2020-02-06 02:00:00'))).toBe(false);
        expect(onItem(type, { operator: '=', [key]: 'not a date' }, dated('2020-02-06 02:00:00'))).toBe(
          false,
        );
        // The schema refuses a malformed date: set it on the facts by hand.
        const facts = buildFacts({ now: NOW, lineItem: dated(null) });
        const { lineItem } = facts;
        const garbage = { ...lineItem!, product: { ...lineItem!.product!, [field]: 'garbage' } };
        const rule = compiled({ type, value: { operator: '!=', [key]: '2020-02-06' } });
        expect(successValue(rule.evaluate({ ...facts, lineItem: garbage }))).toBe(false);
      });

      it('matches in the cart when any goods item does', () => {
        const rule = { operator: '=', [key]: '2020-02-06 00:00:00' };
        expect(inCart(type, rule, [dated('2020-01-01 18:00:00'), dated('2020-02-06 00:00:00')])).toBe(true);
        expect(inCart(type, rule, [dated('2020-01-01 18:00:00'), dated('2020-01-01 12:30:00')])).toBe(false);
      });
    });
  }

  it('cartLineItemReleaseDate empty matches a missing release date while a rule date is set', () => {
    const type = 'cartLineItemReleaseDate';
    const unreleased = item({ product: product({ releaseDate: null }) });
    expect(onItem(type, { operator: 'empty', lineItemReleaseDate: '2020-01-01' }, unreleased)).toBe(true);
    expect(onItem(type, { operator: 'empty', lineItemReleaseDate: '2020-01-01' }, item())).toBe(false);
    // The reference checks the rule value first: without one nothing matches.
    expect(onItem(type, { operator: 'empty' }, unreleased)).toBe(false);
  });
});

describe('prices', () => {
  it('cartLineItemUnitPrice compares the unit price; a missing amount is 0', () => {
    const type = 'cartLineItemUnitPrice';
    expect(onItem(type, { operator: '=', amount: 20 }, item())).toBe(true);
    expect(onItem(type, { operator: '<', amount: 20 }, item())).toBe(false);
    expect(onItem(type, { operator: '>', amount: 19.99 }, item())).toBe(true);
    expect(onItem(type, { operator: '>' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', amount: 20 }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=', amount: 20 }, bareItem())).toBe(true);
    const cheap = item({ price: price({ unitPrice: 5 }) });
    expect(inCart(type, { operator: '<', amount: 10 }, [item(), cheap])).toBe(true);
    expect(inCart(type, { operator: '<', amount: 5 }, [item(), cheap])).toBe(false);
  });

  it('cartLineItemTotalPrice compares the total; no price or an amount of 0 matches only !=', () => {
    const type = 'cartLineItemTotalPrice';
    expect(onItem(type, { operator: '=', amount: 40 }, item())).toBe(true);
    expect(onItem(type, { operator: '!=', amount: 40 }, item())).toBe(false);
    expect(onItem(type, { operator: '>=', amount: 40.5 }, item())).toBe(false);
    expect(onItem(type, { operator: '=', amount: 40 }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=', amount: 40 }, bareItem())).toBe(true);
    expect(onItem(type, { operator: '>', amount: 0 }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', amount: 0 }, item())).toBe(true);
    expect(onItem(type, { operator: '!=' }, item())).toBe(true);
    expect(
      inCart(type, { operator: '>', amount: 50 }, [item(), item({ price: price({ totalPrice: 60 }) })]),
    ).toBe(true);
  });

  it('cartLineItemListPrice compares the list price; none matches only != and empty', () => {
    const type = 'cartLineItemListPrice';
    const unlisted = item({ price: price({ listPrice: null }) });
    expect(onItem(type, { operator: '=', amount: 25 }, item())).toBe(true);
    expect(onItem(type, { operator: '>', amount: 25 }, item())).toBe(false);
    expect(onItem(type, { operator: 'empty' }, item())).toBe(false);
    expect(onItem(type, { operator: 'empty' }, unlisted)).toBe(true);
    expect(onItem(type, { operator: '!=', amount: 25 }, unlisted)).toBe(true);
    expect(onItem(type, { operator: '=', amount: 25 }, unlisted)).toBe(false);
    expect(onItem(type, { operator: '!=', amount: 25 }, bareItem())).toBe(true);
    expect(onItem(type, { operator: '<', amount: 25 }, bareItem())).toBe(false);
    expect(inCart(type, { operator: '>=', amount: 25 }, [unlisted, item()])).toBe(true);
    expect(inCart(type, { operator: '>=', amount: 25 }, [unlisted, unlisted])).toBe(false);
  });

  it('cartLineItemListPriceRatio compares (100 - percentage) / 100; no list price is a ratio of 0', () => {
    const type = 'cartLineItemListPriceRatio';
    const unlisted = item({ price: price({ listPrice: null }) });
    expect(onItem(type, { operator: '=', amount: 0.8 }, item())).toBe(true);
    expect(onItem(type, { operator: '<', amount: 0.8 }, item())).toBe(false);
    expect(onItem(type, { operator: '<=', amount: 0.9 }, item())).toBe(true);
    expect(onItem(type, { operator: 'empty' }, item())).toBe(false);
    expect(onItem(type, { operator: '=', amount: 0 }, unlisted)).toBe(true);
    expect(onItem(type, { operator: '<', amount: 0.5 }, unlisted)).toBe(true);
    expect(onItem(type, { operator: '!=', amount: 0 }, unlisted)).toBe(false);
    expect(onItem(type, { operator: 'empty' }, unlisted)).toBe(true);
    // No calculated price at all: only != and empty.
    expect(onItem(type, { operator: '=', amount: 0 }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=', amount: 0 }, bareItem())).toBe(true);
    expect(onItem(type, { operator: 'empty' }, bareItem())).toBe(true);
    const deep = item({ price: price({ listPrice: { price: 100, percentage: 50 } }) });
    expect(inCart(type, { operator: '<=', amount: 0.5 }, [item(), deep])).toBe(true);
    expect(inCart(type, { operator: '<=', amount: 0.4 }, [item(), deep])).toBe(false);
  });

  it('cartLineItemPurchasePrice compares the gross price, or the net one when asked', () => {
    const type = 'cartLineItemPurchasePrice';
    expect(onItem(type, { operator: '=', amount: 11.9, type: 'gross' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', amount: 10, type: 'net' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', amount: 10, type: 'gross' }, item())).toBe(false);
    expect(onItem(type, { operator: '=', amount: 11.9 }, item())).toBe(true);
    expect(onItem(type, { operator: '>', amount: 10, type: 'net' }, item())).toBe(false);
    const grossOnly = item({ product: product({ purchasePrice: { gross: 7, net: null } }) });
    expect(onItem(type, { operator: '=', amount: 7, type: 'net' }, grossOnly)).toBe(true);
    expect(onItem(type, { operator: 'empty' }, item())).toBe(false);
    const unpriced = item({ product: product({ purchasePrice: null }) });
    expect(onItem(type, { operator: 'empty' }, unpriced)).toBe(true);
    expect(onItem(type, { operator: '!=', amount: 5, type: 'gross' }, unpriced)).toBe(true);
    expect(onItem(type, { operator: '=', amount: 5, type: 'gross' }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=', type: 'gross' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', type: 'gross' }, item())).toBe(false);
    expect(inCart(type, { operator: '<', amount: 8, type: 'gross' }, [item(), grossOnly])).toBe(true);
  });
});

describe('cartLineItemCustomField', () => {
  const type = 'cartLineItemCustomField';
  const field = (name: string, fieldType: string, config: Record<string, unknown> = {}) => ({
    name,
    type: fieldType,
    config,
  });

  it('compares the product custom field', () => {
    const text = { renderedField: field('colour', 'text'), selectedField: 'f', selectedFieldSet: 's' };
    expect(onItem(type, { ...text, operator: '=', renderedFieldValue: 'red' }, item())).toBe(true);
    expect(onItem(type, { ...text, operator: '=', renderedFieldValue: 'blue' }, item())).toBe(false);
    expect(onItem(type, { ...text, operator: '!=', renderedFieldValue: 'blue' }, item())).toBe(true);
    const size = { renderedField: field('size', 'int') };
    expect(onItem(type, { ...size, operator: '>=', renderedFieldValue: 40 }, item())).toBe(true);
    expect(onItem(type, { ...size, operator: '<', renderedFieldValue: 40 }, item())).toBe(false);
    const flag = { renderedField: field('fragile', 'bool') };
    expect(onItem(type, { ...flag, operator: '=', renderedFieldValue: true }, item())).toBe(true);
    expect(onItem(type, { ...flag, operator: '=', renderedFieldValue: false }, item())).toBe(false);
  });

  it('treats a missing field by CustomFieldRule and missing custom fields as a missing subject', () => {
    const missing = { renderedField: field('absent', 'text') };
    expect(onItem(type, { ...missing, operator: '=', renderedFieldValue: 'x' }, item())).toBe(false);
    expect(onItem(type, { ...missing, operator: '!=', renderedFieldValue: 'x' }, item())).toBe(true);
    const missingFlag = { renderedField: field('absent', 'bool') };
    expect(onItem(type, { ...missingFlag, operator: '=', renderedFieldValue: false }, item())).toBe(true);
    const colour = { renderedField: field('colour', 'text') };
    const noFields = item({ product: product({ customFields: null }) });
    expect(onItem(type, { ...colour, operator: '!=', renderedFieldValue: 'red' }, noFields)).toBe(true);
    expect(onItem(type, { ...colour, operator: '=', renderedFieldValue: 'red' }, noFields)).toBe(false);
    expect(onItem(type, { ...missingFlag, operator: '=', renderedFieldValue: false }, bareItem())).toBe(
      false,
    );
    expect(onItem(type, { ...colour, operator: '!=', renderedFieldValue: 'red' }, bareItem())).toBe(true);
  });

  it('matches in the cart when any goods item does', () => {
    const colour = { renderedField: field('colour', 'text'), operator: '=', renderedFieldValue: 'blue' };
    const blue = item({ product: product({ customFields: { colour: 'blue' } }) });
    expect(inCart(type, colour, [item(), blue])).toBe(true);
    expect(inCart(type, colour, [item(), item()])).toBe(false);
  });
});

describe('type, state and quantity', () => {
  it('cartLineItemProductType compares the product type case-insensitively', () => {
    const type = 'cartLineItemProductType';
    expect(onItem(type, { operator: '=', productType: 'physical' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', productType: 'PHYSICAL' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', productType: 'digital' }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', productType: 'digital' }, item())).toBe(true);
    expect(onItem(type, { operator: '!=', productType: 'physical' }, item())).toBe(false);
    const untyped = item({ product: product({ productType: null }) });
    expect(onItem(type, { operator: '!=', productType: 'digital' }, untyped)).toBe(false);
    expect(onItem(type, { operator: '!=', productType: 'digital' }, bareItem())).toBe(false);
    expect(onItem(type, { operator: '!=' }, item())).toBe(false);
    const digital = item({ product: product({ productType: 'digital' }) });
    expect(inCart(type, { operator: '=', productType: 'digital' }, [item(), digital])).toBe(true);
    expect(inCart(type, { operator: '=', productType: 'digital' }, [item(), untyped])).toBe(false);
  });

  it('cartLineItemProductStates looks the state up in the item states', () => {
    const type = 'cartLineItemProductStates';
    const both = item({ states: ['is-physical', 'is-download'] });
    expect(onItem(type, { operator: '=', productState: 'is-download' }, both)).toBe(true);
    expect(onItem(type, { operator: '!=', productState: 'is-download' }, both)).toBe(false);
    expect(onItem(type, { operator: '=', productState: 'is-download' }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', productState: 'is-download' }, item())).toBe(true);
    expect(onItem(type, { operator: '!=', productState: 'is-download' }, item({ states: [] }))).toBe(true);
    expect(onItem(type, { operator: '!=' }, item())).toBe(false);
    expect(inCart(type, { operator: '=', productState: 'is-download' }, [item(), both])).toBe(true);
  });

  it('cartLineItemPerItemQuantity compares each item quantity', () => {
    const type = 'cartLineItemPerItemQuantity';
    expect(onItem(type, { operator: '=', quantity: 2 }, item())).toBe(true);
    expect(onItem(type, { operator: '>', quantity: 2 }, item())).toBe(false);
    expect(onItem(type, { operator: '!=', quantity: 3 }, item())).toBe(true);
    expect(onItem(type, { operator: '!=' }, item())).toBe(false);
    expect(inCart(type, { operator: '>=', quantity: 5 }, [item(), item({ quantity: 5 })])).toBe(true);
    expect(inCart(type, { operator: '>=', quantity: 5 }, [item(), item({ quantity: 4 })])).toBe(false);
  });

  it('cartLineItemOfType compares the item type and sees every item of the cart', () => {
    const type = 'cartLineItemOfType';
    const promotion = bareItem({ type: 'promotion', good: false });
    expect(onItem(type, { operator: '=', lineItemType: 'product' }, item())).toBe(true);
    expect(onItem(type, { operator: '=', lineItemType: 'Product' }, item())).toBe(true);
    expect(onItem(type, { operator: '!=', lineItemType: 'product' }, item())).toBe(false);
    expect(onItem(type, { operator: '=', lineItemType: 'promotion' }, promotion)).toBe(true);
    expect(onItem(type, { operator: '=' }, item())).toBe(false);
    expect(inCart(type, { operator: '=', lineItemType: 'promotion' }, [item(), promotion])).toBe(true);
    expect(inCart(type, { operator: '=', lineItemType: 'promotion' }, [item(), item()])).toBe(false);
    // Non-goods count too: the product is one item for which the type differs.
    expect(inCart(type, { operator: '!=', lineItemType: 'promotion' }, [promotion, item()])).toBe(true);
  });
});

describe('cartLineItemsInCartCount', () => {
  const type = 'cartLineItemsInCartCount';
  const container = item({ type: 'container', product: null, children: [item(), item()] });
  const promotion = bareItem({ type: 'promotion', good: false });

  it('counts the top-level items of every type', () => {
    expect(inCart(type, { operator: '=', count: 2 }, [container, promotion])).toBe(true);
    expect(inCart(type, { operator: '>', count: 2 }, [container, promotion])).toBe(false);
    expect(inCart(type, { operator: '<=', count: 3 }, [container, promotion])).toBe(true);
    expect(inCart(type, { operator: '=', count: 0 }, [])).toBe(true);
    expect(inCart(type, { operator: '!=', count: 0 }, [])).toBe(false);
  });

  it('does not match without a count, or in the line-item scope', () => {
    expect(inCart(type, { operator: '!=' }, [item()])).toBe(false);
    const facts = buildFacts({ now: NOW, cart: { lineItems: [item()] }, lineItem: item() });
    expect(decide({ type, value: { operator: '=', count: 1 } }, facts)).toBe(false);
  });

  it('needs the cart scope', () => {
    const rule = compiled({ type, value: { operator: '=', count: 1 } });
    expect(rule.evaluate(buildFacts({ now: NOW, lineItem: item() }))).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/cart/),
    });
  });
});

describe('the engine around the line-item evaluators', () => {
  it('looks into nested items of the cart and ignores non-goods', () => {
    const nested = item({
      type: 'container',
      product: null,
      children: [item({ id: 'child', product: product({ tagIds: ['deep'] }) })],
    });
    expect(inCart('cartLineItemTag', { operator: '=', identifiers: ['deep'] }, [nested])).toBe(true);
    const notGood = item({ good: false, product: product({ tagIds: ['deep'] }) });
    expect(inCart('cartLineItemTag', { operator: '=', identifiers: ['deep'] }, [notGood])).toBe(false);
  });

  it('never matches a product condition on container-like items, even with !=', () => {
    const container = item({ type: 'container' });
    expect(onItem('cartLineItemTag', { operator: '!=', identifiers: ['x'] }, container)).toBe(false);
    expect(onItem('cartLineItemDimensionWidth', { operator: '!=', amount: 1 }, container)).toBe(false);
    expect(onItem('cartLineItem', { operator: '=', identifiers: ['product-1'] }, container)).toBe(true);
  });

  it('evaluates inside line-item containers in the cart scope', () => {
    const tree = {
      type: 'allLineItemsContainer',
      children: [{ type: 'cartLineItemInCategory', value: { operator: '=', categoryIds: ['cat-1'] } }],
    };
    const other = item({ product: product({ categoryIds: ['cat-9'] }) });
    expect(decide(tree, cartFacts([item(), item()]))).toBe(true);
    expect(decide(tree, cartFacts([item(), other]))).toBe(false);
  });

  it('shows what each item was compared on in a trace', () => {
    const rule = compiled({ type: 'cartLineItemDimensionWeight', value: { operator: '>', amount: 1 } });
    const trace = successValue(rule.explain(cartFacts([item(), bareItem()])));
    expect(trace).toMatchObject({ type: 'cartLineItemDimensionWeight', result: true, actual: [2, null] });
  });
});
