import { type FlowNode, nextNodeId } from '@cartwright/flow-graph';
import {
  claimDueJobs,
  type Executor,
  type FlowJobRow,
  type FlowJobStatus,
  findOrders,
  findStepReceipts,
  findToken,
  insertPendingReceipts,
  type LeasedJobChange,
  type OrderRow,
  type ReceiptSettlement,
  type StepReceiptRow,
  saveLeasedJobs,
  settleReceipts,
} from '@cartwright/repository';
import {
  ACTIONS,
  buildFacts,
  type ConditionTree,
  compileRule,
  type Facts,
  type RuleResult,
  type SavedRule,
} from '@cartwright/rules-engine';
import { grantOfToken } from '../kernel/auth.ts';
import { collectingEvents } from '../kernel/events.ts';
import type { Permission } from '../kernel/permissions.ts';
import type { Services } from '../kernel/services.ts';
import { ACTION_HANDLERS } from './actions.ts';
import type { FlowData } from './definition.ts';
import { FactsDeferred, orderFacts } from './facts.ts';
import type { FlowActor, FlowSubject, OutsideContext } from './model.ts';

// Runs flow jobs. The jobs a worker claims move together, in transactions on their leased rows,
// each ending where durability needs a commit: (1) every job walks from its current node through
// conditions and delays up to its next action, and that action's pending receipt
// `flow:<job>:<node>` commits; (2) every ready action runs, its receipt is confirmed with the
// result, and its job walks on to the next action's receipt (or its end) in the same transaction.
// A lost worker therefore loses at most the actions in flight, and their pending receipts tell
// the next worker that the effects' fate is unknown: those jobs become `uncertain` and no action
// is ever repeated blindly. A confirmed receipt found again replays its stored result.
//
// An action whose effect lies outside the database (mail, an app's external service) has an
// outside part, run between (1) and (2) with no transaction open (decision 0037): a mail server
// is never called while a transaction waits, and on embedded PGlite (one connection) a part that
// opens its own short transactions does not wait on the step's. Its value goes to the inside part,
// which confirms the receipt in (2); a part whose outcome is unknown leaves the job `uncertain`.
//
// Each transaction writes its receipts, its jobs and its events with one statement each, whatever
// the number of jobs (decision 0019). An action that refuses rolls the whole transaction back; the
// refusal is then recorded and the jobs move again without it. Any other failure before the commit
// moves each job on its own, so one job's trouble stays its own.

export interface ExecutorOptions {
  /** Unique per worker loop: it owns leases. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Jobs claimed per round; they move together. */
  readonly batchSize: number;
  readonly signal?: AbortSignal | undefined;
  /** Test seam: runs after a step's pending receipt commits, before the action runs. */
  readonly afterReceipt?: ((key: string) => Promise<void>) | undefined;
  /** Test seam: runs after a step's outside part answered, before the step's transaction. */
  readonly afterOutside?: ((key: string) => Promise<void>) | undefined;
  /** Told of each job this run made `uncertain`, once that is committed (the worker logs it). */
  readonly onUncertain?: ((job: UncertainJob) => void) | undefined;
}

/** A job left `uncertain`: a worker was lost inside the action at `nodeId`, whose effect is unknown. */
export interface UncertainJob {
  readonly tenantId: string;
  readonly jobId: string;
  readonly flowId: string;
  readonly nodeId: string | null;
}

type ActionNode = Extract<FlowNode, { kind: 'action' }>;
type Trace = FlowJobRow['trace'];

/** Nodes one job may visit in a transaction: a graph has at most 100 reachable nodes. */
const MAX_STEPS = 200;
/** Outside parts of one batch running at once: each may hold a connection to another server. */
const OUTSIDE_CONCURRENCY = 8;

interface Problem {
  readonly code: string;
  readonly message: string;
}

