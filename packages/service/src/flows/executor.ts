import { type FlowNode, nextNodeId } from '@cartwright/flow-graph';
import {
  type ClaimedJob,
  claimDueJobs,
  type Executor,
  type FlowJobRow,
  findStepReceipt,
  findToken,
  inSavepoint,
  insertPendingReceipt,
  type JobChange,
  lockLeasedJob,
  settleReceipt,
  updateFlowJob,
} from '@cartwright/repository';
import {
  ACTIONS,
  buildFacts,
  compileRule,
  type Facts,
  RuleError,
  type SavedRule,
} from '@cartwright/rules-engine';
import { grantOfToken } from '../auth.ts';
import type { Permission } from '../permissions.ts';
import type { Services } from '../services.ts';
import { ACTION_HANDLERS } from './actions.ts';
import type { FlowData } from './definition.ts';
import { orderFacts } from './facts.ts';
import type { FlowActor, FlowSubject } from './model.ts';

// Runs flow jobs step by step. Every step is its own short transaction on the leased job row, so
// a lost worker loses at most the step in flight; actions are two-phase: a pending receipt is
// committed first, then the effect, the receipt's confirmation and the job's advance commit
// together. A pending receipt found by the next worker means the effect's fate is unknown: the
// job becomes `uncertain` and the action is not repeated.

export interface ExecutorOptions {
  /** Unique per worker loop: it owns leases. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Jobs claimed per round. */
  readonly batchSize: number;
  readonly signal?: AbortSignal | undefined;
  /** Test seam: runs after a step's pending receipt commits, before the action runs. */
  readonly afterReceipt?: ((key: string) => Promise<void>) | undefined;
}

/** A job's decision record. */
type Trace = FlowJobRow['trace'];

/** Step budget per claim: a graph has at most 100 reachable nodes, so a job never needs more. */
const MAX_STEPS = 200;

/** Claims due jobs and runs each until it waits, ends, or the lease is lost. Answers how many ran. */
export async function runDueJobs(services: Services, options: ExecutorOptions): Promise<number> {
  const claimed = await services.database.transaction((tx) =>
    claimDueJobs(tx, options.owner, options.leaseMs, options.batchSize),
  );
  // One job's error (a deadlock, a lost connection) must not stall the others claimed with it:
  // each runs, and the first error is raised afterwards for the loop to log. The failed job keeps
  // its lease until it expires; a pending receipt then makes it uncertain (a commit that failed
  // in flight cannot be told from one that failed before).
  let firstError: unknown = null;
  for (const job of claimed) {
    if (options.signal?.aborted) break;
    try {
      await runJob(services, job, options);
    } catch (error) {
      firstError ??= error;
    }
  }
  if (firstError !== null) throw firstError;
  return claimed.length;
}

function stepKey(jobId: string, nodeId: string): string {
  return `flow:${jobId}:${nodeId}`;
}

function traced(
  services: Services,
  job: FlowJobRow,
  node: FlowNode | null,
  outcome: string,
  next: string | null,
  detail?: unknown,
): Trace {
  return [
    ...job.trace,
    {
      node: node?.id ?? '(start)',
      kind: node?.kind ?? 'flow',
      at: services.clock.now().toISOString(),
      outcome,
      next,
      ...(detail === undefined ? {} : { detail }),
    },
  ];
}

async function runJob(services: Services, claimed: ClaimedJob, options: ExecutorOptions): Promise<void> {
  const { tenantId, id } = claimed;
  // A job found running had a worker that was lost: if it was inside an action, that action's
  // fate is unknown.
  if (claimed.previousStatus === 'running') {
    const stop = await services.database.transaction(async (tx) => {
      const job = await lockLeasedJob(tx, tenantId, id, options.owner);
      if (!job) return true;
      if (job.currentNode === null) return false;
      const receipt = await findStepReceipt(tx, tenantId, stepKey(id, job.currentNode));
      if (receipt?.status !== 'pending') return false;
      await updateFlowJob(tx, tenantId, id, {
        status: 'uncertain',
        trace: traced(services, job, nodeOf(job, job.currentNode), 'uncertain', null),
        error: {
          code: 'STEP_UNCERTAIN',
          message:
            'The worker was lost while the action ran; its effect may or may not have happened. Retry the step or mark the job done or abandoned.',
          node: job.currentNode,
        },
        release: true,
      });
      return true;
    });
    if (stop) return;
  }
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (options.signal?.aborted) return release(services, tenantId, id, options.owner);
    const more = await runStep(services, tenantId, id, options);
    if (!more) return;
  }
  // A graph can never need this many steps; stop the job rather than loop.
  await services.database.transaction(async (tx) => {
    const job = await lockLeasedJob(tx, tenantId, id, options.owner);
    if (job)
      await fail(
        tx,
        services,
        job,
        null,
        'FLOW_STEP_LIMIT',
        'The job took more steps than its graph can have.',
      );
  });
}

