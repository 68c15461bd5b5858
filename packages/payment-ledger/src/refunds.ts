import { type Failure, fail, ok, type Result, type Success } from '@cartwright/commerce';
import * as v from 'valibot';
import { type LedgerDecision, type PaymentEffect, reviewEffect } from './effects.ts';
import {
  describeMoney,
  fromProviderValue,
  isSameMoney,
  type Money,
  type MoneyCode,
  type ProviderMoney,
  toProviderValue,
} from './money.ts';
import { ledgerPaymentState } from './payment-state.ts';
import { CAPTURED_STATUSES, type ProviderAnswer, type ProviderRefund } from './provider.ts';
import {
  type AttemptState,
  type PaymentAttempt,
  PENDING_REFUND_STATUSES,
  type RefundLedger,
  type RefundRecord,
  type RefundStatus,
  type ReviewReason,
} from './records.ts';
import { LedgerId, refundRequestId } from './request-ids.ts';

// Every refund reserves its amount against the capture when it is requested, so two requests can
// never both spend the same balance: confirmed + pending (reserved, sent, uncertain) never exceeds
// the captured amount through this ledger. A failed refund gives its reservation back; an
// uncertain one keeps it until the provider's answer settles it. What the provider reports is
// merged monotonically (a settled refund never returns to pending), so reports may repeat and
// arrive in any order.

/** Amounts in minor units of the ledger's currency. */
export interface RefundBalance {
  readonly captured: number;
  readonly confirmed: number;
  /** Reserved, sent and uncertain refunds: held until settled. */
  readonly pending: number;
  /** What a new refund may still take: captured − confirmed − pending, never below zero. */
  readonly remaining: number;
  /** How far confirmed + pending exceed the capture: only refunds the provider reported can do that. */
  readonly overcommitted: number;
}

const isPending = (status: RefundStatus) => PENDING_REFUND_STATUSES.some((pending) => pending === status);

export function refundBalance(ledger: RefundLedger): RefundBalance {
  let confirmed = 0;
  let pending = 0;
  for (const refund of ledger.refunds) {
    if (refund.status === 'confirmed') confirmed += refund.amount.amount;
    else if (isPending(refund.status)) pending += refund.amount.amount;
  }
  const committed = confirmed + pending;
  const captured = ledger.captured.amount;
  return {
    captured,
    confirmed,
    pending,
    remaining: Math.max(0, captured - committed),
    overcommitted: Math.max(0, committed - captured),
  };
}

/**
 * The refund ledger of the attempt's capture, which must be recorded as captured (a PENDING
 * capture cannot be refunded) with an amount in the attempt's currency.
 */
export function openRefundLedger(
  attempt: PaymentAttempt,
  state: AttemptState,
): Result<RefundLedger, 'NOT_CAPTURED' | 'CAPTURE_AMOUNT_UNKNOWN'> {
  const capture = state.capture;
  if (!capture || !CAPTURED_STATUSES.some((status) => status === capture.status)) {
    return fail('NOT_CAPTURED', `the attempt has no completed capture (${state.status})`);
  }
  if (!capture.amount) {
    return fail('CAPTURE_AMOUNT_UNKNOWN', `capture ${capture.id} is not in ${attempt.amount.currency}`);
  }
  return ok({
    attemptId: attempt.id,
    orderId: attempt.orderId,
    captureId: capture.id,
    captured: capture.amount,
    refunds: [],
  });
}

export interface RefundRequest {
  /** A new ledger id for the refund (it becomes part of the provider key). */
  readonly refundId: string;
  /** The merchant's Idempotency-Key: the same key answers the same refund. */
  readonly idempotencyKey: string;
  readonly amount: Money;
}

