import { describe, expect, it } from 'vitest';
import { attemptInput, eur } from '../test/fixtures.ts';
import { createAttempt, initialAttemptState } from './attempt.ts';
import type { AttemptInput } from './records.ts';
import { attemptRequestIds, PROVIDER_REQUEST_ID_MAX_LENGTH, refundRequestId } from './request-ids.ts';

describe('createAttempt', () => {
  it('answers the immutable attempt, its first record and the create job', () => {
    const input = attemptInput();
    const created = createAttempt(input);
    expect(created).toEqual({
      ok: true,
      value: {
        attempt: {
          ...input,
          requestIds: { create: 'cw-a1-create', capture: 'cw-a1-capture' },
          adapterVersion: 1,
        },
        state: initialAttemptState(),
        effects: [{ kind: 'queue', job: 'create', attemptId: 'a1' }],
      },
    });
  });

  it('does not share the caller’s item objects', () => {
    const input = attemptInput();
    const created = createAttempt(input);
    if (!created.ok) expect.fail(created.detail);
    expect(created.value.attempt.items[0]).not.toBe(input.items[0]);
  });

  it('starts creating, with nothing known and nothing released', () => {
    expect(initialAttemptState()).toEqual({
      status: 'creating',
      providerOrderId: null,
      approvalUrl: null,
      uncertainOperation: null,
      capture: null,
      paid: false,
      stockReleased: false,
      review: null,
      failure: null,
    });
  });

  it.each<[string, Partial<AttemptInput>, string, string]>([
    ['an id with a space', { id: 'a 1' }, 'INVALID_FIELD', '/id'],
    ['an id of 65 characters', { id: 'a'.repeat(65) }, 'INVALID_FIELD', '/id'],
    ['an empty order id', { orderId: '' }, 'INVALID_FIELD', '/orderId'],
    [
      'a float amount',
      { amount: { amount: 12.9, currency: 'EUR', precision: 2 } },
      'INVALID_FIELD',
      '/amount/amount',
    ],
    ['a negative amount', { amount: eur(-1) }, 'INVALID_FIELD', '/amount/amount'],
    [
      'a lower-case currency',
      { amount: { amount: 1, currency: 'eur', precision: 2 } },
      'INVALID_FIELD',
      '/amount/currency',
    ],
    [
      'precision 4',
      { amount: { amount: 1, currency: 'EUR', precision: 4 } },
      'INVALID_FIELD',
      '/amount/precision',
    ],
    [
      'a zero quantity',
      { items: [{ productId: 'p1', sku: 'S', quantity: 0 }] },
      'INVALID_FIELD',
      '/items/0/quantity',
    ],
    ['an unknown environment', { environment: 'staging' as 'live' }, 'INVALID_FIELD', '/environment'],
    ['a date without time', { createdAt: '2025-03-01' }, 'INVALID_FIELD', '/createdAt'],
    ['an empty merchant id', { merchantId: '' }, 'INVALID_FIELD', '/merchantId'],
    ['a zero amount', { amount: eur(0) }, 'AMOUNT_NOT_POSITIVE', '/amount/amount'],
    [
      'HUF with fillér the provider cannot carry',
      { amount: { amount: 12950, currency: 'HUF', precision: 2 } },
      'AMOUNT_NOT_REPRESENTABLE',
      '/amount',
    ],
    [
      'an amount beyond the provider maximum',
      { amount: { amount: 10 ** 15, currency: 'JPY', precision: 0 } },
      'AMOUNT_NOT_REPRESENTABLE',
      '/amount',
    ],
    [
      'the same product and SKU twice',
      {
        items: [
          { productId: 'p1', sku: 'S', quantity: 1 },
          { productId: 'p1', sku: 'S', quantity: 2 },
        ],
      },
      'DUPLICATE_ITEM',
      '/items/1',
    ],
    [
      'a live contract fixture',
      { environment: 'live', contractFixture: true },
      'FIXTURE_IN_LIVE',
      '/contractFixture',
    ],
  ])('refuses %s', (_name, overrides, code, pointer) => {
    const refused = createAttempt(attemptInput(overrides));
    expect(refused).toMatchObject({ ok: false, code, issues: [{ code, pointer }] });
    if (!refused.ok) expect(refused.detail).toContain(pointer);
  });

  it('lists every issue at once, the first naming the refusal', () => {
    const refused = createAttempt(
      attemptInput({
        amount: eur(0),
        environment: 'live',
        contractFixture: true,
        items: [
          { productId: 'p1', sku: 'S', quantity: 1 },
          { productId: 'p1', sku: 'S', quantity: 1 },
        ],
      }),
    );
    expect(refused).toMatchObject({
      ok: false,
      code: 'AMOUNT_NOT_POSITIVE',
      issues: [{ code: 'AMOUNT_NOT_POSITIVE' }, { code: 'DUPLICATE_ITEM' }, { code: 'FIXTURE_IN_LIVE' }],
    });
  });

  it('accepts the same SKU under two products, no items, and a sandbox contract fixture', () => {
    expect(
      createAttempt(
        attemptInput({
          items: [
            { productId: 'p1', sku: 'S', quantity: 1 },
            { productId: 'p2', sku: 'S', quantity: 1 },
          ],
        }),
      ).ok,
    ).toBe(true);
    expect(createAttempt(attemptInput({ items: [] })).ok).toBe(true);
    expect(createAttempt(attemptInput({ contractFixture: true })).ok).toBe(true);
  });
});

describe('request ids', () => {
  it('derive every provider key from the ledger id, within the provider’s 108 characters', () => {
    const longest = 'x'.repeat(64);
    expect(attemptRequestIds('a1')).toEqual({ create: 'cw-a1-create', capture: 'cw-a1-capture' });
    expect(refundRequestId('r1')).toBe('cw-r1-refund');
    for (const key of [...Object.values(attemptRequestIds(longest)), refundRequestId(longest)]) {
      expect(key.length).toBeLessThanOrEqual(PROVIDER_REQUEST_ID_MAX_LENGTH);
    }
  });

  it('never give an attempt key and a refund key the same text', () => {
    // The kinds end differently, so no choice of ids makes them collide.
    // With a bare `cw-<refundId>`, refund "x-create" would reuse attempt "x"'s create key.
    const attemptKeys = Object.values(attemptRequestIds('x'));
    expect(attemptKeys).not.toContain(refundRequestId('x-create'));
    expect(attemptKeys).not.toContain(refundRequestId('x-capture'));
    expect(Object.values(attemptRequestIds('x-refund'))).not.toContain(refundRequestId('x'));
  });
});
