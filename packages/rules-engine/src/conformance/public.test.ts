import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeResult, runCases } from './run.ts';

// The reference's public evaluation cases, copied into the package (test-data/shopware-6.7/README.md).
const CASES = new URL('../../test-data/shopware-6.7/rule-cases.public.jsonl', import.meta.url);
const summary = runCases(readFileSync(CASES, 'utf8').split(/\r?\n/));

it('decides at least 99% of the public reference cases as the reference', () => {
  const failures = summary.results.filter((result) => result.outcome !== 'pass');
  if (failures.length > 0) console.log(failures.map(describeResult).join('\n'));
  console.log(`${summary.passed} passed, ${summary.failed} failed`);
  expect(summary.results.length).toBeGreaterThanOrEqual(395);
  expect(summary.passed / summary.results.length).toBeGreaterThanOrEqual(0.99);
});

it('understands every fact key of the public cases', () => {
  const unknown = summary.results.flatMap((result) =>
    result.unknownFacts.map((key) => `line ${result.line}: ${key}`),
  );
  expect(unknown).toEqual([]);
});
