import { describe, expect, it } from 'vitest';
import {
  advance,
  attemptIn,
  CANCELLED_ORDER,
  capture,
  completedOrder,
  done,
  kinds,
  notFound,
  OPEN_ORDER,
  order,
  type Reachable,
  refused,
  unknown,
} from '../test/fixtures.ts';
import type { EffectKind } from './effects.ts';
import type { ProviderAnswer, ProviderOrder } from './provider.ts';
import { type CancellationOutcome, decideCancellation, reconcile } from './reconcile.ts';
import type { AttemptStatus, LocalOrder } from './records.ts';

type Answer = ProviderAnswer<ProviderOrder>;

const APPROVED = done(order('APPROVED'));
const CREATED = done(order('CREATED'));
const CAPTURED = done(completedOrder());
const PENDING = done(completedOrder({ status: 'PENDING' }));
const DECLINED = done(completedOrder({ status: 'DECLINED' }));
const MISMATCH = done(completedOrder({ amount: { currency: 'EUR', value: '12.00' } }));

const MISSING: LocalOrder = null;
const PAID: EffectKind[] = ['move-order-payment', 'emit'];
const RELEASED: EffectKind[] = ['move-order-payment', 'release-stock'];
const REVIEW: EffectKind[] = ['move-order-to-payment-review'];
const LATE_PAID: EffectKind[] = ['move-order-payment', 'emit', 'move-order-to-payment-review'];

