import type { FlowIssueCode } from '@cartwright/flow-graph';
import { isUniqueViolation, TransientDatabaseError } from '@cartwright/repository';
import type { RuleErrorCode } from '@cartwright/rules-engine';
import type { SandboxFailureCode } from './app-sandbox.ts';
import type { AppServiceFailureCode } from './app-services.ts';
import type { MailFailureCode } from './mailer.ts';

/** Every stable error code the service returns. Adding one does not compile until it has a status. */
export type ErrorCode =
  | RuleErrorCode
  | FlowIssueCode
  | MailFailureCode
  | SandboxFailureCode
  | AppServiceFailureCode
  | 'MAIL_UNCERTAIN'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'INVALID_JSON'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'HEADERS_TOO_LARGE'
  | 'VALIDATION_FAILED'
  | 'LANGUAGE_NOT_ENABLED'
  | 'STALE_REVISION'
  | 'CONFLICT'
  | 'LAST_OWNER'
  | 'REFERENCED'
  | 'SKU_TAKEN'
  | 'EMAIL_TAKEN'
  | 'TRANSITION_REFUSED'
  | 'APPROVAL_REQUIRED'
  | 'EVIDENCE_SIMULATED_ONLY'
  | 'PROPOSAL_STALE'
  | 'PROPOSAL_DECIDED'
  | 'INSUFFICIENT_STOCK'
  | 'REFUND_EXCEEDS_BALANCE'
  | 'CART_INVALID'
  | 'PAYMENT_REQUIRED'
  | 'NOT_READY'
  | 'BUSY'
  | 'CONTEXT_REQUIRED'
  | 'APP_NOT_INSTALLED'
  | 'APP_INCOMPATIBLE'
  | 'APP_ACTION_NOT_FOUND'
  | 'APP_CONTEXT_REQUIRED'
  | 'APP_WEBHOOK_UNKNOWN'
  | 'APP_WEBHOOK_HEADERS_INVALID'
  | 'APP_WEBHOOK_SIGNATURE_INVALID'
  | 'APP_WEBHOOK_TIMESTAMP_SKEW'
  | 'APP_WEBHOOK_BODY_TOO_LARGE'
  | 'APP_WEBHOOK_EVENT_REUSED'
  | 'APP_WEBHOOK_SANDBOX_SHOP'
  | 'APP_WEBHOOK_HTTPS_REQUIRED'
  | 'UNSUPPORTED_ACTION'
  | 'SETTING_BASIS_ONLY'
  | 'MAIN_CHANNEL'
  | 'CHANNEL_IN_USE'
  | 'CHANNEL_PRIVATE'
  | 'PROMOTION_CODE_UNKNOWN'
  | 'PROMOTION_CODE_EXHAUSTED'
  | 'IMAGE_TOO_LARGE'
  | 'IMAGE_UNSUPPORTED_TYPE'
  | 'IMAGE_INVALID'
  | 'IMAGE_DIMENSIONS_EXCEEDED'
  | 'IMAGE_URL_REFUSED'
  | 'IMAGE_URL_FAILED'
  | 'GALLERY_LIMIT_REACHED'
  | 'MEDIA_ASSET_LIMIT_REACHED'
  | 'IMAGE_PROVIDER_DISABLED'
  | 'MEDIA_DRAFT_LIMIT'
  | 'MEDIA_DRAFT_STALE'
  | 'MEDIA_DRAFT_NOT_READY'
  | 'INTERNAL';

