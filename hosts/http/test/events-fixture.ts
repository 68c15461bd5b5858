import {
  appDeliveryMatchingProjection,
  appServicesOf,
  consumeOnce,
  type DeliveryPolicy,
  runDueDeliveries,
} from '@cartwright/service';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { expect } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The shop the event log and an app's delivery log are tested with (admin-events.test.ts in
// process, the walk admin-events.e2e.test.ts in chromium): shop A with the app "hooks" installed,
// subscribed to the catalog's product events, its service the loopback app service fixture; the
// app-worker (matching, then due deliveries) run in this process.

/** The app service's credential; no page may show it. */
export const APP_CREDENTIAL = 'admin-events-credential-0123456789';
/** Short pauses; a delivery fails after 2 attempts, the circuit opens after 3 failures in a row. */
const POLICY: DeliveryPolicy = { baseMs: 10, capMs: 40, maxAttempts: 2, circuitThreshold: 3 };
const HOOKS = {
  apiVersion: 1,
  id: 'hooks',
  version: '1.0.0',
  name: { en: 'Hooks', de: 'Haken' },
  subscriptions: ['catalog.product.*'],
};

/** A delivery of the app "hooks" as its log over the API shows it, as far as the tests look. */
export interface DeliveryView {
  id: string;
  status: string;
  attempts: number;
  event: { id: string; name: string };
}

export interface EventsShop {
  readonly h: Harness;
  /** The app's service: its faults are set per test. */
  readonly appService: AppServiceFixture;
  /** The app's deliveries (up to 100) and its circuit, as shop A's owner reads them (200). */
  deliveries(): Promise<{ items: DeliveryView[]; circuit: { open: boolean } }>;
  /** The app-worker: match committed events, then run due deliveries until `done` (at most 20 s). */
  deliverUntil(done: () => Promise<boolean>): Promise<void>;
  /** A product of shop A named `sku` (201): answers its id. */
  createProduct(sku: string): Promise<string>;
  close(): Promise<void>;
}

export async function createEventsShop(): Promise<EventsShop> {
  const appService = await startAppServiceFixture({ credential: APP_CREDENTIAL });
  const h = await createHarness({
    ports: {
      appServices: appServicesOf({
        APP_SERVICES: JSON.stringify({ hooks: { baseUrl: appService.url, credential: APP_CREDENTIAL } }),
      }),
    },
  });
  const staff = (method: string, path: string, body?: unknown) =>
    h.call(method, path, { token: h.shopA.token, body });
  const installed = await staff('PUT', '/api/apps/hooks', { manifest: HOOKS, revision: 0 });
  expect(installed.status, JSON.stringify(installed.body)).toBeLessThan(300);
  const deliveries = async () => {
    const listed = await staff('GET', '/api/apps/hooks/deliveries?limit=100');
    expect(listed.status).toBe(200);
    return listed.body as never;
  };
  return {
    h,
    appService,
    deliveries,
    async deliverUntil(done) {
      const lease = { owner: 'matcher', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
      const deadline = Date.now() + 20_000;
      for (;;) {
        while ((await consumeOnce(h.services, appDeliveryMatchingProjection, lease)).tenantId !== null) {
          // until no shop has unmatched events
        }
        await runDueDeliveries(h.services, { owner: 'test', leaseMs: 30_000, limit: 20, policy: POLICY });
        if (await done()) return;
        if (Date.now() > deadline) throw new Error('deliveries did not settle');
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    },
    async createProduct(sku) {
      const created = await staff('POST', '/api/catalog/products', {
        sku,
        translations: { en: { name: sku } },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return (created.body.product as { id: string }).id;
    },
    async close() {
      await h.close();
      await appService.close();
    },
  };
}
