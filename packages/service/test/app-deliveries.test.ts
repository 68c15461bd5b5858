import { createHash, createHmac } from 'node:crypto';
import { type Database, listEvents } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDeliveryMatchingProjection, isSubscribed } from '../src/apps/delivery/matching.ts';
import { type DeliveryPolicy, retryPauseMs, runDueDeliveries } from '../src/apps/delivery/runner.ts';
import { appServicesOf } from '../src/apps/external/config.ts';
import { createServices, invokeOperation, type Principal, recordEvent, type Services } from '../src/index.ts';
import { consumeOnce } from '../src/outbox/projections.ts';
import { createShop } from '../src/shop/shops.ts';
import { apiPrincipal, operationNamed, principalOf, testActor } from './principals.ts';

// App event delivery (issue 16, item 3): events an app subscribes to reach its external service
// signed, at least once, with a delivery id stable across retries; the log shows every attempt; a
// per-app circuit opens after consecutive failures until the merchant resumes; a delivered or failed
// delivery can be sent again. Driven against the loopback app service.

const CREDENTIAL = 'hooks-credential-0123456789';
/** Short pauses so retries come within the test; the circuit opens after 4 failures in a row. */
const POLICY: DeliveryPolicy = { baseMs: 20, capMs: 80, maxAttempts: 6, circuitThreshold: 4 };

const HOOKS = {
  apiVersion: 1,
  id: 'hooks',
  version: '1.0.0',
  name: { en: 'Hooks' },
  subscriptions: ['order.placed', 'customer.*'],
};

let database: Database;
let services: Services;
let fixture: AppServiceFixture;

interface Shop {
  readonly tenantId: string;
  readonly principal: Principal;
}

async function newShop(name: string, install = true): Promise<Shop> {
  const { tenantId, token } = await createShop(services, { name });
  const shop = { tenantId, principal: await principalOf(services, token) };
  if (install) await call(shop, 'apps.install', { appId: 'hooks', revision: 0, manifest: HOOKS });
  return shop;
}

async function call(shop: Shop, name: string, input: unknown) {
  const result = await invokeOperation(services, operationNamed(name), shop.principal, input);
  if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
  return result.value as Record<string, unknown>;
}

async function emit(shop: Shop, name: string, payload: Record<string, unknown> = {}) {
  await services.database.transaction((tx) =>
    recordEvent(tx, services, shop.tenantId, testActor, name, payload),
  );
}

