import { describe, expect, it } from 'vitest';
import {
  attemptIn,
  CAPTURE_ID,
  capture,
  eur,
  MERCHANT_ID,
  order,
  PROVIDER_ORDER_ID,
} from '../test/fixtures.ts';
import { type CaptureReceipt, receiptOf, verifyCaptureReceipt } from './capture.ts';

const receipt = (overrides: Partial<CaptureReceipt> = {}): CaptureReceipt => ({
  providerOrderId: PROVIDER_ORDER_ID,
  captureId: CAPTURE_ID,
  status: 'COMPLETED',
  currency: 'EUR',
  value: '12.90',
  merchantId: MERCHANT_ID,
  customId: 'a1',
  ...overrides,
});

describe('verifyCaptureReceipt', () => {
  const { attempt, state } = attemptIn('capturing');

  it.each<[string, Partial<CaptureReceipt>]>([
    ['a matching COMPLETED capture', {}],
    ['the provider writing fewer decimals', { value: '12.9' }],
    ['a capture refunded since (PARTIALLY_REFUNDED)', { status: 'PARTIALLY_REFUNDED' }],
    ['a capture refunded since (REFUNDED)', { status: 'REFUNDED' }],
    ['no echoed custom id', { customId: null }],
  ])('pays %s', (_name, overrides) => {
    expect(verifyCaptureReceipt(attempt, state, receipt(overrides))).toEqual({
      verdict: 'paid',
      amount: eur(1290),
    });
  });

  it('pays any merchant when none is configured', () => {
    const unconfigured = attemptIn('capturing', { merchantId: null });
    expect(
      verifyCaptureReceipt(unconfigured.attempt, unconfigured.state, receipt({ merchantId: 'SOMEONE' })),
    ).toMatchObject({ verdict: 'paid' });
    expect(
      verifyCaptureReceipt(unconfigured.attempt, unconfigured.state, receipt({ merchantId: null })),
    ).toMatchObject({
      verdict: 'paid',
    });
  });

  it('keeps a matching PENDING capture pending', () => {
    expect(verifyCaptureReceipt(attempt, state, receipt({ status: 'PENDING' }))).toEqual({
      verdict: 'pending',
      amount: eur(1290),
    });
  });

  it.each(['DECLINED', 'FAILED'] as const)(
    'declines a %s capture, even one that also mismatches',
    (status) => {
      expect(verifyCaptureReceipt(attempt, state, receipt({ status }))).toEqual({
        verdict: 'declined',
        status,
        amount: eur(1290),
      });
      expect(verifyCaptureReceipt(attempt, state, receipt({ status, currency: 'USD' }))).toEqual({
        verdict: 'declined',
        status,
        amount: null,
      });
    },
  );

  it.each<[string, Partial<CaptureReceipt>, object[]]>([
    [
      'another provider order',
      { providerOrderId: 'OTHER' },
      [{ field: 'providerOrderId', expected: PROVIDER_ORDER_ID, observed: 'OTHER' }],
    ],
    [
      'another currency',
      { currency: 'USD' },
      [
        { field: 'currency', expected: 'EUR', observed: 'USD' },
        { field: 'amount', expected: '12.90', observed: '12.90' },
      ],
    ],
    ['a smaller amount', { value: '12.89' }, [{ field: 'amount', expected: '12.90', observed: '12.89' }]],
    ['a larger amount', { value: '129.00' }, [{ field: 'amount', expected: '12.90', observed: '129.00' }]],
    [
      'an unreadable amount',
      { value: '12.900' },
      [{ field: 'amount', expected: '12.90', observed: '12.900' }],
    ],
    [
      'another merchant',
      { merchantId: 'OTHER' },
      [{ field: 'merchantId', expected: MERCHANT_ID, observed: 'OTHER' }],
    ],
    ['no merchant', { merchantId: null }, [{ field: 'merchantId', expected: MERCHANT_ID, observed: null }]],
    ['another custom id', { customId: 'a2' }, [{ field: 'customId', expected: 'a1', observed: 'a2' }]],
  ])('sends %s to review with the mismatching fields', (_name, overrides, mismatches) => {
    expect(verifyCaptureReceipt(attempt, state, receipt(overrides))).toMatchObject({
      verdict: 'mismatch',
      mismatches,
    });
  });

  it('checks a PENDING capture too, and lists every mismatching field', () => {
    const verdict = verifyCaptureReceipt(
      attempt,
      state,
      receipt({ status: 'PENDING', value: '1.00', merchantId: 'OTHER', customId: 'zz' }),
    );
    expect(verdict).toEqual({
      verdict: 'mismatch',
      amount: eur(100),
      mismatches: [
        { field: 'amount', expected: '12.90', observed: '1.00' },
        { field: 'merchantId', expected: MERCHANT_ID, observed: 'OTHER' },
        { field: 'customId', expected: 'a1', observed: 'zz' },
      ],
    });
  });

  it('reads amounts in the provider precision of the attempt’s currency', () => {
    const huf = attemptIn('capturing', { amount: { amount: 12900, currency: 'HUF', precision: 2 } });
    const paid = verifyCaptureReceipt(huf.attempt, huf.state, receipt({ currency: 'HUF', value: '129' }));
    expect(paid).toEqual({ verdict: 'paid', amount: { amount: 12900, currency: 'HUF', precision: 2 } });
    const decimals = verifyCaptureReceipt(
      huf.attempt,
      huf.state,
      receipt({ currency: 'HUF', value: '129.00' }),
    );
    expect(decimals).toMatchObject({ verdict: 'mismatch', mismatches: [{ field: 'amount' }] });
  });
});

describe('receiptOf', () => {
  it('takes the capture’s own payee before the order’s', () => {
    const withPayee = capture({ merchantId: 'CAPTURE_PAYEE' });
    expect(receiptOf(order('COMPLETED', [withPayee], { merchantId: 'ORDER_PAYEE' }), withPayee)).toEqual(
      receipt({ merchantId: 'CAPTURE_PAYEE' }),
    );
    const withoutPayee = capture({ merchantId: null });
    expect(
      receiptOf(order('COMPLETED', [withoutPayee], { merchantId: 'ORDER_PAYEE' }), withoutPayee),
    ).toEqual(receipt({ merchantId: 'ORDER_PAYEE' }));
  });
});
