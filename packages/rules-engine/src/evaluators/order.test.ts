import { describe, expect, it } from 'vitest';
import type { FactsInput } from '../../test-support/facts.ts';
import { compiled, decide, successValue } from '../../test-support/results.ts';
import { findCondition } from '../catalog/catalog.ts';
import type { Facts } from '../facts.ts';
import { buildFacts } from '../facts-schema.ts';
import { ORDER_EVALUATORS } from './order.ts';

const NAMES = [
  'orderAffiliateCode',
  'orderCampaignCode',
  'adminSalesChannelSource',
  'orderCreatedByAdmin',
  'orderCustomField',
  'orderDeliveryStatus',
  'orderDocumentType',
  'orderDocumentTypeSent',
  'orderStatus',
  'orderTag',
  'orderTrackingCode',
  'orderTransactionStatus',
];

const NOW = '2024-05-01T12:00:00Z';

/** Facts in the order scope, with an open order of the given fields; `null`: no order. */
function orderFacts(order: FactsInput['order'] | null = {}): Facts {
  return buildFacts({ now: NOW, ...(order === null ? {} : { order: { stateId: 'open-state', ...order } }) });
}

function evaluate(type: string, value: Record<string, unknown>, facts: Facts) {
  return decide({ type, value }, facts);
}

