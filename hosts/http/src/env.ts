import { integerVariable, storageEnvironment } from '@cartwright/service';
import * as v from 'valibot';

/** The HTTP host's variables (the CLI's `start` reads these too, with the workers' own). */
export const httpEnvironment = {
  PORT: integerVariable(3000, 0, 65_535),
  /** Loopback by default: a local server with a printed owner token should not face the network. */
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '127.0.0.1'),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  BODY_LIMIT_BYTES: integerVariable(1024 * 1024, 1024, 64 * 1024 * 1024),
  ...storageEnvironment,
};
