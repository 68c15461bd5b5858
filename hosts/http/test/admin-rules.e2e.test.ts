import { randomUUID } from 'node:crypto';
import { NATIVE_CUSTOMER_GROUPS } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// The rule builder (admin/rules, decision 0047) walked in chromium in English and German: a rule
// built from the catalog (an OR container with a cart amount and a customer group picked from the
// shop's choices, parameters labelled in the UI language), saved, listed,
// previewed against a test cart composed in the page (built through the storefront operations,
// previewed by its context token) with its trace drawn, the trace flipping when the quantity
// changes on the same cart; a visitor's context token still previews a cart; a stale save and the
// API's pointer errors shown; a reader sees no edit control, composes a test cart too, and the
// replayed save is refused.

let h: Harness;
let ui: AdminBrowser;
let productId: string;
let channelKey: string;
let readerToken: string;
const GROUP = NATIVE_CUSTOMER_GROUPS.business;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

interface StoredRule {
  id: string;
  revision: number;
  active: boolean;
  data: { name: Record<string, string>; condition: unknown };
}

/** The lines of the storefront cart a context token names. */
async function storeLines(token: string) {
  const cart = await h.call('GET', '/store-api/cart', {
    headers: { 'x-channel-key': channelKey, 'x-context-token': token },
  });
  expect(cart.status).toBe(200);
  return (cart.body.lines as { productId: string; quantity: number }[]).map((line) => [
    line.productId,
    line.quantity,
  ]);
}

async function rulesOfShop(): Promise<StoredRule[]> {
  const listed = await staff('GET', '/api/automation');
  expect(listed.status).toBe(200);
  return (listed.body as { rules: StoredRule[] }).rules;
}

const TEXT = {
  en: {
    rules: 'Rules',
    amount: '20.5',
    amountLabel: 'Value *',
    groupsLabel: 'Customer groups *',
    business: 'Business customers',
    atLeast: '≥ (at least)',
    matches: 'The cart matches this condition.',
    misses: 'The cart does not match this condition.',
    saved: 'saved',
    built: 'Test cart: 1 line, 3 items,',
    stale: 'Someone else saved this rule first',
    readOnly: 'You can read this rule but not change it.',
    disabled: 'not available',
  },
  de: {
    rules: 'Regeln',
    amount: '20,5',
    amountLabel: 'Wert *',
    groupsLabel: 'Kundengruppen *',
    business: 'Geschäftskunden',
    atLeast: '≥ (mindestens)',
    matches: 'Der Warenkorb erfüllt diese Bedingung.',
    misses: 'Der Warenkorb erfüllt diese Bedingung nicht.',
    saved: 'gespeichert',
    built: 'Testwarenkorb: 1 Position, 3 Artikel,',
    stale: 'Jemand anderes hat diese Regel zuerst gespeichert',
    readOnly: 'Sie können diese Regel lesen, aber nicht ändern.',
    disabled: 'nicht verfügbar',
  },
} as const;

