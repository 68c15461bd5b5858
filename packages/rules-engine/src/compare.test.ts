import { describe, expect, it } from 'vitest';
import {
  compareDate,
  compareId,
  compareIds,
  compareNumber,
  compareString,
  compareStringInList,
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