export type RefundRequestCode =
  | 'INVALID_REFUND_ID'
  | 'INVALID_IDEMPOTENCY_KEY'
  | 'IDEMPOTENCY_KEY_CONFLICT'
  | 'REFUND_ID_IN_USE'
  | 'INVALID_REFUND_AMOUNT'
  | 'REFUND_CURRENCY_MISMATCH'
  | 'AMOUNT_NOT_REPRESENTABLE'
  | 'REFUND_EXCEEDS_BALANCE';

/** A refund larger than what is left: `remaining` is the most a refund may take now. */
export interface RefundExceedsBalance extends Failure<'REFUND_EXCEEDS_BALANCE'> {
  readonly remaining: number;
}

export type RefundRequestFailure =
  | Failure<Exclude<RefundRequestCode, 'REFUND_EXCEEDS_BALANCE'>>
  | RefundExceedsBalance;

export interface RequestedRefund extends LedgerDecision {
  readonly refund: RefundRecord;
  /** The key was used before: `refund` is the earlier refund, nothing changed. */
  readonly replayed: boolean;
}

const IdempotencyKey = v.pipe(v.string(), v.minLength(1), v.maxLength(255));

/**
 * Reserves a refund against the captured balance and queues sending it. A replay of a known
 * idempotency key answers that refund unchanged (a different amount under it is a conflict); a
 * new refund must be a positive amount in the capture's currency and precision that the provider
 * can carry, and at most what remains (`REFUND_EXCEEDS_BALANCE` names `remaining`; the amount is
 * never trimmed).
 */
export function requestRefund(
  ledger: RefundLedger,
  request: RefundRequest,
): Success<RequestedRefund> | RefundRequestFailure {
  if (!v.is(LedgerId, request.refundId)) {
    return fail('INVALID_REFUND_ID', 'a refund id is 1 to 64 letters, digits, "-" or "_"');
  }
  if (!v.is(IdempotencyKey, request.idempotencyKey)) {
    return fail('INVALID_IDEMPOTENCY_KEY', 'an idempotency key is 1 to 255 characters');
  }
  const earlier = ledger.refunds.find((refund) => refund.idempotencyKey === request.idempotencyKey);
  if (earlier) {
    if (!isSameMoney(earlier.amount, request.amount)) {
      return fail(
        'IDEMPOTENCY_KEY_CONFLICT',
        `the key was used for a refund of ${describeMoney(earlier.amount)}, not ${describeMoney(request.amount)}`,
      );
    }
    return ok({ ledger, refund: earlier, replayed: true, effects: [] });
  }
  if (ledger.refunds.some((refund) => refund.id === request.refundId)) {
    return fail('REFUND_ID_IN_USE', `refund ${request.refundId} exists under another key`);
  }
  const amount = request.amount;
  if (!Number.isSafeInteger(amount.amount) || amount.amount < 1) {
    return fail(
      'INVALID_REFUND_AMOUNT',
      `a refund is a positive integer amount in minor units, not ${amount.amount}`,
    );
  }
  if (amount.currency !== ledger.captured.currency || amount.precision !== ledger.captured.precision) {
    return fail(
      'REFUND_CURRENCY_MISMATCH',
      `the capture is in ${ledger.captured.currency} at precision ${ledger.captured.precision}`,
    );
  }
  const value = toProviderValue(amount);
  if (!value.ok) return fail('AMOUNT_NOT_REPRESENTABLE', value.detail);
  const { remaining } = refundBalance(ledger);
  if (amount.amount > remaining) {
    return {
      ...fail(
        'REFUND_EXCEEDS_BALANCE',
        `${describeMoney(amount)} exceeds the remaining ${remaining} minor units`,
      ),
      remaining,
    };
  }
  const refund: RefundRecord = {
    id: request.refundId,
    captureId: ledger.captureId,
    amount: { ...amount },
    status: 'reserved',
    idempotencyKey: request.idempotencyKey,
    requestId: refundRequestId(request.refundId),
    providerRefundId: null,
    origin: 'ledger',
    kind: 'refund',
    failure: null,
    flagged: false,
  };
  const after = { ...ledger, refunds: [...ledger.refunds, refund] };
  return ok({
    ...decideLedger(ledger, after, [
      { kind: 'queue', job: 'refund', attemptId: ledger.attemptId, refundId: refund.id },
    ]),
    refund,
    replayed: false,
  });
}

