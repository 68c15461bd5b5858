import {
  appDeliveryMatchingProjection,
  appServicesOf,
  consumeOnce,
  type DeliveryPolicy,
  runDueDeliveries,
} from '@cartwright/service';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// The event log and an app's delivery log walked in chromium (decision 0047), in English and
// German: a product created, its event found in the log with its payload and the consumers'
// positions; the app's delivery of it refused by the app's service, listed as failed with the
// service's answer and redelivered; deliveries paused after consecutive failures and resumed
// (the API agrees each time). axe on every screen, no CSP report, screenshots `events-<locale>-*.png`.

const CREDENTIAL = 'admin-events-e2e-credential-0123456789';
const POLICY: DeliveryPolicy = { baseMs: 10, capMs: 40, maxAttempts: 2, circuitThreshold: 3 };
const HOOKS = {
  apiVersion: 1,
  id: 'hooks',
  version: '1.0.0',
  name: { en: 'Hooks', de: 'Haken' },
  subscriptions: ['catalog.product.*'],
};

let h: Harness;
let ui: AdminBrowser;
let fixture: AppServiceFixture;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

interface DeliveryView {
  id: string;
  status: string;
  event: { id: string; name: string };
}
async function deliveries(): Promise<{ items: DeliveryView[]; circuit: { open: boolean } }> {
  const listed = await staff('GET', '/api/apps/hooks/deliveries?limit=100');
  expect(listed.status).toBe(200);
  return listed.body as never;
}

async function deliverUntil(done: () => Promise<boolean>): Promise<void> {
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
}

async function createProduct(sku: string): Promise<string> {
  const created = await staff('POST', '/api/catalog/products', {
    sku,
    translations: { en: { name: sku } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (created.body.product as { id: string }).id;
}

const TEXT = {
  en: {
    title: 'Event log',
    deliveries: 'Deliveries',
    failed: 'Failed',
    redeliver: 'Redeliver',
    redelivered: 'The delivery was queued again',
    paused: 'Deliveries are paused',
    resume: 'Resume deliveries',
    resumed: 'Deliveries resumed',
  },
  de: {
    title: 'Ereignisprotokoll',
    deliveries: 'Zustellungen',
    failed: 'Fehlgeschlagen',
    redeliver: 'Erneut zustellen',
    redelivered: 'Die Zustellung wurde erneut eingereiht',
    paused: 'Zustellungen sind seit',
    resume: 'Zustellungen fortsetzen',
    resumed: 'Zustellungen fortgesetzt',
  },
} as const;

describe.skipIf(browserSkipped)('the event log and app deliveries in chromium', () => {
  beforeAll(async () => {
    fixture = await startAppServiceFixture({ credential: CREDENTIAL });
    h = await createHarness({
      ports: {
        appServices: appServicesOf({
          APP_SERVICES: JSON.stringify({ hooks: { baseUrl: fixture.url, credential: CREDENTIAL } }),
        }),
      },
    });
    expect((await staff('PUT', '/api/apps/hooks', { manifest: HOOKS, revision: 0 })).status).toBeLessThan(
      300,
    );
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
    await fixture?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('finds a product’s event, redelivers its failed delivery, resumes paused deliveries', async () => {
      const text = TEXT[locale];
      // A product whose delivery the app's service refuses twice: it fails.
      fixture.failNextDeliveries({ kind: 'refuse', status: 422, times: 2, detail: 'not today' });
      const productId = await createProduct(`EVT-${locale}`);
      const event = (
        (await staff('GET', '/api/events?name=catalog.product.created&limit=100')).body.items as {
          id: string;
          payload: { productId?: string };
        }[]
      ).find((item) => item.payload.productId === productId)!;
      await deliverUntil(async () =>
        (await deliveries()).items.some((item) => item.event.id === event.id && item.status === 'failed'),
      );
      const delivery = (await deliveries()).items.find((item) => item.event.id === event.id)!;

      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        expect(await page.evaluate('typeof window.htmx')).toBe('object');

        // The event log: the product's event with its payload, the consumers' positions above.
        await ui.answer(page, () => page.click('nav a[href="/admin/events"]'));
        expect(await page.textContent('h1')).toBe(text.title);
        expect(await page.locator('tr[data-consumer="app-delivery-matching"]').count()).toBe(1);
        const row = page.locator(`tr[data-event="${event.id}"]`);
        expect(await row.locator('th').textContent()).toBe('catalog.product.created');
        await row.locator('summary').click();
        expect(JSON.parse((await row.locator('pre').textContent())!)).toMatchObject({ productId });
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-01-log`);

        // The app's deliveries: the refused one failed with the service's answer.
        await ui.answer(page, () => page.click('nav a[href="/admin/apps"]'));
        await ui.answer(page, () => page.click('main a[href="/admin/apps/hooks"]'));
        await ui.answer(page, () => page.click('main a[href="/admin/apps/hooks/deliveries"]'));
        const line = page.locator(`tr[data-delivery="${delivery.id}"]`);
        expect(await line.locator('.badge').textContent()).toBe(text.failed);
        expect(await line.textContent()).toContain('HTTP 422');
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-02-deliveries`);

        // Redeliver: queued again (the API agrees), then delivered.
        await ui.answer(page, () => line.getByRole('button', { name: text.redeliver }).click());
        expect(await page.textContent('[role="status"]')).toContain(text.redelivered);
        expect((await deliveries()).items.find((item) => item.id === delivery.id)?.status).toBe('pending');
        await deliverUntil(
          async () =>
            (await deliveries()).items.find((item) => item.id === delivery.id)?.status === 'delivered',
        );
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-03-redelivered`);

        // Paused after consecutive failures; resumed.
        fixture.failNextDeliveries({ kind: 'status', status: 500, times: 100 });
        for (const n of [1, 2, 3]) await createProduct(`EVT-${locale}-${n}`);
        await deliverUntil(async () => (await deliveries()).circuit.open);
        fixture.clearFaults();
        await ui.answer(page, () => page.goto(`${ui.base}/admin/apps/hooks/deliveries`));
        expect(await page.textContent('.circuit[role="alert"]')).toContain(text.paused);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-04-paused`);
        await ui.answer(page, () => page.getByRole('button', { name: text.resume }).click());
        expect(await page.textContent('[role="status"]')).toContain(text.resumed);
        expect((await deliveries()).circuit.open).toBe(false);
        expect(await page.locator('.circuit[role="alert"]').count()).toBe(0);
        await deliverUntil(async () => (await deliveries()).items.every((item) => item.status !== 'pending'));
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-05-resumed`);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
