import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { eventStatistics, outboxCursors, outboxEvents, outboxReceipts, tenantCounters } from '../schema.ts';
import { outboxCursorLease } from './leases.ts';

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
  const [row] = await outboxCursorLease.claim(tx, { consumer, owner, leaseMs, limit: 1 });
  return row ? { tenantId: row.tenantId, position: row.position } : undefined;
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
  const written = await outboxCursorLease.save(tx, {
    owner: cursor.owner,
    where: and(
      eq(outboxCursors.tenantId, cursor.tenantId),
      eq(outboxCursors.consumer, cursor.consumer),
      eq(outboxCursors.position, cursor.from),
    )!,
    set: { position: cursor.to, updatedAt: sql`clock_timestamp()` },
    lease: cursor.release ? 'release' : { renewMs: cursor.leaseMs },
  });
  return written === 1;
}

/** Gives up leases held by `owner` (graceful shutdown, or a shop caught up). */
export async function releaseCursors(
  tx: Executor,
  consumer: string,
  owner: string,
  tenantId?: string,
): Promise<void> {
  await outboxCursorLease.release(
    tx,
    owner,
    and(eq(outboxCursors.consumer, consumer), tenantId ? eq(outboxCursors.tenantId, tenantId) : undefined),
  );
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