export interface RefundCommand {
  readonly captureId: string;
  /** `PayPal-Request-Id`: the same for every try of this refund. */
  readonly requestId: string;
  /** Our refund id as `custom_id`, so the provider's reports name it. */
  readonly customId: string;
  readonly amount: ProviderMoney;
}

export type RefundLookupCode = 'UNKNOWN_REFUND' | 'NOT_OURS';

function ourRefund(ledger: RefundLedger, refundId: string): Result<RefundRecord, RefundLookupCode> {
  const refund = ledger.refunds.find((candidate) => candidate.id === refundId);
  if (!refund) return fail('UNKNOWN_REFUND', `the ledger has no refund ${refundId}`);
  if (refund.origin !== 'ledger' || refund.requestId === null) {
    return fail('NOT_OURS', `refund ${refundId} was reported by the provider, not requested here`);
  }
  return ok(refund);
}

const replaceRefund = (ledger: RefundLedger, refund: RefundRecord): RefundLedger => ({
  ...ledger,
  refunds: ledger.refunds.map((candidate) => (candidate.id === refund.id ? refund : candidate)),
});

export interface SentRefund {
  readonly ledger: RefundLedger;
  readonly refund: RefundRecord;
  readonly command: RefundCommand;
}

/**
 * Marks a reserved (or uncertain, or already sent) refund as sent and answers what to send. The
 * service stores the ledger before it calls the provider; a settled refund is not sent again.
 */
export function markRefundSent(
  ledger: RefundLedger,
  refundId: string,
): Result<SentRefund, RefundLookupCode | 'REFUND_SETTLED' | MoneyCode> {
  const found = ourRefund(ledger, refundId);
  if (!found.ok) return found;
  const refund = found.value;
  if (!isPending(refund.status))
    return fail('REFUND_SETTLED', `refund ${refundId} is already ${refund.status}`);
  const value = toProviderValue(refund.amount);
  if (!value.ok) return value;
  const sent: RefundRecord = { ...refund, status: 'sent' };
  return ok({
    ledger: replaceRefund(ledger, sent),
    refund: sent,
    command: {
      captureId: ledger.captureId,
      requestId: refund.requestId ?? refundRequestId(refund.id),
      customId: refund.id,
      amount: { currency: refund.amount.currency, value: value.value },
    },
  });
}

/** What a provider answer to a refund means for the refund record. */
export interface RefundOutcome {
  readonly status: 'sent' | 'confirmed' | 'failed' | 'uncertain';
  /** The provider's status or issue when the refund failed. */
  readonly failure: string | null;
}

/**
 * COMPLETED → confirmed; PENDING → sent (still held); FAILED, CANCELLED → failed; a refusal
 * (REFUND_AMOUNT_EXCEEDED, CAPTURE_FULLY_REFUNDED, …) or 404 → failed with the issue; a request
 * still in progress (409 PREVIOUS_REQUEST_IN_PROGRESS) or a lost answer → uncertain.
 */
export function refundOutcome(answer: ProviderAnswer<ProviderRefund>): RefundOutcome {
  switch (answer.outcome) {
    case 'done':
      switch (answer.value.status) {
        case 'COMPLETED':
          return { status: 'confirmed', failure: null };
        case 'PENDING':
          return { status: 'sent', failure: null };
        case 'FAILED':
        case 'CANCELLED':
          return { status: 'failed', failure: answer.value.status };
      }
      break;
    case 'refused':
      return answer.issue === 'PREVIOUS_REQUEST_IN_PROGRESS'
        ? { status: 'uncertain', failure: null }
        : { status: 'failed', failure: answer.issue };
    case 'not-found':
      return { status: 'failed', failure: 'INVALID_RESOURCE_ID' };
    case 'unknown':
      return { status: 'uncertain', failure: null };
  }
}

