import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { APP_DELIVERY_STATUSES, appDeliveries, appDeliveryAttempts, appDeliveryCircuits } from '../schema.ts';
import { appDeliveryLease, noLease } from './leases.ts';
import { findRow, inTenant } from './tenant-rows.ts';

// App event delivery (issue 16): one row per (shop, app, event) an app subscribed to, leased one
// delivery at a time by the app-worker; one row per attempt for the merchant's log; each app's
// circuit per shop. Tables, not decisions: backoff and the circuit's threshold come from the service.

export type AppDeliveryRow = typeof appDeliveries.$inferSelect;
export type AppDeliveryAttemptRow = typeof appDeliveryAttempts.$inferSelect;
export type AppDeliveryCircuitRow = typeof appDeliveryCircuits.$inferSelect;
export type AppDeliveryStatus = (typeof APP_DELIVERY_STATUSES)[number];
export { APP_DELIVERY_STATUSES };

/** The NOTIFY channel that wakes app-workers when deliveries are queued or a circuit closes. */
export const APP_DELIVERIES_CHANNEL = 'cartwright_app_deliveries';

/** What a new delivery names: the event, copied, so the delivery outlives nothing it depends on. */
export interface NewAppDelivery {
  readonly tenantId: string;
  readonly id: string;
  readonly appId: string;
  readonly eventId: string;
  readonly eventName: string;
  readonly sequence: number;
  readonly payload: Record<string, unknown>;
  readonly occurredAt: Date;
}

/**
 * Queues deliveries, due now by the database clock; one that exists for its (shop, app, event) is
 * kept. Wakes the app-workers on commit when any was new; answers how many were.
 */
