import { describe, expect, it } from 'vitest';
import {
  APPROVAL_URL,
  attemptIn,
  CANCELLED_ORDER,
  CAPTURE_ID,
  completedOrder,
  done,
  kinds,
  notFound,
  OPEN_ORDER,
  order,
  PROVIDER_ORDER_ID,
  type Reachable,
  refused,
  unknown,
} from '../test/fixtures.ts';
import {
  applyCaptureResponse,
  applyCreateResponse,
  prepareCapture,
  prepareCreate,
} from './provider-calls.ts';
import type { AttemptStatus } from './records.ts';

const RELEASE = {
  kind: 'release-stock',
  attemptId: 'a1',
  orderId: 'o1',
  items: [{ productId: 'p1', sku: 'SKU-1', quantity: 2 }],
};
const move = (to: string) => ({ kind: 'move-order-payment', orderId: 'o1', to });

describe('prepareCreate', () => {
  it.each<Reachable>(['creating', 'uncertain-create'])('answers the create command while %s', (status) => {
    const { attempt, state } = attemptIn(status);
    expect(prepareCreate(attempt, state)).toEqual({
      ok: true,
      value: { requestId: 'cw-a1-create', customId: 'a1', amount: { currency: 'EUR', value: '12.90' } },
    });
  });

  it('writes the amount in the provider precision', () => {
    const { attempt, state } = attemptIn('creating', {
      amount: { amount: 12900, currency: 'HUF', precision: 2 },
    });
    expect(prepareCreate(attempt, state)).toMatchObject({
      ok: true,
      value: { amount: { currency: 'HUF', value: '129' } },
    });
  });

  it.each<Reachable>(['awaiting_approval', 'uncertain-capture', 'captured', 'cancelled', 'failed'])(
    'refuses while %s',
    (status) => {
      const { attempt, state } = attemptIn(status);
      expect(prepareCreate(attempt, state)).toMatchObject({ ok: false, code: 'NOT_CREATING' });
    },
  );
});

describe('applyCreateResponse', () => {
  it.each<Reachable>(['creating', 'uncertain-create'])(
    'awaits approval once the order is created (%s)',
    (status) => {
      const { attempt, state } = attemptIn(status);
      const decision = applyCreateResponse(attempt, state, done(order('PAYER_ACTION_REQUIRED')));
      expect(decision.state).toMatchObject({
        status: 'awaiting_approval',
        providerOrderId: PROVIDER_ORDER_ID,
        approvalUrl: APPROVAL_URL,
        uncertainOperation: null,
      });
      expect(decision.effects).toEqual([]);
    },
  );

  it.each<[string, Parameters<typeof applyCreateResponse>[2], string]>([
    ['a refusal', refused('INVALID_REQUEST', 400), 'INVALID_REQUEST'],
    ['a 404', notFound, 'INVALID_RESOURCE_ID'],
    [
      'an order id that is not the provider’s',
      done(order('CREATED', [], { id: 'not-an-id' })),
      'INVALID_PROVIDER_ORDER_ID',
    ],
    [
      'an order without an approval link',
      done(order('CREATED', [], { approvalUrl: null })),
      'NO_APPROVAL_LINK',
    ],
    [
      'a plain http link outside the contract fixture',
      done(order('CREATED', [], { approvalUrl: 'http://127.0.0.1:4010/checkoutnow' })),
      'NO_APPROVAL_LINK',
    ],
  ])('fails the attempt on %s and releases its stock', (_name, answer, failure) => {
    const { attempt, state } = attemptIn('creating');
    const decision = applyCreateResponse(attempt, state, answer);
    expect(decision.state).toMatchObject({ status: 'failed', failure, stockReleased: true });
    expect(decision.effects).toEqual([move('failed'), RELEASE]);
  });

  it.each(['APPROVED', 'COMPLETED'] as const)(
    'reads a replayed order the buyer already %s (no approval link) instead of failing it',
    (status) => {
      const { attempt, state } = attemptIn('uncertain-create');
      const decision = applyCreateResponse(attempt, state, done(order(status, [], { approvalUrl: null })));
      expect(decision.state).toMatchObject({
        status: 'awaiting_approval',
        providerOrderId: PROVIDER_ORDER_ID,
        approvalUrl: null,
        uncertainOperation: null,
        stockReleased: false,
      });
      expect(decision.effects).toEqual([{ kind: 'queue', job: 'reconcile', attemptId: 'a1' }]);
    },
  );

  it('accepts a loopback link only for a contract-fixture attempt', () => {
    const fixture = attemptIn('creating', { contractFixture: true });
    const loopback = done(order('CREATED', [], { approvalUrl: 'http://127.0.0.1:4010/checkoutnow?token=X' }));
    expect(applyCreateResponse(fixture.attempt, fixture.state, loopback).state.status).toBe(
      'awaiting_approval',
    );
    const elsewhere = done(order('CREATED', [], { approvalUrl: 'http://pay.example/checkoutnow' }));
    expect(applyCreateResponse(fixture.attempt, fixture.state, elsewhere).state.failure).toBe(
      'NO_APPROVAL_LINK',
    );
  });

  it('makes a lost answer uncertain and queues the replay, keeping the stock', () => {
    const { attempt, state } = attemptIn('creating');
    const decision = applyCreateResponse(attempt, state, unknown);
    expect(decision.state).toMatchObject({
      status: 'uncertain',
      uncertainOperation: 'create',
      stockReleased: false,
    });
    expect(decision.effects).toEqual([{ kind: 'queue', job: 'create', attemptId: 'a1' }]);
  });

  it('releases nothing when the attempt reserved nothing', () => {
    const { attempt, state } = attemptIn('creating', { items: [] });
    expect(kinds(applyCreateResponse(attempt, state, refused('INVALID_REQUEST')).effects)).toEqual([
      'move-order-payment',
    ]);
  });

  it.each<Reachable>(['awaiting_approval', 'capturing', 'cancelled', 'failed'])(
    'ignores answers reaching an attempt that is %s',
    (status) => {
      const { attempt, state } = attemptIn(status);
      for (const answer of [done(order('CREATED', [], { id: 'OTHER' })), refused('X'), unknown, notFound]) {
        expect(applyCreateResponse(attempt, state, answer)).toEqual({ state, effects: [] });
      }
    },
  );
});