describe('reconcile', () => {
  it.each<[Reachable, string, Answer, LocalOrder, AttemptStatus, EffectKind[]]>([
    ['awaiting_approval', 'APPROVED', APPROVED, OPEN_ORDER, 'capturing', ['queue']],
    ['awaiting_approval', 'CREATED', CREATED, OPEN_ORDER, 'awaiting_approval', []],
    [
      'awaiting_approval',
      'PAYER_ACTION_REQUIRED',
      done(order('PAYER_ACTION_REQUIRED')),
      OPEN_ORDER,
      'awaiting_approval',
      [],
    ],
    ['awaiting_approval', 'a matching capture', CAPTURED, OPEN_ORDER, 'captured', PAID],
    [
      'awaiting_approval',
      'a PENDING capture',
      PENDING,
      OPEN_ORDER,
      'pending_capture',
      ['move-order-payment'],
    ],
    ['awaiting_approval', 'COMPLETED with a DECLINED capture', DECLINED, OPEN_ORDER, 'declined', RELEASED],
    ['awaiting_approval', 'a mismatching capture', MISMATCH, OPEN_ORDER, 'review', REVIEW],
    [
      'awaiting_approval',
      'COMPLETED without a capture',
      done(order('COMPLETED')),
      OPEN_ORDER,
      'review',
      REVIEW,
    ],
    ['awaiting_approval', 'VOIDED', done(order('VOIDED')), OPEN_ORDER, 'failed', RELEASED],
    ['awaiting_approval', 'a 404', notFound, OPEN_ORDER, 'expired', RELEASED],
    ['awaiting_approval', 'a lost read', unknown, OPEN_ORDER, 'awaiting_approval', []],
    [
      'awaiting_approval',
      'a refused read',
      refused('NOT_AUTHORIZED', 403),
      OPEN_ORDER,
      'awaiting_approval',
      [],
    ],
    ['awaiting_approval', 'APPROVED for a cancelled order', APPROVED, CANCELLED_ORDER, 'cancelled', RELEASED],
    ['awaiting_approval', 'CREATED for a cancelled order', CREATED, CANCELLED_ORDER, 'cancelled', RELEASED],
    ['awaiting_approval', 'a capture for a cancelled order', CAPTURED, CANCELLED_ORDER, 'review', LATE_PAID],
    [
      'awaiting_approval',
      'a PENDING capture for a cancelled order',
      PENDING,
      CANCELLED_ORDER,
      'review',
      REVIEW,
    ],
    ['awaiting_approval', 'a capture for a missing order', CAPTURED, MISSING, 'review', REVIEW],
    ['awaiting_approval', 'APPROVED for a missing order', APPROVED, MISSING, 'cancelled', RELEASED],
    ['capturing', 'APPROVED (the capture job owns the call)', APPROVED, OPEN_ORDER, 'capturing', []],
    ['capturing', 'APPROVED for a cancelled order', APPROVED, CANCELLED_ORDER, 'capturing', []],
    ['capturing', 'CREATED', CREATED, OPEN_ORDER, 'capturing', []],
    ['capturing', 'a matching capture', CAPTURED, OPEN_ORDER, 'captured', PAID],
    ['capturing', 'a 404', notFound, OPEN_ORDER, 'expired', RELEASED],
    ['uncertain-capture', 'APPROVED (send again, same key)', APPROVED, OPEN_ORDER, 'capturing', ['queue']],
    ['uncertain-capture', 'CREATED (never approved)', CREATED, OPEN_ORDER, 'awaiting_approval', []],
    ['uncertain-capture', 'a matching capture', CAPTURED, OPEN_ORDER, 'captured', PAID],
    ['uncertain-capture', 'APPROVED for a cancelled order', APPROVED, CANCELLED_ORDER, 'cancelled', RELEASED],
    ['uncertain-capture', 'a 404', notFound, OPEN_ORDER, 'expired', RELEASED],
    ['uncertain-capture', 'a lost read', unknown, OPEN_ORDER, 'uncertain', []],
    ['uncertain-create', 'anything (the replay settles it)', CAPTURED, OPEN_ORDER, 'uncertain', []],
    ['uncertain-create', 'a cancelled order', CREATED, CANCELLED_ORDER, 'uncertain', []],
    ['creating', 'anything (no provider order yet)', APPROVED, OPEN_ORDER, 'creating', []],
    [
      'creating',
      'a cancelled order (no approval link exists)',
      notFound,
      CANCELLED_ORDER,
      'cancelled',
      RELEASED,
    ],
    ['pending_capture', 'the same PENDING capture', PENDING, OPEN_ORDER, 'pending_capture', []],
    ['pending_capture', 'the capture COMPLETED', CAPTURED, OPEN_ORDER, 'captured', PAID],
    ['pending_capture', 'the capture DECLINED', DECLINED, OPEN_ORDER, 'declined', RELEASED],
    ['pending_capture', 'a 404 (money may be on its way)', notFound, OPEN_ORDER, 'pending_capture', []],
    ['pending_capture', 'no capture listed', APPROVED, OPEN_ORDER, 'pending_capture', []],
    [
      'pending_capture',
      'the capture COMPLETED for a cancelled order',
      CAPTURED,
      CANCELLED_ORDER,
      'review',
      LATE_PAID,
    ],
    ['captured', 'a 404', notFound, OPEN_ORDER, 'captured', []],
    ['captured', 'a DECLINED capture', DECLINED, OPEN_ORDER, 'captured', []],
    ['captured', 'APPROVED', APPROVED, OPEN_ORDER, 'captured', []],
    ['cancelled', 'a capture after all (late)', CAPTURED, OPEN_ORDER, 'review', LATE_PAID],
    ['cancelled', 'a PENDING capture after all', PENDING, OPEN_ORDER, 'review', REVIEW],
    ['cancelled', 'APPROVED (never captured now)', APPROVED, OPEN_ORDER, 'cancelled', []],
    ['cancelled', 'a DECLINED capture', DECLINED, OPEN_ORDER, 'cancelled', []],
    ['cancelled', 'a 404', notFound, OPEN_ORDER, 'cancelled', []],
    ['expired', 'a capture after all (late)', CAPTURED, OPEN_ORDER, 'review', LATE_PAID],
    ['declined', 'a capture after all (late)', CAPTURED, OPEN_ORDER, 'review', LATE_PAID],
    ['failed', 'VOIDED again', done(order('VOIDED')), OPEN_ORDER, 'failed', []],
    ['review', 'the capture again', CAPTURED, OPEN_ORDER, 'review', []],
  ])('%s + %s', (status, _name, answer, localOrder, expected, effectKinds) => {
    const { attempt, state } = attemptIn(status);
    const decision = reconcile(attempt, state, answer, localOrder);
    expect(decision.state.status).toBe(expected);
    expect(kinds(decision.effects)).toEqual(effectKinds);
  });

  it('queues the capture with the attempt id and records nothing else', () => {
    const { attempt, state } = attemptIn('awaiting_approval');
    expect(reconcile(attempt, state, APPROVED, OPEN_ORDER)).toEqual({
      state: { ...state, status: 'capturing' },
      effects: [{ kind: 'queue', job: 'capture', attemptId: 'a1' }],
    });
  });

  it('names the mismatching fields in the review', () => {
    const { attempt, state } = attemptIn('awaiting_approval');
    const decision = reconcile(attempt, state, MISMATCH, OPEN_ORDER);
    expect(decision.state.review).toEqual({
      reason: 'receipt-mismatch',
      mismatches: [{ field: 'amount', expected: '12.90', observed: '12.00' }],
    });
    expect(decision.state.paid).toBe(false);
    expect(decision.effects).toEqual([
      {
        kind: 'move-order-to-payment-review',
        attemptId: 'a1',
        orderId: 'o1',
        reason: 'receipt-mismatch',
        detail: 'the provider captured money, but its receipt does not match the attempt (amount)',
        mismatches: [{ field: 'amount', expected: '12.90', observed: '12.00' }],
      },
    ]);
  });

  it('never acts on another provider order without money in it', () => {
    const { attempt, state } = attemptIn('awaiting_approval');
    expect(reconcile(attempt, state, done(order('APPROVED', [], { id: 'OTHER' })), OPEN_ORDER).state).toBe(
      state,
    );
    const declinedElsewhere = done(order('COMPLETED', [capture({ status: 'DECLINED' })], { id: 'OTHER' }));
    expect(reconcile(attempt, state, declinedElsewhere, OPEN_ORDER).state).toBe(state);
    const paidElsewhere = done(order('COMPLETED', [capture()], { id: 'OTHER' }));
    expect(reconcile(attempt, state, paidElsewhere, OPEN_ORDER).state).toMatchObject({
      status: 'review',
      paid: false,
      review: { reason: 'receipt-mismatch', mismatches: [{ field: 'providerOrderId', observed: 'OTHER' }] },
    });
  });

  it('prefers a completed capture over a declined one in the same order', () => {
    const { attempt, state } = attemptIn('awaiting_approval');
    const answer = done(
      order('COMPLETED', [capture({ id: 'D1', status: 'DECLINED' }), capture({ id: 'C1' })]),
    );
    expect(reconcile(attempt, state, answer, OPEN_ORDER).state).toMatchObject({
      status: 'captured',
      capture: { id: 'C1' },
    });
  });

  it('pays a late PENDING capture in review once it completes, and records its progress only once', () => {
    const cancelled = attemptIn('cancelled');
    const { attempt } = cancelled;
    const pending = advance(cancelled, reconcile(attempt, cancelled.state, PENDING, OPEN_ORDER));
    expect(pending.state).toMatchObject({ status: 'review', paid: false, capture: { status: 'PENDING' } });
    const completed = reconcile(attempt, pending.state, CAPTURED, OPEN_ORDER);
    expect(completed.state).toMatchObject({ status: 'review', paid: true, capture: { status: 'COMPLETED' } });
    expect(kinds(completed.effects)).toEqual(['move-order-payment', 'emit']);
    expect(completed.effects[1]).toMatchObject({ payload: { lateCapture: true } });
    expect(reconcile(attempt, completed.state, CAPTURED, OPEN_ORDER).effects).toEqual([]);
  });

  it('records a mismatching PENDING capture’s completion in review without paying', () => {
    const awaiting = attemptIn('awaiting_approval');
    const { attempt } = awaiting;
    const wrong = { amount: { currency: 'EUR', value: '1.00' } };
    const pending = advance(
      awaiting,
      reconcile(attempt, awaiting.state, done(completedOrder({ ...wrong, status: 'PENDING' })), OPEN_ORDER),
    );
    const completed = reconcile(attempt, pending.state, done(completedOrder(wrong)), OPEN_ORDER);
    expect(completed.state).toMatchObject({
      status: 'review',
      paid: false,
      capture: { status: 'COMPLETED' },
    });
    expect(completed.effects).toEqual([]);
  });
});

