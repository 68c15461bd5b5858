import * as v from 'valibot';

export type EnvEntries = Record<string, v.GenericSchema<string | undefined, unknown>>;

/** Raised when a variable is missing or malformed; the message names it in one line. */
export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
}

/**
 * Validates process variables against a host's entries. Hosts pass `process.env` in; nothing
 * below the host reads it.
 */
export function readEnvironment<TEntries extends EnvEntries>(
  entries: TEntries,
  source: Record<string, string | undefined>,
): v.InferOutput<v.ObjectSchema<TEntries, undefined>> {
  const picked = Object.fromEntries(
    Object.keys(entries).map((key) => [key, source[key] === '' ? undefined : source[key]]),
  );
  const parsed = v.safeParse(v.object(entries), picked);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const name = issue.path?.[0]?.key ?? 'environment';
  throw new EnvironmentError(`Invalid ${String(name)}: ${issue.message}`);
}

/** A whole number from a variable, with a default and bounds. */
export function integerVariable(fallback: number, min: number, max: number) {
  return v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, 'expected a whole number'),
    v.transform(Number),
    v.minValue(min, `expected at least ${min}`),
    v.maxValue(max, `expected at most ${max}`),
  );
}

/** Where the data lives; every host that opens the database reads these two. */
export const storageEnvironment = {
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL'))),
  CARTWRIGHT_DATA_DIR: v.optional(v.string(), '.data'),
};

/**
 * A comma-separated list, each item checked by `item`; blanks around items are ignored and unset
 * means none.
 */
export function listVariable(item: v.GenericSchema<string, string>) {
  return v.pipe(
    v.optional(v.string(), ''),
    v.transform((text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
    v.array(item),
  );
}
