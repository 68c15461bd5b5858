import type { RuleErrorCode } from './errors.ts';

// The house's result shape (`@cartwright/commerce`'s `Success` and `Failure`: `ok`, `value`,
// `code`, `detail`), copied because a pure package depends on no other; a rule failure adds the
// node at fault and the details the service passes on.

/** A successful outcome. */
export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

/** A refusal: a rule that cannot be imported, compiled or evaluated with these facts. */
export interface RuleFailure {
  readonly ok: false;
  readonly code: RuleErrorCode;
  /** One sentence for people. */
  readonly detail: string;
  /** The JSON pointer of the node at fault ('' for the root, or where there is no node). */
  readonly pointer: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** What every public function of the engine that can refuse returns instead of throwing. */
export type RuleResult<T> = Success<T> | RuleFailure;

/** A success holding `value`. */
export function ok<T>(value: T): Success<T> {
  return { ok: true, value };
}

/** A refusal with its code, its sentence, the node at fault and its details. */
export function fail(
  code: RuleErrorCode,
  detail: string,
  pointer: string,
  details: Readonly<Record<string, unknown>>,
): RuleFailure {
  return { ok: false, code, detail, pointer, details };
}

// The two successes of a decision, allocated once, so evaluation allocates nothing to answer.
const MATCHES: Success<boolean> = Object.freeze({ ok: true, value: true });
const DIFFERS: Success<boolean> = Object.freeze({ ok: true, value: false });

/** A decision as a success (one of the two shared ones). */
export function decided(result: boolean): Success<boolean> {
  return result ? MATCHES : DIFFERS;
}
