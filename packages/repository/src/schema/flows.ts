import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import {
  leaseColumns,
  tenantIndex,
  tenantKey,
  tenantKeyed,
  tenantUniqueIndex,
  timestamps,
} from '../columns.ts';

/** Who a flow acts for: the member or token that last saved it, or the shop itself (starters). */
export type FlowActorJson =
  | { readonly kind: 'token'; readonly tokenId: string; readonly userId: string | null }
  | { readonly kind: 'system' };

/** One decision or step of a job, appended as the job moves. */
export interface FlowTraceJson {
  readonly node: string;
  readonly kind: string;
  readonly at: string;
  /** Condition nodes: the branch taken. Action nodes: `ok`, `replayed` or the error code. */
  readonly outcome: string;
  readonly next: string | null;
  readonly detail?: unknown;
}

export const FLOW_JOB_STATUSES = [
  'queued',
  'running',
  'waiting',
  'finished',
  'failed',
  'uncertain',
  'cancelled',
] as const;
export type FlowJobStatus = (typeof FLOW_JOB_STATUSES)[number];

/**
 * Flow jobs: one per matching active flow per event. `definition` freezes the flow and every
 * saved rule it references at their revisions; `current_node` is the cursor; `available_at` when
 * a worker may take it; `lease_*` who holds it. Jobs outlive their flow definition.
 */
export const flowJobs = pgTable(
  'flow_jobs',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    flowId: uuid('flow_id').notNull(),
    flowRevision: integer('flow_revision').notNull(),
    eventSequence: bigint('event_sequence', { mode: 'number' }).notNull(),
    eventName: text('event_name').notNull(),
    /** What the event names (order, customer), for facts and actions. */
    subject: jsonb('subject').$type<Record<string, unknown>>().notNull(),
    definition: jsonb('definition').$type<{ flow: unknown; rules: unknown[] }>().notNull(),
    actor: jsonb('actor').$type<FlowActorJson>().notNull(),
    status: text('status', { enum: FLOW_JOB_STATUSES }).notNull(),
    currentNode: text('current_node'),
    trace: jsonb('trace').$type<FlowTraceJson[]>().notNull().default([]),
    availableAt: timestamp('available_at', { withTimezone: true, mode: 'date' }).notNull(),
    ...leaseColumns(),
    error: jsonb('error').$type<{ code: string; message: string; node?: string | null }>(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'flow_jobs_event_key', t.flowId, t.eventSequence),
    tenantIndex(t, 'flow_jobs_recent', t.createdAt),
    // Not led by tenant_id on purpose: workers look for due work across shops (each job is then
    // handled inside its shop).
    index('flow_jobs_due').on(t.availableAt).where(sql`${t.status} in ('queued', 'waiting', 'running')`),
  ],
);
