import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareVersions, isVersion } from './version.ts';

// semver.org §11's example, then releases and numbers past 2^53.
const ASCENDING = [
  '0.0.0',
  '0.9.9',
  '1.0.0-0',
  '1.0.0-1',
  '1.0.0-1a',
  '1.0.0-alpha',
  '1.0.0-alpha.1',
  '1.0.0-alpha.beta',
  '1.0.0-beta',
  '1.0.0-beta.2',
  '1.0.0-beta.11',
  '1.0.0-rc.1',
  '1.0.0',
  '1.0.1',
  '1.2.0',
  '1.10.0',
  '2.0.0-rc.1',
  '2.0.0',
  '9007199254740992.0.0',
  '9007199254740993.0.0',
];

describe('compareVersions', () => {
  it('orders versions by semver precedence', () => {
    ASCENDING.forEach((version, index) => {
      ASCENDING.forEach((other, otherIndex) => {
        expect(Math.sign(compareVersions(version, other)), `${version} vs ${other}`).toBe(
          Math.sign(index - otherIndex),
        );
      });
    });
  });

  it('sorts any shuffle back into order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(ASCENDING, { minLength: 2 }), (versions) => {
        const sorted = [...versions].sort(compareVersions);
        expect(sorted).toEqual(ASCENDING.filter((version) => versions.includes(version)));
      }),
    );
  });

  it('is antisymmetric on generated versions', () => {
    const identifier = fc.oneof(fc.nat({ max: 30 }).map(String), fc.stringMatching(/^[a-z-][a-z0-9-]{0,5}$/));
    const version = fc
      .tuple(
        fc.nat({ max: 5 }),
        fc.nat({ max: 5 }),
        fc.nat({ max: 5 }),
        fc.array(identifier, { maxLength: 3 }),
      )
      .map(
        ([major, minor, patch, pre]) => `${major}.${minor}.${patch}${pre.length ? `-${pre.join('.')}` : ''}`,
      );
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(isVersion(a) && isVersion(b)).toBe(true);
        // `+ 0` makes -0 and 0 one answer (Object.is tells them apart).
        expect(Math.sign(compareVersions(a, b)) + 0).toBe(-Math.sign(compareVersions(b, a)) + 0);
        expect(compareVersions(a, b) === 0).toBe(a === b);
      }),
    );
  });

  it.each([
    '1.0',
    'v1.0.0',
    '1.0.0+build',
    '01.0.0',
    '1.0.0-01',
    '1.0.0-',
    '1.0.0-alpha..1',
    '',
    ' 1.0.0',
    `1.0.0-${'a'.repeat(60)}`,
  ])('refuses %j', (text) => {
    expect(isVersion(text)).toBe(false);
    expect(() => compareVersions(text, '1.0.0')).toThrow(TypeError);
    expect(() => compareVersions('1.0.0', text)).toThrow(TypeError);
  });
});
