import { setAdminPassword } from '@cartwright/service';
import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// The admin UI walked in Debian's chromium (admin-browser.ts): each walk in English and German,
// axe-core in the page, screenshots kept in test-artifacts/ (gitignored). Decision 0047.

let h: Harness;
let ui: AdminBrowser;
let mainChannel: string;
let readerToken: string;
const parcel = SELLABLE.parcel;
const nameField = `#f-shippingMethods-${parcel}-name`;
const SAVE = 'form[action^="/admin/settings/channels/"][method="post"] > button[type="submit"]';

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

async function readChannel(language?: string) {
  const read = await staff(
    'GET',
    `/api/merchant/commerce/channels/${mainChannel}${language ? `?language=${language}` : ''}`,
  );
  expect(read.status).toBe(200);
  return read.body as {
    revision: number;
    baseRevision: number;
    overrides: {
      shippingMethods?: Record<string, { translations?: Record<string, Record<string, unknown>> }>;
    };
    effective: { shippingMethods: Record<string, { name: string }> };
    provenance: Record<string, string>;
  };
}

/** Saves the main channel's overrides through the API (another person's save). */
async function saveOverrides(overrides: Record<string, unknown>, language = 'de') {
  const current = (await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`)).body as {
    revision: number;
    baseRevision: number;
    channel: Record<string, unknown>;
  };
  const { languages: _, ...channel } = current.channel;
  const saved = await staff('PUT', `/api/merchant/commerce/channels/${mainChannel}`, {
    revision: current.revision,
    baseRevision: current.baseRevision,
    language,
    channel,
    overrides,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

describe.skipIf(browserSkipped)('the admin UI in chromium', () => {
  beforeAll(async () => {
    h = await createHarness();
    await h.sellableTea();
    // German enabled, and the parcel service's German name overridden on the main channel.
    expect((await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(
      200,
    );
    const channels = (await staff('GET', '/api/automation')).body.channels as {
      id: string;
      isMain: boolean;
    }[];
    mainChannel = channels.find((channel) => channel.isMain)!.id;
    await saveOverrides({ shippingMethods: { [parcel]: { texts: { name: 'Paket' } } } });
    readerToken = await h.readerToken('reader@a.test');
    // Shop A's owner also reads shop B, and has an admin password.
    const inB = await h.call('POST', '/api/members', {
      token: h.shopB.token,
      body: { email: 'owner@a.test', role: 'reader' },
    });
    expect(inB.status).toBe(201);
    expect((await setAdminPassword(h.services, 'owner@a.test', 'a long admin passphrase')).ok).toBe(true);

    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  const TEXT = {
    en: {
      saved: 'Saved',
      stale: 'Someone else saved first',
      signIn: 'Sign in',
      settings: 'Settings',
      owner: 'Signed in as owner',
      reader: 'Signed in as reader',
    },
    de: {
      saved: 'Gespeichert',
      stale: 'Jemand anderes hat zuerst gespeichert',
      signIn: 'Anmelden',
      settings: 'Einstellungen',
      owner: 'Angemeldet als Inhaber',
      reader: 'Angemeldet als Leser',
    },
  } as const;

  describe.each(['en', 'de'] as const)('the admin UI in %s', (locale) => {
    it('signs in with a token, edits an overridden shipping method name in German, shows a stale save, signs out', async () => {
      // Each walk starts from the same overridden German name, whatever ran before.
      await saveOverrides({ shippingMethods: { [parcel]: { texts: { name: 'Paket' } } } });
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await page.goto(`${ui.base}/admin/sign-in`);
        expect(await page.getAttribute('html', 'lang')).toBe(locale);
        expect(await page.textContent('h1')).toBe(TEXT[locale].signIn);
        await ui.shot(page, `${locale}-01-sign-in`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        await ui.signIn(page, h.shopA.token);
        // On a freshly loaded page the first Tab reaches the skip link, which leads to the main landmark.
        await page.goto(`${ui.base}/admin`);
        // htmx and the admin script loaded under the CSP (from /admin/assets, not a CDN).
        expect(await page.evaluate('typeof window.htmx')).toBe('object');
        await page.keyboard.press('Tab');
        expect(await page.evaluate("document.activeElement.classList.contains('skip')")).toBe(true);
        await page.keyboard.press('Enter');
        await page.waitForURL(/#content$/);
        await ui.shot(page, `${locale}-02-overview`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        await page.click('nav a[href="/admin/settings"]');
        await page.waitForURL(/\/admin\/settings$/);
        expect(await page.textContent('h1')).toBe(TEXT[locale].settings);
        await page.click(`a[href="/admin/settings/channels/${mainChannel}"]`);
        await page.waitForURL(new RegExp(`/admin/settings/channels/${mainChannel}$`));
        // The main language first: the parcel service's English name, inherited from the shared basis.
        expect(await page.inputValue(nameField)).toBe('Parcel');
        await ui.shot(page, `${locale}-03-channel-en-content`);

        // The content language is chosen once above the form; everything below follows it.
        await page.selectOption('#content-language', 'de');
        await page.click('form.language-bar button[type="submit"]');
        await page.waitForURL(/language=de/);
        expect(await page.inputValue(nameField)).toBe('Paket');
        const field = page.locator(`[data-field="shippingMethods.${parcel}.name"]`);
        expect(await field.locator('.badge.overridden').count()).toBe(1);
        // No German description: the English one shows as the fallback, marked, and the field stays empty.
        const description = `#f-shippingMethods-${parcel}-description`;
        expect(await page.inputValue(description)).toBe('');
        await ui.shot(page, `${locale}-04-channel-de-content`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        const before = await readChannel('de');
        const newName = locale === 'en' ? 'Paketdienst (EN)' : 'Paketdienst';
        // Keyboard only: Enter in the field saves (the reset buttons belong to another form).
        await page.fill(nameField, newName);
        await ui.answer(page, () => page.press(nameField, 'Enter'));
        await page.waitForSelector('[role="status"]');
        expect(await page.textContent('[role="status"]')).toContain(TEXT[locale].saved);
        expect(await page.inputValue(nameField)).toBe(newName);
        await ui.shot(page, `${locale}-05-saved`);
        // Pages swapped in place leave no snapshot (with its CSRF token) in the tab's storage.
        const stored = (await page.evaluate(
          'JSON.stringify({ ...sessionStorage, ...localStorage })',
        )) as string;
        expect(stored).not.toContain('htmx-history-cache');
        expect(stored).not.toContain(await page.inputValue('form input[name="csrf"] >> nth=0'));

        const after = await readChannel('de');
        expect(after.revision).toBe(before.revision + 1);
        expect(after.effective.shippingMethods[parcel]!.name).toBe(newName);
        // Only the edited text was written: no German description, the English name untouched.
        expect(after.overrides.shippingMethods?.[parcel]?.translations).toEqual({ de: { name: newName } });
        expect((await readChannel('en')).effective.shippingMethods[parcel]!.name).toBe('Parcel');

        // Someone else saves meanwhile: this page's save is stale and shows what changed.
        await saveOverrides({ shippingMethods: { [parcel]: { texts: { name: 'Paket (anderswo)' } } } });
        await page.fill(nameField, 'Mein Paket');
        await ui.answer(page, () => page.click(SAVE));
        await page.waitForSelector('[role="alert"]');
        const alert = (await page.textContent('[role="alert"]')) ?? '';
        expect(alert).toContain(TEXT[locale].stale);
        expect(alert).toContain('Paket (anderswo)');
        expect(alert).toContain(newName);
        // The entry is kept; nothing was saved.
        expect(await page.inputValue(nameField)).toBe('Mein Paket');
        expect((await readChannel('de')).effective.shippingMethods[parcel]!.name).toBe('Paket (anderswo)');
        await ui.shot(page, `${locale}-06-stale`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        // Saving again (now at the current revisions) applies it.
        await ui.answer(page, () => page.click(SAVE));
        await page.waitForSelector('[role="status"]');
        expect((await readChannel('de')).effective.shippingMethods[parcel]!.name).toBe('Mein Paket');

        // Sign out: the session is deleted, its cookie opens nothing any more.
        const [cookie] = (await context.cookies(`${ui.base}/admin/`)).filter(
          (entry) => entry.name === 'cw_admin',
        );
        expect(cookie?.httpOnly).toBe(true);
        expect(cookie?.sameSite).toBe('Strict');
        await page.click('form[action="/admin/sign-out"] button[type="submit"]');
        await page.waitForURL(/\/admin\/sign-in$/);
        await ui.shot(page, `${locale}-07-signed-out`);
        const replayed = await fetch(`${ui.base}/admin/settings`, {
          headers: { cookie: `cw_admin=${cookie!.value}` },
          redirect: 'manual',
        });
        expect(replayed.status).toBe(303);
        expect(replayed.headers.get('location')).toBe('/admin/sign-in');
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('signs in with e-mail and password and switches between the shops of the member', async () => {
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await page.goto(`${ui.base}/admin/sign-in`);
        await page.fill('#email', 'owner@a.test');
        await page.fill('#password', 'a long admin passphrase');
        await page.click('form:has(#password) button[type="submit"]');
        await page.waitForURL(/\/admin$/);
        const who = () => page.textContent('form[action="/admin/sign-out"] .meta');
        expect(await who()).toBe(TEXT[locale].owner);
        // Both shops are offered; switching acts in shop B with the member's role there.
        expect(await page.locator('#shop-switch option').allTextContents()).toEqual(['Shop A', 'Shop B']);
        await page.selectOption('#shop-switch', h.shopB.tenantId);
        await page.click('form[action="/admin/shop"] button[type="submit"]');
        await page
          .locator('form[action="/admin/sign-out"] .meta', { hasText: TEXT[locale].reader })
          .waitFor();
        await ui.shot(page, `${locale}-09-switched-shop`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await page.selectOption('#shop-switch', h.shopA.tenantId);
        await page.click('form[action="/admin/shop"] button[type="submit"]');
        await page.locator('form[action="/admin/sign-out"] .meta', { hasText: TEXT[locale].owner }).waitFor();
        await page.click('form[action="/admin/sign-out"] button[type="submit"]');
        await page.waitForURL(/\/admin\/sign-in$/);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('shows a reader cards without edit controls, and refuses the reader’s replayed form post', async () => {
      const { context, page } = await ui.openContext(locale);
      try {
        await ui.signIn(page, readerToken);
        await page.goto(`${ui.base}/admin/settings/channels/${mainChannel}?language=de`);
        expect(
          await page.locator('input[name^="text:"], textarea[name^="text:"], input[type="checkbox"]').count(),
        ).toBe(0);
        expect(await page.locator('button[name="reset"]').count()).toBe(0);
        expect(await page.locator(`form[action^="/admin/settings/channels/"][method="post"]`).count()).toBe(
          0,
        );
        await ui.shot(page, `${locale}-08-reader`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // The reader's own session and CSRF token, the owner's form: the API refuses it.
        const csrf = await page.getAttribute('form[action="/admin/sign-out"] input[name="csrf"]', 'value');
        const before = await readChannel('de');
        const answer = await context.request.post(
          `${ui.base}/admin/settings/channels/${mainChannel}?language=de`,
          {
            headers: { origin: ui.base },
            form: {
              csrf: csrf!,
              revision: String(before.revision),
              baseRevision: String(before.baseRevision),
              [`text:shippingMethods.${parcel}.name`]: 'Vom Leser',
              [`was:shippingMethods.${parcel}.name`]: before.effective.shippingMethods[parcel]!.name,
            },
          },
        );
        expect(answer.status()).toBe(403);
        const after = await readChannel('de');
        expect(after.revision).toBe(before.revision);
        expect(after.effective.shippingMethods[parcel]!.name).toBe(
          before.effective.shippingMethods[parcel]!.name,
        );
      } finally {
        await context.close();
      }
    });

    it('refuses form posts without or with a wrong CSRF token, or from another origin', async () => {
      const { context, page } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/settings/channels/${mainChannel}?language=de`);
        const csrf = (await page.getAttribute('form[method="post"] input[name="csrf"]', 'value'))!;
        const before = await readChannel('de');
        const form = (extra: Record<string, string>) => ({
          revision: String(before.revision),
          baseRevision: String(before.baseRevision),
          [`text:shippingMethods.${parcel}.name`]: 'Gefälscht',
          [`was:shippingMethods.${parcel}.name`]: before.effective.shippingMethods[parcel]!.name,
          ...extra,
        });
        const post = (body: Record<string, string>, origin = ui.base) =>
          context.request.post(`${ui.base}/admin/settings/channels/${mainChannel}?language=de`, {
            headers: { origin },
            form: body,
          });
        expect((await post(form({}))).status()).toBe(403);
        expect((await post(form({ csrf: `${csrf.slice(0, -2)}xx` }))).status()).toBe(403);
        expect((await post(form({ csrf }), 'http://evil.example')).status()).toBe(403);
        // Another session's token is no token of this session.
        const other = await ui.openContext(locale);
        await ui.signIn(other.page, h.shopA.token);
        await other.page.goto(`${ui.base}/admin/settings`);
        const foreign = (await other.page.getAttribute(
          'form[action="/admin/sign-out"] input[name="csrf"]',
          'value',
        ))!;
        await other.context.close();
        expect((await post(form({ csrf: foreign }))).status()).toBe(403);
        expect((await readChannel('de')).revision).toBe(before.revision);
        // Sign-out is a form post too.
        expect(
          (
            await context.request.post(`${ui.base}/admin/sign-out`, {
              headers: { origin: ui.base },
              form: {},
            })
          ).status(),
        ).toBe(403);
      } finally {
        await context.close();
      }
    });
  });

  describe('the admin UI’s routes', () => {
    it('leads / to /admin and /docs to the API reference; serves htmx from node_modules with a long cache', async () => {
      const root = await fetch(`${ui.base}/`, { redirect: 'manual' });
      expect(root.headers.get('location')).toBe('/admin');
      const docs = await fetch(`${ui.base}/docs`, { redirect: 'manual' });
      expect(docs.headers.get('location')).toBe('/api/docs');
      const signInPage = await fetch(`${ui.base}/admin/sign-in`);
      const html = await signInPage.text();
      expect(signInPage.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(html).not.toMatch(/<script>(?!<\/script>)/);
      const htmx = /src="(\/admin\/assets\/htmx\.min\.[0-9a-f]{12}\.js)"/.exec(html)![1]!;
      const asset = await fetch(`${ui.base}${htmx}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('text/javascript');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect(await asset.text()).toContain('2.0.11');
    });
  });
});
