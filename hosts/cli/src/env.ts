import { httpEnvironment } from '@cartwright/http';
import { integerVariable, PROCESS_ROLES } from '@cartwright/service';
import * as v from 'valibot';

/** Every variable `cartwright` reads; the README's configuration table lists the same. */
export const cliEnvironment = {
  ...httpEnvironment,
  PROCESS_ROLE: v.optional(v.picklist(PROCESS_ROLES), 'all'),
  WORKER_POLL_MS: integerVariable(1000, 10, 60_000),
  WORKER_LEASE_MS: integerVariable(30_000, 500, 600_000),
};
