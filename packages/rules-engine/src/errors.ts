import { fail, ok, type RuleFailure, type RuleResult } from './result.ts';

/** Stable codes of the engine's failures; the service maps them onto problem responses. */
export type RuleErrorCode =
  | 'RULE_UNKNOWN_CONDITION'
  | 'RULE_CONDITION_DISABLED'
  | 'RULE_INVALID_TREE'
  | 'RULE_INVALID_VALUE'
  | 'RULE_SCOPE_MISSING'
  | 'RULE_REFERENCE_MISSING'
  | 'RULE_REFERENCE_DISABLED'
  | 'RULE_REFERENCE_CYCLE'
  | 'RULE_REFERENCE_DEPTH'
  | 'RULE_REFERENCE_LIMIT';

/**
 * A refusal thrown inside the engine to leave a deep walk early; private. The public functions
 * catch it and return it as a `RuleFailure` (see `refusalOf`); `pointer` is the node at fault.
 */
export class RuleError extends Error {
  readonly code: RuleErrorCode;
  readonly pointer: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: RuleErrorCode,
    message: string,
    pointer = '',
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'RuleError';
    this.code = code;
    this.pointer = pointer;
    this.details = details;
  }
}

/** The failure a caught refusal stands for; anything else caught is a bug and is thrown on. */
export function refusalOf(error: unknown): RuleFailure {
  if (!(error instanceof RuleError)) throw error;
  return fail(error.code, error.message, error.pointer, error.details);
}

/** Runs `compute` at a public door: its value, or the refusal it threw as a failure. */
export function attempt<T>(compute: () => T): RuleResult<T> {
  try {
    return ok(compute());
  } catch (error) {
    return refusalOf(error);
  }
}
