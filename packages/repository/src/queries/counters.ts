import { eq, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../database.ts';
import { tenantCounters } from '../schema.ts';
import { findRow } from './tenant-rows.ts';

/**
 * Reserves `count` consecutive values of a per-shop counter (`tenant_counters`) in the caller's
 * transaction and returns the first. The counter row stays locked until that transaction ends,
 * so numbers are gapless: a rolled-back transaction takes its increment with it.
 */
export async function nextCounterValue(
  tx: Executor,
  tenantId: string,
  name: string,
  count = 1,
): Promise<number> {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`count must be a positive integer, got ${count}`);
  const [counter] = await tx
    .insert(tenantCounters)
    .values({ tenantId, name, value: count })
    .onConflictDoUpdate({
      target: [tenantCounters.tenantId, tenantCounters.name],
      set: { value: sql`${tenantCounters.value} + ${count}` },
    })
    .returning({ value: tenantCounters.value });
  return counter!.value - count + 1;
}

/**
 * The current value of a per-shop counter, or undefined before its first use. With `share` the
 * row stays locked until the transaction ends, so no writer can move it meanwhile (a writer's
 * nextCounterValue waits).
 */
export async function counterValue(
  tx: Executor,
  tenantId: string,
  name: string,
  lock?: 'share',
): Promise<number | undefined> {
  const counter = await findRow(tx, tenantCounters, tenantId, [eq(tenantCounters.name, name)], lock);
  return counter?.value;
}

/**
 * A counter's value as the caller's transaction sees it (0 before its first use), and whether
 * that transaction moved it itself (the row version it sees was written by the caller's own
 * transaction: its `xmin` is the transaction's id). A value the caller did not write was
 * committed by someone, so a cache may key on it; one the caller wrote may still roll back.
 * Savepoints have ids of their own: a counter moved inside one reads as not the caller's.
 */
export async function counterValueSeen(
  tx: Executor,
  tenantId: string,
  name: string,
): Promise<{ readonly value: number; readonly ownWrite: boolean }> {
  const [row] = await executeRows<{ value: string | number; own_write: boolean | null }>(
    tx,
    sql`select ${tenantCounters.value} as value,
               xmin::text = (txid_current_if_assigned() % 4294967296)::text as own_write
          from ${tenantCounters}
         where ${tenantCounters.tenantId} = ${tenantId} and ${tenantCounters.name} = ${name}`,
  );
  return { value: Number(row?.value ?? 0), ownWrite: row?.own_write === true };
}
