import { describe, expect, it } from 'vitest';
import {
  attemptIn,
  CAPTURE_ID,
  ledgerOf,
  PROVIDER_ORDER_ID,
  type Reachable,
  refund,
  succeeded,
} from '../test/fixtures.ts';
import { markRefundSent, requestRefund } from './refunds.ts';
import {
  ATTEMPT_EVENT_TYPES,
  decideWebhookEvent,
  type ProviderWebhookEvent,
  REFUND_EVENT_TYPES,
  type WebhookAction,
} from './webhooks.ts';

const event = (eventType: string, overrides: Partial<ProviderWebhookEvent> = {}): ProviderWebhookEvent => ({
  id: 'WH-1',
  eventType,
  providerOrderId: PROVIDER_ORDER_ID,
  customId: 'a1',
  refund: null,
  ...overrides,
});

const RECONCILE = [{ kind: 'queue', job: 'reconcile', attemptId: 'a1' }];

describe('decideWebhookEvent: order and capture events', () => {
  it.each(ATTEMPT_EVENT_TYPES)('%s on an attempt awaiting approval queues a reconcile', (eventType) => {
    const { attempt, state } = attemptIn('awaiting_approval');
    expect(decideWebhookEvent(attempt, state, null, event(eventType))).toEqual({
      action: 'reconcile',
      reason: null,
      ledger: null,
      effects: RECONCILE,
    });
  });

  it.each<[Reachable, string, WebhookAction, string | null]>([
    ['creating', 'CHECKOUT.ORDER.APPROVED', 'reconcile', null],
    ['uncertain-capture', 'PAYMENT.CAPTURE.COMPLETED', 'reconcile', null],
    ['pending_capture', 'PAYMENT.CAPTURE.COMPLETED', 'reconcile', null],
    ['pending_capture', 'PAYMENT.CAPTURE.DENIED', 'reconcile', null],
    ['cancelled', 'PAYMENT.CAPTURE.COMPLETED', 'reconcile', null],
    ['expired', 'CHECKOUT.PAYMENT-APPROVAL.REVERSED', 'reconcile', null],
    ['captured', 'PAYMENT.CAPTURE.COMPLETED', 'ignore', 'settled'],
    ['captured', 'PAYMENT.CAPTURE.PENDING', 'ignore', 'settled'],
    ['review', 'CHECKOUT.ORDER.APPROVED', 'ignore', 'settled'],
  ])('%s + %s: %s', (status, eventType, action, reason) => {
    const { attempt, state } = attemptIn(status);
    const decision = decideWebhookEvent(attempt, state, null, event(eventType));
    expect(decision).toMatchObject({ action, reason, effects: action === 'reconcile' ? RECONCILE : [] });
  });

  it.each<[string, Partial<ProviderWebhookEvent>, string]>([
    ['another provider order', { providerOrderId: 'OTHER' }, 'other-order'],
    ['another attempt’s custom id', { customId: 'a2' }, 'other-attempt'],
  ])('ignores an event about %s', (_name, overrides, reason) => {
    const { attempt, state } = attemptIn('awaiting_approval');
    expect(decideWebhookEvent(attempt, state, null, event('PAYMENT.CAPTURE.COMPLETED', overrides))).toEqual({
      action: 'ignore',
      reason,
      ledger: null,
      effects: [],
    });
  });

  it('reconciles an event that names no order or custom id', () => {
    const { attempt, state } = attemptIn('awaiting_approval');
    const bare = event('CHECKOUT.ORDER.APPROVED', { providerOrderId: null, customId: null });
    expect(decideWebhookEvent(attempt, state, null, bare).action).toBe('reconcile');
  });

  it.each(['PAYMENT.AUTHORIZATION.CREATED', 'CUSTOMER.DISPUTE.CREATED', ''])(
    'ignores the unhandled type "%s"',
    (type) => {
      const { attempt, state } = attemptIn('awaiting_approval');
      expect(decideWebhookEvent(attempt, state, null, event(type))).toMatchObject({
        action: 'ignore',
        reason: 'unhandled-event-type',
        effects: [],
      });
    },
  );
});

