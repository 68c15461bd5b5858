import { describe, expect, it } from 'vitest';
import {
  attemptInput,
  CANCELLED_ORDER,
  CAPTURE_ID,
  completedOrder,
  done,
  eur,
  kinds,
  OPEN_ORDER,
  order,
  PROVIDER_ORDER_ID,
  refund,
  unknown,
} from '../test/fixtures.ts';
import {
  type AttemptState,
  applyCaptureResponse,
  applyCreateResponse,
  applyRefundResponse,
  createAttempt,
  decideCancellation,
  decideWebhookEvent,
  markRefundSent,
  openRefundLedger,
  type PaymentEffect,
  prepareCapture,
  prepareCreate,
  reconcile,
  refundBalance,
  requestRefund,
} from './index.ts';

// The spec's "Payment attempt and order" rows, each walked through the public door the way the
// service will: store the record, carry out the effects, call the provider only when told.

function start() {
  const created = createAttempt(attemptInput());
  if (!created.ok) expect.fail(created.detail);
  return created.value;
}

/** Runs decisions in order, collecting every effect. */
function walk(
  initial: AttemptState,
  ...steps: ((state: AttemptState) => { state: AttemptState; effects: readonly PaymentEffect[] })[]
) {
  const effects: PaymentEffect[] = [];
  let state = initial;
  for (const step of steps) {
    const decision = step(state);
    effects.push(...decision.effects);
    state = decision.state;
  }
  return { state, effects };
}

