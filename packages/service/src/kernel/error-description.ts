/** Causes (and aggregated errors) followed at most this deep: a cycle or a long chain ends here. */
const MAX_DEPTH = 5;
const MAX_FRAMES = 20;
const MAX_AGGREGATED = 5;

export interface DescribeErrorOptions {
  /** Include the stack frames (never the stack's first line: it repeats the message). */
  readonly stack?: boolean;
}

/**
 * What a log may say about an exception, the same on every host: name, message, SQLSTATE or
 * system `code`, the SQL text and the schema names a database error points at (constraint,
 * table, column), optionally the stack frames, and the same for every `cause`. Never bound
 * parameters, the database's `detail` (it quotes the row), or any other member: a failed
 * query's parameters carry customer data, password hashes and tokens.
 */
export function describeError(error: unknown, options: DescribeErrorOptions = {}): Record<string, unknown> {
  return describe(error, options, 0, undefined);
}

function describe(
  error: unknown,
  options: DescribeErrorOptions,
  depth: number,
  parentQuery: string | undefined,
): Record<string, unknown> {
  if (!(error instanceof Error)) {
    // An object's own toString could print its members; only primitives are shown as they are.
    return {
      message:
        typeof error === 'object' && error !== null
          ? `a thrown ${error.constructor?.name ?? 'object'}, not an Error`
          : String(error),
    };
  }
  const fields = error as Error & Record<string, unknown>;
  const code = typeof fields.code === 'string' || typeof fields.code === 'number' ? fields.code : undefined;
  const query = typeof fields.query === 'string' ? fields.query : undefined;
  const described: Record<string, unknown> = {
    name: error.name,
    message: messageOf(error, code, query),
  };
  if (code !== undefined) described.code = code;
  // drizzle's wrapper and postgres.js's error both carry the statement: say it once.
  if (query !== undefined && query !== parentQuery) described.query = query;
  for (const [key, names] of SCHEMA_NAMES) {
    const value = names.map((name) => fields[name]).find((candidate) => typeof candidate === 'string');
    if (value !== undefined) described[key] = value;
  }
  if (options.stack && typeof error.stack === 'string') {
    const frames = error.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .slice(0, MAX_FRAMES)
      .map((line) => line.trim());
    if (frames.length > 0) described.stack = frames;
  }
  if (depth < MAX_DEPTH) {
    if (error.cause !== undefined) {
      described.cause = describe(error.cause, options, depth + 1, query ?? parentQuery);
    }
    if (error instanceof AggregateError && Array.isArray(error.errors)) {
      described.errors = error.errors
        .slice(0, MAX_AGGREGATED)
        .map((inner: unknown) => describe(inner, options, depth + 1, query ?? parentQuery));
    }
  }
  return described;
}

/** Schema names a database error points at, under PGlite's and postgres.js's spellings. */
const SCHEMA_NAMES: readonly (readonly [string, readonly string[]])[] = [
  ['constraint', ['constraint', 'constraint_name']],
  ['table', ['table', 'table_name']],
  ['column', ['column', 'column_name']],
];

function messageOf(error: Error, code: string | number | undefined, query: string | undefined): string {
  // drizzle: "Failed query: <sql>\nparams: <every bound value>"; the SQL is kept as `query`.
  if (query !== undefined && error.message.startsWith('Failed query: ')) return 'Failed query';
  const [message = ''] = error.message.split(/\nparams: /, 1);
  // A data exception (SQLSTATE class 22) quotes the offending input, as does valibot's
  // "received …": keep the sentence, drop the value.
  const quotesInput = (typeof code === 'string' && code.startsWith('22')) || error.name === 'ValiError';
  return quotesInput ? message.replace(/"(?:[^"]|"")*"/g, '"…"') : message;
}
