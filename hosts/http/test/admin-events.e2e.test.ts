import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createEventsShop, type EventsShop } from './events-fixture.ts';
import type { Harness } from './harness.ts';

// The event log and an app's delivery log walked in chromium (decision 0047), in English and
// German: a product created, its event found in the log with its payload and the consumers'
// positions; the app's delivery of it refused by the app's service, listed as failed with the
// service's answer and redelivered; deliveries paused after consecutive failures and resumed
// (the API agrees each time). axe on every screen, no CSP report, screenshots `events-<locale>-*.png`.

let shop: EventsShop;
let h: Harness;
let ui: AdminBrowser;

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
    shop = await createEventsShop();
    ({ h } = shop);
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await shop?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('finds a product’s event, redelivers its failed delivery, resumes paused deliveries', async () => {
      const text = TEXT[locale];
      // A product whose delivery the app's service refuses twice: it fails.
      shop.appService.failNextDeliveries({ kind: 'refuse', status: 422, times: 2, detail: 'not today' });
      const productId = await shop.createProduct(`EVT-${locale}`);
      const event = (
        (await h.call('GET', '/api/events?name=catalog.product.created&limit=100', { token: h.shopA.token }))
          .body.items as {
          id: string;
          payload: { productId?: string };
        }[]
      ).find((item) => item.payload.productId === productId)!;
      await shop.deliverUntil(async () =>
        (await shop.deliveries()).items.some(
          (item) => item.event.id === event.id && item.status === 'failed',
        ),
      );
      const delivery = (await shop.deliveries()).items.find((item) => item.event.id === event.id)!;

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
        expect((await shop.deliveries()).items.find((item) => item.id === delivery.id)?.status).toBe(
          'pending',
        );
        await shop.deliverUntil(
          async () =>
            (await shop.deliveries()).items.find((item) => item.id === delivery.id)?.status === 'delivered',
        );
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-03-redelivered`);

        // Paused after consecutive failures; resumed.
        shop.appService.failNextDeliveries({ kind: 'status', status: 500, times: 100 });
        for (const n of [1, 2, 3]) await shop.createProduct(`EVT-${locale}-${n}`);
        await shop.deliverUntil(async () => (await shop.deliveries()).circuit.open);
        shop.appService.clearFaults();
        await ui.answer(page, () => page.goto(`${ui.base}/admin/apps/hooks/deliveries`));
        expect(await page.textContent('.circuit[role="alert"]')).toContain(text.paused);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-04-paused`);
        await ui.answer(page, () => page.getByRole('button', { name: text.resume }).click());
        expect(await page.textContent('[role="status"]')).toContain(text.resumed);
        expect((await shop.deliveries()).circuit.open).toBe(false);
        expect(await page.locator('.circuit[role="alert"]').count()).toBe(0);
        await shop.deliverUntil(async () =>
          (await shop.deliveries()).items.every((item) => item.status !== 'pending'),
        );
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `events-${locale}-05-resumed`);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
