import { randomBytes } from 'node:crypto';
import {
  consumeOnce,
  createHttpImageProvider,
  flowMatchingProjection,
  type ImageProvider,
  type PaymentProvider,
  paymentServicesOf,
  runDueJobs,
  runDueMediaDrafts,
  runDuePaymentJobs,
} from '@cartwright/service';
import {
  encodePng,
  type ImageProviderFixture,
  renderFixtureImage,
  startImageProviderFixture,
} from '@cartwright/tooling/image-provider-fixture';
import { type PayPalFixture, startPayPalFixture } from '@cartwright/tooling/paypal-fixture';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';
import { accountVariables, registerAccount, saveProviderMethod } from './payment-accounts.ts';

// The admin's catalog and orders areas walked in chromium (decision 0047), in English and German:
// search products, open one, upload images, reorder, choose the cover, write alt text in German,
// make an image draft with the loopback image provider, watch it become ready, review it side by
// side, apply it, save the product and see the entry published; a stale apply shows its message.
// Orders: an order placed and paid through the store API (loopback PayPal fixture) with its
// timeline and payments, its states labelled in the UI language and one moved with its button,
// an invoice created and downloaded, a refund and an over-refund refused. The product's fields
// edited (a German name, an amount as the UI language writes it, an invalid one pinned on its
// field). An upload past the server's default body limit works, one past 8 MiB gets the 413 page.
// A reader sees no edit control and a replayed post changes nothing. axe and screenshots on each.

const API_KEY = 'sk-admin-catalog-test-key-0123456789';
const PROVIDER_METHOD = '0190f0c8-0000-7000-8000-0000000e0a01';
const ACCOUNT_A = { clientId: 'client-admin', webhookId: 'WH-ADMIN', merchantId: 'MERCHANTADM' };

let h: Harness;
let ui: AdminBrowser;
let images: ImageProviderFixture;
let paypal: PayPalFixture;
let imageProvider: ImageProvider;
let payments: PaymentProvider | undefined;
let readerToken: string;
let channelKey: string;
let teaId: string;

const source = renderFixtureImage({ model: 'upload', prompt: 'a plain mug' }, 40, 30).png;
const second = renderFixtureImage({ model: 'upload', prompt: 'a mug from the side' }, 40, 30).png;

type Body = Record<string, unknown>;

function expectOk(response: { status: number; body: unknown }, status = 200): Body {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Body;
}

const staff = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  h.call(method, path, { token: h.shopA.token, body, ...(headers ? { headers } : {}) });

async function newProduct(sku: string, names: Record<string, string>) {
  const body = expectOk(
    await staff('POST', '/api/catalog/products', {
      sku,
      translations: Object.fromEntries(Object.entries(names).map(([language, name]) => [language, { name }])),
      prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
      stockAvailable: 7,
    }),
    201,
  );
  return (body.product as { id: string }).id;
}

interface GalleryEntry {
  id: string;
  assetId: string;
  cover: boolean;
  state: string;
  altTexts: Record<string, string>;
  draftId: string | null;
}
async function galleryOf(productId: string) {
  return expectOk(await staff('GET', `/api/merchant/products/${productId}/media/gallery`)) as {
    revision: number;
    entries: GalleryEntry[];
  };
}

async function ledgerOf(orderId: string) {
  return expectOk(await staff('GET', `/api/orders/${orderId}/payments`)) as {
    paymentState: string;
    attempts: {
      capture: { amount: number } | null;
      balance: { remaining: number } | null;
      refunds: { amount: number }[];
    }[];
  };
}

