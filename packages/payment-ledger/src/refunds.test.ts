import { describe, expect, it } from 'vitest';
import {
  attemptIn,
  CAPTURE_ID,
  completedOrder,
  done,
  eur,
  kinds,
  ledgerOf,
  notFound,
  OPEN_ORDER,
  type Reachable,
  refund,
  refused,
  succeeded,
  unknown,
} from '../test/fixtures.ts';
import type { Money } from './money.ts';
import type { ProviderAnswer, ProviderRefund } from './provider.ts';
import { applyCaptureResponse } from './provider-calls.ts';
import type { RefundLedger, RefundRecord } from './records.ts';
import {
  applyRefundResponse,
  markRefundSent,
  mergeProviderRefunds,
  openRefundLedger,
  type RefundOutcome,
  type RefundRequest,
  refundBalance,
  refundOutcome,
  requestRefund,
} from './refunds.ts';

const captured = attemptIn('captured');
const LEDGER = ledgerOf(captured);

const request = (amount: number, overrides: Partial<RefundRequest> = {}): RefundRequest => ({
  refundId: `r${amount}`,
  idempotencyKey: `k${amount}`,
  amount: eur(amount),
  ...overrides,
});

/** The ledger after reserving `amount` (id `r<amount>`, key `k<amount>`). */
function reserved(
  ledger: RefundLedger,
  amount: number,
  overrides: Partial<RefundRequest> = {},
): RefundLedger {
  return succeeded(requestRefund(ledger, request(amount, overrides))).ledger;
}

const refundIn = (ledger: RefundLedger, id: string): RefundRecord => {
  const found = ledger.refunds.find((candidate) => candidate.id === id);
  if (!found) expect.fail(`no refund ${id}`);
  return found;
};

function answered(ledger: RefundLedger, id: string, answer: ProviderAnswer<ProviderRefund>): RefundLedger {
  return succeeded(applyRefundResponse(ledger, id, answer)).ledger;
}

describe('openRefundLedger', () => {
  it('opens on the recorded capture', () => {
    expect(openRefundLedger(captured.attempt, captured.state)).toEqual({
      ok: true,
      value: { attemptId: 'a1', orderId: 'o1', captureId: CAPTURE_ID, captured: eur(1290), refunds: [] },
    });
  });

  it('holds refunds against the amount actually captured, also for a mismatching capture', () => {
    const review = attemptIn('review');
    expect(openRefundLedger(review.attempt, review.state)).toMatchObject({
      ok: true,
      value: { captured: eur(100) },
    });
  });

  it.each<Reachable>(['creating', 'awaiting_approval', 'pending_capture', 'declined', 'cancelled'])(
    'refuses an attempt that is %s',
    (status) => {
      const { attempt, state } = attemptIn(status);
      expect(openRefundLedger(attempt, state)).toMatchObject({ ok: false, code: 'NOT_CAPTURED' });
    },
  );

  it('refuses a capture in another currency', () => {
    const { attempt, state } = attemptIn('capturing');
    const usd = applyCaptureResponse(
      attempt,
      state,
      done(completedOrder({ amount: { currency: 'USD', value: '12.90' } })),
      OPEN_ORDER,
    );
    expect(openRefundLedger(attempt, usd.state)).toMatchObject({ ok: false, code: 'CAPTURE_AMOUNT_UNKNOWN' });
  });
});