/** The one code → HTTP status table (MCP carries the same codes in `isError` results). */
export const errorStatus: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  VALIDATION_FAILED: 422,
  LANGUAGE_NOT_ENABLED: 422,
  STALE_REVISION: 409,
  CONFLICT: 409,
  LAST_OWNER: 409,
  REFERENCED: 409,
  SKU_TAKEN: 409,
  EMAIL_TAKEN: 409,
  TRANSITION_REFUSED: 409,
  APPROVAL_REQUIRED: 422,
  EVIDENCE_SIMULATED_ONLY: 409,
  PROPOSAL_STALE: 409,
  PROPOSAL_DECIDED: 409,
  INSUFFICIENT_STOCK: 409,
  REFUND_EXCEEDS_BALANCE: 409,
  CART_INVALID: 422,
  PAYMENT_REQUIRED: 402,
  NOT_READY: 503,
  BUSY: 503,
  RULE_UNKNOWN_CONDITION: 422,
  RULE_CONDITION_DISABLED: 422,
  RULE_INVALID_TREE: 422,
  RULE_INVALID_VALUE: 422,
  RULE_SCOPE_MISSING: 422,
  RULE_REFERENCE_MISSING: 422,
  RULE_REFERENCE_DISABLED: 422,
  RULE_REFERENCE_CYCLE: 422,
  RULE_REFERENCE_DEPTH: 422,
  RULE_REFERENCE_LIMIT: 422,
  CONTEXT_REQUIRED: 400,
  APP_NOT_INSTALLED: 409,
  APP_INCOMPATIBLE: 409,
  APP_ACTION_NOT_FOUND: 404,
  APP_CONTEXT_REQUIRED: 422,
  APP_WEBHOOK_UNKNOWN: 404,
  APP_WEBHOOK_HEADERS_INVALID: 400,
  APP_WEBHOOK_SIGNATURE_INVALID: 401,
  APP_WEBHOOK_TIMESTAMP_SKEW: 401,
  APP_WEBHOOK_BODY_TOO_LARGE: 413,
  APP_WEBHOOK_EVENT_REUSED: 409,
  APP_WEBHOOK_SANDBOX_SHOP: 403,
  APP_WEBHOOK_HTTPS_REQUIRED: 403,
  APP_MODULE_TIMEOUT: 504,
  APP_MODULE_OUT_OF_MEMORY: 502,
  APP_MODULE_ERROR: 502,
  APP_MODULE_INVALID: 502,
  APP_MODULE_OUTPUT_INVALID: 502,
  APP_SANDBOX_INPUT_TOO_LARGE: 413,
  APP_SANDBOX_BUSY: 503,
  APP_SANDBOX_UNAVAILABLE: 503,
  APP_SERVICE_NOT_CONFIGURED: 503,
  APP_SERVICE_UNAVAILABLE: 503,
  APP_SERVICE_REFUSED: 422,
  APP_SERVICE_ANSWER_INVALID: 502,
  UNSUPPORTED_ACTION: 422,
  FLOW_INVALID_GRAPH: 422,
  FLOW_DUPLICATE_NODE: 422,
  FLOW_EDGE_MISSING: 422,
  FLOW_CYCLE: 422,
  FLOW_UNREACHABLE: 422,
  FLOW_SIZE: 422,
  FLOW_DELAY_TOO_LONG: 422,
  FLOW_UNKNOWN_ACTION: 422,
  FLOW_INVALID_ACTION_CONFIG: 422,
  FLOW_UNSUPPORTED_OPTION: 422,
  SETTING_BASIS_ONLY: 422,
  MAIN_CHANNEL: 409,
  CHANNEL_IN_USE: 409,
  CHANNEL_PRIVATE: 401,
  PROMOTION_CODE_UNKNOWN: 422,
  PROMOTION_CODE_EXHAUSTED: 409,
  IMAGE_TOO_LARGE: 413,
  IMAGE_UNSUPPORTED_TYPE: 415,
  IMAGE_INVALID: 422,
  IMAGE_DIMENSIONS_EXCEEDED: 422,
  IMAGE_URL_REFUSED: 422,
  IMAGE_URL_FAILED: 422,
  GALLERY_LIMIT_REACHED: 409,
  MEDIA_ASSET_LIMIT_REACHED: 409,
  IMAGE_PROVIDER_DISABLED: 503,
  MEDIA_DRAFT_LIMIT: 429,
  MEDIA_DRAFT_STALE: 409,
  MEDIA_DRAFT_NOT_READY: 409,
  MAIL_NOT_CONFIGURED: 503,
  MAIL_REFUSED: 502,
  MAIL_UNAVAILABLE: 503,
  MAIL_UNCERTAIN: 409,
  INTERNAL: 500,
};