/** A job to move: its row as the claim or the previous step left it. */
interface Step {
  readonly job: FlowJobRow;
  /** The action whose pending receipt has committed and which runs first; null: walk on from the current node. */
  readonly ready: ActionNode | null;
  /** The action refused in a transaction that rolled back: record the refusal, do not run it again. */
  readonly refused?: Problem | undefined;
  /** What the action's outside part answered (its value); the inside part records it. */
  readonly outside?: { readonly value: unknown } | undefined;
  /** The outside part's outcome is unknown: the job becomes uncertain, its receipt stays pending. */
  readonly uncertain?: Problem | undefined;
}

/** Claims due jobs and moves them until each waits, ends, or its lease is lost. Answers how many ran. */
export async function runDueJobs(services: Services, options: ExecutorOptions): Promise<number> {
  const claimed = await services.database.transaction((tx) =>
    claimDueJobs(tx, options.owner, options.leaseMs, options.batchSize),
  );
  // Stopping before the first step leaves nothing behind: releasing the leases queues the jobs
  // again. Once receipts are written the jobs move to their ends (graceful shutdown finishes the
  // batch), so a stop never makes a job uncertain.
  if (options.signal?.aborted) return claimed.length;
  let steps: Step[] = claimed.map((job) => ({ job, ready: null }));
  let firstError: unknown = null;
  while (steps.length > 0) {
    const moved = await moveSteps(services, steps, options);
    for (const job of moved.uncertain) options.onUncertain?.(job);
    firstError ??= moved.error;
    for (const step of moved.next) await options.afterReceipt?.(stepKey(step.job.id, step.ready!.id));
    const outside = await runOutsideParts(services, moved.next, options);
    firstError ??= outside.error;
    steps = outside.steps;
  }
  // One job's error (a deadlock, a lost connection) does not stall the others: it is raised once
  // they have moved, for the loop to log. That job keeps its lease until it expires; a pending
  // receipt then makes it uncertain.
  if (firstError !== null) throw firstError;
  return claimed.length;
}

/**
 * Raised inside a transaction when its fenced job write finds a lease gone: the whole transaction
 * (receipts, effects, jobs) rolls back, and the next worker resumes that job.
 */
class LeaseLost extends Error {}