describe('payment attempt and order (spec)', () => {
  it('checkout: an immutable attempt with reserved quantities and provider keys, create job queued', () => {
    const { attempt, state, effects } = start();
    expect(attempt).toMatchObject({
      items: [{ productId: 'p1', sku: 'SKU-1', quantity: 2 }],
      requestIds: { create: 'cw-a1-create', capture: 'cw-a1-capture' },
      adapterVersion: 1,
      environment: 'sandbox',
      contractFixture: false,
    });
    expect(state.status).toBe('creating');
    expect(effects).toEqual([{ kind: 'queue', job: 'create', attemptId: 'a1' }]);
    expect(prepareCreate(attempt, state)).toMatchObject({ ok: true, value: { requestId: 'cw-a1-create' } });
  });

  it('capture: the order is paid on a matching receipt, once, and a browser redirect alone does nothing', () => {
    const { attempt, state } = start();
    const { state: paid, effects } = walk(
      state,
      (s) => applyCreateResponse(attempt, s, done(order('CREATED'))),
      // The buyer's return URL only triggers a read; the read shows APPROVED.
      (s) => reconcile(attempt, s, done(order('APPROVED')), OPEN_ORDER),
      (s) => {
        const step = prepareCapture(attempt, s, OPEN_ORDER);
        expect(step).toEqual({
          action: 'send',
          command: { providerOrderId: PROVIDER_ORDER_ID, requestId: 'cw-a1-capture' },
        });
        return applyCaptureResponse(attempt, s, done(completedOrder()), OPEN_ORDER);
      },
      // The capture webhook and a second read change nothing.
      (s) => ({
        state: s,
        effects: decideWebhookEvent(attempt, s, null, {
          id: 'WH-1',
          eventType: 'PAYMENT.CAPTURE.COMPLETED',
          providerOrderId: PROVIDER_ORDER_ID,
          customId: 'a1',
          refund: null,
        }).effects,
      }),
      (s) => reconcile(attempt, s, done(completedOrder()), OPEN_ORDER),
    );
    expect(paid.status).toBe('captured');
    expect(kinds(effects)).toEqual(['queue', 'move-order-payment', 'emit']);
  });

  it('capture request: a lost capture answer recovers from the provider without a second charge', () => {
    const { attempt, state } = start();
    const { state: paid, effects } = walk(
      state,
      (s) => applyCreateResponse(attempt, s, done(order('CREATED'))),
      (s) => reconcile(attempt, s, done(order('APPROVED')), OPEN_ORDER),
      (s) => applyCaptureResponse(attempt, s, unknown, OPEN_ORDER),
      (s) => reconcile(attempt, s, done(completedOrder()), OPEN_ORDER),
    );
    expect(paid.status).toBe('captured');
    const captureRequests = effects.filter((effect) => effect.kind === 'queue' && effect.job === 'capture');
    expect(captureRequests).toHaveLength(1);
    expect(effects.filter((effect) => effect.kind === 'emit')).toHaveLength(1);
  });

  it('capture after cancellation: the order moves to payment review', () => {
    const { attempt, state } = start();
    const { state: late, effects } = walk(
      state,
      (s) => applyCreateResponse(attempt, s, done(order('CREATED'))),
      (s) => reconcile(attempt, s, done(order('APPROVED')), OPEN_ORDER),
      (s) => applyCaptureResponse(attempt, s, done(completedOrder()), CANCELLED_ORDER),
    );
    expect(late).toMatchObject({ status: 'review', review: { reason: 'late-capture' } });
    expect(effects).toContainEqual(
      expect.objectContaining({ kind: 'move-order-to-payment-review', reason: 'late-capture' }),
    );
  });

  it('cancellation: the provider is reconciled first, and stock is released once', () => {
    const { attempt, state } = start();
    const awaiting = applyCreateResponse(attempt, state, done(order('CREATED'))).state;
    // The buyer approved meanwhile: the cancellation still captures nothing.
    const first = decideCancellation(attempt, awaiting, done(order('APPROVED')));
    const second = decideCancellation(attempt, first.state, done(order('APPROVED')));
    expect([first.outcome, second.outcome]).toEqual(['cancelled', 'cancelled']);
    expect(
      [...first.effects, ...second.effects].filter((effect) => effect.kind === 'release-stock'),
    ).toHaveLength(1);
    expect(first.effects.some((effect) => effect.kind === 'queue')).toBe(false);
  });

  it('refund request: reserved within the remaining balance, replays deduplicated, the excess rejected', () => {
    const { attempt, state } = start();
    const { state: paid } = walk(
      state,
      (s) => applyCreateResponse(attempt, s, done(order('CREATED'))),
      (s) => applyCaptureResponse(attempt, s, done(completedOrder()), OPEN_ORDER),
    );
    const opened = openRefundLedger(attempt, paid);
    if (!opened.ok) expect.fail(opened.detail);
    const first = requestRefund(opened.value, { refundId: 'r1', idempotencyKey: 'k1', amount: eur(1000) });
    if (!first.ok) expect.fail(first.detail);
    const replay = requestRefund(first.value.ledger, {
      refundId: 'r2',
      idempotencyKey: 'k1',
      amount: eur(1000),
    });
    expect(replay).toMatchObject({ ok: true, value: { replayed: true, refund: { id: 'r1' } } });
    expect(
      requestRefund(first.value.ledger, { refundId: 'r3', idempotencyKey: 'k3', amount: eur(291) }),
    ).toMatchObject({
      ok: false,
      code: 'REFUND_EXCEEDS_BALANCE',
      remaining: 290,
    });
    const sent = markRefundSent(first.value.ledger, 'r1');
    if (!sent.ok) expect.fail(sent.detail);
    expect(sent.value.command).toEqual({
      captureId: CAPTURE_ID,
      requestId: 'cw-r1-refund',
      customId: 'r1',
      amount: { currency: 'EUR', value: '10.00' },
    });
    // Uncertain operation: the reservation is kept until the provider settles it.
    const lost = applyRefundResponse(sent.value.ledger, 'r1', unknown);
    if (!lost.ok) expect.fail(lost.detail);
    expect(refundBalance(lost.value.ledger)).toMatchObject({ pending: 1000, remaining: 290 });
    const settled = applyRefundResponse(lost.value.ledger, 'r1', done(refund('COMPLETED', '10.00')));
    if (!settled.ok) expect.fail(settled.detail);
    expect(refundBalance(settled.value.ledger)).toMatchObject({
      confirmed: 1000,
      pending: 0,
      remaining: 290,
    });
  });
});
