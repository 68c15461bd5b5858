import { describeError } from '@cartwright/service';
import { type DestinationStream, type Logger, pino } from 'pino';

/** How deep into a record's objects errors are looked for (records are small and flat). */
const MAX_DEPTH = 3;

/** The record with every `Error` in it replaced by `describeError`'s redacted description. */
function describeErrorsIn(value: unknown, depth: number): unknown {
  if (value instanceof Error) return describeError(value, { stack: true });
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => describeErrorsIn(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, describeErrorsIn(item, depth + 1)]),
  );
}

/**
 * Structured JSON lines on stderr (stdout stays free for CLI output and MCP stdio). Errors are
 * logged only as `describeError` describes them: never a failed query's bound parameters.
 */
export function createLogger(
  level: string,
  name = 'cartwright',
  destination: DestinationStream = pino.destination(2),
): Logger {
  return pino(
    {
      name,
      level,
      hooks: {
        // Before pino reads the record: it would otherwise take a message-less record's `msg`
        // from the raw error's message (drizzle's holds every parameter) and serialize `err`
        // with all its members (`params`, postgres.js's `parameters`, the row in `detail`).
        logMethod(args, method) {
          const [first, ...rest] = args as unknown[];
          if (typeof first !== 'object' || first === null) return method.apply(this, args);
          const record = describeErrorsIn(first instanceof Error ? { err: first } : first, 0);
          return method.apply(this, [record, ...rest] as Parameters<typeof method>);
        },
      },
      // Already described by the hook: pino's own serializer would copy it apart again.
      serializers: { err: (value: unknown) => value },
    },
    destination,
  );
}
