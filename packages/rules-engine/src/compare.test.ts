import { describe, expect, it } from 'vitest';
import {
  compareDate,
  compareId,
  compareIds,
  compareNumber,
  compareString,
  compareStringInList,
  compareValueSets,
  lowerCaseList,
} from './index.ts';
import type { RuleResult } from './result.ts';

// The comparisons of the public door: a decision is a success, an unsupported operator a failure.

const ids = new Set(['a']);
const CASES: readonly [string, (operator: unknown) => RuleResult<boolean>, unknown, boolean][] = [
  ['compareNumber', (operator) => compareNumber(2, operator, 2), 'between', true],
  ['compareString', (operator) => compareString('Tea', operator, 'tea'), '>', true],
  [
    'compareStringInList',
    (operator) => compareStringInList('Tea', operator, lowerCaseList(['TEA'])),
    'empty',
    true,
  ],
  ['compareIds', (operator) => compareIds(['a', 'b'], operator, ids), '<', true],
  ['compareId', (operator) => compareId('b', operator, ids), '>=', false],
  ['compareDate', (operator) => compareDate('2024-01-02', operator, '2024-01-02', false), 'like', true],
  ['compareValueSets', (operator) => compareValueSets(['a', 'b'], operator, 'b'), '>', true],
];

describe('the public comparisons', () => {
  it.each(CASES)('%s answers a decision as a success', (_name, compare, _unsupported, decision) => {
    expect(compare('=')).toEqual({ ok: true, value: decision });
  });

  it.each(CASES)('%s returns an unsupported operator as a failure', (_name, compare, unsupported) => {
    expect(compare(unsupported)).toEqual({
      ok: false,
      code: 'RULE_INVALID_VALUE',
      detail: `The operator ${JSON.stringify(unsupported)} is not supported here.`,
      pointer: '',
      details: {},
    });
  });
});

// Value sets (multi-select custom fields): lists, or single values, on either side.
describe('compareValueSets', () => {
  const decide = (actual: unknown, operator: string, expected: unknown) => {
    const result = compareValueSets(actual, operator, expected);
    if (!result.ok) throw new Error(result.detail);
    return result.value;
  };

  it('= holds when the sets share a value, != when they share none', () => {
    expect(decide(['option_2', 'option_3'], '=', ['option_1', 'option_2'])).toBe(true);
    expect(decide(['option_2', 'option_3'], '!=', ['option_1', 'option_2'])).toBe(false);
    expect(decide(['option_1', 'option_2'], '=', ['option_3', 'option_4'])).toBe(false);
    expect(decide(['option_1', 'option_2'], '!=', ['option_3'])).toBe(true);
  });

  it('takes a single value on either side as a set of one', () => {
    expect(decide('option_1', '=', ['option_1', 'option_2'])).toBe(true);
    expect(decide(['option_1', 'option_2'], '=', 'option_2')).toBe(true);
    expect(decide('option_1', '!=', ['option_2'])).toBe(true);
    expect(decide('option_1', '=', 'option_1')).toBe(true);
    expect(decide('option_1', '!=', 'option_2')).toBe(true);
  });

  it('an empty set (or null) shares nothing: = never holds, != always does', () => {
    for (const [actual, expected] of [
      [[], ['a']],
      [['a'], []],
      [[], []],
      [null, ['a']],
      [['a'], null],
      ['a', []],
    ]) {
      expect(decide(actual, '=', expected)).toBe(false);
      expect(decide(actual, '!=', expected)).toBe(true);
    }
  });

  it('compares values by their text, as PHP array_intersect does', () => {
    expect(decide([1, 2], '=', ['2'])).toBe(true);
    expect(decide('3', '=', [3])).toBe(true);
    expect(decide([1.5], '=', ['1.5'])).toBe(true);
    expect(decide([true], '=', ['1'])).toBe(true);
    expect(decide([false], '=', [''])).toBe(true);
    expect(decide([null], '=', [false])).toBe(true);
    // Text is compared exactly: no case folding, no trimming, no numeric reading of "2.0".
    expect(decide(['A'], '=', ['a'])).toBe(false);
    expect(decide(['a '], '=', ['a'])).toBe(false);
    expect(decide(['2.0'], '=', [2])).toBe(false);
  });

  it('reads a JSON object by its values; nested lists share nothing', () => {
    expect(decide({ first: 'a', second: 'b' }, '=', ['b'])).toBe(true);
    expect(decide([['a']], '=', ['a'])).toBe(false);
    expect(decide([['a']], '!=', [['a']])).toBe(true);
  });
});