/** Gives a job back (shutdown): it stays running until its lease expires, then another worker resumes it. */
async function release(services: Services, tenantId: string, id: string, owner: string): Promise<void> {
  await services.database.transaction(async (tx) => {
    const job = await lockLeasedJob(tx, tenantId, id, owner);
    if (job) await updateFlowJob(tx, tenantId, id, { status: 'queued', release: true });
  });
}

function flowOf(job: FlowJobRow): FlowData {
  return job.definition.flow as FlowData;
}

function rulesOf(job: FlowJobRow): Map<string, SavedRule> {
  return new Map((job.definition.rules as SavedRule[]).map((rule) => [rule.id, rule]));
}

function nodeOf(job: FlowJobRow, nodeId: string | null): FlowNode | null {
  if (nodeId === null) return null;
  return flowOf(job).pipeline.nodes.find((node) => node.id === nodeId) ?? null;
}

async function fail(
  tx: Executor,
  services: Services,
  job: FlowJobRow,
  node: FlowNode | null,
  code: string,
  message: string,
): Promise<void> {
  await updateFlowJob(tx, job.tenantId, job.id, {
    status: 'failed',
    trace: traced(services, job, node, code, null),
    error: { code, message, node: node?.id ?? null },
    release: true,
  });
}

async function advance(
  tx: Executor,
  job: FlowJobRow,
  change: JobChange,
  options: ExecutorOptions,
): Promise<boolean> {
  const ends = change.currentNode === null;
  await updateFlowJob(tx, job.tenantId, job.id, {
    ...change,
    ...(ends ? { status: 'finished', release: true } : { leaseMs: options.leaseMs }),
  });
  return !ends;
}

/** The facts conditions read: the subject order's, or the checkout scope alone. */
async function factsOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  subject: FlowSubject,
): Promise<Facts> {
  const facts = subject.orderId ? await orderFacts(tx, services, tenantId, subject.orderId) : undefined;
  return facts ?? buildFacts({ now: services.clock.now().toISOString() });
}

/** Runs one step. Answers whether the job goes on with this worker. */
async function runStep(
  services: Services,
  tenantId: string,
  id: string,
  options: ExecutorOptions,
): Promise<boolean> {
  const plan = await services.database.transaction(async (tx): Promise<'continue' | 'stop' | FlowNode> => {
    const job = await lockLeasedJob(tx, tenantId, id, options.owner);
    if (!job) return 'stop';
    const flow = flowOf(job);
    // The flow's own condition decides once, before the first node.
    if (job.trace.length === 0 && flow.condition) {
      const decided = await decide(tx, services, job, flow.condition);
      if (typeof decided !== 'boolean') {
        await fail(tx, services, job, null, decided.code, decided.message);
        return 'stop';
      }
      if (!decided) {
        await advance(
          tx,
          job,
          { currentNode: null, trace: traced(services, job, null, 'condition false', null) },
          options,
        );
        return 'stop';
      }
      await updateFlowJob(tx, tenantId, id, {
        trace: traced(services, job, null, 'condition true', job.currentNode),
      });
      return 'continue';
    }
    const node = nodeOf(job, job.currentNode);
    if (job.currentNode === null || node === null) {
      if (job.currentNode !== null) {
        await fail(
          tx,
          services,
          job,
          null,
          'FLOW_MALFORMED',
          `The frozen flow has no node ${job.currentNode}.`,
        );
        return 'stop';
      }
      await advance(tx, job, { currentNode: null }, options);
      return 'stop';
    }
    switch (node.kind) {
      case 'condition': {
        const decided = await decide(tx, services, job, node.condition);
        if (typeof decided !== 'boolean') {
          await fail(tx, services, job, node, decided.code, decided.message);
          return 'stop';
        }
        const next = nextNodeId(node, decided);
        return (await advance(
          tx,
          job,
          { currentNode: next, trace: traced(services, job, node, String(decided), next) },
          options,
        ))
          ? 'continue'
          : 'stop';
      }
      case 'delay': {
        // A delay at the end still waits: the job finishes when it is over.
        const next = nextNodeId(node);
        // The worker lets go; any worker continues when the delay is over.
        await updateFlowJob(tx, tenantId, id, {
          status: 'waiting',
          currentNode: next,
          delaySeconds: node.seconds,
          trace: traced(services, job, node, `wait ${node.seconds}s`, next),
          release: true,
        });
        return 'stop';
      }
      case 'stop':
        await advance(
          tx,
          job,
          { currentNode: null, trace: traced(services, job, node, 'stop', null) },
          options,
        );
        return 'stop';
      case 'action':
        return node;
    }
  });
  if (plan === 'continue') return true;
  if (plan === 'stop') return false;
  return runAction(services, tenantId, id, plan as Extract<FlowNode, { kind: 'action' }>, options);
}

async function decide(
  tx: Executor,
  services: Services,
  job: FlowJobRow,
  condition: FlowData['condition'] & object,
): Promise<boolean | { code: string; message: string }> {
  try {
    const compiled = compileRule(condition, { rules: rulesOf(job) });
    return compiled.evaluate(await factsOf(tx, services, job.tenantId, job.subject as FlowSubject));
  } catch (error) {
    if (error instanceof RuleError) return { code: error.code, message: error.message };
    throw error;
  }
}

