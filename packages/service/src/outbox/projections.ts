import {
  advanceCursor,
  claimCursor,
  countEvents,
  type Executor,
  ensureCursors,
  listEvents,
  type OutboxEventRow,
  recordReceipts,
  releaseCursors,
} from '@cartwright/repository';
import type { WorkerRole } from '../kernel/process-roles.ts';
import type { Services } from '../kernel/services.ts';

/** A consumer of the outbox. `apply` runs in the transaction that records its receipts. */
export interface Projection {
  readonly name: string;
  readonly role: WorkerRole;
  apply(tx: Executor, services: Services, tenantId: string, events: readonly OutboxEventRow[]): Promise<void>;
}

/** Diagnostic counts of events per name (read by `events.status`). */
export const eventStatisticsProjection: Projection = {
  name: 'event-statistics',
  role: 'memory-worker',
  apply: (tx, _services, tenantId, events) => countEvents(tx, tenantId, events),
};

export interface ConsumeOptions {
  /** Unique per worker loop (host, pid, loop): it owns leases. */
  readonly owner: string;
  readonly leaseMs: number;
  readonly batchSize: number;
  /** Batches per claim before the shop is released so other shops get their turn. */
  readonly maxBatches: number;
  readonly signal?: AbortSignal | undefined;
}

export interface ConsumeReport {
  readonly tenantId: string | null;
  readonly applied: number;
  readonly leaseLost: boolean;
}

class LeaseLostError extends Error {}

/**
 * Leases one shop whose outbox is ahead of this projection and applies its backlog in batches.
 * Each batch is one short transaction: fenced cursor advance, receipts, effect. The claim is one
 * statement committed on its own, and the batch that catches the shop up gives the lease back
 * with its cursor move, so a round with one batch of work is one transaction. A worker that lost its
 * lease (paused past expiry) rolls its batch back, so no event is applied twice.
 */
export async function consumeOnce(
  services: Services,
  projection: Projection,
  options: ConsumeOptions,
): Promise<ConsumeReport> {
  const database = services.database;
  // Cursor rows first, every round: a shop whose first events arrived while others were behind
  // gets its cursor now and is served next (new cursors sort first), not after everyone caught up.
  // One statement, committed on its own (no explicit transaction needed).
  await ensureCursors(database.db, projection.name);
  let tenantId: string | null = null;
  let position = 0;
  let applied = 0;
  /** Whether this owner still holds the shop's lease (a caught-up batch gave it back). */
  let held = false;
  /** One batch from `position`, fenced by the lease; answers null when there was nothing. */
  const batch = async (tx: Executor, shop: string) => {
    const events = await listEvents(tx, shop, { afterSequence: position, limit: options.batchSize });
    const last = events.at(-1);
    if (!last) return null;
    const drained = events.length < options.batchSize;
    const moved = await advanceCursor(tx, {
      consumer: projection.name,
      tenantId: shop,
      owner: options.owner,
      from: position,
      to: last.sequence,
      leaseMs: options.leaseMs,
      release: drained,
    });
    if (!moved) throw new LeaseLostError();
    const fresh = await recordReceipts(
      tx,
      shop,
      projection.name,
      events.map((event) => event.sequence),
      options.owner,
    );
    const unseen = events.filter((event) => fresh.has(event.sequence));
    if (unseen.length > 0) await projection.apply(tx, services, shop, unseen);
    return { to: last.sequence, applied: unseen.length, drained };
  };
  try {
    // The claim commits on its own (one statement), so the lease is visible while batches run.
    const claimed = await claimCursor(database.db, projection.name, options.owner, options.leaseMs);
    if (!claimed) return { tenantId: null, applied: 0, leaseLost: false };
    const shop = claimed.tenantId;
    tenantId = shop;
    position = claimed.position;
    held = true;
    for (let round = 0; held && round < options.maxBatches && !options.signal?.aborted; round++) {
      const done = await database.transaction((tx) => batch(tx, shop));
      if (!done) break;
      position = done.to;
      applied += done.applied;
      if (done.drained) held = false;
    }
  } catch (error) {
    if (error instanceof LeaseLostError) return { tenantId, applied, leaseLost: true };
    throw error;
  } finally {
    if (held && tenantId !== null) {
      const shop = tenantId;
      await database.transaction((tx) => releaseCursors(tx, projection.name, options.owner, shop));
    }
  }
  return { tenantId, applied, leaseLost: false };
}