describe('requestRefund', () => {
  it('reserves the amount and queues sending it', () => {
    const requested = succeeded(requestRefund(LEDGER, request(500)));
    const expected: RefundRecord = {
      id: 'r500',
      captureId: CAPTURE_ID,
      amount: eur(500),
      status: 'reserved',
      idempotencyKey: 'k500',
      requestId: 'cw-r500-refund',
      providerRefundId: null,
      origin: 'ledger',
      kind: 'refund',
      failure: null,
      flagged: false,
    };
    expect(requested).toEqual({
      ledger: { ...LEDGER, refunds: [expected] },
      refund: expected,
      replayed: false,
      effects: [{ kind: 'queue', job: 'refund', attemptId: 'a1', refundId: 'r500' }],
    });
    expect(refundBalance(requested.ledger)).toEqual({
      captured: 1290,
      confirmed: 0,
      pending: 500,
      remaining: 790,
      overcommitted: 0,
    });
  });

  it('answers a replayed key with the earlier refund, changing nothing', () => {
    const ledger = reserved(LEDGER, 500);
    const replay = succeeded(requestRefund(ledger, request(500, { refundId: 'another-id' })));
    expect(replay).toEqual({ ledger, refund: refundIn(ledger, 'r500'), replayed: true, effects: [] });
  });

  it('answers a replay of a refund that failed with that failed refund', () => {
    const failed = answered(reserved(LEDGER, 500), 'r500', refused('REFUND_NOT_ALLOWED'));
    const replay = succeeded(requestRefund(failed, request(500)));
    expect(replay).toMatchObject({ replayed: true, refund: { id: 'r500', status: 'failed' }, effects: [] });
  });

  it('takes exactly the remaining balance, and not one minor unit more', () => {
    const partly = reserved(LEDGER, 290);
    expect(requestRefund(partly, request(1001))).toEqual({
      ok: false,
      code: 'REFUND_EXCEEDS_BALANCE',
      detail: 'EUR 10.01 exceeds the remaining 1000 minor units',
      remaining: 1000,
    });
    const full = reserved(partly, 1000);
    expect(refundBalance(full).remaining).toBe(0);
    expect(requestRefund(full, request(1))).toMatchObject({
      ok: false,
      code: 'REFUND_EXCEEDS_BALANCE',
      remaining: 0,
    });
  });

  it.each<[string, (ledger: RefundLedger) => RefundLedger, RefundRequest, string]>([
    ['a refund id with a space', (l) => l, request(5, { refundId: 'r 5' }), 'INVALID_REFUND_ID'],
    ['an empty idempotency key', (l) => l, request(5, { idempotencyKey: '' }), 'INVALID_IDEMPOTENCY_KEY'],
    [
      'a key used for another amount',
      (l) => reserved(l, 500),
      request(600, { idempotencyKey: 'k500' }),
      'IDEMPOTENCY_KEY_CONFLICT',
    ],
    [
      'a refund id used under another key',
      (l) => reserved(l, 500),
      request(600, { refundId: 'r500' }),
      'REFUND_ID_IN_USE',
    ],
    ['a zero amount', (l) => l, request(0), 'INVALID_REFUND_AMOUNT'],
    ['a negative amount', (l) => l, request(-5), 'INVALID_REFUND_AMOUNT'],
    ['a fractional amount', (l) => l, { ...request(5), amount: eur(5.5) }, 'INVALID_REFUND_AMOUNT'],
    [
      'another currency',
      (l) => l,
      { ...request(5), amount: { amount: 5, currency: 'USD', precision: 2 } },
      'REFUND_CURRENCY_MISMATCH',
    ],
    [
      'another precision',
      (l) => l,
      { ...request(50), amount: { amount: 50, currency: 'EUR', precision: 3 } },
      'REFUND_CURRENCY_MISMATCH',
    ],
    ['more than was captured', (l) => l, request(1291), 'REFUND_EXCEEDS_BALANCE'],
  ])('refuses %s', (_name, prepare, refundRequest, code) => {
    const ledger = prepare(LEDGER);
    expect(requestRefund(ledger, refundRequest)).toMatchObject({ ok: false, code });
  });

  it('refuses an amount the provider cannot carry', () => {
    const { attempt, state } = attemptIn('capturing', {
      amount: { amount: 12900, currency: 'HUF', precision: 2 },
    });
    const hufCapture = done(completedOrder({ amount: { currency: 'HUF', value: '129' } }));
    const huf = ledgerOf({
      attempt,
      state: applyCaptureResponse(attempt, state, hufCapture, OPEN_ORDER).state,
    });
    expect(huf.captured).toEqual({ amount: 12900, currency: 'HUF', precision: 2 });
    const fillér: Money = { amount: 50, currency: 'HUF', precision: 2 };
    expect(requestRefund(huf, { refundId: 'r1', idempotencyKey: 'k1', amount: fillér })).toMatchObject({
      ok: false,
      code: 'AMOUNT_NOT_REPRESENTABLE',
    });
  });

  it('gives a failed refund’s reservation back and keeps an uncertain one’s', () => {
    const both = reserved(reserved(LEDGER, 500), 700);
    const settled = answered(answered(both, 'r500', refused('REFUND_NOT_ALLOWED')), 'r700', unknown);
    expect(refundBalance(settled)).toMatchObject({ pending: 700, remaining: 590 });
    expect(requestRefund(settled, request(591))).toMatchObject({ ok: false, remaining: 590 });
  });
});

