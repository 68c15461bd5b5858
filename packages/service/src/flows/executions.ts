import {
  countUnresolvedFlowJobs,
  type Executor,
  FLOW_JOB_STATUSES,
  type FlowJobRow,
  type FlowJobStatus,
  listFlowJobs,
} from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { INT32, IntegerIn, iso, NullableTimestamp, Timestamp, Uuid } from '../kernel/schemas.ts';

// The executions view: flow jobs newest first, filtered and paged, cheap enough to poll every 3 s,
// always with the shop's count of jobs waiting for a resolution. `automation.executions` answers
// it, and `automation.list` carries its first page (the spec names that tool for both reads).

export const Execution = v.object({
  id: Uuid,
  flowId: Uuid,
  flowRevision: v.number(),
  event: v.object({ name: v.string(), sequence: v.number() }),
  subject: v.record(v.string(), v.unknown()),
  status: v.picklist(FLOW_JOB_STATUSES),
  currentNode: v.nullable(v.string()),
  availableAt: Timestamp,
  trace: v.array(v.unknown()),
  error: v.nullable(v.unknown()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: NullableTimestamp,
});

export function executionView(job: FlowJobRow): v.InferOutput<typeof Execution> {
  return {
    id: job.id,
    flowId: job.flowId,
    flowRevision: job.flowRevision,
    event: { name: job.eventName, sequence: job.eventSequence },
    subject: job.subject,
    status: job.status,
    currentNode: job.currentNode,
    availableAt: iso(job.availableAt),
    trace: job.trace,
    error: job.error ?? null,
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
    finishedAt: iso(job.finishedAt),
  };
}

/** Jobs that wait for a merchant's resolution, counted over the whole shop. */
export const Unresolved = v.object({ uncertain: IntegerIn(0, INT32.max), failed: IntegerIn(0, INT32.max) });

export const Executions = v.object({
  items: v.array(Execution),
  next: v.nullable(Uuid),
  unresolved: Unresolved,
});

export interface ExecutionQuery {
  readonly limit: number;
  readonly after?: string | undefined;
  readonly statuses?: readonly FlowJobStatus[] | undefined;
  readonly flowId?: string | undefined;
  readonly event?: string | undefined;
  readonly createdFrom?: string | undefined;
  readonly createdBefore?: string | undefined;
}

/** One page of the shop's flow jobs, newest first, with its unresolved counts. */
export async function latestExecutions(
  db: Executor,
  tenantId: string,
  query: ExecutionQuery,
): Promise<Result<v.InferOutput<typeof Executions>>> {
  const createdFrom = query.createdFrom === undefined ? undefined : new Date(query.createdFrom);
  const createdBefore = query.createdBefore === undefined ? undefined : new Date(query.createdBefore);
  if (createdFrom && createdBefore && createdFrom >= createdBefore) {
    return fail('VALIDATION_FAILED', 'The time range is empty.', {
      errors: [{ pointer: '/createdBefore', message: 'must be later than createdFrom' }],
    });
  }
  const [jobs, unresolved] = await Promise.all([
    listFlowJobs(db, tenantId, {
      limit: query.limit + 1,
      after: query.after,
      statuses: query.statuses,
      flowId: query.flowId,
      eventName: query.event,
      createdFrom,
      createdBefore,
    }),
    countUnresolvedFlowJobs(db, tenantId),
  ]);
  const page = jobs.slice(0, query.limit);
  return ok({
    items: page.map(executionView),
    next: jobs.length > query.limit ? page.at(-1)!.id : null,
    unresolved,
  });
}
