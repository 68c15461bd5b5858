/** A successful outcome. */
export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

/** An expected business failure: a stable `code` for programs and a `detail` sentence for people. */
export interface Failure<Code extends string = string> {
  readonly ok: false;
  readonly code: Code;
  readonly detail: string;
}

/** What every fallible function of this package returns instead of throwing. */
export type Result<T, Code extends string = string> = Success<T> | Failure<Code>;

export function ok<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function fail<Code extends string>(code: Code, detail: string): Failure<Code> {
  return { ok: false, code, detail };
}
