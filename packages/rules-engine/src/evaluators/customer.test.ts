import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FactsInput } from '../../test-support/facts.ts';
import { compiled, decide, successValue } from '../../test-support/results.ts';
import { findCondition } from '../catalog/catalog.ts';
import type { CustomerFacts, Facts } from '../facts.ts';
import { buildFacts } from '../facts-schema.ts';
import { CUSTOMER_EVALUATORS } from './customer.ts';
import { EVALUATORS } from './index.ts';

const NAMES = [
  'customerBillingCity',
  'customerBillingStreet',
  'customerShippingCity',
  'customerShippingStreet',
  'customerLastName',
  'customerBillingCountry',
  'customerShippingCountry',
  'customerBillingState',
  'customerShippingState',
  'customerBillingZipCode',
  'customerShippingZipCode',
  'customerAffiliateCode',
  'customerCampaignCode',
  'customerAge',
  'customerBirthday',
  'customerCreatedByAdmin',
  'customerCustomField',
  'customerCustomerGroup',
  'customerRequestedGroup',
  'customerLoggedIn',
  'customerCustomerNumber',
  'customerSalutation',
  'customerTag',
  'customerDaysSinceFirstLogin',
  'customerDaysSinceLastLogin',
  'customerDaysSinceLastOrder',
  'customerDifferentAddresses',
  'customerEmail',
  'customerIsActive',
  'customerIsCompany',
  'customerIsGuest',
  'customerIsNewsletterRecipient',
  'numberOfReviews',
  'customerOrderCount',
  'customerOrderTotalAmount',
] as const;

const NOW = '2024-05-10T12:00:00+00:00';

type AddressInput = NonNullable<FactsInput['billingAddress']>;
type CustomerInput = NonNullable<FactsInput['customer']>;

function address(overrides: AddressInput = {}): AddressInput {
  return {
    id: 'address-1',
    street: 'Hauptstraße 1',
    city: 'Berlin',
    zipcode: '10115',
    countryId: 'country-de',
    stateId: 'state-be',
    ...overrides,
  };
}

function customer(overrides: CustomerInput = {}): CustomerInput {
  return {
    id: 'customer-1',
    number: 'C-1000',
    active: true,
    guest: false,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    birthday: '1990-05-10',
    groupId: 'group-default',
    salutationId: 'salutation-mrs',
    tagIds: ['tag-vip'],
    affiliateCode: 'AFF-1',
    campaignCode: 'SPRING',
    newsletterChannelIds: ['channel-1'],
    firstLogin: '2024-01-01T08:00:00+00:00',
    lastLogin: '2024-05-09T08:00:00+00:00',
    lastOrderDate: '2024-04-30T18:30:00+00:00',
    orderCount: 3,
    orderTotalAmount: 149.9,
    reviewCount: 2,
    ...overrides,
  };
}

const CONTEXT = { channelId: 'channel-1', customerGroupId: 'group-default' };

function baseFacts(overrides: Partial<FactsInput> = {}): Facts {
  return buildFacts({
    now: NOW,
    context: CONTEXT,
    customer: customer(),
    billingAddress: address({ id: 'address-billing' }),
    shippingAddress: address({ id: 'address-shipping', city: 'Hamburg', street: 'Elbchaussee 2' }),
    ...overrides,
  });
}

/** Facts with the customer's fields replaced. */
function withCustomer(overrides: CustomerInput, facts: Partial<FactsInput> = {}): Facts {
  return baseFacts({ customer: customer(overrides), ...facts });
}

/** Facts with customer fields the schema refuses (malformed on purpose), set by hand. */
function withMalformedCustomer(fields: Partial<CustomerFacts>, facts = baseFacts()): Facts {
  return { ...facts, customer: { ...facts.customer!, ...fields } };
}

const visitor = (facts: Partial<FactsInput> = {}): Facts => baseFacts({ customer: null, ...facts });

function check(type: string, value: Record<string, unknown>, facts: Facts) {
  return decide({ type, value }, facts);
}

describe('the customer evaluators', () => {
  it('bind an evaluator to each of the 35 customer conditions, all enabled and compilable', () => {
    expect(Object.keys(CUSTOMER_EVALUATORS).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      expect(EVALUATORS[name], name).toBe(CUSTOMER_EVALUATORS[name]);
      expect(findCondition(name)?.enabled, name).toBe(true);
      expect(compiled({ type: name, value: {} }).needs.size, name).toBe(0);
    }
  });

  it('tolerate malformed values: a boolean or a RULE_INVALID_VALUE failure, never a TypeError', () => {
    const malformed: Record<string, unknown>[] = [
      {},
      { operator: '=' },
      { operator: 'empty' },
      {
        operator: '>',
        cityName: 4,
        streetName: [],
        lastName: {},
        countryIds: 'x',
        stateIds: [1, null],
        zipCodes: [null, 5],
        affiliateCode: 1,
        campaignCode: true,
        age: '18',
        birthday: { from: 1 },
        shouldCustomerBeCreatedByAdmin: 'yes',
        renderedField: 'field',
        renderedFieldValue: {},
        customerGroupIds: {},
        isLoggedIn: 1,
        numbers: 'C-1000',
        salutationIds: null,
        identifiers: 7,
        daysPassed: '2',
        isDifferent: null,
        email: 12,
        isActive: 'true',
        isCompany: 0,
        isGuest: [],
        isNewsletterRecipient: {},
        count: '3',
        amount: null,
      },
    ];
    const factsList = [
      baseFacts(),
      visitor({ billingAddress: null, shippingAddress: null }),
      withMalformedCustomer(
        { birthday: 'not a date', lastLogin: 'garbage' },
        withCustomer({ customFields: { a: 1 }, email: null }),
      ),
    ];
    for (const name of NAMES) {
      for (const value of malformed) {
        for (const facts of factsList) {
          const decision = check(name, value, facts);
          if (typeof decision !== 'boolean') {
            expect(decision, `${name} ${JSON.stringify(value)}`).toMatchObject({
              ok: false,
              code: 'RULE_INVALID_VALUE',
            });
          }
        }
      }
    }
  });
});