describe('refundBalance', () => {
  it('counts confirmed, pending (reserved, sent, uncertain) and nothing for failed refunds', () => {
    let ledger = reserved(reserved(reserved(reserved(reserved(LEDGER, 100), 200), 300), 400), 50);
    ledger = succeeded(markRefundSent(ledger, 'r200')).ledger;
    ledger = answered(ledger, 'r300', unknown);
    ledger = answered(ledger, 'r400', done(refund('COMPLETED', '4.00')));
    ledger = answered(ledger, 'r50', done(refund('FAILED', '0.50', { id: 'R50' })));
    expect(refundBalance(ledger)).toEqual({
      captured: 1290,
      confirmed: 400,
      pending: 600,
      remaining: 290,
      overcommitted: 0,
    });
  });
});

describe('markRefundSent', () => {
  it('marks the refund sent and answers the command with its fixed key', () => {
    const sent = succeeded(markRefundSent(reserved(LEDGER, 500), 'r500'));
    expect(sent.refund.status).toBe('sent');
    expect(refundIn(sent.ledger, 'r500').status).toBe('sent');
    expect(sent.command).toEqual({
      captureId: CAPTURE_ID,
      requestId: 'cw-r500-refund',
      customId: 'r500',
      amount: { currency: 'EUR', value: '5.00' },
    });
  });

  it('sends an uncertain refund again, and a sent one again, with the same key', () => {
    const uncertain = answered(reserved(LEDGER, 500), 'r500', unknown);
    expect(succeeded(markRefundSent(uncertain, 'r500')).command.requestId).toBe('cw-r500-refund');
    const sent = succeeded(markRefundSent(reserved(LEDGER, 500), 'r500')).ledger;
    expect(succeeded(markRefundSent(sent, 'r500')).refund.status).toBe('sent');
  });

  it.each<[string, (ledger: RefundLedger) => RefundLedger, string, string]>([
    ['an unknown refund', (l) => l, 'nope', 'UNKNOWN_REFUND'],
    [
      'a confirmed refund',
      (l) => answered(reserved(l, 500), 'r500', done(refund('COMPLETED', '5.00'))),
      'r500',
      'REFUND_SETTLED',
    ],
    [
      'a failed refund',
      (l) => answered(reserved(l, 500), 'r500', refused('REFUND_NOT_ALLOWED')),
      'r500',
      'REFUND_SETTLED',
    ],
    [
      'a refund the provider reported',
      (l) => mergeProviderRefunds(l, [refund('COMPLETED', '1.00')]).ledger,
      'provider-R1',
      'NOT_OURS',
    ],
  ])('refuses %s', (_name, prepare, id, code) => {
    expect(markRefundSent(prepare(LEDGER), id)).toMatchObject({ ok: false, code });
  });
});

