import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// The shop's team walked in chromium (decision 0047), in English and German: from the navigation
// to the team page, a member added with a role named in the UI language, a token with an expiry
// in the past pinned to its field, an API token created (its secret shown once, working against
// /api), revoked after a confirmation (then refused by /api), the member removed, and the last
// owner's removal refused with the operation's detail. axe on every screen, no CSP report,
// screenshots `team-<locale>-*.png`.

let h: Harness;
let ui: AdminBrowser;

const TEXT = {
  en: {
    nav: 'Team',
    title: 'Team and tokens',
    added: 'is a member now, as Editor.',
    past: 'must lie in the future',
    created: 'Token created',
    copy: 'Copy the secret now',
    revoked: 'The token is revoked',
    removed: 'The member is removed',
    lastOwner: 'Not removed: The last owner cannot be removed.',
  },
  de: {
    nav: 'Team',
    title: 'Team und Tokens',
    added: 'ist jetzt Mitglied, als Bearbeiter.',
    past: 'must lie in the future',
    created: 'Token erstellt',
    copy: 'Kopieren Sie das Geheimnis jetzt',
    revoked: 'Der Token ist widerrufen',
    removed: 'Das Mitglied ist entfernt',
    lastOwner: 'Nicht entfernt: The last owner cannot be removed.',
  },
} as const;

describe.skipIf(browserSkipped)('the admin team area in chromium', () => {
  beforeAll(async () => {
    h = await createHarness();
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  const api = (secret: string) =>
    fetch(`${ui.base}/api/members`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status);

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('adds a member, creates and revokes a token, removes the member, and keeps the last owner', async () => {
      const text = TEXT[locale];
      const email = `clerk-${locale}@a.test`;
      const tokenName = `Warehouse ${locale}`;
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await ui.answer(page, () => page.click('nav a[href="/admin/team"]'));
        expect(await page.textContent('nav a[href="/admin/team"]')).toBe(text.nav);
        expect(await page.textContent('h1')).toBe(text.title);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `team-${locale}-01-list`);

        // A member with a role.
        await page.fill('#member-email', email);
        await page.selectOption('#member-role', 'editor');
        await ui.answer(page, () => page.click('#add-member button[type="submit"]'));
        expect(await page.textContent('[role="status"]')).toContain(`${email} ${text.added}`);
        expect(await page.locator('tr', { hasText: email }).count()).toBe(1);

        // A token expiring in the past: pinned to its field, the entries kept.
        await page.fill('#token-name', tokenName);
        await page.check('input[name="kind"][value="api"]');
        await page.selectOption('#token-role', 'admin');
        await page.fill('#token-expires', '2001-01-01');
        await ui.answer(page, () => page.click('#create-token button[type="submit"]'));
        expect(await page.textContent('#token-expires-error')).toContain(text.past);
        expect(await page.getAttribute('#token-expires', 'aria-invalid')).toBe('true');
        expect(await page.inputValue('#token-name')).toBe(tokenName);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `team-${locale}-02-pinned`);

        // Created: the secret on the answer page only, never in its address.
        await page.fill('#token-expires', '2999-12-31');
        await ui.answer(page, () => page.click('#create-token button[type="submit"]'));
        expect(await page.textContent('h1')).toBe(text.created);
        expect(await page.textContent('[role="alert"]')).toContain(text.copy);
        const secret = await page.inputValue('#token-secret');
        expect(secret.length).toBeGreaterThan(20);
        expect(page.url()).not.toContain(secret);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `team-${locale}-03-created`);
        expect(await api(secret)).toBe(200);

        // Listed without its secret; revoked after a confirmation, then refused by /api.
        await ui.answer(page, () => page.click('main a[href="/admin/team"]'));
        expect(await page.content()).not.toContain(secret);
        // htmx keeps pages it navigates away from in the tab's storage (its history cache): never the secret's.
        expect(
          await page.evaluate('JSON.stringify(sessionStorage) + JSON.stringify(localStorage)'),
        ).not.toContain(secret);
        const row = page.locator('tr', { hasText: tokenName });
        await ui.answer(page, () => row.locator('a[href$="/revoke"]').click());
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `team-${locale}-04-revoke`);
        await ui.answer(page, () => page.click('main form button[type="submit"]'));
        expect(await page.textContent('[role="status"]')).toContain(text.revoked);
        expect(await api(secret)).toBe(401);

        // The member removed after a confirmation.
        await ui.answer(page, () =>
          page.locator('tr', { hasText: email }).locator('a[href$="/remove"]').click(),
        );
        await ui.answer(page, () => page.click('main form button[type="submit"]'));
        expect(await page.textContent('[role="status"]')).toContain(text.removed);
        expect(await page.locator('tr', { hasText: email }).count()).toBe(0);

        // The last owner stays, with the operation's reason.
        await ui.answer(page, () =>
          page.locator('tr', { hasText: 'owner@a.test' }).locator('a[href$="/remove"]').click(),
        );
        await ui.answer(page, () => page.click('main form button[type="submit"]'));
        expect(await page.textContent('[role="alert"]')).toContain(text.lastOwner);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await ui.shot(page, `team-${locale}-05-last-owner`);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
