import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../database.ts';
import { eventStatistics, outboxCursors, outboxEvents, outboxReceipts, tenantCounters } from '../schema.ts';

export type OutboxEventRow = typeof outboxEvents.$inferSelect;
export type OutboxCursorRow = typeof outboxCursors.$inferSelect;

/** The NOTIFY channel that wakes consumers when events commit. */
export const OUTBOX_CHANNEL = 'cartwright_outbox';

export interface NewOutboxEvent {
  readonly id: string;
  readonly name: string;
  readonly payload: unknown;
  readonly actor: unknown;
  readonly occurredAt: Date;
}

/**
 * Appends events in the caller's transaction. The per-tenant counter row stays locked until that
 * transaction ends, so sequences are gapless per shop and become visible in sequence order.
 */
export async function appendEvents(
  tx: Executor,
  tenantId: string,
  events: readonly NewOutboxEvent[],
): Promise<OutboxEventRow[]> {
  if (events.length === 0) return [];
  const [counter] = await tx
    .insert(tenantCounters)
    .values({ tenantId, name: 'outbox', value: events.length })
    .onConflictDoUpdate({
      target: [tenantCounters.tenantId, tenantCounters.name],
      set: { value: sql`${tenantCounters.value} + ${events.length}` },
    })
    .returning({ value: tenantCounters.value });
  const first = counter!.value - events.length + 1;
  const rows = await tx
    .insert(outboxEvents)
    .values(events.map((event, index) => ({ tenantId, sequence: first + index, ...event })))
    .returning();
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${tenantId})`);
  return rows;
}

export interface EventQuery {
  readonly afterSequence?: number | undefined;
  readonly name?: string | undefined;
  readonly limit: number;
}

export async function listEvents(
  tx: Executor,
  tenantId: string,
  query: EventQuery,
): Promise<OutboxEventRow[]> {
  const conditions = [
    eq(outboxEvents.tenantId, tenantId),
    gt(outboxEvents.sequence, query.afterSequence ?? 0),
  ];
  if (query.name) conditions.push(eq(outboxEvents.name, query.name));
  return tx
    .select()
    .from(outboxEvents)
    .where(and(...conditions))
    .orderBy(asc(outboxEvents.sequence))
    .limit(query.limit);
}

export interface ClaimedCursor {
  readonly tenantId: string;
  readonly position: number;
}

/** Gives every shop that has events a cursor row for this consumer. */
export async function ensureCursors(tx: Executor, consumer: string): Promise<void> {
  await tx.execute(sql`
    insert into ${outboxCursors} (tenant_id, consumer, position, updated_at)
    select k.tenant_id, ${consumer}, 0, 'epoch'::timestamptz from ${tenantCounters} k
    where k.name = 'outbox' and not exists (
      select 1 from ${outboxCursors} c where c.tenant_id = k.tenant_id and c.consumer = ${consumer})
    on conflict do nothing`);
}

/**
 * Leases one shop's cursor that is behind its outbox, skipping cursors other workers hold.
 * Lease times use the database clock, so replicas never compare their own clocks.
 */
export async function claimCursor(
  tx: Executor,
  consumer: string,
  owner: string,
  leaseMs: number,
): Promise<ClaimedCursor | undefined> {
  const [row] = await executeRows<{ tenantId: string; position: number | string }>(
    tx,
    sql`
    with candidate as (
      select c.tenant_id from ${outboxCursors} c
      join ${tenantCounters} k on k.tenant_id = c.tenant_id and k.name = 'outbox'
      where c.consumer = ${consumer} and c.position < k.value
        and (c.lease_owner is null or c.lease_owner = ${owner} or c.lease_expires_at < clock_timestamp())
      order by c.updated_at
      limit 1
      for update of c skip locked
    )
    update ${outboxCursors} c
    set lease_owner = ${owner},
        lease_expires_at = clock_timestamp() + make_interval(secs => ${leaseMs / 1000}),
        updated_at = clock_timestamp()
    from candidate
    where c.tenant_id = candidate.tenant_id and c.consumer = ${consumer}
    returning c.tenant_id as "tenantId", c.position as "position"`,
  );
  return row ? { tenantId: row.tenantId, position: Number(row.position) } : undefined;
}

/**
 * Moves a leased cursor forward and renews the lease, but only while `owner` still holds it at
 * `from`. Returns false when the lease was lost: the caller must roll its batch back.
 */
export async function advanceCursor(
  tx: Executor,
  cursor: {
    consumer: string;
    tenantId: string;
    owner: string;
    from: number;
    to: number;
    leaseMs: number;
    /** Give the lease up with the move (the shop is caught up). */
    release?: boolean;
  },
): Promise<boolean> {
  const rows = await tx
    .update(outboxCursors)
    .set({
      position: cursor.to,
      ...(cursor.release
        ? { leaseOwner: null, leaseExpiresAt: null }
        : { leaseExpiresAt: sql`clock_timestamp() + make_interval(secs => ${cursor.leaseMs / 1000})` }),
      updatedAt: sql`clock_timestamp()`,
    })
    .where(
      and(
        eq(outboxCursors.tenantId, cursor.tenantId),
        eq(outboxCursors.consumer, cursor.consumer),
        eq(outboxCursors.leaseOwner, cursor.owner),
        eq(outboxCursors.position, cursor.from),
        sql`${outboxCursors.leaseExpiresAt} >= clock_timestamp()`,
      ),
    )
    .returning({ position: outboxCursors.position });
  return rows.length === 1;
}

/** Gives up leases held by `owner` (graceful shutdown, or a shop caught up). */
export async function releaseCursors(
  tx: Executor,
  consumer: string,
  owner: string,
  tenantId?: string,
): Promise<void> {
  const conditions = [eq(outboxCursors.consumer, consumer), eq(outboxCursors.leaseOwner, owner)];
  if (tenantId) conditions.push(eq(outboxCursors.tenantId, tenantId));
  await tx
    .update(outboxCursors)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where(and(...conditions));
}

/**
 * Records receipts for (consumer, event); returns the sequences that had none yet. Only those
 * may be applied: a receipt already present means the event was processed before.
 */
export async function recordReceipts(
  tx: Executor,
  tenantId: string,
  consumer: string,
  sequences: readonly number[],
  processedBy: string,
): Promise<Set<number>> {
  if (sequences.length === 0) return new Set();
  const rows = await tx
    .insert(outboxReceipts)
    .values(sequences.map((eventSequence) => ({ tenantId, consumer, eventSequence, processedBy })))
    .onConflictDoNothing()
    .returning({ sequence: outboxReceipts.eventSequence });
  return new Set(rows.map((row) => row.sequence));
}

export async function listReceipts(
  tx: Executor,
  tenantId: string,
  consumer: string,
): Promise<(typeof outboxReceipts.$inferSelect)[]> {
  return tx
    .select()
    .from(outboxReceipts)
    .where(and(eq(outboxReceipts.tenantId, tenantId), eq(outboxReceipts.consumer, consumer)))
    .orderBy(asc(outboxReceipts.eventSequence));
}

export async function listCursors(tx: Executor, tenantId: string): Promise<OutboxCursorRow[]> {
  return tx
    .select()
    .from(outboxCursors)
    .where(eq(outboxCursors.tenantId, tenantId))
    .orderBy(asc(outboxCursors.consumer));
}

export async function outboxHead(tx: Executor, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ value: tenantCounters.value })
    .from(tenantCounters)
    .where(and(eq(tenantCounters.tenantId, tenantId), eq(tenantCounters.name, 'outbox')));
  return row?.value ?? 0;
}

/** The diagnostic projection's effect: counts per event name. */
export async function countEvents(
  tx: Executor,
  tenantId: string,
  events: readonly OutboxEventRow[],
): Promise<void> {
  const byName = new Map<string, { count: number; last: OutboxEventRow }>();
  for (const event of events) {
    const entry = byName.get(event.name);
    byName.set(event.name, { count: (entry?.count ?? 0) + 1, last: event });
  }
  for (const [name, { count, last }] of byName) {
    await tx
      .insert(eventStatistics)
      .values({ tenantId, name, count, lastSequence: last.sequence, lastOccurredAt: last.occurredAt })
      .onConflictDoUpdate({
        target: [eventStatistics.tenantId, eventStatistics.name],
        set: {
          count: sql`${eventStatistics.count} + ${count}`,
          lastSequence: last.sequence,
          lastOccurredAt: last.occurredAt,
        },
      });
  }
}

export async function listEventStatistics(
  tx: Executor,
  tenantId: string,
): Promise<(typeof eventStatistics.$inferSelect)[]> {
  return tx
    .select()
    .from(eventStatistics)
    .where(eq(eventStatistics.tenantId, tenantId))
    .orderBy(asc(eventStatistics.name));
}
