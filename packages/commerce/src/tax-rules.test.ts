import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  matchTaxDestinationRule,
  normalizePostcode,
  type TaxDestination,
  type TaxDestinationRule,
  type TaxPostcodeCondition,
  type TaxRuleContext,
  taxDestinationRuleMatches,
  validateTaxDestinationRule,
} from './tax-rules.ts';

const rule = (overrides: Partial<TaxDestinationRule> = {}): TaxDestinationRule => ({
  id: 'rule',
  country: 'DE',
  state: null,
  postcode: null,
  validFrom: null,
  validUntil: null,
  priority: 0,
  ruleId: null,
  taxClassId: null,
  rate: 1900,
  ...overrides,
});

const context = (overrides: Partial<TaxRuleContext> = {}): TaxRuleContext => ({
  at: '2025-06-01T12:00:00Z',
  taxClassId: 'standard',
  matchingRuleIds: new Set(),
  ...overrides,
});

const dresden: TaxDestination = { country: 'DE', state: 'DE-SN', postcode: '01067' };

/** Whether the one rule matches `destination` (the matcher with a single candidate). */
const matches = (candidate: TaxDestinationRule, destination = dresden, at = context()) =>
  matchTaxDestinationRule([candidate], destination, at) === candidate;

describe('matchTaxDestinationRule: matching', () => {
  it('matches the country case-insensitively and nothing else', () => {
    expect(matches(rule())).toBe(true);
    expect(matches(rule(), { country: 'de' })).toBe(true);
    expect(matches(rule({ country: 'AT' }))).toBe(false);
    expect(matchTaxDestinationRule([], dresden, context())).toBeNull();
  });

  it('requires the state when the rule names one', () => {
    expect(matches(rule({ state: 'DE-SN' }))).toBe(true);
    expect(matches(rule({ state: 'DE-SN' }), { ...dresden, state: 'de-sn' })).toBe(true);
    expect(matches(rule({ state: 'DE-BY' }))).toBe(false);
    expect(matches(rule({ state: 'DE-SN' }), { country: 'DE', postcode: '01067' })).toBe(false);
    expect(matches(rule({ state: 'DE-SN' }), { country: 'DE', state: null })).toBe(false);
  });

  it.each<[string, TaxPostcodeCondition, string, boolean]>([
    ['single equal', { kind: 'single', value: '01067' }, '01067', true],
    ['single other', { kind: 'single', value: '01067' }, '01069', false],
    ['single normalized', { kind: 'single', value: 'sw1a 1aa' }, ' SW1A1AA ', true],
    ['list hit', { kind: 'list', values: ['80331', '01067'] }, '01067', true],
    ['list miss', { kind: 'list', values: ['80331', '80333'] }, '01067', false],
    ['prefix hit', { kind: 'prefix', value: '010' }, '01067', true],
    ['prefix miss', { kind: 'prefix', value: '011' }, '01067', false],
    ['prefix longer than the postcode', { kind: 'prefix', value: '010670' }, '01067', false],
    ['prefix normalized', { kind: 'prefix', value: 'sw1a ' }, 'sw1a 1aa', true],
    ['range with leading zeros, inside', { kind: 'range', from: '01067', to: '01099' }, '01080', true],
    ['range lower bound inclusive', { kind: 'range', from: '01067', to: '01099' }, '01067', true],
    ['range upper bound inclusive', { kind: 'range', from: '01067', to: '01099' }, '01099', true],
    ['range below', { kind: 'range', from: '01067', to: '01099' }, '01066', false],
    ['range above', { kind: 'range', from: '01067', to: '01099' }, '01100', false],
    ['range, far outside', { kind: 'range', from: '01067', to: '01099' }, '80331', false],
    // 1080 would sort between 01067 and 01099 as numbers but has a different length.
    ['range, shorter postcode', { kind: 'range', from: '01067', to: '01099' }, '1080', false],
    ['range, longer postcode', { kind: 'range', from: '01067', to: '01099' }, '010800', false],
    ['alphanumeric range inside', { kind: 'range', from: 'SW1A1AA', to: 'SW1Z9ZZ' }, 'sw1p 3bu', true],
    ['alphanumeric range outside', { kind: 'range', from: 'SW1A1AA', to: 'SW1Z9ZZ' }, 'SW2A1AA', false],
  ])('postcode %s', (_name, postcode, destinationPostcode, expected) => {
    expect(matches(rule({ postcode }), { country: 'DE', postcode: destinationPostcode })).toBe(expected);
  });

  it('never matches a postcode condition without a destination postcode', () => {
    for (const postcode of [null, undefined, '', '  ']) {
      expect(matches(rule({ postcode: { kind: 'prefix', value: '0' } }), { country: 'DE', postcode })).toBe(
        false,
      );
      expect(matches(rule(), { country: 'DE', postcode })).toBe(true);
    }
  });

  it('applies from validFrom (inclusive) until validUntil (exclusive)', () => {
    const window = rule({ validFrom: '2025-01-01T00:00:00Z', validUntil: '2025-07-01T00:00:00Z' });
    const at = (instant: string) => matches(window, dresden, context({ at: instant }));
    expect(at('2024-12-31T23:59:59.999Z')).toBe(false);
    expect(at('2025-01-01T00:00:00Z')).toBe(true);
    expect(at('2025-01-01T01:00:00+01:00')).toBe(true);
    expect(at('2025-06-30T23:59:59.999Z')).toBe(true);
    expect(at('2025-07-01T00:00:00Z')).toBe(false);
    // The same instant as the end, written in another zone.
    expect(at('2025-07-01T02:00:00+02:00')).toBe(false);
    expect(at('2025-07-01T01:59:59+02:00')).toBe(true);
  });

  it('treats an open bound as unbounded and a malformed instant as never applying', () => {
    expect(
      matches(rule({ validFrom: '2025-01-01T00:00:00Z' }), dresden, context({ at: '9999-01-01T00:00Z' })),
    ).toBe(true);
    expect(
      matches(rule({ validUntil: '2025-01-01T00:00:00Z' }), dresden, context({ at: '1970-01-01T00:00Z' })),
    ).toBe(true);
    expect(matches(rule({ validFrom: '2025-01-01' }))).toBe(false);
    expect(matches(rule({ validFrom: '2025-01-01T00:00:00Z' }), dresden, context({ at: 'yesterday' }))).toBe(
      false,
    );
    // Without a window the instant is not read at all.
    expect(matches(rule(), dresden, context({ at: 'yesterday' }))).toBe(true);
  });

  it('requires the saved rule condition to match', () => {
    const conditional = rule({ ruleId: 'big-spender' });
    expect(matches(conditional)).toBe(false);
    expect(matches(conditional, dresden, context({ matchingRuleIds: new Set(['other']) }))).toBe(false);
    expect(
      matches(conditional, dresden, context({ matchingRuleIds: new Set(['other', 'big-spender']) })),
    ).toBe(true);
  });

  it('filters by tax class; null applies to every class', () => {
    expect(matches(rule({ taxClassId: 'standard' }))).toBe(true);
    expect(matches(rule({ taxClassId: 'reduced' }))).toBe(false);
    expect(matches(rule({ taxClassId: null }), dresden, context({ taxClassId: 'reduced' }))).toBe(true);
  });
});

