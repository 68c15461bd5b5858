import { describe, expect, it } from 'vitest';
import { CHANNEL_SETTINGS_SHAPE } from './channel-settings.ts';
import type { JsonObject } from './json.ts';
import { normalizeOverrides } from './normalize.ts';
import { type ResolvedSettings, resolveSettings } from './resolve.ts';
import { collectionOf, leaf, mapOf, type RecordShape, record } from './shape.ts';

const shape = CHANNEL_SETTINGS_SHAPE;

/** `resolveSettings` for overrides a test knows to be valid. */
function resolve(within: RecordShape, base: JsonObject, overrides: JsonObject): ResolvedSettings {
  const result = resolveSettings(within, base, overrides);
  if (!result.ok) throw new Error(`expected resolved settings, got ${result.detail}`);
  return result.value;
}

/** A small but complete shop basis. */
const basis: JsonObject = {
  company: {
    name: 'Cartwright Demo',
    legal: { companyName: 'Cartwright GmbH', legalForm: 'GmbH', vatId: 'DE123', managingDirectors: ['Ada'] },
    contact: { email: 'shop@example.com', address: { street: 'Hauptstr. 1', city: 'Berlin' } },
    logos: { light: 'blob:light', dark: null },
  },
  deliveryCountries: ['DE', 'AT'],
  shippingMethods: {
    std: {
      active: true,
      translations: { en: { name: 'Standard', description: 'In 3 days' }, de: { name: 'Standard' } },
      prices: [{ currency: 'EUR', amount: 490 }],
      position: 1,
      taxClassId: 'standard',
    },
    express: { active: true, translations: { en: { name: 'Express' } }, position: 2 },
  },
  paymentMethods: { invoice: { active: true, translations: { en: { name: 'Invoice' } }, position: 1 } },
  taxRates: { standard: { rates: { default: 1900, AT: 2000 } } },
  taxLabels: { standard: { translations: { en: 'VAT', de: 'MwSt.' } } },
  taxRules: { r1: { country: 'CH', rate: 810, priority: 1, taxClassId: 'standard' } },
  languages: { en: { name: 'English' }, de: { name: 'Deutsch' } },
  countries: { DE: { active: true } },
  taxClasses: { standard: { name: 'Standard' } },
};

