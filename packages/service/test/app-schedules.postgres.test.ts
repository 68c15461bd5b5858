import { claimDueAppSchedules, createDatabase, type Database } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueSchedules } from '../src/apps/schedules.ts';
import type { Services } from '../src/index.ts';
import {
  APP_ID,
  call,
  HOUR_START,
  type MovableClock,
  movableClock,
  ownedShop,
  type Shop,
  servicesWith,
  tickEventsOf,
  tickerManifest,
  ticksOf,
} from './app-schedules.scenario.ts';

// Two app-workers racing over a simulated hour on PostgreSQL (issue 16, acceptance): every round
// both claim at once on their own connections, and one worker dies holding leases halfway; each
// due tick is still emitted exactly once, with exactly one event. PostgreSQL only: PGlite has one
// connection, so nothing would race.

const MINUTE = 60_000;
const STEP_MS = 10_000;
/** A lease short enough to expire within the test after the dead worker's claim. */
const LEASE_MS = 300;

describe('two app-workers over a simulated hour', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let clock: MovableClock;
  let services: Services;
  const shops: Shop[] = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await createDatabase({ databaseUrl: testDatabase.url, migrate: false, maxConnections: 6 });
    clock = movableClock(HOUR_START - 30_000);
    services = servicesWith(database, clock);
    // Two shops, each with `minutely` (:00), `half` (:30) and `quarterly` (every 15 minutes).
    for (const name of ['Race shop A', 'Race shop B']) {
      const shop = await ownedShop(services, name);
      await call(services, shop.owner, 'apps.install', {
        appId: APP_ID,
        revision: 0,
        manifest: tickerManifest('1.0.0', [
          { id: 'minutely', cron: '0 * * * * *', action: 'tick', input: { n: 1 } },
          { id: 'half', cron: '30 * * * * *', action: 'tick', input: { n: 2 } },
          { id: 'quarterly', cron: '0 */15 * * * *', action: 'tick', input: { n: 3 } },
        ]),
      });
      shops.push(shop);
    }
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.close();
  });

  it('emits exactly one event per due tick', async () => {
    const round = (owner: string) => runDueSchedules(services, { owner, leaseMs: LEASE_MS, limit: 4 });
    let lost = 0;
    const emittedBy: [number, number] = [0, 0];
    // From 12:00:00 to 13:00:00 in 10-second steps: 60 + 60 + 5 ticks per shop are due
    // (minutely 12:00 … 12:59 and 13:00 is 61; half 12:00:30 … 12:59:30 is 60; quarterly 12:00,
    // 12:15, 12:30, 12:45, 13:00 is 5).
    for (let at = HOUR_START; at <= HOUR_START + 60 * MINUTE; at += STEP_MS) {
      clock.set(at);
      if (at === HOUR_START + 30 * MINUTE) {
        // A third worker claims what is due and dies before it commits a tick: its leases expire.
        const taken = await database.transaction((tx) =>
          claimDueAppSchedules(tx, { owner: 'dead-worker', leaseMs: LEASE_MS, limit: 100, now: clock.now() }),
        );
        expect(taken.length).toBeGreaterThan(0);
        const blocked = await Promise.all([round('worker-a'), round('worker-b')]);
        expect(blocked.map((result) => result.claimed)).toEqual([0, 0]);
        await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
      }
      const results = await Promise.all([round('worker-a'), round('worker-b')]);
      lost += results.reduce((sum, result) => sum + result.lost, 0);
      emittedBy[0] += results[0].emitted;
      emittedBy[1] += results[1].emitted;
    }
    expect(lost).toBe(0);
    // Both workers took their share (the race was real) and together emitted every tick.
    expect(emittedBy.every((emitted) => emitted > 0)).toBe(true);
    expect(emittedBy[0] + emittedBy[1]).toBe(2 * (61 + 60 + 5));

    for (const shop of shops) {
      const ticks = await ticksOf(database, shop.tenantId);
      const events = await tickEventsOf(database, shop.tenantId);
      const bySchedule = (id: string) => ticks.filter((tick) => tick.scheduleId === id);
      expect(bySchedule('minutely')).toHaveLength(61);
      expect(bySchedule('half')).toHaveLength(60);
      expect(bySchedule('quarterly')).toHaveLength(5);
      expect(ticks.every((tick) => tick.missed === 0)).toBe(true);
      // One event per tick row, the row naming its event; no event without a row.
      expect(events).toHaveLength(ticks.length);
      expect(new Set(events.map((event) => event.id))).toEqual(new Set(ticks.map((tick) => tick.eventId)));
      expect(new Set(events.map((event) => `${event.payload.scheduleId}@${event.payload.tick}`)).size).toBe(
        events.length,
      );
      expect(events.every((event) => event.name === `app.${APP_ID}.tick`)).toBe(true);
    }
  });
});
