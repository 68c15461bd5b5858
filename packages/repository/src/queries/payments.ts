import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../database.ts';
import { type PaymentJobKind, paymentAttempts, paymentJobs, paymentWebhookEvents } from '../schema.ts';
import { paymentJobLease } from './leases.ts';
import {
  findRow,
  insertRow,
  inTenant,
  type Row,
  type RowLock,
  reviseRows,
  selectRows,
} from './tenant-rows.ts';

// The payment ledger's rows: tables, not decisions (`@cartwright/payment-ledger` decides).

export type PaymentAttemptRow = Row<typeof paymentAttempts>;
export type PaymentJobRow = Row<typeof paymentJobs>;
export type PaymentWebhookEventRow = Row<typeof paymentWebhookEvents>;

export function insertPaymentAttempt(
  tx: Executor,
  row: typeof paymentAttempts.$inferInsert,
): Promise<PaymentAttemptRow> {
  return insertRow(tx, paymentAttempts, row);
}

/** One attempt; `lock` holds it (refunds and reconciliation of one attempt take turns on it). */
export function findPaymentAttempt(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<PaymentAttemptRow | undefined> {
  return findRow(tx, paymentAttempts, tenantId, [eq(paymentAttempts.id, id)], lock);
}

export function findPaymentAttemptByProviderOrder(
  tx: Executor,
  tenantId: string,
  providerOrderId: string,
): Promise<PaymentAttemptRow | undefined> {
  return findRow(tx, paymentAttempts, tenantId, [eq(paymentAttempts.providerOrderId, providerOrderId)]);
}

/** An order's attempts, oldest first. */
export function listPaymentAttempts(
  tx: Executor,
  tenantId: string,
  orderId: string,
): Promise<PaymentAttemptRow[]> {
  return selectRows(tx, paymentAttempts, tenantId, {
    where: [eq(paymentAttempts.orderId, orderId)],
    orderBy: [asc(paymentAttempts.createdAt), asc(paymentAttempts.id)],
  });
}

/** The shop's attempts in any of `statuses`, most recently changed first, before `before` (a page). */
export function listPaymentAttemptsInStatus(
  tx: Executor,
  tenantId: string,
  statuses: readonly string[],
  page: { readonly limit: number; readonly before?: { readonly updatedAt: Date; readonly id: string } },
): Promise<PaymentAttemptRow[]> {
  const before = page.before;
  return selectRows(tx, paymentAttempts, tenantId, {
    where: [
      inArray(paymentAttempts.status, [...statuses]),
      before
        ? sql`(${paymentAttempts.updatedAt}, ${paymentAttempts.id}) < (${before.updatedAt.toISOString()}::timestamptz, ${before.id}::uuid)`
        : undefined,
    ],
    orderBy: [desc(paymentAttempts.updatedAt), desc(paymentAttempts.id)],
    limit: page.limit,
  });
}

/** Writes an attempt's progress (never its identity), moving its revision on. */
export async function updatePaymentAttempt(
  tx: Executor,
  tenantId: string,
  id: string,
  changes: Pick<
    PgUpdateSetSource<typeof paymentAttempts>,
    'status' | 'providerOrderId' | 'approvalUrl' | 'state' | 'refunds'
  >,
  at: Date,
): Promise<PaymentAttemptRow> {
  const [row] = await reviseRows(tx, paymentAttempts, tenantId, [eq(paymentAttempts.id, id)], changes, at);
  if (!row) throw new Error(`payment attempt ${id} does not exist`);
  return row;
}

/** The NOTIFY channel that wakes payment workers when jobs are queued. */
export const PAYMENT_JOBS_CHANNEL = 'cartwright_payment_jobs';

/** Queues provider work for the payment-worker, due now or at `availableAt`, and wakes it on commit. */
export async function queuePaymentJob(
  tx: Executor,
  job: {
    readonly tenantId: string;
    readonly id: string;
    readonly attemptId: string;
    readonly kind: PaymentJobKind;
    readonly subjectId?: string | null;
    readonly availableAt: Date;
  },
): Promise<PaymentJobRow> {
  const row = await insertRow(tx, paymentJobs, {
    ...job,
    subjectId: job.subjectId ?? null,
    status: 'queued',
    createdAt: job.availableAt,
    updatedAt: job.availableAt,
  });
  await tx.execute(sql`select pg_notify(${PAYMENT_JOBS_CHANNEL}, '')`);
  return row;
}

/**
 * Whether the attempt has work of `kind` queued and not yet started, so a second request adds
 * none. A running job does not count: it may have read the provider before what prompted the
 * request (a reconciliation started before the buyer approved must not swallow the approval).
 */
export async function hasQueuedPaymentJob(
  tx: Executor,
  tenantId: string,
  attemptId: string,
  kind: PaymentJobKind,
  subjectId?: string,
): Promise<boolean> {
  const rows = await selectRows(tx, paymentJobs, tenantId, {
    where: [
      eq(paymentJobs.attemptId, attemptId),
      eq(paymentJobs.kind, kind),
      eq(paymentJobs.status, 'queued'),
      subjectId === undefined ? undefined : eq(paymentJobs.subjectId, subjectId),
    ],
    limit: 1,
  });
  return rows.length > 0;
}

/** An attempt's jobs, newest first. */
export function listPaymentJobs(
  tx: Executor,
  tenantId: string,
  attemptIds: readonly string[],
  limit: number,
) {
  if (attemptIds.length === 0) return Promise.resolve([] as PaymentJobRow[]);
  return selectRows(tx, paymentJobs, tenantId, {
    where: [inArray(paymentJobs.attemptId, [...attemptIds])],
    orderBy: [desc(paymentJobs.createdAt), desc(paymentJobs.id)],
    limit,
  });
}

/**
 * Stores a verified provider webhook unless its event id is stored already. Answers true for a new
 * event, false for a redelivery (which then changes nothing).
 */
export async function storeWebhookEvent(
  tx: Executor,
  row: typeof paymentWebhookEvents.$inferInsert,
): Promise<boolean> {
  const inserted = await tx
    .insert(paymentWebhookEvents)
    .values(row)
    .onConflictDoNothing()
    .returning({ eventId: paymentWebhookEvents.eventId });
  return inserted.length > 0;
}

export function findWebhookEvent(
  tx: Executor,
  tenantId: string,
  eventId: string,
): Promise<PaymentWebhookEventRow | undefined> {
  return findRow(tx, paymentWebhookEvents, tenantId, [eq(paymentWebhookEvents.eventId, eventId)]);
}

export async function markWebhookEvent(
  tx: Executor,
  tenantId: string,
  eventId: string,
  changes: {
    readonly status: 'applied' | 'ignored';
    readonly attemptId: string | null;
    readonly appliedAt: Date;
  },
): Promise<void> {
  await tx
    .update(paymentWebhookEvents)
    .set(changes)
    .where(and(inTenant(paymentWebhookEvents, tenantId), eq(paymentWebhookEvents.eventId, eventId)));
}

/** How many of the shop's payment jobs are in each unresolved status (for the merchant's view). */
export async function countUnresolvedPaymentJobs(
  tx: Executor,
  tenantId: string,
): Promise<{ uncertain: number; failed: number }> {
  const rows = await tx
    .select({ status: paymentJobs.status, count: sql<number>`count(*)::int` })
    .from(paymentJobs)
    .where(inTenant(paymentJobs, tenantId, inArray(paymentJobs.status, ['uncertain', 'failed'])))
    .groupBy(paymentJobs.status);
  const of = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
  return { uncertain: of('uncertain'), failed: of('failed') };
}

/** Leases up to `limit` due payment jobs across shops to `owner` (they become `running`). */
export function claimPaymentJobs(
  tx: Executor,
  owner: string,
  leaseMs: number,
  limit: number,
): Promise<PaymentJobRow[]> {
  return paymentJobLease.claim(tx, { owner, leaseMs, limit });
}

/**
 * Ends `owner`'s lease on a job with its outcome: `done`, `failed` or `uncertain` for good, or
 * `queued` again at `availableAt` (a retry). Answers false when the lease was lost meanwhile: the
 * caller must then roll its transaction back, since another worker owns the job.
 */
export async function settlePaymentJob(
  tx: Executor,
  owner: string,
  tenantId: string,
  id: string,
  outcome:
    | { readonly status: 'done' | 'failed' | 'uncertain'; readonly error?: { code: string; message: string } }
    | {
        readonly status: 'queued';
        readonly availableAt: Date;
        readonly error?: { code: string; message: string };
      },
): Promise<boolean> {
  const finished = outcome.status !== 'queued';
  const written = await paymentJobLease.save(tx, {
    owner,
    where: inTenant(paymentJobs, tenantId, eq(paymentJobs.id, id)),
    set: {
      status: outcome.status,
      error: outcome.error ?? null,
      ...(outcome.status === 'queued' ? { availableAt: outcome.availableAt } : {}),
      finishedAt: finished ? sql`clock_timestamp()` : null,
      updatedAt: sql`clock_timestamp()`,
    },
    lease: 'release',
  });
  return written === 1;
}

/** Attempt statuses a sweep looks at: the provider may have moved without telling us. */
export const SWEPT_ATTEMPT_STATUSES = [
  'awaiting_approval',
  'capturing',
  'pending_capture',
  'uncertain',
] as const;

/**
 * Attempts across shops that the provider may have moved without telling us (buyer approved but
 * never came back, a pending capture settled, an uncertain outcome) and that have had no payment
 * job for `quietMs`: a worker's sweep reconciles them. Like a claim, it looks across shops; each
 * attempt is then handled inside its shop.
 */
export async function findQuietAttempts(
  tx: Executor,
  quietMs: number,
  limit: number,
): Promise<{ tenantId: string; id: string }[]> {
  const rows = await tx
    .select({ tenantId: paymentAttempts.tenantId, id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      and(
        inArray(paymentAttempts.status, [...SWEPT_ATTEMPT_STATUSES]),
        sql`${paymentAttempts.updatedAt} < clock_timestamp() - make_interval(secs => ${quietMs / 1000})`,
        sql`not exists (select 1 from ${paymentJobs} j
              where j.tenant_id = ${paymentAttempts.tenantId} and j.attempt_id = ${paymentAttempts.id}
                and (j.status in ('queued', 'running')
                     or j.created_at > clock_timestamp() - make_interval(secs => ${quietMs / 1000})))`,
      ),
    )
    .orderBy(asc(paymentAttempts.updatedAt))
    .limit(limit);
  return rows;
}
