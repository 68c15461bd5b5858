import * as v from 'valibot';
import { parseInstant } from '../compare.ts';
import type {
  ContextFacts,
  DeliveryFacts,
  Facts,
  LineItemFacts,
  PriceFacts,
  ProductFacts,
  PromotionFacts,
} from '../facts.ts';
import { FactsSchema } from '../facts-schema.ts';
import type { ConditionNode, ConditionTree } from '../tree.ts';

// The conformance translation: one evaluation case harvested from the reference's unit tests
// (`{condition, params, facts, expected, source}`, see shared/reference/README.md) into a condition
// tree and the engine's facts model. The facts are translated by what each reference field MEANS,
// through the tables below and a few generic parsers (relative times, unit-suffixed dimensions,
// price definitions); nothing here knows about individual cases. A key the tables do not know, or
// a value that does not parse, is reported in `unknownFacts` rather than dropped.

/** One line of a `rule-cases.*.jsonl` file. */
export interface ReferenceCase {
  readonly condition: string;
  readonly params?: unknown;
  readonly facts?: unknown;
  readonly expected?: unknown;
  readonly source?: unknown;
}

export interface Translation {
  readonly tree: ConditionTree;
  readonly facts: Facts;
  /**
   * Fact keys the translation did not understand, as dotted paths (`lineItem.payload.foo`,
   * `lineItems[].bar`), with the reason in parentheses when the key is known but its value is not
   * usable or contradicts another key.
   */
  readonly unknownFacts: readonly string[];
}

/** The evaluation time of a case that gives no `currentTime`. */
export const DEFAULT_NOW = '2021-06-15T12:00:00Z';

/** Translates one reference case. Never throws for malformed facts: it reports them. */
export function translateCase(testCase: ReferenceCase): Translation {
  const notes: string[] = [];
  const facts = translateFacts(testCase.facts, notes);
  return {
    tree: translateTree(testCase.condition, testCase.params),
    facts,
    unknownFacts: [...new Set(notes)],
  };
}

// ---------------------------------------------------------------------------------------------
// The tree: `{type: condition, value: params}`; `children` in the params (or beside `value` in a
// child) become the node's children, each translated the same way.

export function translateTree(type: unknown, params: unknown): ConditionTree {
  const { children, ...value }: Record<string, unknown> = isRecord(params) ? params : {};
  const node: { type: string; value: Record<string, unknown>; children?: ConditionTree[] } = {
    // A non-text type is handed on as it is: the compiler refuses it (RULE_INVALID_TREE).
    type: type as string,
    value,
  };
  if (Array.isArray(children)) node.children = children.map(translateChild);
  return node as ConditionNode;
}

function translateChild(child: unknown): ConditionTree {
  if (!isRecord(child)) return child as ConditionTree;
  const inner = isRecord(child.value) ? child.value : {};
  const children = child.children ?? inner.children;
  return translateTree(child.type, children === undefined ? inner : { ...inner, children });
}

// ---------------------------------------------------------------------------------------------
// Generic machinery: a section is a table from a reference key to what it means for a draft.
// Dotted keys (`payload.categoryIds`) and nested objects (`payload: {categoryIds}`) are the same
// path: a dotted key that is not itself in the table is routed through its first segment.

// The drafts are the facts as FactsSchema takes them: a part no key speaks of is left out and
// becomes "nothing known" (null, empty list, false) when the drafts are finished (finishFacts).
type FactsInput = v.InferInput<typeof FactsSchema>;
/** A part of a line item (which the schema types as unknown, being recursive). */
type Draft<T> = { -readonly [K in keyof T]?: T[K] };

/** Where in the case's facts a key sits; collects what the translation could not use. */
class Cursor {
  constructor(
    private readonly notes: string[],
    readonly path: string,
    /** The case's current time (relative times are read against it). */
    readonly now: number,
  ) {}
  child(key: string): Cursor {
    return new Cursor(this.notes, this.path === '' ? key : `${this.path}.${key}`, this.now);
  }
  /** The cursor of a list's elements (`list[]`). */
  each(): Cursor {
    return new Cursor(this.notes, `${this.path}[]`, this.now);
  }
  /** The key is not in the vocabulary. */
  unknown(): void {
    this.notes.push(this.path);
  }
  /** The key is known, but its value is not usable (or contradicts another key). */
  bad(reason: string): void {
    this.notes.push(`${this.path} (${reason})`);
  }
}

type Parse<T> = (given: unknown, at: Cursor) => T;

interface ValueEntry<D> {
  readonly kind: 'value';
  readonly apply: (draft: D, given: unknown, at: Cursor) => void;
}

type Entry<D> =
  | ValueEntry<D>
  | { readonly kind: 'object'; readonly open: (draft: D, given: unknown, at: Cursor) => void }
  /** Purely informational: read by nothing, reported as nothing. */
  | { readonly kind: 'ignored' };

type Section<D> = Readonly<Record<string, Entry<D>>>;

