import { CronExpressionParser } from 'cron-parser';

// The time arithmetic of schedules (issue 16, item 1): which tick of a cron is due, how many
// earlier ones a stopped worker missed, and when the next one comes. The clock comes in as
// arguments. Missed ticks are coalesced into one, never replayed, and counted only up to a cap:
// counting walks the ticks one by one (tens of microseconds each), so a schedule left alone for a
// month must not walk 43,200 of them.

/** At most this many missed ticks are counted; a count this high means at least this many. */
export const MISSED_TICKS_COUNTED = 1000;

/** What is due of a schedule at one moment. */
export interface DueTicks {
  /** The latest tick at or before `now` and at or after `since`: the one to emit; null when none is due. */
  readonly tick: Date | null;
  /** Earlier due ticks `tick` stands for (at most `MISSED_TICKS_COUNTED`). */
  readonly missed: number;
  /** The earliest of those, when any. */
  readonly firstMissed: Date | null;
  /** The first tick after `now`. */
  readonly next: Date;
}

/** The cron (already accepted by `cronProblem`) iterated from `from`, which both directions exclude. */
function ticksFrom(cron: string, from: Date) {
  return CronExpressionParser.parse(cron, { tz: 'UTC', strict: true, currentDate: from });
}

/** The first tick of `cron` strictly after `after`. */
export function nextTick(cron: string, after: Date): Date {
  return ticksFrom(cron, after).next().toDate();
}

/**
 * The ticks of `cron` due at `now` when every tick before `since` was emitted already: the latest
 * one in `[since, now]` (emitted), the count of the others (missed, capped) and the first tick
 * after `now`.
 */
export function dueTicks(cron: string, since: Date, now: Date): DueTicks {
  const next = nextTick(cron, now);
  const none = { tick: null, missed: 0, firstMissed: null, next };
  if (since > now) return none;
  const tick = ticksFrom(cron, new Date(now.getTime() + 1))
    .prev()
    .toDate();
  if (tick < since) return none;
  const walk = ticksFrom(cron, new Date(since.getTime() - 1));
  let missed = 0;
  let firstMissed: Date | null = null;
  for (let at = walk.next().toDate(); at < tick && missed < MISSED_TICKS_COUNTED; at = walk.next().toDate()) {
    firstMissed ??= at;
    missed += 1;
  }
  return { tick, missed, firstMissed, next };
}