interface Merged {
  readonly refund: RefundRecord;
  readonly review: ReviewReason | null;
}

/**
 * Merges a reported outcome into a refund: pending statuses move to what is reported; a settled
 * refund stays settled. The one contradiction, failed and completed both reported, keeps
 * `confirmed` (the money left) and asks for review.
 */
function mergeOutcome(refund: RefundRecord, outcome: RefundOutcome): Merged {
  if (refund.status === 'confirmed') {
    return { refund, review: outcome.status === 'failed' ? 'refund-contradiction' : null };
  }
  if (refund.status === 'failed') {
    return outcome.status === 'confirmed'
      ? { refund: { ...refund, status: 'confirmed', failure: null }, review: 'refund-contradiction' }
      : { refund, review: null };
  }
  return { refund: { ...refund, status: outcome.status, failure: outcome.failure }, review: null };
}

/** Merges a provider refund object into one of the ledger's refunds, checking its amount first. */
function mergeReport(
  ledger: RefundLedger,
  refund: RefundRecord,
  report: ProviderRefund,
  kind: RefundRecord['kind'],
): Merged {
  const amount = readAmount(ledger, report.amount);
  if (!amount || !isSameMoney(amount, refund.amount)) return { refund, review: 'refund-mismatch' };
  const merged = mergeOutcome(refund, refundOutcome({ outcome: 'done', value: report }));
  // Only the provider reverses money; our own refunds stay refunds.
  const upgraded = refund.origin === 'provider' && kind === 'reversal' ? 'reversal' : merged.refund.kind;
  return { ...merged, refund: { ...merged.refund, providerRefundId: report.id, kind: upgraded } };
}

function readAmount(ledger: RefundLedger, amount: ProviderMoney): Money | null {
  if (amount.currency !== ledger.captured.currency) return null;
  const parsed = fromProviderValue(amount.value, ledger.captured.currency, ledger.captured.precision);
  return parsed.ok ? parsed.value : null;
}

/** Applies `merged` to the ledger; a review is flagged on the refund so it is raised once. */
function applyMerged(ledger: RefundLedger, merged: Merged, reviews: ReviewReason[]): RefundLedger {
  if (merged.review === null || merged.refund.flagged) return replaceRefund(ledger, merged.refund);
  reviews.push(merged.review);
  return replaceRefund(ledger, { ...merged.refund, flagged: true });
}

/**
 * Decides the provider's answer to our refund call: the refund object is merged (amount checked),
 * a refusal fails it with the issue and gives the reservation back, a lost answer or a request in
 * progress makes it uncertain (still held) and queues a replay with the same key. Answers that
 * reach a settled refund change nothing, except a completed refund reported for a failed one.
 */
export function applyRefundResponse(
  ledger: RefundLedger,
  refundId: string,
  answer: ProviderAnswer<ProviderRefund>,
): Result<LedgerDecision, RefundLookupCode> {
  const found = ourRefund(ledger, refundId);
  if (!found.ok) return found;
  const refund = found.value;
  const reviews: ReviewReason[] = [];
  if (answer.outcome === 'done') {
    const after = applyMerged(ledger, mergeReport(ledger, refund, answer.value, 'refund'), reviews);
    return ok(decideLedger(ledger, after, [], reviews));
  }
  if (!isPending(refund.status)) return ok({ ledger, effects: [] });
  const outcome = refundOutcome(answer);
  const after = replaceRefund(ledger, { ...refund, status: outcome.status, failure: outcome.failure });
  const queued: PaymentEffect[] =
    outcome.status === 'uncertain'
      ? [{ kind: 'queue', job: 'refund', attemptId: ledger.attemptId, refundId }]
      : [];
  return ok(decideLedger(ledger, after, queued));
}