function mapInto<D>(
  source: Readonly<Record<string, unknown>>,
  section: Section<D>,
  draft: D,
  at: Cursor,
): void {
  for (const [key, given] of Object.entries(source)) {
    const here = at.child(key);
    const entry = Object.hasOwn(section, key) ? section[key] : undefined;
    if (entry !== undefined) {
      if (entry.kind === 'value') entry.apply(draft, given, here);
      else if (entry.kind === 'object') entry.open(draft, given, here);
      continue;
    }
    const dot = key.indexOf('.');
    const head = dot > 0 ? key.slice(0, dot) : '';
    const parent = head !== '' && Object.hasOwn(section, head) ? section[head] : undefined;
    if (parent?.kind === 'object') parent.open(draft, { [key.slice(dot + 1)]: given }, at.child(head));
    else here.unknown();
  }
}

const field = <D>(apply: (draft: D, given: unknown, at: Cursor) => void): ValueEntry<D> => ({
  kind: 'value',
  apply,
});

const ignored = { kind: 'ignored' } as const;

/** A key whose parsed value goes to `key` of `select(draft)`. */
function to<D, T, K extends keyof T>(select: (draft: D) => T, key: K, parse: Parse<T[K]>): ValueEntry<D> {
  return field((draft, given, at) => {
    select(draft)[key] = parse(given, at);
  });
}

/** A nested object whose keys fill `select(draft)`; `onNull` handles an explicit null. */
function object<D, S>(select: (draft: D) => S, fields: Section<S>, onNull?: (draft: D) => void): Entry<D> {
  return {
    kind: 'object',
    open: (draft, given, at) => {
      if (given === null && onNull !== undefined) onNull(draft);
      else if (isRecord(given)) mapInto(given, fields, select(draft), at);
      else at.bad('expected an object');
    },
  };
}

/** `{id: …}` of a referenced entity (`country.id`), stored as an id of the draft. */
const entityId = <D, T, K extends keyof T>(select: (draft: D) => T, key: K, parse: Parse<T[K]>): Entry<D> =>
  object((draft: D) => draft, { id: to(select, key, parse) });

/** A list of objects, each filling a fresh draft (paths read `list[].key`). */
function list<D, S>(create: () => S, fields: Section<S>, add: (draft: D, items: S[]) => void): ValueEntry<D> {
  return field((draft, given, at) => {
    if (given === null) return add(draft, []);
    if (!Array.isArray(given)) return at.bad('expected a list');
    const items: S[] = [];
    const each = at.each();
    for (const element of given) {
      if (!isRecord(element)) {
        each.bad('expected an object');
        continue;
      }
      const item = create();
      mapInto(element, fields, item, each);
      items.push(item);
    }
    add(draft, items);
  });
}

const self = <D>(draft: D): D => draft;

// ---------------------------------------------------------------------------------------------
// Value parsers.

function isRecord(given: unknown): given is Record<string, unknown> {
  return given !== null && typeof given === 'object' && !Array.isArray(given);
}

function asText(given: unknown, at: Cursor): string | null {
  if (given === null || typeof given === 'string') return given;
  // Ids the reference's tests write as numbers stay ids.
  if (typeof given === 'number') return String(given);
  at.bad('expected text');
  return null;
}

function asNumber(given: unknown, at: Cursor): number | null {
  if (given === null) return null;
  if (typeof given === 'number' && Number.isFinite(given)) return given;
  if (typeof given === 'string' && given.trim() !== '' && Number.isFinite(Number(given)))
    return Number(given);
  at.bad('expected a number');
  return null;
}

function asBoolean(given: unknown, at: Cursor): boolean | null {
  if (given === null || typeof given === 'boolean') return given;
  if (given === 0 || given === 1) return given === 1;
  at.bad('expected a boolean');
  return null;
}

function asIds(given: unknown, at: Cursor): string[] | null {
  if (given === null) return null;
  if (Array.isArray(given) && given.every((id) => typeof id === 'string' || typeof id === 'number')) {
    return given.map(String);
  }
  // The reference stores some id lists as JSON maps ({id: id}).
  if (isRecord(given) && Object.values(given).every((id) => typeof id === 'string')) {
    return Object.values(given) as string[];
  }
  at.bad('expected a list of ids');
  return null;
}

const MINUTE = 60_000;
const UNIT_MILLIS: Readonly<Record<string, number>> = {
  second: 1000,
  minute: MINUTE,
  hour: 60 * MINUTE,
  day: 24 * 60 * MINUTE,
  week: 7 * 24 * 60 * MINUTE,
};

// "currentTime minus 30 minutes (same calendar day; 0 days passed)", "now", "currentTime plus 2 days",
// "3 days ago", "in 2 hours". The parenthesis, when it says how many calendar days passed, is checked.
const RELATIVE =
  /^(?:(?:currentTime|now)(?:\s*(plus|minus|\+|-)\s*(\d+(?:\.\d+)?)\s*(second|minute|hour|day|week|month|year)s?)?|(\d+(?:\.\d+)?)\s*(second|minute|hour|day|week|month|year)s?\s+ago|in\s+(\d+(?:\.\d+)?)\s*(second|minute|hour|day|week|month|year)s?)\s*(?:\((.*)\))?$/i;

