import {
  type DefinitionRow,
  type Executor,
  insertFlowJobs,
  listFlowsTriggeredBy,
  type NewFlowJob,
  notifyJobs,
  type OutboxEventRow,
} from '@cartwright/repository';
import { compileRule, type SavedRule } from '@cartwright/rules-engine';
import { loadReferencedRules } from '../automation/rules.ts';
import type { Services } from '../kernel/services.ts';
import type { Projection } from '../outbox/projections.ts';
import { conditionsOf, parseFlowData } from './definition.ts';
import type { FlowActor, FlowSubject } from './model.ts';

/** The ids an event names that flows act on. */
export function subjectOf(payload: unknown): FlowSubject {
  const fields = (payload ?? {}) as Record<string, unknown>;
  return {
    ...(typeof fields.orderId === 'string' ? { orderId: fields.orderId } : {}),
    ...(typeof fields.customerId === 'string' ? { customerId: fields.customerId } : {}),
  };
}

/**
 * Freezes a flow for one event: its data as saved (normalized) and every saved rule it reaches,
 * at their current revisions. A malformed flow or an unusable reference set answers the failure
 * the job is created with, so only that job fails.
 */
async function freeze(
  tx: Executor,
  tenantId: string,
  flow: DefinitionRow,
): Promise<{
  definition: { flow: unknown; rules: SavedRule[] };
  error: { code: string; message: string } | null;
}> {
  const parsed = parseFlowData(flow.data);
  if (!parsed.ok) {
    return {
      definition: { flow: flow.data, rules: [] },
      error: { code: 'FLOW_MALFORMED', message: `The stored flow is malformed: ${parsed.detail}` },
    };
  }
  const conditions = conditionsOf(parsed.value);
  const rules = await loadReferencedRules(tx, tenantId, conditions);
  const definition = { flow: parsed.value, rules: [...rules.values()] };
  const compiled = compileRule(conditions, { rules });
  return compiled.ok
    ? { definition, error: null }
    : { definition, error: { code: compiled.code, message: compiled.detail } };
}

/**
 * What one batch of events learns once: the flows each event name starts and each flow frozen
 * (a batch is one transaction, so both stay true for all its events).
 */
interface BatchMemo {
  readonly flows: Map<string, DefinitionRow[]>;
  readonly frozen: Map<string, Awaited<ReturnType<typeof freeze>>>;
}

/** The jobs an event starts: one per active flow it triggers, frozen as the memo has them. */
async function jobsFor(
  tx: Executor,
  services: Services,
  tenantId: string,
  event: OutboxEventRow,
  memo: BatchMemo,
): Promise<Omit<NewFlowJob, 'availableAt'>[]> {
  let flows = memo.flows.get(event.name);
  if (flows === undefined) {
    flows = await listFlowsTriggeredBy(tx, tenantId, event.name);
    memo.flows.set(event.name, flows);
  }
  const jobs: Omit<NewFlowJob, 'availableAt'>[] = [];
  for (const flow of flows) {
    let frozen = memo.frozen.get(flow.id);
    if (frozen === undefined) {
      frozen = await freeze(tx, tenantId, flow);
      memo.frozen.set(flow.id, frozen);
    }
    const { definition, error } = frozen;
    const actor: FlowActor = flow.savedBy ?? { kind: 'system' };
    const now = services.clock.now();
    jobs.push({
      tenantId,
      id: services.ids.next(),
      flowId: flow.id,
      flowRevision: flow.revision,
      eventSequence: event.sequence,
      eventName: event.name,
      subject: { ...subjectOf(event.payload) },
      definition,
      actor,
      status: error ? 'failed' : 'queued',
      currentNode: error
        ? null
        : ((definition.flow as { pipeline: { entry: string } }).pipeline.entry ?? null),
      trace: [],
      error,
      ...(error ? { finishedAt: now } : {}),
      createdAt: now,
      updatedAt: now,
    });
  }
  return jobs;
}

/**
 * The projection that turns events into flow jobs (memory-worker role): a batch's jobs are created
 * in one statement (a job that already exists for its flow and event is kept), with one NOTIFY.
 */
export const flowMatchingProjection: Projection = {
  name: 'flow-matching',
  role: 'memory-worker',
  async apply(tx, services, tenantId, events) {
    const memo: BatchMemo = { flows: new Map(), frozen: new Map() };
    const jobs: Omit<NewFlowJob, 'availableAt'>[] = [];
    for (const event of events) jobs.push(...(await jobsFor(tx, services, tenantId, event, memo)));
    if ((await insertFlowJobs(tx, jobs)) > 0) await notifyJobs(tx);
  },
};
