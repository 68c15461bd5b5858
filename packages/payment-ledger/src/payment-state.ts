import type { PaymentState } from '@cartwright/commerce';
import type { AttemptState, RefundLedger } from './records.ts';

// The order's payment state (commerce's `payment` machine) is derived from the ledger, never
// stored beside it: the service moves the order when the derived state changes, through
// commerce's `checkTransition` with source `provider`.

/** The payment states a refund ledger can imply; it exists only for money that was captured. */
export type LedgerPaymentState = Extract<
  PaymentState,
  'paid' | 'refunded_partially' | 'refunded' | 'chargeback'
>;

/**
 * `chargeback` once the provider reversed any money; otherwise by the confirmed refunds: none
 * `paid`, some `refunded_partially`, all `refunded`. Pending refunds change nothing yet.
 */
export function ledgerPaymentState(ledger: RefundLedger): LedgerPaymentState {
  const confirmed = ledger.refunds.filter((refund) => refund.status === 'confirmed');
  if (confirmed.some((refund) => refund.kind === 'reversal')) return 'chargeback';
  const refunded = confirmed.reduce((sum, refund) => sum + refund.amount.amount, 0);
  if (refunded === 0) return 'paid';
  return refunded >= ledger.captured.amount ? 'refunded' : 'refunded_partially';
}

/**
 * The order's payment state the ledger implies, or null when it implies none: an attempt in
 * review whose money is not confirmed leaves the order's payment state to the merchant.
 * In flight `open`; provider capture PENDING `unconfirmed`; declined or failed `failed`; expired
 * or cancelled `cancelled`; paid (also a late capture) `paid` or what the refunds make of it.
 */
export function orderPaymentState(state: AttemptState, ledger: RefundLedger | null): PaymentState | null {
  switch (state.status) {
    case 'creating':
    case 'awaiting_approval':
    case 'capturing':
    case 'uncertain':
      return 'open';
    case 'pending_capture':
      return 'unconfirmed';
    case 'declined':
    case 'failed':
      return 'failed';
    case 'expired':
    case 'cancelled':
      return 'cancelled';
    case 'captured':
    case 'review':
      if (!state.paid) return null;
      return ledger ? ledgerPaymentState(ledger) : 'paid';
  }
}