describe('address texts (customerBillingCity/Street, customerShippingCity/Street)', () => {
  const cases = [
    { type: 'customerBillingCity', key: 'cityName', field: 'city', side: 'billingAddress' },
    { type: 'customerBillingStreet', key: 'streetName', field: 'street', side: 'billingAddress' },
    { type: 'customerShippingCity', key: 'cityName', field: 'city', side: 'shippingAddress' },
    { type: 'customerShippingStreet', key: 'streetName', field: 'street', side: 'shippingAddress' },
  ] as const;

  for (const { type, key, field, side } of cases) {
    const facts = (text: string | null, more: Partial<FactsInput> = {}): Facts =>
      baseFacts({ [side]: address({ [field]: text }), ...more });

    it(`${type}: compares case-insensitively, without trimming`, () => {
      expect(check(type, { operator: '=', [key]: 'MAIN road' }, facts('main ROAD'))).toBe(true);
      expect(check(type, { operator: '=', [key]: 'Main road' }, facts('Main road '))).toBe(false);
      expect(check(type, { operator: '=', [key]: 'Main road' }, facts('Other road'))).toBe(false);
      expect(check(type, { operator: '!=', [key]: 'Main road' }, facts('Other road'))).toBe(true);
      expect(check(type, { operator: '!=', [key]: 'Main road' }, facts('MAIN ROAD'))).toBe(false);
    });

    it(`${type}: empty is a blank or null value`, () => {
      expect(check(type, { operator: 'empty' }, facts('  '))).toBe(true);
      expect(check(type, { operator: 'empty' }, facts(null))).toBe(true);
      expect(check(type, { operator: 'empty' }, facts('x'))).toBe(false);
      // A null value is '' for the other operators.
      expect(check(type, { operator: '!=', [key]: 'x' }, facts(null))).toBe(true);
      expect(check(type, { operator: '=', [key]: 'x' }, facts(null))).toBe(false);
    });

    it(`${type}: a missing address gives the negative operators`, () => {
      const none = baseFacts({ [side]: null });
      expect(check(type, { operator: '=', [key]: '' }, none)).toBe(false);
      expect(check(type, { operator: '!=', [key]: 'x' }, none)).toBe(true);
      expect(check(type, { operator: 'empty' }, none)).toBe(true);
    });
  }

  it('billing conditions need a customer; shipping ones read the location without one', () => {
    const facts = visitor({
      billingAddress: address({ city: 'Berlin' }),
      shippingAddress: address({ city: 'Berlin' }),
    });
    expect(check('customerBillingCity', { operator: '=', cityName: 'Berlin' }, facts)).toBe(false);
    expect(check('customerBillingCity', { operator: '!=', cityName: 'Berlin' }, facts)).toBe(true);
    expect(check('customerBillingStreet', { operator: 'empty' }, facts)).toBe(true);
    expect(check('customerShippingCity', { operator: '=', cityName: 'Berlin' }, facts)).toBe(true);
    expect(check('customerShippingCity', { operator: '!=', cityName: 'Berlin' }, facts)).toBe(false);
    expect(check('customerShippingStreet', { operator: 'empty' }, facts)).toBe(false);
  });

  it('reject an unsupported operator', () => {
    expect(check('customerBillingCity', { operator: '>', cityName: 'x' }, baseFacts())).toMatchObject({
      ok: false,
      code: 'RULE_INVALID_VALUE',
    });
  });
});

describe('customerLastName', () => {
  it('compares the last name; no customer gives the negative operators', () => {
    expect(check('customerLastName', { operator: '=', lastName: 'lovelace' }, baseFacts())).toBe(true);
    expect(check('customerLastName', { operator: '=', lastName: 'Byron' }, baseFacts())).toBe(false);
    expect(check('customerLastName', { operator: '!=', lastName: 'Byron' }, baseFacts())).toBe(true);
    expect(check('customerLastName', { operator: 'empty' }, baseFacts())).toBe(false);
    expect(check('customerLastName', { operator: 'empty' }, withCustomer({ lastName: ' ' }))).toBe(true);
    expect(check('customerLastName', { operator: '=', lastName: 'Lovelace' }, visitor())).toBe(false);
    expect(check('customerLastName', { operator: '!=', lastName: 'Lovelace' }, visitor())).toBe(true);
    expect(check('customerLastName', { operator: 'empty' }, visitor())).toBe(true);
  });
});

describe('address ids (countries and states)', () => {
  const cases = [
    { type: 'customerBillingCountry', key: 'countryIds', field: 'countryId', side: 'billingAddress' },
    { type: 'customerShippingCountry', key: 'countryIds', field: 'countryId', side: 'shippingAddress' },
    { type: 'customerBillingState', key: 'stateIds', field: 'stateId', side: 'billingAddress' },
    { type: 'customerShippingState', key: 'stateIds', field: 'stateId', side: 'shippingAddress' },
  ] as const;

  for (const { type, key, field, side } of cases) {
    const facts = (id: string | null): Facts => baseFacts({ [side]: address({ [field]: id }) });

    it(`${type}: the address id against the listed ids`, () => {
      expect(check(type, { operator: '=', [key]: ['a', 'b'] }, facts('b'))).toBe(true);
      expect(check(type, { operator: '=', [key]: ['a', 'b'] }, facts('c'))).toBe(false);
      expect(check(type, { operator: '!=', [key]: ['a', 'b'] }, facts('c'))).toBe(true);
      expect(check(type, { operator: '!=', [key]: ['a', 'b'] }, facts('a'))).toBe(false);
      expect(check(type, { operator: 'empty' }, facts('a'))).toBe(false);
    });

    it(`${type}: no id or no address is an empty list`, () => {
      for (const none of [facts(null), facts(''), baseFacts({ [side]: null })]) {
        expect(check(type, { operator: '=', [key]: ['a'] }, none)).toBe(false);
        expect(check(type, { operator: '!=', [key]: ['a'] }, none)).toBe(true);
        expect(check(type, { operator: 'empty' }, none)).toBe(true);
      }
    });
  }

  it('billing ids need a customer; shipping ids do not', () => {
    const facts = visitor({ billingAddress: address(), shippingAddress: address() });
    expect(check('customerBillingCountry', { operator: '=', countryIds: ['country-de'] }, facts)).toBe(false);
    expect(check('customerBillingState', { operator: '!=', stateIds: ['state-be'] }, facts)).toBe(true);
    expect(check('customerShippingCountry', { operator: '=', countryIds: ['country-de'] }, facts)).toBe(true);
    expect(check('customerShippingState', { operator: '!=', stateIds: ['state-be'] }, facts)).toBe(false);
  });
});

