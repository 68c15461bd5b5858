import { idMatches, idSet, numberMatches, parseInstant } from '../compare.ts';
import { type Evaluator, factsCondition } from './model.ts';

// Conditions of the context and the clock (group `general`).

const DAY = 86_400_000;

/** `n mod m` for a positive `m`, never negative. */
function modulo(n: number, m: number): number {
  return ((n % m) + m) % m;
}

/** A time zone: how far its wall clock is ahead of UTC at an instant, in milliseconds. */
interface Zone {
  readonly offset: (instant: number) => number;
}

const UTC: Zone = { offset: () => 0 };

/**
 * The zone a rule names (IANA), through Intl; no name is UTC, an unknown one null (the condition
 * then never matches). The formatter is built once, at compile time.
 */
function zoneOf(name: unknown): Zone | null {
  if (name === undefined || name === null || name === '') return UTC;
  if (typeof name !== 'string') return null;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
  if (format.resolvedOptions().timeZone === 'UTC') return UTC;
  return {
    offset: (instant) => {
      let year = 0;
      let month = 1;
      let day = 1;
      let hour = 0;
      let minute = 0;
      let second = 0;
      for (const part of format.formatToParts(instant)) {
        const value = Number(part.value);
        if (part.type === 'year') year = value;
        else if (part.type === 'month') month = value;
        else if (part.type === 'day') day = value;
        else if (part.type === 'hour') hour = value;
        else if (part.type === 'minute') minute = value;
        else if (part.type === 'second') second = value;
      }
      const wallClock = Date.UTC(year, month - 1, day, hour, minute, second);
      return wallClock - (instant - modulo(instant, 1000));
    },
  };
}

/** The instant a zone's wall clock shows `wallClock` (milliseconds as if UTC). */
function instantOf(zone: Zone, wallClock: number): number {
  const guess = wallClock - zone.offset(wallClock);
  return wallClock - zone.offset(guess);
}

/** Midnight, in the zone, of the day the instant falls on there, `days` later. */
function startOfDay(zone: Zone, instant: number, days: number): number {
  const wallClock = instant + zone.offset(instant);
  return instantOf(zone, (Math.floor(wallClock / DAY) + days) * DAY);
}

/** A `dateRange` bound: null is open; `undefined` marks a bound that does not parse. */
function bound(given: unknown): number | null | undefined {
  if (given === null || given === undefined) return null;
  return parseInstant(given) ?? undefined;
}

interface PreparedDateRange {
  readonly valid: boolean;
  readonly from: number | null;
  readonly to: number | null;
}

/**
 * DateRangeRule: from <= now < to, a null bound open. Without `useTime` the bounds become whole
 * days of the rule's zone: `fromDate` its day's midnight, `toDate` the next day's midnight.
 */
function prepareDateRange(value: Readonly<Record<string, unknown>>): PreparedDateRange {
  const zone = zoneOf(value.timezone);
  let from = bound(value.fromDate);
  let to = bound(value.toDate);
  if (zone === null || from === undefined || to === undefined) return { valid: false, from: null, to: null };
  if (value.useTime !== true) {
    if (from !== null) from = startOfDay(zone, from, 0);
    if (to !== null) to = startOfDay(zone, to, 1);
  }
  return { valid: true, from, to };
}

const TIME_PATTERN = /^(\d{1,2}):(\d{2})(?::\d{2})?$/;

/** Milliseconds into the day of an `H:MM` time (seconds ignored, as the reference does); null if malformed. */
function timeOfDay(given: unknown): number | null {
  if (typeof given !== 'string') return null;
  const match = TIME_PATTERN.exec(given.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours < 24 && minutes < 60 ? (hours * 60 + minutes) * 60_000 : null;
}

interface PreparedTimeRange {
  readonly zone: Zone | null;
  readonly from: number | null;
  readonly to: number | null;
}

/** ISO weekday (1 = Monday) of an instant in UTC; 1970-01-01 was a Thursday. */
function isoWeekday(instant: number): number {
  return modulo(Math.floor(instant / DAY) + 3, 7) + 1;
}

function weekdayParam(given: unknown): number | null {
  if (typeof given === 'number') return given;
  return typeof given === 'string' && /^\d+$/.test(given) ? Number(given) : null;
}

export const GENERAL_EVALUATORS: Readonly<Record<string, Evaluator>> = {
  alwaysValid: factsCondition({ read: () => true, test: () => true }),
  salesChannel: factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.salesChannelIds) }),
    read: (facts) => facts.context.channelId,
    test: (actual, { operator, ids }) => idMatches(actual, operator, ids),
  }),
  /** The context shows prices gross or net, exactly as the rule names it (default gross). */
  cartTaxDisplay: factsCondition({
    prepare: (value) => ({ expected: value.taxDisplay ?? 'gross' }),
    read: (facts) => facts.context.taxDisplay,
    test: (actual, { expected }) => actual === expected,
  }),
  dateRange: factsCondition({
    prepare: prepareDateRange,
    read: (facts) => facts.now,
    test: (actual, { valid, from, to }) => {
      if (!valid) return false;
      const now = parseInstant(actual);
      return now !== null && (from === null || from <= now) && (to === null || now < to);
    },
  }),
  /**
   * TimeRangeRule: the time of day of now in the rule's zone between `fromTime` and `toTime`, both
   * inclusive. When `toTime` is earlier the reference swaps the bounds and inverts the result, so
   * the range wraps midnight and its two boundary instants fall outside it.
   */
  timeRange: factsCondition({
    prepare: (value): PreparedTimeRange => ({
      zone: zoneOf(value.timezone),
      from: timeOfDay(value.fromTime),
      to: timeOfDay(value.toTime),
    }),
    read: (facts) => facts.now,
    test: (actual, { zone, from, to }) => {
      if (zone === null || from === null || to === null) return false;
      const now = parseInstant(actual);
      if (now === null) return false;
      const time = modulo(now + zone.offset(now), DAY);
      return to < from ? !(to <= time && time <= from) : from <= time && time <= to;
    },
  }),
  /** ISO weekday of now in UTC, compared as a number. */
  dayOfWeek: factsCondition({
    prepare: (value) => ({ operator: value.operator, expected: weekdayParam(value.dayOfWeek) }),
    read: (facts) => {
      const now = parseInstant(facts.now);
      return now === null ? null : isoWeekday(now);
    },
    test: (actual, { operator, expected }) => numberMatches(actual, operator, expected),
  }),
  currency: factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.currencyIds) }),
    read: (facts) => facts.context.currencyId,
    test: (actual, { operator, ids }) => idMatches(actual, operator, ids),
  }),
  /** The reference throws when `languageIds` is missing; here such a condition does not match. */
  language: factsCondition({
    prepare: (value) => ({
      operator: value.operator,
      ids: Array.isArray(value.languageIds) ? idSet(value.languageIds) : null,
    }),
    read: (facts) => facts.context.languageId,
    test: (actual, { operator, ids }) => ids !== null && idMatches(actual, operator, ids),
  }),
};