/** Raised inside a transaction when an action refuses: the transaction rolls back. */
class RefusedAction extends Error {
  constructor(
    readonly step: Step,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the transactions of one move committed, and the error that stopped a job, if any. */
interface Moved {
  /** The actions whose pending receipts committed: they run next. */
  readonly next: Step[];
  /** The jobs saved as uncertain. */
  readonly uncertain: UncertainJob[];
  readonly error: unknown;
}

/** Moves the steps in one transaction (or, when that fails before its commit, each on its own). */
async function moveSteps(
  services: Services,
  steps: readonly Step[],
  options: ExecutorOptions,
): Promise<Moved> {
  let current = steps;
  for (;;) {
    /** Whether the work ran to its end: an error after that came from the commit itself. */
    let committing = false;
    try {
      const advanced = await services.database.transaction(async (tx) => {
        // The runner may run this again after a deadlock: each run starts before its commit.
        committing = false;
        const moved = await advanceJobs(tx, services, current, options);
        committing = true;
        return moved;
      });
      return { ...advanced, error: null };
    } catch (error) {
      // A failed commit cannot be told from one that happened: nothing is run again. The jobs
      // keep their leases until they expire; pending receipts then make them uncertain.
      if (committing) return { next: [], uncertain: [], error };
      if (error instanceof RefusedAction) {
        // The refused action's transaction rolled back with everything else it held: record the
        // refusal and move the steps again, that action not run again.
        const refused = { code: error.code, message: error.message };
        current = current.map((step) => (step === error.step ? { ...step, refused } : step));
        continue;
      }
      if (current.length === 1)
        return { next: [], uncertain: [], error: error instanceof LeaseLost ? null : error };
      // A lost lease, a deadlock or a lost connection failed the whole batch before its commit, so
      // none of it happened: each job moves again on its own.
      const next: Step[] = [];
      const uncertain: UncertainJob[] = [];
      let first: unknown = null;
      for (const step of current) {
        const moved = await moveSteps(services, [step], options);
        next.push(...moved.next);
        uncertain.push(...moved.uncertain);
        first ??= moved.error;
      }
      return { next, uncertain, error: first };
    }
  }
}

function stepKey(jobId: string, nodeId: string): string {
  return `flow:${jobId}:${nodeId}`;
}

/** What the jobs of one transaction share: the transaction, and what it read once for all of them. */
class Batch {
  /** The subject orders of the batch's jobs, read together the first time a condition needs one. */
  private orders: Map<string, OrderRow> | null = null;
  /** Actor checks, per shop, token and permission. */
  private readonly grants = new Map<string, Promise<boolean>>();

  constructor(
    readonly tx: Executor,
    readonly services: Services,
    readonly options: ExecutorOptions,
    private readonly jobs: readonly FlowJobRow[],
  ) {}

  async order(tenantId: string, orderId: string): Promise<OrderRow | undefined> {
    if (this.orders === null) {
      const wanted = new Map<string, Set<string>>();
      for (const job of this.jobs) {
        const id = (job.subject as FlowSubject).orderId;
        if (!id) continue;
        const ids = wanted.get(job.tenantId) ?? new Set<string>();
        wanted.set(job.tenantId, ids.add(id));
      }
      this.orders = new Map();
      for (const [tenant, ids] of wanted) {
        for (const row of await findOrders(this.tx, tenant, [...ids]))
          this.orders.set(`${tenant}:${row.id}`, row);
      }
    }
    return this.orders.get(`${tenantId}:${orderId}`);
  }

  /** Whether the flow's actor may still do this: a lapsed member or revoked token may not. */
  actorMay(tenantId: string, actor: FlowActor, permission: Permission | null): Promise<boolean> {
    if (actor.kind === 'system' || permission === null) return Promise.resolve(true);
    const key = `${tenantId}:${actor.tokenId}:${permission}`;
    let answer = this.grants.get(key);
    if (answer === undefined) {
      answer = (async () => {
        const token = await findToken(this.tx, tenantId, actor.tokenId);
        if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= this.services.clock.now()))
          return false;
        const grant = await grantOfToken(this.tx, tenantId, token);
        return grant?.permissions.has(permission) === true;
      })();
      this.grants.set(key, answer);
    }
    return answer;
  }
}

/** A job as one transaction moves it; written with the others at the end of the transaction. */
class Walk {
  trace: Trace;
  currentNode: string | null;
  /** How the transaction leaves the job; null while it still moves. */
  change: LeasedJobChange | null = null;
  /** The action whose pending receipt this transaction writes (the job stays `running` on it). */
  action: ActionNode | null = null;
  private facts: Facts | null = null;
  /** Whether `facts` leaves out what needs more reads than the order row. */
  private deferred = false;
  private visited = 0;

  constructor(
    readonly batch: Batch,
    readonly job: FlowJobRow,
  ) {
    this.trace = [...job.trace];
    this.currentNode = job.currentNode;
  }

  get flow(): FlowData {
    return this.job.definition.flow as FlowData;
  }

  get subject(): FlowSubject {
    return this.job.subject as FlowSubject;
  }

  node(id: string | null): FlowNode | null {
    return id === null ? null : (this.flow.pipeline.nodes.find((node) => node.id === id) ?? null);
  }

  record(node: FlowNode | null, outcome: string, next: string | null, detail?: unknown): void {
    this.trace.push({
      node: node?.id ?? '(start)',
      kind: node?.kind ?? 'flow',
      at: this.batch.services.clock.now().toISOString(),
      outcome,
      next,
      ...(detail === undefined ? {} : { detail }),
    });
  }

  /** Ends the job's move in this transaction with this status. */
  end(status: FlowJobStatus, extra: { error?: FlowJobRow['error']; delaySeconds?: number } = {}): void {
    this.change = {
      tenantId: this.job.tenantId,
      id: this.job.id,
      status,
      currentNode: this.currentNode,
      trace: this.trace,
      ...extra,
    };
  }

  fail(node: FlowNode | null, code: string, message: string): void {
    this.record(node, code, null);
    this.end('failed', { error: { code, message, node: node?.id ?? null } });
  }

