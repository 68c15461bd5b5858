import { newDebugId } from './identifiers.ts';

/**
 * Every `details[].issue` the fixture emits, with its HTTP status and a description in PayPal's
 * words where the contract gives them (§6 table; §2.4, §2.5, §4.1, §4.4, §8). The status of an
 * error body follows from its issues, so a new issue does not compile until it has one.
 */
export const ISSUES = {
  // 400 INVALID_REQUEST (§6)
  MALFORMED_REQUEST_JSON: { status: 400, description: 'The request JSON is not well formed.' },
  MISSING_REQUIRED_PARAMETER: { status: 400, description: 'A required field / parameter is missing.' },
  INVALID_PARAMETER_VALUE: { status: 400, description: 'The value of a field is invalid.' },
  INVALID_PARAMETER_SYNTAX: {
    status: 400,
    description: 'The value of a field does not conform to the expected format.',
  },
  INVALID_STRING_LENGTH: {
    status: 400,
    description: 'The value of a field is either too short or too long.',
  },
  INVALID_ARRAY_MIN_ITEMS: {
    status: 400,
    description: 'The number of items in an array parameter is too small.',
  },
  INVALID_ARRAY_MAX_ITEMS: {
    status: 400,
    description: 'The number of items in an array parameter is too large.',
  },
  NOT_SUPPORTED: { status: 400, description: 'This field is not currently supported.' },
  INVALID_JSON_POINTER_FORMAT: {
    status: 400,
    description: 'Path should be a valid JSON Pointer that references a location within the request.',
  },
  // 404 RESOURCE_NOT_FOUND
  INVALID_RESOURCE_ID: {
    status: 404,
    description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
  },
  // 409 RESOURCE_CONFLICT (§3 replay semantics, §4.1, §4.4)
  PREVIOUS_REQUEST_IN_PROGRESS: {
    status: 409,
    description:
      'A previous request on this resource is currently in progress. Please wait for some time and try again.',
  },
  // 422 UNPROCESSABLE_ENTITY: money and order creation (§2.1, §8)
  AMOUNT_MISMATCH: {
    status: 422,
    description:
      'Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.',
  },
  ITEM_TOTAL_MISMATCH: {
    status: 422,
    description: 'Should equal sum of (unit_amount * quantity) across all items for a given purchase_unit.',
  },
  ITEM_TOTAL_REQUIRED: {
    status: 422,
    description:
      'If item details are specified (items.unit_amount and items.quantity) corresponding amount.breakdown.item_total is required.',
  },
  TAX_TOTAL_MISMATCH: {
    status: 422,
    description: 'Should equal sum of (tax * quantity) across all items for a given purchase_unit.',
  },
  TAX_TOTAL_REQUIRED: {
    status: 422,
    description:
      'If item details are specified (items.tax_total and items.quantity) corresponding amount.breakdown.tax_total is required.',
  },
  CANNOT_BE_ZERO_OR_NEGATIVE: { status: 422, description: 'Must be greater than zero.' },
  CANNOT_BE_NEGATIVE: { status: 422, description: 'Must be greater than or equal to zero.' },
  DECIMAL_PRECISION: {
    status: 422,
    description: 'If the currency supports decimals, only two decimal place precision is supported.',
  },
  DECIMALS_NOT_SUPPORTED: { status: 422, description: 'Currency does not support decimals.' },
  MAX_VALUE_EXCEEDED: { status: 422, description: 'Should be less than or equal to 999999999999999.99.' },
  INVALID_CURRENCY_CODE: {
    status: 422,
    description: 'Currency code is invalid or is not currently supported.',
  },
  CURRENCY_MISMATCH: { status: 422, description: 'Currency code should be the same for all amounts.' },
  MULTI_CURRENCY_ORDER: {
    status: 422,
    description:
      'Multiple differing values of currency_code are not supported. Entire Order request must have the same currency_code.',
  },
  DUPLICATE_REFERENCE_ID: {
    status: 422,
    description: 'reference_id must be unique if multiple purchase_unit are provided.',
  },
  REFERENCE_ID_REQUIRED: {
    status: 422,
    description:
      "'reference_id' is required for each 'purchase_unit' if multiple 'purchase_unit' are provided.",
  },
  DUPLICATE_INVOICE_ID: {
    status: 422,
    description:
      'Duplicate Invoice ID detected. To avoid a potential duplicate transaction your account setting requires that Invoice Id be unique for each transaction.',
  },
  UNSUPPORTED_INTENT: {
    status: 422,
    description: 'intent=AUTHORIZE is not supported for multiple purchase units.',
  },
  // 422: capture / authorize an order (§2.4, §2.5)
  ORDER_NOT_APPROVED: {
    status: 422,
    description:
      "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
  },
  ORDER_ALREADY_CAPTURED: {
    status: 422,
    description: "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
  },
  // 422: PATCH an order (§2.6)
  ORDER_ALREADY_COMPLETED: {
    status: 422,
    description: 'The order cannot be patched after it is completed.',
  },
  INVALID_PATCH_OPERATION: {
    status: 422,
    description:
      "The operation cannot be honored. Cannot add a property that's already present, use replace. Cannot remove a property thats not present, use add. Cannot replace a property thats not present, use add.",
  },
  PATCH_VALUE_REQUIRED: {
    status: 422,
    description: 'Please specify a value to for the field that is being patched.',
  },
  PATCH_PATH_REQUIRED: {
    status: 422,
    description: 'Please specify a path for the field for which the operation needs to be performed.',
  },
  NOT_PATCHABLE: { status: 422, description: 'Cannot be patched.' },
  ORDER_ALREADY_AUTHORIZED: {
    status: 422,
    description:
      "Order already authorized.If 'intent=AUTHORIZE' only one authorization per order is allowed.",
  },
  ACTION_DOES_NOT_MATCH_INTENT: {
    status: 422,
    description:
      "Order was created with an intent to 'CAPTURE'/'AUTHORIZE'; the requested action does not match it.",
  },
  // 422: refunds (§4.1)
  REFUND_AMOUNT_EXCEEDED: {
    status: 422,
    description:
      'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
  },
  CAPTURE_FULLY_REFUNDED: { status: 422, description: 'The capture has already been fully refunded.' },
  PENDING_CAPTURE: { status: 422, description: 'Cannot initiate a refund as the capture is pending.' },
  REFUND_CAPTURE_CURRENCY_MISMATCH: {
    status: 422,
    description: 'Refund must be in the same currency as the capture.',
  },
  REFUND_NOT_ALLOWED: {
    status: 422,
    description:
      'Full refund refused - partial refund has already been done on this payment. You cannot refund this capture.',
  },
  // 422: authorizations (§4.4)
  AUTHORIZATION_VOIDED: {
    status: 422,
    description: 'A voided authorization cannot be captured or reauthorized.',
  },
  AUTHORIZATION_EXPIRED: { status: 422, description: 'An expired authorization cannot be captured.' },
  AUTHORIZATION_DENIED: { status: 422, description: 'A denied authorization cannot be captured.' },
  AUTHORIZATION_ALREADY_CAPTURED: {
    status: 422,
    description: 'Authorization has been previously captured and hence cannot be captured again.',
  },
  MAX_CAPTURE_AMOUNT_EXCEEDED: { status: 422, description: 'Capture amount exceeds allowable limit.' },
  AUTH_CAPTURE_CURRENCY_MISMATCH: {
    status: 422,
    description: 'Currency of capture must be the same as currency of authorization.',
  },
  PREVIOUSLY_CAPTURED: {
    status: 422,
    description: 'Authorization has been previously captured and hence cannot be voided.',
  },
  PREVIOUSLY_VOIDED: {
    status: 422,
    description: 'Authorization has been previously voided and hence cannot be voided again.',
  },
  CANNOT_BE_VOIDED: {
    status: 422,
    description: 'A reauthorization cannot be voided. Please void the original parent authorization.',
  },
} as const satisfies Record<string, { status: 400 | 404 | 409 | 422; description: string }>;

