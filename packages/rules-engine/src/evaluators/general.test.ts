import { describe, expect, it } from 'vitest';
import { decide } from '../../test-support/results.ts';
import { findCondition } from '../catalog/catalog.ts';
import type { ContextFacts, Facts } from '../facts.ts';
import { buildFacts } from '../facts-schema.ts';
import { GENERAL_EVALUATORS } from './general.ts';

const NAMES = [
  'alwaysValid',
  'salesChannel',
  'cartTaxDisplay',
  'dateRange',
  'timeRange',
  'dayOfWeek',
  'currency',
  'language',
];

function baseFacts(now = '2024-05-01T12:00:00Z', context: Partial<ContextFacts> = {}): Facts {
  return buildFacts({ now, context: { languageId: 'en', ...context } });
}

/** Facts at a `now` the schema refuses (malformed on purpose), set by hand. */
const unreadableNow = (now: string): Facts => ({ ...baseFacts(), now });

function evaluate(type: string, value: Record<string, unknown>, facts: Facts) {
  return decide({ type, value }, facts);
}

describe('the general evaluators', () => {
  it('bind every general condition to an enabled catalog entry', () => {
    expect(Object.keys(GENERAL_EVALUATORS).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(findCondition(name)?.enabled, name).toBe(true);
  });
});

describe('cartTaxDisplay', () => {
  it('compares the tax display exactly (default gross)', () => {
    const gross = baseFacts(undefined, { taxDisplay: 'gross' });
    const net = baseFacts(undefined, { taxDisplay: 'net' });
    expect(evaluate('cartTaxDisplay', { taxDisplay: 'gross' }, gross)).toBe(true);
    expect(evaluate('cartTaxDisplay', { taxDisplay: 'gross' }, net)).toBe(false);
    expect(evaluate('cartTaxDisplay', { taxDisplay: 'net' }, net)).toBe(true);
    expect(evaluate('cartTaxDisplay', { taxDisplay: 'NET' }, net)).toBe(false);
    expect(evaluate('cartTaxDisplay', {}, gross)).toBe(true);
    expect(evaluate('cartTaxDisplay', {}, net)).toBe(false);
  });
});

describe('dateRange', () => {
  // The reference's cases (DateRangeRuleTest), with the current time as the facts' `now`.
  const cases: [string | null, string | null, boolean, string, boolean][] = [
    ['2021-01-01 00:00:00 UTC', '2021-01-01 10:00:00 UTC', true, '2021-01-01 00:00:00 UTC', true],
    ['2021-01-01 00:00:00 UTC', '2021-01-01 10:00:00 UTC', true, '2021-01-01 10:00:00 UTC', false],
    ['2021-01-01 00:00:00 UTC', null, true, '2021-01-01 00:00:00 UTC', true],
    ['2021-01-01 00:00:00 UTC', '2021-01-01 00:00:00 UTC', false, '2021-01-02 00:00:00 UTC', false],
    ['2021-01-02 00:00:00 +02:00', '2021-01-02 00:00:00 +02:00', false, '2021-01-01 21:59:59 UTC', true],
    [null, '2021-01-01 00:00:00 UTC', false, '2021-01-01 23:59:59 UTC', true],
    ['2021-01-02 00:00:00 +02:00', '2021-01-02 00:00:00 +02:00', false, '2021-01-01 22:00:00 UTC', true],
    ['2021-01-01 00:00:00 UTC', '2021-01-01 10:00:00 UTC', true, '2020-12-31 23:59:59 UTC', false],
    ['2021-01-01 00:00:00 UTC', '2021-01-01 00:00:00 UTC', false, '2021-01-01 00:00:00 UTC', true],
    ['2021-01-01 00:00:00 UTC', '2021-01-01 00:00:00 UTC', false, '2021-01-01 23:59:59 UTC', true],
    ['2021-01-01 00:00:00 UTC', '2021-01-01 00:00:00 UTC', false, '2021-01-02 02:00:00 +04:00', true],
    [null, '2021-01-01 00:00:00 UTC', false, '2021-01-02 00:00:00 UTC', false],
    ['2021-01-01 00:00:00 UTC', null, false, '2020-12-31 23:59:59 UTC', false],
    ['2021-01-01 10:00:00 +02:00', '2021-01-01 20:00:00 +02:00', true, '2021-01-01 08:00:00 UTC', true],
    ['2021-01-01 10:00:00 UTC', '2021-01-01 20:00:00 UTC', true, '2021-01-01 20:00:00 +01:00', true],
  ];

  it.each(cases)('from %s to %s (useTime %s) at %s: %s', (fromDate, toDate, useTime, now, expected) => {
    expect(evaluate('dateRange', { fromDate, toDate, useTime }, baseFacts(now))).toBe(expected);
  });

  it('matches from <= now < to with time, both bounds open when null', () => {
    const range = { fromDate: '2026-03-02T00:00:00', toDate: '2026-03-12T23:59:59', useTime: true };
    expect(evaluate('dateRange', range, baseFacts('2026-03-01T23:50:00Z'))).toBe(false);
    expect(evaluate('dateRange', range, baseFacts('2026-03-02T00:00:01Z'))).toBe(true);
    expect(evaluate('dateRange', range, baseFacts('2026-03-12T23:59:58Z'))).toBe(true);
    expect(evaluate('dateRange', range, baseFacts('2026-03-12T23:59:59Z'))).toBe(false);
    expect(evaluate('dateRange', { ...range, useTime: false }, baseFacts('2026-03-12T23:59:59Z'))).toBe(true);
    expect(evaluate('dateRange', { ...range, useTime: false }, baseFacts('2026-03-13T00:00:00Z'))).toBe(
      false,
    );
    expect(evaluate('dateRange', { fromDate: null, toDate: null, useTime: true }, baseFacts())).toBe(true);
    expect(evaluate('dateRange', {}, baseFacts())).toBe(true);
  });

  it('takes whole days in the rule time zone, across a daylight-saving change', () => {
    // Berlin moves to summer time on 2024-03-31: that day runs from 23:00Z to 22:00Z.
    const day = { fromDate: '2024-03-31T00:00:00', toDate: '2024-03-31T00:00:00', timezone: 'Europe/Berlin' };
    expect(evaluate('dateRange', day, baseFacts('2024-03-30T22:59:59Z'))).toBe(false);
    expect(evaluate('dateRange', day, baseFacts('2024-03-30T23:00:00Z'))).toBe(true);
    expect(evaluate('dateRange', day, baseFacts('2024-03-31T21:59:59Z'))).toBe(true);
    expect(evaluate('dateRange', day, baseFacts('2024-03-31T22:00:00Z'))).toBe(false);
    // The instant falls on the previous day in New York.
    const ny = {
      fromDate: '2024-01-15T03:00:00Z',
      toDate: null,
      useTime: false,
      timezone: 'America/New_York',
    };
    expect(evaluate('dateRange', ny, baseFacts('2024-01-14T05:00:00Z'))).toBe(true);
    expect(evaluate('dateRange', ny, baseFacts('2024-01-14T04:59:59Z'))).toBe(false);
    const gmt = { fromDate: '2021-01-02 00:00:00', toDate: '2021-01-02 00:00:00', timezone: 'Etc/GMT-2' };
    expect(evaluate('dateRange', gmt, baseFacts('2021-01-01T22:00:00Z'))).toBe(true);
    expect(evaluate('dateRange', gmt, baseFacts('2021-01-01T21:59:59Z'))).toBe(false);
    expect(evaluate('dateRange', gmt, baseFacts('2021-01-02T21:59:59Z'))).toBe(true);
    expect(evaluate('dateRange', gmt, baseFacts('2021-01-02T22:00:00Z'))).toBe(false);
  });

  it('keeps exact instants with time, whatever the zone', () => {
    const timed = {
      fromDate: '2021-01-01T10:00:00',
      toDate: '2021-01-01T20:00:00',
      useTime: true,
      timezone: 'Asia/Tokyo',
    };
    expect(evaluate('dateRange', timed, baseFacts('2021-01-01T10:00:00Z'))).toBe(true);
    expect(evaluate('dateRange', timed, baseFacts('2021-01-01T09:59:59Z'))).toBe(false);
  });

  it('does not match with an unknown zone or an unreadable date', () => {
    expect(evaluate('dateRange', { timezone: 'Mars/Olympus' }, baseFacts())).toBe(false);
    expect(evaluate('dateRange', { timezone: 42 }, baseFacts())).toBe(false);
    expect(evaluate('dateRange', { fromDate: 'not-a-date', toDate: null }, baseFacts())).toBe(false);
    expect(evaluate('dateRange', { fromDate: null, toDate: 17 }, baseFacts())).toBe(false);
    expect(evaluate('dateRange', { fromDate: null, toDate: null }, unreadableNow('yesterday'))).toBe(false);
  });
});

describe('timeRange', () => {
  const at = (time: string): Facts => baseFacts(`2024-05-01T${time}Z`);

  it('matches between the two times, both included', () => {
    const office = { fromTime: '08:00', toTime: '18:00' };
    expect(evaluate('timeRange', office, at('12:00:00'))).toBe(true);
    expect(evaluate('timeRange', office, at('08:00:00'))).toBe(true);
    expect(evaluate('timeRange', office, at('07:59:59'))).toBe(false);
    expect(evaluate('timeRange', office, at('18:00:00'))).toBe(true);
    expect(evaluate('timeRange', office, at('18:00:01'))).toBe(false);
    expect(evaluate('timeRange', { fromTime: '10:00', toTime: '10:00' }, at('10:00:00'))).toBe(true);
    expect(evaluate('timeRange', { fromTime: '10:00', toTime: '10:00' }, at('10:00:30'))).toBe(false);
  });

  it('wraps midnight when the end is earlier, inverting the swapped range', () => {
    const night = { fromTime: '22:00', toTime: '6:00' };
    expect(evaluate('timeRange', night, at('23:00:00'))).toBe(true);
    expect(evaluate('timeRange', night, at('03:00:00'))).toBe(true);
    expect(evaluate('timeRange', night, at('05:59:59'))).toBe(true);
    expect(evaluate('timeRange', night, at('22:00:01'))).toBe(true);
    expect(evaluate('timeRange', night, at('12:00:00'))).toBe(false);
    expect(evaluate('timeRange', night, at('06:00:00'))).toBe(false);
    expect(evaluate('timeRange', night, at('22:00:00'))).toBe(false);
  });

  it('reads the time of day in the rule zone (default UTC)', () => {
    const morning = { fromTime: '08:00', toTime: '09:00' };
    const now = baseFacts('2024-05-01T06:30:00Z');
    expect(evaluate('timeRange', morning, now)).toBe(false);
    expect(evaluate('timeRange', { ...morning, timezone: 'Europe/Berlin' }, now)).toBe(true);
    expect(evaluate('timeRange', { ...morning, timezone: 'UTC' }, now)).toBe(false);
    expect(evaluate('timeRange', morning, baseFacts('2024-05-01T10:30:00+02:00'))).toBe(true);
    expect(
      evaluate('timeRange', { ...morning, timezone: 'Etc/GMT-2' }, baseFacts('2024-05-01T08:30:00Z')),
    ).toBe(false);
  });

  it('does not match with an unknown zone or a malformed time', () => {
    const allDay = { fromTime: '00:00', toTime: '23:59' };
    expect(evaluate('timeRange', allDay, at('12:00:00'))).toBe(true);
    expect(evaluate('timeRange', { ...allDay, timezone: 'Mars/Olympus' }, at('12:00:00'))).toBe(false);
    expect(evaluate('timeRange', { ...allDay, fromTime: '24:00' }, at('12:00:00'))).toBe(false);
    expect(evaluate('timeRange', { ...allDay, toTime: 'noon' }, at('12:00:00'))).toBe(false);
    expect(evaluate('timeRange', { toTime: '23:59' }, at('12:00:00'))).toBe(false);
    expect(evaluate('timeRange', allDay, unreadableNow('soon'))).toBe(false);
  });
});

describe('dayOfWeek', () => {
  it('compares the ISO weekday of now in UTC', () => {
    const wednesday = baseFacts('2024-05-01T12:00:00Z');
    expect(evaluate('dayOfWeek', { operator: '=', dayOfWeek: 3 }, wednesday)).toBe(true);
    expect(evaluate('dayOfWeek', { operator: '=', dayOfWeek: 4 }, wednesday)).toBe(false);
    expect(evaluate('dayOfWeek', { operator: '!=', dayOfWeek: 4 }, wednesday)).toBe(true);
    expect(evaluate('dayOfWeek', { operator: '!=', dayOfWeek: 3 }, wednesday)).toBe(false);
    expect(evaluate('dayOfWeek', { operator: '=', dayOfWeek: 7 }, baseFacts('2024-05-05T23:59:59Z'))).toBe(
      true,
    );
    expect(
      evaluate('dayOfWeek', { operator: '=', dayOfWeek: 1 }, baseFacts('2024-05-05T23:30:00-02:00')),
    ).toBe(true);
    expect(evaluate('dayOfWeek', { operator: '=', dayOfWeek: 4 }, baseFacts('1970-01-01T00:00:00Z'))).toBe(
      true,
    );
    expect(evaluate('dayOfWeek', { operator: '=', dayOfWeek: 3 }, baseFacts('1969-12-31T23:59:59Z'))).toBe(
      true,
    );
  });

  it('treats a missing weekday like a missing number', () => {
    const wednesday = baseFacts('2024-05-01T12:00:00Z');
    expect(evaluate('dayOfWeek', { operator: '=' }, wednesday)).toBe(false);
    expect(evaluate('dayOfWeek', { operator: '!=' }, wednesday)).toBe(true);
    expect(evaluate('dayOfWeek', { operator: '=', dayOfWeek: '3' }, wednesday)).toBe(true);
  });
});

describe('currency and language', () => {
  it('compare the context currency with the rule ids', () => {
    const other = baseFacts(undefined, { currencyId: 'different-currency-id' });
    const one = baseFacts(undefined, { currencyId: 'id-1' });
    expect(evaluate('currency', { operator: '=', currencyIds: ['id-1'] }, other)).toBe(false);
    expect(evaluate('currency', { operator: '=', currencyIds: ['id-2', 'id-3', 'id-1'] }, one)).toBe(true);
    expect(evaluate('currency', { operator: '!=', currencyIds: ['id-2', 'id-3', 'id-1'] }, one)).toBe(false);
    expect(evaluate('currency', { operator: '!=', currencyIds: ['id-1'] }, other)).toBe(true);
    const none = baseFacts(undefined, { currencyId: null });
    expect(evaluate('currency', { operator: '=', currencyIds: ['id-1'] }, none)).toBe(false);
    expect(evaluate('currency', { operator: '!=', currencyIds: ['id-1'] }, none)).toBe(true);
  });

  it('compare the context language with the rule ids', () => {
    const english = baseFacts(undefined, { languageId: 'en' });
    expect(evaluate('language', { operator: '=', languageIds: ['de', 'en'] }, english)).toBe(true);
    expect(evaluate('language', { operator: '=', languageIds: ['de'] }, english)).toBe(false);
    expect(evaluate('language', { operator: '!=', languageIds: ['de'] }, english)).toBe(true);
    expect(evaluate('language', { operator: '!=', languageIds: ['en'] }, english)).toBe(false);
    const none = baseFacts(undefined, { languageId: null });
    expect(evaluate('language', { operator: '!=', languageIds: ['en'] }, none)).toBe(true);
    expect(evaluate('language', { operator: '=', languageIds: ['en'] }, none)).toBe(false);
  });

  it('does not match a language condition without ids (the reference throws)', () => {
    expect(evaluate('language', { operator: '!=' }, baseFacts())).toBe(false);
    expect(evaluate('language', { operator: '=', languageIds: null }, baseFacts())).toBe(false);
  });
});
