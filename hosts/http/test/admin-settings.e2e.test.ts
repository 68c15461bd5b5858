import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// The channel settings' own fields, company identity and channel creation walked in chromium
// (admin-browser.ts), in English and German: create a channel from the settings page, rename it
// and give it a domain, override one company field and reset it, remove the domain, delete the
// channel. axe on each page, no CSP report, screenshots `settings-<locale>-*.png`. Decision 0047.

let h: Harness;
let ui: AdminBrowser;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

async function readChannel(id: string) {
  const read = await staff('GET', `/api/merchant/commerce/channels/${id}`);
  expect(read.status).toBe(200);
  return read.body as {
    revision: number;
    channel: { name: Record<string, string>; mode: string; languages: string[]; domains: unknown[] };
    overrides: Record<string, unknown>;
    provenance: Record<string, string>;
  };
}

/** The channel form's own Save (the company, delete and reset forms have their own). */
const SAVE = 'form[action*="?language="][method="post"] > button[type="submit"]';

describe.skipIf(browserSkipped)('the channel settings in chromium', () => {
  beforeAll(async () => {
    h = await createHarness();
    await h.sellableTea();
    expect((await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(
      200,
    );
    expect(
      (await staff('PUT', '/api/company', { revision: 0, data: { name: 'Tea GmbH', vatId: 'DE123456789' } }))
        .status,
    ).toBe(200);
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  const TEXT = {
    en: {
      saved: 'Saved',
      deleted: 'The channel was deleted.',
      inherited: 'inherited',
      overridden: 'overridden',
    },
    de: {
      saved: 'Gespeichert',
      deleted: 'Der Kanal wurde gelöscht.',
      inherited: 'geerbt',
      overridden: 'überschrieben',
    },
  } as const;

  it.each(['en', 'de'] as const)(
    'in %s: creates a channel, renames it and edits its domains, overrides a company field and resets it, deletes it',
    async (locale) => {
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/settings`);
        await ui.shot(page, `settings-${locale}-01-list`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // A new channel: name in the UI language, headless, German only.
        await page.fill('#new-channel-name', `Outlet ${locale}`);
        await page.selectOption('#new-channel-mode', 'headless');
        await page.uncheck('#f-language-en');
        await page.check('#f-language-de');
        await page.click('form[action="/admin/settings/channels"] button[type="submit"]');
        await page.waitForURL(/\/admin\/settings\/channels\/[0-9a-f-]{36}\?saved=1$/);
        const id = /channels\/([0-9a-f-]{36})/.exec(page.url())![1]!;
        expect(await page.textContent('[role="status"]')).toContain(TEXT[locale].saved);
        const created = await readChannel(id);
        expect(created.channel).toMatchObject({
          name: { [locale]: `Outlet ${locale}` },
          mode: 'headless',
          languages: ['de'],
          domains: [],
        });
        expect(await page.inputValue('#f-channel-name')).toBe(`Outlet ${locale}`);
        await ui.shot(page, `settings-${locale}-02-created`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // Rename it and add a domain in the blank row.
        await page.fill('#f-channel-name', `Outlet ${locale} B2B`);
        await page.fill('#f-domain-0-url', `https://outlet-${locale}.example`);
        await page.selectOption('#f-domain-0-language', 'de');
        await page.selectOption('#f-domain-0-currency', 'EUR');
        await ui.answer(page, () => page.click(SAVE));
        await page.waitForSelector('[role="status"]');
        const renamed = await readChannel(id);
        expect(renamed.channel.name).toEqual({ [locale]: `Outlet ${locale} B2B` });
        expect(renamed.channel.domains).toEqual([
          { url: `https://outlet-${locale}.example`, language: 'de', currency: 'EUR' },
        ]);
        expect(renamed.overrides).toEqual({});
        // The saved row shows, and a new blank row below it.
        expect(await page.inputValue('#f-domain-0-url')).toBe(`https://outlet-${locale}.example`);
        expect(await page.inputValue('#f-domain-1-url')).toBe('');

        // The company identity is inherited field by field: override the VAT ID only.
        const vat = page.locator('[data-field="company.legal.vatId"]');
        expect(await vat.locator('.badge.inherited').textContent()).toBe(TEXT[locale].inherited);
        expect(await page.inputValue('#f-company-legal-vatId')).toBe('DE123456789');
        await page.fill('#f-company-legal-vatId', 'ATU12345678');
        await ui.answer(page, () => page.click(SAVE));
        await page.waitForSelector('[role="status"]');
        expect((await readChannel(id)).overrides).toEqual({ company: { legal: { vatId: 'ATU12345678' } } });
        expect(await vat.locator('.badge.overridden').textContent()).toBe(TEXT[locale].overridden);
        expect(await page.locator('[data-field="company.name"] .badge.inherited').count()).toBe(1);
        await ui.shot(page, `settings-${locale}-03-company-overridden`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // Reset it to inherited: the override goes.
        await ui.answer(page, () => vat.locator('button[name="reset"]').click());
        await page.waitForSelector('[role="status"]');
        expect((await readChannel(id)).overrides).toEqual({});
        expect(await page.inputValue('#f-company-legal-vatId')).toBe('DE123456789');
        expect(await vat.locator('button[name="reset"]').count()).toBe(0);

        // Remove the domain.
        await page.check('#f-domain-0-remove');
        await ui.answer(page, () => page.click(SAVE));
        await page.waitForSelector('[role="status"]');
        expect((await readChannel(id)).channel.domains).toEqual([]);

        // Delete the channel (the box confirms it).
        await page.check('#f-delete-confirm');
        await page.click(`form[action="/admin/settings/channels/${id}/delete"] button[type="submit"]`);
        await page.waitForURL(/\/admin\/settings\?deleted=1$/);
        expect(await page.textContent('[role="status"]')).toContain(TEXT[locale].deleted);
        expect((await staff('GET', `/api/merchant/commerce/channels/${id}`)).status).toBe(404);
        await ui.shot(page, `settings-${locale}-04-deleted`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
