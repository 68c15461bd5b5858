import { describe, expect, it } from 'vitest';
import { CHANNEL_SETTINGS_SHAPE } from './channel-settings.ts';
import type { JsonObject } from './json.ts';
import { validateOverrides } from './validate.ts';

const shape = CHANNEL_SETTINGS_SHAPE;
const basis: JsonObject = {
  company: { name: 'Cartwright Demo', legal: { vatId: 'DE123' } },
  shippingMethods: { std: { active: true, translations: { en: { name: 'Standard' } } } },
  paymentMethods: { invoice: { active: true } },
  taxRates: { standard: { rates: { default: 1900 } } },
  taxLabels: { standard: { translations: { en: 'VAT' } } },
  taxRules: { r1: { country: 'CH', rate: 810 } },
  languages: { en: { name: 'English' } },
};
const codesOf = (overrides: JsonObject) =>
  validateOverrides(shape, basis, overrides).map(({ code, pointer }) => [code, pointer]);

describe('validateOverrides', () => {
  it('accepts overrides of every kind', () => {
    expect(
      validateOverrides(shape, basis, {
        company: {
          name: 'Channel AT',
          legal: null,
          contact: { address: { city: 'Wien' } },
          logos: { dark: null },
        },
        deliveryCountries: ['AT'],
        shippingMethods: { std: { active: false, translations: { de: { name: 'Standard' }, en: null } } },
        paymentMethods: { invoice: null },
        taxRates: { standard: { rates: { AT: 2000 } } },
        taxLabels: { standard: { translations: { de: 'USt.' } } },
        taxRules: { r1: null, 'rule-at': { country: 'AT', rate: 2000 } },
      }),
    ).toEqual([]);
  });

  it.each<[string, JsonObject, [string, string][]]>([
    ['a basis-only field', { languages: { de: { name: 'Deutsch' } } }, [['BASIS_ONLY', '/languages']]],
    ['a basis-only field set to null', { taxClasses: null }, [['BASIS_ONLY', '/taxClasses']]],
    ['an empty object at a basis-only field', { countries: {} }, [['BASIS_ONLY', '/countries']]],
    ['a field the settings lack', { slogan: 'Hi' }, [['UNKNOWN_FIELD', '/slogan']]],
    [
      'a field a record lacks',
      { company: { legal: { ceo: 'Ada' } } },
      [['UNKNOWN_FIELD', '/company/legal/ceo']],
    ],
    [
      'a field an entry lacks',
      { shippingMethods: { std: { colour: 'red' } } },
      [['UNKNOWN_FIELD', '/shippingMethods/std/colour']],
    ],
    [
      'an unknown shipping method',
      { shippingMethods: { pickup: { active: true } } },
      [['UNKNOWN_ID', '/shippingMethods/pickup']],
    ],
    [
      'removing an unknown payment method',
      { paymentMethods: { paypal: null } },
      [['UNKNOWN_ID', '/paymentMethods/paypal']],
    ],
    [
      'an unknown tax class',
      { taxRates: { reduced: { rates: { default: 700 } } } },
      [['UNKNOWN_ID', '/taxRates/reduced']],
    ],
    ['removing a tax rule the basis lacks', { taxRules: { r9: null } }, [['UNKNOWN_ID', '/taxRules/r9']]],
    ['a scalar for a record', { company: 'Cartwright' }, [['INVALID_OVERRIDE', '/company']]],
    [
      'an array for a map',
      { taxRates: { standard: { rates: [1900] } } },
      [['INVALID_OVERRIDE', '/taxRates/standard/rates']],
    ],
    ['null for a whole collection', { shippingMethods: null }, [['INVALID_OVERRIDE', '/shippingMethods']]],
    [
      'a scalar for an entry',
      { shippingMethods: { std: false } },
      [['INVALID_OVERRIDE', '/shippingMethods/std']],
    ],
    ['an array for a collection', { taxRules: [] }, [['INVALID_OVERRIDE', '/taxRules']]],
  ])('reports %s', (_name, overrides, expected) => {
    expect(codesOf(overrides)).toEqual(expected);
  });

  it('ignores an empty entry override for an unknown id, since it means "inherit"', () => {
    expect(codesOf({ shippingMethods: { pickup: {} }, company: { legal: {} } })).toEqual([]);
  });

  it('refuses overrides that are not an object', () => {
    expect(codesOf(null as unknown as JsonObject)).toEqual([['INVALID_OVERRIDE', '']]);
    expect(codesOf([] as unknown as JsonObject)).toEqual([['INVALID_OVERRIDE', '']]);
  });

  it('reports every issue in document order, with escaped pointers and a message', () => {
    const issues = validateOverrides(shape, basis, {
      languages: { en: null },
      company: { 'a/b': 1 },
      shippingMethods: { '~x': { active: true }, std: { active: false } },
    });
    expect(issues.map(({ code, pointer }) => [code, pointer])).toEqual([
      ['BASIS_ONLY', '/languages'],
      ['UNKNOWN_FIELD', '/company/a~1b'],
      ['UNKNOWN_ID', '/shippingMethods/~0x'],
    ]);
    for (const issue of issues) expect(issue.message).toMatch(/\w{3,}/);
  });

  it('reads ids as data, not as inherited object properties', () => {
    expect(codesOf({ shippingMethods: { constructor: { active: true } } })).toEqual([
      ['UNKNOWN_ID', '/shippingMethods/constructor'],
    ]);
    expect(codesOf({ company: { toString: 'x' } })).toEqual([['UNKNOWN_FIELD', '/company/toString']]);
  });
});