describe('zip codes (customerBillingZipCode, customerShippingZipCode)', () => {
  for (const [type, side] of [
    ['customerBillingZipCode', 'billingAddress'],
    ['customerShippingZipCode', 'shippingAddress'],
  ] as const) {
    const facts = (zipcode: string | null): Facts => baseFacts({ [side]: address({ zipcode }) });

    it(`${type}: = and != match patterns with * wildcards, case-insensitively, on the trimmed code`, () => {
      expect(check(type, { operator: '=', zipCodes: ['20095', '10115'] }, facts('10115'))).toBe(true);
      expect(check(type, { operator: '=', zipCodes: ['10*'] }, facts(' 10117 '))).toBe(true);
      expect(check(type, { operator: '=', zipCodes: ['sw1a*'] }, facts('SW1A 1AA'))).toBe(true);
      expect(check(type, { operator: '=', zipCodes: ['*1AA'] }, facts('SW1A 1AA'))).toBe(true);
      expect(check(type, { operator: '=', zipCodes: ['10*'] }, facts('20095'))).toBe(false);
      // Whole-code matches only, and regular-expression characters are literal.
      expect(check(type, { operator: '=', zipCodes: ['101'] }, facts('10115'))).toBe(false);
      expect(check(type, { operator: '=', zipCodes: ['1.115'] }, facts('10115'))).toBe(false);
      expect(check(type, { operator: '=', zipCodes: ['1.1*'] }, facts('1.115'))).toBe(true);
      expect(check(type, { operator: '!=', zipCodes: ['10*', '20*'] }, facts('30159'))).toBe(true);
      expect(check(type, { operator: '!=', zipCodes: ['10*', '20*'] }, facts('20095'))).toBe(false);
    });

    it(`${type}: ordering operators compare numerically with the first listed code`, () => {
      expect(check(type, { operator: '>', zipCodes: ['10000', '99999'] }, facts('10115'))).toBe(true);
      expect(check(type, { operator: '<', zipCodes: ['10000'] }, facts('10115'))).toBe(false);
      expect(check(type, { operator: '>=', zipCodes: ['10115'] }, facts(' 10115'))).toBe(true);
      expect(check(type, { operator: '<=', zipCodes: ['10114'] }, facts('10115'))).toBe(false);
      expect(check(type, { operator: '<', zipCodes: ['2000'] }, facts('01234'))).toBe(true);
      // Dashes (Japanese codes) are removed from the address code.
      expect(check(type, { operator: '>=', zipCodes: ['1000000'] }, facts('100-0001'))).toBe(true);
      expect(check(type, { operator: '<', zipCodes: ['1000000'] }, facts('100-0001'))).toBe(false);
      // Either side not numeric: no match.
      expect(check(type, { operator: '>', zipCodes: ['10000'] }, facts('SW1A 1AA'))).toBe(false);
      expect(check(type, { operator: '<', zipCodes: ['10000'] }, facts('SW1A 1AA'))).toBe(false);
      expect(check(type, { operator: '<', zipCodes: ['AB1', '99999'] }, facts('10115'))).toBe(false);
      expect(check(type, { operator: '<', zipCodes: [] }, facts('10115'))).toBe(false);
    });

    it(`${type}: empty is a blank code; a missing address gives the negative operators`, () => {
      expect(check(type, { operator: 'empty' }, facts(''))).toBe(true);
      expect(check(type, { operator: 'empty' }, facts('  '))).toBe(true);
      expect(check(type, { operator: 'empty' }, facts(null))).toBe(true);
      expect(check(type, { operator: 'empty' }, facts('10115'))).toBe(false);
      const none = baseFacts({ [side]: null });
      expect(check(type, { operator: '=', zipCodes: ['*'] }, none)).toBe(false);
      expect(check(type, { operator: '>', zipCodes: ['0'] }, none)).toBe(false);
      expect(check(type, { operator: '!=', zipCodes: ['*'] }, none)).toBe(true);
      expect(check(type, { operator: 'empty' }, none)).toBe(true);
    });

    it(`${type}: rejects an unsupported operator`, () => {
      expect(check(type, { operator: 'between', zipCodes: ['1'] }, facts('1'))).toMatchObject({
        ok: false,
        code: 'RULE_INVALID_VALUE',
      });
    });
  }

  it('the billing code needs a customer; the shipping location does not', () => {
    const facts = visitor({ billingAddress: address(), shippingAddress: address() });
    expect(check('customerBillingZipCode', { operator: '=', zipCodes: ['10115'] }, facts)).toBe(false);
    expect(check('customerBillingZipCode', { operator: 'empty' }, facts)).toBe(true);
    expect(check('customerShippingZipCode', { operator: '=', zipCodes: ['10115'] }, facts)).toBe(true);
    expect(check('customerShippingZipCode', { operator: 'empty' }, facts)).toBe(false);
  });
});

describe('codes (customerAffiliateCode, customerCampaignCode)', () => {
  for (const [type, key] of [
    ['customerAffiliateCode', 'affiliateCode'],
    ['customerCampaignCode', 'campaignCode'],
  ] as const) {
    const facts = (code: string | null): Facts => withCustomer({ [key]: code });

    it(`${type}: compares the code case-insensitively`, () => {
      expect(check(type, { operator: '=', [key]: 'promo' }, facts('PROMO'))).toBe(true);
      expect(check(type, { operator: '=', [key]: 'promo' }, facts('other'))).toBe(false);
      expect(check(type, { operator: '!=', [key]: 'promo' }, facts('other'))).toBe(true);
      expect(check(type, { operator: '!=', [key]: 'promo' }, facts('Promo'))).toBe(false);
      expect(check(type, { operator: 'empty' }, facts('promo'))).toBe(false);
    });

    it(`${type}: no customer or no code gives the negative operators`, () => {
      // '0' is no code either (PHP truthiness in the reference).
      for (const none of [visitor(), facts(null), facts(''), facts('0')]) {
        expect(check(type, { operator: '=', [key]: '0' }, none)).toBe(false);
        expect(check(type, { operator: '!=', [key]: 'promo' }, none)).toBe(true);
        expect(check(type, { operator: 'empty' }, none)).toBe(true);
      }
    });
  }
});