  /** Stays on `node`, whose pending receipt this transaction writes. */
  waitFor(node: ActionNode): void {
    this.action = node;
    this.end('running');
  }

  /**
   * Evaluates a condition over the subject's facts (loaded once per transaction). The facts are
   * first the order's own (no further reads); a condition that reads its customer account,
   * documents or current products makes them load, and is evaluated again (evaluation is pure).
   */
  async decide(condition: ConditionTree): Promise<boolean | { code: string; message: string }> {
    const rules = new Map((this.job.definition.rules as SavedRule[]).map((rule) => [rule.id, rule]));
    const compiled = compileRule(condition, { rules });
    if (!compiled.ok) return { code: compiled.code, message: compiled.detail };
    if (this.facts === null) {
      this.deferred = true;
      this.facts = await this.loadFacts(true);
    }
    let decided: RuleResult<boolean> | null = null;
    try {
      decided = compiled.value.evaluate(this.facts);
    } catch (error) {
      if (!(error instanceof FactsDeferred) || !this.deferred) throw error;
    }
    if (decided === null) {
      this.deferred = false;
      this.facts = await this.loadFacts(false);
      decided = compiled.value.evaluate(this.facts);
    }
    return decided.ok ? decided.value : { code: decided.code, message: decided.detail };
  }

  /** The facts conditions read: the subject order's, or the checkout scope alone. */
  private async loadFacts(defer: boolean): Promise<Facts> {
    const { tx, services } = this.batch;
    const { tenantId } = this.job;
    const orderId = this.subject.orderId;
    const facts = orderId
      ? await orderFacts(tx, services, tenantId, orderId, {
          defer,
          order: await this.batch.order(tenantId, orderId),
        })
      : undefined;
    return facts ?? buildFacts({ now: services.clock.now().toISOString() });
  }

  /**
   * Walks from the current node through conditions and delays. Answers the action it reached
   * (the job needs that step's receipt), or null when the job ended (finished, waiting, failed).
   */
  async toNextAction(): Promise<ActionNode | null> {
    // The flow's own condition decides once, before the first node.
    if (this.trace.length === 0 && this.flow.condition) {
      const decided = await this.decide(this.flow.condition);
      if (typeof decided !== 'boolean') {
        this.fail(null, decided.code, decided.message);
        return null;
      }
      if (!decided) {
        this.currentNode = null;
        this.record(null, 'condition false', null);
      } else {
        this.record(null, 'condition true', this.currentNode);
      }
    }
    for (; this.visited < MAX_STEPS; this.visited += 1) {
      if (this.currentNode === null) {
        this.end('finished');
        return null;
      }
      const node = this.node(this.currentNode);
      if (node === null) {
        this.fail(null, 'FLOW_MALFORMED', `The frozen flow has no node ${this.currentNode}.`);
        return null;
      }
      switch (node.kind) {
        case 'condition': {
          const decided = await this.decide(node.condition);
          if (typeof decided !== 'boolean') {
            this.fail(node, decided.code, decided.message);
            return null;
          }
          this.currentNode = nextNodeId(node, decided);
          this.record(node, String(decided), this.currentNode);
          break;
        }
        case 'delay':
          // The worker lets go; any worker continues when the delay is over (a delay at the end
          // still waits, then the job finishes).
          this.currentNode = nextNodeId(node);
          this.record(node, `wait ${node.seconds}s`, this.currentNode);
          this.end('waiting', { delaySeconds: node.seconds });
          return null;
        case 'stop':
          this.record(node, 'stop', null);
          this.currentNode = null;
          this.end('finished');
          return null;
        case 'action':
          this.visited += 1;
          return node;
      }
    }
    // A graph can never need this many steps; stop the job rather than loop.
    this.fail(null, 'FLOW_STEP_LIMIT', 'The job took more steps than its graph can have.');
    return null;
  }

