import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createReviewsShop, type ReviewsShop } from './admin-reviews-fixture.ts';
import type { Harness } from './harness.ts';

// Review moderation and the shop's payments walked in chromium (decision 0047), in English and
// German: the pending reviews from the navigation (stars with their text), one approved, one
// whose revision moved on meanwhile refused with a warning, a product's reviews from its page;
// the payments captured, labelled in the UI language. axe on every screen, no CSP report,
// screenshots `reviews-<locale>-*.png`.

let shop: ReviewsShop;
let h: Harness;
let ui: AdminBrowser;
let orderId: string;

const TEXT = {
  en: {
    title: 'Product reviews',
    stars: '4 of 5 stars',
    approved: 'Review approved',
    stale: 'The review changed since this page was shown',
    productLink: 'Reviews of this product',
    ofProduct: 'Reviews of Mug',
    payments: 'Payments',
    captured: 'Captured',
    refunded: '€2.00',
  },
  de: {
    title: 'Produktbewertungen',
    stars: '4 von 5 Sternen',
    approved: 'Bewertung freigegeben',
    stale: 'Die Bewertung wurde geändert',
    productLink: 'Bewertungen dieses Produkts',
    ofProduct: 'Bewertungen von Mug',
    payments: 'Zahlungen',
    captured: 'Eingezogen',
    refunded: '2,00\u00a0€',
  },
} as const;

async function reviewOf(id: string) {
  const listed = await h.call('GET', '/api/catalog/reviews?limit=100', { token: h.shopA.token });
  return (listed.body.items as { id: string; status: string; revision: number }[]).find(
    (review) => review.id === id,
  )!;
}

describe.skipIf(browserSkipped)('the admin reviews and payments pages in chromium', () => {
  beforeAll(async () => {
    shop = await createReviewsShop();
    h = shop.h;
    const [order] = await shop.providerOrders(2);
    await shop.captureAndRefund(order!, 200);
    orderId = order!.orderId;
    ui = await launchAdminBrowser(h.services);
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
    await shop?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('moderates reviews, shows a refusal, filters by product, and lists the payments', async () => {
      const text = TEXT[locale];
      const good = await shop.review(shop.teaId, { rating: 4, title: `Good ${locale}`, content: 'Fine.' });
      const raced = await shop.review(shop.mugId, { rating: 1, title: `Chipped ${locale}`, content: 'Hm.' });
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await ui.answer(page, () => page.click('nav a[href="/admin/reviews"]'));
        expect(await page.textContent('h1')).toBe(text.title);
        const row = page.locator(`tr[data-review="${good}"]`);
        expect(await row.locator('.stars').getAttribute('aria-label')).toBe(text.stars);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `reviews-${locale}-01-pending`);

        await ui.answer(page, () => row.locator('button[data-moderate="approved"]').click());
        expect(await page.textContent('[role="status"]')).toContain(text.approved);
        expect(await reviewOf(good)).toMatchObject({ status: 'approved' });
        expect(await page.locator(`tr[data-review="${good}"]`).count()).toBe(0);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `reviews-${locale}-02-approved`);

        // Someone approves the other review meanwhile: this page's reject asks at a stale revision.
        const before = await reviewOf(raced);
        const approved = await h.call('PUT', `/api/catalog/reviews/${raced}`, {
          token: h.shopA.token,
          body: { revision: before.revision, status: 'approved' },
        });
        expect(approved.status).toBe(200);
        await ui.answer(page, () =>
          page.locator(`tr[data-review="${raced}"] button[data-moderate="rejected"]`).click(),
        );
        expect(await page.textContent('[role="alert"]')).toContain(text.stale);
        expect(await reviewOf(raced)).toMatchObject({ status: 'approved', revision: before.revision + 1 });
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `reviews-${locale}-03-stale`);

        // A product's reviews, from its page.
        await ui.answer(page, () => page.goto(`${ui.base}/admin/products/${shop.mugId}`));
        await ui.answer(page, () => page.click(`a:text("${text.productLink}")`));
        expect(await page.textContent('main')).toContain(text.ofProduct);
        expect(await page.locator(`tr[data-review="${raced}"]`).count()).toBe(1);
        expect(await page.locator(`tr[data-review="${good}"]`).count()).toBe(0);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `reviews-${locale}-04-product`);

        // The payments: captured ones, labelled in the UI language, linked to their order.
        await ui.answer(page, () => page.click('nav a[href="/admin/payments"]'));
        expect(await page.textContent('h1')).toBe(text.payments);
        await page.selectOption('#payment-status', 'captured');
        await ui.answer(page, () => page.click('form[action="/admin/payments"] button[type="submit"]'));
        const attempt = page.locator('tr[data-attempt]');
        expect(await attempt.count()).toBe(1);
        expect(await attempt.locator('td[data-status]').textContent()).toBe(text.captured);
        expect(await attempt.textContent()).toContain(text.refunded);
        expect(await attempt.locator(`a[href="/admin/orders/${orderId}"]`).count()).toBe(1);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `reviews-${locale}-05-payments`);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
