import { describe, expect, it } from 'vitest';
import { CHANNEL_SETTINGS_SHAPE } from './channel-settings.ts';
import type { SettingsResult } from './issues.ts';
import type { JsonObject } from './json.ts';
import { normalizeOverrides } from './normalize.ts';
import { applyPatch, diffOverrides, invertPatch, type SettingsPatch } from './patch.ts';
import { resolveSettings } from './resolve.ts';

const shape = CHANNEL_SETTINGS_SHAPE;

/** The value of a result a test expects to succeed. */
function succeeded<T>(result: SettingsResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.detail}`);
  return result.value;
}

/** `applyPatch` for a patch a test knows to be accepted. */
function applied(overrides: JsonObject, patch: SettingsPatch): JsonObject {
  return succeeded(applyPatch(shape, overrides, patch));
}
const basis: JsonObject = {
  company: { name: 'Cartwright Demo', legal: { vatId: 'DE123' } },
  shippingMethods: {
    std: { active: true, translations: { en: { name: 'Standard' } }, position: 1 },
    express: { active: true, position: 2 },
  },
  taxRules: { r1: { country: 'CH', rate: 810 } },
};
const overrides: JsonObject = {
  company: { legal: { vatId: 'ATU1' } },
  shippingMethods: { express: null },
};

describe('applyPatch', () => {
  it('addresses a method by its id', () => {
    const patched = applied(overrides, [
      { op: 'set', path: ['shippingMethods', 'std', 'active'], value: false },
      { op: 'set', path: ['shippingMethods', 'std', 'translations', 'de', 'name'], value: 'Standard' },
    ]);
    expect(patched).toEqual({
      company: { legal: { vatId: 'ATU1' } },
      shippingMethods: {
        express: null,
        std: { active: false, translations: { de: { name: 'Standard' } } },
      },
    });
    expect(succeeded(resolveSettings(shape, basis, patched)).effective.shippingMethods).toEqual({
      std: {
        active: false,
        translations: { en: { name: 'Standard' }, de: { name: 'Standard' } },
        position: 1,
      },
    });
  });

  it('inherits again, pruning the objects left empty', () => {
    expect(
      applied(overrides, [
        { op: 'inherit', path: ['company', 'legal', 'vatId'] },
        { op: 'inherit', path: ['shippingMethods', 'express'] },
        { op: 'inherit', path: ['paymentMethods', 'invoice', 'active'] },
      ]),
    ).toEqual({});
  });

  it('removes an entry with null and brings it back by setting a field of it', () => {
    const removed = applied({}, [{ op: 'set', path: ['shippingMethods', 'std'], value: null }]);
    expect(removed).toEqual({ shippingMethods: { std: null } });
    const back = applied(removed, [{ op: 'set', path: ['shippingMethods', 'std', 'position'], value: 5 }]);
    expect(back).toEqual({ shippingMethods: { std: { position: 5 } } });
  });

  it('sets a whole subtree, replacing what was there', () => {
    expect(applied(overrides, [{ op: 'set', path: ['company'], value: { name: 'AT', legal: {} } }])).toEqual({
      company: { name: 'AT' },
      shippingMethods: { express: null },
    });
  });

  it('keeps an empty object that is a leaf value', () => {
    expect(applied({}, [{ op: 'set', path: ['company', 'contact', 'address'], value: {} }])).toEqual({
      company: { contact: { address: {} } },
    });
  });

  it('replaces or clears the whole document with an empty path', () => {
    expect(applied(overrides, [{ op: 'inherit', path: [] }])).toEqual({});
    expect(applied(overrides, [{ op: 'set', path: [], value: { deliveryCountries: [] } }])).toEqual({
      deliveryCountries: [],
    });
    expect(applyPatch(shape, overrides, [{ op: 'set', path: [], value: null }])).toEqual({
      ok: false,
      code: 'INVALID_OVERRIDE',
      detail:
        'Invalid settings overrides: INVALID_OVERRIDE at "": The whole overrides document can only be set to an object.',
      issues: [
        {
          code: 'INVALID_OVERRIDE',
          pointer: '',
          message: 'The whole overrides document can only be set to an object.',
        },
      ],
    });
  });

  it('refuses a path that continues inside a leaf', () => {
    const result = applyPatch(shape, {}, [
      { op: 'set', path: ['company', 'contact', 'address', 'city'], value: 'Wien' },
    ]);
    expect(result).toEqual({
      ok: false,
      code: 'INVALID_OVERRIDE',
      detail: expect.stringMatching(/INVALID_OVERRIDE at "\/company\/contact\/address\/city"/),
      issues: [
        {
          code: 'INVALID_OVERRIDE',
          pointer: '/company/contact/address/city',
          message: 'The path continues inside a value that is replaced whole.',
        },
      ],
    });
    // An inverse of a refused patch is refused the same way.
    expect(
      invertPatch(shape, {}, [{ op: 'set', path: ['company', 'contact', 'address', 'city'], value: 'Wien' }]),
    ).toEqual(result);
  });

  it('applies basis-only and unknown paths, leaving them to validation', () => {
    const patched = applied({}, [{ op: 'set', path: ['languages', 'de', 'name'], value: 'Deutsch' }]);
    expect(patched).toEqual({ languages: { de: { name: 'Deutsch' } } });
  });

  it('is idempotent and never mutates its input', () => {
    const input = Object.freeze({ ...overrides });
    const patch: SettingsPatch = [
      { op: 'set', path: ['shippingMethods', 'express', 'active'], value: false },
      { op: 'set', path: ['taxRules', 'rule-at'], value: { country: 'AT', rate: 2000 } },
    ];
    const once = applied(input, patch);
    expect(applied(once, patch)).toEqual(once);
    expect(input).toEqual({ company: { legal: { vatId: 'ATU1' } }, shippingMethods: { express: null } });
  });
});

describe('invertPatch and diffOverrides', () => {
  it('undoes a patch exactly', () => {
    const patch: SettingsPatch = [
      { op: 'inherit', path: ['shippingMethods', 'express'] },
      { op: 'set', path: ['company', 'legal'], value: null },
      { op: 'set', path: ['taxRules', 'rule-at'], value: { country: 'AT', rate: 2000 } },
    ];
    const inverse = succeeded(invertPatch(shape, overrides, patch));
    expect(inverse).toEqual([
      { op: 'inherit', path: ['taxRules'] },
      { op: 'set', path: ['company', 'legal'], value: { vatId: 'ATU1' } },
      { op: 'set', path: ['shippingMethods'], value: { express: null } },
    ]);
    expect(applied(applied(overrides, patch), inverse)).toEqual(overrides);
  });

  it('diffs entries by id and leaves whole', () => {
    expect(
      diffOverrides(
        shape,
        { deliveryCountries: ['DE'], shippingMethods: { std: { active: false, position: 1 } } },
        {
          deliveryCountries: ['DE', 'AT'],
          shippingMethods: { std: { active: false, position: 2 }, express: null },
        },
      ),
    ).toEqual([
      { op: 'set', path: ['deliveryCountries'], value: ['DE', 'AT'] },
      { op: 'set', path: ['shippingMethods', 'std', 'position'], value: 2 },
      { op: 'set', path: ['shippingMethods', 'express'], value: null },
    ]);
  });

  it('finds nothing between documents with the same meaning', () => {
    const a = { company: { legal: {} }, shippingMethods: { std: { translations: { de: {} } } } };
    expect(diffOverrides(shape, a, {})).toEqual([]);
    expect(normalizeOverrides(shape, a)).toEqual({});
  });
});