describe('customerAge', () => {
  const facts = (birthday: string | null, now = NOW): Facts => withCustomer({ birthday }, { now });

  it('counts full years between the birthday and now', () => {
    expect(check('customerAge', { operator: '=', age: 34 }, facts('1990-05-10'))).toBe(true);
    expect(check('customerAge', { operator: '=', age: 34 }, facts('1990-05-11'))).toBe(false);
    expect(check('customerAge', { operator: '=', age: 33 }, facts('1990-05-11'))).toBe(true);
    expect(check('customerAge', { operator: '>=', age: 18 }, facts('2006-05-10'))).toBe(true);
    expect(check('customerAge', { operator: '>=', age: 18 }, facts('2006-05-11'))).toBe(false);
    expect(check('customerAge', { operator: '<', age: 18 }, facts('2006-05-11'))).toBe(true);
    expect(check('customerAge', { operator: '!=', age: 34 }, facts('1990-05-10'))).toBe(false);
    // 29 February birthdays come of age on 1 March in common years, on the day in leap years.
    expect(
      check('customerAge', { operator: '=', age: 22 }, facts('2000-02-29', '2023-02-28T23:59:59Z')),
    ).toBe(true);
    expect(
      check('customerAge', { operator: '=', age: 23 }, facts('2000-02-29', '2023-03-01T00:00:00Z')),
    ).toBe(true);
    expect(
      check('customerAge', { operator: '=', age: 24 }, facts('2000-02-29', '2024-02-29T00:00:00Z')),
    ).toBe(true);
  });

  it('counts in UTC', () => {
    // 2024-05-10T01:00+02:00 is still 9 May in UTC.
    expect(
      check('customerAge', { operator: '=', age: 33 }, facts('1990-05-10', '2024-05-10T01:00:00+02:00')),
    ).toBe(true);
  });

  it('no customer or no birthday gives the negative operators; empty matches only those', () => {
    for (const none of [visitor(), facts(null)]) {
      expect(check('customerAge', { operator: '=', age: 34 }, none)).toBe(false);
      expect(check('customerAge', { operator: '>', age: 1 }, none)).toBe(false);
      expect(check('customerAge', { operator: '!=', age: 34 }, none)).toBe(true);
      expect(check('customerAge', { operator: 'empty' }, none)).toBe(true);
    }
    expect(check('customerAge', { operator: 'empty' }, facts('1990-05-10'))).toBe(false);
  });
});

describe('customerBirthday', () => {
  const facts = (birthday: string | null): Facts => withCustomer({ birthday });

  it('compares the date; the ordering operators on instants, between inclusively', () => {
    expect(check('customerBirthday', { operator: '=', birthday: '1990-05-10' }, facts('1990-05-10'))).toBe(
      true,
    );
    expect(check('customerBirthday', { operator: '=', birthday: '1990-05-11' }, facts('1990-05-10'))).toBe(
      false,
    );
    expect(check('customerBirthday', { operator: '!=', birthday: '1990-05-11' }, facts('1990-05-10'))).toBe(
      true,
    );
    expect(check('customerBirthday', { operator: '>', birthday: '1990-01-01' }, facts('1990-05-10'))).toBe(
      true,
    );
    expect(check('customerBirthday', { operator: '<', birthday: '1990-01-01' }, facts('1990-05-10'))).toBe(
      false,
    );
    expect(check('customerBirthday', { operator: '>=', birthday: '1990-05-10' }, facts('1990-05-10'))).toBe(
      true,
    );
    expect(check('customerBirthday', { operator: '<=', birthday: '1990-05-09' }, facts('1990-05-10'))).toBe(
      false,
    );
    const range = { from: '1990-05-10', to: '1990-12-31' };
    expect(check('customerBirthday', { operator: 'between', birthday: range }, facts('1990-05-10'))).toBe(
      true,
    );
    expect(check('customerBirthday', { operator: 'between', birthday: range }, facts('1991-01-01'))).toBe(
      false,
    );
    expect(
      check('customerBirthday', { operator: 'between', birthday: '1990-05-10' }, facts('1990-05-10')),
    ).toBe(false);
    expect(check('customerBirthday', { operator: '=', birthday: range }, facts('1990-05-10'))).toBe(false);
  });

  it('empty is a null birthday; no customer, birthday or rule value gives the negative operators', () => {
    expect(check('customerBirthday', { operator: 'empty' }, facts(null))).toBe(true);
    expect(check('customerBirthday', { operator: 'empty' }, facts('1990-05-10'))).toBe(false);
    expect(check('customerBirthday', { operator: 'empty' }, visitor())).toBe(true);
    for (const none of [visitor(), facts(null)]) {
      expect(check('customerBirthday', { operator: '=', birthday: '1990-05-10' }, none)).toBe(false);
      expect(check('customerBirthday', { operator: '!=', birthday: '1990-05-10' }, none)).toBe(true);
    }
    expect(check('customerBirthday', { operator: '=' }, facts('1990-05-10'))).toBe(false);
    expect(check('customerBirthday', { operator: '!=', birthday: null }, facts('1990-05-10'))).toBe(true);
  });
});

describe('customerCreatedByAdmin', () => {
  it('compares whether staff created the customer; no customer never matches', () => {
    const key = 'shouldCustomerBeCreatedByAdmin';
    expect(check('customerCreatedByAdmin', { [key]: true }, withCustomer({ createdByAdmin: true }))).toBe(
      true,
    );
    expect(check('customerCreatedByAdmin', { [key]: true }, withCustomer({ createdByAdmin: false }))).toBe(
      false,
    );
    expect(check('customerCreatedByAdmin', { [key]: false }, withCustomer({ createdByAdmin: false }))).toBe(
      true,
    );
    expect(check('customerCreatedByAdmin', { [key]: false }, withCustomer({ createdByAdmin: true }))).toBe(
      false,
    );
    expect(check('customerCreatedByAdmin', { [key]: false }, visitor())).toBe(false);
    expect(check('customerCreatedByAdmin', { [key]: true }, visitor())).toBe(false);
  });
});

// --- customerCustomField --------------------------------------------------------------------------

interface ReferenceCase {
  condition: string;
  params: Record<string, unknown>;
  facts: { customer?: Record<string, unknown> | null } & Record<string, unknown>;
  expected: boolean;
}

// The reference data, copied into the package (test-data/shopware-6.7/README.md names its source).
const REFERENCE = new URL('../../test-data/shopware-6.7/', import.meta.url);
const referenceCases: ReferenceCase[] = readFileSync(new URL('rule-cases.public.jsonl', REFERENCE), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as ReferenceCase)
  .filter((entry) => (NAMES as readonly string[]).includes(entry.condition));

