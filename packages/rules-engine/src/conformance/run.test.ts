import { describe, expect, it } from 'vitest';
import { describeResult, runCases } from './run.ts';

const line = (fields: Record<string, unknown>): string => JSON.stringify(fields);

const currency = (expected: unknown, currencyId = 'id-1') =>
  line({
    condition: 'currency',
    params: { operator: '=', currencyIds: ['id-1'] },
    facts: { scope: 'any', 'context.currencyId': currencyId },
    expected,
    source: 'CurrencyRuleTest.php::testMatch',
  });

describe('runCases', () => {
  it('passes a case the engine decides as the reference, fails one it decides otherwise', () => {
    const summary = runCases([currency(true), currency(true, 'other'), '', currency(false, 'other')]);
    expect(summary.results.map((result) => [result.line, result.outcome, result.actual])).toEqual([
      [1, 'pass', true],
      [2, 'fail', false],
      [4, 'pass', false],
    ]);
    expect([summary.passed, summary.failed]).toEqual([2, 1]);
    expect(describeResult(summary.results[1]!)).toBe(
      'FAIL currency [line 2, CurrencyRuleTest.php::testMatch]: expected true, got false',
    );
  });

  it('counts a refusal as a failure with its code and detail', () => {
    const summary = runCases([
      line({
        condition: 'cartCartAmount',
        params: { operator: '>', amount: 1 },
        facts: { scope: 'any' },
        expected: true,
      }),
      line({ condition: 'noSuchCondition', params: {}, facts: { scope: 'any' }, expected: false }),
    ]);
    expect(summary.results.map((result) => result.outcome)).toEqual(['fail', 'fail']);
    expect(summary.results[0]?.message).toMatch(/^RULE_SCOPE_MISSING: /);
    expect(summary.results[1]?.message).toMatch(/^RULE_UNKNOWN_CONDITION: /);
    expect(summary.failed).toBe(2);
  });

  it('reports lines that are not cases as errors', () => {
    const summary = runCases([
      'not json',
      line({ params: {} }),
      line({ condition: 'alwaysValid', facts: {} }),
    ]);
    expect(summary.results.map((result) => result.outcome)).toEqual(['error', 'error', 'error']);
    expect(summary.results[2]?.message).toBe('`expected` is not a boolean');
    expect([summary.passed, summary.failed]).toEqual([0, 3]);
  });

  it('carries the fact keys the translation did not understand', () => {
    const summary = runCases([
      line({ condition: 'alwaysValid', params: {}, facts: { scope: 'any', puzzling: true }, expected: true }),
    ]);
    expect(summary.results[0]).toMatchObject({ outcome: 'pass', unknownFacts: ['puzzling'] });
  });
});
