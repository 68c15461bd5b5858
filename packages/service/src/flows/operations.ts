import {
  deleteUnsettledReceipts,
  FLOW_JOB_STATUSES,
  type FlowJobRow,
  findFlowJob,
  notifyJobs,
  updateFlowJob,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { defineOperation } from '../kernel/registry.ts';
import { Limit, Timestamp, Uuid } from '../kernel/schemas.ts';
import type { FlowData } from './definition.ts';
import { Execution, Executions, executionView, latestExecutions } from './executions.ts';

// The executions view (flow jobs newest first, filtered and paged, cheap enough to poll every 3 s,
// always with the shop's count of jobs waiting for a resolution) and the merchant's way out of an
// uncertain or failed job: retry from a node, or mark it done or abandoned.

export const listExecutions = defineOperation({
  name: 'automation.executions',
  summary:
    'Flow jobs, newest first (page with `after`), filtered by `status` (one or several), `flowId`, `event` name and creation time (`createdFrom` inclusive, `createdBefore` exclusive): status, flow, event, trace of decisions, current node, available_at and error. `unresolved` counts the shop’s uncertain and failed jobs whatever the filters, so none goes unnoticed.',
  http: { method: 'GET', path: '/api/automation/executions' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({
    limit: Limit,
    after: v.optional(Uuid),
    status: v.optional(
      v.pipe(v.array(v.picklist(FLOW_JOB_STATUSES)), v.minLength(1), v.maxLength(FLOW_JOB_STATUSES.length)),
    ),
    flowId: v.optional(Uuid),
    event: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
    createdFrom: v.optional(Timestamp),
    createdBefore: v.optional(Timestamp),
  }),
  output: Executions,
  handler: ({ services, tenantId }, input) =>
    latestExecutions(services.database.db, tenantId, {
      limit: input.limit,
      after: input.after,
      statuses: input.status,
      flowId: input.flowId,
      event: input.event,
      createdFrom: input.createdFrom,
      createdBefore: input.createdBefore,
    }),
});

export const resolveExecution = defineOperation({
  name: 'automation.executions.resolve',
  summary:
    'Resolves an uncertain or failed flow job: `retry` runs it again from a node (default: where it stopped; pending and failed step receipts are cleared, so those actions run again, while confirmed steps replay their result), `done` marks it finished, `abandon` cancels it.',
  http: { method: 'POST', path: '/api/automation/executions/:id/resolve' },
  permission: 'settings.write',
  readOnly: false,
  input: v.strictObject({
    id: Uuid,
    resolution: v.picklist(['retry', 'done', 'abandon']),
    node: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  }),
  output: Execution,
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction(async (tx) => {
      const job = await findFlowJob(tx, tenantId, input.id, 'update');
      if (!job) return fail('NOT_FOUND', 'No such flow job exists in this shop.');
      if (job.status !== 'uncertain' && job.status !== 'failed') {
        return fail('CONFLICT', `Only uncertain or failed jobs are resolved; this one is ${job.status}.`);
      }
      const node = input.node ?? job.currentNode ?? job.error?.node ?? null;
      const entry = {
        node: node ?? '(job)',
        kind: 'resolution',
        at: services.clock.now().toISOString(),
        outcome: input.resolution,
        next: input.resolution === 'retry' ? node : null,
      };
      let updated: FlowJobRow;
      if (input.resolution === 'retry') {
        const nodes = (job.definition.flow as FlowData).pipeline?.nodes ?? [];
        if (node === null || !nodes.some((candidate) => candidate.id === node)) {
          return fail('VALIDATION_FAILED', 'Name a node of the job’s flow to retry from.', {
            errors: [{ pointer: '/node', message: 'not a node of this flow' }],
          });
        }
        await deleteUnsettledReceipts(tx, tenantId, job.id);
        updated = await updateFlowJob(tx, tenantId, job.id, {
          status: 'queued',
          currentNode: node,
          error: null,
          trace: [...job.trace, entry],
          delaySeconds: 0,
          release: true,
        });
        await notifyJobs(tx);
      } else {
        updated = await updateFlowJob(tx, tenantId, job.id, {
          status: input.resolution === 'done' ? 'finished' : 'cancelled',
          trace: [...job.trace, entry],
          release: true,
        });
      }
      await recordEvent(tx, services, tenantId, actorOf(principal), 'automation.job.resolved', {
        jobId: job.id,
        resolution: input.resolution,
        node,
      });
      return ok(executionView(updated));
    });
  },
});