export type IssueCode = keyof typeof ISSUES;

/** `location` of an error detail (§6). */
export type ErrorLocation = 'body' | 'path' | 'query' | 'header';

/** One entry of an error body's `details` (§6). `issue` is a string so forced mock issues pass through. */
export interface ErrorDetail {
  readonly issue: string;
  readonly field?: string;
  readonly value?: string;
  readonly location?: ErrorLocation;
  readonly description: string;
}

/** A refused operation: returned, not thrown; the transport turns it into an error body. */
export interface ApiFailure {
  readonly ok: false;
  readonly details: readonly ErrorDetail[];
}

/** A detail for a known issue, with PayPal's description unless one is given. */
export function detail(
  issue: IssueCode,
  where: { field?: string; value?: string; location?: ErrorLocation; description?: string } = {},
): ErrorDetail {
  return {
    issue,
    ...(where.field === undefined ? {} : { field: where.field }),
    ...(where.value === undefined ? {} : { value: where.value }),
    ...(where.field === undefined && where.location === undefined
      ? {}
      : { location: where.location ?? 'body' }),
    description: where.description ?? ISSUES[issue].description,
  };
}

export function fail(...details: ErrorDetail[]): ApiFailure {
  return { ok: false, details };
}

/** HTTP status of a detail; issues the table does not know (forced via `PayPal-Mock-Response`) are 422. */
export function statusOfIssue(issue: string): number {
  return issue in ISSUES ? ISSUES[issue as IssueCode].status : 422;
}

