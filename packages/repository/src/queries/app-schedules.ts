import { and, eq, notInArray } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { appSchedules, appScheduleTicks } from '../schema.ts';
import { appScheduleLease, noLease } from './leases.ts';
import { deleteRows, inTenant, selectRows } from './tenant-rows.ts';

// App schedules (issue 16, item 1): one row per declared schedule of an installed app, kept in
// step with the manifest by the app's lifecycle, leased by app-workers when a tick is due. A tick
// is committed under its unique (shop, app, schedule, tick) key with its outbox event, so no
// replica or restart emits it twice.

export type AppScheduleRow = typeof appSchedules.$inferSelect;
export type AppScheduleTickRow = typeof appScheduleTicks.$inferSelect;

/** The declared part of a schedule's row, as the lifecycle writes it. */
export type AppScheduleDeclaration = Pick<
  AppScheduleRow,
  'tenantId' | 'appId' | 'scheduleId' | 'cron' | 'action' | 'input' | 'enabled' | 'nextTickAt'
>;

/** The app's schedules in the shop, by id; `lock` holds them until the transaction ends. */
export function listAppSchedules(
  tx: Executor,
  tenantId: string,
  appId: string,
  lock?: 'update',
): Promise<AppScheduleRow[]> {
  return selectRows(tx, appSchedules, tenantId, {
    where: [eq(appSchedules.appId, appId)],
    orderBy: [appSchedules.scheduleId],
    lock,
  });
}

/**
 * Writes a schedule's declaration (inserted, or replacing the stored one and keeping its
 * `last_tick_at`) and takes back any lease on it, so a worker mid-tick cannot save a tick of the
 * replaced declaration.
 */
export async function saveAppSchedule(
  tx: Executor,
  schedule: AppScheduleDeclaration,
  at: Date,
): Promise<void> {
  const { tenantId: _, appId: __, scheduleId: ___, ...declared } = schedule;
  await tx
    .insert(appSchedules)
    .values({ ...schedule, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [appSchedules.tenantId, appSchedules.appId, appSchedules.scheduleId],
      set: { ...declared, ...noLease, updatedAt: at },
    });
}

/** Deletes the app's schedules in the shop except those `keep` names; answers how many. */
export function deleteAppSchedules(
  tx: Executor,
  tenantId: string,
  appId: string,
  keep: readonly string[] = [],
): Promise<number> {
  return deleteRows(tx, appSchedules, tenantId, [
    eq(appSchedules.appId, appId),
    keep.length > 0 ? notInArray(appSchedules.scheduleId, [...keep]) : undefined,
  ]);
}

/**
 * Leases up to `limit` schedules of live shops whose next tick is at or before `now` (the
 * caller's clock) to `owner`, earliest first.
 */
export function claimDueAppSchedules(
  tx: Executor,
  claim: { readonly owner: string; readonly leaseMs: number; readonly limit: number; readonly now: Date },
): Promise<AppScheduleRow[]> {
  return appScheduleLease.claim(tx, claim);
}

/**
 * Records a tick under its unique key; answers false when that tick was recorded already (its
 * event too, in the same transaction), so the caller emits nothing.
 */
export async function insertAppScheduleTick(
  tx: Executor,
  tick: Omit<typeof appScheduleTicks.$inferInsert, 'createdAt'> & { readonly createdAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(appScheduleTicks)
    .values(tick)
    .onConflictDoNothing()
    .returning({ tenantId: appScheduleTicks.tenantId });
  return rows.length === 1;
}

/**
 * Moves a schedule `owner` holds on to its next tick (and its last tick, when one was emitted) and
 * gives the lease up. Answers false when the lease was lost meanwhile: the caller must roll its
 * transaction back, since another worker may own the schedule.
 */
export async function settleAppSchedule(
  tx: Executor,
  owner: string,
  key: Pick<AppScheduleRow, 'tenantId' | 'appId' | 'scheduleId'>,
  moved: { readonly lastTickAt: Date | null; readonly nextTickAt: Date; readonly at: Date },
): Promise<boolean> {
  const written = await appScheduleLease.save(tx, {
    owner,
    where: inTenant(
      appSchedules,
      key.tenantId,
      and(eq(appSchedules.appId, key.appId), eq(appSchedules.scheduleId, key.scheduleId)),
    ),
    set: {
      nextTickAt: moved.nextTickAt,
      ...(moved.lastTickAt ? { lastTickAt: moved.lastTickAt } : {}),
      updatedAt: moved.at,
    },
    lease: 'release',
  });
  return written === 1;
}

/** The ticks the app's schedules emitted in the shop, oldest first. */
export function listAppScheduleTicks(
  tx: Executor,
  tenantId: string,
  appId: string,
): Promise<AppScheduleTickRow[]> {
  return selectRows(tx, appScheduleTicks, tenantId, {
    where: [eq(appScheduleTicks.appId, appId)],
    orderBy: [appScheduleTicks.tickAt, appScheduleTicks.scheduleId],
  });
}