describe('matchTaxDestinationRule: the winner', () => {
  const winner = (rules: TaxDestinationRule[], destination = dresden) =>
    matchTaxDestinationRule(rules, destination, context())?.id;

  it('takes the highest priority over any specificity', () => {
    const rules = [
      rule({ id: 'a', priority: 1, state: 'DE-SN', postcode: { kind: 'single', value: '01067' } }),
      rule({ id: 'b', priority: 5 }),
      rule({ id: 'c', priority: -3, postcode: { kind: 'single', value: '01067' } }),
    ];
    expect(winner(rules)).toBe('b');
    expect(winner([...rules, rule({ id: 'd', priority: 6, country: 'AT' })])).toBe('b');
  });

  it.each<[string, Partial<TaxDestinationRule>, Partial<TaxDestinationRule>]>([
    [
      'single over range',
      { postcode: { kind: 'single', value: '01067' } },
      { postcode: { kind: 'range', from: '01000', to: '01999' } },
    ],
    [
      'list over range',
      { postcode: { kind: 'list', values: ['01067'] } },
      { postcode: { kind: 'range', from: '01000', to: '01999' } },
    ],
    [
      'range over prefix',
      { postcode: { kind: 'range', from: '01000', to: '01999' } },
      { postcode: { kind: 'prefix', value: '0106' } },
    ],
    [
      'longer prefix first',
      { postcode: { kind: 'prefix', value: '0106' } },
      { postcode: { kind: 'prefix', value: '01' } },
    ],
    ['prefix over no postcode', { postcode: { kind: 'prefix', value: '0' } }, { state: 'DE-SN' }],
    [
      'postcode before state',
      { postcode: { kind: 'prefix', value: '0' } },
      { state: 'DE-SN', postcode: null },
    ],
    ['state over no state', { state: 'DE-SN' }, {}],
    [
      'state over no state with equal postcodes',
      { state: 'DE-SN', postcode: { kind: 'prefix', value: '01' } },
      { postcode: { kind: 'prefix', value: '01' } },
    ],
  ])('on equal priority: %s', (_name, better, worse) => {
    // The loser gets the smaller id so only the specificity can decide.
    const rules = [rule({ ...worse, id: 'a' }), rule({ ...better, id: 'b' })];
    expect(winner(rules)).toBe('b');
    expect(winner(rules.toReversed())).toBe('b');
  });

  it('treats single and list as equally specific, then takes the smallest id', () => {
    const rules = [
      rule({ id: 'b', postcode: { kind: 'single', value: '01067' } }),
      rule({ id: 'a', postcode: { kind: 'list', values: ['01067', '01069'] } }),
    ];
    expect(winner(rules)).toBe('a');
    expect(winner(rules.toReversed())).toBe('a');
  });

  it('ends a full tie with the smallest id in code-unit order', () => {
    const rules = ['b', 'B', 'a10', 'a2'].map((id) => rule({ id }));
    expect(winner(rules)).toBe('B');
    expect(winner(rules.filter(({ id }) => id !== 'B'))).toBe('a10');
  });
});

