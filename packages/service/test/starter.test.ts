import {
  type Database,
  findTenant,
  listChannels,
  listDefinitions,
  listEvents,
  listStarterProvisions,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  backfillStarters,
  createSandbox,
  createServices,
  createShop,
  invokeOperation,
  type Services,
} from '@cartwright/service';
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrincipal, operationNamed, principalOf, successOf, testActor } from './principals.ts';

let database: Database;
let services: Services;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
});
afterAll(async () => database?.close());

const STARTER_RULES = ['default_all_orders', 'default_business_customers', 'default_cart_100'];
const STARTER_FLOWS = {
  default_order_received: 'order.placed',
  default_payment_received: 'payment.captured',
};
const ALL_STARTERS = ['main_storefront', ...STARTER_RULES, ...Object.keys(STARTER_FLOWS)].sort();

// Built-in text exists in all four interface languages, none of them blank.
const Filled = v.pipe(v.string(), v.trim(), v.minLength(1));
const FourLanguages = v.object({ en: Filled, de: Filled, es: Filled, fr: Filled });

const RuleData = v.object({
  name: FourLanguages,
  description: FourLanguages,
  condition: v.object({ type: v.string() }),
});

const FlowNode = v.object({
  id: v.string(),
  kind: v.string(),
  action: v.optional(v.string()),
  config: v.optional(v.object({ text: FourLanguages })),
  next: v.optional(v.string()),
});
const FlowData = v.object({
  name: FourLanguages,
  instruction: FourLanguages,
  trigger: v.string(),
  pipeline: v.object({ entry: v.string(), nodes: v.array(FlowNode) }),
});

const ChannelData = v.object({ name: FourLanguages });

/** Asserts the shop holds exactly the starter configuration, and returns its definitions by key. */
async function expectExactlyStarters(tenantId: string) {
  const channels = await listChannels(database.db, tenantId);
  expect(channels.map((row) => ({ key: row.key, isMain: row.isMain }))).toEqual([
    { key: 'main_storefront', isMain: true },
  ]);
  v.parse(ChannelData, channels[0]!.data);

  const definitions = await listDefinitions(database.db, tenantId);
  const rules = definitions.filter((row) => row.kind === 'rule');
  const flows = definitions.filter((row) => row.kind === 'flow');
  expect(definitions).toHaveLength(rules.length + flows.length);
  expect(rules.map((row) => row.key).sort()).toEqual(STARTER_RULES);
  expect(flows.map((row) => row.key).sort()).toEqual(Object.keys(STARTER_FLOWS).sort());

  for (const rule of rules) v.parse(RuleData, rule.data);
  for (const flow of flows) {
    const data = v.parse(FlowData, flow.data);
    expect(data.trigger).toBe(STARTER_FLOWS[flow.key as keyof typeof STARTER_FLOWS]);
    const entry = data.pipeline.nodes.find((node) => node.id === data.pipeline.entry);
    expect(entry).toMatchObject({ kind: 'action', action: 'note' });
    expect(entry?.config).toBeDefined();
    const next = data.pipeline.nodes.find((node) => node.id === entry?.next);
    expect(next?.kind).toBe('stop');
    expect(data.pipeline.nodes).toHaveLength(2);
  }

  const provisions = await listStarterProvisions(database.db, tenantId);
  const idsByKey = new Map([...channels, ...definitions].map((row) => [row.key, row.id]));
  expect(provisions.map((row) => [row.key, row.definitionId]).sort()).toEqual(
    ALL_STARTERS.map((key) => [key, idsByKey.get(key)]),
  );
  return new Map(definitions.map((row) => [row.key, row]));
}

async function deleteStarter(table: 'definitions' | 'channels', tenantId: string, key: string) {
  await database.db.execute(
    sql`delete from ${sql.identifier(table)} where tenant_id = ${tenantId} and key = ${key}`,
  );
}