  /** Ends the job `uncertain` at `node`, whose step receipt stays pending: the effect's fate is unknown. */
  leaveUncertain(node: ActionNode, code: string, message: string): void {
    this.record(node, 'uncertain', null);
    this.end('uncertain', { error: { code, message, node: node.id } });
  }

  /** Goes on past an action whose step already has a receipt. Answers whether the job still moves. */
  pastReceipt(node: ActionNode, receipt: StepReceiptRow | undefined): boolean {
    if (receipt?.status === 'confirmed') {
      // A replay: the stored result stands, the effect is not repeated.
      this.currentNode = isStop(receipt.result) ? null : nextNodeId(node);
      this.record(node, 'replayed', this.currentNode, receipt.result);
      return true;
    }
    if (receipt?.status === 'pending') {
      this.leaveUncertain(
        node,
        'STEP_UNCERTAIN',
        'A worker was lost while this action ran: its effect may or may not have happened. Retry the step or mark the job done or abandoned.',
      );
      return false;
    }
    this.fail(node, 'STEP_FAILED', 'This step failed before.');
    return false;
  }
}

/** What a step acts on: its shop and subject. */
function subjectKey(step: Step): string {
  const subject = step.job.subject as FlowSubject;
  return `${step.job.tenantId}:${subject.orderId ?? ''}:${subject.customerId ?? ''}`;
}

/**
 * One transaction of a batch of jobs: runs each step's ready action (an action whose pending
 * receipt has committed), then walks every job on. Answers the next steps (the actions whose
 * pending receipts this transaction writes) and the jobs it leaves uncertain. Raises LeaseLost or
 * RefusedAction (rolling back).
 */
async function advanceJobs(
  tx: Executor,
  services: Services,
  steps: readonly Step[],
  options: ExecutorOptions,
): Promise<Omit<Moved, 'error'>> {
  const batch = new Batch(
    tx,
    services,
    options,
    steps.map((step) => step.job),
  );
  const walks = new Map(steps.map((step) => [step, new Walk(batch, step.job)]));
  const settlements: ReceiptSettlement[] = [];
  // Actions on different subjects run side by side (their statements share round trips to the
  // database); actions on one subject run one after the other, in subject order, so concurrent
  // batches lock shared rows in the same order. Every action settles before the transaction goes
  // on or rolls back, so no statement outlives it. The events they record are appended together,
  // last.
  const bySubjectKey = new Map<string, Step[]>();
  for (const step of steps) {
    if (step.ready === null) continue;
    const key = subjectKey(step);
    bySubjectKey.set(key, [...(bySubjectKey.get(key) ?? []), step]);
  }
  const groups = [...bySubjectKey.keys()].sort().map((key) => bySubjectKey.get(key)!);
  await collectingEvents(tx, async () => {
    const ran = await Promise.allSettled(
      groups.map(async (group) => {
        for (const step of group) await runAction(walks.get(step)!, step, settlements);
      }),
    );
    const failed = ran.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const moving = [...walks.values()].filter((walk) => walk.change === null);
    await walkOn(tx, moving);
    await settleReceipts(tx, settlements);
    const changes = [...walks.values()].map((walk) => walk.change!);
    const written = await saveLeasedJobs(tx, options.owner, options.leaseMs, changes);
    if (written.size !== changes.length) throw new LeaseLost();
  });
  const next = [...walks.values()].flatMap((walk) =>
    walk.action === null
      ? []
      : [
          {
            job: {
              ...walk.job,
              status: 'running' as const,
              currentNode: walk.currentNode,
              trace: walk.trace,
            },
            ready: walk.action,
          },
        ],
  );
  const uncertain = [...walks.values()]
    .filter((walk) => walk.change?.status === 'uncertain')
    .map(({ job, change }) => ({
      tenantId: job.tenantId,
      jobId: job.id,
      flowId: job.flowId,
      nodeId: change?.error?.node ?? null,
    }));
  return { next, uncertain };
}

/**
 * Walks the jobs on to their next actions and writes those steps' pending receipts in one
 * statement. A step that already has a receipt is replayed (confirmed: the job walks on, and
 * this repeats) or ends its job (pending: uncertain; failed).
 */