/** A relative time description against `now`, or undefined when the text is not one. */
export function parseRelativeTime(
  description: string,
  now: number,
): { at: number; daysPassed?: number } | undefined {
  const match = RELATIVE.exec(description.trim());
  if (match === null) return undefined;
  const [, sign, amount, unit, agoAmount, agoUnit, inAmount, inUnit, comment] = match;
  let at = now;
  if (amount !== undefined && unit !== undefined) {
    at = shift(now, sign === 'minus' || sign === '-' ? -Number(amount) : Number(amount), unit);
  } else if (agoAmount !== undefined && agoUnit !== undefined) {
    at = shift(now, -Number(agoAmount), agoUnit);
  } else if (inAmount !== undefined && inUnit !== undefined) {
    at = shift(now, Number(inAmount), inUnit);
  }
  const passed = comment === undefined ? null : /(-?\d+)\s+days?\s+passed/i.exec(comment);
  const sameDay = comment !== undefined && /same calendar day/i.test(comment);
  if (passed !== null) return { at, daysPassed: Number(passed[1]) };
  return sameDay ? { at, daysPassed: 0 } : { at };
}

function shift(instant: number, amount: number, unit: string): number {
  const lower = unit.toLowerCase();
  const millis = UNIT_MILLIS[lower];
  if (millis !== undefined) return instant + amount * millis;
  const date = new Date(instant);
  if (lower === 'month') date.setUTCMonth(date.getUTCMonth() + amount);
  else date.setUTCFullYear(date.getUTCFullYear() + amount);
  return date.getTime();
}

const DAY = 24 * 60 * MINUTE;
const calendarDay = (instant: number): number => Math.floor(instant / DAY);

/** ISO 8601 (UTC) of an instant, without zero milliseconds. */
function iso(instant: number): string {
  return new Date(instant).toISOString().replace('.000Z', 'Z');
}

/** A date-time: reference text (`Y-m-d H:i:s`, zone-less is UTC) or a relative description. */
function asInstant(given: unknown, at: Cursor): string | null {
  if (given === null) return null;
  if (typeof given !== 'string') {
    at.bad('expected a date');
    return null;
  }
  const parsed = parseInstant(given);
  if (parsed !== null) return iso(parsed);
  const relative = parseRelativeTime(given, at.now);
  if (relative !== undefined) {
    if (
      relative.daysPassed !== undefined &&
      calendarDay(at.now) - calendarDay(relative.at) !== relative.daysPassed
    ) {
      at.bad(`not ${relative.daysPassed} calendar days before the current time ${iso(at.now)}`);
    }
    return iso(relative.at);
  }
  // Kept as it is, so the condition sees an unparsable date, as the reference's would.
  at.bad('unparsable date');
  return given;
}

/** A calendar date (`Y-m-d`), e.g. a birthday. */
function asDate(given: unknown, at: Cursor): string | null {
  const instantText = asInstant(given, at);
  return instantText === null || parseInstant(instantText) === null ? instantText : instantText.slice(0, 10);
}

/** An id list where the model has no null (a customer's tags): missing is none. */
const asIdList: Parse<string[]> = (given, at) => asIds(given, at) ?? [];

function asRecord(given: unknown, at: Cursor): Record<string, unknown> | null {
  if (given === null || isRecord(given)) return given;
  at.bad('expected an object');
  return null;
}

const asMetadata: Parse<Record<string, unknown>> = (given, at) => asRecord(given, at) ?? {};

/** Only `true` is true (a flag the model keeps without null). */
const asTrue: Parse<boolean> = (given, at) => asBoolean(given, at) === true;

/** `createdById` and the like: set (a non-empty id) means true. */
const asPresent: Parse<boolean> = (given) =>
  given !== null && given !== undefined && given !== '' && given !== false;

function asTaxDisplay(given: unknown, at: Cursor): ContextFacts['taxDisplay'] {
  if (given === 'gross' || given === 'net') return given;
  at.bad('expected gross or net');
  return 'gross';
}

/** "QuantityPriceDefinition quantity 6": the definition's class and its numeric properties. */
export function parsePriceDefinition(
  description: string,
): { kind: string; numbers: Record<string, number> } | null {
  const match = /^\s*(\w*PriceDefinition)\b(.*)$/i.exec(description);
  if (match === null) return null;
  const numbers: Record<string, number> = {};
  for (const pair of (match[2] ?? '').matchAll(/(\w+)\s*[:=]?\s*(-?\d+(?:\.\d+)?)/g)) {
    numbers[pair[1]!] = Number(pair[2]);
  }
  return { kind: match[1]!, numbers };
}

// ---------------------------------------------------------------------------------------------
// Line items.

// What a case leaves out of an item takes FactsSchema's defaults, which are what the reference's
// LineItem is unless told otherwise: a good of quantity 1.
interface ItemDraft {
  id?: string | null;
  type?: string;
  referencedId?: string | null;
  good?: boolean;
  /** null: a key gave no quantity. */
  quantity?: number | null;
  states?: string[];
  price?: Draft<PriceFacts> | null;
  delivery?: Draft<DeliveryFacts> | null;
  /** `hasDeliveryInformation`, when given: false drops whatever delivery keys say. */
  hasDelivery?: boolean | null;
  product?: Draft<ProductFacts> | null;
  promotion?: Draft<PromotionFacts> | null;
  children?: ItemDraft[];
}

// The reference's line items always name a type; a case that omits it means a product.
const newItem = (): ItemDraft => ({ type: 'product' });