describe.skipIf(browserSkipped)('the rule builder in chromium', () => {
  beforeAll(async () => {
    h = await createHarness();
    ({ productId, channelKey } = await h.sellableTea());
    readerToken = await h.readerToken('rules-reader@a.test');
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('builds an OR of two typed conditions, saves, lists, previews against a changing cart, shows stale saves and pointer errors', async () => {
      const text = TEXT[locale];
      const name = `Big carts or VIPs (${locale})`;
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.click('nav a[href="/admin/rules"]');
        await page.waitForSelector('h1');
        expect(await page.textContent('h1')).toBe(text.rules);
        await ui.shot(page, `rules-${locale}-01-list`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        await page.click('a[href="/admin/rules/new"]');
        await page.waitForSelector('form.rule-editor');
        await page.fill('#rule-name', name);
        // An OR container inside the root, then two typed conditions inside it.
        await page.selectOption('#n--new', 'orContainer');
        await page.click('button[name="op"][value="add:"]');
        await page.waitForSelector('li[data-pointer="/children/0"][data-type="orContainer"]');
        // The catalog's disabled conditions are offered with their reason and cannot be chosen.
        const script = page.locator('#n-children-0--new option[value="scriptRule"]');
        expect(await script.isDisabled()).toBe(true);
        expect(await script.textContent()).toContain(text.disabled);
        expect(await script.textContent()).toContain('no bounded compatible script runtime');
        await page.selectOption('#n-children-0--new', 'cartCartAmount');
        await page.click('button[name="op"][value="add:/children/0"]');
        await page.waitForSelector('li[data-pointer="/children/0/children/0"]');
        await page.selectOption('#n-children-0--new', 'customerCustomerGroup');
        await page.click('button[name="op"][value="add:/children/0"]');
        await page.waitForSelector('li[data-pointer="/children/0/children/1"]');
        // Typed inputs labelled in the UI language: the amount as the UI language writes it, the
        // operator (symbol and words), a customer group picked from the shop's choices.
        expect(await page.textContent('label[for="n-children-0-children-0--amount"]')).toBe(text.amountLabel);
        expect(
          await page.textContent(
            'li[data-pointer="/children/0/children/1"] [data-param="customerGroupIds"] legend',
          ),
        ).toBe(text.groupsLabel);
        expect(await page.locator('[name="v:/children/0/children/1:customerGroupIds"]').count()).toBe(0);
        await page.selectOption('#n-children-0-children-0--operator', '>=');
        expect(await page.textContent('#n-children-0-children-0--operator option[value=">="]')).toBe(
          text.atLeast,
        );
        await page.fill('#n-children-0-children-0--amount', 'twenty');
        const business = page
          .locator('li[data-pointer="/children/0/children/1"] [data-param="customerGroupIds"]')
          .getByLabel(text.business);
        await business.check();
        // A value the API refuses is shown next to its parameter, with the entries kept.
        await page.click('button[name="op"][value="save"]');
        await page.waitForSelector(
          'li[data-pointer="/children/0/children/0"] [data-param="amount"] .node-errors',
        );
        expect(await business.isChecked()).toBe(true);
        expect(await page.inputValue('#rule-name')).toBe(name);
        await ui.shot(page, `rules-${locale}-02-pointer-error`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        expect((await rulesOfShop()).some((rule) => rule.data.name[locale] === name)).toBe(false);

        await page.fill('#n-children-0-children-0--amount', text.amount);
        await ui.shot(page, `rules-${locale}-03-editor`);
        await page.click('button[name="op"][value="save"]');
        await page.waitForSelector(`tr:has-text("${name}")`);
        expect(await page.textContent('[role="status"]')).toContain(text.saved);
        await ui.shot(page, `rules-${locale}-04-listed`);
        const rule = (await rulesOfShop()).find((stored) => stored.data.name[locale] === name)!;
        expect(rule).toMatchObject({ revision: 1, active: true });
        expect(rule.data.condition).toEqual({
          type: 'andContainer',
          children: [
            {
              type: 'orContainer',
              children: [
                { type: 'cartCartAmount', value: { operator: '>=', amount: 20.5 } },
                { type: 'customerCustomerGroup', value: { operator: '=', customerGroupIds: [GROUP] } },
              ],
            },
          ],
        });

        // Preview against a test cart composed in the page (one tea: 10.00), then with three:
        // the page builds it through the storefront operations and keeps its context token.
        await page.click(`a[href="/admin/rules/${rule.id}"]`);
        await page.waitForSelector('#tc-channel');
        const money = (amount: number) =>
          new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(amount);
        // The token is an alternative, folded away below the composer.
        expect(await page.locator('#context-token').isVisible()).toBe(false);
        await page.selectOption('#tc-product-0', productId);
        await page.fill('#tc-quantity-0', '1');
        await page.click('button[name="op"][value="preview"]');
        await page.waitForSelector('[data-result]');
        expect(await page.getAttribute('[data-result]', 'data-result')).toBe('false');
        expect(await page.textContent('[data-result]')).toBe(text.misses);
        const testToken = await page.inputValue('input[name="tc:token"]');
        expect(await storeLines(testToken)).toEqual([[productId, 1]]);
        expect(await page.textContent('.test-cart-summary')).toContain(money(10));
        const traceOf = (pointer: string) =>
          page.getAttribute(`li[data-pointer="${pointer}"] > .node-head [data-trace]`, 'data-trace');
        expect(await traceOf('')).toBe('false');
        expect(await traceOf('/children/0/children/0')).toBe('false');
        expect(await traceOf('/children/0/children/1')).toBe('false');
        await ui.shot(page, `rules-${locale}-05-preview-false`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // Three teas on the same cart (the same token): the trace flips.
        await page.fill('#tc-quantity-0', '3');
        await page.click('button[name="op"][value="preview"]');
        await page.waitForSelector('[data-result="true"]');
        expect(await page.textContent('[data-result]')).toBe(text.matches);
        expect(await page.inputValue('input[name="tc:token"]')).toBe(testToken);
        expect(await storeLines(testToken)).toEqual([[productId, 3]]);
        expect(await page.textContent('.test-cart-summary')).toContain(text.built);
        expect(await page.textContent('.test-cart-summary')).toContain(money(30));
        expect(await page.inputValue('#tc-product-0')).toBe(productId);
        expect(await traceOf('')).toBe('true');
        expect(await traceOf('/children/0')).toBe('true');
        expect(await traceOf('/children/0/children/0')).toBe('true');
        expect(await traceOf('/children/0/children/1')).toBe('false');
        await ui.shot(page, `rules-${locale}-06-preview-true`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // A quantity the page cannot read is pinned to its field; the cart stays as it was.
        await page.fill('#tc-quantity-0', 'x');
        await page.click('button[name="op"][value="preview"]');
        await page.waitForSelector('#tc-quantity-0-error');
        expect(await page.getAttribute('#tc-quantity-0', 'aria-invalid')).toBe('true');
        expect(await storeLines(testToken)).toEqual([[productId, 3]]);
        await ui.shot(page, `rules-${locale}-06b-bad-quantity`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await page.fill('#tc-quantity-0', '3');

        // Someone else saves meanwhile: this page's save is stale, says so and keeps the entries.
        const other = await staff('PUT', `/api/automation/rules/${rule.id}`, {
          revision: 1,
          data: { ...rule.data, condition: { type: 'alwaysValid' } },
        });
        expect(other.status).toBe(200);
        await page.fill('#n-children-0-children-0--amount', '99');
        await ui.answer(page, () => page.click('button[name="op"][value="save"]'));
        await page.waitForSelector('[role="alert"]');
        expect(await page.textContent('[role="alert"]')).toContain(text.stale);
        expect(await page.inputValue('#n-children-0-children-0--amount')).toBe('99');
        expect((await rulesOfShop()).find((stored) => stored.id === rule.id)!.data.condition).toEqual({
          type: 'alwaysValid',
        });
        await ui.shot(page, `rules-${locale}-07-stale`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        // Saving again (now at the current revision) replaces it.
        await page.click('button[name="op"][value="save"]');
        await page.waitForSelector(`tr:has-text("${name}")`);
        const replaced = (await rulesOfShop()).find((stored) => stored.id === rule.id)!;
        expect(replaced.revision).toBe(3);
        expect(JSON.stringify(replaced.data.condition)).toContain('"amount":99');
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('references saved rules inside a NOT, switches a container in place, offers no inactive rule', async () => {
      const active = randomUUID();
      const inactive = randomUUID();
      const amount = { type: 'cartCartAmount', value: { operator: '>=', amount: 1 } };
      for (const [id, isActive] of [
        [active, true],
        [inactive, false],
      ] as const) {
        const saved = await staff('PUT', `/api/automation/rules/${id}`, {
          revision: 0,
          active: isActive,
          data: {
            name: { en: `Ref ${isActive} ${locale}`, de: `Ref ${isActive} ${locale}` },
            condition: amount,
          },
        });
        expect(saved.status).toBe(200);
      }
      const name = `Not a referenced rule (${locale})`;
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/rules/new`);
        await page.fill('#rule-name', name);
        await page.selectOption('#n--new', 'notContainer');
        await page.click('button[name="op"][value="add:"]');
        await page.waitForSelector('li[data-pointer="/children/0"][data-type="notContainer"]');
        expect(
          await page.locator(`#n-children-0--new option[value="ruleReference:${inactive}"]`).isDisabled(),
        ).toBe(true);
        await page.selectOption('#n-children-0--new', `ruleReference:${active}`);
        await page.click('button[name="op"][value="add:/children/0"]');
        await page.waitForSelector('li[data-pointer="/children/0/children/0"][data-type="ruleReference"]');
        // The root AND becomes an OR in place.
        await page.selectOption('#n--kind', 'orContainer');
        await page.click('button[name="op"][value="apply"]');
        await page.waitForSelector('li[data-pointer=""][data-type="orContainer"]');
        await page.click('button[name="op"][value="save"]');
        await page.waitForSelector(`tr:has-text("${name}")`);
        const rule = (await rulesOfShop()).find((stored) => stored.data.name[locale] === name)!;
        expect(rule.data.condition).toEqual({
          type: 'orContainer',
          children: [{ type: 'notContainer', children: [{ type: 'ruleReference', ruleId: active }] }],
        });
        // The referenced rule holds for a one-tea cart, so its negation and the OR do not. A
        // visitor's context token still previews a cart (one the list need not offer).
        await page.click(`a[href="/admin/rules/${rule.id}"]`);
        await page.click('.preview details summary');
        await page.fill('#context-token', await h.visitorWithCart(channelKey, [{ productId, quantity: 1 }]));
        await page.click('button[name="op"][value="previewToken"]');
        await page.waitForSelector('[data-result="false"]');
        const traceOf = (pointer: string) =>
          page.getAttribute(`li[data-pointer="${pointer}"] > .node-head [data-trace]`, 'data-trace');
        expect(await traceOf('/children/0/children/0')).toBe('true');
        expect(await traceOf('/children/0')).toBe('false');
        await ui.shot(page, `rules-${locale}-09-reference`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('shows a reader the rule without edit controls and refuses the replayed save', async () => {
      const text = TEXT[locale];
      const id = randomUUID();
      const condition = {
        type: 'orContainer',
        children: [{ type: 'cartCartAmount', value: { operator: '>=', amount: 5 } }],
      };
      const created = await staff('PUT', `/api/automation/rules/${id}`, {
        revision: 0,
        data: { name: { en: `Read me ${locale}`, de: `Lies mich ${locale}` }, condition },
      });
      expect(created.status).toBe(200);
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, readerToken);
        await page.click('nav a[href="/admin/rules"]');
        await page.waitForSelector(`a[href="/admin/rules/${id}"]`);
        expect(await page.locator('a[href="/admin/rules/new"]').count()).toBe(0);
        await page.click(`a[href="/admin/rules/${id}"]`);
        await page.waitForSelector('#tc-channel');
        expect(await page.textContent('main')).toContain(text.readOnly);
        expect(await page.locator('form.rule-editor').count()).toBe(0);
        expect(
          await page.locator('[name^="v:"], [name^="new:"], button[value="save"], #rule-name').count(),
        ).toBe(0);
        // The amount shows as text.
        expect(await page.textContent('li[data-pointer="/children/0"] [data-param="amount"]')).toContain('5');
        // A reader may still preview the saved rule with a test cart: the storefront operations
        // that build it need no staff permission.
        await page.selectOption('#tc-product-0', productId);
        await page.fill('#tc-quantity-0', '1');
        await page.click('button[name="op"][value="preview"]');
        await page.waitForSelector('[data-result="true"]');
        await ui.shot(page, `rules-${locale}-08-reader`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // The owner's save replayed with the reader's session and CSRF token: refused, nothing changed.
        const csrf = (await page.getAttribute('form[method="post"] input[name="csrf"]', 'value'))!;
        const answer = await context.request.post(`${ui.base}/admin/rules/${id}`, {
          headers: { origin: ui.base },
          form: {
            csrf,
            op: 'save',
            revision: '1',
            name: 'Hijacked',
            activeShown: '1',
            tree: JSON.stringify({ type: 'alwaysValid' }),
          },
        });
        expect(answer.status()).toBe(403);
        const stored = (await rulesOfShop()).find((rule) => rule.id === id)!;
        expect(stored.revision).toBe(1);
        expect(stored.data.condition).toEqual(condition);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
