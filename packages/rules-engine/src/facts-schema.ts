import * as v from 'valibot';
import type { Facts, LineItemFacts } from './facts.ts';

// A valibot schema of the facts model for facts a caller writes by hand (explaining a rule, a
// library user's tests): every field but `now` may be left out and takes the value of "nothing
// known" (null, empty list, false). Unknown keys are rejected so a misspelt fact is never ignored.

const text = v.pipe(v.string(), v.maxLength(1_000));
const id = v.pipe(v.string(), v.maxLength(200));
const instant = v.pipe(
  v.string(),
  v.regex(
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\s*(?:Z|UTC|[+-]\d{2}:?\d{2})?$/i,
    'expected an ISO date-time',
  ),
);
const number = v.pipe(v.number(), v.finite());
const fields = v.record(v.string(), v.unknown());

const orNull = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema), null);
const list = <T extends v.GenericSchema>(schema: T) =>
  v.optional(v.pipe(v.array(schema), v.maxLength(1_000)), []);
const flag = v.optional(v.boolean(), false);

const Address = v.strictObject({
  id: orNull(id),
  street: orNull(text),
  city: orNull(text),
  zipcode: orNull(text),
  countryId: orNull(id),
  stateId: orNull(id),
});

const Product = v.strictObject({
  parentId: orNull(id),
  manufacturerId: orNull(id),
  categoryIds: orNull(v.array(id)),
  streamIds: orNull(v.array(id)),
  tagIds: orNull(v.array(id)),
  propertyIds: orNull(v.array(id)),
  optionIds: orNull(v.array(id)),
  taxId: orNull(id),
  stock: orNull(number),
  isNew: orNull(v.boolean()),
  isCloseout: orNull(v.boolean()),
  markAsTopseller: orNull(v.boolean()),
  createdAt: orNull(instant),
  releaseDate: orNull(instant),
  productType: orNull(text),
  purchasePrice: orNull(v.strictObject({ gross: orNull(number), net: orNull(number) })),
  customFields: orNull(fields),
  ruleMetadata: v.optional(fields, {}),
});

const LineItemEntries = v.strictObject({
  id: orNull(id),
  type: v.optional(text, 'product'),
  referencedId: orNull(id),
  good: v.optional(v.boolean(), true),
  quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 1),
  states: list(text),
  price: orNull(
    v.strictObject({
      unitPrice: orNull(number),
      totalPrice: orNull(number),
      listPrice: orNull(v.strictObject({ price: number, percentage: orNull(number) })),
    }),
  ),
  delivery: orNull(
    v.strictObject({
      weight: orNull(number),
      width: orNull(number),
      height: orNull(number),
      length: orNull(number),
      volume: orNull(number),
      stock: orNull(number),
      freeDelivery: orNull(v.boolean()),
    }),
  ),
  product: orNull(Product),
  promotion: orNull(v.strictObject({ promotionId: orNull(id), codeType: orNull(text) })),
});

// Line items nest (a container's children), so the schema refers to itself.
const LineItem: v.GenericSchema<unknown, LineItemFacts> = v.lazy(() =>
  v.strictObject({ ...LineItemEntries.entries, children: list(LineItem) }),
);

const Customer = v.strictObject({
  id: orNull(id),
  number: orNull(text),
  active: orNull(v.boolean()),
  guest: orNull(v.boolean()),
  firstName: orNull(text),
  lastName: orNull(text),
  email: orNull(text),
  company: orNull(text),
  birthday: orNull(instant),
  groupId: orNull(id),
  requestedGroupId: orNull(id),
  salutationId: orNull(id),
  tagIds: list(id),
  affiliateCode: orNull(text),
  campaignCode: orNull(text),
  createdByAdmin: flag,
  newsletterChannelIds: list(id),
  customFields: orNull(fields),
  ruleMetadata: v.optional(fields, {}),
  firstLogin: orNull(instant),
  lastLogin: orNull(instant),
  lastOrderDate: orNull(instant),
  orderCount: orNull(number),
  orderTotalAmount: orNull(number),
  reviewCount: orNull(number),
});

const Order = v.strictObject({
  id: orNull(id),
  stateId: orNull(id),
  tagIds: list(id),
  affiliateCode: orNull(text),
  campaignCode: orNull(text),
  createdByAdmin: flag,
  customFields: orNull(fields),
  ruleMetadata: v.optional(fields, {}),
  deliveries: list(v.strictObject({ stateId: orNull(id), trackingCodes: list(text) })),
  transactions: list(v.strictObject({ stateId: orNull(id), stateName: orNull(text) })),
  documents: list(v.strictObject({ documentTypeId: orNull(id), sent: flag })),
});

const Context = v.strictObject({
  channelId: orNull(id),
  currencyId: orNull(id),
  languageId: orNull(id),
  taxDisplay: v.optional(v.picklist(['gross', 'net']), 'gross'),
  shippingMethodId: orNull(id),
  paymentMethodId: orNull(id),
  customerGroupId: orNull(id),
  adminSource: flag,
});

const CONTEXT_DEFAULTS = v.parse(Context, {});

/** Facts written by hand: parse with `v.safeParse(FactsSchema, input)`; the output is `Facts`. */
export const FactsSchema = v.strictObject({
  now: instant,
  context: v.optional(Context, CONTEXT_DEFAULTS),
  customer: orNull(Customer),
  billingAddress: orNull(Address),
  shippingAddress: orNull(Address),
  cart: v.optional(
    v.strictObject({
      amount: orNull(number),
      positionPrice: orNull(number),
      shippingCost: orNull(number),
      lineItems: list(LineItem),
    }),
  ),
  lineItem: v.optional(LineItem),
  order: v.optional(Order),
});

/** Compile-time proof that what the schema accepts is the engine's facts model. */
export const asFacts: (parsed: v.InferOutput<typeof FactsSchema>) => Facts = (parsed) => parsed;

/**
 * Facts from a partial description (tests, examples, explain): every field left out is "nothing
 * known". Throws a valibot error for a misspelt or mistyped field.
 */
export function buildFacts(input: v.InferInput<typeof FactsSchema>): Facts {
  return v.parse(FactsSchema, input);
}