export async function insertAppDeliveries(
  tx: Executor,
  deliveries: readonly NewAppDelivery[],
): Promise<number> {
  if (deliveries.length === 0) return 0;
  const inserted = await tx
    .insert(appDeliveries)
    .values(
      deliveries.map((delivery) => ({
        ...delivery,
        status: 'pending' as const,
        attempts: 0,
        availableAt: sql`clock_timestamp()`,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: appDeliveries.id });
  if (inserted.length > 0) await notifyAppDeliveries(tx);
  return inserted.length;
}

/** Wakes the app-workers' delivery runner when the transaction commits. */
export async function notifyAppDeliveries(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_notify(${APP_DELIVERIES_CHANNEL}, '')`);
}

/** Leases up to `limit` due deliveries across shops to `owner`, earliest first. */
export function claimAppDeliveries(
  tx: Executor,
  owner: string,
  leaseMs: number,
  limit: number,
): Promise<AppDeliveryRow[]> {
  return appDeliveryLease.claim(tx, { owner, leaseMs, limit });
}

/** One attempt as the runner measured it; `statusCode` null when no answer came. */
export interface DeliveryAttemptRecord {
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly statusCode: number | null;
  readonly outcome: 'delivered' | 'failed';
  readonly error: string | null;
}

/**
 * Ends `owner`'s lease on a delivery with one attempt's outcome: the attempt joins the log (numbered
 * after the delivery's last one), and the delivery is `delivered`, `failed` for good, or pending
 * again after `retryAfterMs` (by the database clock). Answers false when the lease was lost
 * meanwhile: nothing is written, and the caller rolls its transaction back.
 */
export async function settleAppDelivery(
  tx: Executor,
  owner: string,
  delivery: Pick<AppDeliveryRow, 'tenantId' | 'id'>,
  attempt: DeliveryAttemptRecord,
  next:
    | { readonly status: 'delivered' | 'failed' }
    | { readonly status: 'pending'; readonly retryAfterMs: number },
): Promise<boolean> {
  const written = await appDeliveryLease.save(tx, {
    owner,
    where: inTenant(appDeliveries, delivery.tenantId, eq(appDeliveries.id, delivery.id)),
    set: {
      status: next.status,
      attempts: sql`${appDeliveries.attempts} + 1`,
      lastStatusCode: attempt.statusCode,
      lastError: attempt.error,
      ...(next.status === 'delivered' ? { deliveredAt: sql`clock_timestamp()` } : {}),
      ...(next.status === 'pending'
        ? { availableAt: sql`clock_timestamp() + make_interval(secs => ${next.retryAfterMs / 1000})` }
        : {}),
      updatedAt: sql`clock_timestamp()`,
    },
    lease: 'release',
  });
  if (written !== 1) return false;
  await tx.execute(sql`
    insert into ${appDeliveryAttempts}
      (tenant_id, delivery_id, attempt, started_at, duration_ms, status_code, outcome, error)
    select ${delivery.tenantId}, ${delivery.id},
      coalesce(max(attempt), 0) + 1, ${attempt.startedAt.toISOString()}::timestamptz,
      ${attempt.durationMs}, ${attempt.statusCode}, ${attempt.outcome}, ${attempt.error}
    from ${appDeliveryAttempts}
    where tenant_id = ${delivery.tenantId} and delivery_id = ${delivery.id}`);
  return true;
}

/**
 * Counts one attempt's outcome against the app's circuit in the shop: a success clears the run of
 * failures, a failure extends it and opens the circuit when it reaches `threshold`. An open circuit
 * stays open until `closeAppDeliveryCircuit`. Answers the circuit as it now is.
 */
export async function countAppDeliveryOutcome(
  tx: Executor,
  tenantId: string,
  appId: string,
  outcome: 'delivered' | 'failed',
  threshold: number,
): Promise<AppDeliveryCircuitRow> {
  const failures = outcome === 'delivered' ? sql`0` : sql`${appDeliveryCircuits.consecutiveFailures} + 1`;
  const [row] = await tx
    .insert(appDeliveryCircuits)
    .values({
      tenantId,
      appId,
      consecutiveFailures: outcome === 'delivered' ? 0 : 1,
      openedAt: outcome === 'failed' && threshold <= 1 ? sql`clock_timestamp()` : null,
      updatedAt: sql`clock_timestamp()`,
    })
    .onConflictDoUpdate({
      target: [appDeliveryCircuits.tenantId, appDeliveryCircuits.appId],
      set: {
        consecutiveFailures: failures,
        openedAt: sql`case when ${appDeliveryCircuits.openedAt} is null and ${failures} >= ${threshold}
          then clock_timestamp() else ${appDeliveryCircuits.openedAt} end`,
        updatedAt: sql`clock_timestamp()`,
      },
    })
    .returning();
  return row!;
}

/** The app's circuit in the shop; undefined when no attempt was ever counted. */
export function findAppDeliveryCircuit(
  tx: Executor,
  tenantId: string,
  appId: string,
): Promise<AppDeliveryCircuitRow | undefined> {
  return findRow(tx, appDeliveryCircuits, tenantId, [eq(appDeliveryCircuits.appId, appId)]);
}

/**
 * Closes the app's circuit in the shop (the merchant re-enables its deliveries): the run of
 * failures starts again from zero and its pending deliveries are due at once (their backoff may
 * have grown long while the circuit was open). Answers whether the circuit was open.
 */
export async function closeAppDeliveryCircuit(
  tx: Executor,
  tenantId: string,
  appId: string,
): Promise<boolean> {
  const [before] = await tx
    .select({ openedAt: appDeliveryCircuits.openedAt })
    .from(appDeliveryCircuits)
    .where(inTenant(appDeliveryCircuits, tenantId, eq(appDeliveryCircuits.appId, appId)))
    .for('update');
  if (!before) return false;
  await tx
    .update(appDeliveryCircuits)
    .set({ consecutiveFailures: 0, openedAt: null, updatedAt: sql`clock_timestamp()` })
    .where(inTenant(appDeliveryCircuits, tenantId, eq(appDeliveryCircuits.appId, appId)));
  await tx
    .update(appDeliveries)
    .set({ availableAt: sql`clock_timestamp()`, updatedAt: sql`clock_timestamp()` })
    .where(
      inTenant(
        appDeliveries,
        tenantId,
        eq(appDeliveries.appId, appId),
        eq(appDeliveries.status, 'pending'),
        sql`${appDeliveries.availableAt} > clock_timestamp()`,
      ),
    );
  await notifyAppDeliveries(tx);
  return before.openedAt !== null;
}

/** One delivery of the app; `lock` holds it until the transaction ends. */
export function findAppDelivery(
  tx: Executor,
  tenantId: string,
  appId: string,
  id: string,
  lock?: 'update',
): Promise<AppDeliveryRow | undefined> {
  return findRow(
    tx,
    appDeliveries,
    tenantId,
    [eq(appDeliveries.appId, appId), eq(appDeliveries.id, id)],
    lock,
  );
}

/**
 * Queues a delivered or failed delivery again with a fresh attempt budget (its log is kept), due
 * at once. A pending one is left as it is. Answers the delivery as it now is.
 */
export async function requeueAppDelivery(
  tx: Executor,
  tenantId: string,
  appId: string,
  id: string,
): Promise<AppDeliveryRow | undefined> {
  const row = await findAppDelivery(tx, tenantId, appId, id, 'update');
  if (!row || row.status === 'pending') return row;
  const [requeued] = await tx
    .update(appDeliveries)
    .set({
      status: 'pending',
      attempts: 0,
      availableAt: sql`clock_timestamp()`,
      deliveredAt: null,
      ...noLease,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(inTenant(appDeliveries, tenantId, eq(appDeliveries.id, id)))
    .returning();
  await notifyAppDeliveries(tx);
  return requeued;
}

export interface AppDeliveryQuery {
  readonly appId: string;
  readonly statuses?: readonly AppDeliveryStatus[] | undefined;
  /** A delivery id: the page holds older deliveries. */
  readonly after?: string | undefined;
  readonly limit: number;
}

/** The app's deliveries in the shop, newest first. */
export function listAppDeliveries(
  tx: Executor,
  tenantId: string,
  query: AppDeliveryQuery,
): Promise<AppDeliveryRow[]> {
  const conditions: (SQL | undefined)[] = [eq(appDeliveries.appId, query.appId)];
  if (query.statuses !== undefined && query.statuses.length > 0)
    conditions.push(inArray(appDeliveries.status, [...query.statuses]));
  if (query.after !== undefined) {
    // Older than the cursor delivery; an id that is no delivery of this app answers an empty page.
    const cursor = tx
      .select({ createdAt: appDeliveries.createdAt, id: appDeliveries.id })
      .from(appDeliveries)
      .where(
        inTenant(
          appDeliveries,
          tenantId,
          eq(appDeliveries.appId, query.appId),
          eq(appDeliveries.id, query.after),
        ),
      );
    conditions.push(sql`(${appDeliveries.createdAt}, ${appDeliveries.id}) < (${cursor})`);
  }
  return tx
    .select()
    .from(appDeliveries)
    .where(inTenant(appDeliveries, tenantId, ...conditions))
    .orderBy(desc(appDeliveries.createdAt), desc(appDeliveries.id))
    .limit(query.limit);
}

/** The attempts of the deliveries, oldest first. */
export function listAppDeliveryAttempts(
  tx: Executor,
  tenantId: string,
  deliveryIds: readonly string[],
): Promise<AppDeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return tx
    .select()
    .from(appDeliveryAttempts)
    .where(
      and(inTenant(appDeliveryAttempts, tenantId, inArray(appDeliveryAttempts.deliveryId, [...deliveryIds]))),
    )
    .orderBy(asc(appDeliveryAttempts.deliveryId), asc(appDeliveryAttempts.attempt));
}
