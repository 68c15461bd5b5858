import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeResult, runCase } from './run.ts';

// Cartwright's own cases in the reference's vocabulary, for behaviour the public reference cases do
// not cover (issue 14, item 9: line items' purchase prices in the cart scope; custom fields over
// multi-select values). Unlike the public cases, every one must pass and be fully understood.
const CASES = new URL('../../test-data/cartwright/rule-cases.issue-14.jsonl', import.meta.url);
const lines = readFileSync(CASES, 'utf8')
  .split(/\r?\n/)
  .map((text, index) => ({ text, line: index + 1 }))
  .filter(({ text }) => text.trim() !== '');

describe('own reference-vocabulary cases (test-data/cartwright)', () => {
  it('has the cases', () => {
    expect(lines.length).toBeGreaterThanOrEqual(26);
  });

  it.each(lines.map(({ text, line }) => [`line ${line}: ${JSON.parse(text).source}`, text, line] as const))(
    '%s',
    (_name, text, line) => {
      const result = runCase(text, line);
      expect(result.unknownFacts, describeResult(result)).toEqual([]);
      expect(result.outcome, describeResult(result)).toBe('pass');
    },
  );
});
