import type { AttemptStatus } from './records.ts';

// The attempt's state machine as data, for the README and the tests: every status change a
// decision can make is listed here (a property test fails on any other), and the README's table
// is checked against it. `captured` and `review` have no way out: refunds and chargebacks of
// captured money live in the refund ledger, and a review is a person's.

export interface AttemptTransition {
  readonly from: AttemptStatus;
  readonly to: AttemptStatus;
  /** What moves it. */
  readonly on: string;
}

const CAPTURE_SEEN = 'a read or capture answer shows the capture';

export const ATTEMPT_TRANSITIONS = [
  { from: 'creating', to: 'awaiting_approval', on: 'create answered with an order id and approval link' },
  { from: 'creating', to: 'failed', on: 'create refused, or answered without a usable id or link' },
  { from: 'creating', to: 'uncertain', on: 'create answer lost (replay queued, same key)' },
  {
    from: 'creating',
    to: 'cancelled',
    on: 'cancellation or closed local order (no approval link exists yet)',
  },
  {
    from: 'awaiting_approval',
    to: 'capturing',
    on: 'provider order APPROVED without a capture (capture queued)',
  },
  { from: 'awaiting_approval', to: 'captured', on: `${CAPTURE_SEEN}, receipt matches` },
  { from: 'awaiting_approval', to: 'pending_capture', on: `${CAPTURE_SEEN} PENDING` },
  { from: 'awaiting_approval', to: 'declined', on: `${CAPTURE_SEEN} DECLINED or FAILED` },
  { from: 'awaiting_approval', to: 'review', on: 'receipt mismatch, late capture, order missing or anomaly' },
  { from: 'awaiting_approval', to: 'expired', on: 'provider order not found' },
  { from: 'awaiting_approval', to: 'failed', on: 'provider order VOIDED' },
  { from: 'awaiting_approval', to: 'cancelled', on: 'cancellation or closed local order, no capture' },
  { from: 'capturing', to: 'captured', on: `${CAPTURE_SEEN}, receipt matches` },
  { from: 'capturing', to: 'pending_capture', on: `${CAPTURE_SEEN} PENDING` },
  { from: 'capturing', to: 'declined', on: 'capture DECLINED/FAILED or refused (INSTRUMENT_DECLINED, …)' },
  { from: 'capturing', to: 'review', on: 'receipt mismatch, late capture, order missing or anomaly' },
  {
    from: 'capturing',
    to: 'uncertain',
    on: 'capture answer lost, ORDER_ALREADY_CAPTURED, or no capture in it',
  },
  { from: 'capturing', to: 'awaiting_approval', on: 'ORDER_NOT_APPROVED, or withdrawn for a closed order' },
  { from: 'capturing', to: 'expired', on: 'provider order not found' },
  { from: 'capturing', to: 'failed', on: 'any other capture refusal, or order VOIDED' },
  { from: 'uncertain', to: 'awaiting_approval', on: 'replayed create answered, or order not approved' },
  { from: 'uncertain', to: 'capturing', on: 'provider order APPROVED without a capture (capture queued)' },
  { from: 'uncertain', to: 'captured', on: `${CAPTURE_SEEN}, receipt matches` },
  { from: 'uncertain', to: 'pending_capture', on: `${CAPTURE_SEEN} PENDING` },
  { from: 'uncertain', to: 'declined', on: `${CAPTURE_SEEN} DECLINED or FAILED` },
  { from: 'uncertain', to: 'review', on: 'receipt mismatch, late capture, order missing or anomaly' },
  { from: 'uncertain', to: 'expired', on: 'provider order not found' },
  { from: 'uncertain', to: 'failed', on: 'replayed create refused, or order VOIDED' },
  { from: 'uncertain', to: 'cancelled', on: 'cancellation or closed local order, provider shows no capture' },
  { from: 'pending_capture', to: 'captured', on: 'the capture COMPLETED, receipt matches' },
  { from: 'pending_capture', to: 'declined', on: 'the capture DECLINED or FAILED' },
  { from: 'pending_capture', to: 'review', on: 'receipt mismatch, or the local order closed' },
  { from: 'declined', to: 'review', on: 'late capture (money after giving up)' },
  { from: 'failed', to: 'review', on: 'late capture (money after giving up)' },
  { from: 'expired', to: 'review', on: 'late capture (money after giving up)' },
  { from: 'cancelled', to: 'review', on: 'late capture (money after giving up)' },
] as const satisfies readonly AttemptTransition[];

/** True when the machine has a move from `from` to `to`. */
export function isAttemptTransition(from: AttemptStatus, to: AttemptStatus): boolean {
  return ATTEMPT_TRANSITIONS.some((transition) => transition.from === from && transition.to === to);
}
