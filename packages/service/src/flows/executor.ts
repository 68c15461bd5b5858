import { type FlowNode, nextNodeId } from '@cartwright/flow-graph';
import {
  claimDueJobs,
  type Executor,
  type FlowJobRow,
  type FlowJobStatus,
  findStepReceipt,
  findToken,
  inSavepoint,
  insertPendingReceipt,
  settleReceipt,
  updateLeasedJob,
} from '@cartwright/repository';
import {
  ACTIONS,
  buildFacts,
  type ConditionTree,
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
import { FactsDeferred, orderFacts } from './facts.ts';
import type { FlowActor, FlowSubject } from './model.ts';

// Runs flow jobs. A job moves in transactions on its leased row, each ending where durability
// needs a commit: (1) walk from the current node through conditions and delays up to the next
// action and commit that action's pending receipt `flow:<job>:<node>`; (2) run the action, confirm
// its receipt with the result, and walk on to the next action's receipt (or the end) in the same
// transaction. A lost worker therefore loses at most the action in flight, and its pending receipt
// tells the next worker that the effect's fate is unknown: the job becomes `uncertain` and the
// action is never repeated blindly. A confirmed receipt found again replays its stored result.

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

type ActionNode = Extract<FlowNode, { kind: 'action' }>;
type Trace = FlowJobRow['trace'];

/** Nodes one walk may visit: a graph has at most 100 reachable nodes, so a job never needs more. */
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

/**
 * Raised inside a step's transaction when its fenced job write finds the lease gone: the whole
 * step (receipt, effect, job) rolls back and the next worker resumes the job.
 */
class LeaseLost extends Error {}

/**
 * Runs a claimed job step by step. The row travels from the claim to each step as the previous
 * step wrote it (the lease keeps it ours); every step ends in a write fenced by the lease owner,
 * which rolls the step back if the lease was lost meanwhile.
 */
async function runJob(services: Services, claimed: FlowJobRow, options: ExecutorOptions): Promise<void> {
  const step = (job: FlowJobRow, ready: ActionNode | null) =>
    services.database
      .transaction((tx) => advanceJob(tx, services, job, options, ready))
      .catch((error: unknown) => {
        // The lease was lost: the next worker resumes (and finds any pending receipt).
        if (error instanceof LeaseLost) return null;
        throw error;
      });
  let next = await step(claimed, null);
  while (next !== null) {
    if (options.signal?.aborted) {
      // Shutdown between the phases: the pending receipt stays, so whoever resumes the job
      // reports it uncertain rather than guessing.
      return;
    }
    const { job, action } = next;
    await options.afterReceipt?.(stepKey(job.id, action.id));
    next = await step(job, action);
  }
}

function stepKey(jobId: string, nodeId: string): string {
  return `flow:${jobId}:${nodeId}`;
}

/** A job as one transaction changes it; written once, at the end of the transaction. */
class Walk {
  trace: Trace;
  currentNode: string | null;
  private facts: Facts | null = null;
  /** Whether `facts` leaves out what needs more reads than the order row. */
  private deferred = false;

  constructor(
    readonly tx: Executor,
    readonly services: Services,
    readonly job: FlowJobRow,
    readonly options: ExecutorOptions,
  ) {
    this.trace = [...job.trace];
    this.currentNode = job.currentNode;
  }

  get flow(): FlowData {
    return this.job.definition.flow as FlowData;
  }

  node(id: string | null): FlowNode | null {
    return id === null ? null : (this.flow.pipeline.nodes.find((node) => node.id === id) ?? null);
  }

  record(node: FlowNode | null, outcome: string, next: string | null, detail?: unknown): void {
    this.trace.push({
      node: node?.id ?? '(start)',
      kind: node?.kind ?? 'flow',
      at: this.services.clock.now().toISOString(),
      outcome,
      next,
      ...(detail === undefined ? {} : { detail }),
    });
  }

  /**
   * Evaluates a condition over the subject's facts (loaded once per transaction). The facts are
   * first the order's own (no further reads); a condition that reads its customer account,
   * documents or current products makes them load, and is evaluated again (evaluation is pure).
   */
  async decide(condition: ConditionTree): Promise<boolean | { code: string; message: string }> {
    try {
      const rules = new Map((this.job.definition.rules as SavedRule[]).map((rule) => [rule.id, rule]));
      const compiled = compileRule(condition, { rules });
      if (this.facts === null) {
        this.deferred = true;
        this.facts = await factsOf(
          this.tx,
          this.services,
          this.job.tenantId,
          this.job.subject as FlowSubject,
          true,
        );
      }
      try {
        return compiled.evaluate(this.facts);
      } catch (error) {
        if (!(error instanceof FactsDeferred) || !this.deferred) throw error;
      }
      this.deferred = false;
      this.facts = await factsOf(
        this.tx,
        this.services,
        this.job.tenantId,
        this.job.subject as FlowSubject,
        false,
      );
      return compiled.evaluate(this.facts);
    } catch (error) {
      if (error instanceof RuleError) return { code: error.code, message: error.message };
      throw error;
    }
  }

  /**
   * Ends the transaction's work: writes the job as it now stands, fenced by the lease (a lost
   * lease rolls the whole transaction back). Answers the row as written.
   */
  async save(
    status: FlowJobStatus,
    extra: { error?: FlowJobRow['error']; delaySeconds?: number } = {},
  ): Promise<FlowJobRow> {
    const { tenantId, id } = this.job;
    const stays = status === 'running';
    const row = await updateLeasedJob(this.tx, tenantId, id, this.options.owner, {
      status,
      currentNode: this.currentNode,
      trace: this.trace,
      ...extra,
      ...(stays ? { leaseMs: this.options.leaseMs } : { release: true }),
    });
    if (!row) throw new LeaseLost();
    return row;
  }

  async fail(node: FlowNode | null, code: string, message: string): Promise<null> {
    this.record(node, code, null);
    await this.save('failed', { error: { code, message, node: node?.id ?? null } });
    return null;
  }
}

/**
 * One transaction of a job (`job`: its row as the claim or the previous step left it): runs
 * `ready` (an action whose pending receipt has committed), then walks on. Answers the next action
 * whose pending receipt this transaction writes, with the job as written, or null when the job
 * waits, ends, fails or becomes uncertain. Raises LeaseLost (rolling back) when the lease was lost.
 */
async function advanceJob(
  tx: Executor,
  services: Services,
  job: FlowJobRow,
  options: ExecutorOptions,
  ready: ActionNode | null,
): Promise<{ job: FlowJobRow; action: ActionNode } | null> {
  const { tenantId, id } = job;
  const walk = new Walk(tx, services, job, options);
  if (ready !== null) {
    const ran = await runAction(walk, ready);
    if (ran === null) return null;
    walk.currentNode = ran.stopped ? null : nextNodeId(ready);
    walk.record(ready, 'ok', walk.currentNode, ran.result);
  }
  // The flow's own condition decides once, before the first node.
  if (walk.trace.length === 0 && walk.flow.condition) {
    const decided = await walk.decide(walk.flow.condition);
    if (typeof decided !== 'boolean') return walk.fail(null, decided.code, decided.message);
    if (!decided) {
      walk.currentNode = null;
      walk.record(null, 'condition false', null);
    } else {
      walk.record(null, 'condition true', walk.currentNode);
    }
  }
  for (let visited = 0; visited < MAX_STEPS; visited += 1) {
    const node = walk.node(walk.currentNode);
    if (walk.currentNode === null) {
      await walk.save('finished');
      return null;
    }
    if (node === null)
      return walk.fail(null, 'FLOW_MALFORMED', `The frozen flow has no node ${walk.currentNode}.`);
    switch (node.kind) {
      case 'condition': {
        const decided = await walk.decide(node.condition);
        if (typeof decided !== 'boolean') return walk.fail(node, decided.code, decided.message);
        walk.currentNode = nextNodeId(node, decided);
        walk.record(node, String(decided), walk.currentNode);
        break;
      }
      case 'delay': {
        // The worker lets go; any worker continues when the delay is over (a delay at the end
        // still waits, then the job finishes).
        walk.currentNode = nextNodeId(node);
        walk.record(node, `wait ${node.seconds}s`, walk.currentNode);
        await walk.save('waiting', { delaySeconds: node.seconds });
        return null;
      }
      case 'stop':
        walk.record(node, 'stop', null);
        walk.currentNode = null;
        await walk.save('finished');
        return null;
      case 'action': {
        const key = stepKey(id, node.id);
        // Usually the step is new: write its pending receipt straight away, and read the one
        // that exists only when there is one.
        if (await insertPendingReceipt(tx, { tenantId, key, jobId: id, nodeId: node.id })) {
          // The receipt commits with the cursor on the action; the lease runs from here.
          return { job: await walk.save('running'), action: node };
        }
        const receipt = await findStepReceipt(tx, tenantId, key);
        if (receipt?.status === 'confirmed') {
          // A replay: the stored result stands, the effect is not repeated.
          walk.currentNode = isStop(receipt.result) ? null : nextNodeId(node);
          walk.record(node, 'replayed', walk.currentNode, receipt.result);
          break;
        }
        if (receipt?.status === 'pending') {
          walk.record(node, 'uncertain', null);
          await walk.save('uncertain', {
            error: {
              code: 'STEP_UNCERTAIN',
              message:
                'A worker was lost while this action ran: its effect may or may not have happened. Retry the step or mark the job done or abandoned.',
              node: node.id,
            },
          });
          return null;
        }
        return walk.fail(node, 'STEP_FAILED', 'This step failed before.');
      }
    }
  }
  // A graph can never need this many steps; stop the job rather than loop.
  return walk.fail(null, 'FLOW_STEP_LIMIT', 'The job took more steps than its graph can have.');
}

/** The facts conditions read: the subject order's, or the checkout scope alone. */
async function factsOf(
  tx: Executor,
  services: Services,
  tenantId: string,
  subject: FlowSubject,
  defer: boolean,
): Promise<Facts> {
  const facts = subject.orderId
    ? await orderFacts(tx, services, tenantId, subject.orderId, { defer })
    : undefined;
  return facts ?? buildFacts({ now: services.clock.now().toISOString() });
}

/** Whether the flow's actor may still do this: a lapsed member or revoked token may not. */
async function actorMay(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: FlowActor,
  permission: Permission | null,
): Promise<boolean> {
  if (actor.kind === 'system' || permission === null) return true;
  const token = await findToken(tx, tenantId, actor.tokenId);
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= services.clock.now())) return false;
  const grant = await grantOfToken(tx, tenantId, token);
  return grant?.permissions.has(permission) === true;
}

