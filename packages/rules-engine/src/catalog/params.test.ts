import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { findCondition } from './catalog.ts';
import { CONDITIONS } from './conditions/index.ts';
import { paramSchema } from './params.ts';

const UUID_A = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const UUID_B = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

function schemaFor(name: string) {
  const condition = findCondition(name);
  if (condition === undefined) throw new Error(`no condition ${name}`);
  return paramSchema(condition);
}

const isValid = (name: string, value: unknown) => v.safeParse(schemaFor(name), value).success;

// [condition, a valid value, that value without a required param, that value with a foreign operator]
const TABLE: readonly [
  string,
  Record<string, unknown>,
  Record<string, unknown>,
  Record<string, unknown> | null,
][] = [
  [
    'cartCartAmount',
    { operator: '>=', amount: 100 },
    { operator: '>=' },
    { operator: 'between', amount: 100 },
  ],
  [
    'customerCustomerGroup',
    { operator: '=', customerGroupIds: [UUID_A] },
    { operator: '=' },
    { operator: '>', customerGroupIds: [UUID_A] },
  ],
  [
    'cartLineItemsInCartCount',
    { operator: '<', count: 3 },
    { operator: '<' },
    { operator: 'between', count: 3 },
  ],
  [
    'dateRange',
    { fromDate: '2021-01-01 00:00:00 UTC', toDate: '2021-01-31T23:59:59', useTime: true },
    { toDate: '2021-01-31T23:59:59', useTime: true },
    null,
  ],
  ['dayOfWeek', { operator: '=', dayOfWeek: 1 }, { operator: '=' }, { operator: '>=', dayOfWeek: 1 }],
  [
    'customerBillingCountry',
    { operator: '!=', countryIds: [UUID_A, UUID_B] },
    { operator: '!=' },
    { operator: '<', countryIds: [UUID_A] },
  ],
  [
    'cartLineItemOfManufacturer',
    { operator: '=', manufacturerIds: [UUID_A] },
    { operator: '=' },
    { operator: '>=', manufacturerIds: [UUID_A] },
  ],
  ['customerOrderCount', { operator: '>', count: 2 }, { operator: '>' }, { operator: 'between', count: 2 }],
  ['timeRange', { fromTime: '8:00', toTime: '18:30' }, { fromTime: '8:00' }, null],
  [
    'cartTotalPurchasePrice',
    { operator: '<=', amount: 50.5, type: 'net' },
    { operator: '<=', amount: 50.5 },
    { operator: 'empty', amount: 50.5, type: 'net' },
  ],
  [
    'customerBirthday',
    { operator: 'between', birthday: { from: '1990-01-01', to: '1999-12-31' } },
    { operator: 'between' },
    { operator: 'like', birthday: '1990-01-01' },
  ],
];

describe('paramSchema', () => {
  it('knows every condition named in the table', () => {
    for (const [name] of TABLE) expect(findCondition(name)).toBeDefined();
  });

  it.each(TABLE)(
    '%s accepts a valid value and rejects a missing param or foreign operator',
    (name, valid, missing, foreign) => {
      expect(isValid(name, valid)).toBe(true);
      expect(isValid(name, missing)).toBe(false);
      if (foreign !== null) expect(isValid(name, foreign)).toBe(false);
    },
  );

  it('rejects wrong types, bad choices and unknown keys', () => {
    expect(isValid('cartLineItemsInCartCount', { operator: '=', count: 1.5 })).toBe(false);
    expect(isValid('cartCartAmount', { operator: '=', amount: '100' })).toBe(false);
    expect(isValid('dayOfWeek', { operator: '=', dayOfWeek: 8 })).toBe(false);
    expect(isValid('cartTotalPurchasePrice', { operator: '=', amount: 1, type: 'tax' })).toBe(false);
    expect(isValid('customerCustomerGroup', { operator: '=', customerGroupIds: [' padded '] })).toBe(false);
    expect(isValid('customerCustomerGroup', { operator: '=', customerGroupIds: [42] })).toBe(false);
    // Native ids are codes where the shop stores codes (tags, countries, currencies).
    expect(isValid('customerTag', { operator: '=', identifiers: ['vip'] })).toBe(true);
    expect(isValid('cartCartAmount', { operator: '=', amount: 1, extra: true })).toBe(false);
    expect(isValid('cartCartAmount', { operator: '=', amount: 1, _name: 'CartAmountRule' })).toBe(true);
  });

  it('takes {from, to} only with between', () => {
    expect(isValid('customerBirthday', { operator: '=', birthday: '1990-05-01' })).toBe(true);
    expect(
      isValid('customerBirthday', { operator: '=', birthday: { from: '1990-01-01', to: '1990-12-31' } }),
    ).toBe(false);
    expect(isValid('customerBirthday', { operator: 'between', birthday: '1990-05-01' })).toBe(false);
  });

  const relaxed = CONDITIONS.filter((c) => c.params.some((p) => p.required === 'unlessEmpty'));
  it.each(relaxed.map((c) => [c.name, c] as const))(
    '%s drops its relaxed params under empty',
    (_name, condition) => {
      const schema = paramSchema(condition);
      const alwaysRequired = condition.params.filter((p) => p.required === true && p.name !== 'operator');
      // Only the relaxed params are omitted; any always-required ones stay required under empty.
      const relaxedOnly = v.safeParse(schema, { operator: 'empty' });
      expect(relaxedOnly.success).toBe(alwaysRequired.length === 0);
    },
  );

  it('keeps the relaxed params required for other operators', () => {
    expect(isValid('cartLineItemOfManufacturer', { operator: 'empty' })).toBe(true);
    expect(isValid('cartLineItemOfManufacturer', { operator: '!=' })).toBe(false);
    expect(isValid('customerBirthday', { operator: 'empty' })).toBe(true);
  });

  it('keeps every param required under empty when the reference does', () => {
    expect(findCondition('cartCartAmount')?.operators).not.toContain('empty');
    expect(isValid('customerCustomerGroup', { operator: 'empty' })).toBe(
      findCondition('customerCustomerGroup')?.params.every(
        (p) => p.required !== true || p.name === 'operator',
      ) ?? false,
    );
  });
});
