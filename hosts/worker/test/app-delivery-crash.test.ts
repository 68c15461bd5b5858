import { once } from 'node:events';
import { type AppDeliveryRow, listAppDeliveries, listAppDeliveryAttempts } from '@cartwright/repository';
import { createTestDatabase, killableHandle, type TestDatabase } from '@cartwright/repository/testing';
import {
  type Actor,
  appServicesOf,
  authenticate,
  createServices,
  createShop,
  findOperation,
  invokeOperation,
  recordEvent,
  runDueDeliveries,
  type Services,
} from '@cartwright/service';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../src/index.ts';
import { REPLICA_KIND } from './replicas.ts';
import { spawnWorker } from './worker-process.ts';

// Issue 16: an app-worker killed while its delivery is in flight loses nothing. The receiver has
// the request and never answers; the worker is killed (SIGKILL of a real process on PostgreSQL; on
// PGlite a worker in this process cut off from the database, see replicas.ts); once its lease runs
// out by the database clock another worker sends the delivery again with the same delivery id and
// it is delivered: at least once, never lost.

const LEASE_MS = 1500;
const CREDENTIAL = 'crash-credential-0123456789';
const system: Actor = { kind: 'system', process: 'app-delivery-crash-test' };

let database: TestDatabase;
let services: Services;
let fixture: AppServiceFixture;
let variables: Record<string, string>;
let kill: (() => Promise<void>) | undefined;

async function waitFor(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An app-worker that will be killed: a process on PostgreSQL, a killable handle on PGlite. */
async function startDoomedWorker(): Promise<() => Promise<void>> {
  if (database.url) {
    const worker = spawnWorker(
      {
        PROCESS_ROLE: 'app-worker',
        DATABASE_URL: database.url,
        WORKER_POLL_MS: '50',
        WORKER_LEASE_MS: String(LEASE_MS),
        ...variables,
      },
      { detached: true },
    );
    const closed = once(worker.child, 'close');
    await Promise.race([
      worker.line((line) => line.includes('"worker process ready"')),
      worker.exited.then((code) => {
        throw new Error(`worker exited with ${code} at start-up:\n${worker.lines.join('\n')}`);
      }),
    ]);
    return async () => {
      if (worker.child.exitCode === null && worker.child.signalCode === null) {
        process.kill(-worker.child.pid!, 'SIGKILL');
      }
      await worker.exited;
      await closed;
    };
  }
  const handle = killableHandle(database);
  startWorkers(createServices(handle.database, { appServices: appServicesOf(variables) }), {
    roles: ['app-worker'],
    pollMs: 50,
    leaseMs: LEASE_MS,
    log: () => {},
  });
  return async () => handle.kill();
}

describe(`an app-worker killed mid-delivery (${REPLICA_KIND})`, () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    fixture = await startAppServiceFixture({ credential: CREDENTIAL });
    variables = { APP_SERVICES: JSON.stringify({ hooks: { baseUrl: fixture.url, credential: CREDENTIAL } }) };
    services = createServices(database, { appServices: appServicesOf(variables) });
  });
  afterAll(async () => {
    await kill?.();
    await fixture?.close();
    await database?.close();
  });

  it('is delivered again with the same delivery id once the lease expires', async () => {
    const { tenantId, token } = await createShop(services, { name: 'Delivery crash' });
    const principal = await authenticate(services, token);
    if (!principal.ok) throw new Error(principal.detail);
    const installed = await invokeOperation(services, findOperation('apps.install')!, principal.value, {
      appId: 'hooks',
      revision: 0,
      manifest: {
        apiVersion: 1,
        id: 'hooks',
        version: '1.0.0',
        name: { en: 'Hooks' },
        subscriptions: ['order.placed'],
      },
    });
    expect(installed.ok).toBe(true);
    // The receiver takes the first request and never answers it (until long after the test).
    fixture.failNextDeliveries({ kind: 'slow', delayMs: 120_000 });

    kill = await startDoomedWorker();
    await services.database.transaction((tx) =>
      recordEvent(tx, services, tenantId, system, 'order.placed', { orderId: 'o-crash' }),
    );
    await waitFor('the delivery to reach the receiver', 20_000, () => fixture.deliveries.length === 1);
    const [held] = await listAppDeliveries(database.db, tenantId, { appId: 'hooks', limit: 10 });
    expect(held).toMatchObject({ status: 'pending', attempts: 0 });
    expect(held!.leaseOwner).not.toBeNull();
    await kill();
    kill = undefined;

    // Another worker (here, in this process) finds it once the dead one's lease has run out.
    let rescued: AppDeliveryRow | undefined;
    await waitFor('the delivery to be delivered again', 20_000, async () => {
      await runDueDeliveries(services, { owner: 'rescuer', leaseMs: LEASE_MS, limit: 10 });
      [rescued] = await listAppDeliveries(database.db, tenantId, { appId: 'hooks', limit: 10 });
      return rescued?.status === 'delivered';
    });
    expect(rescued).toMatchObject({ id: held!.id, attempts: 1, leaseOwner: null, lastStatusCode: 200 });
    // Taken over only after the lease had expired, by the database clock.
    expect(rescued!.deliveredAt!.getTime()).toBeGreaterThan(held!.leaseExpiresAt!.getTime());
    // Received twice, with one delivery id; the killed attempt wrote no outcome.
    expect(fixture.deliveries.map((d) => d.deliveryId)).toEqual([held!.id, held!.id]);
    expect(fixture.deliveries.every((d) => d.signatureValid)).toBe(true);
    const log = await listAppDeliveryAttempts(database.db, tenantId, [held!.id]);
    expect(log.map((entry) => [entry.attempt, entry.outcome, entry.statusCode])).toEqual([
      [1, 'delivered', 200],
    ]);
  });
});