describe('refundOutcome', () => {
  it.each<[string, ProviderAnswer<ProviderRefund>, RefundOutcome]>([
    ['COMPLETED', done(refund('COMPLETED', '1.00')), { status: 'confirmed', failure: null }],
    ['PENDING', done(refund('PENDING', '1.00')), { status: 'sent', failure: null }],
    ['FAILED', done(refund('FAILED', '1.00')), { status: 'failed', failure: 'FAILED' }],
    ['CANCELLED', done(refund('CANCELLED', '1.00')), { status: 'failed', failure: 'CANCELLED' }],
    [
      'REFUND_AMOUNT_EXCEEDED',
      refused('REFUND_AMOUNT_EXCEEDED'),
      { status: 'failed', failure: 'REFUND_AMOUNT_EXCEEDED' },
    ],
    [
      'CAPTURE_FULLY_REFUNDED',
      refused('CAPTURE_FULLY_REFUNDED'),
      { status: 'failed', failure: 'CAPTURE_FULLY_REFUNDED' },
    ],
    [
      'PREVIOUS_REQUEST_IN_PROGRESS',
      refused('PREVIOUS_REQUEST_IN_PROGRESS', 409),
      { status: 'uncertain', failure: null },
    ],
    ['a 404', notFound, { status: 'failed', failure: 'INVALID_RESOURCE_ID' }],
    ['a lost answer', unknown, { status: 'uncertain', failure: null }],
  ])('%s', (_name, answer, outcome) => {
    expect(refundOutcome(answer)).toEqual(outcome);
  });
});

describe('applyRefundResponse', () => {
  const sent = succeeded(markRefundSent(reserved(LEDGER, 500), 'r500')).ledger;

  it('confirms a COMPLETED refund, records its provider id and moves the order payment', () => {
    const decision = succeeded(applyRefundResponse(sent, 'r500', done(refund('COMPLETED', '5.00'))));
    expect(refundIn(decision.ledger, 'r500')).toMatchObject({ status: 'confirmed', providerRefundId: 'R1' });
    expect(decision.effects).toEqual([
      { kind: 'move-order-payment', orderId: 'o1', to: 'refunded_partially' },
      {
        kind: 'emit',
        event: 'payment.refunded',
        payload: {
          attemptId: 'a1',
          orderId: 'o1',
          captureId: CAPTURE_ID,
          refundId: 'r500',
          providerRefundId: 'R1',
          amount: 500,
          currency: 'EUR',
          precision: 2,
          origin: 'ledger',
          kind: 'refund',
        },
      },
    ]);
  });

  it('moves the order payment to refunded once everything is refunded', () => {
    const whole = succeeded(markRefundSent(reserved(LEDGER, 1290), 'r1290')).ledger;
    const decision = succeeded(applyRefundResponse(whole, 'r1290', done(refund('COMPLETED', '12.90'))));
    expect(decision.effects[0]).toEqual({ kind: 'move-order-payment', orderId: 'o1', to: 'refunded' });
  });

  it.each<[string, ProviderAnswer<ProviderRefund>, Partial<RefundRecord>, string[]]>([
    ['PENDING', done(refund('PENDING', '5.00')), { status: 'sent', providerRefundId: 'R1' }, []],
    ['FAILED', done(refund('FAILED', '5.00')), { status: 'failed', failure: 'FAILED' }, []],
    [
      'REFUND_AMOUNT_EXCEEDED',
      refused('REFUND_AMOUNT_EXCEEDED'),
      { status: 'failed', failure: 'REFUND_AMOUNT_EXCEEDED' },
      [],
    ],
    ['a 404', notFound, { status: 'failed', failure: 'INVALID_RESOURCE_ID' }, []],
    [
      'PREVIOUS_REQUEST_IN_PROGRESS',
      refused('PREVIOUS_REQUEST_IN_PROGRESS', 409),
      { status: 'uncertain' },
      ['queue'],
    ],
    ['a lost answer', unknown, { status: 'uncertain' }, ['queue']],
  ])('decides %s', (_name, answer, expected, effectKinds) => {
    const decision = succeeded(applyRefundResponse(sent, 'r500', answer));
    expect(refundIn(decision.ledger, 'r500')).toMatchObject(expected);
    expect(kinds(decision.effects)).toEqual(effectKinds);
    if (effectKinds.length > 0) {
      expect(decision.effects).toEqual([{ kind: 'queue', job: 'refund', attemptId: 'a1', refundId: 'r500' }]);
    }
  });

  it('keeps the reservation and asks for review, once, when the provider refunded another amount', () => {
    const first = succeeded(applyRefundResponse(sent, 'r500', done(refund('COMPLETED', '5.01'))));
    expect(refundIn(first.ledger, 'r500')).toMatchObject({
      status: 'sent',
      flagged: true,
      providerRefundId: null,
    });
    expect(first.effects).toMatchObject([
      { kind: 'move-order-to-payment-review', reason: 'refund-mismatch' },
    ]);
    const again = succeeded(applyRefundResponse(first.ledger, 'r500', done(refund('COMPLETED', '5.01'))));
    expect(again.effects).toEqual([]);
  });

  it('never unsettles a settled refund, and reports a contradiction once', () => {
    const confirmed = answered(sent, 'r500', done(refund('COMPLETED', '5.00')));
    for (const answer of [
      unknown,
      refused('REFUND_NOT_ALLOWED'),
      notFound,
      done(refund('PENDING', '5.00')),
    ]) {
      expect(succeeded(applyRefundResponse(confirmed, 'r500', answer))).toEqual({
        ledger: confirmed,
        effects: [],
      });
    }
    const contradicted = succeeded(applyRefundResponse(confirmed, 'r500', done(refund('FAILED', '5.00'))));
    expect(refundIn(contradicted.ledger, 'r500')).toMatchObject({ status: 'confirmed', flagged: true });
    expect(kinds(contradicted.effects)).toEqual(['move-order-to-payment-review']);
    expect(
      succeeded(applyRefundResponse(contradicted.ledger, 'r500', done(refund('FAILED', '5.00')))).effects,
    ).toEqual([]);
  });

  it('confirms a failed refund the provider reports completed after all, for review', () => {
    const failed = answered(sent, 'r500', refused('REFUND_FAILED_INSUFFICIENT_FUNDS'));
    const decision = succeeded(applyRefundResponse(failed, 'r500', done(refund('COMPLETED', '5.00'))));
    expect(refundIn(decision.ledger, 'r500')).toMatchObject({
      status: 'confirmed',
      failure: null,
      flagged: true,
    });
    expect(kinds(decision.effects)).toEqual(['move-order-payment', 'emit', 'move-order-to-payment-review']);
  });

  it.each([
    ['UNKNOWN_REFUND', 'nope'],
    ['NOT_OURS', 'provider-R9'],
  ])('refuses with %s', (code, id) => {
    const ledger = mergeProviderRefunds(LEDGER, [refund('COMPLETED', '1.00', { id: 'R9' })]).ledger;
    expect(applyRefundResponse(ledger, id, unknown)).toMatchObject({ ok: false, code });
  });
});