describe('prepareCapture', () => {
  it('sends the capture with the attempt’s fixed key while capturing an open order', () => {
    const { attempt, state } = attemptIn('capturing');
    expect(prepareCapture(attempt, state, OPEN_ORDER)).toEqual({
      action: 'send',
      command: { providerOrderId: PROVIDER_ORDER_ID, requestId: 'cw-a1-capture' },
    });
  });

  it.each([
    ['cancelled', CANCELLED_ORDER],
    ['gone', null],
  ] as const)('withdraws the capture for an order that is %s', (_name, localOrder) => {
    const { attempt, state } = attemptIn('capturing');
    const step = prepareCapture(attempt, state, localOrder);
    expect(step).toMatchObject({ action: 'skip', decision: { state: { status: 'awaiting_approval' } } });
    if (step.action === 'skip') {
      expect(step.decision.effects).toEqual([{ kind: 'queue', job: 'reconcile', attemptId: 'a1' }]);
    }
  });

  it.each<Reachable>(['awaiting_approval', 'uncertain-capture', 'captured', 'cancelled'])(
    'does nothing while %s',
    (status) => {
      const { attempt, state } = attemptIn(status);
      expect(prepareCapture(attempt, state, OPEN_ORDER)).toEqual({
        action: 'skip',
        decision: { state, effects: [] },
      });
    },
  );
});