describe('validateTaxDestinationRule', () => {
  it('accepts a complete rule and a minimal one', () => {
    expect(validateTaxDestinationRule(rule())).toEqual([]);
    expect(
      validateTaxDestinationRule(
        rule({
          state: 'DE-BY',
          postcode: { kind: 'range', from: '80000', to: '87999' },
          validFrom: '2025-01-01T00:00:00+01:00',
          validUntil: '2026-01-01T00:00:00.000Z',
          priority: -2,
          ruleId: 'rule-1',
          taxClassId: 'reduced',
          rate: 700,
        }),
      ),
    ).toEqual([]);
    expect(
      validateTaxDestinationRule(rule({ postcode: { kind: 'single', value: 'sw1a 1aa' }, rate: 0 })),
    ).toEqual([]);
    expect(
      validateTaxDestinationRule(rule({ postcode: { kind: 'list', values: ['1000', '1010'] } })),
    ).toEqual([]);
    expect(validateTaxDestinationRule(rule({ rate: 10_000 }))).toEqual([]);
  });

  it.each<[string, Partial<TaxDestinationRule>, string, string]>([
    ['an empty id', { id: ' ' }, 'TAX_RULE_INVALID_ID', '/id'],
    ['a lower-case country', { country: 'de' }, 'TAX_RULE_INVALID_COUNTRY', '/country'],
    ['an alpha-3 country', { country: 'DEU' }, 'TAX_RULE_INVALID_COUNTRY', '/country'],
    ['a malformed state', { state: 'Bavaria' }, 'TAX_RULE_INVALID_STATE', '/state'],
    ['a state of another country', { state: 'AT-9' }, 'TAX_RULE_STATE_NOT_OF_COUNTRY', '/state'],
    [
      'an empty single postcode',
      { postcode: { kind: 'single', value: '  ' } },
      'TAX_RULE_INVALID_POSTCODE',
      '/postcode/value',
    ],
    [
      'a postcode with symbols',
      { postcode: { kind: 'prefix', value: '01*' } },
      'TAX_RULE_INVALID_POSTCODE',
      '/postcode/value',
    ],
    [
      'an empty list',
      { postcode: { kind: 'list', values: [] } },
      'TAX_RULE_EMPTY_POSTCODE_LIST',
      '/postcode/values',
    ],
    [
      'a bad list entry',
      { postcode: { kind: 'list', values: ['01067', ''] } },
      'TAX_RULE_INVALID_POSTCODE',
      '/postcode/values/1',
    ],
    [
      'a reversed range',
      { postcode: { kind: 'range', from: '01099', to: '01067' } },
      'TAX_RULE_RANGE_REVERSED',
      '/postcode/to',
    ],
    [
      'range bounds of different lengths',
      { postcode: { kind: 'range', from: '1000', to: '09999' } },
      'TAX_RULE_RANGE_LENGTHS_DIFFER',
      '/postcode/to',
    ],
    [
      'an unknown postcode kind',
      { postcode: { kind: 'regex', value: '.*' } as unknown as TaxPostcodeCondition },
      'TAX_RULE_INVALID_POSTCODE',
      '/postcode/kind',
    ],
    ['a date without a time', { validFrom: '2025-01-01' }, 'TAX_RULE_INVALID_INSTANT', '/validFrom'],
    [
      'a local time without a zone',
      { validUntil: '2025-01-01T00:00:00' },
      'TAX_RULE_INVALID_INSTANT',
      '/validUntil',
    ],
    [
      'a day that does not exist',
      { validFrom: '2025-02-29T00:00:00Z' },
      'TAX_RULE_INVALID_INSTANT',
      '/validFrom',
    ],
    ['hour 24', { validFrom: '2025-01-01T24:00:00Z' }, 'TAX_RULE_INVALID_INSTANT', '/validFrom'],
    [
      'an equal window',
      { validFrom: '2025-01-01T00:00:00Z', validUntil: '2025-01-01T01:00:00+01:00' },
      'TAX_RULE_EMPTY_WINDOW',
      '/validUntil',
    ],
    [
      'a reversed window',
      { validFrom: '2025-02-01T00:00:00Z', validUntil: '2025-01-01T00:00:00Z' },
      'TAX_RULE_EMPTY_WINDOW',
      '/validUntil',
    ],
    ['a fractional priority', { priority: 1.5 }, 'TAX_RULE_INVALID_PRIORITY', '/priority'],
    ['an empty rule id', { ruleId: '' }, 'TAX_RULE_INVALID_REFERENCE', '/ruleId'],
    ['an empty tax class', { taxClassId: '' }, 'TAX_RULE_INVALID_REFERENCE', '/taxClassId'],
    ['a negative rate', { rate: -1 }, 'TAX_RULE_RATE_OUT_OF_RANGE', '/rate'],
    ['a rate over 100 %', { rate: 10_001 }, 'TAX_RULE_RATE_OUT_OF_RANGE', '/rate'],
    ['a fractional rate', { rate: 19.5 }, 'TAX_RULE_RATE_OUT_OF_RANGE', '/rate'],
  ])('reports %s', (_name, overrides, code, pointer) => {
    const issues = validateTaxDestinationRule(rule(overrides));
    expect(issues).toEqual([{ code, pointer, message: expect.any(String) }]);
  });

  it('reports every issue at once, in field order, and never throws on junk', () => {
    const issues = validateTaxDestinationRule(
      rule({
        country: 'DE',
        state: 'AT-9',
        postcode: { kind: 'list', values: [] },
        rate: -5,
        validFrom: 'soon',
      }),
    );
    expect(issues.map(({ pointer }) => pointer)).toEqual([
      '/state',
      '/postcode/values',
      '/validFrom',
      '/rate',
    ]);
    for (const postcode of [{ kind: 'range' }, 'x', undefined, { kind: 'list', values: [1, null] }]) {
      const junk = { id: 1, country: null, state: 7, postcode, validFrom: 3, validUntil: {} };
      expect(validateTaxDestinationRule(junk as unknown as TaxDestinationRule).length).toBeGreaterThan(5);
    }
  });
});

