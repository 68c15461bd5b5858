import type { OrderState } from '@cartwright/commerce';
import * as v from 'valibot';
import { Money } from './money.ts';
import { CAPTURE_STATUSES } from './provider.ts';
import { LedgerId } from './request-ids.ts';

// The records the service stores and loads back. Each schema sits above its type so the service
// can parse a stored row at its edge; inside the package the types are trusted.

const Text = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(255, 'at most 255 characters'),
);

export const PaymentEnvironment = v.picklist(['sandbox', 'live']);
export type PaymentEnvironment = v.InferOutput<typeof PaymentEnvironment>;

/** The provider contract version this package decides for; attempts keep the version they used. */
export const PROVIDER_API_VERSION = 1;

/** SKU quantities checkout took from stock for the attempt's order. */
export const ReservedItem = v.object({
  productId: Text,
  sku: Text,
  quantity: v.pipe(v.number(), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1')),
});
export type ReservedItem = v.InferOutput<typeof ReservedItem>;

/** What `createAttempt` is given. */
export const AttemptInput = v.object({
  id: LedgerId,
  orderId: Text,
  amount: Money,
  items: v.array(ReservedItem),
  environment: PaymentEnvironment,
  /** The merchant receipts must name (`payee.merchant_id`), when the account configures one. */
  merchantId: v.nullable(Text),
  /** Made through the explicit loopback override for contract tests; labelled so forever. */
  contractFixture: v.boolean(),
  createdAt: v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp')),
});
export type AttemptInput = v.InferInput<typeof AttemptInput>;

/** An attempt to take an order's money: its terms never change after `createAttempt`. */
export const PaymentAttempt = v.object({
  ...AttemptInput.entries,
  requestIds: v.object({ create: Text, capture: Text }),
  adapterVersion: v.literal(PROVIDER_API_VERSION),
});
export type PaymentAttempt = v.InferOutput<typeof PaymentAttempt>;

export const ATTEMPT_STATUSES = [
  'creating',
  'awaiting_approval',
  'capturing',
  'pending_capture',
  'uncertain',
  'captured',
  'declined',
  'failed',
  'expired',
  'cancelled',
  'review',
] as const;
export const AttemptStatus = v.picklist(ATTEMPT_STATUSES);
export type AttemptStatus = v.InferOutput<typeof AttemptStatus>;

/** Statuses in which the attempt gave up without money: entering one releases the stock. */
export const UNPAID_FINAL_STATUSES = [
  'declined',
  'failed',
  'expired',
  'cancelled',
] as const satisfies readonly AttemptStatus[];

export const UncertainOperation = v.picklist(['create', 'capture']);
export type UncertainOperation = v.InferOutput<typeof UncertainOperation>;

export const RECEIPT_FIELDS = ['providerOrderId', 'currency', 'amount', 'merchantId', 'customId'] as const;
export const ReceiptField = v.picklist(RECEIPT_FIELDS);
export type ReceiptField = v.InferOutput<typeof ReceiptField>;

/** One receipt field that did not match what the attempt expects. */
export const ReceiptMismatch = v.object({
  field: ReceiptField,
  expected: v.nullable(v.string()),
  observed: v.nullable(v.string()),
});
export type ReceiptMismatch = v.InferOutput<typeof ReceiptMismatch>;

export const REVIEW_REASONS = [
  /** The provider took money, but order, currency, amount, merchant or custom id differ. */
  'receipt-mismatch',
  /** Money arrived after the order was cancelled or the attempt had given up. */
  'late-capture',
  /** Money arrived for an order that no longer exists here. */
  'order-missing',
  /** The provider answered something the contract does not allow (an order COMPLETED without a capture). */
  'provider-anomaly',
  /** A refund the provider reports does not match the one we reserved, or cannot be read. */
  'refund-mismatch',
  /** The provider reported a settled refund both completed and failed. */
  'refund-contradiction',
] as const;
export const ReviewReason = v.picklist(REVIEW_REASONS);
export type ReviewReason = v.InferOutput<typeof ReviewReason>;

export const RecordedCapture = v.object({
  id: Text,
  status: v.picklist(CAPTURE_STATUSES),
  /** The captured amount in the attempt's currency; null when the provider's cannot be read as one. */
  amount: v.nullable(Money),
});
export type RecordedCapture = v.InferOutput<typeof RecordedCapture>;

export const AttemptReview = v.object({ reason: ReviewReason, mismatches: v.array(ReceiptMismatch) });
export type AttemptReview = v.InferOutput<typeof AttemptReview>;

/**
 * An attempt's progress, the record every lifecycle decision answers anew. `paid` and
 * `stockReleased` only ever turn true, and each effect they stand for is produced exactly when
 * one turns (see `effects.ts`), so paying and releasing stock happen at most once by construction.
 */
export const AttemptState = v.object({
  status: AttemptStatus,
  providerOrderId: v.nullable(Text),
  approvalUrl: v.nullable(v.pipe(v.string(), v.maxLength(2048))),
  /** Set exactly when `status` is `uncertain`: the call whose outcome is unknown. */
  uncertainOperation: v.nullable(UncertainOperation),
  capture: v.nullable(RecordedCapture),
  /** `payment.captured` was emitted: the order's money is confirmed. */
  paid: v.boolean(),
  /** The reserved SKU quantities were handed back. */
  stockReleased: v.boolean(),
  review: v.nullable(AttemptReview),
  /** Why the attempt ended without money: the provider's issue or status. */
  failure: v.nullable(Text),
});
export type AttemptState = v.InferOutput<typeof AttemptState>;

/** What the ledger needs to know about the attempt's local order; null when it no longer exists. */
export type LocalOrder = { readonly state: OrderState } | null;

export const REFUND_STATUSES = ['reserved', 'sent', 'confirmed', 'failed', 'uncertain'] as const;
export const RefundStatus = v.picklist(REFUND_STATUSES);
export type RefundStatus = v.InferOutput<typeof RefundStatus>;

/** Refund statuses whose amount is held against the captured balance until settled. */
export const PENDING_REFUND_STATUSES = [
  'reserved',
  'sent',
  'uncertain',
] as const satisfies readonly RefundStatus[];

export const RefundRecord = v.object({
  id: LedgerId,
  captureId: Text,
  amount: Money,
  status: RefundStatus,
  /** The merchant's key: a replay answers this refund. Null for refunds the provider reported. */
  idempotencyKey: v.nullable(Text),
  /** Our `PayPal-Request-Id`; null for refunds the provider reported. */
  requestId: v.nullable(Text),
  providerRefundId: v.nullable(Text),
  /** `ledger`: requested here; `provider`: learnt from the provider (dashboard refund, reversal). */
  origin: v.picklist(['ledger', 'provider']),
  /** `reversal`: the provider took the money back (chargeback), not the merchant. */
  kind: v.picklist(['refund', 'reversal']),
  /** The provider's issue or status when the refund failed. */
  failure: v.nullable(Text),
  /** A contradiction or mismatch was reported for review (once). */
  flagged: v.boolean(),
});
export type RefundRecord = v.InferOutput<typeof RefundRecord>;

/** The refunds of one capture; `captured` is the amount every reservation is held against. */
export const RefundLedger = v.object({
  attemptId: LedgerId,
  orderId: Text,
  captureId: Text,
  captured: Money,
  refunds: v.array(RefundRecord),
});
export type RefundLedger = v.InferOutput<typeof RefundLedger>;
