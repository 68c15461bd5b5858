import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cronProblem } from './cron.ts';
import { dueTicks, MISSED_TICKS_COUNTED, nextTick } from './ticks.ts';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('dueTicks', () => {
  const cases: {
    name: string;
    cron: string;
    since: string;
    now: string;
    tick: string | null;
    missed: number;
    firstMissed?: string;
    next: string;
  }[] = [
    {
      name: 'the tick at now exactly is due',
      cron: '0 * * * * *',
      since: '2024-01-01T12:00:00.000Z',
      now: '2024-01-01T12:00:00.000Z',
      tick: '2024-01-01T12:00:00.000Z',
      missed: 0,
      next: '2024-01-01T12:01:00.000Z',
    },
    {
      name: 'a millisecond before the tick nothing is due',
      cron: '0 * * * * *',
      since: '2024-01-01T12:00:00.000Z',
      now: '2024-01-01T11:59:59.999Z',
      tick: null,
      missed: 0,
      next: '2024-01-01T12:00:00.000Z',
    },
    {
      name: 'ten minutes without a worker: the latest tick, nine missed',
      cron: '0 * * * * *',
      since: '2024-01-01T12:00:00.000Z',
      now: '2024-01-01T12:09:30.000Z',
      tick: '2024-01-01T12:09:00.000Z',
      missed: 9,
      firstMissed: '2024-01-01T12:00:00.000Z',
      next: '2024-01-01T12:10:00.000Z',
    },
    {
      name: 'a daily tick two days late',
      cron: '15 30 6 * * *',
      since: '2024-02-28T06:30:15.000Z',
      now: '2024-03-01T07:00:00.000Z',
      tick: '2024-03-01T06:30:15.000Z',
      missed: 2,
      firstMissed: '2024-02-28T06:30:15.000Z',
      next: '2024-03-02T06:30:15.000Z',
    },
    {
      name: 'since after now',
      cron: '0 0 * * * *',
      since: '2024-01-01T13:00:00.000Z',
      now: '2024-01-01T12:30:00.000Z',
      tick: null,
      missed: 0,
      next: '2024-01-01T13:00:00.000Z',
    },
    {
      name: 'a month of minutes counts up to the cap only',
      cron: '0 * * * * *',
      since: '2024-01-01T00:00:00.000Z',
      now: '2024-02-01T00:00:00.000Z',
      tick: '2024-02-01T00:00:00.000Z',
      missed: MISSED_TICKS_COUNTED,
      firstMissed: '2024-01-01T00:00:00.000Z',
      next: '2024-02-01T00:01:00.000Z',
    },
  ];
  it.each(cases)('$name', (c) => {
    const due = dueTicks(c.cron, at(c.since), at(c.now));
    expect({
      tick: iso(due.tick),
      missed: due.missed,
      firstMissed: iso(due.firstMissed),
      next: iso(due.next),
    }).toEqual({ tick: c.tick, missed: c.missed, firstMissed: c.firstMissed ?? null, next: c.next });
  });

  it('nextTick excludes the moment it starts from', () => {
    expect(iso(nextTick('0 * * * * *', at('2024-01-01T12:00:00.000Z')))).toBe('2024-01-01T12:01:00.000Z');
    expect(iso(nextTick('0 * * * * *', at('2024-01-01T11:59:59.999Z')))).toBe('2024-01-01T12:00:00.000Z');
  });
});