export interface MergedRefunds extends LedgerDecision {
  /**
   * Reports that may be one of our refunds whose provider id we do not know yet (no custom id
   * echoed, and one of ours is pending without one): merged later, once our answer names it.
   */
  readonly deferred: readonly ProviderRefund[];
}

/**
 * Merges refunds the provider reports for this capture (a read of the capture, a refund webhook):
 * ours are found by provider id or echoed custom id and merged monotonically; unknown ones (made
 * in the provider's dashboard, or reversals by the provider) are recorded with origin `provider`.
 * Reports for another capture are not this ledger's and are skipped. Merging the same reports
 * again, or in another order, changes nothing more.
 */
export function mergeProviderRefunds(
  ledger: RefundLedger,
  reports: readonly ProviderRefund[],
  kind: RefundRecord['kind'] = 'refund',
): MergedRefunds {
  const reviews: ReviewReason[] = [];
  const deferred: ProviderRefund[] = [];
  let after = ledger;
  for (const report of reports) {
    if (report.captureId !== null && report.captureId !== ledger.captureId) continue;
    const known =
      after.refunds.find((refund) => refund.providerRefundId === report.id) ??
      after.refunds.find((refund) => refund.origin === 'ledger' && refund.id === report.customId);
    if (known) {
      after = applyMerged(after, mergeReport(after, known, report, kind), reviews);
      continue;
    }
    const undecided = after.refunds.some(
      (refund) => refund.origin === 'ledger' && refund.providerRefundId === null && isPending(refund.status),
    );
    if (!report.customId && undecided) {
      deferred.push(report);
      continue;
    }
    const amount = readAmount(after, report.amount);
    if (!amount) {
      reviews.push('refund-mismatch');
      continue;
    }
    const outcome = refundOutcome({ outcome: 'done', value: report });
    after = {
      ...after,
      refunds: [
        ...after.refunds,
        {
          id: `provider-${report.id}`.slice(0, 64),
          captureId: after.captureId,
          amount,
          status: outcome.status,
          idempotencyKey: null,
          requestId: null,
          providerRefundId: report.id,
          origin: 'provider',
          kind,
          failure: outcome.failure,
          flagged: false,
        },
      ],
    };
  }
  return { ...decideLedger(ledger, after, [], reviews), deferred };
}

/**
 * The ledger's effects from `before` to `after`: the order payment move when the derived state
 * changed, `payment.refunded` for each refund that became confirmed, a review per reason, then
 * the queued jobs.
 */
function decideLedger(
  before: RefundLedger,
  after: RefundLedger,
  queued: readonly PaymentEffect[],
  reviews: readonly ReviewReason[] = [],
): LedgerDecision {
  const effects: PaymentEffect[] = [];
  const paymentBefore = ledgerPaymentState(before);
  const paymentAfter = ledgerPaymentState(after);
  if (paymentAfter !== paymentBefore) {
    effects.push({ kind: 'move-order-payment', orderId: after.orderId, to: paymentAfter });
  }
  for (const refund of after.refunds) {
    const previous = before.refunds.find((candidate) => candidate.id === refund.id);
    if (refund.status !== 'confirmed' || previous?.status === 'confirmed') continue;
    effects.push({
      kind: 'emit',
      event: 'payment.refunded',
      payload: {
        attemptId: after.attemptId,
        orderId: after.orderId,
        captureId: after.captureId,
        refundId: refund.id,
        providerRefundId: refund.providerRefundId,
        amount: refund.amount.amount,
        currency: refund.amount.currency,
        precision: refund.amount.precision,
        origin: refund.origin,
        kind: refund.kind,
      },
    });
  }
  for (const reason of reviews)
    effects.push(reviewEffect({ attemptId: after.attemptId, orderId: after.orderId }, reason));
  effects.push(...queued);
  return { ledger: after, effects };
}