async function walkOn(tx: Executor, walks: readonly Walk[]): Promise<void> {
  let moving = walks;
  while (moving.length > 0) {
    const reached: { walk: Walk; node: ActionNode; key: string }[] = [];
    for (const walk of moving) {
      const node = await walk.toNextAction();
      if (node !== null) reached.push({ walk, node, key: stepKey(walk.job.id, node.id) });
    }
    // Usually every step is new: write the pending receipts straight away, and read the ones that
    // exist only when there are some.
    const written = await insertPendingReceipts(
      tx,
      reached.map(({ walk, node, key }) => ({
        tenantId: walk.job.tenantId,
        key,
        jobId: walk.job.id,
        nodeId: node.id,
      })),
    );
    const known = reached.filter(({ walk, key }) => !written.has(`${walk.job.tenantId}:${key}`));
    for (const { walk, node, key } of reached) {
      if (written.has(`${walk.job.tenantId}:${key}`)) walk.waitFor(node);
    }
    const receipts = new Map<string, StepReceiptRow>();
    for (const tenantId of new Set(known.map(({ walk }) => walk.job.tenantId))) {
      const keys = known.filter(({ walk }) => walk.job.tenantId === tenantId).map(({ key }) => key);
      for (const receipt of await findStepReceipts(tx, tenantId, keys))
        receipts.set(`${tenantId}:${receipt.key}`, receipt);
    }
    moving = known
      .filter(({ walk, node, key }) => walk.pastReceipt(node, receipts.get(`${walk.job.tenantId}:${key}`)))
      .map(({ walk }) => walk);
  }
}

function isStop(result: unknown): boolean {
  return (result as { stopped?: unknown } | null)?.stopped === true;
}

/**
 * Runs a step's action (its pending receipt has committed): rechecks the actor, runs the handler
 * and settles the receipt (added to `settlements`). A refusal raises RefusedAction, rolling the
 * transaction back; once recorded on the step it fails the job instead.
 */
async function runAction(walk: Walk, step: Step, settlements: ReceiptSettlement[]): Promise<void> {
  const node = step.ready!;
  const { tx, services } = walk.batch;
  const { job } = walk;
  const { tenantId } = job;
  const key = stepKey(job.id, node.id);
  const refuse = (code: string, message: string) => {
    settlements.push({ tenantId, key, status: 'failed', result: { code, message } });
    walk.fail(node, code, message);
  };
  if (step.refused) return refuse(step.refused.code, step.refused.message);
  if (step.uncertain) return walk.leaveUncertain(node, step.uncertain.code, step.uncertain.message);
  // An outside part ran only after the same check (runOutsideParts): its effect has happened, so
  // the inside part records it whatever became of the actor since.
  if (step.outside === undefined) {
    const permission = permissionOf(node);
    if (!(await walk.batch.actorMay(tenantId, job.actor as FlowActor, permission))) {
      const lapsed = actorLapsed(permission);
      return refuse(lapsed.code, lapsed.message);
    }
  }
  const handler = ACTION_HANDLERS[node.action];
  if (!handler) return refuse('FLOW_UNKNOWN_ACTION', `No handler runs ${node.action}.`);
  const result = await handler(
    {
      ...outsideContextOf(services, step),
      tx,
      ...(step.outside === undefined ? {} : { outside: step.outside.value }),
    },
    node.config,
  );
  if (!result.ok) throw new RefusedAction(step, result.code, result.detail);
  const value = result.value ?? null;
  settlements.push({ tenantId, key, status: 'confirmed', result: value });
  walk.currentNode = isStop(value) ? null : nextNodeId(node);
  walk.record(node, 'ok', walk.currentNode, value);
}

/** The permission the flow's actor needs for an action: `<area>.write` of its catalog area. */
function permissionOf(node: ActionNode): Permission | null {
  const area = ACTIONS.find((action) => action.name === node.action)?.area ?? null;
  return area ? (`${area}.write` as Permission) : null;
}

