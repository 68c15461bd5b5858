import { fromProviderValue, isSameMoney, type Money, toProviderValue } from './money.ts';
import type { CaptureStatus, ProviderCapture, ProviderOrder } from './provider.ts';
import type { AttemptState, PaymentAttempt, ReceiptMismatch } from './records.ts';

// The order is paid only on a receipt from the server-side provider read whose provider order,
// currency, amount and merchant match the attempt exactly; a browser redirect proves nothing.
// An order COMPLETED can still hold a DECLINED capture, so the capture's own status decides.

/** The facts of one capture as the provider reported them. */
export interface CaptureReceipt {
  readonly providerOrderId: string;
  readonly captureId: string;
  readonly status: CaptureStatus;
  readonly currency: string;
  /** The provider's decimal string. */
  readonly value: string;
  /** `payee.merchant_id`, when the provider names it. */
  readonly merchantId: string | null;
  /** The `custom_id` echoed back (our attempt id), when the provider echoes it. */
  readonly customId: string | null;
}

export type ReceiptVerdict =
  /** Captured, and every field matches: the order is paid. */
  | { readonly verdict: 'paid'; readonly amount: Money }
  /** PENDING at the provider: money may still arrive; keep the stock and wait. */
  | { readonly verdict: 'pending'; readonly amount: Money }
  /** DECLINED or FAILED: no money, whatever the order's status says. */
  | { readonly verdict: 'declined'; readonly status: 'DECLINED' | 'FAILED'; readonly amount: Money | null }
  /** Money is (or may be) moving, but not as the attempt says: a person decides. */
  | {
      readonly verdict: 'mismatch';
      readonly mismatches: readonly ReceiptMismatch[];
      readonly amount: Money | null;
    };

/** The receipt of `capture` inside `order`: the capture's own payee wins over the order's. */
export function receiptOf(order: ProviderOrder, capture: ProviderCapture): CaptureReceipt {
  return {
    providerOrderId: order.id,
    captureId: capture.id,
    status: capture.status,
    currency: capture.amount.currency,
    value: capture.amount.value,
    merchantId: capture.merchantId ?? order.merchantId,
    customId: capture.customId,
  };
}

/**
 * Checks a capture receipt against the attempt: the provider order must be the one the attempt
 * created, currency and amount must be the attempt's exactly, the merchant must be the configured
 * one (when one is configured; then a receipt without a merchant does not match), and an echoed
 * custom id must be the attempt's id. A declined capture is `declined` before anything else.
 */
export function verifyCaptureReceipt(
  attempt: PaymentAttempt,
  state: AttemptState,
  receipt: CaptureReceipt,
): ReceiptVerdict {
  const expected = attempt.amount;
  const parsed =
    receipt.currency === expected.currency
      ? fromProviderValue(receipt.value, expected.currency, expected.precision)
      : undefined;
  const amount = parsed?.ok ? parsed.value : null;
  if (receipt.status === 'DECLINED' || receipt.status === 'FAILED') {
    return { verdict: 'declined', status: receipt.status, amount };
  }

  const mismatches: ReceiptMismatch[] = [];
  if (receipt.providerOrderId !== state.providerOrderId) {
    mismatches.push({
      field: 'providerOrderId',
      expected: state.providerOrderId,
      observed: receipt.providerOrderId,
    });
  }
  if (receipt.currency !== expected.currency) {
    mismatches.push({ field: 'currency', expected: expected.currency, observed: receipt.currency });
  }
  if (!amount || !isSameMoney(amount, expected)) {
    const value = toProviderValue(expected);
    mismatches.push({ field: 'amount', expected: value.ok ? value.value : null, observed: receipt.value });
  }
  if (attempt.merchantId !== null && receipt.merchantId !== attempt.merchantId) {
    mismatches.push({ field: 'merchantId', expected: attempt.merchantId, observed: receipt.merchantId });
  }
  if (receipt.customId !== null && receipt.customId !== attempt.id) {
    mismatches.push({ field: 'customId', expected: attempt.id, observed: receipt.customId });
  }
  // An unread amount is always listed above, so `!amount` only narrows the type here.
  if (mismatches.length > 0 || !amount) return { verdict: 'mismatch', mismatches, amount };
  return receipt.status === 'PENDING' ? { verdict: 'pending', amount } : { verdict: 'paid', amount };
}
