import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// The shop's shipping and payment methods walked in chromium (decision 0047), in English and
// German: from the settings page to the methods, a shipping method added with a price typed as
// the UI language writes amounts (a mistyped amount first pinned to its field), seen in the list
// and in the API, deactivated, removed after the page said nothing uses it; a payment method
// added. axe on every screen, no CSP report, screenshots `methods-<locale>-*.png`.

let h: Harness;
let ui: AdminBrowser;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

interface StoredMethod {
  id: string;
  active: boolean;
  handler?: string;
  prices?: { currency: string; gross: number; net: number }[];
  translations: Record<string, { name?: string | null }>;
}
async function stored(area: 'shipping' | 'payment'): Promise<StoredMethod[]> {
  const listed = await staff('GET', `/api/basis/${area}-methods`);
  expect(listed.status).toBe(200);
  return listed.body.items as StoredMethod[];
}

const TEXT = {
  en: {
    title: 'Shipping and payment methods',
    addShipping: 'Add shipping method',
    addPayment: 'Add payment method',
    gross: '5.90',
    net: '4.96',
    badAmount: '5.999',
    amountError: 'Not an amount in EUR',
    shown: '€5.90',
    inactive: 'inactive',
    free: 'Nothing uses this method',
    removed: 'The method was removed.',
    created: 'Added.',
  },
  de: {
    title: 'Versand- und Zahlungsarten',
    addShipping: 'Versandart hinzufügen',
    addPayment: 'Zahlungsart hinzufügen',
    gross: '5,90',
    net: '4,96',
    badAmount: '5,999',
    amountError: 'Kein Betrag in EUR',
    shown: '5,90\u00a0€',
    inactive: 'inaktiv',
    free: 'Nichts verwendet diese Art',
    removed: 'Die Art wurde entfernt.',
    created: 'Hinzugefügt.',
  },
} as const;

describe.skipIf(browserSkipped)('the admin methods area in chromium', () => {
  beforeAll(async () => {
    h = await createHarness();
    await h.sellableTea();
    expect(
      (await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch', active: true })).status,
    ).toBe(200);
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('adds a shipping method with a price, lists it, deactivates and removes it; adds a payment method', async () => {
      const text = TEXT[locale];
      const name = `Express ${locale}`;
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        expect(await page.evaluate('typeof window.htmx')).toBe('object');
        await page.click('nav a[href="/admin/settings"]');
        await page.waitForURL(/\/admin\/settings$/);
        await page.click('a[href="/admin/settings/methods"]');
        await page.waitForURL(/\/admin\/settings\/methods$/);
        expect(await page.textContent('h1')).toBe(text.title);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `methods-${locale}-01-list`);

        // Add: a mistyped amount is pinned to its field, the entries kept; then corrected.
        await page.click(`a:text("${text.addShipping}")`);
        await page.waitForURL(/\/shipping\/new$/);
        await page.fill('#f-name-en', name);
        // The UI language's name field is there when the shop has the language (de), beside the main one (en).
        expect(await page.locator('#f-name-de').count()).toBe(locale === 'de' ? 1 : 0);
        if (locale === 'de') await page.fill('#f-name-de', `Eilversand ${locale}`);
        await page.fill('#f-price-EUR-gross', text.badAmount);
        await page.fill('#f-price-EUR-net', text.net);
        await page.selectOption('#f-taxClassId', SELLABLE.standardTax);
        await page.click('form.method-form button[type="submit"]');
        await page.locator('#f-price-EUR-gross-error').waitFor();
        expect(await page.textContent('#f-price-EUR-gross-error')).toContain(text.amountError);
        expect(await page.inputValue('#f-name-en')).toBe(name);
        expect(await page.getAttribute('#f-price-EUR-gross', 'aria-invalid')).toBe('true');
        expect((await stored('shipping')).some((method) => method.translations.en?.name === name)).toBe(
          false,
        );
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `methods-${locale}-02-pinned`);
        await page.fill('#f-price-EUR-gross', text.gross);
        await page.click('form.method-form button[type="submit"]');
        await page.waitForURL(/\/shipping\/[0-9a-f-]{36}\?created=1$/);
        expect(await page.textContent('[role="status"]')).toContain(text.created);
        const id = /\/shipping\/([0-9a-f-]{36})/.exec(page.url())![1]!;
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `methods-${locale}-03-detail`);
        // The API reads what the form wrote.
        const added = (await stored('shipping')).find((method) => method.id === id);
        expect(added).toMatchObject({ active: true, prices: [{ currency: 'EUR', gross: 590, net: 496 }] });

        // Listed with its price, then deactivated from the list.
        await page.click('main a[href="/admin/settings/methods"]');
        await page.waitForURL(/\/admin\/settings\/methods$/);
        const row = page.locator(`tr[data-method="${id}"]`);
        expect(await row.textContent()).toContain(text.shown);
        await row.locator('button[type="submit"]').click();
        await page.waitForURL(/deactivated=/);
        expect(await page.locator(`tr[data-method="${id}"] td`).first().textContent()).toBe(text.inactive);
        expect((await stored('shipping')).find((method) => method.id === id)?.active).toBe(false);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `methods-${locale}-04-deactivated`);

        // Removed after the page says nothing uses it.
        await page.click(`tr[data-method="${id}"] th a`);
        await page.waitForURL(new RegExp(`/shipping/${id}$`));
        await page.click(`a[href="/admin/settings/methods/shipping/${id}/remove"]`);
        await page.waitForURL(/\/remove$/);
        expect(await page.textContent('main')).toContain(text.free);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `methods-${locale}-05-remove`);
        await page.click(
          `form[action="/admin/settings/methods/shipping/${id}/remove"] button[type="submit"]`,
        );
        await page.waitForURL(/removed=1$/);
        expect(await page.textContent('[role="status"]')).toContain(text.removed);
        expect((await stored('shipping')).some((method) => method.id === id)).toBe(false);

        // A payment method.
        await page.click(`a:text("${text.addPayment}")`);
        await page.waitForURL(/\/payments\/new$/);
        await page.fill('#f-name-en', `Prepay ${locale}`);
        await page.selectOption('#f-handler', 'prepayment');
        await page.click('form.method-form button[type="submit"]');
        await page.waitForURL(/\/payments\/[0-9a-f-]{36}\?created=1$/);
        const payment = (await stored('payment')).find(
          (method) => method.translations.en?.name === `Prepay ${locale}`,
        );
        expect(payment).toMatchObject({ handler: 'prepayment', active: true });
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `methods-${locale}-06-payment`);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