describe('customerCustomField', () => {
  const field = (type: string, config: unknown = []) => ({ name: 'custom_test', type, config });

  it('passes the 26 public reference cases', () => {
    const cases = referenceCases.filter((entry) => entry.condition === 'customerCustomField');
    expect(cases).toHaveLength(26);
    for (const entry of cases) {
      const fields = entry.facts.customer?.customFields as Record<string, unknown>;
      const facts = withCustomer({ customFields: fields });
      expect(check('customerCustomField', entry.params, facts), JSON.stringify(entry.params)).toBe(
        entry.expected,
      );
    }
  });

  it('reads the customer custom field by the rendered field name', () => {
    const value = { operator: '=', renderedField: field('text'), renderedFieldValue: 'gold' };
    expect(check('customerCustomField', value, withCustomer({ customFields: { custom_test: 'gold' } }))).toBe(
      true,
    );
    expect(check('customerCustomField', value, withCustomer({ customFields: { custom_test: 'Gold' } }))).toBe(
      false,
    );
    expect(check('customerCustomField', value, withCustomer({ customFields: { other: 'gold' } }))).toBe(
      false,
    );
    const number = { operator: '>=', renderedField: field('int'), renderedFieldValue: 10 };
    expect(check('customerCustomField', number, withCustomer({ customFields: { custom_test: 12 } }))).toBe(
      true,
    );
    expect(check('customerCustomField', number, withCustomer({ customFields: { custom_test: 8 } }))).toBe(
      false,
    );
  });

  it('compares multi-select values as sets, a list or a single value on either side', () => {
    const stored = (value: unknown) => withCustomer({ customFields: { custom_test: value } });
    for (const componentName of ['sw-multi-select', 'sw-entity-multi-id-select']) {
      const rule = (operator: string, renderedFieldValue: unknown) => ({
        operator,
        renderedField: field('select', { componentName }),
        renderedFieldValue,
      });
      expect(check('customerCustomField', rule('=', ['o1', 'o2']), stored(['o2', 'o3']))).toBe(true);
      expect(check('customerCustomField', rule('!=', ['o1', 'o2']), stored(['o2', 'o3']))).toBe(false);
      expect(check('customerCustomField', rule('=', ['o3']), stored(['o1', 'o2']))).toBe(false);
      expect(check('customerCustomField', rule('!=', ['o3']), stored(['o1', 'o2']))).toBe(true);
      expect(check('customerCustomField', rule('=', ['o1', 'o2']), stored('o1'))).toBe(true);
      expect(check('customerCustomField', rule('=', 'o2'), stored(['o1', 'o2']))).toBe(true);
      expect(check('customerCustomField', rule('!=', 'o2'), stored(['o1']))).toBe(true);
      expect(check('customerCustomField', rule('=', [1, 2]), stored(['2']))).toBe(true);
      // Empty sets share nothing.
      expect(check('customerCustomField', rule('=', ['o1']), stored([]))).toBe(false);
      expect(check('customerCustomField', rule('!=', ['o1']), stored([]))).toBe(true);
      expect(check('customerCustomField', rule('=', []), stored(['o1']))).toBe(false);
      expect(check('customerCustomField', rule('!=', []), stored(['o1']))).toBe(true);
      // A missing field: only != matches (the rule's value is not null).
      expect(check('customerCustomField', rule('=', ['o1']), stored(null))).toBe(false);
      expect(check('customerCustomField', rule('!=', ['o1']), stored(null))).toBe(true);
      // Sets have no order: the ordering operators never match.
      expect(check('customerCustomField', rule('>', ['o1']), stored(['o2']))).toBe(false);
    }
  });

  it('compares lists of other fields as PHP === does, and single values as before', () => {
    const stored = (value: unknown) => withCustomer({ customFields: { custom_test: value } });
    const rule = (operator: string, renderedFieldValue: unknown, config: unknown = []) => ({
      operator,
      renderedField: field('select', config),
      renderedFieldValue,
    });
    expect(check('customerCustomField', rule('=', ['o1', 'o2']), stored(['o1', 'o2']))).toBe(true);
    expect(check('customerCustomField', rule('!=', ['o1', 'o2']), stored(['o1', 'o2']))).toBe(false);
    expect(check('customerCustomField', rule('=', ['o1']), stored(['o1', 'o2']))).toBe(false);
    expect(check('customerCustomField', rule('=', ['o2', 'o1']), stored(['o1', 'o2']))).toBe(false);
    expect(check('customerCustomField', rule('=', 'o1'), stored(['o1']))).toBe(false);
    // A single select (another component) is not a multi-select.
    const single = { componentName: 'sw-single-select' };
    expect(check('customerCustomField', rule('=', 'o1', single), stored('o1'))).toBe(true);
    expect(check('customerCustomField', rule('=', ['o1'], single), stored('o1'))).toBe(false);
    expect(check('customerCustomField', rule('=', '1', single), stored(1))).toBe(false);
    expect(check('customerCustomField', rule('!=', '1', single), stored(1))).toBe(true);
  });

  it('a missing field matches only !=; no customer never matches', () => {
    const differs = { operator: '!=', renderedField: field('text'), renderedFieldValue: 'gold' };
    expect(check('customerCustomField', differs, withCustomer({ customFields: null }))).toBe(true);
    expect(check('customerCustomField', differs, visitor())).toBe(false);
    const bool = { operator: '=', renderedField: field('bool'), renderedFieldValue: false };
    expect(check('customerCustomField', bool, withCustomer({ customFields: null }))).toBe(true);
    expect(check('customerCustomField', bool, visitor())).toBe(false);
  });
});