/** Error `name` and fixed `message` per HTTP status (§6 table). */
const ERROR_NAMES: Record<number, { name: string; message: string }> = {
  400: {
    name: 'INVALID_REQUEST',
    message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  },
  401: {
    name: 'AUTHENTICATION_FAILURE',
    message:
      'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
  },
  403: { name: 'NOT_AUTHORIZED', message: 'Authorization failed due to insufficient permissions.' },
  404: { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' },
  409: {
    name: 'RESOURCE_CONFLICT',
    message: 'The server has detected a conflict while processing this request.',
  },
  413: { name: 'INVALID_REQUEST', message: 'Request entity too large.' },
  415: {
    name: 'UNSUPPORTED_MEDIA_TYPE',
    message: "The server does not support the request payload's media type.",
  },
  422: {
    name: 'UNPROCESSABLE_ENTITY',
    message:
      'The requested action could not be performed, semantically incorrect, or failed business validation.',
  },
  500: { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.' },
  503: { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.' },
};

/** Which API's documentation the `information_link`s point at. */
export type ApiFamily = 'orders' | 'payments' | 'notifications';

const DOCS: Record<ApiFamily, string> = {
  orders: 'https://developer.paypal.com/docs/api/orders/v2/',
  payments: 'https://developer.paypal.com/docs/api/payments/v2/',
  notifications: 'https://developer.paypal.com/docs/api/webhooks/v1/',
};

/** A response the transport writes as it is. `rawBody` wins over `body` (webhook bytes, padding). */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The standard error body `{ name, message, debug_id, details, links }` (§6). When details of
 * several statuses meet, the lowest status wins (schema errors before business rules) and only
 * its details are reported. 5xx bodies carry no details.
 */
export function errorReply(family: ApiFamily, failure: ApiFailure | { status: number }): Reply {
  const debugId = newDebugId();
  if ('status' in failure) {
    const { name, message } = ERROR_NAMES[failure.status] ?? { name: 'UNKNOWN_ERROR', message: 'Error.' };
    return {
      status: failure.status,
      headers: { 'paypal-debug-id': debugId },
      body: {
        name,
        message,
        debug_id: debugId,
        links: [{ href: `${DOCS[family]}#error-${name}`, rel: 'information_link', method: 'GET' }],
      },
    };
  }
  const status = Math.min(...failure.details.map((entry) => statusOfIssue(entry.issue)));
  const details = failure.details.filter((entry) => statusOfIssue(entry.issue) === status);
  const { name, message } = ERROR_NAMES[status]!;
  return {
    status,
    headers: { 'paypal-debug-id': debugId },
    body: {
      name,
      message,
      debug_id: debugId,
      details,
      links: [...new Set(details.map((entry) => entry.issue))].map((issue) => ({
        href: `${DOCS[family]}#error-${issue}`,
        rel: 'information_link',
        method: 'GET',
      })),
    },
  };
}