describe('mergeProviderRefunds', () => {
  const sent = succeeded(markRefundSent(reserved(LEDGER, 500), 'r500')).ledger;

  it('finds our refund by the echoed custom id and merges it, once', () => {
    const merged = mergeProviderRefunds(sent, [refund('COMPLETED', '5.00', { customId: 'r500' })]);
    expect(refundIn(merged.ledger, 'r500')).toMatchObject({ status: 'confirmed', providerRefundId: 'R1' });
    expect(kinds(merged.effects)).toEqual(['move-order-payment', 'emit']);
    expect(merged.deferred).toEqual([]);
    const again = mergeProviderRefunds(merged.ledger, [refund('COMPLETED', '5.00', { customId: 'r500' })]);
    expect(again).toEqual({ ledger: merged.ledger, effects: [], deferred: [] });
  });

  it('finds our refund by its provider id, whatever order the reports come in', () => {
    const pending = answered(sent, 'r500', done(refund('PENDING', '5.00')));
    const completedFirst = mergeProviderRefunds(pending, [
      refund('COMPLETED', '5.00'),
      refund('PENDING', '5.00'),
    ]);
    const pendingFirst = mergeProviderRefunds(pending, [
      refund('PENDING', '5.00'),
      refund('COMPLETED', '5.00'),
    ]);
    expect(completedFirst.ledger).toEqual(pendingFirst.ledger);
    expect(refundIn(completedFirst.ledger, 'r500').status).toBe('confirmed');
  });

  it('records a refund made elsewhere (the provider’s dashboard) as the provider’s', () => {
    const merged = mergeProviderRefunds(LEDGER, [refund('COMPLETED', '2.90', { id: 'DASH1' })]);
    expect(merged.ledger.refunds).toEqual([
      {
        id: 'provider-DASH1',
        captureId: CAPTURE_ID,
        amount: eur(290),
        status: 'confirmed',
        idempotencyKey: null,
        requestId: null,
        providerRefundId: 'DASH1',
        origin: 'provider',
        kind: 'refund',
        failure: null,
        flagged: false,
      },
    ]);
    expect(merged.effects[0]).toEqual({
      kind: 'move-order-payment',
      orderId: 'o1',
      to: 'refunded_partially',
    });
    expect(merged.effects[1]).toMatchObject({ event: 'payment.refunded', payload: { origin: 'provider' } });
    expect(refundBalance(merged.ledger).remaining).toBe(1000);
  });

  it('defers a report it cannot tell from one of our pending refunds', () => {
    const merged = mergeProviderRefunds(sent, [refund('COMPLETED', '5.00', { id: 'UNSEEN' })]);
    expect(merged).toEqual({
      ledger: sent,
      effects: [],
      deferred: [refund('COMPLETED', '5.00', { id: 'UNSEEN' })],
    });
    // With a custom id that is not ours, it is someone else's refund.
    const named = mergeProviderRefunds(sent, [
      refund('COMPLETED', '1.00', { id: 'UNSEEN', customId: 'theirs' }),
    ]);
    expect(named.ledger.refunds.map((entry) => entry.id)).toEqual(['r500', 'provider-UNSEEN']);
  });

  it('skips refunds of another capture', () => {
    expect(mergeProviderRefunds(LEDGER, [refund('COMPLETED', '1.00', { captureId: 'OTHER' })])).toEqual({
      ledger: LEDGER,
      effects: [],
      deferred: [],
    });
  });

  it('asks for review of a refund it cannot read, recording nothing', () => {
    const merged = mergeProviderRefunds(LEDGER, [refund('COMPLETED', '1.001')]);
    expect(merged.ledger).toBe(LEDGER);
    expect(merged.effects).toMatchObject([
      { kind: 'move-order-to-payment-review', reason: 'refund-mismatch' },
    ]);
  });

  it('turns a reversal into a chargeback, also for a refund first seen as a refund', () => {
    const reversal = mergeProviderRefunds(LEDGER, [refund('COMPLETED', '12.90', { id: 'REV1' })], 'reversal');
    expect(refundIn(reversal.ledger, 'provider-REV1').kind).toBe('reversal');
    expect(reversal.effects[0]).toEqual({ kind: 'move-order-payment', orderId: 'o1', to: 'chargeback' });
    const seenAsRefund = mergeProviderRefunds(LEDGER, [refund('COMPLETED', '12.90', { id: 'REV1' })]).ledger;
    const upgraded = mergeProviderRefunds(
      seenAsRefund,
      [refund('COMPLETED', '12.90', { id: 'REV1' })],
      'reversal',
    );
    expect(refundIn(upgraded.ledger, 'provider-REV1').kind).toBe('reversal');
    expect(upgraded.effects).toEqual([{ kind: 'move-order-payment', orderId: 'o1', to: 'chargeback' }]);
  });

  it('never turns our own refund into a reversal', () => {
    const merged = mergeProviderRefunds(
      sent,
      [refund('COMPLETED', '5.00', { customId: 'r500' })],
      'reversal',
    );
    expect(refundIn(merged.ledger, 'r500').kind).toBe('refund');
  });

  it('reports what refunds from elsewhere overcommit, and lets no new refund add to it', () => {
    const mostly = reserved(LEDGER, 1000);
    const merged = mergeProviderRefunds(mostly, [
      refund('COMPLETED', '5.00', { id: 'DASH', customId: 'theirs' }),
    ]).ledger;
    expect(refundBalance(merged)).toEqual({
      captured: 1290,
      confirmed: 500,
      pending: 1000,
      remaining: 0,
      overcommitted: 210,
    });
    expect(requestRefund(merged, request(1))).toMatchObject({
      ok: false,
      code: 'REFUND_EXCEEDS_BALANCE',
      remaining: 0,
    });
  });
});