// The parts of an item, made when a key first speaks of them.
const delivery = (item: ItemDraft): Draft<DeliveryFacts> => {
  item.delivery ??= {};
  return item.delivery;
};
const product = (item: ItemDraft): Draft<ProductFacts> => {
  item.product ??= {};
  return item.product;
};
const promotion = (item: ItemDraft): Draft<PromotionFacts> => {
  item.promotion ??= {};
  return item.promotion;
};
const price = (item: ItemDraft): Draft<PriceFacts> => {
  item.price ??= {};
  return item.price;
};

/** Sets a number that two keys may give (volume in m³ and in mm³, quantity and price definition). */
function setOnce<T>(target: T, key: keyof T, next: number | null, at: Cursor): void {
  const current = target[key] as unknown;
  if (
    typeof current === 'number' &&
    next !== null &&
    Math.abs(current - next) > 1e-9 * Math.max(1, Math.abs(next))
  ) {
    at.bad(`${next} contradicts ${current} given by another key`);
    return;
  }
  if (next !== null || current === null || current === undefined) (target[key] as unknown) = next;
}

/** Units a dimension key may carry as a suffix (`volume_m3`, `weight_g`); no suffix is the model's unit. */
const DIMENSION_UNITS: Readonly<
  Record<'weight' | 'width' | 'height' | 'length' | 'volume', Record<string, number>>
> = {
  weight: { '': 1, kg: 1, g: 0.001 },
  width: { '': 1, mm: 1, cm: 10, m: 1000 },
  height: { '': 1, mm: 1, cm: 10, m: 1000 },
  length: { '': 1, mm: 1, cm: 10, m: 1000 },
  volume: { '': 1, mm3: 1, cm3: 1e3, dm3: 1e6, m3: 1e9 },
};

/** `weight`, `volume_m3`, …: a delivery dimension, converted to the model's unit. */
function dimensionEntries(): Section<ItemDraft> {
  const entries: Record<string, Entry<ItemDraft>> = {};
  for (const [dimension, units] of Object.entries(DIMENSION_UNITS)) {
    for (const [unit, factor] of Object.entries(units)) {
      entries[unit === '' ? dimension : `${dimension}_${unit}`] = field((item, given, at) => {
        const amount = asNumber(given, at);
        setOnce(
          delivery(item),
          dimension as keyof DeliveryFacts,
          amount === null ? null : amount * factor,
          at,
        );
      });
    }
  }
  return entries;
}

const DELIVERY_INFORMATION: Section<ItemDraft> = {
  ...dimensionEntries(),
  stock: to(delivery, 'stock', asNumber),
  freeDelivery: to(delivery, 'freeDelivery', asBoolean),
};

type PurchasePriceDraft = { gross: number | null; net: number | null };

/** The reference's Price, as its `purchasePrices` payload serialises it. */
const PURCHASE_PRICE_FIELDS: Section<PurchasePriceDraft> = {
  gross: to(self<PurchasePriceDraft>, 'gross', asNumber),
  net: to(self<PurchasePriceDraft>, 'net', asNumber),
  // Parts of the Price no condition reads.
  currencyId: ignored,
  linked: ignored,
  listPrice: ignored,
  percentage: ignored,
  regulationPrice: ignored,
};

/**
 * The item's purchase price (`purchasePrices`, the reference's payload, or `purchasePrice`): a Price
 * (`{gross, net, …}`) as an object, as JSON text or as the first of a list; or one amount, which
 * is then both gross and net. Numeric texts count as numbers (the reference multiplies them);
 * null or blank is none. Dotted keys (`purchasePrices.net`) fill one part.
 */
const PURCHASE_PRICE: Entry<ItemDraft> = {
  kind: 'object',
  open: (item, given, at) => {
    let parsed = given;
    if (typeof parsed === 'string') {
      if (parsed.trim() === '') parsed = null;
      else {
        try {
          parsed = JSON.parse(parsed);
        } catch {
          return at.bad('unparsable purchase price');
        }
      }
    }
    if (Array.isArray(parsed)) parsed = parsed.length === 0 ? null : parsed[0];
    if (parsed === null || parsed === undefined) {
      product(item).purchasePrice = null;
    } else if (typeof parsed === 'number' || typeof parsed === 'string') {
      const amount = asNumber(parsed, at);
      product(item).purchasePrice = amount === null ? null : { gross: amount, net: amount };
    } else if (isRecord(parsed)) {
      const current = product(item).purchasePrice;
      const draft: PurchasePriceDraft = { gross: current?.gross ?? null, net: current?.net ?? null };
      mapInto(parsed, PURCHASE_PRICE_FIELDS, draft, at);
      product(item).purchasePrice = draft;
    } else {
      at.bad('expected a price with gross and net');
    }
  },
};

/** `payload.*`: what the item carries of its product (and of its promotion, for promotion items). */
const PAYLOAD: Section<ItemDraft> = {
  parentId: to(product, 'parentId', asText),
  manufacturerId: to(product, 'manufacturerId', asText),
  categoryIds: to(product, 'categoryIds', asIds),
  streamIds: to(product, 'streamIds', asIds),
  tagIds: to(product, 'tagIds', asIds),
  propertyIds: to(product, 'propertyIds', asIds),
  optionIds: to(product, 'optionIds', asIds),
  taxId: to(product, 'taxId', asText),
  stock: to(product, 'stock', asNumber),
  isNew: to(product, 'isNew', asBoolean),
  isCloseout: to(product, 'isCloseout', asBoolean),
  markAsTopseller: to(product, 'markAsTopseller', asBoolean),
  createdAt: to(product, 'createdAt', asInstant),
  releaseDate: to(product, 'releaseDate', asInstant),
  productType: to(product, 'productType', asText),
  purchasePrices: PURCHASE_PRICE,
  purchasePrice: PURCHASE_PRICE,
  customFields: to(product, 'customFields', asRecord),
  ruleMetadata: to(product, 'ruleMetadata', asMetadata),
  promotionId: to(promotion, 'promotionId', asText),
  promotionCodeType: to(promotion, 'codeType', asText),
};

