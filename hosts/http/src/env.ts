import { integerVariable, listVariable, outsideEnvironment, storageEnvironment } from '@cartwright/service';
import * as v from 'valibot';

/** `https://shop.example` or `http://localhost:5173`: scheme, host and port, nothing else. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/** The HTTP host's variables (the CLI's `start` reads these too, with the workers' own). */
export const httpEnvironment = {
  PORT: integerVariable(3000, 0, 65_535),
  /** Loopback by default: a local server with a printed owner token should not face the network. */
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '127.0.0.1'),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  BODY_LIMIT_BYTES: integerVariable(1024 * 1024, 1024, 64 * 1024 * 1024),
  /** Browser origins that may call `/store-api/*` (`*` for any); none by default, so no CORS headers. */
  CORS_ORIGINS: listVariable(
    v.pipe(
      v.string(),
      v.check(
        (value) => value === '*' || isOrigin(value),
        'expected origins such as https://shop.example, comma-separated, or *',
      ),
    ),
  ),
  ...storageEnvironment,
  ...outsideEnvironment,
};