describe('decideWebhookEvent: refund events', () => {
  const captured = attemptIn('captured');
  const { attempt, state } = captured;
  const ledger = ledgerOf(captured);
  const refundEvent = (eventType: string, overrides: Partial<ProviderWebhookEvent> = {}) =>
    event(eventType, { customId: null, refund: refund('COMPLETED', '2.90', { id: 'DASH1' }), ...overrides });

  it('merges a refund made in the dashboard, and changes nothing when it arrives again', () => {
    const first = decideWebhookEvent(attempt, state, ledger, refundEvent('PAYMENT.CAPTURE.REFUNDED'));
    expect(first.action).toBe('merge-refund');
    expect(first.ledger?.refunds).toMatchObject([
      { id: 'provider-DASH1', status: 'confirmed', origin: 'provider' },
    ]);
    expect(first.effects.map((effect) => effect.kind)).toEqual(['move-order-payment', 'emit']);
    const second = decideWebhookEvent(attempt, state, first.ledger, refundEvent('PAYMENT.CAPTURE.REFUNDED'));
    expect(second).toEqual({ action: 'merge-refund', reason: null, ledger: first.ledger, effects: [] });
  });

  it('records a reversal as a chargeback', () => {
    const reversal = refundEvent('PAYMENT.CAPTURE.REVERSED', {
      refund: refund('COMPLETED', '12.90', { id: 'REV' }),
    });
    const decision = decideWebhookEvent(attempt, state, ledger, reversal);
    expect(decision.ledger?.refunds).toMatchObject([{ kind: 'reversal' }]);
    expect(decision.effects[0]).toEqual({ kind: 'move-order-payment', orderId: 'o1', to: 'chargeback' });
  });

  it('fails our pending refund on PAYMENT.REFUND.FAILED naming it, giving the reservation back', () => {
    const reservedLedger = succeeded(
      requestRefund(ledger, {
        refundId: 'r1',
        idempotencyKey: 'k1',
        amount: { amount: 500, currency: 'EUR', precision: 2 },
      }),
    ).ledger;
    const sent = succeeded(markRefundSent(reservedLedger, 'r1')).ledger;
    const failed = refundEvent('PAYMENT.REFUND.FAILED', {
      refund: refund('FAILED', '5.00', { customId: 'r1' }),
    });
    const decision = decideWebhookEvent(attempt, state, sent, failed);
    expect(decision.ledger?.refunds).toMatchObject([{ id: 'r1', status: 'failed', failure: 'FAILED' }]);
  });

  it('defers a refund it cannot place yet, changing nothing', () => {
    const reservedLedger = succeeded(
      requestRefund(ledger, {
        refundId: 'r1',
        idempotencyKey: 'k1',
        amount: { amount: 500, currency: 'EUR', precision: 2 },
      }),
    ).ledger;
    const unplaced = refundEvent('PAYMENT.CAPTURE.REFUNDED', {
      refund: refund('COMPLETED', '5.00', { id: 'NEW' }),
    });
    expect(decideWebhookEvent(attempt, state, reservedLedger, unplaced)).toEqual({
      action: 'defer',
      reason: 'unplaced-refund',
      ledger: reservedLedger,
      effects: [],
    });
  });

  it('defers a refund event before the capture is recorded, and reconciles', () => {
    const awaiting = attemptIn('awaiting_approval');
    expect(
      decideWebhookEvent(awaiting.attempt, awaiting.state, null, refundEvent('PAYMENT.CAPTURE.REFUNDED')),
    ).toEqual({
      action: 'defer',
      reason: 'no-ledger',
      ledger: null,
      effects: RECONCILE,
    });
  });

  it.each<[string, Partial<ProviderWebhookEvent>, string]>([
    ['no refund resource', { refund: null }, 'no-refund'],
    ['another capture', { refund: refund('COMPLETED', '1.00', { captureId: 'OTHER' }) }, 'other-capture'],
    ['another provider order', { providerOrderId: 'OTHER' }, 'other-order'],
  ])('ignores a refund event with %s', (_name, overrides, reason) => {
    expect(
      decideWebhookEvent(attempt, state, ledger, refundEvent('PAYMENT.CAPTURE.REFUNDED', overrides)),
    ).toEqual({
      action: 'ignore',
      reason,
      ledger,
      effects: [],
    });
  });

  it.each(REFUND_EVENT_TYPES)(
    '%s is a refund event, not checked against the attempt’s custom id',
    (eventType) => {
      const decision = decideWebhookEvent(
        attempt,
        state,
        ledger,
        refundEvent(eventType, { customId: 'refund-id' }),
      );
      expect(decision.action).toBe('merge-refund');
      expect(decision.ledger?.captureId).toBe(CAPTURE_ID);
    },
  );
});
