import {
  compareBoolean,
  dateMatches,
  idMatches,
  idSet,
  idsMatch,
  isNegativeOperator,
  numberMatches,
  textInListMatches,
  textMatches,
} from '../compare.ts';
import { matchCustomField, prepareCustomField, readCustomField } from '../custom-field.ts';
import type { LineItemFacts, PriceFacts } from '../facts.ts';
import { type Evaluator, factsCondition, itemCondition, type Value } from './model.ts';

// Conditions of the line items (group `item`). Each reads one item: in the line-item scope that
// item, in the cart scope each goods item of the flattened cart (the engine matches if any does).
// The reference's payload is `item.product` (null: no payload), its delivery information
// `item.delivery` and its calculated price `item.price`. The reference throws for some missing
// rule values (a stored rule is validated first); here such a condition does not match.

/** `Rule::VOLUME_FACTOR`: rule volumes are m³, item volumes mm³. */
const VOLUME_FACTOR = 1e9;

/** A numeric rule value, or null when it is missing or not a number. */
function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && !Number.isNaN(value) ? value : null;
}

/** PHP's `(float) $this->amount`: a missing amount is 0; anything else not a number stays invalid. */
function floatCast(value: unknown): number | null {
  return value === null || value === undefined ? 0 : numberOrNull(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

interface NumberRule {
  readonly operator: unknown;
  readonly expected: number | null;
}

/** `RuleComparison::numeric(fact, amount, operator)` with the rule's `amount` as given. */
function numericItemCondition(read: (item: LineItemFacts) => number | null): Evaluator {
  return itemCondition<number | null, NumberRule>({
    prepare: (value) => ({ operator: value.operator, expected: numberOrNull(value.amount) }),
    read,
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  });
}

interface IdsRule {
  readonly operator: unknown;
  readonly ids: ReadonlySet<string>;
}

/** `RuleComparison::uuids(fact, value[key], operator)` over an id list of the item. */
function idsItemCondition(
  key: string,
  read: (item: LineItemFacts) => readonly (string | null)[] | null,
): Evaluator {
  return itemCondition<readonly (string | null)[] | null, IdsRule>({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value[key]) }),
    read,
    test: (actual, { operator, ids }) => idsMatch(actual, operator, ids),
  });
}

/** `(bool) payload[…] === value[key]`; a missing flag counts as false on both sides. */
function flagItemCondition(key: string, read: (item: LineItemFacts) => boolean | null): Evaluator {
  return itemCondition<boolean | null, boolean>({
    prepare: (value) => value[key] === true,
    read,
    test: (actual, expected) => compareBoolean(actual, expected),
  });
}

interface DateRule {
  readonly operator: unknown;
  /** The rule's date text or `{from, to}`; null when missing (the condition then never matches). */
  readonly expected: unknown;
}

/**
 * `RuleComparison::datetimeValue` of a payload date: a missing rule value never matches (checked
 * before the item), a missing item date matches `!=` and `empty`, an unparsable one nothing.
 */
function dateItemCondition(key: string, read: (item: LineItemFacts) => string | null): Evaluator {
  return itemCondition<string | null, DateRule>({
    prepare: (value) => ({ operator: value.operator, expected: value[key] ?? null }),
    read,
    test: (actual, { operator, expected }) =>
      expected !== null && dateMatches(actual, operator, expected, true),
  });
}

interface StockRule {
  readonly operator: unknown;
  readonly stock: number | null;
}

function prepareStock(value: Value): StockRule {
  return { operator: value.operator, stock: numberOrNull(value.stock) };
}

/** Property ids and variant option ids of the item's product, merged (allocating only when both are set). */
function propertyAndOptionIds(item: LineItemFacts): readonly string[] | null {
  const properties = item.product?.propertyIds ?? null;
  const options = item.product?.optionIds ?? null;
  if (properties === null || properties.length === 0) return options;
  if (options === null || options.length === 0) return properties;
  return [...properties, ...options];
}

/** `(100 - listPrice.percentage) / 100`, or null without a list price (or its percentage). */
function listPriceRatio(price: PriceFacts): number | null {
  const percentage = price.listPrice?.percentage;
  return typeof percentage === 'number' ? (100 - percentage) / 100 : null;
}

/** The product id the item stands for: its parent's for a variant (`payload.parentId`). */
function parentIdOf(item: LineItemFacts): string | null {
  return item.product?.parentId ?? null;
}

