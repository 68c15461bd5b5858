import { compileRule } from '../engine/compile.ts';
import { type ReferenceCase, translateCase } from './translate.ts';

// Runs reference cases (lines of a `rule-cases.*.jsonl` file) through the engine. Pure: the caller
// reads the file.

/**
 * `pass`: the engine decided as the reference. `fail`: it decided otherwise, or refused the rule
 * or its facts (the reference evaluated it). `error`: the case could not be run at all (not
 * JSON, no condition, an unexpected exception such as a missing evaluator).
 */
export type CaseOutcome = 'pass' | 'fail' | 'error';

export interface CaseResult {
  /** 1-based line number in the input. */
  readonly line: number;
  readonly condition: string;
  readonly source: string;
  readonly expected: boolean | null;
  /** What the engine decided; null when it did not decide. */
  readonly actual: boolean | null;
  readonly outcome: CaseOutcome;
  /** The error's message (`error`), or the refusal's code and detail (`fail` without a decision). */
  readonly message?: string;
  /** Fact keys the translation did not understand (see translateCase). */
  readonly unknownFacts: readonly string[];
}

export interface RunSummary {
  readonly results: readonly CaseResult[];
  readonly passed: number;
  /** Failures and errors. */
  readonly failed: number;
}

/** Runs every non-blank line as one case. */
export function runCases(lines: readonly string[]): RunSummary {
  const results: CaseResult[] = [];
  lines.forEach((text, index) => {
    if (text.trim() !== '') results.push(runCase(text, index + 1));
  });
  const passed = results.filter((result) => result.outcome === 'pass').length;
  return { results, passed, failed: results.length - passed };
}

/** Runs one line. */
export function runCase(text: string, line = 1): CaseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return broken(line, `not JSON: ${messageOf(error)}`);
  }
  if (
    parsed === null ||
    typeof parsed !== 'object' ||
    typeof (parsed as ReferenceCase).condition !== 'string'
  ) {
    return broken(line, 'not a case: an object with a `condition` is expected');
  }
  const testCase = parsed as ReferenceCase;
  const base = {
    line,
    condition: testCase.condition,
    source: typeof testCase.source === 'string' ? testCase.source : '',
    expected: typeof testCase.expected === 'boolean' ? testCase.expected : null,
  };
  if (base.expected === null) {
    return {
      ...base,
      actual: null,
      outcome: 'error',
      message: '`expected` is not a boolean',
      unknownFacts: [],
    };
  }
  let unknownFacts: readonly string[] = [];
  try {
    const translation = translateCase(testCase);
    unknownFacts = translation.unknownFacts;
    const compiled = compileRule(translation.tree);
    const decision = compiled.ok ? compiled.value.evaluate(translation.facts) : compiled;
    if (!decision.ok) {
      const message = `${decision.code}: ${decision.detail}`;
      return { ...base, actual: null, outcome: 'fail', message, unknownFacts };
    }
    const actual = decision.value;
    return { ...base, actual, outcome: actual === base.expected ? 'pass' : 'fail', unknownFacts };
  } catch (error) {
    return { ...base, actual: null, outcome: 'error', message: messageOf(error), unknownFacts };
  }
}

function broken(line: number, message: string): CaseResult {
  return {
    line,
    condition: '',
    source: '',
    expected: null,
    actual: null,
    outcome: 'error',
    message,
    unknownFacts: [],
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One line describing a case that did not pass. */
export function describeResult(result: CaseResult): string {
  const where = `${result.condition || '(no condition)'} [line ${result.line}${result.source ? `, ${result.source}` : ''}]`;
  const got =
    result.actual === null
      ? `${result.outcome === 'error' ? 'error' : 'rejected'}: ${result.message ?? ''}`
      : `expected ${result.expected}, got ${result.actual}`;
  const unknown = result.unknownFacts.length > 0 ? ` (unknown facts: ${result.unknownFacts.join(', ')})` : '';
  return `${result.outcome.toUpperCase()} ${where}: ${got}${unknown}`;
}
