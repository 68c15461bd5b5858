import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantIndex, tenantKey, tenantKeyed, tenantUniqueIndex, timestamps } from '../columns.ts';

// AI proposals (issue 19, item 5; decision 0046): a typed plan of operations a flow step or a
// member made, kept for a merchant's review. The plan's shape and its checks live in the service
// (`intelligence/proposals.ts`); this table keeps the plan as it was made and its decision.

/**
 * `pending` until decided; `approved` (every operation applied in one transaction), `rejected`
 * (by a merchant) or `stale` (an approval found a record, package, rule or pair it names changed
 * since the plan was made: nothing was applied, and the plan can never apply).
 */
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'stale'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const proposals = pgTable(
  'proposals',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    status: text('status', { enum: PROPOSAL_STATUSES }).notNull().default('pending'),
    summary: text('summary').notNull(),
    reason: text('reason'),
    /** The plan: its operations in order, each naming the versions it read. */
    operations: jsonb('operations').$type<Record<string, unknown>[]>().notNull(),
    /** Who made it: a member's or token's actor, or a flow step's (flow, job, node, on behalf of). */
    createdBy: jsonb('created_by').$type<Record<string, unknown>>().notNull(),
    /** The flow step that made it (`flow:<job>:<node>`), so a step run again makes no second one. */
    sourceKey: text('source_key'),
    /** What the making flow acted on (`orderId`, `customerId`), if anything. */
    subject: jsonb('subject').$type<Record<string, string>>().notNull().default({}),
    decidedBy: jsonb('decided_by').$type<Record<string, unknown>>(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    /** The decision's detail: each operation's result, the stale findings, or the rejection's note. */
    decision: jsonb('decision').$type<Record<string, unknown>>(),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantIndex(t, 'proposals_recent', t.createdAt, t.id),
    tenantIndex(t, 'proposals_status_recent', t.status, t.createdAt, t.id),
    tenantUniqueIndex(t, 'proposals_source_key', t.sourceKey),
  ],
);