export const ITEMS_EVALUATORS: Readonly<Record<string, Evaluator>> = {
  cartLineItemOfManufacturer: itemCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.manufacturerIds) }),
    read: (item) => item.product?.manufacturerId ?? null,
    test: (actual, { operator, ids }) => idMatches(actual, operator, ids),
  }),

  // The product's available stock; a missing stock never matches, whatever the operator.
  cartLineItemActualStock: itemCondition({
    prepare: prepareStock,
    read: (item) => item.product?.stock ?? null,
    test: (actual, { operator, stock }) =>
      stock !== null && actual !== null && numberMatches(actual, operator, stock),
  }),

  cartLineItemClearanceSale: flagItemCondition('clearanceSale', (item) => item.product?.isCloseout ?? null),

  cartLineItemCreationDate: dateItemCondition(
    'lineItemCreationDate',
    (item) => item.product?.createdAt ?? null,
  ),

  // The payload's custom fields: none at all matches `!=` (and `empty`); otherwise CustomFieldRule::match.
  cartLineItemCustomField: itemCondition({
    prepare: prepareCustomField,
    // The one field compared (traces show it); undefined when the payload has no custom fields.
    read: (item, _facts, prepared) => {
      const fields = item.product?.customFields;
      return fields === null || fields === undefined ? undefined : readCustomField(fields, prepared);
    },
    test: (actual, prepared, facts) =>
      actual === undefined
        ? isNegativeOperator(prepared.operator)
        : matchCustomField(actual, prepared, facts),
  }),

  // No delivery information and a missing dimension both give `isNegativeOperator`.
  cartLineItemDimensionHeight: numericItemCondition((item) => item.delivery?.height ?? null),
  cartLineItemDimensionLength: numericItemCondition((item) => item.delivery?.length ?? null),
  cartLineItemDimensionWidth: numericItemCondition((item) => item.delivery?.width ?? null),
  cartLineItemDimensionWeight: numericItemCondition((item) => item.delivery?.weight ?? null),

  // mm³ against the rule's m³; a missing amount is `(float) null`, 0.
  cartLineItemDimensionVolume: itemCondition({
    prepare: (value) => {
      const amount = floatCast(value.amount);
      return { operator: value.operator, expected: amount === null ? null : amount * VOLUME_FACTOR };
    },
    read: (item) => item.delivery?.volume ?? null,
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  }),

  cartLineItemInCategory: idsItemCondition('categoryIds', (item) => item.product?.categoryIds ?? null),
  cartLineItemInProductStream: idsItemCondition('streamIds', (item) => item.product?.streamIds ?? null),

  cartLineItemIsNew: flagItemCondition('isNew', (item) => item.product?.isNew ?? null),

  // No calculated price and no list price both give `isNegativeOperator`.
  cartLineItemListPrice: itemCondition({
    prepare: (value) => ({ operator: value.operator, expected: floatCast(value.amount) }),
    read: (item) => item.price?.listPrice?.price ?? null,
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  }),

  // No calculated price: `isNegativeOperator`. No list price: ratio 0, except for `empty` (matches).
  cartLineItemListPriceRatio: itemCondition({
    prepare: (value) => ({ operator: value.operator, expected: floatCast(value.amount) }),
    read: (item) => item.price,
    test: (price, { operator, expected }) => {
      if (price === null) return isNegativeOperator(operator);
      const ratio = listPriceRatio(price) ?? (operator === 'empty' ? null : 0);
      return numberMatches(ratio, operator, expected);
    },
  }),

  cartLineItemPromoted: flagItemCondition('isPromoted', (item) => item.product?.markAsTopseller ?? null),

  cartLineItemProperty: idsItemCondition('identifiers', propertyAndOptionIds),
  cartLineItemPropertyValue: idsItemCondition('identifiers', (item) => item.product?.propertyIds ?? null),
  cartLineItemVariantValue: idsItemCondition('identifiers', (item) => item.product?.optionIds ?? null),

  // The net price when asked for and known, else the gross one; a missing price gives `isNegativeOperator`.
  cartLineItemPurchasePrice: itemCondition({
    prepare: (value) => ({
      operator: value.operator,
      expected: numberOrNull(value.amount),
      net: value.type === 'net',
    }),
    read: (item) => item.product?.purchasePrice ?? null,
    test: (purchasePrice, { operator, expected, net }) => {
      const amount =
        purchasePrice === null
          ? null
          : net && purchasePrice.net !== null
            ? purchasePrice.net
            : purchasePrice.gross;
      return numberMatches(amount, operator, expected);
    },
  }),

  cartLineItemReleaseDate: dateItemCondition(
    'lineItemReleaseDate',
    (item) => item.product?.releaseDate ?? null,
  ),

  cartLineItemTag: idsItemCondition('identifiers', (item) => item.product?.tagIds ?? null),

  cartLineItemTaxation: itemCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.taxIds) }),
    read: (item) => item.product?.taxId ?? null,
    test: (actual, { operator, ids }) => idMatches(actual, operator, ids),
  }),

  // Deprecated: the delivery information's stock; none gives `isNegativeOperator`.
  cartLineItemStock: itemCondition({
    prepare: prepareStock,
    read: (item) => item.delivery?.stock ?? null,
    test: (actual, { operator, stock }) => stock !== null && numberMatches(actual, operator, stock),
  }),

  // Deprecated: `stringArray(productState, states)`, the state looked up in the item's states.
  cartLineItemProductStates: itemCondition({
    prepare: (value) => ({ operator: value.operator, state: stringOrNull(value.productState) }),
    read: (item) => item.states,
    test: (states, { operator, state }) => textInListMatches(state, operator, states),
  }),

  // A product type that is not text (or no payload) never matches.
  cartLineItemProductType: itemCondition({
    prepare: (value) => ({ operator: value.operator, expected: stringOrNull(value.productType) }),
    read: (item) => item.product?.productType ?? null,
    test: (actual, { operator, expected }) =>
      actual !== null && expected !== null && textMatches(actual, operator, expected),
  }),

  cartLineItemPerItemQuantity: itemCondition({
    prepare: (value) => ({ operator: value.operator, expected: numberOrNull(value.quantity) }),
    read: (item) => item.quantity,
    test: (actual, { operator, expected }) => expected !== null && numberMatches(actual, operator, expected),
  }),

  // The product (its parent for a variant, then the item's own reference) among the identifiers.
  cartLineItem: itemCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.identifiers) }),
    read: (item) => item,
    test: (item, { operator, ids }) => {
      const parentId = parentIdOf(item);
      if (parentId !== null && idMatches(parentId, operator, ids)) return true;
      return idMatches(item.referencedId, operator, ids);
    },
  }),

  // The item for `id` (its reference or its parent); without a quantity any such item matches.
  cartLineItemWithQuantity: itemCondition({
    prepare: (value) => ({
      operator: value.operator,
      id: typeof value.id === 'string' && value.id !== '' ? value.id : null,
      quantity: numberOrNull(value.quantity),
    }),
    read: (item) => item,
    test: (item, { operator, id, quantity }) => {
      if (id === null || (item.referencedId !== id && parentIdOf(item) !== id)) return false;
      return quantity === null || numberMatches(item.quantity, operator, quantity);
    },
  }),

  // No calculated price, or an amount of 0 or none (`!$this->amount`), gives `isNegativeOperator`.
  cartLineItemTotalPrice: itemCondition({
    prepare: (value) => {
      const amount = numberOrNull(value.amount);
      return { operator: value.operator, expected: amount === 0 ? null : amount };
    },
    read: (item) => item.price?.totalPrice ?? null,
    test: (actual, { operator, expected }) =>
      expected === null ? isNegativeOperator(operator) : numberMatches(actual, operator, expected),
  }),

  // No calculated price gives `isNegativeOperator`; a missing amount is 0.
  cartLineItemUnitPrice: itemCondition({
    prepare: (value) => ({ operator: value.operator, expected: floatCast(value.amount) }),
    read: (item) => item.price?.unitPrice ?? null,
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  }),

  // Every item of the flattened cart, not only goods; a missing type is `(string) null`, ''.
  cartLineItemOfType: itemCondition({
    items: 'all',
    prepare: (value) => ({ operator: value.operator, expected: stringOrNull(value.lineItemType) ?? '' }),
    read: (item) => item.type,
    test: (actual, { operator, expected }) => textMatches(actual, operator, expected),
  }),

  // Top-level items of every type. Only the cart scope has them: under a line item it never matches.
  cartLineItemsInCartCount: factsCondition({
    prepare: (value) => ({ operator: value.operator, expected: numberOrNull(value.count) }),
    read: (facts, item) => (item === undefined ? (facts.cart?.lineItems.length ?? null) : null),
    test: (actual, { operator, expected }) =>
      actual !== null && expected !== null && numberMatches(actual, operator, expected),
  }),
};