const titles: Record<ErrorCode, string> = {
  UNAUTHENTICATED: 'Authentication required',
  FORBIDDEN: 'Permission denied',
  NOT_FOUND: 'Not found',
  ROUTE_NOT_FOUND: 'No such route',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  INVALID_JSON: 'Malformed JSON body',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  HEADERS_TOO_LARGE: 'Request headers too large',
  VALIDATION_FAILED: 'Invalid input',
  LANGUAGE_NOT_ENABLED: 'Language not enabled',
  STALE_REVISION: 'Stale revision',
  CONFLICT: 'Conflict',
  LAST_OWNER: 'A shop needs an owner',
  REFERENCED: 'Still referenced',
  SKU_TAKEN: 'SKU taken',
  EMAIL_TAKEN: 'Email already registered',
  TRANSITION_REFUSED: 'State transition refused',
  APPROVAL_REQUIRED: 'Approval required',
  EVIDENCE_SIMULATED_ONLY: 'Only simulated evidence',
  PROPOSAL_STALE: 'Proposal out of date',
  PROPOSAL_DECIDED: 'Proposal already decided',
  INSUFFICIENT_STOCK: 'Insufficient stock',
  REFUND_EXCEEDS_BALANCE: 'Refund exceeds the remaining captured balance',
  CART_INVALID: 'Cart not ready for checkout',
  PAYMENT_REQUIRED: 'Payment required',
  NOT_READY: 'Not ready',
  BUSY: 'Busy, try again',
  RULE_UNKNOWN_CONDITION: 'Unknown condition',
  RULE_CONDITION_DISABLED: 'Condition disabled',
  RULE_INVALID_TREE: 'Malformed condition tree',
  RULE_INVALID_VALUE: 'Invalid condition value',
  RULE_SCOPE_MISSING: 'Rule scope missing',
  RULE_REFERENCE_MISSING: 'Referenced rule missing',
  RULE_REFERENCE_DISABLED: 'Referenced rule inactive',
  RULE_REFERENCE_CYCLE: 'Recursive rule reference',
  RULE_REFERENCE_DEPTH: 'Rule references too deep',
  RULE_REFERENCE_LIMIT: 'Too many referenced rules',
  CONTEXT_REQUIRED: 'Cart context token required',
  APP_NOT_INSTALLED: 'App not installed',
  APP_INCOMPATIBLE: 'Incompatible app version',
  APP_ACTION_NOT_FOUND: 'No such app action',
  APP_CONTEXT_REQUIRED: 'Bound context missing',
  APP_WEBHOOK_UNKNOWN: 'Unknown app webhook',
  APP_WEBHOOK_HEADERS_INVALID: 'Webhook headers missing or malformed',
  APP_WEBHOOK_SIGNATURE_INVALID: 'Webhook signature invalid',
  APP_WEBHOOK_TIMESTAMP_SKEW: 'Webhook timestamp outside the window',
  APP_WEBHOOK_BODY_TOO_LARGE: 'Webhook body too large',
  APP_WEBHOOK_EVENT_REUSED: 'Webhook event id reused with other content',
  APP_WEBHOOK_SANDBOX_SHOP: 'Webhooks do not reach sandbox shops',
  APP_WEBHOOK_HTTPS_REQUIRED: 'Webhooks need HTTPS',
  APP_MODULE_TIMEOUT: 'App module ran out of time',
  APP_MODULE_OUT_OF_MEMORY: 'App module ran out of memory',
  APP_MODULE_ERROR: 'App module failed',
  APP_MODULE_INVALID: 'App module invalid',
  APP_MODULE_OUTPUT_INVALID: 'App module output invalid',
  APP_SANDBOX_INPUT_TOO_LARGE: 'App module input too large',
  APP_SANDBOX_BUSY: 'App sandbox busy, try again',
  APP_SANDBOX_UNAVAILABLE: 'App sandbox unavailable',
  APP_SERVICE_NOT_CONFIGURED: 'App service not configured',
  APP_SERVICE_UNAVAILABLE: 'App service unavailable',
  APP_SERVICE_REFUSED: 'App service refused the call',
  APP_SERVICE_ANSWER_INVALID: 'App service answer invalid',
  UNSUPPORTED_ACTION: 'Action not supported',
  FLOW_INVALID_GRAPH: 'Malformed flow graph',
  FLOW_DUPLICATE_NODE: 'Duplicate node id',
  FLOW_EDGE_MISSING: 'Edge to an absent node',
  FLOW_CYCLE: 'Cycle in the flow graph',
  FLOW_UNREACHABLE: 'Unreachable node',
  FLOW_SIZE: 'Flow graph size out of bounds',
  FLOW_DELAY_TOO_LONG: 'Delay over 30 days',
  FLOW_UNKNOWN_ACTION: 'Unknown action',
  FLOW_INVALID_ACTION_CONFIG: 'Invalid action config',
  FLOW_UNSUPPORTED_OPTION: 'Unsupported action option',
  SETTING_BASIS_ONLY: 'Shared basis only',
  MAIN_CHANNEL: 'Main channel',
  CHANNEL_IN_USE: 'Channel in use',
  CHANNEL_PRIVATE: 'Private sales channel',
  PROMOTION_CODE_UNKNOWN: 'Unknown promotion code',
  PROMOTION_CODE_EXHAUSTED: 'Promotion code used up',
  IMAGE_TOO_LARGE: 'Image too large',
  IMAGE_UNSUPPORTED_TYPE: 'Image type not accepted',
  IMAGE_INVALID: 'Image damaged or unreadable',
  IMAGE_DIMENSIONS_EXCEEDED: 'Image dimensions over the limit',
  IMAGE_URL_REFUSED: 'Image URL not fetched',
  IMAGE_URL_FAILED: 'Image URL did not deliver an image',
  GALLERY_LIMIT_REACHED: 'Gallery full',
  MEDIA_ASSET_LIMIT_REACHED: 'Too many images for this product',
  IMAGE_PROVIDER_DISABLED: 'Image generation not enabled',
  MEDIA_DRAFT_LIMIT: 'Too many image drafts in progress',
  MEDIA_DRAFT_STALE: 'Product changed since the draft was made',
  MEDIA_DRAFT_NOT_READY: 'Image draft not ready to apply',
  MAIL_NOT_CONFIGURED: 'No mail server configured',
  MAIL_REFUSED: 'Mail refused by the server',
  MAIL_UNAVAILABLE: 'Mail server unavailable',
  MAIL_UNCERTAIN: 'Mail outcome unknown',
  INTERNAL: 'Internal error',
};

