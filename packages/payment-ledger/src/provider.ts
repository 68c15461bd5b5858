import type { ProviderMoney } from './money.ts';

// What the provider says, in the shape the service's provider port already answers (PayPal
// Orders v2 / Payments v2 facts, contract §2 and §4): the ledger reads only these fields, so the
// port's richer objects are accepted as they are.

export const PROVIDER_ORDER_STATUSES = [
  'CREATED',
  'SAVED',
  'APPROVED',
  'VOIDED',
  'COMPLETED',
  'PAYER_ACTION_REQUIRED',
] as const;
export type ProviderOrderStatus = (typeof PROVIDER_ORDER_STATUSES)[number];

export const CAPTURE_STATUSES = [
  'COMPLETED',
  'DECLINED',
  'PARTIALLY_REFUNDED',
  'PENDING',
  'REFUNDED',
  'FAILED',
] as const;
export type CaptureStatus = (typeof CAPTURE_STATUSES)[number];

/** Capture statuses that mean the money was taken (a refund later does not undo the capture). */
export const CAPTURED_STATUSES = [
  'COMPLETED',
  'PARTIALLY_REFUNDED',
  'REFUNDED',
] as const satisfies readonly CaptureStatus[];

export const PROVIDER_REFUND_STATUSES = ['CANCELLED', 'FAILED', 'PENDING', 'COMPLETED'] as const;
export type ProviderRefundStatus = (typeof PROVIDER_REFUND_STATUSES)[number];

export interface ProviderCapture {
  readonly id: string;
  readonly status: CaptureStatus;
  readonly amount: ProviderMoney;
  /** Our attempt id as echoed by the provider, when it echoes it. */
  readonly customId: string | null;
  /** `payee.merchant_id` of the capture (Payments v2 and webhooks), when the provider says. */
  readonly merchantId: string | null;
}

/** An order as the provider answers `GET /v2/checkout/orders/{id}` or a capture. */
export interface ProviderOrder {
  readonly id: string;
  readonly status: ProviderOrderStatus;
  /** The `approve` or `payer-action` link. */
  readonly approvalUrl: string | null;
  /** `purchase_units[0].payee.merchant_id`. */
  readonly merchantId: string | null;
  readonly captures: readonly ProviderCapture[];
}

export interface ProviderRefund {
  readonly id: string;
  readonly status: ProviderRefundStatus;
  readonly amount: ProviderMoney;
  /** The capture the refund belongs to (its `up` link), when known. */
  readonly captureId: string | null;
  /**
   * Our refund id, when the provider echoes the `custom_id` we sent. Without it a refund that
   * the provider reports before we know its provider id cannot be told from a dashboard refund.
   */
  readonly customId?: string | null;
}

/** What one provider call did, as the provider port reports it. */
export type ProviderAnswer<T> =
  /** Done; `value` is the provider's state after it. */
  | { readonly outcome: 'done'; readonly value: T }
  /** A definite refusal (4xx): nothing happened. `issue` is the provider's issue name. */
  | { readonly outcome: 'refused'; readonly status: number; readonly issue: string; readonly detail: string }
  /** The provider does not know the resource (404): expired or never created. */
  | { readonly outcome: 'not-found' }
  /** Timeout, dropped connection, 5xx or an unreadable answer: it may have happened. */
  | { readonly outcome: 'unknown'; readonly reason: string };
