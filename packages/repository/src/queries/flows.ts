import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, executeRows } from '../database.ts';
import { definitions, type FlowJobStatus, flowJobs } from '../schema.ts';
import {
  deleteUnsettledEffectReceipts,
  type EffectReceiptRow,
  findEffectReceipts,
  insertPendingEffectReceipts,
} from './effect-receipts.ts';
import { flowJobLease, leaseExpiry, noLease } from './leases.ts';

export {
  FLOW_JOB_STATUSES,
  type FlowActorJson,
  type FlowJobStatus,
  type FlowTraceJson,
} from '../schema.ts';
export type FlowJobRow = typeof flowJobs.$inferSelect;
export type NewFlowJob = typeof flowJobs.$inferInsert;
/** A flow step's effect receipt, under the names the flow executor uses (`scope_id` is the job). */
export type StepReceiptRow = Omit<EffectReceiptRow, 'scope' | 'scopeId' | 'step'> & {
  jobId: string;
  nodeId: string;
};

/**
 * The active flows of a shop that an event name starts, by their `data.trigger`; nothing else
 * is loaded (inactive flows and other triggers stay in the database).
 */
export async function listFlowsTriggeredBy(tx: Executor, tenantId: string, trigger: string) {
  return tx
    .select()
    .from(definitions)
    .where(
      and(
        eq(definitions.tenantId, tenantId),
        eq(definitions.kind, 'flow'),
        eq(definitions.active, true),
        sql`${definitions.data}->>'trigger' = ${trigger}`,
      ),
    )
    .orderBy(definitions.createdAt, definitions.id);
}

/** The NOTIFY channel that wakes flow workers when jobs are created. */
export const FLOW_JOBS_CHANNEL = 'cartwright_flow_jobs';

/**
 * Creates jobs, due now by the database clock, in one statement; a job whose flow already has one
 * for its event is left out (the unique event key). Answers how many were created.
 */
export async function insertFlowJobs(
  tx: Executor,
  jobs: readonly Omit<NewFlowJob, 'availableAt'>[],
): Promise<number> {
  if (jobs.length === 0) return 0;
  const rows = await tx
    .insert(flowJobs)
    .values(jobs.map((job) => ({ ...job, availableAt: sql`clock_timestamp()` })))
    .onConflictDoNothing()
    .returning({ id: flowJobs.id });
  return rows.length;
}