type ListPriceDraft = { price: number | null; percentage: number | null };

const LIST_PRICE: Section<ListPriceDraft> = {
  price: to(self<ListPriceDraft>, 'price', asNumber),
  percentage: to(self<ListPriceDraft>, 'percentage', asNumber),
};

const PRICE: Section<ItemDraft> = {
  unitPrice: to(price, 'unitPrice', asNumber),
  totalPrice: to(price, 'totalPrice', asNumber),
  // A number (the list price) or an object {price, percentage}; null: no list price.
  listPrice: {
    kind: 'object',
    open: (item, given, at) => {
      const current = price(item).listPrice;
      const draft: ListPriceDraft = {
        price: current?.price ?? null,
        percentage: current?.percentage ?? null,
      };
      if (given === null) draft.price = null;
      else if (typeof given === 'number') draft.price = given;
      else if (isRecord(given)) mapInto(given, LIST_PRICE, draft, at);
      else at.bad('expected a list price');
      price(item).listPrice =
        draft.price === null ? null : { price: draft.price, percentage: draft.percentage };
    },
  },
};

const LINE_ITEM: Section<ItemDraft> = {
  id: to(self<ItemDraft>, 'id', asText),
  type: to(self<ItemDraft>, 'type', (given, at) => asText(given, at) ?? 'product'),
  referencedId: to(self<ItemDraft>, 'referencedId', asText),
  // Display text only.
  label: ignored,
  good: to(self<ItemDraft>, 'good', (given, at) => asBoolean(given, at) ?? true),
  quantity: field((item, given, at) => setOnce(item, 'quantity', asNumber(given, at), at)),
  // Only a quantity definition says something the model keeps (the item's quantity); the amounts
  // of absolute and percentage definitions are what the item's price then shows.
  priceDefinition: field((item, given, at) => {
    if (given === null) return;
    const definition = typeof given === 'string' ? parsePriceDefinition(given) : null;
    if (definition === null) return at.bad('unparsable price definition');
    const quantity = definition.numbers.quantity;
    if (quantity !== undefined) setOnce(item, 'quantity', quantity, at);
  }),
  states: to(self<ItemDraft>, 'states', asIdList),
  price: object(self<ItemDraft>, PRICE, (item) => {
    item.price = null;
  }),
  payload: object(self<ItemDraft>, PAYLOAD),
  hasDeliveryInformation: to(self<ItemDraft>, 'hasDelivery', asBoolean),
  deliveryInformation: object(self<ItemDraft>, DELIVERY_INFORMATION, (item) => {
    item.hasDelivery = false;
  }),
  // The reference's tests give an item's dimensions beside it: they are its delivery information.
  ...dimensionEntries(),
  // And its purchase price (the cart's total purchase price sums them): the payload's.
  purchasePrices: PURCHASE_PRICE,
  purchasePrice: PURCHASE_PRICE,
  // Nested items (a container's) use the same vocabulary.
  children: field((item, given, at) => CHILDREN.apply(item, given, at)),
};

const CHILDREN = list(newItem, LINE_ITEM, (item: ItemDraft, children) => {
  item.children = children;
});

/** The item as FactsSchema takes it. */
function finishItem({
  hasDelivery,
  quantity,
  children = [],
  ...item
}: ItemDraft): Omit<ItemDraft, 'hasDelivery'> {
  return {
    ...item,
    ...(quantity === null || quantity === undefined ? {} : { quantity }),
    delivery: hasDelivery === false ? null : (item.delivery ?? (hasDelivery ? {} : null)),
    // Unlike the schema's default (none), a product item always carries its payload, and a
    // promotion item its promotion, however empty.
    product: item.product ?? (item.type === 'product' ? {} : null),
    promotion: item.promotion ?? (item.type === 'promotion' ? {} : null),
    children: children.map(finishItem),
  };
}

// ---------------------------------------------------------------------------------------------
// Addresses, customer, context.

type AddressDraft = NonNullable<FactsInput['billingAddress']>;

const address = self<AddressDraft>;

const ADDRESS: Section<AddressDraft> = {
  id: to(address, 'id', asText),
  street: to(address, 'street', asText),
  city: to(address, 'city', asText),
  zipcode: to(address, 'zipcode', asText),
  zipCode: to(address, 'zipcode', asText),
  countryId: to(address, 'countryId', asText),
  country: entityId(address, 'countryId', asText),
  countryStateId: to(address, 'stateId', asText),
  stateId: to(address, 'stateId', asText),
  countryState: entityId(address, 'stateId', asText),
  state: entityId(address, 'stateId', asText),
  // Parts of an address no condition reads.
  firstName: ignored,
  lastName: ignored,
  company: ignored,
};

/** The reference's ShippingLocation: a country, a state and (when known) the address. */
const SHIPPING_LOCATION: Section<AddressDraft> = {
  ...ADDRESS,
  address: object(address, ADDRESS),
};

