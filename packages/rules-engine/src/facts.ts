/**
 * The engine's facts model: everything a condition may read, in one shape. The service builds it
 * from stored data (never from client input on the preview path); the conformance runner builds it
 * from the reference's test vocabulary. Units follow the reference's rule values so a condition
 * compares like with like: money in major units (12.5 = 12.50) of the context currency, weight in
 * kilograms, lengths in millimetres, volume in cubic millimetres, instants as ISO 8601 text.
 *
 * Which scopes an evaluation has follows from what is present: `cart` gives the cart scope,
 * `lineItem` the line-item scope, `order` the order (flow) scope. Context, customer and the
 * selected addresses form the checkout scope, which every evaluation has.
 */
export interface Facts {
  /** The evaluation's current time (ISO 8601 with offset). */
  readonly now: string;
  readonly context: ContextFacts;
  /** The signed-in customer; null for a visitor. */
  readonly customer: CustomerFacts | null;
  /** The selected billing address (the customer's active one). */
  readonly billingAddress: AddressFacts | null;
  /** The selected shipping address (the shipping location). */
  readonly shippingAddress: AddressFacts | null;
  readonly cart?: CartFacts | undefined;
  /** Present when a single line item is evaluated (line-item scope). */
  readonly lineItem?: LineItemFacts | undefined;
  readonly order?: OrderFacts | undefined;
}

export interface ContextFacts {
  readonly channelId: string | null;
  readonly currencyId: string | null;
  readonly languageId: string | null;
  /** Whether prices are shown with tax (`gross`) or without (`net`). */
  readonly taxDisplay: 'gross' | 'net';
  readonly shippingMethodId: string | null;
  readonly paymentMethodId: string | null;
  /** The customer group the context prices for (a visitor's is the default group). */
  readonly customerGroupId: string | null;
  /** The context was opened by staff through the admin API (an order created by admin). */
  readonly adminSource: boolean;
}

export interface AddressFacts {
  readonly id: string | null;
  readonly street: string | null;
  readonly city: string | null;
  readonly zipcode: string | null;
  readonly countryId: string | null;
  readonly stateId: string | null;
}

export interface CustomerFacts {
  readonly id: string | null;
  readonly number: string | null;
  readonly active: boolean | null;
  readonly guest: boolean | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly email: string | null;
  readonly company: string | null;
  /** `YYYY-MM-DD`. */
  readonly birthday: string | null;
  readonly groupId: string | null;
  readonly requestedGroupId: string | null;
  readonly salutationId: string | null;
  readonly tagIds: readonly string[];
  readonly affiliateCode: string | null;
  readonly campaignCode: string | null;
  readonly createdByAdmin: boolean;
  /** Channels whose newsletter the customer receives. */
  readonly newsletterChannelIds: readonly string[];
  readonly customFields: Readonly<Record<string, unknown>> | null;
  readonly ruleMetadata: Readonly<Record<string, unknown>>;
  readonly firstLogin: string | null;
  readonly lastLogin: string | null;
  readonly lastOrderDate: string | null;
  readonly orderCount: number | null;
  readonly orderTotalAmount: number | null;
  readonly reviewCount: number | null;
}

export interface CartFacts {
  /** Total to pay (`price.totalPrice`). */
  readonly amount: number | null;
  /** Sum of the positions, shipping excluded. */
  readonly positionPrice: number | null;
  readonly shippingCost: number | null;
  /** Top-level line items; nested ones hang under `children`. */
  readonly lineItems: readonly LineItemFacts[];
}

/** Line item types whose items product conditions ignore (reference 6.7.14). */
export const NON_PRODUCT_ITEM_TYPES: ReadonlySet<string> = new Set([
  'container',
  'customized-products-option',
  'option-values',
]);

export interface LineItemFacts {
  readonly id: string | null;
  /** `product`, `promotion`, `credit`, `custom`, `container`, … */
  readonly type: string;
  /** The id of what the item refers to (the product id for products). */
  readonly referencedId: string | null;
  /** Goods are what is shipped and counted (products, not promotions or credits). */
  readonly good: boolean;
  readonly quantity: number;
  readonly states: readonly string[];
  readonly price: PriceFacts | null;
  /** Null when the item carries no delivery information. */
  readonly delivery: DeliveryFacts | null;
  /** What the item carries of its product (the reference's payload); null for non-products. */
  readonly product: ProductFacts | null;
  readonly promotion: PromotionFacts | null;
  readonly children: readonly LineItemFacts[];
}

export interface PriceFacts {
  readonly unitPrice: number | null;
  readonly totalPrice: number | null;
  readonly listPrice: { readonly price: number; readonly percentage: number | null } | null;
}

export interface DeliveryFacts {
  readonly weight: number | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly length: number | null;
  readonly volume: number | null;
  readonly stock: number | null;
  readonly freeDelivery: boolean | null;
}

export interface ProductFacts {
  readonly parentId: string | null;
  readonly manufacturerId: string | null;
  readonly categoryIds: readonly string[] | null;
  readonly streamIds: readonly string[] | null;
  readonly tagIds: readonly string[] | null;
  readonly propertyIds: readonly string[] | null;
  readonly optionIds: readonly string[] | null;
  readonly taxId: string | null;
  /** Available stock. */
  readonly stock: number | null;
  readonly isNew: boolean | null;
  readonly isCloseout: boolean | null;
  readonly markAsTopseller: boolean | null;
  readonly createdAt: string | null;
  readonly releaseDate: string | null;
  readonly productType: string | null;
  readonly purchasePrice: { readonly gross: number | null; readonly net: number | null } | null;
  readonly customFields: Readonly<Record<string, unknown>> | null;
  /** Merchant-edited rule metadata, a variant's keys over its parent's. */
  readonly ruleMetadata: Readonly<Record<string, unknown>>;
}

export interface PromotionFacts {
  readonly promotionId: string | null;
  readonly codeType: string | null;
}

export interface OrderFacts {
  readonly id: string | null;
  readonly stateId: string | null;
  readonly tagIds: readonly string[];
  readonly affiliateCode: string | null;
  readonly campaignCode: string | null;
  readonly createdByAdmin: boolean;
  readonly customFields: Readonly<Record<string, unknown>> | null;
  readonly ruleMetadata: Readonly<Record<string, unknown>>;
  readonly deliveries: readonly {
    readonly stateId: string | null;
    readonly trackingCodes: readonly string[];
  }[];
  readonly transactions: readonly { readonly stateId: string | null; readonly stateName: string | null }[];
  readonly documents: readonly { readonly documentTypeId: string | null; readonly sent: boolean }[];
}
