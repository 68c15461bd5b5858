import { PaymentState } from '@cartwright/commerce';
import { describe, expect, it } from 'vitest';
import {
  advance,
  attemptIn,
  CANCELLED_ORDER,
  completedOrder,
  done,
  eur,
  ledgerOf,
  type Reachable,
} from '../test/fixtures.ts';
import { ledgerPaymentState, orderPaymentState } from './payment-state.ts';
import { reconcile } from './reconcile.ts';
import type { RefundLedger, RefundRecord } from './records.ts';

describe('orderPaymentState', () => {
  it.each<[Reachable, PaymentState | null]>([
    ['creating', 'open'],
    ['awaiting_approval', 'open'],
    ['capturing', 'open'],
    ['uncertain-create', 'open'],
    ['uncertain-capture', 'open'],
    ['pending_capture', 'unconfirmed'],
    ['captured', 'paid'],
    ['declined', 'failed'],
    ['failed', 'failed'],
    ['expired', 'cancelled'],
    ['cancelled', 'cancelled'],
    ['review', null],
  ])('%s → %s', (status, expected) => {
    const { state } = attemptIn(status);
    expect(orderPaymentState(state, null)).toBe(expected);
  });

  it('answers paid for a late capture in review, and follows its refunds', () => {
    const cancelled = attemptIn('cancelled');
    const late = advance(
      cancelled,
      reconcile(cancelled.attempt, cancelled.state, done(completedOrder()), CANCELLED_ORDER),
    );
    expect(orderPaymentState(late.state, null)).toBe('paid');
    const ledger = ledgerOf(late);
    expect(orderPaymentState(late.state, withRefunds(ledger, [confirmed(ledger, 290)]))).toBe(
      'refunded_partially',
    );
  });

  it('uses the ledger of a captured attempt', () => {
    const captured = attemptIn('captured');
    const ledger = ledgerOf(captured);
    expect(orderPaymentState(captured.state, withRefunds(ledger, [confirmed(ledger, 1290)]))).toBe(
      'refunded',
    );
  });

  it('only ever names states of commerce’s payment machine', () => {
    const statuses: Reachable[] = ['creating', 'pending_capture', 'captured', 'declined', 'expired'];
    for (const status of statuses) {
      expect(PaymentState.options).toContain(orderPaymentState(attemptIn(status).state, null));
    }
  });
});

function confirmed(
  ledger: RefundLedger,
  amount: number,
  kind: RefundRecord['kind'] = 'refund',
): RefundRecord {
  return {
    id: `r${amount}${kind}`,
    captureId: ledger.captureId,
    amount: eur(amount),
    status: 'confirmed',
    idempotencyKey: `k${amount}${kind}`,
    requestId: null,
    providerRefundId: null,
    origin: kind === 'reversal' ? 'provider' : 'ledger',
    kind,
    failure: null,
    flagged: false,
  };
}

const withRefunds = (ledger: RefundLedger, refunds: RefundRecord[]): RefundLedger => ({ ...ledger, refunds });

describe('ledgerPaymentState', () => {
  const ledger = ledgerOf(attemptIn('captured'));

  it.each<[string, (l: RefundLedger) => RefundRecord[], string]>([
    ['no refunds', () => [], 'paid'],
    ['a pending refund', (l) => [{ ...confirmed(l, 1290), status: 'sent' }], 'paid'],
    ['a failed refund', (l) => [{ ...confirmed(l, 1290), status: 'failed' }], 'paid'],
    ['part confirmed', (l) => [confirmed(l, 290)], 'refunded_partially'],
    ['all confirmed in parts', (l) => [confirmed(l, 290), confirmed(l, 1000)], 'refunded'],
    ['a confirmed reversal', (l) => [confirmed(l, 1290, 'reversal')], 'chargeback'],
    [
      'a reversal after a partial refund',
      (l) => [confirmed(l, 290), confirmed(l, 1000, 'reversal')],
      'chargeback',
    ],
  ])('%s → %s', (_name, refunds, expected) => {
    expect(ledgerPaymentState(withRefunds(ledger, refunds(ledger)))).toBe(expected);
  });
});