describe('customer groups', () => {
  it('customerCustomerGroup reads the context group, with or without a customer', () => {
    const value = { operator: '=', customerGroupIds: ['group-default', 'group-b2b'] };
    expect(check('customerCustomerGroup', value, baseFacts())).toBe(true);
    expect(check('customerCustomerGroup', value, visitor())).toBe(true);
    const other = baseFacts({ context: { ...CONTEXT, customerGroupId: 'group-retail' } });
    expect(check('customerCustomerGroup', value, other)).toBe(false);
    expect(check('customerCustomerGroup', { ...value, operator: '!=' }, other)).toBe(true);
    expect(check('customerCustomerGroup', { ...value, operator: '!=' }, baseFacts())).toBe(false);
    // The context group, not the customer's own.
    const differs = withCustomer({ groupId: 'group-retail' });
    expect(check('customerCustomerGroup', value, differs)).toBe(true);
    const none = baseFacts({ context: { ...CONTEXT, customerGroupId: null } });
    expect(check('customerCustomerGroup', value, none)).toBe(false);
    expect(check('customerCustomerGroup', { ...value, operator: '!=' }, none)).toBe(true);
  });

  it('customerRequestedGroup: the requested group; none or no customer gives the negative operators', () => {
    const value = { operator: '=', customerGroupIds: ['group-b2b'] };
    const requested = withCustomer({ requestedGroupId: 'group-b2b' });
    expect(check('customerRequestedGroup', value, requested)).toBe(true);
    expect(check('customerRequestedGroup', { ...value, operator: '!=' }, requested)).toBe(false);
    expect(check('customerRequestedGroup', { operator: 'empty' }, requested)).toBe(false);
    expect(check('customerRequestedGroup', value, withCustomer({ requestedGroupId: 'group-x' }))).toBe(false);
    for (const none of [baseFacts(), visitor()]) {
      expect(check('customerRequestedGroup', value, none)).toBe(false);
      expect(check('customerRequestedGroup', { ...value, operator: '!=' }, none)).toBe(true);
      expect(check('customerRequestedGroup', { operator: 'empty' }, none)).toBe(true);
    }
  });
});

describe('customerLoggedIn', () => {
  it('is whether there is a customer', () => {
    expect(check('customerLoggedIn', { isLoggedIn: true }, baseFacts())).toBe(true);
    expect(check('customerLoggedIn', { isLoggedIn: false }, baseFacts())).toBe(false);
    expect(check('customerLoggedIn', { isLoggedIn: true }, visitor())).toBe(false);
    expect(check('customerLoggedIn', { isLoggedIn: false }, visitor())).toBe(true);
  });
});

describe('customerCustomerNumber', () => {
  it('is the number (case-insensitively) in the list', () => {
    const value = { operator: '=', numbers: ['c-1000', 'C-2000'] };
    expect(check('customerCustomerNumber', value, baseFacts())).toBe(true);
    expect(check('customerCustomerNumber', value, withCustomer({ number: 'c-2000' }))).toBe(true);
    expect(check('customerCustomerNumber', value, withCustomer({ number: 'C-3000' }))).toBe(false);
    expect(
      check('customerCustomerNumber', { ...value, operator: '!=' }, withCustomer({ number: 'C-3000' })),
    ).toBe(true);
    expect(check('customerCustomerNumber', { ...value, operator: '!=' }, baseFacts())).toBe(false);
  });

  it('no number never matches; no customer gives the negative operators', () => {
    const value = { operator: '=', numbers: ['C-1000'] };
    expect(check('customerCustomerNumber', value, withCustomer({ number: null }))).toBe(false);
    expect(
      check('customerCustomerNumber', { ...value, operator: '!=' }, withCustomer({ number: null })),
    ).toBe(false);
    expect(check('customerCustomerNumber', value, visitor())).toBe(false);
    expect(check('customerCustomerNumber', { ...value, operator: '!=' }, visitor())).toBe(true);
  });
});

describe('customerSalutation and customerTag', () => {
  it('customerSalutation: the salutation id; empty is none', () => {
    const value = { operator: '=', salutationIds: ['salutation-mrs', 'salutation-mx'] };
    expect(check('customerSalutation', value, baseFacts())).toBe(true);
    expect(check('customerSalutation', value, withCustomer({ salutationId: 'salutation-mr' }))).toBe(false);
    expect(check('customerSalutation', { ...value, operator: '!=' }, baseFacts())).toBe(false);
    expect(check('customerSalutation', { operator: 'empty' }, baseFacts())).toBe(false);
    for (const none of [withCustomer({ salutationId: null }), visitor()]) {
      expect(check('customerSalutation', value, none)).toBe(false);
      expect(check('customerSalutation', { ...value, operator: '!=' }, none)).toBe(true);
      expect(check('customerSalutation', { operator: 'empty' }, none)).toBe(true);
    }
  });

  it('customerTag: shares a tag, shares none, has none', () => {
    const value = { operator: '=', identifiers: ['tag-vip', 'tag-wholesale'] };
    expect(check('customerTag', value, baseFacts())).toBe(true);
    expect(check('customerTag', value, withCustomer({ tagIds: ['tag-new'] }))).toBe(false);
    expect(check('customerTag', { ...value, operator: '!=' }, withCustomer({ tagIds: ['tag-new'] }))).toBe(
      true,
    );
    expect(check('customerTag', { ...value, operator: '!=' }, baseFacts())).toBe(false);
    expect(check('customerTag', { operator: 'empty' }, baseFacts())).toBe(false);
    for (const none of [withCustomer({ tagIds: [] }), visitor()]) {
      expect(check('customerTag', value, none)).toBe(false);
      expect(check('customerTag', { ...value, operator: '!=' }, none)).toBe(true);
      expect(check('customerTag', { operator: 'empty' }, none)).toBe(true);
    }
  });
});