describe('the order evaluators', () => {
  it('bind every order condition to an enabled catalog entry', () => {
    expect(Object.keys(ORDER_EVALUATORS).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(findCondition(name)?.enabled, name).toBe(true);
  });

  it('need the order scope for order conditions', () => {
    expect(evaluate('orderStatus', { operator: '=', stateIds: ['x'] }, orderFacts(null))).toMatchObject({
      ok: false,
      code: 'RULE_SCOPE_MISSING',
    });
  });
});

describe.each([
  ['orderAffiliateCode', 'affiliateCode'],
  ['orderCampaignCode', 'campaignCode'],
] as const)('%s', (type, parameter) => {
  const withCode = (code: string | null): Facts => orderFacts({ [parameter]: code });

  it('compares the code case-insensitively', () => {
    expect(evaluate(type, { operator: '=', [parameter]: 'testingCode' }, withCode('TESTINGcode'))).toBe(true);
    expect(evaluate(type, { operator: '=', [parameter]: 'testingCode' }, withCode('otherCode'))).toBe(false);
    expect(evaluate(type, { operator: '!=', [parameter]: 'testingCode' }, withCode('otherCode'))).toBe(true);
    expect(evaluate(type, { operator: '!=', [parameter]: 'testingCode' }, withCode('testingCode'))).toBe(
      false,
    );
    expect(evaluate(type, { operator: '=', [parameter]: 'testingCode' }, withCode(' testingCode'))).toBe(
      false,
    );
  });

  it('treats a blank order code as missing (only `!=` and `empty` match)', () => {
    for (const code of [null, '', '0']) {
      expect(evaluate(type, { operator: 'empty' }, withCode(code))).toBe(true);
      expect(evaluate(type, { operator: 'empty', [parameter]: 'testingCode' }, withCode(code))).toBe(true);
      expect(evaluate(type, { operator: '!=', [parameter]: 'testingCode' }, withCode(code))).toBe(true);
      expect(evaluate(type, { operator: '=', [parameter]: 'testingCode' }, withCode(code))).toBe(false);
    }
    expect(evaluate(type, { operator: 'empty', [parameter]: 'testingCode' }, withCode('testingCode'))).toBe(
      false,
    );
    expect(evaluate(type, { operator: 'empty' }, withCode('   '))).toBe(true);
  });

  it('does not match without a rule code unless the operator is `empty`', () => {
    expect(evaluate(type, { operator: '!=' }, withCode('otherCode'))).toBe(false);
    expect(evaluate(type, { operator: '!=', [parameter]: '' }, withCode(null))).toBe(false);
    expect(evaluate(type, { operator: '=', [parameter]: null }, withCode(null))).toBe(false);
  });
});

describe('adminSalesChannelSource', () => {
  const facts = (adminSource: boolean): Facts => buildFacts({ now: NOW, context: { adminSource } });

  it('compares the admin source with the flag (default false), without an order', () => {
    expect(evaluate('adminSalesChannelSource', { hasAdminSalesChannelSource: true }, facts(true))).toBe(true);
    expect(evaluate('adminSalesChannelSource', { hasAdminSalesChannelSource: true }, facts(false))).toBe(
      false,
    );
    expect(evaluate('adminSalesChannelSource', { hasAdminSalesChannelSource: false }, facts(false))).toBe(
      true,
    );
    expect(evaluate('adminSalesChannelSource', { hasAdminSalesChannelSource: false }, facts(true))).toBe(
      false,
    );
    expect(evaluate('adminSalesChannelSource', {}, facts(false))).toBe(true);
    expect(evaluate('adminSalesChannelSource', {}, facts(true))).toBe(false);
  });
});

describe('orderCreatedByAdmin', () => {
  it('compares whether staff created the order with the flag (default true)', () => {
    const byAdmin = orderFacts({ createdByAdmin: true });
    const byCustomer = orderFacts({ createdByAdmin: false });
    expect(evaluate('orderCreatedByAdmin', { shouldOrderBeCreatedByAdmin: true }, byAdmin)).toBe(true);
    expect(evaluate('orderCreatedByAdmin', { shouldOrderBeCreatedByAdmin: true }, byCustomer)).toBe(false);
    expect(evaluate('orderCreatedByAdmin', { shouldOrderBeCreatedByAdmin: false }, byCustomer)).toBe(true);
    expect(evaluate('orderCreatedByAdmin', { shouldOrderBeCreatedByAdmin: false }, byAdmin)).toBe(false);
    expect(evaluate('orderCreatedByAdmin', {}, byAdmin)).toBe(true);
    expect(evaluate('orderCreatedByAdmin', {}, byCustomer)).toBe(false);
  });
});

describe('orderCustomField', () => {
  const textField = { name: 'custom_order_note', type: 'text' };
  const facts = orderFacts({ customFields: { custom_order_note: 'gift', custom_order_size: 3 } });

  it('compares the named field of the order custom fields', () => {
    const value = (operator: string, renderedFieldValue: unknown) => ({
      operator,
      renderedField: textField,
      selectedField: 'field',
      selectedFieldSet: 'set',
      renderedFieldValue,
    });
    expect(evaluate('orderCustomField', value('=', 'gift'), facts)).toBe(true);
    expect(evaluate('orderCustomField', value('=', 'other'), facts)).toBe(false);
    expect(evaluate('orderCustomField', value('!=', 'other'), facts)).toBe(true);
    const number = {
      operator: '>',
      renderedField: { name: 'custom_order_size', type: 'int' },
      renderedFieldValue: 2,
    };
    expect(evaluate('orderCustomField', number, facts)).toBe(true);
    expect(evaluate('orderCustomField', { ...number, operator: '<' }, facts)).toBe(false);
  });

  it('matches only `!=` when the order lacks the field or has no custom fields', () => {
    const noFields = orderFacts({ customFields: null });
    const rule = { renderedField: textField, renderedFieldValue: 'gift' };
    expect(evaluate('orderCustomField', { ...rule, operator: '=' }, noFields)).toBe(false);
    expect(evaluate('orderCustomField', { ...rule, operator: '!=' }, noFields)).toBe(true);
    const other = orderFacts({ customFields: { unrelated: 'gift' } });
    expect(evaluate('orderCustomField', { ...rule, operator: '=' }, other)).toBe(false);
    expect(evaluate('orderCustomField', { ...rule, operator: '!=' }, other)).toBe(true);
  });

  it('traces the field it compared', () => {
    const rule = { operator: '=', renderedField: textField, renderedFieldValue: 'gift' };
    expect(successValue(compiled({ type: 'orderCustomField', value: rule }).explain(facts))).toMatchObject({
      result: true,
      actual: 'gift',
    });
  });

  it('counts a missing Boolean field as false', () => {
    const rule = { operator: '=', renderedField: { name: 'custom_order_paid', type: 'bool' } };
    expect(evaluate('orderCustomField', { ...rule, renderedFieldValue: false }, facts)).toBe(true);
    expect(evaluate('orderCustomField', { ...rule, renderedFieldValue: true }, facts)).toBe(false);
  });
});

describe('orderDeliveryStatus', () => {
  const delivered = (...stateIds: (string | null)[]): Facts =>
    orderFacts({ deliveries: stateIds.map((stateId) => ({ stateId })) });

  it('compares the delivery states with the rule ids (any shared id)', () => {
    expect(
      evaluate('orderDeliveryStatus', { operator: '=', stateIds: ['shipped', 'x'] }, delivered('shipped')),
    ).toBe(true);
    expect(evaluate('orderDeliveryStatus', { operator: '=', stateIds: ['x'] }, delivered('shipped'))).toBe(
      false,
    );
    expect(evaluate('orderDeliveryStatus', { operator: '!=', stateIds: ['x'] }, delivered('shipped'))).toBe(
      true,
    );
    expect(
      evaluate('orderDeliveryStatus', { operator: '!=', stateIds: ['shipped', 'x'] }, delivered('shipped')),
    ).toBe(false);
    expect(
      evaluate('orderDeliveryStatus', { operator: '=', stateIds: ['open'] }, delivered('shipped', 'open')),
    ).toBe(true);
  });

  it('has no states without deliveries', () => {
    expect(evaluate('orderDeliveryStatus', { operator: '=', stateIds: ['shipped'] }, delivered())).toBe(
      false,
    );
    expect(evaluate('orderDeliveryStatus', { operator: '!=', stateIds: ['shipped'] }, delivered())).toBe(
      true,
    );
    expect(evaluate('orderDeliveryStatus', { operator: '=', stateIds: ['shipped'] }, delivered(null))).toBe(
      false,
    );
  });
});

describe('orderDocumentType and orderDocumentTypeSent', () => {
  const withDocuments = (...documents: [string | null, boolean][]): Facts =>
    orderFacts({ documents: documents.map(([documentTypeId, sent]) => ({ documentTypeId, sent })) });
  const invoiceDraft = withDocuments(['invoice', false]);
  const invoiceSent = withDocuments(['invoice', true], ['delivery-note', false]);

  it('compares the document types of every document', () => {
    expect(
      evaluate('orderDocumentType', { operator: '=', documentIds: ['invoice', 'x'] }, invoiceDraft),
    ).toBe(true);
    expect(evaluate('orderDocumentType', { operator: '=', documentIds: ['x'] }, invoiceDraft)).toBe(false);
    expect(evaluate('orderDocumentType', { operator: '!=', documentIds: ['x'] }, invoiceDraft)).toBe(true);
    expect(evaluate('orderDocumentType', { operator: '!=', documentIds: ['invoice'] }, invoiceDraft)).toBe(
      false,
    );
    expect(evaluate('orderDocumentType', { operator: 'empty' }, invoiceDraft)).toBe(false);
    expect(
      evaluate('orderDocumentType', { operator: 'empty', documentIds: ['invoice'] }, withDocuments()),
    ).toBe(true);
    expect(evaluate('orderDocumentType', { operator: '=', documentIds: ['invoice'] }, withDocuments())).toBe(
      false,
    );
  });

  it('counts only sent documents for orderDocumentTypeSent', () => {
    const sent = 'orderDocumentTypeSent';
    expect(evaluate(sent, { operator: '=', documentIds: ['invoice', 'x'] }, invoiceSent)).toBe(true);
    expect(evaluate(sent, { operator: '=', documentIds: ['delivery-note'] }, invoiceSent)).toBe(false);
    expect(evaluate(sent, { operator: '=', documentIds: ['invoice'] }, invoiceDraft)).toBe(false);
    expect(evaluate(sent, { operator: '!=', documentIds: ['invoice'] }, invoiceDraft)).toBe(true);
    expect(evaluate(sent, { operator: '!=', documentIds: ['invoice'] }, invoiceSent)).toBe(false);
    expect(evaluate(sent, { operator: 'empty', documentIds: ['invoice'] }, invoiceDraft)).toBe(true);
    expect(evaluate(sent, { operator: 'empty', documentIds: ['invoice'] }, invoiceSent)).toBe(false);
    expect(evaluate(sent, { operator: 'empty' }, withDocuments())).toBe(true);
  });
});

describe('orderStatus', () => {
  it('finds the order state in the rule states, ignoring case', () => {
    const facts = orderFacts({ stateId: 'Open-State' });
    expect(evaluate('orderStatus', { operator: '=', stateIds: ['x', 'OPEN-state'] }, facts)).toBe(true);
    expect(evaluate('orderStatus', { operator: '=', stateIds: ['x'] }, facts)).toBe(false);
    expect(evaluate('orderStatus', { operator: '!=', stateIds: ['x'] }, facts)).toBe(true);
    expect(evaluate('orderStatus', { operator: '!=', stateIds: ['open-state', 'x'] }, facts)).toBe(false);
  });

  it('never matches without an order state or without rule states', () => {
    const stateless = orderFacts({ stateId: null });
    expect(evaluate('orderStatus', { operator: '=', stateIds: ['x'] }, stateless)).toBe(false);
    expect(evaluate('orderStatus', { operator: '!=', stateIds: ['x'] }, stateless)).toBe(false);
    expect(evaluate('orderStatus', { operator: '!=' }, orderFacts())).toBe(false);
    expect(evaluate('orderStatus', { operator: '!=', stateIds: null }, orderFacts())).toBe(false);
  });
});

describe('orderTag', () => {
  it('compares the order tags with the rule ids', () => {
    const tagged = orderFacts({ tagIds: ['kyln123'] });
    expect(evaluate('orderTag', { operator: '=', identifiers: ['kyln123', 'kyln456'] }, tagged)).toBe(true);
    expect(evaluate('orderTag', { operator: '=', identifiers: ['kyln000'] }, tagged)).toBe(false);
    expect(evaluate('orderTag', { operator: '!=', identifiers: ['kyln123', 'kyln456'] }, tagged)).toBe(false);
    expect(evaluate('orderTag', { operator: '!=', identifiers: ['kyln000'] }, tagged)).toBe(true);
    expect(evaluate('orderTag', { operator: 'empty' }, tagged)).toBe(false);
    expect(evaluate('orderTag', { operator: 'empty' }, orderFacts())).toBe(true);
    expect(evaluate('orderTag', { operator: '!=', identifiers: ['kyln123'] }, orderFacts())).toBe(true);
    expect(evaluate('orderTag', { operator: '=', identifiers: ['kyln123'] }, orderFacts())).toBe(false);
  });
});

describe('orderTrackingCode', () => {
  const tracked = (...codes: string[][]): Facts =>
    orderFacts({ deliveries: codes.map((trackingCodes) => ({ stateId: 'open', trackingCodes })) });

  it('compares whether any delivery carries a non-blank tracking code with `isSet`', () => {
    expect(evaluate('orderTrackingCode', { isSet: true }, tracked(['TrackingCode123']))).toBe(true);
    expect(evaluate('orderTrackingCode', { isSet: true }, tracked([], ['A', 'B']))).toBe(true);
    expect(evaluate('orderTrackingCode', { isSet: false }, tracked(['TrackingCode123']))).toBe(false);
    expect(evaluate('orderTrackingCode', { isSet: true }, tracked([]))).toBe(false);
    expect(evaluate('orderTrackingCode', { isSet: false }, tracked([]))).toBe(true);
    expect(evaluate('orderTrackingCode', { isSet: true }, tracked(['']))).toBe(false);
    expect(evaluate('orderTrackingCode', { isSet: false }, tracked(['']))).toBe(true);
  });

  it('finds no code without deliveries', () => {
    expect(evaluate('orderTrackingCode', { isSet: true }, tracked())).toBe(false);
    expect(evaluate('orderTrackingCode', {}, tracked(['A']))).toBe(false);
  });
});

describe('orderTransactionStatus', () => {
  const paid = (...transactions: [string | null, string | null][]): Facts =>
    orderFacts({ transactions: transactions.map(([stateId, stateName]) => ({ stateId, stateName })) });

  it('compares the state of the transaction in progress', () => {
    const facts = paid(['in-progress-id', 'in_progress']);
    expect(
      evaluate('orderTransactionStatus', { operator: '=', stateIds: ['In-Progress-Id', 'x'] }, facts),
    ).toBe(true);
    expect(evaluate('orderTransactionStatus', { operator: '=', stateIds: ['x'] }, facts)).toBe(false);
    expect(evaluate('orderTransactionStatus', { operator: '!=', stateIds: ['x'] }, facts)).toBe(true);
    expect(evaluate('orderTransactionStatus', { operator: '!=', stateIds: ['in-progress-id'] }, facts)).toBe(
      false,
    );
  });

  it('skips failed, cancelled and unknown states, falling back to the last transaction', () => {
    const mixed = paid(['failed-id', 'failed'], [null, null], ['paid-id', 'paid'], ['open-id', 'open']);
    expect(evaluate('orderTransactionStatus', { operator: '=', stateIds: ['paid-id'] }, mixed)).toBe(true);
    expect(evaluate('orderTransactionStatus', { operator: '=', stateIds: ['failed-id'] }, mixed)).toBe(false);
    const failing = paid(['failed-id', 'failed'], ['cancelled-id', 'cancelled']);
    expect(evaluate('orderTransactionStatus', { operator: '=', stateIds: ['cancelled-id'] }, failing)).toBe(
      true,
    );
    expect(evaluate('orderTransactionStatus', { operator: '=', stateIds: ['failed-id'] }, failing)).toBe(
      false,
    );
  });

  it('never matches without transactions or without rule states', () => {
    expect(evaluate('orderTransactionStatus', { operator: '=', stateIds: ['x'] }, paid())).toBe(false);
    expect(evaluate('orderTransactionStatus', { operator: '!=', stateIds: ['x'] }, paid())).toBe(false);
    expect(evaluate('orderTransactionStatus', { operator: '!=' }, paid(['open-id', 'open']))).toBe(false);
  });
});
