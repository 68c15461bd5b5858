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

/** A rule that cannot be compiled or evaluated; `pointer` is the JSON pointer of the node at fault. */
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