describe('days since (first login, last login, last order)', () => {
  for (const [type, field] of [
    ['customerDaysSinceFirstLogin', 'firstLogin'],
    ['customerDaysSinceLastLogin', 'lastLogin'],
    ['customerDaysSinceLastOrder', 'lastOrderDate'],
  ] as const) {
    const facts = (date: string | null, now = NOW): Facts => withCustomer({ [field]: date }, { now });

    it(`${type}: counts whole calendar days in UTC`, () => {
      expect(check(type, { operator: '=', daysPassed: 0 }, facts('2024-05-10T11:30:00Z'))).toBe(true);
      expect(check(type, { operator: '=', daysPassed: 1 }, facts('2024-05-09T23:59:00Z'))).toBe(true);
      expect(check(type, { operator: '=', daysPassed: 2 }, facts('2024-05-08T00:00:00Z'))).toBe(true);
      expect(check(type, { operator: '>', daysPassed: 2 }, facts('2024-05-08T00:00:00Z'))).toBe(false);
      expect(check(type, { operator: '>=', daysPassed: 30 }, facts('2024-04-10T12:00:00Z'))).toBe(true);
      expect(check(type, { operator: '<', daysPassed: 30 }, facts('2024-04-10T12:00:00Z'))).toBe(false);
      expect(check(type, { operator: '!=', daysPassed: 1.5 }, facts('2024-05-09T12:00:00Z'))).toBe(true);
      // 01:00 at +02:00 is the previous day in UTC, on both sides.
      expect(
        check(
          type,
          { operator: '=', daysPassed: 1 },
          facts('2024-05-09T12:00:00Z', '2024-05-10T01:00:00+02:00'),
        ),
      ).toBe(false);
      expect(check(type, { operator: '=', daysPassed: 1 }, facts('2024-05-09T01:00:00+02:00'))).toBe(false);
      expect(check(type, { operator: '=', daysPassed: 2 }, facts('2024-05-09T01:00:00+02:00'))).toBe(true);
      // Like DateInterval::days, a date in the future counts its distance too.
      expect(check(type, { operator: '=', daysPassed: 3 }, facts('2024-05-13T08:00:00Z'))).toBe(true);
    });

    it(`${type}: no date or no customer gives the negative operators; empty matches only those`, () => {
      for (const none of [facts(null), withMalformedCustomer({ [field]: 'not a date' }), visitor()]) {
        expect(check(type, { operator: '=', daysPassed: 0 }, none)).toBe(false);
        expect(check(type, { operator: '<', daysPassed: 5 }, none)).toBe(false);
        expect(check(type, { operator: '!=', daysPassed: 0 }, none)).toBe(true);
        expect(check(type, { operator: 'empty' }, none)).toBe(true);
      }
      expect(check(type, { operator: 'empty' }, facts('2024-05-10T11:30:00Z'))).toBe(false);
    });
  }

  it('the trace shows the day count compared', () => {
    const trace = successValue(
      compiled({ type: 'customerDaysSinceLastOrder', value: { operator: '>', daysPassed: 5 } }).explain(
        baseFacts(),
      ),
    );
    expect(trace).toMatchObject({ type: 'customerDaysSinceLastOrder', result: true, actual: 10 });
  });
});

describe('customerDifferentAddresses', () => {
  it('compares the billing and shipping address ids', () => {
    const same = baseFacts({ billingAddress: address({ id: 'a' }), shippingAddress: address({ id: 'a' }) });
    expect(check('customerDifferentAddresses', { isDifferent: true }, baseFacts())).toBe(true);
    expect(check('customerDifferentAddresses', { isDifferent: false }, baseFacts())).toBe(false);
    expect(check('customerDifferentAddresses', { isDifferent: true }, same)).toBe(false);
    expect(check('customerDifferentAddresses', { isDifferent: false }, same)).toBe(true);
  });

  it('never matches without a customer or either address', () => {
    for (const none of [
      visitor(),
      baseFacts({ billingAddress: null }),
      baseFacts({ shippingAddress: null }),
    ]) {
      expect(check('customerDifferentAddresses', { isDifferent: true }, none)).toBe(false);
      expect(check('customerDifferentAddresses', { isDifferent: false }, none)).toBe(false);
    }
  });
});

describe('customerEmail', () => {
  const cases: [string, string, boolean][] = [
    ['=', 'test@example.com', true],
    ['=', 'TEST@Example.com', true],
    ['=', 'foo@example.com', false],
    ['=', 'te*@exa*le.com', true],
    ['=', '*@example.com', true],
    ['=', 'test@*', true],
    ['=', 'foo@*.com', false],
    ['=', '*@example.org', false],
    ['=', 'TEST@*', true],
    ['=', 'test@example*com', true],
    ['=', 'test@exampl.*', false],
    ['!=', 'foo@example.com', true],
    ['!=', 'test@example.com', false],
    ['!=', 'te*@exa*le.com', false],
    ['!=', '*@example.org', true],
  ];

  it.each(cases)('%s %s against test@example.com is %s', (operator, email, expected) => {
    expect(check('customerEmail', { operator, email }, withCustomer({ email: 'test@example.com' }))).toBe(
      expected,
    );
  });

  it('no customer gives the negative operators', () => {
    expect(check('customerEmail', { operator: '=', email: 'test@example.com' }, visitor())).toBe(false);
    expect(check('customerEmail', { operator: '=', email: '*' }, visitor())).toBe(false);
    expect(check('customerEmail', { operator: '!=', email: 'test@example.com' }, visitor())).toBe(true);
    expect(check('customerEmail', { operator: '!=', email: '*' }, visitor())).toBe(true);
  });

  it('rejects operators other than = and !=', () => {
    expect(check('customerEmail', { operator: '<=', email: '*' }, baseFacts())).toMatchObject({
      ok: false,
      code: 'RULE_INVALID_VALUE',
    });
    expect(check('customerEmail', { operator: '<=', email: 'a@b.c' }, baseFacts())).toMatchObject({
      ok: false,
      code: 'RULE_INVALID_VALUE',
    });
  });
});

