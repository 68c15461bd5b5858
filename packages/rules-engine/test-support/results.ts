import {
  type CompiledRule,
  type CompileOptions,
  type ConditionTree,
  compileRule,
  type Facts,
  type RuleFailure,
  type RuleResult,
} from '../src/index.ts';

// For the package's tests only (outside src, so never part of what the package ships).

/** The value of a success; a failure fails the test, saying what it was. */
export function successValue<T>(result: RuleResult<T>): T {
  if (!result.ok) {
    throw new Error(`expected a success, got ${result.code} at ${result.pointer || '/'}: ${result.detail}`);
  }
  return result.value;
}

/** The failure of a result; a success fails the test. */
export function failureOf<T>(result: RuleResult<T>): RuleFailure {
  if (result.ok) throw new Error(`expected a failure, got the value ${JSON.stringify(result.value)}`);
  return result;
}

/** A decision as a test compares it: the boolean, or the failure when there is none. */
export function decisionOf(result: RuleResult<boolean>): boolean | RuleFailure {
  return result.ok ? result.value : result;
}

/** Compiles a tree; a refusal fails the test. */
export function compiled(tree: ConditionTree, options?: CompileOptions): CompiledRule {
  return successValue(compileRule(tree, options));
}

/** Compiles and evaluates a tree: the decision, or the failure of compiling or of evaluating. */
export function decide(tree: ConditionTree, facts: Facts, options?: CompileOptions): boolean | RuleFailure {
  const rule = compileRule(tree, options);
  return rule.ok ? decisionOf(rule.value.evaluate(facts)) : rule;
}
