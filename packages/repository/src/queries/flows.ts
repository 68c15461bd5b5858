import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { definitions, type FlowJobStatus, flowJobs, stepReceipts } from '../schema.ts';

export {
  FLOW_JOB_STATUSES,
  type FlowActorJson,
  type FlowJobStatus,
  type FlowTraceJson,
} from '../schema.ts';
export type FlowJobRow = typeof flowJobs.$inferSelect;
export type NewFlowJob = typeof flowJobs.$inferInsert;
export type StepReceiptRow = typeof stepReceipts.$inferSelect;

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
 * Creates a job, due now by the database clock, unless the flow already has one for this event
 * (answers undefined then).
 */
export async function insertFlowJob(
  tx: Executor,
  job: Omit<NewFlowJob, 'availableAt'>,
): Promise<FlowJobRow | undefined> {
  const [row] = await tx
    .insert(flowJobs)
    .values({ ...job, availableAt: sql`clock_timestamp()` })
    .onConflictDoNothing()
    .returning();
  return row;
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
  return tx
    .update(flowJobs)
    .set({
      status: 'running',
      leaseOwner: owner,
      leaseExpiresAt: sql`clock_timestamp() + make_interval(secs => ${leaseMs / 1000})`,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(
      sql`(${flowJobs.tenantId}, ${flowJobs.id}) in (
        select due.tenant_id, due.id from ${flowJobs} due
        where (due.status in ('queued', 'waiting') and due.available_at <= clock_timestamp())
           or (due.status = 'running' and due.lease_expires_at < clock_timestamp())
        order by due.available_at
        limit ${limit}
        for update skip locked)`,
    )
    .returning();
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
  /** Keep the lease (the worker goes on) or give it up (waiting, finished, failed, uncertain). */
  readonly release?: boolean;
  readonly leaseMs?: number;
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

/**
 * Writes a step's change while `owner` still holds the job's lease (the fence: the row must still
 * be `running` under this owner). Answers the new row, or undefined when the lease was lost — the
 * caller must then roll its transaction back.
 */
export async function updateLeasedJob(
  tx: Executor,
  tenantId: string,
  id: string,
  owner: string,
  change: JobChange,
): Promise<FlowJobRow | undefined> {
  const [row] = await tx
    .update(flowJobs)
    .set(jobChanges(change))
    .where(
      and(
        eq(flowJobs.tenantId, tenantId),
        eq(flowJobs.id, id),
        eq(flowJobs.leaseOwner, owner),
        eq(flowJobs.status, 'running'),
      ),
    )
    .returning();
  return row;
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
    ...(change.release
      ? { leaseOwner: null, leaseExpiresAt: null }
      : change.leaseMs === undefined
        ? {}
        : { leaseExpiresAt: sql`clock_timestamp() + make_interval(secs => ${change.leaseMs / 1000})` }),
    ...(finished ? { finishedAt: sql`clock_timestamp()` } : {}),
    updatedAt: sql`clock_timestamp()`,
  };
}

/** The latest jobs of a shop, newest first (the executions view). */
export async function listRecentFlowJobs(
  tx: Executor,
  tenantId: string,
  limit: number,
): Promise<FlowJobRow[]> {
  return tx
    .select()
    .from(flowJobs)
    .where(eq(flowJobs.tenantId, tenantId))
    .orderBy(desc(flowJobs.createdAt), desc(flowJobs.id))
    .limit(limit);
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

export async function findStepReceipt(
  tx: Executor,
  tenantId: string,
  key: string,
): Promise<StepReceiptRow | undefined> {
  const [row] = await tx
    .select()
    .from(stepReceipts)
    .where(and(eq(stepReceipts.tenantId, tenantId), eq(stepReceipts.key, key)));
  return row;
}

/** Writes the pending receipt of a step before it runs; false if one exists already. */
export async function insertPendingReceipt(
  tx: Executor,
  receipt: { tenantId: string; key: string; jobId: string; nodeId: string },
): Promise<boolean> {
  const rows = await tx
    .insert(stepReceipts)
    .values({ ...receipt, status: 'pending' })
    .onConflictDoNothing()
    .returning({ key: stepReceipts.key });
  return rows.length === 1;
}

/** Settles a pending receipt with the step's result (`confirmed`) or its error (`failed`). */
export async function settleReceipt(
  tx: Executor,
  tenantId: string,
  key: string,
  status: 'confirmed' | 'failed',
  result: unknown,
): Promise<void> {
  await tx
    .update(stepReceipts)
    .set({ status, result, settledAt: sql`clock_timestamp()` })
    .where(and(eq(stepReceipts.tenantId, tenantId), eq(stepReceipts.key, key)));
}

/**
 * Deletes a job's pending and failed receipts so those steps may run again (a merchant's explicit
 * retry); confirmed steps keep theirs and replay their result.
 */
export async function deleteUnsettledReceipts(tx: Executor, tenantId: string, jobId: string): Promise<void> {
  await tx
    .delete(stepReceipts)
    .where(
      and(
        eq(stepReceipts.tenantId, tenantId),
        eq(stepReceipts.jobId, jobId),
        sql`${stepReceipts.status} in ('pending', 'failed')`,
      ),
    );
}

/**
 * Gives back the jobs `owner` holds (graceful shutdown): they are queued again at once. A job
 * stopped inside an action keeps its pending receipt, so the next worker reports it uncertain.
 */
export async function releaseJobLeases(tx: Executor, owner: string): Promise<void> {
  await tx
    .update(flowJobs)
    .set({ status: 'queued', leaseOwner: null, leaseExpiresAt: null, updatedAt: sql`clock_timestamp()` })
    .where(and(eq(flowJobs.leaseOwner, owner), eq(flowJobs.status, 'running')));
}