async function editStarterName(tenantId: string, key: string, name: string) {
  await database.db.execute(sql`update definitions
    set data = jsonb_set(data, '{name,en}', to_jsonb(${name}::text)), revision = 2
    where tenant_id = ${tenantId} and key = ${key}`);
}

async function keysOf(tenantId: string): Promise<string[]> {
  const definitions = await listDefinitions(database.db, tenantId);
  const channels = await listChannels(database.db, tenantId);
  return [...definitions, ...channels].map((row) => row.key ?? '').sort();
}

describe('createShop', () => {
  it('provisions exactly the starter channel, rules and flows, in four languages', async () => {
    const shop = await createShop(services, { name: 'Starter shop' });
    await expectExactlyStarters(shop.tenantId);
  });

  it('seeds no promotion and lists the starters through automation.list', async () => {
    const shop = await createShop(services, { name: 'Listed shop', ownerEmail: 'listed@starter.test' });
    const owner = await principalOf(services, shop.token);
    const listed = successOf(
      await invokeOperation(services, operationNamed('automation.list'), owner, {}),
    ) as {
      rules: unknown[];
      flows: unknown[];
      promotions: unknown[];
      channels: unknown[];
    };
    expect(listed.promotions).toEqual([]);
    expect([listed.rules.length, listed.flows.length, listed.channels.length]).toEqual([3, 2, 1]);
  });

  it('announces the created starters in the shop.created event', async () => {
    const shop = await createShop(services, { name: 'Announced shop' });
    const events = await listEvents(database.db, shop.tenantId, { name: 'shop.created', limit: 10 });
    expect(events).toHaveLength(1);
    expect((events[0]!.payload as { starters: string[] }).starters.sort()).toEqual(ALL_STARTERS);
  });
});

describe('backfillStarters', () => {
  it('creates nothing in shops that already have every starter', async () => {
    const shop = await createShop(services, { name: 'Complete shop' });
    const before = await listDefinitions(database.db, shop.tenantId);
    expect(await backfillStarters(services)).toEqual({ created: new Map(), failed: new Map() });
    expect(await listDefinitions(database.db, shop.tenantId)).toEqual(before);
  });

  it.each([
    ['definitions', 'default_cart_100'],
    ['definitions', 'default_payment_received'],
    ['channels', 'main_storefront'],
  ] as const)('does not recreate the deleted starter %s %s', async (table, key) => {
    const shop = await createShop(services, { name: `Shop without ${key}` });
    await deleteStarter(table, shop.tenantId, key);
    const result = await backfillStarters(services);
    expect(result.created.get(shop.tenantId)).toBeUndefined();
    expect(result.failed.size).toBe(0);
    expect(await keysOf(shop.tenantId)).toEqual(ALL_STARTERS.filter((starter) => starter !== key));
  });

  it('leaves a merchant’s edit of a starter intact', async () => {
    const shop = await createShop(services, { name: 'Edited shop' });
    const original = (await expectExactlyStarters(shop.tenantId)).get('default_cart_100')!;
    await editStarterName(shop.tenantId, 'default_cart_100', 'Big carts');
    await backfillStarters(services);
    const rows = (await listDefinitions(database.db, shop.tenantId)).filter(
      (row) => row.key === 'default_cart_100',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: original.id, revision: 2, data: { name: { en: 'Big carts' } } });
    expect((rows[0]!.data as { name: { de: string } }).name.de).toBe('Warenkorb ab 100');
  });

  it('gives a shop from before starters all six, once', async () => {
    const shop = await createShop(services, { name: 'Old shop' });
    for (const table of ['definitions', 'channels', 'starter_provisions']) {
      await database.db.execute(sql`delete from ${sql.identifier(table)} where tenant_id = ${shop.tenantId}`);
    }
    expect(await keysOf(shop.tenantId)).toEqual([]);

    const first = await backfillStarters(services);
    expect([...first.created.keys()]).toEqual([shop.tenantId]);
    expect(first.created.get(shop.tenantId)?.sort()).toEqual(ALL_STARTERS);
    expect(first.failed.size).toBe(0);
    await expectExactlyStarters(shop.tenantId);

    expect(await backfillStarters(services)).toEqual({ created: new Map(), failed: new Map() });
    await expectExactlyStarters(shop.tenantId);
  });
});