class RefusedAction extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

function isStop(result: unknown): boolean {
  return (result as { stopped?: unknown } | null)?.stopped === true;
}

/**
 * Runs an action whose pending receipt has committed: rechecks the actor, runs the handler in a
 * savepoint (a refused action leaves nothing behind) and settles the receipt. Answers the result,
 * or null when the job failed.
 */
async function runAction(
  walk: Walk,
  node: ActionNode,
): Promise<{ result: unknown; stopped: boolean } | null> {
  const { tx, services, job } = walk;
  const { tenantId, id } = job;
  const key = stepKey(id, node.id);
  const area = ACTIONS.find((action) => action.name === node.action)?.area ?? null;
  const permission = area ? (`${area}.write` as Permission) : null;
  if (!(await actorMay(tx, services, tenantId, job.actor as FlowActor, permission))) {
    const message = `The flow's actor no longer holds ${permission} (membership or token lapsed): the step did not run.`;
    await settleReceipt(tx, tenantId, key, 'failed', { code: 'ACTOR_LAPSED', message });
    return walk.fail(node, 'ACTOR_LAPSED', message);
  }
  const handler = ACTION_HANDLERS[node.action];
  if (!handler) {
    await settleReceipt(tx, tenantId, key, 'failed', { code: 'FLOW_UNKNOWN_ACTION' });
    return walk.fail(node, 'FLOW_UNKNOWN_ACTION', `No handler runs ${node.action}.`);
  }
  const outcome = await inSavepoint(tx, async (inner) => {
    const result = await handler(
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
    if (!result.ok) throw new RefusedAction(result.code, result.detail);
    return result;
  }).catch((error: unknown) => {
    if (error instanceof RefusedAction) return error;
    throw error;
  });
  if (outcome instanceof RefusedAction) {
    await settleReceipt(tx, tenantId, key, 'failed', { code: outcome.code, message: outcome.message });
    return walk.fail(node, outcome.code, outcome.message);
  }
  const result = outcome.value ?? null;
  await settleReceipt(tx, tenantId, key, 'confirmed', result);
  return { result, stopped: isStop(result) };
}