// Crons whose every tick a brute-force matcher can find second by second: a fixed second, a
// minute field of `*`, `*/k` or a list, an hour field of `*` or a range.
interface SimpleCron {
  readonly second: number;
  readonly minutes: readonly number[] | null;
  readonly minuteStep: number | null;
  readonly hours: readonly [number, number] | null;
}
const simpleCron: fc.Arbitrary<SimpleCron> = fc.record({
  second: fc.nat({ max: 59 }),
  minutes: fc.option(fc.uniqueArray(fc.nat({ max: 59 }), { minLength: 1, maxLength: 4 }), { nil: null }),
  minuteStep: fc.option(fc.integer({ min: 2, max: 30 }), { nil: null }),
  hours: fc.option(
    fc
      .tuple(fc.nat({ max: 23 }), fc.nat({ max: 23 }))
      .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
    { nil: null },
  ),
});
const expressionOf = (cron: SimpleCron) =>
  [
    cron.second,
    cron.minutes ? cron.minutes.join(',') : cron.minuteStep ? `*/${cron.minuteStep}` : '*',
    cron.hours ? `${cron.hours[0]}-${cron.hours[1]}` : '*',
    '*',
    '*',
    '*',
  ].join(' ');
const matches = (cron: SimpleCron, date: Date) =>
  date.getUTCMilliseconds() === 0 &&
  date.getUTCSeconds() === cron.second &&
  (cron.minutes
    ? cron.minutes.includes(date.getUTCMinutes())
    : cron.minuteStep
      ? date.getUTCMinutes() % cron.minuteStep === 0
      : true) &&
  (cron.hours ? date.getUTCHours() >= cron.hours[0] && date.getUTCHours() <= cron.hours[1] : true);

/** Every tick in `[from, to]`, found second by second. */
function bruteTicks(cron: SimpleCron, from: Date, to: Date): Date[] {
  const ticks: Date[] = [];
  for (let second = Math.ceil(from.getTime() / 1000); second * 1000 <= to.getTime(); second++) {
    const date = new Date(second * 1000);
    if (matches(cron, date)) ticks.push(date);
  }
  return ticks;
}

const START = Date.UTC(2024, 0, 1);
const instant = fc.integer({ min: 0, max: 3 * 24 * 3600 * 1000 }).map((ms) => new Date(START + ms));
const span = fc.integer({ min: 0, max: 4 * 3600 * 1000 });

describe('dueTicks (properties)', () => {
  it('emits the latest tick in [since, now], counts the others and names the next one', () => {
    fc.assert(
      fc.property(simpleCron, instant, span, (cron, since, length) => {
        const expression = expressionOf(cron);
        expect(cronProblem(expression)).toBeNull();
        const now = new Date(since.getTime() + length);
        const ticks = bruteTicks(cron, since, now);
        const due = dueTicks(expression, since, now);
        expect(iso(due.tick)).toBe(iso(ticks.at(-1) ?? null));
        expect(due.missed).toBe(Math.min(Math.max(ticks.length - 1, 0), MISSED_TICKS_COUNTED));
        expect(iso(due.firstMissed)).toBe(ticks.length > 1 ? iso(ticks[0]!) : null);
        expect(due.next > now).toBe(true);
        expect(matches(cron, due.next)).toBe(true);
        // Nothing ticks between now and the next tick.
        expect(bruteTicks(cron, new Date(now.getTime() + 1), new Date(due.next.getTime() - 1))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('emitting a due tick and resuming from the next one never emits a tick twice nor skips one unseen', () => {
    fc.assert(
      fc.property(
        simpleCron,
        instant,
        fc.array(span, { minLength: 1, maxLength: 6 }),
        (cron, start, steps) => {
          const expression = expressionOf(cron);
          let since = nextTick(expression, start);
          let now = start;
          let accounted = 0;
          const emitted: number[] = [];
          for (const step of steps) {
            now = new Date(now.getTime() + step);
            const due = dueTicks(expression, since, now);
            if (due.tick === null) continue;
            emitted.push(due.tick.getTime());
            accounted += 1 + due.missed;
            since = due.next;
          }
          expect(new Set(emitted).size).toBe(emitted.length);
          expect(emitted).toEqual([...emitted].sort((a, b) => a - b));
          const all = bruteTicks(
            cron,
            new Date(start.getTime() + 1),
            new Date(Math.min(now.getTime(), since.getTime() - 1)),
          );
          if (accounted < MISSED_TICKS_COUNTED) expect(accounted).toBe(all.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});