// Properties, checked against a small matcher and ranking written independently of the module.

// The pools are small and lean towards values that match, so rules often match and often tie.
const POSTCODES = ['01067', '01069', '01099', '01100', '1080', '80331', 'SW1A 1AA', 'sw1p3bu'];
const INSTANTS = [
  '2024-01-01T00:00:00Z',
  '2025-01-01T00:00:00Z',
  '2025-06-01T12:00:00Z',
  '2026-01-01T00:00:00Z',
];

/** `null` three times in five, else one of `values`. */
const mostlyNull = <T>(...values: T[]): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.constantFrom(...values), weight: 2 });

const postcodeArbitrary: fc.Arbitrary<TaxPostcodeCondition | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  fc.constantFrom('01067', '01067', '01069', 'sw1a 1aa').map((value) => ({ kind: 'single' as const, value })),
  fc
    .uniqueArray(fc.constantFrom(...POSTCODES), { minLength: 1, maxLength: 3 })
    .map((values) => ({ kind: 'list' as const, values })),
  fc
    .constantFrom('0', '01', '010', '0106', '8', 'SW1', 'sw1a 1')
    .map((value) => ({ kind: 'prefix' as const, value })),
  fc
    .constantFrom<[string, string]>(
      ['01000', '01099'],
      ['01067', '01067'],
      ['01100', '09999'],
      ['SW1A1AA', 'SW1Z9ZZ'],
    )
    .map(([from, to]) => ({ kind: 'range' as const, from, to })),
);