/** Payments, then flow matching and flow jobs, until nothing is due. */
async function runWorkers() {
  for (let round = 0; round < 20; round++) {
    const ran = await runDuePaymentJobs(h.services, { owner: 'admin-e2e', leaseMs: 30_000, limit: 10 });
    const options = { owner: 'admin-e2e', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
    let matched = 0;
    while ((await consumeOnce(h.services, flowMatchingProjection, options)).tenantId !== null) matched += 1;
    const flows = await runDueJobs(h.services, { owner: 'admin-e2e', leaseMs: 30_000, batchSize: 20 });
    if (ran.ran === 0 && matched === 0 && flows === 0) return;
  }
  throw new Error('the workers did not settle');
}

/** An order of TEA placed through the store API and paid with the provider (approved, captured). */
async function paidOrder(): Promise<{ id: string; number: number }> {
  const token = await h.visitorWithCart(channelKey, [{ productId: teaId, quantity: 2 }]);
  const headers = { 'x-channel-key': channelKey, 'x-context-token': token };
  expectOk(await h.call('PATCH', '/store-api/cart', { headers, body: { paymentMethodId: PROVIDER_METHOD } }));
  const order = expectOk(await h.call('POST', '/store-api/checkout', { headers }), 201) as {
    id: string;
    number: number;
  };
  await runWorkers();
  const payment = expectOk(await h.call('GET', `/store-api/orders/${order.id}/payment`, { headers }));
  const approvalUrl = (payment.attempt as { approvalUrl: string }).approvalUrl;
  const approved = await fetch(approvalUrl, { redirect: 'manual' });
  const back = new URL(approved.headers.get('location')!);
  expect((await h.app.request(`${back.pathname}${back.search}`)).status).toBe(200);
  await runWorkers();
  expect((await ledgerOf(order.id)).paymentState).toBe('paid');
  return { id: order.id, number: order.number };
}

const TEXT = {
  en: {
    moveUp: 'Move image 2 up',
    cover: 'Make image 1 the cover',
    altSave: 'Save alt text of image 1',
    created: 'Draft created',
    ready: 'Ready',
    failed: 'Failed',
    review: 'Review draft',
    apply: 'Apply to the gallery',
    applied: 'Draft applied',
    staged: 'Staged',
    save: 'Save product',
    saved: 'Product saved',
    stale: 'MEDIA_DRAFT_STALE',
    invoice: 'Create invoice',
    invoiceLink: 'Invoice',
    refund: 'Refund',
    refundAmount: '1.00',
    refunded: 'Refund requested',
    overRefund: 'exceeds the remaining',
    note: 'Add note',
    paid: 'Paid',
    open: 'Open',
    toInProgress: 'Set to “In progress”',
    inProgress: 'In progress',
    moved: 'State changed.',
    price: '14.90',
    badPrice: '14,9x',
    amountHint: 'Enter an amount such as 11.90.',
    tooLarge: 'The form sent more than this page accepts (at most 8 MiB)',
  },
  de: {
    moveUp: 'Bild 2 nach oben',
    cover: 'Bild 1 zum Titelbild machen',
    altSave: 'Alternativtext von Bild 1 speichern',
    created: 'Entwurf erstellt',
    ready: 'Fertig',
    failed: 'Fehlgeschlagen',
    review: 'Entwurf prüfen',
    apply: 'In die Galerie übernehmen',
    applied: 'Entwurf übernommen',
    staged: 'Vorgemerkt',
    save: 'Produkt speichern',
    saved: 'Produkt gespeichert',
    stale: 'MEDIA_DRAFT_STALE',
    invoice: 'Rechnung erstellen',
    invoiceLink: 'Rechnung',
    refund: 'Erstatten',
    refundAmount: '1,00',
    refunded: 'Erstattung angefordert',
    overRefund: 'exceeds the remaining',
    note: 'Notiz hinzufügen',
    paid: 'Bezahlt',
    open: 'Offen',
    toInProgress: 'Auf „In Bearbeitung“ setzen',
    inProgress: 'In Bearbeitung',
    moved: 'Status geändert.',
    price: '14,90',
    badPrice: '14.9x',
    amountHint: 'Geben Sie einen Betrag wie 11,90 ein.',
    tooLarge: 'Das Formular hat mehr gesendet, als diese Seite annimmt (höchstens 8 MiB)',
  },
} as const;

/** Screenshot and axe: no serious violation, no CSP refusal. */
async function check(page: Page, name: string, refused: string[]) {
  await ui.shot(page, name);
  expect(await ui.seriousViolations(page)).toEqual([]);
  expect(refused).toEqual([]);
}

describe.skipIf(browserSkipped)('the admin catalog and orders in chromium', () => {
  beforeAll(async () => {
    images = await startImageProviderFixture({ apiKey: API_KEY, renderSize: { width: 32, height: 24 } });
    paypal = await startPayPalFixture();
    imageProvider = createHttpImageProvider(
      { apiKey: API_KEY, baseUrl: images.url, model: 'gpt-image-1' },
      { timeoutMs: 5_000 },
    );
    h = await createHarness({
      ports: { imageProvider },
      payments: {
        get provider() {
          if (!payments) {
            registerAccount(paypal, ACCOUNT_A);
            payments = paymentServicesOf(
              accountVariables(paypal, { [h.shopA.tenantId]: ACCOUNT_A }),
            ).provider;
          }
          return payments;
        },
        publicBaseUrl: 'http://127.0.0.1:3000',
      },
    });
    await saveProviderMethod(h, PROVIDER_METHOD);
    // Documents print the seller's details.
    expectOk(await staff('PUT', '/api/company', { revision: 0, data: { name: 'Seller AG' } }));
    ({ productId: teaId, channelKey } = await h.sellableTea());
    expect((await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(
      200,
    );
    readerToken = await h.readerToken('reader@catalog.test');
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
    await images?.close();
    await paypal?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    const text = TEXT[locale];

    it('searches products, edits a gallery, makes, reviews and applies an image draft, saves the product', async () => {
      const sku = `MUG-${locale.toUpperCase()}`;
      const productId = await newProduct(sku, { en: `Mug ${locale}`, de: `Becher ${locale}` });
      await newProduct(`CUP-${locale.toUpperCase()}`, { en: `Cup ${locale}` });
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.click('nav a[href="/admin/products"]');
        await page.waitForURL(/\/admin\/products$/);
        await page.fill('#product-search', `mug ${locale}`);
        await page.press('#product-search', 'Enter');
        await page.waitForURL(/search=/);
        // The search matched the name: this locale's mug and nothing else.
        expect(await page.locator('table.data tbody tr').count()).toBe(1);
        expect(await page.textContent('table.data tbody')).toContain(sku);
        await check(page, `catalog-${locale}-01-products-search`, refused);

        await page.click(`a[href="/admin/products/${productId}"]`);
        await page.waitForURL(new RegExp(`/admin/products/${productId}$`));
        expect(await page.inputValue('#product-name')).toBe(`Mug ${locale}`);
        expect(await page.inputValue('#product-sku')).toBe(sku);

        // Two uploads (multipart), the first with an English alt text.
        await page.setInputFiles('#upload-file', {
          name: 'mug.png',
          mimeType: 'image/png',
          buffer: Buffer.from(source),
        });
        await page.fill('#upload-alt', 'A plain mug');
        await page.click('form[enctype="multipart/form-data"] button[type="submit"]');
        await page.locator('li.gallery-entry').first().waitFor();
        await page.setInputFiles('#upload-file', {
          name: 'side.png',
          mimeType: 'image/png',
          buffer: Buffer.from(second),
        });
        await page.click('form[enctype="multipart/form-data"] button[type="submit"]');
        await page.locator('li.gallery-entry').nth(1).waitFor();
        let gallery = await galleryOf(productId);
        expect(gallery.entries).toHaveLength(2);
        const [first, other] = gallery.entries as [GalleryEntry, GalleryEntry];
        expect(first.cover).toBe(true);
        expect(first.altTexts).toEqual({ en: 'A plain mug' });
        // The images load through the admin's own route (the asset's bytes), never a public URL.
        const shown = await page.locator('li.gallery-entry img').first().getAttribute('src');
        expect(shown).toBe(`/admin/products/${productId}/assets/${first.assetId}`);
        expect(
          await page
            .locator('li.gallery-entry img')
            .first()
            .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
        ).toBe(40);
        await check(page, `catalog-${locale}-02-product-gallery`, refused);

        // Reorder with the keyboard: focus "move image 2 up" and press Enter.
        await page.getByRole('button', { name: text.moveUp }).focus();
        await page.keyboard.press('Enter');
        await page
          .locator('li.gallery-entry')
          .first()
          .and(page.locator(`[data-entry="${other.id}"]`))
          .waitFor();
        gallery = await galleryOf(productId);
        expect(gallery.entries.map((entry) => entry.id)).toEqual([other.id, first.id]);
        // The moved image becomes the cover.
        await page.getByRole('button', { name: text.cover }).click();
        await page.locator('li.gallery-entry').first().locator('.badge.overridden').waitFor();
        gallery = await galleryOf(productId);
        expect(gallery.entries.find((entry) => entry.cover)?.id).toBe(other.id);

        // Alt text in German: the content language chosen above, the field follows it.
        await page.selectOption('#content-language', 'de');
        await page.click('form.language-bar button[type="submit"]');
        await page.waitForURL(/language=de/);
        expect(await page.inputValue('#product-name')).toBe(`Becher ${locale}`);
        await page.fill(`#alt-${other.id}`, 'Ein Becher von der Seite');
        await ui.answer(page, () => page.getByRole('button', { name: text.altSave }).click());
        await page.locator('[role="status"]').waitFor();
        gallery = await galleryOf(productId);
        expect(gallery.entries[0]!.altTexts).toEqual({ de: 'Ein Becher von der Seite' });
        expect(gallery.entries[1]!.altTexts).toEqual({ en: 'A plain mug' });
        await check(page, `catalog-${locale}-03-gallery-edited`, refused);

        // An image draft from the first image: pending, then ready once the media worker drew it.
        await page.fill('#draft-instruction', 'Put the mug on a wooden table');
        await page.selectOption('#draft-source', other.assetId);
        await page.click('form[action*="/drafts"] button[type="submit"]');
        await page.locator('#drafts-list tr[data-status="pending"]').waitFor();
        expect(await page.textContent('[role="status"]')).toContain(text.created);
        await check(page, `catalog-${locale}-04-draft-pending`, refused);
        await runDueMediaDrafts(h.services, { owner: 'admin-e2e', leaseMs: 30_000, limit: 10 });
        // The list asks for itself every 3 s: the same row turns ready without a reload.
        const url = page.url();
        await page.locator('#drafts-list tr[data-status="ready"]').waitFor({ timeout: 20_000 });
        expect(page.url()).toBe(url);
        expect(await page.textContent('#drafts-list')).toContain(text.ready);
        await check(page, `catalog-${locale}-05-draft-ready`, refused);

        // Review: the source and the draft side by side, both loaded through admin routes.
        await page.getByRole('link', { name: text.review }).click();
        await page.waitForURL(/\/drafts\/[0-9a-f-]+$/);
        // Read until both images are decoded (the page can be there before them).
        await expect
          .poll(
            () =>
              page
                .locator('.side-by-side img')
                .evaluateAll((all) =>
                  all.map((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
                ),
            { timeout: 20_000 },
          )
          .toEqual([40, 32]);
        await check(page, `catalog-${locale}-06-draft-review`, refused);
        await page.getByRole('button', { name: text.apply }).click();
        await page.locator('[role="status"]', { hasText: text.applied }).waitFor();
        gallery = await galleryOf(productId);
        const staged = gallery.entries.find((entry) => entry.state === 'staged');
        expect(staged?.draftId).toBeTruthy();
        expect(
          await page.locator(`li.gallery-entry[data-entry="${staged!.id}"] .badge`).allTextContents(),
        ).toEqual([expect.stringContaining(text.staged)]);
        await check(page, `catalog-${locale}-07-draft-applied-staged`, refused);

        // Saving the product publishes the staged entry.
        await page.getByRole('button', { name: text.save }).click();
        await page.locator('[role="status"]', { hasText: text.saved }).waitFor();
        gallery = await galleryOf(productId);
        expect(gallery.entries.map((entry) => entry.state)).toEqual(['published', 'published', 'published']);
        expect(await page.locator('li.gallery-entry[data-state="staged"]').count()).toBe(0);
        await check(page, `catalog-${locale}-08-saved`, refused);

        // The product's fields: a German name (the content language), the gross price as the UI
        // language writes amounts, the stock. A malformed amount is pinned on its field first.
        await page.selectOption('#content-language', 'de');
        await page.click('form.language-bar button[type="submit"]');
        await page.waitForURL(/language=de/);
        expect(await page.inputValue('#product-name')).toBe(`Becher ${locale}`);
        await page.fill('#product-name', `Großer Becher ${locale}`);
        await page.fill('#product-price-EUR-gross', text.badPrice);
        await page.fill('#product-stock', '9');
        await page.getByRole('button', { name: text.save }).click();
        await page.locator('#product-price-EUR-gross[aria-invalid="true"]').waitFor();
        expect(await page.textContent('#product-price-EUR-gross-error')).toBe(text.amountHint);
        // The entries stay as typed; nothing was saved.
        expect(await page.inputValue('#product-name')).toBe(`Großer Becher ${locale}`);
        const unsaved = expectOk(await staff('GET', `/api/catalog/products/${productId}`)) as {
          product: { stockAvailable: number };
        };
        expect(unsaved.product.stockAvailable).toBe(7);
        await check(page, `catalog-${locale}-12-product-field-error`, refused);
        await page.fill('#product-price-EUR-gross', text.price);
        await page.getByRole('button', { name: text.save }).click();
        await page.locator('[role="status"]', { hasText: text.saved }).waitFor();
        const edited = expectOk(await staff('GET', `/api/catalog/products/${productId}`)) as {
          product: {
            stockAvailable: number;
            prices: { gross: number; net: number }[];
            translations: Record<string, { name?: string }>;
          };
        };
        expect(edited.product.stockAvailable).toBe(9);
        expect(edited.product.prices).toEqual([{ currency: 'EUR', gross: 1490, net: 1000 }]);
        expect(edited.product.translations.de?.name).toBe(`Großer Becher ${locale}`);
        expect(edited.product.translations.en?.name).toBe(`Mug ${locale}`);
        expect(await page.inputValue('#product-name')).toBe(`Großer Becher ${locale}`);
        await check(page, `catalog-${locale}-13-product-edited`, refused);
      } finally {
        await context.close();
      }
    });

    it('uploads an image past the server’s default body limit; a body past 8 MiB gets the 413 page', async () => {
      const productId = await newProduct(`BIG-${locale.toUpperCase()}`, { en: `Big ${locale}` });
      // Random pixels do not compress: about 2.4 MiB, past the 1 MiB every other admin post keeps.
      const big = encodePng(800, 800, randomBytes(800 * 800 * 4));
      expect(big.byteLength).toBeGreaterThan(2 * 1024 * 1024);
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/products/${productId}`);
        await page.setInputFiles('#upload-file', { name: 'big.png', mimeType: 'image/png', buffer: big });
        await page.click('form[enctype="multipart/form-data"] button[type="submit"]');
        await page.locator('li.gallery-entry img').waitFor();
        expect((await galleryOf(productId)).entries).toHaveLength(1);
        await page.setInputFiles('#upload-file', {
          name: 'huge.png',
          mimeType: 'image/png',
          buffer: Buffer.alloc(9 * 1024 * 1024),
        });
        await page.click('form[enctype="multipart/form-data"] button[type="submit"]');
        await page.locator('[role="alert"]', { hasText: text.tooLarge }).waitFor();
        expect((await galleryOf(productId)).entries).toHaveLength(1);
        await check(page, `catalog-${locale}-14-upload-too-large`, refused);
      } finally {
        await context.close();
      }
    });

    it('shows a stale apply’s message and applies nothing', async () => {
      const productId = await newProduct(`STALE-${locale.toUpperCase()}`, { en: `Stale ${locale}` });
      const asset = expectOk(
        await staff('POST', `/api/merchant/products/${productId}/media/assets`, {
          contentBase64: Buffer.from(source).toString('base64'),
        }),
        201,
      );
      const draft = expectOk(
        await staff('POST', `/api/merchant/products/${productId}/media/jobs`, {
          assetId: asset.id,
          mode: 'optimize',
          instruction: 'brighter',
        }),
        201,
      );
      await runDueMediaDrafts(h.services, { owner: 'admin-e2e', leaseMs: 30_000, limit: 10 });
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/products/${productId}/drafts/${draft.id}`);
        // Someone edits the product after the review page was rendered.
        const current = expectOk(await staff('GET', `/api/catalog/products/${productId}`)) as {
          product: { revision: number };
        };
        expectOk(
          await staff('PATCH', `/api/catalog/products/${productId}`, {
            revision: current.product.revision,
            stockAvailable: 3,
          }),
        );
        await ui.answer(page, () => page.getByRole('button', { name: text.apply }).click());
        await page.locator('[role="alert"]').first().waitFor();
        // The operation's own message (MEDIA_DRAFT_STALE), shown on the review page.
        expect(await page.locator('[role="alert"]').first().textContent()).toContain('Create a new draft');
        expect((await galleryOf(productId)).entries).toHaveLength(0);
        const after = expectOk(await staff('GET', `/api/merchant/media/jobs/${draft.id}`));
        expect(after.status).toBe('ready');
        await check(page, `catalog-${locale}-09-stale-apply`, refused);
      } finally {
        await context.close();
      }
    });

    it('watches a draft the provider refuses turn failed, with its reason', async () => {
      const productId = await newProduct(`FAIL-${locale.toUpperCase()}`, { en: `Fail ${locale}` });
      const added = expectOk(
        await staff('POST', `/api/merchant/products/${productId}/media/gallery`, {
          contentBase64: Buffer.from(source).toString('base64'),
        }),
        201,
      );
      const { gallery } = added as { gallery: { entries: GalleryEntry[] } };
      images.failNext({ kind: 'refuse', status: 400, code: 'content_policy_violation' });
      const draft = expectOk(
        await staff('POST', `/api/merchant/products/${productId}/media/jobs`, {
          assetId: gallery.entries[0]!.assetId,
          mode: 'generate',
          instruction: 'something the provider refuses',
        }),
        201,
      );
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/products/${productId}`);
        await page.locator(`#drafts-list tr[data-draft="${draft.id}"][data-status="pending"]`).waitFor();
        await runDueMediaDrafts(h.services, { owner: 'admin-e2e', leaseMs: 30_000, limit: 10 });
        // merchant.media.list drops failed drafts; the polled list still shows the one it watched.
        const row = page.locator(`#drafts-list tr[data-draft="${draft.id}"][data-status="failed"]`);
        await row.waitFor({ timeout: 20_000 });
        expect(await row.textContent()).toContain(text.failed);
        expect(expectOk(await staff('GET', `/api/merchant/media/jobs/${draft.id}`)).status).toBe('failed');
        await check(page, `catalog-${locale}-11-draft-failed`, refused);
      } finally {
        await context.close();
      }
    });

    it('opens an order placed through the store API: timeline, payments, invoice, refunds', async () => {
      const order = await paidOrder();
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.click('nav a[href="/admin/orders"]');
        await page.waitForURL(/\/admin\/orders$/);
        await check(page, `orders-${locale}-01-list`, refused);
        await page.click(`a[href="/admin/orders/${order.id}"]`);
        await page.waitForURL(new RegExp(`/admin/orders/${order.id}$`));
        // The timeline has the order's activity, the payments ledger its captured attempt.
        expect(await page.locator('ol.timeline li').count()).toBeGreaterThan(0);
        const ledger = await ledgerOf(order.id);
        const captured = ledger.attempts[0]!.capture!.amount!;
        expect(await page.getAttribute('[data-remaining]', 'data-remaining')).toBe(String(captured));
        await check(page, `orders-${locale}-02-order`, refused);

        // The states in the UI language, and a move the order machine allows from "open".
        expect(await page.textContent('dd[data-state="paid"]')).toBe(text.paid);
        expect(await page.textContent('dl.facts')).not.toContain('paid');
        expect(
          await page
            .locator('fieldset[data-machine="order"] button')
            .evaluateAll((all) => all.map((button) => button.getAttribute('data-to'))),
        ).toEqual(['in_progress', 'cancelled']);
        await page.getByRole('button', { name: text.toInProgress }).click();
        await page.locator('[role="status"]', { hasText: text.moved }).waitFor();
        expect(await page.textContent('dd[data-state="in_progress"]')).toBe(text.inProgress);
        const moved = expectOk(await staff('GET', `/api/orders/${order.id}`)) as { order: { state: string } };
        expect(moved.order.state).toBe('in_progress');
        await check(page, `orders-${locale}-05-state-moved`, refused);

        // An invoice, listed and downloaded as a PDF through the admin's route.
        await page.getByRole('button', { name: text.invoice }).click();
        const link = page.locator('a[href*="/documents/"]').first();
        await link.waitFor();
        expect(await link.textContent()).toContain(text.invoiceLink);
        const pdf = await context.request.get(`${ui.base}${await link.getAttribute('href')}`);
        expect(pdf.status()).toBe(200);
        expect(pdf.headers()['content-type']).toBe('application/pdf');
        expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
        const documents = expectOk(await staff('GET', `/api/orders/${order.id}/documents`)) as {
          items: { type: string }[];
        };
        expect(documents.items.map((item) => item.type)).toEqual(['invoice']);

        // A note on the timeline.
        await page.fill('#order-note', 'Called the customer');
        await page.getByRole('button', { name: text.note }).click();
        await page.locator('ol.timeline li', { hasText: 'Called the customer' }).waitFor();

        // A refund of 1.00 in the UI language's notation, then one beyond the balance is refused.
        await page.fill('#refund-amount', text.refundAmount);
        await page.getByRole('button', { name: text.refund, exact: true }).click();
        await page.locator('[role="status"]', { hasText: text.refunded }).waitFor();
        let after = await ledgerOf(order.id);
        expect(after.attempts[0]!.refunds.map((refund) => refund.amount)).toEqual([100]);
        const remaining = after.attempts[0]!.balance!.remaining;
        await page.fill(
          '#refund-amount',
          String(remaining / 100 + 1).replace('.', locale === 'de' ? ',' : '.'),
        );
        await page.getByRole('button', { name: text.refund, exact: true }).click();
        await page.locator('[role="alert"]').waitFor();
        expect(await page.textContent('[role="alert"]')).toContain(text.overRefund);
        after = await ledgerOf(order.id);
        expect(after.attempts[0]!.refunds).toHaveLength(1);
        await check(page, `orders-${locale}-03-refund-refused`, refused);
      } finally {
        await context.close();
      }
    });

    it('shows a reader no edit control and refuses the reader’s replayed posts', async () => {
      const productId = await newProduct(`READ-${locale.toUpperCase()}`, { en: `Read ${locale}` });
      expectOk(
        await staff('POST', `/api/merchant/products/${productId}/media/gallery`, {
          contentBase64: Buffer.from(source).toString('base64'),
        }),
        201,
      );
      const order = (expectOk(await staff('GET', '/api/orders?limit=1')).items as { id: string }[])[0]!;
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, readerToken);
        await page.goto(`${ui.base}/admin/products/${productId}`);
        await page.locator('li.gallery-entry img').waitFor();
        expect(await page.locator('main form[method="post"]').count()).toBe(0);
        expect(await page.locator('main input[type="file"], main textarea').count()).toBe(0);
        await check(page, `catalog-${locale}-10-reader`, refused);
        await page.goto(`${ui.base}/admin/orders/${order.id}`);
        expect(await page.locator('main form[method="post"]').count()).toBe(0);
        await check(page, `orders-${locale}-04-reader`, refused);

        // The reader's own session and CSRF token, the owner's forms: the operations refuse them.
        const csrf = (await page.getAttribute('form[action="/admin/sign-out"] input[name="csrf"]', 'value'))!;
        const gallery = await galleryOf(productId);
        const post = (path: string, form: Record<string, string>) =>
          context.request.post(`${ui.base}${path}`, {
            headers: { origin: ui.base },
            form: { csrf, ...form },
          });
        const answers = await Promise.all([
          post(`/admin/products/${productId}/gallery/remove`, {
            revision: String(gallery.revision),
            entryId: gallery.entries[0]!.id,
          }),
          post(`/admin/products/${productId}/save`, { revision: '1' }),
          post(`/admin/orders/${order.id}/documents`, { type: 'invoice' }),
          post(`/admin/orders/${order.id}/refunds`, {
            amount: '1',
            idempotencyKey: 'admin-refund-reader-01',
          }),
        ]);
        expect(answers.map((answer) => answer.status())).toEqual([403, 403, 403, 403]);
        expect((await galleryOf(productId)).revision).toBe(gallery.revision);
      } finally {
        await context.close();
      }
    });
  });
});
