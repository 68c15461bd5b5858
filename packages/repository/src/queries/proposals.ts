import { desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { PROPOSAL_STATUSES, type ProposalStatus, proposals } from '../schema.ts';
import { findRow, insertRow, inTenant, type RowLock } from './tenant-rows.ts';

// AI proposals (issue 19): plans kept for a merchant's review. Tables, not decisions: what a plan
// may hold and when it applies is the service's (`intelligence/proposals.ts`).

export type ProposalRow = typeof proposals.$inferSelect;
export type NewProposal = typeof proposals.$inferInsert;
export { PROPOSAL_STATUSES, type ProposalStatus };

/** Stores a new proposal and answers it as stored. */
export function insertProposal(tx: Executor, proposal: NewProposal): Promise<ProposalRow> {
  return insertRow(tx, proposals, proposal);
}

export function findProposal(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<ProposalRow | undefined> {
  return findRow(tx, proposals, tenantId, [eq(proposals.id, id)], lock);
}

/** The proposal a flow step made (its `flow:<job>:<node>` key), if it made one. */
export function findProposalBySource(
  tx: Executor,
  tenantId: string,
  sourceKey: string,
): Promise<ProposalRow | undefined> {
  return findRow(tx, proposals, tenantId, [eq(proposals.sourceKey, sourceKey)]);
}

export interface ProposalQuery {
  readonly statuses?: readonly ProposalStatus[] | undefined;
  /** The id of the last proposal of the previous page. */
  readonly after?: string | undefined;
  readonly limit: number;
}

/** The shop's proposals, newest first, optionally of some statuses only. */
export function listProposals(tx: Executor, tenantId: string, query: ProposalQuery): Promise<ProposalRow[]> {
  const conditions: (SQL | undefined)[] = [];
  if (query.statuses !== undefined && query.statuses.length > 0)
    conditions.push(inArray(proposals.status, [...query.statuses]));
  if (query.after !== undefined) {
    // Older than the cursor proposal; an id that is no proposal of this shop answers an empty page.
    const cursor = tx
      .select({ createdAt: proposals.createdAt, id: proposals.id })
      .from(proposals)
      .where(inTenant(proposals, tenantId, eq(proposals.id, query.after)));
    conditions.push(sql`(${proposals.createdAt}, ${proposals.id}) < (${cursor})`);
  }
  return tx
    .select()
    .from(proposals)
    .where(inTenant(proposals, tenantId, ...conditions))
    .orderBy(desc(proposals.createdAt), desc(proposals.id))
    .limit(query.limit);
}

/** How a pending proposal was decided. */
export interface ProposalDecision {
  readonly status: Exclude<ProposalStatus, 'pending'>;
  readonly decidedBy: Record<string, unknown>;
  readonly decision: Record<string, unknown>;
}

/**
 * Decides a proposal that is still pending (its revision moves on); undefined when it is not
 * pending any more (decided meanwhile) or not this shop's.
 */
export async function decideProposal(
  tx: Executor,
  tenantId: string,
  id: string,
  decision: ProposalDecision,
  at: Date,
): Promise<ProposalRow | undefined> {
  const [row] = await tx
    .update(proposals)
    .set({
      status: decision.status,
      decidedBy: decision.decidedBy,
      decision: decision.decision,
      decidedAt: at,
      updatedAt: at,
      revision: sql`${proposals.revision} + 1`,
    })
    .where(inTenant(proposals, tenantId, eq(proposals.id, id), eq(proposals.status, 'pending')))
    .returning();
  return row;
}