const ruleFields = fc.record({
  country: fc.constantFrom('DE', 'DE', 'DE', 'AT'),
  state: mostlyNull('DE-SN', 'DE-SN', 'DE-BY', 'AT-9'),
  postcode: postcodeArbitrary,
  validFrom: mostlyNull('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z', '2025-06-01T12:00:00Z'),
  validUntil: mostlyNull('2025-06-01T12:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
  priority: fc.integer({ min: 0, max: 2 }),
  ruleId: mostlyNull('r1', 'r2'),
  taxClassId: mostlyNull('standard', 'reduced'),
  rate: fc.integer({ min: 0, max: 10_000 }),
});

const rulesArbitrary = fc
  .uniqueArray(fc.stringMatching(/^[a-cA-C0-9]{1,2}$/), { minLength: 1, maxLength: 12 })
  .chain((ids) => fc.tuple(...ids.map((id) => ruleFields.map((fields) => ({ id, ...fields })))))
  .map((rules): TaxDestinationRule[] => rules);

const destinationArbitrary: fc.Arbitrary<TaxDestination> = fc.record({
  country: fc.constantFrom('DE', 'de', 'DE', 'AT'),
  state: fc.constantFrom(null, undefined, 'DE-SN', 'de-sn', 'DE-SN', 'de-by', 'AT-9'),
  postcode: fc.oneof(
    { arbitrary: fc.constantFrom('01067', ' 010 67 '), weight: 3 },
    { arbitrary: fc.constantFrom(null, undefined, '', ...POSTCODES, ' 01 080 ', '01066'), weight: 2 },
  ),
});

const contextArbitrary: fc.Arbitrary<TaxRuleContext> = fc.record({
  at: fc.constantFrom(...INSTANTS, '2025-03-01T10:00:00+02:00', '2025-03-01T10:00:00+02:00'),
  taxClassId: fc.constantFrom('standard', 'reduced'),
  matchingRuleIds: fc.subarray(['r1', 'r2', 'r3']).map((ids) => new Set(ids)),
});

/** The tiny independent matcher. */
function oracleMatches(
  candidate: TaxDestinationRule,
  destination: TaxDestination,
  ctx: TaxRuleContext,
): boolean {
  const squash = (text: string) => text.split(/\s/).join('').toUpperCase();
  const postcode = squash(destination.postcode ?? '');
  const condition = candidate.postcode;
  let postcodeOk = true;
  if (condition !== null) {
    if (postcode.length === 0) postcodeOk = false;
    else if (condition.kind === 'single') postcodeOk = squash(condition.value) === postcode;
    else if (condition.kind === 'list') postcodeOk = condition.values.map(squash).includes(postcode);
    else if (condition.kind === 'prefix')
      postcodeOk = postcode.slice(0, squash(condition.value).length) === squash(condition.value);
    else {
      const bounds = [squash(condition.from), squash(condition.to)];
      postcodeOk =
        bounds.every((bound) => bound.length === postcode.length) &&
        [bounds[0], postcode, bounds[1]].join('|') === [bounds[0], postcode, bounds[1]].sort().join('|');
    }
  }
  const at = new Date(ctx.at).getTime();
  return (
    candidate.country.toLowerCase() === destination.country.toLowerCase() &&
    (candidate.state === null || candidate.state.toLowerCase() === (destination.state ?? '').toLowerCase()) &&
    postcodeOk &&
    (candidate.validFrom === null || new Date(candidate.validFrom).getTime() <= at) &&
    (candidate.validUntil === null || at < new Date(candidate.validUntil).getTime()) &&
    (candidate.ruleId === null || ctx.matchingRuleIds.has(candidate.ruleId)) &&
    (candidate.taxClassId === null || candidate.taxClassId === ctx.taxClassId)
  );
}

/** The documented ranking as a sort key: smaller sorts first. */
function oracleKey(candidate: TaxDestinationRule): [number, number, number, number] {
  const condition = candidate.postcode;
  const kind = condition === null ? 3 : { single: 0, list: 0, range: 1, prefix: 2 }[condition.kind];
  const prefixLength = condition?.kind === 'prefix' ? normalizePostcode(condition.value).length : 0;
  return [-candidate.priority, kind, -prefixLength, candidate.state === null ? 1 : 0];
}

function oracleWinner(
  rules: readonly TaxDestinationRule[],
  destination: TaxDestination,
  ctx: TaxRuleContext,
): TaxDestinationRule | null {
  const ranked = rules
    .filter((candidate) => oracleMatches(candidate, destination, ctx))
    .sort((a, b) => {
      const [ka, kb] = [oracleKey(a), oracleKey(b)];
      const index = ka.findIndex((value, i) => value !== kb[i]);
      if (index >= 0) return ka[index]! - kb[index]!;
      return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
    });
  return ranked[0] ?? null;
}

describe('matchTaxDestinationRule: properties', () => {
  it('does not depend on the order of the rules', () => {
    fc.assert(
      fc.property(
        rulesArbitrary.chain((rules) =>
          fc.tuple(fc.constant(rules), fc.shuffledSubarray(rules, { minLength: rules.length })),
        ),
        destinationArbitrary,
        contextArbitrary,
        ([rules, shuffled], destination, ctx) => {
          expect(matchTaxDestinationRule(shuffled, destination, ctx)).toBe(
            matchTaxDestinationRule(rules, destination, ctx),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('picks a rule that matches, the first by the documented ranking, or null when none matches', () => {
    fc.assert(
      fc.property(rulesArbitrary, destinationArbitrary, contextArbitrary, (rules, destination, ctx) => {
        const winner = matchTaxDestinationRule(rules, destination, ctx);
        if (winner !== null) {
          expect(oracleMatches(winner, destination, ctx)).toBe(true);
          expect(taxDestinationRuleMatches(winner, destination, ctx)).toBe(true);
        }
        for (const candidate of rules) {
          expect(taxDestinationRuleMatches(candidate, destination, ctx)).toBe(
            oracleMatches(candidate, destination, ctx),
          );
          if (oracleMatches(candidate, destination, ctx)) {
            expect(winner?.priority).toBeGreaterThanOrEqual(candidate.priority);
          }
        }
        expect(winner).toBe(oracleWinner(rules, destination, ctx));
      }),
      { numRuns: 1000 },
    );
  });

  it('never changes its answer when a rule that does not match is added', () => {
    const breakers: ((candidate: TaxDestinationRule) => TaxDestinationRule)[] = [
      (candidate) => ({ ...candidate, country: 'ZZ' }),
      (candidate) => ({ ...candidate, state: 'ZZ-1' }),
      (candidate) => ({ ...candidate, postcode: { kind: 'single', value: 'NOWHERE' } }),
      (candidate) => ({ ...candidate, postcode: { kind: 'range', from: '99990', to: '99999' } }),
      (candidate) => ({ ...candidate, validFrom: null, validUntil: '2000-01-01T00:00:00Z' }),
      (candidate) => ({ ...candidate, validFrom: '2100-01-01T00:00:00Z', validUntil: null }),
      (candidate) => ({ ...candidate, ruleId: 'never' }),
      (candidate) => ({ ...candidate, taxClassId: 'no-such-class' }),
    ];
    fc.assert(
      fc.property(
        rulesArbitrary,
        ruleFields,
        fc.constantFrom(...breakers),
        fc.nat(),
        fc.integer({ min: -5, max: 100 }),
        destinationArbitrary,
        contextArbitrary,
        (rules, fields, breaker, position, priority, destination, ctx) => {
          const extra = breaker({ id: '!', ...fields, priority });
          expect(oracleMatches(extra, destination, ctx)).toBe(false);
          const index = position % (rules.length + 1);
          const more = [...rules.slice(0, index), extra, ...rules.slice(index)];
          expect(matchTaxDestinationRule(more, destination, ctx)).toBe(
            matchTaxDestinationRule(rules, destination, ctx),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('lets a matching rule of strictly higher priority win', () => {
    fc.assert(
      fc.property(
        rulesArbitrary,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        destinationArbitrary,
        contextArbitrary,
        (rules, withState, withPostcode, withClass, position, destination, ctx) => {
          const postcode = destination.postcode?.trim() ? destination.postcode : null;
          const extra: TaxDestinationRule = {
            // The largest id, so it could never win a tie on id.
            id: '~',
            country: destination.country,
            state: withState ? (destination.state ?? null) : null,
            postcode: withPostcode && postcode !== null ? { kind: 'single', value: postcode } : null,
            validFrom: '2000-01-01T00:00:00Z',
            validUntil: null,
            priority: Math.max(0, ...rules.map((candidate) => candidate.priority)) + 1,
            ruleId: null,
            taxClassId: withClass ? ctx.taxClassId : null,
            rate: 0,
          };
          const index = position % (rules.length + 1);
          const more = [...rules.slice(0, index), extra, ...rules.slice(index)];
          expect(matchTaxDestinationRule(more, destination, ctx)).toBe(extra);
        },
      ),
      { numRuns: 500 },
    );
  });
});