/** Whether the flow's actor may still do this: a lapsed member or revoked token may not. */
async function actorMay(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: FlowActor,
  permission: Permission | null,
) {
  if (actor.kind === 'system' || permission === null) return true;
  const token = await findToken(tx, tenantId, actor.tokenId);
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= services.clock.now())) return false;
  const grant = await grantOfToken(tx, tenantId, token);
  return grant?.permissions.has(permission) === true;
}

async function runAction(
  services: Services,
  tenantId: string,
  id: string,
  node: Extract<FlowNode, { kind: 'action' }>,
  options: ExecutorOptions,
): Promise<boolean> {
  const key = stepKey(id, node.id);
  // Phase one: the receipt, committed before anything happens.
  const phase = await services.database.transaction(async (tx): Promise<'run' | 'stop' | 'continue'> => {
    const job = await lockLeasedJob(tx, tenantId, id, options.owner);
    if (!job) return 'stop';
    const receipt = await findStepReceipt(tx, tenantId, key);
    if (receipt?.status === 'confirmed') {
      // A replay: the stored result stands, the effect is not repeated.
      const next = stopsFlow(receipt.result) ? null : nextNodeId(node);
      return (await advance(
        tx,
        job,
        { currentNode: next, trace: traced(services, job, node, 'replayed', next, receipt.result) },
        options,
      ))
        ? 'continue'
        : 'stop';
    }
    if (receipt?.status === 'pending') {
      await updateFlowJob(tx, tenantId, id, {
        status: 'uncertain',
        trace: traced(services, job, node, 'uncertain', null),
        error: {
          code: 'STEP_UNCERTAIN',
          message: 'A previous attempt of this step did not confirm.',
          node: node.id,
        },
        release: true,
      });
      return 'stop';
    }
    if (receipt?.status === 'failed') {
      await fail(tx, services, job, node, 'STEP_FAILED', 'This step failed before.');
      return 'stop';
    }
    if (!(await insertPendingReceipt(tx, { tenantId, key, jobId: id, nodeId: node.id }))) return 'stop';
    // The lease runs from here: a job late in a claimed batch starts with a full one.
    await updateFlowJob(tx, tenantId, id, { leaseMs: options.leaseMs });
    return 'run';
  });
  if (phase !== 'run') return phase === 'continue';
  await options.afterReceipt?.(key);
  // Phase two: the effect, its confirmation and the advance, all or nothing.
  return services.database.transaction(async (tx) => {
    const job = await lockLeasedJob(tx, tenantId, id, options.owner);
    // The lease was lost between the phases: the next worker finds the pending receipt.
    if (!job) return false;
    const area = ACTIONS.find((action) => action.name === node.action)?.area ?? null;
    const permission = area ? (`${area}.write` as Permission) : null;
    if (!(await actorMay(tx, services, tenantId, job.actor as FlowActor, permission))) {
      const message = `The flow's actor no longer holds ${permission} (membership or token lapsed): the step did not run.`;
      await settleReceipt(tx, tenantId, key, 'failed', { code: 'ACTOR_LAPSED', message });
      await fail(tx, services, job, node, 'ACTOR_LAPSED', message);
      return false;
    }
    const handler = ACTION_HANDLERS[node.action];
    if (!handler) {
      await settleReceipt(tx, tenantId, key, 'failed', { code: 'FLOW_UNKNOWN_ACTION' });
      await fail(tx, services, job, node, 'FLOW_UNKNOWN_ACTION', `No handler runs ${node.action}.`);
      return false;
    }
    // The effect runs in a savepoint so a refused action leaves nothing behind but its receipt.
    const result = await inSavepoint(tx, async (inner) => {
      const outcome = await handler(
        {
          tx: inner,
          services,
          tenantId,
          job,
          nodeId: node.id,
          subject: job.subject as FlowSubject,
          actor: job.actor as FlowActor,
          stepKey: key,
        },
        node.config,
      );
      if (!outcome.ok) throw new RefusedAction(outcome.code, outcome.detail);
      return outcome;
    }).catch((error: unknown) => {
      if (error instanceof RefusedAction) return error;
      throw error;
    });
    if (result instanceof RefusedAction) {
      await settleReceipt(tx, tenantId, key, 'failed', { code: result.code, message: result.message });
      await fail(tx, services, job, node, result.code, result.message);
      return false;
    }
    await settleReceipt(tx, tenantId, key, 'confirmed', result.value ?? null);
    const next = stopsFlow(result.value) ? null : nextNodeId(node);
    return advance(
      tx,
      job,
      { currentNode: next, trace: traced(services, job, node, 'ok', next, result.value) },
      options,
    );
  });
}

class RefusedAction extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

function stopsFlow(result: unknown): boolean {
  return (result as { stopped?: unknown } | null)?.stopped === true;
}