interface CustomerDraft {
  facts: NonNullable<FactsInput['customer']>;
  /** `null`: explicitly none; undefined: not given. */
  billing?: AddressDraft | null;
  shipping?: AddressDraft | null;
}

const customer = (draft: CustomerDraft): CustomerDraft['facts'] => draft.facts;

const CUSTOMER: Section<CustomerDraft> = {
  id: to(customer, 'id', asText),
  customerNumber: to(customer, 'number', asText),
  number: to(customer, 'number', asText),
  active: to(customer, 'active', asBoolean),
  guest: to(customer, 'guest', asBoolean),
  firstName: to(customer, 'firstName', asText),
  lastName: to(customer, 'lastName', asText),
  email: to(customer, 'email', asText),
  company: to(customer, 'company', asText),
  birthday: to(customer, 'birthday', asDate),
  groupId: to(customer, 'groupId', asText),
  group: entityId(customer, 'groupId', asText),
  requestedGroupId: to(customer, 'requestedGroupId', asText),
  salutationId: to(customer, 'salutationId', asText),
  salutation: entityId(customer, 'salutationId', asText),
  tagIds: to(customer, 'tagIds', asIdList),
  affiliateCode: to(customer, 'affiliateCode', asText),
  campaignCode: to(customer, 'campaignCode', asText),
  createdById: to(customer, 'createdByAdmin', asPresent),
  createdByAdmin: to(customer, 'createdByAdmin', asTrue),
  newsletterSalesChannelIds: to(customer, 'newsletterChannelIds', asIdList),
  customFields: to(customer, 'customFields', asRecord),
  ruleMetadata: to(customer, 'ruleMetadata', asMetadata),
  firstLogin: to(customer, 'firstLogin', asInstant),
  lastLogin: to(customer, 'lastLogin', asInstant),
  lastOrderDate: to(customer, 'lastOrderDate', asInstant),
  orderCount: to(customer, 'orderCount', asNumber),
  orderTotalAmount: to(customer, 'orderTotalAmount', asNumber),
  reviewCount: to(customer, 'reviewCount', asNumber),
  activeBillingAddress: object(
    (draft: CustomerDraft) => {
      draft.billing ??= {};
      return draft.billing;
    },
    ADDRESS,
    (draft) => {
      draft.billing = null;
    },
  ),
  activeShippingAddress: object(
    (draft: CustomerDraft) => {
      draft.shipping ??= {};
      return draft.shipping;
    },
    ADDRESS,
    (draft) => {
      draft.shipping = null;
    },
  ),
};

type ContextDraft = NonNullable<FactsInput['context']>;

const context = self<ContextDraft>;

const CONTEXT: Section<ContextDraft> = {
  salesChannelId: to(context, 'channelId', asText),
  salesChannel: entityId(context, 'channelId', asText),
  channelId: to(context, 'channelId', asText),
  currencyId: to(context, 'currencyId', asText),
  currency: entityId(context, 'currencyId', asText),
  languageId: to(context, 'languageId', asText),
  language: entityId(context, 'languageId', asText),
  shippingMethodId: to(context, 'shippingMethodId', asText),
  shippingMethod: entityId(context, 'shippingMethodId', asText),
  paymentMethodId: to(context, 'paymentMethodId', asText),
  paymentMethod: entityId(context, 'paymentMethodId', asText),
  customerGroupId: to(context, 'customerGroupId', asText),
  currentCustomerGroupId: to(context, 'customerGroupId', asText),
  currentCustomerGroup: entityId(context, 'customerGroupId', asText),
  taxState: to(context, 'taxDisplay', asTaxDisplay),
  taxDisplay: to(context, 'taxDisplay', asTaxDisplay),
  // The context's source: the admin sales-channel API source means an order created by staff.
  source: to(context, 'adminSource', (given, at) => /admin/i.test(asText(given, at) ?? '')),
  adminSource: to(context, 'adminSource', asTrue),
};

// ---------------------------------------------------------------------------------------------
// Order.

type OrderInput = NonNullable<FactsInput['order']>;
type OrderDelivery = NonNullable<OrderInput['deliveries']>[number];
type OrderTransaction = NonNullable<OrderInput['transactions']>[number];
type OrderDocument = NonNullable<OrderInput['documents']>[number];

interface OrderDraft {
  facts: OrderInput;
  /** The order's items (the flow scope's cart is made of them). */
  lineItems: ItemDraft[] | null;
}

const newOrder = (): OrderDraft => ({ facts: {}, lineItems: null });

const DELIVERY: Section<OrderDelivery> = {
  id: ignored,
  stateId: to(self<OrderDelivery>, 'stateId', asText),
  stateMachineState: entityId(self<OrderDelivery>, 'stateId', asText),
  trackingCodes: to(self<OrderDelivery>, 'trackingCodes', asIdList),
};

const TRANSACTION: Section<OrderTransaction> = {
  id: ignored,
  stateId: to(self<OrderTransaction>, 'stateId', asText),
  stateTechnicalName: to(self<OrderTransaction>, 'stateName', asText),
  stateName: to(self<OrderTransaction>, 'stateName', asText),
  stateMachineState: object(self<OrderTransaction>, {
    id: to(self<OrderTransaction>, 'stateId', asText),
    technicalName: to(self<OrderTransaction>, 'stateName', asText),
  }),
};