describe('resolveSettings', () => {
  it('inherits everything from empty overrides', () => {
    const { effective, provenance } = resolve(shape, basis, {});
    expect(effective).toEqual(basis);
    expect(provenance['/company/legal/vatId']).toBe('inherited');
    expect(provenance['/shippingMethods/std']).toBe('inherited');
    expect(provenance['/shippingMethods/std/translations/en/name']).toBe('inherited');
    // A basis-only value is never overridden, so it is one value to provenance.
    expect(provenance['/languages']).toBe('inherited');
    expect(new Set(Object.values(provenance))).toEqual(new Set(['inherited']));
  });

  it('replaces a leaf whole, arrays included', () => {
    const { effective, provenance } = resolve(shape, basis, { deliveryCountries: ['CH'] });
    expect(effective.deliveryCountries).toEqual(['CH']);
    expect(provenance['/deliveryCountries']).toBe('overridden');
    expect(provenance['/deliveryCountries/0']).toBeUndefined();
  });

  it('replaces an object-valued leaf whole instead of merging it', () => {
    const { effective } = resolve(shape, basis, {
      company: { contact: { address: { city: 'Wien' } } },
    });
    expect(effective.company).toMatchObject({
      contact: { email: 'shop@example.com', address: { city: 'Wien' } },
    });
  });

  it('inherits a record field by field', () => {
    const { effective, provenance } = resolve(shape, basis, {
      company: { legal: { vatId: 'ATU999', registrationCourt: 'Wien' }, logos: { dark: 'blob:dark' } },
    });
    expect(effective.company).toEqual({
      name: 'Cartwright Demo',
      legal: {
        companyName: 'Cartwright GmbH',
        legalForm: 'GmbH',
        vatId: 'ATU999',
        managingDirectors: ['Ada'],
        registrationCourt: 'Wien',
      },
      contact: { email: 'shop@example.com', address: { street: 'Hauptstr. 1', city: 'Berlin' } },
      logos: { light: 'blob:light', dark: 'blob:dark' },
    });
    expect(provenance).toMatchObject({
      '/company/name': 'inherited',
      '/company/legal/companyName': 'inherited',
      '/company/legal/vatId': 'overridden',
      '/company/legal/registrationCourt': 'overridden',
      '/company/logos/light': 'inherited',
      '/company/logos/dark': 'overridden',
    });
  });

  it('tells an explicit null apart from inheritance', () => {
    const inherited = resolve(shape, basis, {});
    const nulled = resolve(shape, basis, { company: { logos: { light: null }, legal: null } });
    expect(inherited.effective.company).toMatchObject({ logos: { light: 'blob:light' } });
    expect(nulled.effective.company).toMatchObject({ logos: { light: null, dark: null }, legal: null });
    expect(nulled.provenance['/company/logos/light']).toBe('overridden');
    expect(nulled.provenance['/company/logos/dark']).toBe('inherited');
    expect(nulled.provenance['/company/legal']).toBe('overridden');
    expect(nulled.provenance['/company/legal/vatId']).toBeUndefined();
  });

  it('inherits a map key by key, and lets a channel add keys', () => {
    const { effective, provenance } = resolve(shape, basis, {
      shippingMethods: {
        std: { translations: { de: { description: 'In 2 Tagen' }, fr: { name: 'Standard FR' } } },
      },
    });
    expect(effective.shippingMethods).toMatchObject({
      std: {
        translations: {
          en: { name: 'Standard', description: 'In 3 days' },
          de: { name: 'Standard', description: 'In 2 Tagen' },
          fr: { name: 'Standard FR' },
        },
      },
    });
    expect(provenance).toMatchObject({
      '/shippingMethods/std': 'overridden',
      '/shippingMethods/std/translations/de/name': 'inherited',
      '/shippingMethods/std/translations/de/description': 'overridden',
      '/shippingMethods/std/translations/fr/name': 'overridden',
      '/shippingMethods/express': 'inherited',
    });
  });

  it('overrides a collection entry by id, field by field', () => {
    const { effective, provenance } = resolve(shape, basis, {
      shippingMethods: { express: { active: false, prices: [{ currency: 'EUR', amount: 990 }] } },
      taxRates: { standard: { rates: { AT: 1000 } } },
    });
    expect(effective.shippingMethods).toMatchObject({
      std: { active: true, position: 1 },
      express: { active: false, translations: { en: { name: 'Express' } }, position: 2 },
    });
    expect(effective.taxRates).toEqual({ standard: { rates: { default: 1900, AT: 1000 } } });
    expect(provenance).toMatchObject({
      '/shippingMethods/express': 'overridden',
      '/shippingMethods/express/active': 'overridden',
      '/shippingMethods/express/position': 'inherited',
      '/shippingMethods/std/active': 'inherited',
      '/taxRates/standard/rates/default': 'inherited',
      '/taxRates/standard/rates/AT': 'overridden',
    });
  });

  it('removes an entry with null, which differs from inheriting it', () => {
    const removed = resolve(shape, basis, { shippingMethods: { express: null } });
    const inherited = resolve(shape, basis, { shippingMethods: {} });
    expect(Object.keys(removed.effective.shippingMethods as JsonObject)).toEqual(['std']);
    expect(Object.keys(inherited.effective.shippingMethods as JsonObject)).toEqual(['std', 'express']);
    expect(removed.provenance['/shippingMethods/express']).toBe('removed');
    expect(
      Object.keys(removed.provenance).filter((pointer) => pointer.startsWith('/shippingMethods/express')),
    ).toEqual(['/shippingMethods/express']);
    expect(inherited.provenance['/shippingMethods/express']).toBe('inherited');
  });

  it('adds a tax rule the basis does not have', () => {
    const rule = { country: 'AT', state: null, priority: 2, taxClassId: 'standard', rate: 1000 };
    const { effective, provenance } = resolve(shape, basis, { taxRules: { 'rule-at': rule } });
    expect(effective.taxRules).toEqual({ r1: (basis.taxRules as JsonObject).r1, 'rule-at': rule });
    expect(provenance['/taxRules/rule-at']).toBe('overridden');
    expect(provenance['/taxRules/rule-at/country']).toBe('overridden');
    expect(provenance['/taxRules/rule-at/state']).toBe('overridden');
    expect(provenance['/taxRules/r1/country']).toBe('inherited');
  });

  it('treats an empty override object like an absent one', () => {
    expect(
      resolve(shape, basis, {
        company: { legal: {} },
        shippingMethods: { std: { translations: {} } },
      }),
    ).toEqual(resolve(shape, basis, {}));
  });

  it('passes basis fields beyond the shape through as inherited', () => {
    const withExtra = { ...basis, revision: 7 };
    const { effective, provenance } = resolve(shape, withExtra, {});
    expect(effective.revision).toBe(7);
    expect(provenance['/revision']).toBe('inherited');
  });

  it('escapes pointers and keeps keys named like object properties as data', () => {
    const small = record({
      texts: mapOf(leaf),
      items: collectionOf(record({ a: leaf }), { additions: true }),
    });
    const { effective, provenance } = resolve(
      small,
      { texts: { 'a/b': 'x', '~c': 'y' } },
      JSON.parse('{"texts": {"__proto__": "z"}, "items": {"constructor": {"a": 1}}}'),
    );
    expect(Object.hasOwn(effective.texts as JsonObject, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(effective.texts)).toBe(Object.prototype);
    expect(provenance).toEqual({
      '/texts/a~1b': 'inherited',
      '/texts/~0c': 'inherited',
      '/texts/__proto__': 'overridden',
      '/items/constructor': 'overridden',
      '/items/constructor/a': 'overridden',
    });
  });

  it('refuses invalid overrides with a clear value instead of throwing', () => {
    const result = resolveSettings(shape, basis, { shippingMethods: { pickup: { active: true } } });
    expect(result).toEqual({
      ok: false,
      code: 'UNKNOWN_ID',
      detail: expect.stringMatching(/UNKNOWN_ID at "\/shippingMethods\/pickup"/),
      issues: [{ code: 'UNKNOWN_ID', pointer: '/shippingMethods/pickup', message: expect.any(String) }],
    });
    const many = resolveSettings(shape, basis, {
      company: { motto: 'x' },
      countries: { DE: null },
    });
    expect(many).toMatchObject({ ok: false, code: 'UNKNOWN_FIELD' });
    if (!many.ok) {
      expect(many.detail).toMatch(
        /^Invalid settings overrides: UNKNOWN_FIELD at "\/company\/motto": .+ \(and 1 more\)$/,
      );
      expect(many.issues.map((issue) => [issue.code, issue.pointer])).toEqual([
        ['UNKNOWN_FIELD', '/company/motto'],
        ['BASIS_ONLY', '/countries'],
      ]);
    }
  });

  it('refuses an overrides document that is not an object; normalizing one is a caller bug', () => {
    const notAnObject = [] as unknown as JsonObject;
    expect(resolveSettings(shape, basis, notAnObject)).toMatchObject({
      ok: false,
      code: 'INVALID_OVERRIDE',
      issues: [{ code: 'INVALID_OVERRIDE', pointer: '', message: 'The overrides must be an object.' }],
    });
    expect(() => normalizeOverrides(shape, notAnObject)).toThrow(
      new TypeError('The overrides must be an object.'),
    );
  });

  it('never mutates its inputs and shares no objects with them', () => {
    const overrides = deepFreeze({ shippingMethods: { std: { active: false } }, deliveryCountries: ['CH'] });
    const frozenBasis = deepFreeze(structuredClone(basis));
    const { effective } = resolve(shape, frozenBasis, overrides);
    expect(Object.isFrozen(effective.company)).toBe(false);
    expect(effective.deliveryCountries).not.toBe(overrides.deliveryCountries);
    expect((effective.company as JsonObject).legal).not.toBe((frozenBasis.company as JsonObject).legal);
  });
});

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
