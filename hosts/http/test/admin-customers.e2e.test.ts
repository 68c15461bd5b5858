import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createCustomersShop, customerByEmail } from './customers-fixture.ts';
import type { Harness } from './harness.ts';

// The customers area walked in chromium (decision 0047), in English and German: from the
// navigation to the list and a search, a customer added (a missing first name first pinned to its
// field), edited, given an address, then deleted behind the confirmation box; a customer with an
// order shows it and the operation's refusal to delete them. axe on every screen, no CSP report,
// screenshots `customers-<locale>-*.png`.

let h: Harness;
let ui: AdminBrowser;
let buyerId: string;
let orderId: string;
let buyerEmail: string;

const byEmail = (email: string) => customerByEmail(h, email);

const TEXT = {
  en: {
    nav: 'Customers',
    add: 'Add customer',
    pinned: 'must not be empty',
    created: 'The customer was added.',
    saved: 'Saved',
    addAddress: 'Add address',
    addressSaved: 'The address was saved.',
    deleted: 'The customer was deleted.',
    refused: 'The customer was not deleted',
    order: 'Order',
  },
  de: {
    nav: 'Kunden',
    add: 'Kunde anlegen',
    pinned: 'must not be empty',
    created: 'Der Kunde wurde angelegt.',
    saved: 'Gespeichert',
    addAddress: 'Adresse hinzufügen',
    addressSaved: 'Die Adresse wurde gespeichert.',
    deleted: 'Der Kunde wurde gelöscht.',
    refused: 'Der Kunde wurde nicht gelöscht',
    order: 'Bestellung',
  },
} as const;

describe.skipIf(browserSkipped)('the admin customers area in chromium', () => {
  beforeAll(async () => {
    ({ h, buyerId, buyerEmail, orderId } = await createCustomersShop());
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('lists and searches, adds, edits, gives an address, deletes; shows a refusal to delete a buyer', async () => {
      const text = TEXT[locale];
      const email = `walk-${locale}@customers.test`;
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.click('nav a[href="/admin/customers"]');
        await page.waitForURL(/\/admin\/customers$/);
        expect(await page.textContent('h1')).toBe(text.nav);
        expect(await page.locator(`tr[data-customer="${buyerId}"]`).count()).toBe(1);
        await page.fill('#customer-search', 'lovelace');
        await ui.answer(page, () => page.click('form[action="/admin/customers"] button[type="submit"]'));
        expect(page.url()).toContain('search=lovelace');
        expect(await page.locator('tr[data-customer]').count()).toBe(1);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `customers-${locale}-01-list`);

        // Add: a missing first name is pinned to its field, the entries kept; then corrected.
        await page.click(`main a:text("${text.add}")`);
        await page.waitForURL(/\/admin\/customers\/new$/);
        await page.fill('#f-email', email);
        await page.fill('#f-lastName', 'Hopper');
        await page.fill('#f-tags', 'vip, navy');
        await ui.answer(page, () => page.click('form.customer-form button[type="submit"]'));
        expect(await page.textContent('#f-firstName-error')).toContain(text.pinned);
        expect(await page.getAttribute('#f-firstName', 'aria-invalid')).toBe('true');
        expect(await page.inputValue('#f-email')).toBe(email);
        expect(await byEmail(email)).toBeUndefined();
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `customers-${locale}-02-pinned`);
        await page.fill('#f-firstName', 'Grace');
        await ui.answer(page, () => page.click('form.customer-form button[type="submit"]'));
        await page.waitForURL(/\/admin\/customers\/[0-9a-f-]{36}\?done=created$/);
        expect(await page.textContent('[role="status"]')).toContain(text.created);
        const id = /\/admin\/customers\/([0-9a-f-]{36})/.exec(page.url())![1]!;
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `customers-${locale}-03-created`);

        // Edit a field.
        await page.fill('#f-lastName', 'Hopper-Murray');
        await ui.answer(page, () => page.click('form.customer-form button[type="submit"]'));
        await page.waitForURL(/\?done=saved$/);
        expect(await page.textContent('[role="status"]')).toContain(text.saved);
        expect((await byEmail(email))?.lastName).toBe('Hopper-Murray');

        // An address: the add form opened, filled, saved; listed on the page and read by the API.
        await page.click(`#new-address summary`);
        await page.fill('#new-address [name="firstName"]', 'Grace');
        await page.fill('#new-address [name="lastName"]', 'Hopper');
        await page.fill('#new-address [name="street"]', 'Navy Yard 1');
        await page.fill('#new-address [name="zipcode"]', '10115');
        await page.fill('#new-address [name="city"]', 'Berlin');
        expect(await page.inputValue('#new-address [name="country"]')).toBe('DE');
        await ui.answer(page, () => page.click('#new-address button[type="submit"]'));
        await page.waitForURL(/\?done=address$/);
        expect(await page.textContent('[role="status"]')).toContain(text.addressSaved);
        expect(await page.textContent('#addresses')).toContain('Navy Yard 1');
        expect((await byEmail(email))?.addresses.map((entry) => entry.address.street)).toEqual([
          'Navy Yard 1',
        ]);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `customers-${locale}-04-address`);

        // Deleted behind the confirmation box.
        await page.check('#f-delete-confirm');
        await ui.answer(page, () =>
          page.click(`form[action="/admin/customers/${id}/delete"] button[type="submit"]`),
        );
        await page.waitForURL(/\/admin\/customers\?deleted=1$/);
        expect(await page.textContent('[role="status"]')).toContain(text.deleted);
        expect(await byEmail(email)).toBeUndefined();

        // The buyer: their order linked, and the operation's refusal to delete them shown.
        await page.click(`tr[data-customer="${buyerId}"] th a`);
        await page.waitForURL(new RegExp(`/admin/customers/${buyerId}$`));
        expect(await page.textContent(`#orders a[href="/admin/orders/${orderId}"]`)).toContain(text.order);
        await page.check('#f-delete-confirm');
        await ui.answer(page, () =>
          page.click(`form[action="/admin/customers/${buyerId}/delete"] button[type="submit"]`),
        );
        expect(await page.textContent('[role="alert"]')).toContain(text.refused);
        expect(await byEmail(buyerEmail)).toBeDefined();
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `customers-${locale}-05-refused`);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
