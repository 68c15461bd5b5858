import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';
import { BIG_CARTS, readTaxChannel, seedTaxShop } from './tax-fixture.ts';

// The channel tax page walked in chromium (decision 0047, "Tax settings"), in English and German:
// a destination rule for Bavaria with a postcode prefix and a saved rule condition is added and
// saved (the API agrees), an inherited country rate is removed, a country rate is added, a refusal
// is shown at its field; a rule for Austria is added for the whole shop (decision 0049), inherited
// by the channel, removed in it and reset; a reader sees text only. axe on each screen,
// screenshots `tax-<locale>-*`.

let h: Harness;
let ui: AdminBrowser;
let mainChannel: string;
let readerToken: string;
const { standardTax, reducedTax } = SELLABLE;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

const apiRead = () => readTaxChannel(h, mainChannel);

/** Puts the main channel's overrides and the shop's rules back to none (each walk starts from the same state). */
async function clearOverrides() {
  const current = await apiRead();
  const { languages: _, ...channel } = current.channel;
  const saved = await staff('PUT', `/api/merchant/commerce/channels/${mainChannel}`, {
    revision: current.revision,
    baseRevision: current.baseRevision,
    channel,
    overrides: {},
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const rules = (await staff('GET', '/api/basis/tax-rules')).body.items as { id: string; revision: number }[];
  for (const rule of rules) {
    const deleted = await staff('DELETE', `/api/basis/tax-rules/${rule.id}`, { revision: rule.revision });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
  }
}

describe.skipIf(browserSkipped)('the channel tax page in chromium', () => {
  beforeAll(async () => {
    h = await createHarness();
    mainChannel = await seedTaxShop(h);
    readerToken = await h.readerToken('tax-walk-reader@a.test');
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  const TEXT = {
    en: {
      link: 'Tax rules',
      rule: 'Rule for Bavaria, Germany',
      rate: '7.5',
      added: 'added in this channel',
      removedRate: 'Standard in Germany: removed: the default rate applies',
      addedRate: 'Reduced in Austria',
      refusal: 'is not a subdivision of AT',
      shopSaved: 'every channel inherits the shop’s rules',
      shopRule: 'Rule for Austria',
      removedRule: 'A rule of the shared settings (Austria) is removed in this channel.',
      shopRate: '10.5',
    },
    de: {
      link: 'Steuerregeln',
      rule: 'Regel für Bayern, Deutschland',
      rate: '7,5',
      added: 'in diesem Kanal hinzugefügt',
      removedRate: 'Normal in Deutschland: entfernt: Es gilt der Standardsatz',
      addedRate: 'Reduced in Österreich',
      refusal: 'is not a subdivision of AT',
      shopSaved: 'Alle Kanäle übernehmen die Regeln des Shops',
      shopRule: 'Regel für Österreich',
      removedRule: 'Eine Regel der gemeinsamen Einstellungen (Österreich) ist in diesem Kanal entfernt.',
      shopRate: '10,5',
    },
  } as const;

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('adds a Bavarian rule with a postcode prefix and a saved rule, removes an inherited rate, adds a rate', async () => {
      await clearOverrides();
      const { context, page, refused } = await ui.openContext(locale);
      const taxPath = `/admin/settings/channels/${mainChannel}/tax`;
      const SAVE = `form[method="post"][action="${taxPath}"]:not(#reset-form) > button[type="submit"]`;
      const savedAt = (revision: number) =>
        page.locator('[role="status"]', { hasText: String(revision) }).waitFor();
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/settings/channels/${mainChannel}`);
        await page.click(`a[href="${taxPath}"]`);
        await page.waitForURL(new RegExp(`${taxPath}$`));
        expect(await page.getAttribute('html', 'lang')).toBe(locale);
        expect(await page.textContent(`a[href="/admin/settings/channels/${mainChannel}"]`)).toBeTruthy();
        expect(await page.evaluate('typeof window.htmx')).toBe('object');
        await ui.shot(page, `tax-${locale}-01-page`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // A refusal first: a Bavarian state for Austria is shown at the state field, entries kept.
        let before = await apiRead();
        await page.selectOption('#f-rule-new-country', 'AT');
        await page.selectOption('#f-rule-new-state', 'DE-BY');
        await page.fill('#f-rule-new-rate', TEXT[locale].rate);
        await page.click(SAVE);
        await page.waitForSelector('#f-rule-new-state[aria-invalid="true"]');
        expect(await page.textContent('#f-rule-new-state-error')).toContain(TEXT[locale].refusal);
        expect(await page.inputValue('#f-rule-new-rate')).toBe(TEXT[locale].rate);
        expect((await apiRead()).revision).toBe(before.revision);
        await ui.shot(page, `tax-${locale}-02-refused`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // The rule for Bavaria, postcodes starting with 80, only when "Big carts" matches.
        await page.selectOption('#f-rule-new-country', 'DE');
        await page.selectOption('#f-rule-new-state', 'DE-BY');
        await page.selectOption('#f-rule-new-postcodeKind', 'prefix');
        await page.fill('#f-rule-new-postcode', '80');
        await page.fill('#f-rule-new-validFrom', '2026-01-01');
        await page.fill('#f-rule-new-priority', '5');
        await page.selectOption('#f-rule-new-ruleId', BIG_CARTS);
        await page.selectOption('#f-rule-new-taxClassId', reducedTax);
        await page.fill('#f-rule-new-rate', TEXT[locale].rate);
        await page.click(SAVE);
        await savedAt(before.revision + 1);
        let read = await apiRead();
        const ids = Object.keys(read.overrides.taxRules ?? {});
        expect(ids).toHaveLength(1);
        expect(read.overrides.taxRules![ids[0]!]).toEqual({
          country: 'DE',
          state: 'DE-BY',
          postcode: { kind: 'prefix', value: '80' },
          validFrom: '2026-01-01T00:00:00.000Z',
          validUntil: null,
          priority: 5,
          ruleId: BIG_CARTS,
          taxClassId: reducedTax,
          rate: 750,
        });
        const row = page.locator(`[data-rule="${ids[0]}"]`);
        expect(await row.locator('legend').textContent()).toContain(TEXT[locale].rule);
        expect(await row.locator('legend').textContent()).toContain(TEXT[locale].added);
        expect(await page.inputValue(`#f-rule-${ids[0]}-rate`)).toBe(TEXT[locale].rate);
        await ui.shot(page, `tax-${locale}-03-rule-saved`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // The basis rate of the standard class for Germany, inherited, removed in this channel.
        before = read;
        await page.click(`button[name="remove"][value="taxRates.${standardTax}.DE"]`);
        await savedAt(before.revision + 1);
        read = await apiRead();
        expect(read.overrides.taxRates).toEqual({ [standardTax]: { rates: { DE: null } } });
        expect(await page.textContent('main')).toContain(TEXT[locale].removedRate);

        // A rate of its own for Austria in the reduced class.
        await page.selectOption('#f-addRate-class', reducedTax);
        await page.selectOption('#f-addRate-country', 'AT');
        await page.fill('#f-addRate-rate', '10');
        await page.click(SAVE);
        await savedAt(read.revision + 1);
        read = await apiRead();
        expect(read.overrides.taxRates).toEqual({
          [standardTax]: { rates: { DE: null } },
          [reducedTax]: { rates: { AT: 1000 } },
        });
        expect(await page.inputValue(`#f-rate-taxRates-${reducedTax}-AT`)).toBe('10');
        expect(await page.textContent(`[data-field="rate:taxRates.${reducedTax}.AT"] label`)).toContain(
          TEXT[locale].addedRate,
        );
        await ui.shot(page, `tax-${locale}-04-rates`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // A rule of the whole shop for Austria, in the shop's form: every channel inherits it.
        await page.selectOption('#f-shop-new-country', 'AT');
        await page.fill('#f-shop-new-rate', TEXT[locale].shopRate);
        await page.click(`form[action="${taxPath}/shop"] > button[type="submit"]`);
        await page.locator('[role="status"]', { hasText: TEXT[locale].shopSaved }).waitFor();
        const shopRules = (await staff('GET', '/api/basis/tax-rules')).body.items as Record<
          string,
          unknown
        >[];
        expect(shopRules).toHaveLength(1);
        expect(shopRules[0]).toMatchObject({ country: 'AT', state: null, postcode: null, rate: 1050 });
        const shopId = shopRules[0]!.id as string;
        const inherited = page.locator(`[data-rule="${shopId}"]`);
        expect(await inherited.locator('legend').textContent()).toContain(TEXT[locale].shopRule);
        expect(await inherited.locator('legend .badge.inherited').count()).toBe(1);
        expect(await page.inputValue(`#f-shop-${shopId}-rate`)).toBe(TEXT[locale].shopRate);
        await ui.shot(page, `tax-${locale}-05-shop-rule`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // Removed in this channel only (null), then reset: inherited again.
        read = await apiRead();
        await page.click(`button[name="remove"][value="rule:${shopId}"]`);
        await savedAt(read.revision + 1);
        read = await apiRead();
        expect(read.overrides.taxRules?.[shopId]).toBeNull();
        expect(await page.textContent(`[data-rule="${shopId}"]`)).toContain(TEXT[locale].removedRule);
        expect((await staff('GET', '/api/basis/tax-rules')).body.items).toHaveLength(1);
        await ui.shot(page, `tax-${locale}-06-shop-rule-removed`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await page.click(`button[name="reset"][value="rule:${shopId}"]`);
        await savedAt(read.revision + 1);
        read = await apiRead();
        expect(read.overrides.taxRules?.[shopId]).toBeUndefined();
        expect(read.provenance[`/taxRules/${shopId}`]).toBe('inherited');
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }

      // A reader sees the same rules and rates as text, with no field or button.
      const reader = await ui.openContext(locale);
      try {
        await ui.signIn(reader.page, readerToken);
        await reader.page.goto(`${ui.base}${taxPath}`);
        expect(await reader.page.locator('main input, main select, main button').count()).toBe(0);
        expect(await reader.page.textContent('main')).toContain(TEXT[locale].rule);
        expect(await reader.page.textContent('main')).toContain(TEXT[locale].removedRate);
        expect(await reader.page.textContent('[data-shop-rule]')).toContain(TEXT[locale].shopRule);
        expect(await reader.page.textContent(`[data-field="taxRates.${reducedTax}.AT"]`)).toContain(
          TEXT[locale].added,
        );
        await ui.shot(reader.page, `tax-${locale}-07-reader`);
        expect(await ui.seriousViolations(reader.page)).toEqual([]);
        expect(reader.refused).toEqual([]);
      } finally {
        await reader.context.close();
      }
    });
  });
});
