import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { eventStatistics, outboxCursors, outboxEvents, outboxReceipts, tenantCounters } from '../schema.ts';
import { nextCounterValue } from './counters.ts';
import { outboxCursorLease } from './leases.ts';
import { findRow, listPage, selectRows } from './tenant-rows.ts';

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
  const first = await nextCounterValue(tx, tenantId, 'outbox', events.length);
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

export function listEvents(tx: Executor, tenantId: string, query: EventQuery): Promise<OutboxEventRow[]> {
  const page = { after: query.afterSequence ?? 0, limit: query.limit };
  return listPage(tx, outboxEvents, tenantId, { key: outboxEvents.sequence, direction: 'asc' }, page, [
    query.name ? eq(outboxEvents.name, query.name) : undefined,
  ]);
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

export function listReceipts(
  tx: Executor,
  tenantId: string,
  consumer: string,
): Promise<(typeof outboxReceipts.$inferSelect)[]> {
  return selectRows(tx, outboxReceipts, tenantId, {
    where: [eq(outboxReceipts.consumer, consumer)],
    orderBy: [asc(outboxReceipts.eventSequence)],
  });
}

export function listCursors(tx: Executor, tenantId: string): Promise<OutboxCursorRow[]> {
  return selectRows(tx, outboxCursors, tenantId, { orderBy: [asc(outboxCursors.consumer)] });
}

export async function outboxHead(tx: Executor, tenantId: string): Promise<number> {
  const counter = await findRow(tx, tenantCounters, tenantId, [eq(tenantCounters.name, 'outbox')]);
  return counter?.value ?? 0;
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

export function listEventStatistics(
  tx: Executor,
  tenantId: string,
): Promise<(typeof eventStatistics.$inferSelect)[]> {
  return selectRows(tx, eventStatistics, tenantId, { orderBy: [asc(eventStatistics.name)] });
}