export function errorTitle(code: ErrorCode): string {
  return titles[code];
}

/** One problem with one input field; `pointer` is a JSON pointer into the merged input. */
export interface FieldError {
  readonly pointer: string;
  readonly message: string;
}

export interface Failure {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly detail: string;
  readonly errors?: readonly FieldError[];
  /** Extra machine-readable members of the problem body (e.g. `expected`, `actual`). */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export type Result<T> = Success<T> | Failure;

export function ok<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function fail(
  code: ErrorCode,
  detail: string,
  more: { errors?: readonly FieldError[]; extensions?: Record<string, unknown> } = {},
): Failure {
  return { ok: false, code, detail, ...more };
}

/** How long a caller waits before sending again a request that failed as BUSY. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The failure a write that collided with another becomes, so that no collision answers 500:
 * a deadlock or serialization failure that outlasted the transaction runner's retries is 503
 * `BUSY` with `retryAfterSeconds` (nothing committed; the same request may be sent again), and a
 * unique violation (a key, id or number another record already holds, perhaps taken by a
 * concurrent request a moment earlier) is 409 `CONFLICT`. Undefined for any other error.
 */
export function collisionFailureOf(error: unknown): Failure | undefined {
  if (error instanceof TransientDatabaseError) {
    return fail('BUSY', 'Too many concurrent changes collided; nothing was saved. Send the request again.', {
      extensions: { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS },
    });
  }
  if (isUniqueViolation(error)) {
    return fail(
      'CONFLICT',
      'Another record already holds a value that must be unique (such as its key); nothing was saved.',
    );
  }
  return undefined;
}