/** The app-worker's matching, in this process: every committed event becomes its deliveries. */
async function match(): Promise<void> {
  const lease = { owner: 'matcher', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  while ((await consumeOnce(services, appDeliveryMatchingProjection, lease)).tenantId !== null) {
    // until no shop has unmatched events
  }
}

/** Runs delivery rounds until `done` holds (retries come after their short pauses). */
async function deliverUntil(done: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('deliveries did not settle in time');
    await runDueDeliveries(services, { owner: 'test', leaseMs: 30_000, limit: 20, policy: POLICY });
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface DeliveryView {
  id: string;
  status: string;
  attempts: number;
  event: { id: string; name: string; sequence: number };
  log: { attempt: number; statusCode: number | null; outcome: string; error: string | null }[];
}

async function deliveriesOf(shop: Shop, input: Record<string, unknown> = {}) {
  const listed = await call(shop, 'apps.deliveries.list', { appId: 'hooks', ...input });
  return listed as { items: DeliveryView[]; circuit: { open: boolean; consecutiveFailures: number } };
}

describe('app event delivery', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    fixture = await startAppServiceFixture({ credential: CREDENTIAL });
    services = createServices(database, {
      appServices: appServicesOf({
        APP_SERVICES: JSON.stringify({ hooks: { baseUrl: fixture.url, credential: CREDENTIAL } }),
      }),
    });
  });
  afterAll(async () => {
    await fixture?.close();
    await database?.close();
  });

  it('matches exact names and prefixes', () => {
    expect(isSubscribed(['order.placed'], 'order.placed')).toBe(true);
    expect(isSubscribed(['order.placed'], 'order.placed_again')).toBe(false);
    expect(isSubscribed(['customer.*'], 'customer.created')).toBe(true);
    expect(isSubscribed(['customer.*'], 'customer')).toBe(false);
    expect(isSubscribed(['customer.*'], 'customers.created')).toBe(false);
    expect(isSubscribed([], 'order.placed')).toBe(false);
  });

  it('backs off exponentially with jitter, up to the cap', () => {
    const policy = { baseMs: 5_000, capMs: 4 * 3_600_000, maxAttempts: 16, circuitThreshold: 8 };
    expect(retryPauseMs(policy, 1, 0)).toBe(2_500);
    expect(retryPauseMs(policy, 1, 0.999_999)).toBe(5_000);
    expect(retryPauseMs(policy, 2, 0)).toBe(5_000);
    expect(retryPauseMs(policy, 4, 0.5)).toBe(30_000);
    expect(retryPauseMs(policy, 30, 0)).toBe(2 * 3_600_000);
    expect(retryPauseMs(policy, 30, 0.999_999)).toBeLessThanOrEqual(4 * 3_600_000);
  });

  it('a receiver failing the first 3 times gets the event on the 4th, with the same delivery id each time, signed', async () => {
    const shop = await newShop('Delivered on the fourth');
    fixture.clear();
    fixture.failNextDeliveries({ kind: 'status', status: 503, times: 3 });
    await emit(shop, 'order.placed', { orderId: 'o-1' });
    await emit(shop, 'product.updated', { productId: 'p-1' }); // not subscribed
    await match();
    await deliverUntil(async () => (await deliveriesOf(shop)).items[0]?.status === 'delivered');

    const [event] = await listEvents(database.db, shop.tenantId, {
      afterSequence: 0,
      limit: 100,
    }).then((events) => events.filter((e) => e.name === 'order.placed'));
    const { items, circuit } = await deliveriesOf(shop);
    expect(items).toHaveLength(1);
    const delivery = items[0]!;
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 4,
      event: { id: event!.id, name: 'order.placed', sequence: event!.sequence },
    });
    expect(delivery.log.map((entry) => [entry.attempt, entry.outcome, entry.statusCode])).toEqual([
      [1, 'failed', 503],
      [2, 'failed', 503],
      [3, 'failed', 503],
      [4, 'delivered', 200],
    ]);
    expect(delivery.log[0]!.error).toMatch(/^APP_SERVICE_UNAVAILABLE: .*HTTP 503/);
    expect(circuit).toEqual({ open: false, consecutiveFailures: 0, openedAt: null });

    const received = fixture.deliveries;
    expect(received).toHaveLength(4);
    expect(new Set(received.map((r) => r.deliveryId))).toEqual(new Set([delivery.id]));
    for (const r of received) {
      expect(r).toMatchObject({
        eventId: event!.id,
        sequence: String(event!.sequence),
        eventName: 'order.placed',
        signatureValid: true,
        hasAuthorization: false,
      });
      expect(r.body).toMatchObject({
        tenant: shop.tenantId,
        app: 'hooks',
        delivery: delivery.id,
        event: { id: event!.id, name: 'order.placed', payload: { orderId: 'o-1' } },
      });
    }
    // The signature is over tenant, app, event name, timestamp, delivery id and the body's hash.
    const last = received.at(-1)!;
    const body = JSON.stringify(last.body);
    const bodyHash = createHash('sha256').update(body).digest('hex');
    const signed = [shop.tenantId, 'hooks', 'order.placed', last.timestamp, delivery.id, bodyHash].join('\n');
    expect(last.signature).toBe(createHmac('sha256', CREDENTIAL).update(signed).digest('hex'));
    // Nothing in the log carries the credential or the service's URL.
    const log = JSON.stringify(items);
    expect(log).not.toContain(CREDENTIAL);
    expect(log).not.toContain(fixture.url);
  });

  it('prefix subscriptions deliver; unsubscribed events, events before the install and other shops’ events do not', async () => {
    const shop = await newShop('Prefixes');
    const other = await newShop('Other shop, same app');
    const bare = await newShop('No app', false);
    fixture.clear();
    await emit(shop, 'customer.created', { customerId: 'c-1' });
    await emit(shop, 'catalog.product.created', {});
    await emit(other, 'order.placed', { orderId: 'o-other' });
    await emit(bare, 'order.placed', { orderId: 'o-bare' });
    await match();
    await deliverUntil(async () => fixture.deliveries.filter((d) => d.status === 200).length === 2);

    const mine = (await deliveriesOf(shop)).items;
    expect(mine.map((d) => [d.event.name, d.status])).toEqual([['customer.created', 'delivered']]);
    const theirs = (await deliveriesOf(other)).items;
    expect(theirs.map((d) => [d.event.name, d.status])).toEqual([['order.placed', 'delivered']]);
    expect((await deliveriesOf(bare)).items).toEqual([]);
    // Each delivery names its own shop, and went out once.
    const tenants = fixture.deliveries.map((d) => (d.body as { tenant: string }).tenant).sort();
    expect(tenants).toEqual([shop.tenantId, other.tenantId].sort());

    // An app installed later hears nothing of what happened before.
    await emit(bare, 'order.placed', { orderId: 'o-before' });
    await call(bare, 'apps.install', { appId: 'hooks', revision: 0, manifest: HOOKS });
    await match();
    expect((await deliveriesOf(bare)).items).toEqual([]);
  });

  it('opens the app’s circuit after consecutive failures; nothing is sent until the merchant resumes', async () => {
    const shop = await newShop('Circuit');
    fixture.clear();
    fixture.failNextDeliveries({ kind: 'status', status: 500, times: 100 });
    await emit(shop, 'order.placed', { orderId: 'o-1' });
    await emit(shop, 'order.placed', { orderId: 'o-2' });
    await match();
    await deliverUntil(async () => (await deliveriesOf(shop)).circuit.open);
    const open = await deliveriesOf(shop);
    expect(open.circuit).toMatchObject({ open: true, consecutiveFailures: POLICY.circuitThreshold });
    expect(open.items.every((d) => d.status === 'pending')).toBe(true);
    const sent = fixture.deliveries.length;
    expect(sent).toBe(POLICY.circuitThreshold);

    // Open: no delivery is claimed, however long the pauses were.
    await new Promise((resolve) => setTimeout(resolve, 3 * POLICY.capMs));
    const round = await runDueDeliveries(services, {
      owner: 'test',
      leaseMs: 30_000,
      limit: 20,
      policy: POLICY,
    });
    expect(round.ran).toBe(0);
    expect(fixture.deliveries).toHaveLength(sent);

    // Only apps.manage resumes; then both are delivered.
    const editor = await apiPrincipalOf(shop, 'editor');
    const refused = await invokeOperation(services, operationNamed('apps.deliveries.resume'), editor, {
      appId: 'hooks',
    });
    expect(refused).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    fixture.clearFaults();
    expect(await call(shop, 'apps.deliveries.resume', { appId: 'hooks' })).toEqual({
      wasOpen: true,
      circuit: { open: false, consecutiveFailures: 0, openedAt: null },
    });
    expect((await call(shop, 'apps.deliveries.resume', { appId: 'hooks' })).wasOpen).toBe(false);
    await deliverUntil(async () => (await deliveriesOf(shop)).items.every((d) => d.status === 'delivered'));
    expect((await deliveriesOf(shop, { status: ['delivered'] })).items).toHaveLength(2);
    const notInstalled = await invokeOperation(
      services,
      operationNamed('apps.deliveries.resume'),
      shop.principal,
      { appId: 'nothing' },
    );
    expect(notInstalled).toMatchObject({ ok: false, code: 'APP_NOT_INSTALLED' });
  });

  it('a delivery out of attempts fails; redeliver queues it again with a fresh budget and the same id, idempotently', async () => {
    const shop = await newShop('Redeliver');
    fixture.clear();
    // 422 refusals fail attempts too; the circuit threshold is above what one delivery uses here.
    const policy = { ...POLICY, maxAttempts: 2 };
    fixture.failNextDeliveries({ kind: 'refuse', status: 422, times: 2 });
    await emit(shop, 'order.placed', { orderId: 'o-1' });
    await match();
    const deadline = Date.now() + 10_000;
    while ((await deliveriesOf(shop)).items[0]?.status !== 'failed') {
      if (Date.now() > deadline) throw new Error('the delivery did not fail');
      await runDueDeliveries(services, { owner: 'test', leaseMs: 30_000, limit: 20, policy });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const failed = (await deliveriesOf(shop, { status: ['failed'] })).items[0]!;
    expect(failed.log.map((entry) => entry.statusCode)).toEqual([422, 422]);

    const redelivered = (await call(shop, 'apps.deliveries.redeliver', {
      appId: 'hooks',
      deliveryId: failed.id,
    })) as { delivery: DeliveryView };
    expect(redelivered.delivery).toMatchObject({ id: failed.id, status: 'pending', attempts: 0 });
    // Again while pending: the same answer, nothing changes.
    const again = (await call(shop, 'apps.deliveries.redeliver', {
      appId: 'hooks',
      deliveryId: failed.id,
    })) as { delivery: DeliveryView };
    expect(again.delivery).toEqual(redelivered.delivery);
    await deliverUntil(async () => (await deliveriesOf(shop)).items[0]?.status === 'delivered');
    const delivered = (await deliveriesOf(shop)).items[0]!;
    expect(delivered.log.map((entry) => [entry.attempt, entry.outcome])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'delivered'],
    ]);
    expect(delivered.attempts).toBe(1);

    // A delivered one can be sent again too.
    await call(shop, 'apps.deliveries.redeliver', { appId: 'hooks', deliveryId: failed.id });
    await deliverUntil(async () => (await deliveriesOf(shop)).items[0]?.status === 'delivered');
    expect((await deliveriesOf(shop)).items[0]!.log).toHaveLength(4);
    expect(new Set(fixture.deliveries.map((d) => d.deliveryId))).toEqual(new Set([failed.id]));
    expect(fixture.deliveries).toHaveLength(4);

    // Another shop cannot reach it; an unknown id is NOT_FOUND.
    const other = await newShop('Intruder');
    const foreign = await invokeOperation(
      services,
      operationNamed('apps.deliveries.redeliver'),
      other.principal,
      {
        appId: 'hooks',
        deliveryId: failed.id,
      },
    );
    expect(foreign).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await deliveriesOf(other)).items).toEqual([]);
  });
});

function apiPrincipalOf(shop: Shop, role: 'editor' | 'reader'): Promise<Principal> {
  return apiPrincipal(services, shop.tenantId, role);
}
