import { appEventName, dueTicks, type Manifest, nextTick } from '@cartwright/app-manifest';
import {
  type AppScheduleRow,
  claimDueAppSchedules,
  deleteAppSchedules,
  type Executor,
  findApp,
  insertAppScheduleTick,
  listAppSchedules,
  saveAppSchedule,
  settleAppSchedule,
} from '@cartwright/repository';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';

// App schedules (issue 16, item 1). The lifecycle keeps one row per declared schedule; the
// app-worker leases due rows and commits each tick, its outbox event `app.<app>.<action>` and the
// schedule's next tick in one transaction, under the tick's unique (shop, app, schedule, tick)
// key: a tick is emitted once whatever replicas race or restart. Ticks a stopped worker missed are
// coalesced into the latest one, whose event says how many it stands for (`missed`, counted up to
// MISSED_TICKS_COUNTED). Dueness is the service clock's (injectable); lease expiry the database's.

/** The NOTIFY channel of the schedule runner: ticks come with time, so polling drives it and nobody notifies. */
export const APP_SCHEDULES_CHANNEL = 'cartwright_app_schedules';

/** Who appends a tick's event. */
const SCHEDULE_ACTOR: Actor = { kind: 'system', process: 'app-worker' };

/**
 * Writes the shop's rows of the app's schedules as `manifest` declares them (install, upgrade):
 * a schedule that keeps its cron and stays enabled keeps the tick it owes and its last tick; any
 * other (new, re-timed, re-enabled) starts at its first tick after now; schedules the manifest no
 * longer declares are deleted.
 */
export async function syncAppSchedules(
  tx: Executor,
  services: Services,
  tenantId: string,
  manifest: Manifest,
): Promise<void> {
  const now = services.clock.now();
  const stored = new Map(
    (await listAppSchedules(tx, tenantId, manifest.id, 'update')).map((row) => [row.scheduleId, row]),
  );
  for (const schedule of manifest.schedules) {
    const before = stored.get(schedule.id);
    const keepsTick =
      before !== undefined && before.cron === schedule.cron && before.enabled && schedule.enabled;
    await saveAppSchedule(
      tx,
      {
        tenantId,
        appId: manifest.id,
        scheduleId: schedule.id,
        cron: schedule.cron,
        action: schedule.action,
        input: schedule.input,
        enabled: schedule.enabled,
        nextTickAt: keepsTick ? before.nextTickAt : nextTick(schedule.cron, now),
      },
      now,
    );
  }
  await deleteAppSchedules(
    tx,
    tenantId,
    manifest.id,
    manifest.schedules.map((schedule) => schedule.id),
  );
}

/** Deletes the shop's rows of the app's schedules (uninstall); the ticks they emitted stay. */
export async function removeAppSchedules(tx: Executor, tenantId: string, appId: string): Promise<void> {
  await deleteAppSchedules(tx, tenantId, appId);
}

/** What one round of the schedule runner did. */
export interface ScheduleRound {
  /** Schedules leased. */
  readonly claimed: number;
  /** Tick events appended. */
  readonly emitted: number;
  /** Schedules whose lease was lost before their tick committed (another worker has them). */
  readonly lost: number;
}

/** A fenced write found the lease gone: the schedule's transaction rolls back. */
class ScheduleLeaseLost extends Error {}

/**
 * Leases up to `limit` due schedules of live shops to `owner` and commits each one's due tick in
 * its own transaction: the tick row (nothing more when it exists already), its event, the
 * schedule's last and next tick, the lease given back.
 */
export async function runDueSchedules(
  services: Services,
  options: { readonly owner: string; readonly leaseMs: number; readonly limit: number },
): Promise<ScheduleRound> {
  const now = services.clock.now();
  const claimed = await services.database.transaction((tx) => claimDueAppSchedules(tx, { ...options, now }));
  let emitted = 0;
  let lost = 0;
  for (const schedule of claimed) {
    try {
      const didEmit = await services.database.transaction((tx) =>
        tickSchedule(tx, services, options.owner, schedule, now),
      );
      if (didEmit) emitted += 1;
    } catch (error) {
      if (!(error instanceof ScheduleLeaseLost)) throw error;
      lost += 1;
    }
  }
  return { claimed: claimed.length, emitted, lost };
}

/** One leased schedule's tick at `now`; answers whether its event was appended. */
async function tickSchedule(
  tx: Executor,
  services: Services,
  owner: string,
  schedule: AppScheduleRow,
  now: Date,
): Promise<boolean> {
  const { tenantId, appId, scheduleId } = schedule;
  const due = dueTicks(schedule.cron, schedule.nextTickAt, now);
  let emitted = false;
  const app = due.tick ? await findApp(tx, tenantId, appId) : undefined;
  if (due.tick && app) {
    const eventId = services.ids.next();
    const fresh = await insertAppScheduleTick(tx, {
      tenantId,
      appId,
      scheduleId,
      tickAt: due.tick,
      missed: due.missed,
      eventId,
      createdAt: now,
    });
    if (fresh) {
      await recordEvent(
        tx,
        services,
        tenantId,
        SCHEDULE_ACTOR,
        appEventName(appId, schedule.action),
        {
          appId,
          version: app.version,
          actionId: schedule.action,
          scheduleId,
          tick: due.tick.toISOString(),
          missed: due.missed,
          input: schedule.input,
        },
        eventId,
      );
      emitted = true;
    }
  }
  const settled = await settleAppSchedule(tx, owner, schedule, {
    lastTickAt: due.tick,
    nextTickAt: due.next,
    at: now,
  });
  if (!settled) throw new ScheduleLeaseLost();
  return emitted;
}
