import { httpEnvironment } from '@cartwright/http';
import { PROCESS_ROLES } from '@cartwright/service';
import { workerTimingEnvironment } from '@cartwright/worker';
import * as v from 'valibot';

/** Every variable `cartwright` reads; the README's configuration table lists the same. */
export const cliEnvironment = {
  ...httpEnvironment,
  ...workerTimingEnvironment,
  PROCESS_ROLE: v.optional(v.picklist(PROCESS_ROLES), 'all'),
};