const DOCUMENT: Section<OrderDocument> = {
  id: ignored,
  documentTypeId: to(self<OrderDocument>, 'documentTypeId', asText),
  documentType: entityId(self<OrderDocument>, 'documentTypeId', asText),
  sent: to(self<OrderDocument>, 'sent', asTrue),
};

const order = (draft: OrderDraft): OrderDraft['facts'] => draft.facts;

const ORDER: Section<OrderDraft> = {
  id: to(order, 'id', asText),
  stateId: to(order, 'stateId', asText),
  stateMachineState: entityId(order, 'stateId', asText),
  tagIds: to(order, 'tagIds', asIdList),
  affiliateCode: to(order, 'affiliateCode', asText),
  campaignCode: to(order, 'campaignCode', asText),
  createdById: to(order, 'createdByAdmin', asPresent),
  createdByAdmin: to(order, 'createdByAdmin', asTrue),
  customFields: to(order, 'customFields', asRecord),
  ruleMetadata: to(order, 'ruleMetadata', asMetadata),
  deliveries: list(
    (): OrderDelivery => ({}),
    DELIVERY,
    (draft: OrderDraft, deliveries) => {
      order(draft).deliveries = deliveries;
    },
  ),
  transactions: list(
    (): OrderTransaction => ({}),
    TRANSACTION,
    (draft: OrderDraft, transactions) => {
      order(draft).transactions = transactions;
    },
  ),
  documents: list(
    (): OrderDocument => ({}),
    DOCUMENT,
    (draft: OrderDraft, documents) => {
      order(draft).documents = documents;
    },
  ),
  lineItems: list(newItem, LINE_ITEM, (draft: OrderDraft, items) => {
    draft.lineItems = items;
  }),
};

// ---------------------------------------------------------------------------------------------
// The case as a whole.

type CartTotals = Omit<NonNullable<FactsInput['cart']>, 'lineItems'>;

interface RootDraft {
  scope: string | null;
  context: ContextDraft;
  /** undefined: not given (a visitor). */
  customer: CustomerDraft | null | undefined;
  shippingLocation: AddressDraft | null;
  lineItem: ItemDraft | null;
  lineItems: ItemDraft[] | null;
  totals: CartTotals;
  totalsGiven: boolean;
  order: OrderDraft | null;
  /** Derived counts the case states, checked against the translated facts at the end. */
  derived: { at: Cursor; stated: unknown; derive: (facts: Facts) => number }[];
}

const totals = (root: RootDraft): CartTotals => {
  root.totalsGiven = true;
  return root.totals;
};

/** The cart's price (CartPrice) and shipping costs. */
const CART_PRICE: Section<RootDraft> = {
  totalPrice: to(totals, 'amount', asNumber),
  positionPrice: to(totals, 'positionPrice', asNumber),
  // Parts of the cart's price no condition reads.
  netPrice: ignored,
  rawTotal: ignored,
  taxStatus: ignored,
};
const SHIPPING_COSTS: Section<RootDraft> = {
  totalPrice: to(totals, 'shippingCost', asNumber),
  unitPrice: ignored,
  quantity: ignored,
};

const lineItems = list(newItem, LINE_ITEM, (root: RootDraft, items) => {
  root.lineItems = items;
});

const CART: Section<RootDraft> = {
  price: object(self<RootDraft>, CART_PRICE),
  amount: to(totals, 'amount', asNumber),
  positionPrice: to(totals, 'positionPrice', asNumber),
  shippingCosts: object(self<RootDraft>, SHIPPING_COSTS),
  shippingCost: to(totals, 'shippingCost', asNumber),
  lineItems,
};

/** A count the case states beside the items it derives from: informational, checked to agree. */
const derivedCount = (derive: (facts: Facts) => number): Entry<RootDraft> =>
  field((root, stated, at) => {
    root.derived.push({ at, stated, derive });
  });

/** The goods the evaluation sees: the cart's (nested ones too), or the line item of its scope. */
function goodsOf(facts: Facts): LineItemFacts[] {
  const goods: LineItemFacts[] = [];
  const visit = (items: readonly LineItemFacts[]): void => {
    for (const item of items) {
      if (item.good) goods.push(item);
      visit(item.children);
    }
  };
  visit(facts.cart?.lineItems ?? (facts.lineItem === undefined ? [] : [facts.lineItem]));
  return goods;
}

const ROOT: Section<RootDraft> = {
  scope: to(self<RootDraft>, 'scope', asText),
  // Read before everything else (relative times depend on it); see translateFacts.
  currentTime: ignored,
  // Free-text remarks of the harvest about how the reference's test builds its input.
  note: ignored,
  context: object((root: RootDraft) => root.context, CONTEXT),
  customer: object(
    (root: RootDraft) => {
      root.customer ??= { facts: {} };
      return root.customer;
    },
    CUSTOMER,
    (root) => {
      root.customer = null;
    },
  ),
  shippingLocation: object(
    (root: RootDraft) => {
      root.shippingLocation ??= {};
      return root.shippingLocation;
    },
    SHIPPING_LOCATION,
    (root) => {
      root.shippingLocation = null;
    },
  ),
  lineItem: object((root: RootDraft) => {
    root.lineItem ??= newItem();
    return root.lineItem;
  }, LINE_ITEM),
  lineItems,
  cart: object(self<RootDraft>, CART),
  // Cart-level totals may also stand at the top level.
  price: object(self<RootDraft>, CART_PRICE),
  shippingCosts: object(self<RootDraft>, SHIPPING_COSTS),
  order: object((root: RootDraft) => {
    root.order ??= newOrder();
    return root.order;
  }, ORDER),
  // Derived counts: informational, since the line items carry them; checked for consistency.
  goodsCount: derivedCount((facts) => goodsOf(facts).length),
  totalGoodsQuantity: derivedCount((facts) => goodsOf(facts).reduce((sum, item) => sum + item.quantity, 0)),
  lineItemCount: derivedCount((facts) => facts.cart?.lineItems.length ?? 0),
};