describe('backfillStarters on shops that hold starters without tombstones', () => {
  it('adopts the existing rows (and any main channel) instead of failing or duplicating', async () => {
    const shop = await createShop(services, { name: 'Untracked starters' });
    await database.db.execute(sql`delete from starter_provisions where tenant_id = ${shop.tenantId}`);
    await database.db.execute(sql`update channels set key = null where tenant_id = ${shop.tenantId}`);
    const before = await listDefinitions(database.db, shop.tenantId);

    const report = await backfillStarters(services);
    expect(report.failed.size).toBe(0);
    expect(report.created.get(shop.tenantId)).toBeUndefined();
    expect(await listDefinitions(database.db, shop.tenantId)).toEqual(before);
    const tombstones = await database.db.execute(
      sql`select count(*)::int as count from starter_provisions where tenant_id = ${shop.tenantId}`,
    );
    const rows = Array.isArray(tombstones) ? tombstones : (tombstones as { rows: unknown[] }).rows;
    expect((rows[0] as { count: number }).count).toBe(ALL_STARTERS.length);
  });
});

describe('createSandbox', () => {
  it('copies the current definitions instead of reseeding, and the backfill keeps it that way', async () => {
    const source = await createShop(services, { name: 'Source shop', ownerEmail: 'owner@source.test' });
    await editStarterName(source.tenantId, 'default_all_orders', 'Every order we get');
    await deleteStarter('definitions', source.tenantId, 'default_cart_100');
    const sourceDefinitions = await listDefinitions(database.db, source.tenantId);

    const sandbox = await createSandbox(services, source.tenantId, {
      name: 'Source shop (sandbox)',
      ownerUserId: source.userId,
      actor: testActor,
    });

    expect(await findTenant(database.db, sandbox.tenantId)).toMatchObject({
      stage: 'sandbox',
      sourceTenantId: source.tenantId,
    });
    const copied = await listDefinitions(database.db, sandbox.tenantId);
    const comparable = (rows: typeof copied) =>
      rows.map(({ kind, id, key, revision, active, data }) => ({ kind, id, key, revision, active, data }));
    expect(comparable(copied)).toEqual(comparable(sourceDefinitions));
    expect(copied.find((row) => row.key === 'default_all_orders')).toMatchObject({
      revision: 2,
      data: { name: { en: 'Every order we get' } },
    });
    expect(await keysOf(sandbox.tenantId)).toEqual(ALL_STARTERS.filter((key) => key !== 'default_cart_100'));

    const principal = await principalOf(services, sandbox.token);
    expect([principal.tenantId, principal.role]).toEqual([sandbox.tenantId, 'owner']);

    const backfilled = await backfillStarters(services);
    expect(backfilled.created.get(sandbox.tenantId)).toBeUndefined();
    expect(await keysOf(sandbox.tenantId)).toEqual(ALL_STARTERS.filter((key) => key !== 'default_cart_100'));
  });

  it('refuses to make a sandbox of a sandbox through shop.sandbox.create', async () => {
    const source = await createShop(services, { name: 'Nested source' });
    const owner = await apiPrincipal(services, source.tenantId, 'owner');
    const created = successOf(
      await invokeOperation(services, operationNamed('shop.sandbox.create'), owner, {}),
    ) as {
      shop: { id: string; stage: string };
      token: string;
    };
    expect(created.shop.stage).toBe('sandbox');
    const sandboxOwner = await principalOf(services, created.token);
    const nested = await invokeOperation(services, operationNamed('shop.sandbox.create'), sandboxOwner, {});
    expect(nested).toMatchObject({ ok: false, code: 'CONFLICT' });
  });
});
