import { readFileSync } from 'node:fs';
import { type Database, executeRows } from '@cartwright/repository';
import { sql } from 'drizzle-orm';
import { createServices, invokeOperation, operations, type Services } from '../src/index.ts';
import { authenticate, type Principal } from '../src/kernel/auth.ts';
import { createShop } from '../src/shop/shops.ts';

// Fixtures of the schedule tests (issue 16, item 1): a clock the test moves, a shop with its
// owner, an app with schedules, and what the ticks table and the outbox hold.

/** The start of every simulated hour: a whole hour, UTC. */
export const HOUR_START = Date.UTC(2030, 0, 7, 12, 0, 0);

/** A clock the test sets; every use case and the claim read it. */
export interface MovableClock {
  now(): Date;
  set(ms: number): void;
}

export function movableClock(start = HOUR_START): MovableClock {
  let current = start;
  return {
    now: () => new Date(current),
    set(ms) {
      current = ms;
    },
  };
}

export const APP_ID = 'ticker';

/** A test app: `minutely` every minute at :00, `paused` declared but disabled. */
export function tickerManifest(
  version = '1.0.0',
  schedules: readonly Record<string, unknown>[] = [
    { id: 'minutely', cron: '0 * * * * *', action: 'tick', input: { n: 1 } },
    { id: 'paused', cron: '30 * * * * *', action: 'tick', input: { n: 2 }, enabled: false },
  ],
): Record<string, unknown> {
  return {
    apiVersion: 1,
    id: APP_ID,
    version,
    name: { en: 'Ticker' },
    actions: [
      {
        id: 'tick',
        kind: 'service',
        runtime: 'external',
        mcp: false,
        emits: true,
        input: [{ name: 'n', type: 'integer', min: 0, max: 10, required: true }],
        output: [],
      },
    ],
    schedules,
  };
}

/** The example app of `examples/apps/scheduled-digest`, as a user installs it. */
export function scheduledDigestManifest(): Record<string, unknown> {
  const url = new URL('../../../examples/apps/scheduled-digest/manifest.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

export interface Shop {
  readonly tenantId: string;
  readonly owner: Principal;
}

export async function ownedShop(services: Services, name: string): Promise<Shop> {
  const created = await createShop(services, { name });
  return { tenantId: created.tenantId, owner: await principalOf(services, created.token) };
}

export async function principalOf(services: Services, token: string): Promise<Principal> {
  const principal = await authenticate(services, token);
  if (!principal.ok) throw new Error(principal.detail);
  return principal.value;
}

/** Runs the operation `name` as `principal`; throws on a refusal. */
export async function call(
  services: Services,
  principal: Principal,
  name: string,
  input: unknown,
): Promise<Record<string, unknown>> {
  const operation = operations.find((candidate) => candidate.name === name)!;
  const result = await invokeOperation(services, operation, principal, input);
  if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
  return result.value as Record<string, unknown>;
}

export function servicesWith(database: Database, clock: MovableClock): Services {
  return createServices(database, { clock });
}

export interface TickRow {
  readonly scheduleId: string;
  readonly tickAt: string;
  readonly missed: number;
  readonly eventId: string;
}

/** The shop's tick rows of the app, oldest first. */
export async function ticksOf(database: Database, tenantId: string, appId = APP_ID): Promise<TickRow[]> {
  const rows = await executeRows<{ schedule_id: string; tick_at: string; missed: number; event_id: string }>(
    database.db,
    sql`select schedule_id, to_char(tick_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as tick_at,
      missed, event_id from app_schedule_ticks
      where tenant_id = ${tenantId} and app_id = ${appId} order by tick_at, schedule_id`,
  );
  return rows.map((row) => ({
    scheduleId: row.schedule_id,
    tickAt: row.tick_at,
    missed: Number(row.missed),
    eventId: row.event_id,
  }));
}

export interface TickEvent {
  readonly id: string;
  readonly name: string;
  readonly payload: Record<string, unknown>;
  readonly actor: Record<string, unknown>;
}

/** The shop's outbox events named `app.<appId>.…`, in sequence. */
export async function tickEventsOf(
  database: Database,
  tenantId: string,
  appId = APP_ID,
): Promise<TickEvent[]> {
  const rows = await executeRows<{
    id: string;
    name: string;
    payload: Record<string, unknown>;
    actor: Record<string, unknown>;
  }>(
    database.db,
    sql`select id, name, payload, actor from outbox_events
      where tenant_id = ${tenantId} and name like ${`app.${appId}.%`} order by sequence`,
  );
  return rows;
}

/** The shop's schedule rows of the app, by id. */
export async function schedulesOf(
  database: Database,
  tenantId: string,
  appId = APP_ID,
): Promise<{ scheduleId: string; enabled: boolean; nextTickAt: string; lastTickAt: string | null }[]> {
  const rows = await executeRows<{
    schedule_id: string;
    enabled: boolean;
    next_tick_at: string;
    last_tick_at: string | null;
  }>(
    database.db,
    sql`select schedule_id, enabled,
      to_char(next_tick_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as next_tick_at,
      to_char(last_tick_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_tick_at
      from app_schedules where tenant_id = ${tenantId} and app_id = ${appId} order by schedule_id`,
  );
  return rows.map((row) => ({
    scheduleId: row.schedule_id,
    enabled: row.enabled,
    nextTickAt: row.next_tick_at,
    lastTickAt: row.last_tick_at,
  }));
}

/** `HOUR_START` plus `seconds`, as the ISO text the helpers above answer. */
export const isoAt = (seconds: number) =>
  new Date(HOUR_START + seconds * 1000).toISOString().replace('.000Z', 'Z');