describe('applyCaptureResponse', () => {
  it('pays the order once on a matching capture, keeping the stock for the order', () => {
    const { attempt, state } = attemptIn('capturing');
    const decision = applyCaptureResponse(attempt, state, done(completedOrder()), OPEN_ORDER);
    expect(decision.state).toMatchObject({
      status: 'captured',
      paid: true,
      stockReleased: false,
      capture: {
        id: CAPTURE_ID,
        status: 'COMPLETED',
        amount: { amount: 1290, currency: 'EUR', precision: 2 },
      },
    });
    expect(decision.effects).toEqual([
      move('paid'),
      {
        kind: 'emit',
        event: 'payment.captured',
        payload: {
          attemptId: 'a1',
          orderId: 'o1',
          providerOrderId: PROVIDER_ORDER_ID,
          captureId: CAPTURE_ID,
          amount: 1290,
          currency: 'EUR',
          precision: 2,
          environment: 'sandbox',
          contractFixture: false,
          lateCapture: false,
        },
      },
    ]);
  });

  it('recovers a lost capture answer from the replayed answer without asking for a second capture', () => {
    const { attempt, state } = attemptIn('uncertain-capture');
    const decision = applyCaptureResponse(attempt, state, done(completedOrder()), OPEN_ORDER);
    expect(decision.state.status).toBe('captured');
    expect(kinds(decision.effects)).toEqual(['move-order-payment', 'emit']);
  });

  it.each<[string, Parameters<typeof applyCaptureResponse>[2], AttemptStatus, string[]]>([
    [
      'a PENDING capture',
      done(completedOrder({ status: 'PENDING' })),
      'pending_capture',
      ['move-order-payment'],
    ],
    [
      'a DECLINED capture in a COMPLETED order',
      done(completedOrder({ status: 'DECLINED' })),
      'declined',
      ['move-order-payment', 'release-stock'],
    ],
    [
      'a mismatching receipt',
      done(completedOrder({ merchantId: 'OTHER' })),
      'review',
      ['move-order-to-payment-review'],
    ],
    ['an answer without a capture', done(order('APPROVED')), 'uncertain', ['queue']],
    ['a 404', notFound, 'expired', ['move-order-payment', 'release-stock']],
    ['a lost answer', unknown, 'uncertain', ['queue']],
  ])('decides %s', (_name, answer, status, effectKinds) => {
    const { attempt, state } = attemptIn('capturing');
    const decision = applyCaptureResponse(attempt, state, answer, OPEN_ORDER);
    expect(decision.state.status).toBe(status);
    expect(kinds(decision.effects)).toEqual(effectKinds);
    if (status === 'uncertain') {
      expect(decision.state.uncertainOperation).toBe('capture');
      expect(decision.effects).toEqual([{ kind: 'queue', job: 'reconcile', attemptId: 'a1' }]);
    }
  });

  it.each<[string, AttemptStatus, string | null]>([
    ['ORDER_ALREADY_CAPTURED', 'uncertain', null],
    ['ORDER_COMPLETION_IN_PROGRESS', 'uncertain', null],
    ['ORDER_NOT_APPROVED', 'awaiting_approval', null],
    ['PAYER_ACTION_REQUIRED', 'awaiting_approval', null],
    ['INSTRUMENT_DECLINED', 'declined', 'INSTRUMENT_DECLINED'],
    ['TRANSACTION_REFUSED', 'declined', 'TRANSACTION_REFUSED'],
    ['PAYER_CANNOT_PAY', 'declined', 'PAYER_CANNOT_PAY'],
    ['INVALID_RESOURCE_ID', 'expired', 'INVALID_RESOURCE_ID'],
    ['DUPLICATE_INVOICE_ID', 'failed', 'DUPLICATE_INVOICE_ID'],
    ['SOMETHING_NEW', 'failed', 'SOMETHING_NEW'],
    ['toString', 'failed', 'toString'],
  ])('decides the refusal %s', (issue, status, failure) => {
    const { attempt, state } = attemptIn('capturing');
    const decision = applyCaptureResponse(attempt, state, refused(issue), OPEN_ORDER);
    expect(decision.state.status).toBe(status);
    expect(decision.state.failure).toBe(failure);
    expect(decision.state.stockReleased).toBe(failure !== null);
  });

  it('records a capture arriving for a cancelled order as a late capture in review', () => {
    const { attempt, state } = attemptIn('capturing');
    const decision = applyCaptureResponse(attempt, state, done(completedOrder()), CANCELLED_ORDER);
    expect(decision.state).toMatchObject({
      status: 'review',
      paid: true,
      review: { reason: 'late-capture' },
    });
    expect(kinds(decision.effects)).toEqual(['move-order-payment', 'emit', 'move-order-to-payment-review']);
    expect(decision.effects[1]).toMatchObject({ payload: { lateCapture: true } });
  });

  it.each<Reachable>(['awaiting_approval', 'captured', 'cancelled'])(
    'ignores refusals and lost answers reaching an attempt that is %s',
    (status) => {
      const { attempt, state } = attemptIn(status);
      expect(applyCaptureResponse(attempt, state, refused('ORDER_NOT_APPROVED'), OPEN_ORDER)).toEqual({
        state,
        effects: [],
      });
      expect(applyCaptureResponse(attempt, state, unknown, OPEN_ORDER)).toEqual({ state, effects: [] });
    },
  );
});
