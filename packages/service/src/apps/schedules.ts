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
import { type Actor, collectingEvents, recordEvent } from '../kernel/events.ts';
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

/**
 * Leases up to `limit` due schedules of live shops to `owner` and commits their due ticks in one
 * transaction: for each schedule still held, its last and next tick with the lease given back,
 * its tick row (nothing more when that tick exists already) and its event. Events are appended
 * once per shop at the end (`collectingEvents`), shops in id order, so racing workers take the
 * shops' outbox counters in one order.
 */
export async function runDueSchedules(
  services: Services,
  options: { readonly owner: string; readonly leaseMs: number; readonly limit: number },
): Promise<ScheduleRound> {
  const now = services.clock.now();
  const claimed = await services.database.transaction((tx) => claimDueAppSchedules(tx, { ...options, now }));
  if (claimed.length === 0) return { claimed: 0, emitted: 0, lost: 0 };
  const ordered = [...claimed].sort(
    (a, b) =>
      compare(a.tenantId, b.tenantId) || compare(a.appId, b.appId) || compare(a.scheduleId, b.scheduleId),
  );
  const outcomes = await services.database.transaction((tx) =>
    collectingEvents(tx, async () => {
      const versions = new Map<string, string | null>();
      const ticked: TickOutcome[] = [];
      for (const schedule of ordered) {
        ticked.push(await tickSchedule(tx, services, options.owner, schedule, now, versions));
      }
      return ticked;
    }),
  );
  return {
    claimed: claimed.length,
    emitted: outcomes.filter((outcome) => outcome === 'emitted').length,
    lost: outcomes.filter((outcome) => outcome === 'lost').length,
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type TickOutcome = 'emitted' | 'settled' | 'lost';

/**
 * One leased schedule's tick at `now`. The fenced settle goes first: a schedule whose lease was
 * lost writes nothing at all. `versions` caches each app's installed version for the batch.
 */
async function tickSchedule(
  tx: Executor,
  services: Services,
  owner: string,
  schedule: AppScheduleRow,
  now: Date,
  versions: Map<string, string | null>,
): Promise<TickOutcome> {
  const { tenantId, appId, scheduleId } = schedule;
  const due = dueTicks(schedule.cron, schedule.nextTickAt, now);
  const settled = await settleAppSchedule(tx, owner, schedule, {
    lastTickAt: due.tick,
    nextTickAt: due.next,
    at: now,
  });
  if (!settled) return 'lost';
  if (!due.tick) return 'settled';
  const appKey = `${tenantId}/${appId}`;
  if (!versions.has(appKey)) versions.set(appKey, (await findApp(tx, tenantId, appId))?.version ?? null);
  const version = versions.get(appKey);
  if (!version) return 'settled';
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
  if (!fresh) return 'settled';
  await recordEvent(
    tx,
    services,
    tenantId,
    SCHEDULE_ACTOR,
    appEventName(appId, schedule.action),
    {
      appId,
      version,
      actionId: schedule.action,
      scheduleId,
      tick: due.tick.toISOString(),
      missed: due.missed,
      input: schedule.input,
    },
    eventId,
  );
  return 'emitted';
}