describe('customer flags', () => {
  it('customerIsActive compares strictly; unknown or no customer never matches', () => {
    expect(check('customerIsActive', { isActive: true }, withCustomer({ active: true }))).toBe(true);
    expect(check('customerIsActive', { isActive: true }, withCustomer({ active: false }))).toBe(false);
    expect(check('customerIsActive', { isActive: false }, withCustomer({ active: false }))).toBe(true);
    expect(check('customerIsActive', { isActive: false }, withCustomer({ active: true }))).toBe(false);
    expect(check('customerIsActive', { isActive: false }, withCustomer({ active: null }))).toBe(false);
    expect(check('customerIsActive', { isActive: true }, withCustomer({ active: null }))).toBe(false);
    expect(check('customerIsActive', { isActive: false }, visitor())).toBe(false);
  });

  it('customerIsCompany: a non-empty company', () => {
    expect(check('customerIsCompany', { isCompany: true }, withCustomer({ company: 'ACME' }))).toBe(true);
    expect(check('customerIsCompany', { isCompany: false }, withCustomer({ company: 'ACME' }))).toBe(false);
    for (const company of [null, '']) {
      expect(check('customerIsCompany', { isCompany: true }, withCustomer({ company }))).toBe(false);
      expect(check('customerIsCompany', { isCompany: false }, withCustomer({ company }))).toBe(true);
    }
    expect(check('customerIsCompany', { isCompany: true }, visitor())).toBe(false);
    expect(check('customerIsCompany', { isCompany: false }, visitor())).toBe(false);
  });

  it('customerIsGuest: the guest flag', () => {
    expect(check('customerIsGuest', { isGuest: true }, withCustomer({ guest: true }))).toBe(true);
    expect(check('customerIsGuest', { isGuest: true }, withCustomer({ guest: false }))).toBe(false);
    expect(check('customerIsGuest', { isGuest: false }, withCustomer({ guest: false }))).toBe(true);
    expect(check('customerIsGuest', { isGuest: false }, withCustomer({ guest: true }))).toBe(false);
    expect(check('customerIsGuest', { isGuest: true }, visitor())).toBe(false);
    expect(check('customerIsGuest', { isGuest: false }, visitor())).toBe(false);
  });

  it('customerIsNewsletterRecipient: subscribed to the current channel', () => {
    const elsewhere = withCustomer({ newsletterChannelIds: ['channel-2'] });
    const noChannel = baseFacts({ context: { ...CONTEXT, channelId: null } });
    expect(check('customerIsNewsletterRecipient', { isNewsletterRecipient: true }, baseFacts())).toBe(true);
    expect(check('customerIsNewsletterRecipient', { isNewsletterRecipient: false }, baseFacts())).toBe(false);
    expect(check('customerIsNewsletterRecipient', { isNewsletterRecipient: true }, elsewhere)).toBe(false);
    expect(check('customerIsNewsletterRecipient', { isNewsletterRecipient: false }, elsewhere)).toBe(true);
    expect(check('customerIsNewsletterRecipient', { isNewsletterRecipient: true }, noChannel)).toBe(false);
    expect(check('customerIsNewsletterRecipient', { isNewsletterRecipient: true }, visitor())).toBe(false);
    expect(check('customerIsNewsletterRecipient', { isNewsletterRecipient: false }, visitor())).toBe(false);
  });

  it('missing flags take the reference defaults', () => {
    const guest = withCustomer({ guest: true, company: 'ACME', createdByAdmin: true, active: false });
    expect(check('customerIsGuest', {}, guest)).toBe(true);
    expect(check('customerIsCompany', {}, guest)).toBe(true);
    expect(check('customerCreatedByAdmin', {}, guest)).toBe(true);
    expect(check('customerIsActive', {}, guest)).toBe(true);
    expect(check('customerIsNewsletterRecipient', {}, baseFacts())).toBe(true);
    expect(check('customerDifferentAddresses', {}, baseFacts())).toBe(true);
    expect(check('customerLoggedIn', {}, visitor())).toBe(true);
  });
});

describe('customer numbers (numberOfReviews, customerOrderCount, customerOrderTotalAmount)', () => {
  for (const [type, key, field] of [
    ['numberOfReviews', 'count', 'reviewCount'],
    ['customerOrderCount', 'count', 'orderCount'],
    ['customerOrderTotalAmount', 'amount', 'orderTotalAmount'],
  ] as const) {
    const facts = (amount: number | null): Facts => withCustomer({ [field]: amount });

    it(`${type}: compares the number`, () => {
      expect(check(type, { operator: '=', [key]: 5 }, facts(5))).toBe(true);
      expect(check(type, { operator: '=', [key]: 5 }, facts(4))).toBe(false);
      expect(check(type, { operator: '!=', [key]: 5 }, facts(4))).toBe(true);
      expect(check(type, { operator: '>', [key]: 5 }, facts(5))).toBe(false);
      expect(check(type, { operator: '>=', [key]: 5 }, facts(5))).toBe(true);
      expect(check(type, { operator: '<', [key]: 5 }, facts(4))).toBe(true);
      expect(check(type, { operator: '<=', [key]: 5 }, facts(6))).toBe(false);
      expect(check(type, { operator: '=', [key]: 0.3 }, facts(0.1 + 0.2))).toBe(true);
    });

    it(`${type}: no customer or no value gives the negative operators`, () => {
      for (const none of [visitor(), facts(null)]) {
        expect(check(type, { operator: '=', [key]: 0 }, none)).toBe(false);
        expect(check(type, { operator: '<', [key]: 5 }, none)).toBe(false);
        expect(check(type, { operator: '!=', [key]: 0 }, none)).toBe(true);
      }
    });
  }
});

// --- The public reference cases of these conditions ------------------------------------------------

/** The reference's "currentTime minus 30 minutes" dates, against NOW. */
const THIRTY_MINUTES_AGO = '2024-05-10T11:30:00+00:00';

function referenceFacts(entry: ReferenceCase): Facts {
  const source = entry.facts.customer;
  if (source === null || source === undefined) return visitor();
  const overrides: Record<string, unknown> = {};
  let billing: AddressInput | undefined;
  for (const [key, given] of Object.entries(source)) {
    if (key === 'activeBillingAddress') {
      const { city, countryStateId } = given as { city?: string; countryStateId?: string };
      billing = address({
        ...(city === undefined ? {} : { city }),
        ...(countryStateId === undefined ? {} : { stateId: countryStateId }),
      });
    } else if (key === 'firstLogin' || key === 'lastLogin' || key === 'lastOrderDate') {
      if (given !== null && !String(given).startsWith('currentTime minus 30 minutes')) {
        throw new Error(`Unmapped date ${String(given)}`);
      }
      overrides[key] = given === null ? null : THIRTY_MINUTES_AGO;
    } else if (key in baseFacts().customer!) {
      overrides[key] = given;
    } else {
      throw new Error(`Unmapped customer fact ${key}`);
    }
  }
  return withCustomer(overrides as CustomerInput, billing === undefined ? {} : { billingAddress: billing });
}

describe('the public reference cases of the customer conditions', () => {
  it('all pass', () => {
    expect(referenceCases.length).toBeGreaterThanOrEqual(112);
    for (const entry of referenceCases) {
      const description = `${entry.condition} ${JSON.stringify(entry.params)} ${JSON.stringify(entry.facts)}`;
      expect(check(entry.condition, entry.params, referenceFacts(entry)), description).toBe(entry.expected);
    }
  });
});

describe('custom field traces', () => {
  it('show the one field compared, not the whole map', () => {
    const rule = compiled({
      type: 'customerCustomField',
      value: { operator: '=', renderedField: { name: 'tier', type: 'text' }, renderedFieldValue: 'gold' },
    });
    const facts = buildFacts({
      now: '2026-11-22T10:00:00Z',
      customer: { customFields: { tier: 'silver', other: 1 } },
    });
    expect(successValue(rule.explain(facts))).toMatchObject({ result: false, actual: 'silver' });
    expect(
      successValue(
        rule.evaluate(
          buildFacts({ now: '2026-11-22T10:00:00Z', customer: { customFields: { tier: 'gold' } } }),
        ),
      ),
    ).toBe(true);
    expect(successValue(rule.explain(buildFacts({ now: '2026-11-22T10:00:00Z' })))).toMatchObject({
      result: false,
    });
  });
});