/** The reference's scopes (the rule scope class its test builds) and what each provides. */
const SCOPES: Readonly<Record<string, { cart: boolean; lineItem: boolean; order: boolean }>> = {
  LineItemScope: { cart: false, lineItem: true, order: false },
  CartRuleScope: { cart: true, lineItem: false, order: false },
  // The flow scope derives from the cart scope: the order, and the cart made of its items.
  FlowRuleScope: { cart: true, lineItem: false, order: true },
  CheckoutRuleScope: { cart: false, lineItem: false, order: false },
  any: { cart: false, lineItem: false, order: false },
  RuleScope: { cart: false, lineItem: false, order: false },
};

/** The reference's facts vocabulary onto the engine's model; what it cannot use goes to `notes`. */
export function translateFacts(given: unknown, notes: string[]): Facts {
  const source = isRecord(given) ? given : {};
  let now = parseInstant(DEFAULT_NOW)!;
  if (source.currentTime !== undefined && source.currentTime !== null) {
    const parsed = parseInstant(source.currentTime);
    if (parsed === null) new Cursor(notes, 'currentTime', now).bad('unparsable date');
    else now = parsed;
  }
  const root: RootDraft = {
    scope: null,
    context: {},
    customer: undefined,
    shippingLocation: null,
    lineItem: null,
    lineItems: null,
    totals: {},
    totalsGiven: false,
    order: null,
    derived: [],
  };
  const at = new Cursor(notes, '', now);
  mapInto(source, ROOT, root, at);

  const scopeName = root.scope ?? 'any';
  let scope = SCOPES[scopeName];
  if (scope === undefined) {
    at.child('scope').bad(`unknown scope ${scopeName}`);
    scope = SCOPES.any!;
  }
  // Keys of parts the scope does not have would be silently lost: report them.
  const outside = (key: string): void => at.child(key).bad(`not part of ${scopeName}`);
  if (root.lineItem !== null && !scope.lineItem) outside('lineItem');
  if (root.lineItems !== null && !scope.cart) outside('lineItems');
  if (root.totalsGiven && !scope.cart) outside('cart');
  if (root.order !== null && !scope.order) outside('order');
  if (scope.lineItem && root.lineItem === null) at.child('lineItem').bad(`missing for ${scopeName}`);

  const customerDraft = root.customer ?? null;
  // The context prices for the customer's group unless the case names the context's own.
  if (customerDraft !== null) root.context.customerGroupId ??= customerDraft.facts.groupId;
  const cartItems = root.lineItems ?? root.order?.lineItems ?? [];
  const facts = finishFacts({
    now: iso(now),
    context: root.context,
    customer: customerDraft?.facts ?? null,
    billingAddress: customerDraft?.billing ?? null,
    shippingAddress: root.shippingLocation ?? customerDraft?.shipping ?? null,
    ...(scope.cart ? { cart: { ...root.totals, lineItems: cartItems.map(finishItem) } } : {}),
    ...(scope.lineItem && root.lineItem !== null ? { lineItem: finishItem(root.lineItem) } : {}),
    ...(scope.order ? { order: (root.order ?? newOrder()).facts } : {}),
  });
  for (const { at: where, stated, derive } of root.derived) {
    const derived = derive(facts);
    if (stated !== derived) where.bad(`states ${JSON.stringify(stated)}, the line items give ${derived}`);
  }
  return facts;
}

/**
 * The drafts as facts, through FactsSchema: what they leave out is "nothing known". A value the
 * schema refuses is kept as the translation read it (an unparsable date, which the condition is to
 * see as the reference's does; a fractional quantity): a translation reports, it never rejects.
 */
function finishFacts(input: FactsInput): Facts {
  const first = v.safeParse(FactsSchema, input);
  if (first.success) return first.output;
  // Each refused value, at the innermost object key of its path (a list's element: the list).
  const kept: { keys: string[]; value: unknown }[] = [];
  for (const issue of first.issues) {
    const path = issue.path ?? [];
    const at = path.findLastIndex((item) => item.type === 'object');
    const item = path[at];
    if (item?.type !== 'object' || item.origin !== 'value' || !Object.hasOwn(item.input, item.key)) continue;
    kept.push({ keys: path.slice(0, at + 1).map((step) => String(step.key)), value: item.value });
    delete item.input[item.key];
  }
  const facts = v.parse(FactsSchema, input);
  for (const { keys, value } of kept) {
    let target = facts as unknown as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
    target[keys.at(-1)!] = value;
  }
  return facts;
}