describe('decideCancellation', () => {
  it.each<[Reachable, string, Answer | null, CancellationOutcome, AttemptStatus, EffectKind[]]>([
    ['creating', 'no provider order yet', null, 'cancelled', 'cancelled', RELEASED],
    ['uncertain-create', 'the create’s outcome unknown', null, 'wait', 'uncertain', []],
    ['awaiting_approval', 'CREATED', CREATED, 'cancelled', 'cancelled', RELEASED],
    ['awaiting_approval', 'APPROVED (never captured now)', APPROVED, 'cancelled', 'cancelled', RELEASED],
    ['awaiting_approval', 'a capture on the way', CAPTURED, 'captured', 'captured', PAID],
    ['awaiting_approval', 'a mismatching capture', MISMATCH, 'review', 'review', REVIEW],
    ['awaiting_approval', 'a 404', notFound, 'cancelled', 'expired', RELEASED],
    ['awaiting_approval', 'a lost read', unknown, 'wait', 'awaiting_approval', []],
    ['awaiting_approval', 'no read', null, 'wait', 'awaiting_approval', []],
    ['capturing', 'APPROVED (a capture may be in flight)', APPROVED, 'wait', 'capturing', []],
    ['uncertain-capture', 'APPROVED, no capture', APPROVED, 'cancelled', 'cancelled', RELEASED],
    ['uncertain-capture', 'a lost read', unknown, 'wait', 'uncertain', []],
    ['uncertain-capture', 'the lost capture found', CAPTURED, 'captured', 'captured', PAID],
    ['pending_capture', 'still PENDING', PENDING, 'wait', 'pending_capture', []],
    ['captured', 'anything', CREATED, 'captured', 'captured', []],
    ['review', 'anything', CREATED, 'review', 'review', []],
    ['cancelled', 'again', CREATED, 'cancelled', 'cancelled', []],
    ['expired', 'after expiry', null, 'cancelled', 'expired', []],
    ['declined', 'after a decline', DECLINED, 'cancelled', 'declined', []],
  ])('%s + %s: %s', (status, _name, answer, outcome, expected, effectKinds) => {
    const { attempt, state } = attemptIn(status);
    const decision = decideCancellation(attempt, state, answer);
    expect(decision.outcome).toBe(outcome);
    expect(decision.state.status).toBe(expected);
    expect(kinds(decision.effects)).toEqual(effectKinds);
  });

  it('releases exactly the attempt’s reserved items, once', () => {
    const { attempt, state } = attemptIn('awaiting_approval');
    const first = decideCancellation(attempt, state, CREATED);
    expect(first.effects).toContainEqual({
      kind: 'release-stock',
      attemptId: 'a1',
      orderId: 'o1',
      items: [{ productId: 'p1', sku: 'SKU-1', quantity: 2 }],
    });
    const second = decideCancellation(attempt, first.state, CREATED);
    expect(second).toEqual({ state: first.state, effects: [], outcome: 'cancelled' });
  });
});