/** Wakes the flow workers when the transaction commits. */
export async function notifyJobs(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_notify(${FLOW_JOBS_CHANNEL}, '')`);
}

/** A claimed job: its row as the claim left it (`running`, leased by the claiming owner). */
export type ClaimedJob = FlowJobRow;

/**
 * Leases up to `limit` due jobs across shops for `owner`: queued or waiting jobs whose
 * `available_at` has come, and running jobs whose lease expired (their worker was lost). Answers
 * their rows as leased (one statement). Each job is then handled inside its own shop. Uses the
 * database clock, so workers need no synchronised clocks.
 */
export async function claimDueJobs(
  tx: Executor,
  owner: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedJob[]> {
  return flowJobLease.claim(tx, { owner, leaseMs, limit });
}

export async function findFlowJob(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: 'update',
): Promise<FlowJobRow | undefined> {
  const query = tx
    .select()
    .from(flowJobs)
    .where(and(eq(flowJobs.tenantId, tenantId), eq(flowJobs.id, id)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** What a step changes on a job. `delaySeconds` sets `available_at` from the database clock. */
export interface JobChange {
  readonly status?: FlowJobStatus;
  readonly currentNode?: string | null;
  readonly trace?: FlowJobRow['trace'];
  readonly error?: FlowJobRow['error'];
  readonly delaySeconds?: number;
  /** Give the lease up (the job is queued again or ended by a merchant's resolution). */
  readonly release?: boolean;
}

export async function updateFlowJob(
  tx: Executor,
  tenantId: string,
  id: string,
  change: JobChange,
): Promise<FlowJobRow> {
  const [row] = await tx
    .update(flowJobs)
    .set(jobChanges(change))
    .where(and(eq(flowJobs.tenantId, tenantId), eq(flowJobs.id, id)))
    .returning();
  return row!;
}

/** A job as one step of its worker leaves it (see saveLeasedJobs). */
export interface LeasedJobChange {
  readonly tenantId: string;
  readonly id: string;
  readonly status: FlowJobStatus;
  readonly currentNode: string | null;
  readonly trace: FlowJobRow['trace'];
  /** Set the error (null clears it); undefined keeps the stored one. */
  readonly error?: FlowJobRow['error'];
  /** A delay: `available_at` = the database clock + this many seconds. */
  readonly delaySeconds?: number;
}

/**
 * Writes the jobs one step of `owner` moved, in one statement, while `owner` still holds each
 * job's lease (the fence: the row must still be `running` under this owner). A job that stays
 * `running` renews its lease for `leaseMs`; any other status gives the lease up. Answers the keys
 * (`tenantId:id`) of the jobs written: a job missing from it had its lease lost, and the caller
 * must roll its transaction back.
 */
export async function saveLeasedJobs(
  tx: Executor,
  owner: string,
  leaseMs: number,
  changes: readonly LeasedJobChange[],
): Promise<Set<string>> {
  if (changes.length === 0) return new Set();
  const records = changes.map((change) => ({
    tenant_id: change.tenantId,
    id: change.id,
    status: change.status,
    current_node: change.currentNode,
    trace: change.trace,
    set_error: change.error !== undefined,
    error: change.error ?? null,
    delay_seconds: change.delaySeconds ?? null,
  }));
  const j = alias(flowJobs, 'j');
  const rows = await executeRows<{ tenant_id: string; id: string }>(
    tx,
    sql`
    update ${flowJobs} ${j} set
      status = x.status,
      current_node = x.current_node,
      trace = x.trace,
      error = case when x.set_error then x.error else j.error end,
      available_at = case when x.delay_seconds is null then j.available_at
        else clock_timestamp() + make_interval(secs => x.delay_seconds) end,
      lease_owner = case when x.status = 'running' then j.lease_owner end,
      lease_expires_at = case when x.status = 'running' then ${leaseExpiry(leaseMs)} end,
      finished_at = case when x.status in ('finished', 'failed', 'cancelled') then clock_timestamp()
        else j.finished_at end,
      updated_at = clock_timestamp()
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as x(
      tenant_id uuid, id uuid, status text, current_node text, trace jsonb, set_error boolean,
      error jsonb, delay_seconds double precision)
    where j.tenant_id = x.tenant_id and j.id = x.id and ${flowJobLease.heldBy(owner, j)}
    returning j.tenant_id, j.id`,
  );
  return new Set(rows.map((row) => `${row.tenant_id}:${row.id}`));
}

function jobChanges(change: JobChange) {
  const finished =
    change.status === 'finished' || change.status === 'failed' || change.status === 'cancelled';
  return {
    ...(change.status === undefined ? {} : { status: change.status }),
    ...(change.currentNode === undefined ? {} : { currentNode: change.currentNode }),
    ...(change.trace === undefined ? {} : { trace: change.trace }),
    ...(change.error === undefined ? {} : { error: change.error }),
    ...(change.delaySeconds === undefined
      ? {}
      : { availableAt: sql`clock_timestamp() + make_interval(secs => ${change.delaySeconds})` }),
    ...(change.release ? noLease : {}),
    ...(finished ? { finishedAt: sql`clock_timestamp()` } : {}),
    updatedAt: sql`clock_timestamp()`,
  };
}

/** Which jobs of a shop the executions view lists; every filter given must match. */
export interface FlowJobQuery {
  readonly limit: number;
  /** The id of the last job of the previous page: the page starts with the next older job. */
  readonly after?: string | undefined;
  /** Any of these statuses (none or empty: every status). */
  readonly statuses?: readonly FlowJobStatus[] | undefined;
  readonly flowId?: string | undefined;
  readonly eventName?: string | undefined;
  /** Created at or after this time. */
  readonly createdFrom?: Date | undefined;
  /** Created before this time. */
  readonly createdBefore?: Date | undefined;
}

/**
 * A shop's jobs, newest first (created_at, then id, both descending), filtered; keyset paging
 * from `after`, so pages neither skip nor repeat jobs while new ones are created.
 */
export async function listFlowJobs(
  tx: Executor,
  tenantId: string,
  query: FlowJobQuery,
): Promise<FlowJobRow[]> {
  const conditions: SQL[] = [eq(flowJobs.tenantId, tenantId)];
  if (query.after !== undefined) {
    // Older than the cursor job; an id that is no job of this shop answers an empty page.
    const cursor = tx
      .select({ createdAt: flowJobs.createdAt, id: flowJobs.id })
      .from(flowJobs)
      .where(and(eq(flowJobs.tenantId, tenantId), eq(flowJobs.id, query.after)));
    conditions.push(sql`(${flowJobs.createdAt}, ${flowJobs.id}) < (${cursor})`);
  }
  if (query.statuses !== undefined && query.statuses.length > 0)
    conditions.push(inArray(flowJobs.status, [...query.statuses]));
  if (query.flowId !== undefined) conditions.push(eq(flowJobs.flowId, query.flowId));
  if (query.eventName !== undefined) conditions.push(eq(flowJobs.eventName, query.eventName));
  if (query.createdFrom !== undefined) conditions.push(gte(flowJobs.createdAt, query.createdFrom));
  if (query.createdBefore !== undefined) conditions.push(lt(flowJobs.createdAt, query.createdBefore));
  return tx
    .select()
    .from(flowJobs)
    .where(and(...conditions))
    .orderBy(desc(flowJobs.createdAt), desc(flowJobs.id))
    .limit(query.limit);
}

/** The latest jobs of a shop, newest first. */
export function listRecentFlowJobs(tx: Executor, tenantId: string, limit: number): Promise<FlowJobRow[]> {
  return listFlowJobs(tx, tenantId, { limit });
}

/** How many of a shop's jobs wait for a merchant's resolution: `uncertain` and `failed` ones. */
export async function countUnresolvedFlowJobs(
  tx: Executor,
  tenantId: string,
): Promise<{ uncertain: number; failed: number }> {
  const [row] = await tx
    .select({
      uncertain: sql<number>`count(*) filter (where ${flowJobs.status} = 'uncertain')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${flowJobs.status} = 'failed')`.mapWith(Number),
    })
    .from(flowJobs)
    .where(and(eq(flowJobs.tenantId, tenantId), inArray(flowJobs.status, ['uncertain', 'failed'])));
  return { uncertain: row?.uncertain ?? 0, failed: row?.failed ?? 0 };
}

/** Jobs of a flow that have not ended (they block the flow's or a rule's deletion). */
export async function listOpenJobsNaming(tx: Executor, tenantId: string, id: string): Promise<FlowJobRow[]> {
  return tx
    .select()
    .from(flowJobs)
    .where(
      and(
        eq(flowJobs.tenantId, tenantId),
        sql`${flowJobs.status} in ('queued', 'running', 'waiting', 'uncertain', 'failed')`,
        sql`(${flowJobs.flowId} = ${id} or strpos(${flowJobs.definition}::text, ${JSON.stringify(id)}) > 0)`,
      ),
    )
    .limit(100);
}

/** The receipts of these step keys in one shop. */
export async function findStepReceipts(
  tx: Executor,
  tenantId: string,
  keys: readonly string[],
): Promise<StepReceiptRow[]> {
  const receipts = await findEffectReceipts(tx, tenantId, keys);
  return receipts.map(({ scope: _scope, scopeId, step, ...receipt }) => ({
    ...receipt,
    jobId: scopeId,
    nodeId: step!,
  }));
}

/** A step's receipt to write before the step runs; its key is `flow:<job_id>:<node_id>`. */
export interface NewStepReceipt {
  readonly tenantId: string;
  readonly key: string;
  readonly jobId: string;
  readonly nodeId: string;
}

/**
 * Writes the pending receipts of steps before they run, in one statement. Answers the keys
 * written (`tenantId:key`); a step missing from it already had a receipt.
 */
export async function insertPendingReceipts(
  tx: Executor,
  receipts: readonly NewStepReceipt[],
): Promise<Set<string>> {
  return insertPendingEffectReceipts(
    tx,
    receipts.map(({ jobId, nodeId, ...receipt }) => ({
      ...receipt,
      scope: 'flow',
      scopeId: jobId,
      step: nodeId,
    })),
  );
}

/**
 * Deletes a job's pending and failed receipts so those steps may run again (a merchant's explicit
 * retry); confirmed steps keep theirs and replay their result.
 */
export async function deleteUnsettledReceipts(tx: Executor, tenantId: string, jobId: string): Promise<void> {
  await deleteUnsettledEffectReceipts(tx, tenantId, 'flow', jobId);
}

/**
 * Gives back the jobs `owner` holds (graceful shutdown): they are queued again at once. A job
 * stopped inside an action keeps its pending receipt, so the next worker reports it uncertain.
 */
export async function releaseJobLeases(tx: Executor, owner: string): Promise<void> {
  await flowJobLease.release(tx, owner);
}
