import {
  type Database,
  type Executor,
  listCursors,
  listEventStatistics,
  listEvents,
  listReceipts,
  outboxHead,
} from '@cartwright/repository';
import {
  type Actor,
  createShop,
  eventStatisticsProjection,
  projectionRunner,
  recordEvent,
  type ServiceRunner,
  type Services,
} from '@cartwright/service';
import { createLineWatcher } from '@cartwright/tooling/script-process';
import { expect } from 'vitest';
import type { WorkerHandle, WorkerLogLine } from '../src/index.ts';

/** The projection these suites watch: diagnostic counts per event name. */
export const CONSUMER = eventStatisticsProjection.name;
/** The suites run only that projection, so other memory-worker projections leave their counts alone. */
export const ONLY_STATISTICS: readonly ServiceRunner[] = [projectionRunner(eventStatisticsProjection)];

const actor: Actor = { kind: 'system', process: 'worker-test' };
const NAMES = ['test.alpha', 'test.beta', 'test.gamma'] as const;

/** Creates shops through the service; each emits its own creation events. */
export async function createShops(services: Services, count: number, label: string): Promise<string[]> {
  const shops: string[] = [];
  for (let index = 0; index < count; index++) {
    shops.push((await createShop(services, { name: `${label} ${index}` })).tenantId);
  }
  return shops;
}

/** Appends `count` events to one shop through `recordEvent`, `perTransaction` per transaction, names rotating. */
export async function appendEvents(
  services: Services,
  tenantId: string,
  count: number,
  perTransaction: number,
): Promise<void> {
  for (let start = 0; start < count; start += perTransaction) {
    await services.database.transaction(async (tx) => {
      for (let n = start; n < Math.min(count, start + perTransaction); n++) {
        await recordEvent(tx, services, tenantId, actor, NAMES[n % NAMES.length]!, { n });
      }
    });
  }
}

/** How many events of each name the shop's outbox holds: what the statistics must say. */
export async function eventCounts(db: Executor, tenantId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const event of await listEvents(db, tenantId, { limit: 1_000_000 })) {
    counts[event.name] = (counts[event.name] ?? 0) + 1;
  }
  return counts;
}

export async function statisticCounts(db: Executor, tenantId: string): Promise<Record<string, number>> {
  return Object.fromEntries((await listEventStatistics(db, tenantId)).map((row) => [row.name, row.count]));
}

export async function cursorOf(db: Executor, tenantId: string) {
  const cursor = (await listCursors(db, tenantId)).find((row) => row.consumer === CONSUMER);
  if (!cursor) throw new Error(`shop ${tenantId} has no ${CONSUMER} cursor`);
  return cursor;
}

/** True when every shop's cursor stands at its outbox head. */
export async function isCaughtUp(database: Database, tenantIds: readonly string[]): Promise<boolean> {
  for (const tenantId of tenantIds) {
    const cursor = (await listCursors(database.db, tenantId)).find((row) => row.consumer === CONSUMER);
    if (!cursor || cursor.position !== (await outboxHead(database.db, tenantId))) return false;
  }
  return true;
}

/**
 * Waits until the shops are caught up. With several owners one handle's empty round can mean the
 * other owner holds the shop, so idle() is repeated until the cursors say so.
 */
export async function drain(
  handles: readonly WorkerHandle[],
  database: Database,
  tenantIds: readonly string[],
): Promise<void> {
  for (;;) {
    await Promise.all(handles.map((handle) => handle.idle()));
    if (await isCaughtUp(database, tenantIds)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every event has exactly one receipt and the statistics count every event exactly once. */
export async function expectEachEventCountedOnce(
  database: Database,
  tenantIds: readonly string[],
): Promise<void> {
  for (const tenantId of tenantIds) {
    const head = await outboxHead(database.db, tenantId);
    expect(head).toBeGreaterThan(0);
    const receipts = await listReceipts(database.db, tenantId, CONSUMER);
    expect(receipts.map((receipt) => receipt.eventSequence)).toEqual(
      Array.from({ length: head }, (_, i) => i + 1),
    );
    expect(await statisticCounts(database.db, tenantId)).toEqual(await eventCounts(database.db, tenantId));
  }
}

/** A log sink that keeps every line and lets a test await the first line matching a predicate. */
export function collectLog() {
  const watcher = createLineWatcher<WorkerLogLine>();
  return {
    lines: watcher.lines,
    log: (line: WorkerLogLine) => watcher.push(line),
    /** Resolves with the first line, from now on, that matches. */
    next: (matches: (line: WorkerLogLine) => boolean) => watcher.next(matches),
    /** Events applied according to the log, summed per owner. */
    appliedBy(owner: string): number {
      return watcher.lines
        .filter((line) => line.owner === owner && (line.msg === 'applied' || line.msg === 'lease lost'))
        .reduce((sum, line) => sum + Number(line.applied), 0);
    },
  };
}

/** Polls `check` until it holds; the test timeout bounds the wait. */
export async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}