function actorLapsed(permission: Permission | null): Problem {
  return {
    code: 'ACTOR_LAPSED',
    message: `The flow's actor no longer holds ${permission} (membership or token lapsed): the step did not run.`,
  };
}

/** The step as an action sees it, without a transaction. */
function outsideContextOf(services: Services, step: Step): OutsideContext {
  const { job } = step;
  const node = step.ready!;
  return {
    services,
    tenantId: job.tenantId,
    job,
    nodeId: node.id,
    subject: job.subject as FlowSubject,
    actor: job.actor as FlowActor,
    stepKey: stepKey(job.id, node.id),
  };
}

/**
 * The outside phase (decision 0037): runs the outside parts of the steps' actions, whose pending
 * receipts have committed, with no transaction open, at most OUTSIDE_CONCURRENCY at once. The
 * flow's actor is checked first (in a short transaction of its own), since the effect cannot be
 * taken back once it happened. Answers the steps to move next, each with what its part answered,
 * and the first error a part raised (that step's job becomes uncertain).
 */
async function runOutsideParts(
  services: Services,
  steps: readonly Step[],
  options: ExecutorOptions,
): Promise<{ steps: Step[]; error: unknown }> {
  const parts = steps.filter((step) => ACTION_HANDLERS[step.ready!.action]?.outside !== undefined);
  if (parts.length === 0) return { steps: [...steps], error: null };
  let lapsed: Map<Step, Problem>;
  try {
    lapsed = await lapsedActors(services, parts, options);
  } catch (error) {
    // Nothing outside ran. These jobs keep their leases until they expire; their pending receipts
    // then make them uncertain, as after any error before a commit.
    const dropped = new Set(parts);
    return { steps: steps.filter((step) => !dropped.has(step)), error };
  }
  const answered = new Map<Step, Step>();
  let firstError: unknown = null;
  let next = 0;
  const runParts = async (): Promise<void> => {
    for (let step = parts[next++]; step !== undefined; step = parts[next++]) {
      const refused = lapsed.get(step);
      if (refused) {
        answered.set(step, { ...step, refused });
        continue;
      }
      const node = step.ready!;
      const outside = ACTION_HANDLERS[node.action]!.outside!;
      try {
        const outcome = await outside(outsideContextOf(services, step), node.config);
        const problem = outcome.ok ? null : { code: outcome.code, message: outcome.detail };
        answered.set(
          step,
          outcome.ok
            ? { ...step, outside: { value: outcome.value ?? null } }
            : outcome.uncertain
              ? { ...step, uncertain: problem! }
              : { ...step, refused: problem! },
        );
      } catch (error) {
        firstError ??= error;
        answered.set(step, {
          ...step,
          uncertain: {
            code: 'STEP_UNCERTAIN',
            message:
              'This action failed unexpectedly while it acted outside the database: its effect may or may not have happened. Retry the step or mark the job done or abandoned.',
          },
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(OUTSIDE_CONCURRENCY, parts.length) }, runParts));
  for (const step of parts) await options.afterOutside?.(stepKey(step.job.id, step.ready!.id));
  return { steps: steps.map((step) => answered.get(step) ?? step), error: firstError };
}

/** The steps whose flow actor no longer holds the action's permission, with the refusal. */
async function lapsedActors(
  services: Services,
  steps: readonly Step[],
  options: ExecutorOptions,
): Promise<Map<Step, Problem>> {
  const checked = steps.filter(
    (step) => (step.job.actor as FlowActor).kind !== 'system' && permissionOf(step.ready!) !== null,
  );
  if (checked.length === 0) return new Map();
  return services.database.transaction(async (tx) => {
    const batch = new Batch(
      tx,
      services,
      options,
      checked.map((step) => step.job),
    );
    const lapsed = new Map<Step, Problem>();
    for (const step of checked) {
      const permission = permissionOf(step.ready!);
      if (!(await batch.actorMay(step.job.tenantId, step.job.actor as FlowActor, permission)))
        lapsed.set(step, actorLapsed(permission));
    }
    return lapsed;
  });
}
