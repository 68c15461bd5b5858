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
  principalOf,
  type Shop,
  scheduledDigestManifest,
  schedulesOf,
  servicesWith,
  tickEventsOf,
  tickerManifest,
  ticksOf,
} from './app-schedules.scenario.ts';

// App schedules on the test database (PGlite, or PostgreSQL with DATABASE_URL), with the clock the
// test moves (issue 16, item 1): a worker away for ten minutes emits one coalesced tick that says
// how many it stands for; sandbox shops and disabled schedules emit nothing; upgrades keep what a
// surviving schedule owes and emitted; uninstalling removes the rows. Each test starts a day after
// the previous one, so the shared clock only moves forward.

const DAY = 24 * 3600 * 1000;
const MINUTE = 60_000;
const worker = { owner: 'schedule-worker', leaseMs: 30_000, limit: 100 };

describe('app schedules', () => {
  let database: TestDatabase;
  let clock: MovableClock;
  let services: Services;
  let day = 0;
  /** The start of this test's hour. */
  let start: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    clock = movableClock();
    services = servicesWith(database, clock);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A new day's hour on the clock, a new shop with the ticker app installed 5 s into it. */
  async function shopWithTicker(name: string): Promise<Shop> {
    start = HOUR_START + ++day * DAY;
    clock.set(start + 5_000);
    const shop = await ownedShop(services, name);
    await call(services, shop.owner, 'apps.install', {
      appId: APP_ID,
      revision: 0,
      manifest: tickerManifest(),
    });
    return shop;
  }
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

  it('installing writes each schedule with its first tick after now; a tick before it is not due', async () => {
    const shop = await shopWithTicker('Install shop');
    expect(await schedulesOf(database, shop.tenantId)).toEqual([
      { scheduleId: 'minutely', enabled: true, nextTickAt: iso(start + MINUTE), lastTickAt: null },
      { scheduleId: 'paused', enabled: false, nextTickAt: iso(start + 30_000), lastTickAt: null },
    ]);
    clock.set(start + MINUTE - 1);
    await runDueSchedules(services, worker);
    expect(await ticksOf(database, shop.tenantId)).toEqual([]);
  });

  it('a worker away for ten minutes emits one tick standing for the nine before it, once', async () => {
    const shop = await shopWithTicker('Away shop');
    // Due ticks 12:01 … 12:10 (ten); the round at 12:10:30 emits 12:10 with missed 9.
    clock.set(start + 10 * MINUTE + 30_000);
    const round = await runDueSchedules(services, worker);
    expect(round).toMatchObject({ lost: 0 });
    const ticks = await ticksOf(database, shop.tenantId);
    expect(ticks).toEqual([
      { scheduleId: 'minutely', tickAt: iso(start + 10 * MINUTE), missed: 9, eventId: expect.any(String) },
    ]);
    const events = await tickEventsOf(database, shop.tenantId);
    expect(events).toEqual([
      {
        id: ticks[0]!.eventId,
        name: `app.${APP_ID}.tick`,
        payload: {
          appId: APP_ID,
          version: '1.0.0',
          actionId: 'tick',
          scheduleId: 'minutely',
          tick: new Date(start + 10 * MINUTE).toISOString(),
          missed: 9,
          input: { n: 1 },
        },
        actor: { kind: 'system', process: 'app-worker' },
      },
    ]);
    expect(await schedulesOf(database, shop.tenantId)).toContainEqual({
      scheduleId: 'minutely',
      enabled: true,
      nextTickAt: iso(start + 11 * MINUTE),
      lastTickAt: iso(start + 10 * MINUTE),
    });

    // The same moment again (a restart, another replica): nothing more.
    await runDueSchedules(services, { ...worker, owner: 'another-worker' });
    expect(await tickEventsOf(database, shop.tenantId)).toHaveLength(1);

    // The next minute: one tick, nothing missed.
    clock.set(start + 11 * MINUTE);
    await runDueSchedules(services, worker);
    expect((await ticksOf(database, shop.tenantId)).map((tick) => [tick.tickAt, tick.missed])).toEqual([
      [iso(start + 10 * MINUTE), 9],
      [iso(start + 11 * MINUTE), 0],
    ]);
  });

  it('a private sandbox shop never runs its schedules', async () => {
    const live = await shopWithTicker('Live shop');
    const created = await call(services, live.owner, 'shop.sandbox.create', { name: 'Sandbox' });
    const sandbox = {
      tenantId: (created.shop as { id: string }).id,
      owner: await principalOf(services, created.token as string),
    };
    await call(services, sandbox.owner, 'apps.install', {
      appId: APP_ID,
      revision: 0,
      manifest: tickerManifest(),
    });
    expect((await schedulesOf(database, sandbox.tenantId)).map((row) => row.scheduleId)).toEqual([
      'minutely',
      'paused',
    ]);
    for (let minute = 1; minute <= 5; minute++) {
      clock.set(start + minute * MINUTE);
      await runDueSchedules(services, worker);
    }
    expect(await ticksOf(database, sandbox.tenantId)).toEqual([]);
    expect(await tickEventsOf(database, sandbox.tenantId)).toEqual([]);
    // The live shop it was copied from ticked every minute meanwhile.
    expect(await ticksOf(database, live.tenantId)).toHaveLength(5);
  });

  it('a disabled schedule emits nothing; enabled again, it starts after now with nothing owed', async () => {
    const shop = await shopWithTicker('Disabled shop');
    const disabled = tickerManifest('1.1.0', [
      { id: 'minutely', cron: '0 * * * * *', action: 'tick', input: { n: 1 }, enabled: false },
    ]);
    await call(services, shop.owner, 'apps.install', { appId: APP_ID, revision: 1, manifest: disabled });
    for (let minute = 1; minute <= 3; minute++) {
      clock.set(start + minute * MINUTE);
      await runDueSchedules(services, worker);
    }
    expect(await ticksOf(database, shop.tenantId)).toEqual([]);
    expect(await tickEventsOf(database, shop.tenantId)).toEqual([]);

    clock.set(start + 3 * MINUTE + 10_000);
    await call(services, shop.owner, 'apps.install', {
      appId: APP_ID,
      revision: 2,
      manifest: tickerManifest('1.2.0'),
    });
    expect(await schedulesOf(database, shop.tenantId)).toContainEqual({
      scheduleId: 'minutely',
      enabled: true,
      nextTickAt: iso(start + 4 * MINUTE),
      lastTickAt: null,
    });
    clock.set(start + 4 * MINUTE);
    await runDueSchedules(services, worker);
    expect((await ticksOf(database, shop.tenantId)).map((tick) => [tick.tickAt, tick.missed])).toEqual([
      [iso(start + 4 * MINUTE), 0],
    ]);
  });

  it('an upgrade keeps what a surviving schedule emitted and owes; uninstalling removes the rows', async () => {
    const shop = await shopWithTicker('Upgrade shop');
    clock.set(start + MINUTE);
    await runDueSchedules(services, worker);
    clock.set(start + 2 * MINUTE + 20_000);
    // 1.1.0 keeps `minutely` (new input), drops `paused`, adds `quarterly`.
    const upgraded = tickerManifest('1.1.0', [
      { id: 'minutely', cron: '0 * * * * *', action: 'tick', input: { n: 3 } },
      { id: 'quarterly', cron: '0 */15 * * * *', action: 'tick', input: { n: 4 } },
    ]);
    const answer = await call(services, shop.owner, 'apps.install', {
      appId: APP_ID,
      revision: 1,
      manifest: upgraded,
    });
    expect(answer.change).toBe('upgraded');
    expect(await schedulesOf(database, shop.tenantId)).toEqual([
      // 12:02 was due before the upgrade and not emitted yet: still owed.
      {
        scheduleId: 'minutely',
        enabled: true,
        nextTickAt: iso(start + 2 * MINUTE),
        lastTickAt: iso(start + MINUTE),
      },
      { scheduleId: 'quarterly', enabled: true, nextTickAt: iso(start + 15 * MINUTE), lastTickAt: null },
    ]);
    await runDueSchedules(services, worker);
    const events = await tickEventsOf(database, shop.tenantId);
    expect(events.map((event) => [event.payload.tick, event.payload.version, event.payload.input])).toEqual([
      [new Date(start + MINUTE).toISOString(), '1.0.0', { n: 1 }],
      [new Date(start + 2 * MINUTE).toISOString(), '1.1.0', { n: 3 }],
    ]);

    await call(services, shop.owner, 'apps.uninstall', { appId: APP_ID, revision: 2 });
    expect(await schedulesOf(database, shop.tenantId)).toEqual([]);
    clock.set(start + 20 * MINUTE);
    await runDueSchedules(services, worker);
    expect(await tickEventsOf(database, shop.tenantId)).toHaveLength(2);
    // The ticks already emitted stay: a reinstall in the same minute cannot emit one twice.
    expect(await ticksOf(database, shop.tenantId)).toHaveLength(2);
  });

  it('the scheduled-digest example installs unchanged and emits app.scheduled-digest.digest on the hour', async () => {
    const shop = await shopWithTicker('Digest shop');
    await call(services, shop.owner, 'apps.install', {
      appId: 'scheduled-digest',
      revision: 0,
      manifest: scheduledDigestManifest(),
    });
    clock.set(start + 60 * MINUTE);
    await runDueSchedules(services, worker);
    const events = await tickEventsOf(database, shop.tenantId, 'scheduled-digest');
    expect(events.map((event) => [event.name, event.payload.scheduleId, event.payload.input])).toEqual([
      ['app.scheduled-digest.digest', 'hourly', { hours: 1 }],
    ]);
  });
});
