import { readFileSync } from 'node:fs';
import { consumeOnce, intelligenceEvidenceProjection } from '@cartwright/service';
import { SELLABLE } from '@cartwright/service/testing';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// Issue 20 Builds 6 and 7 walked in chromium (decisions 0047, 0048), in English and German:
// publish a co-purchase pair (with the approval box), approve an AI proposal and see a stale one
// refused; install an app through the `admin` assistant and use its form and table blocks beside a
// product (it ships no panel, so none is shown); open the loyalty example's own panel (its markup,
// its script invoking its declared actions through the message bridge); the panel is
// opaque-origin (no cookie, no credentialed fetch), cannot call another app's action, and the
// bridge ignores messages without the nonce or from another window; a panel script that tries
// fetch, XHR or a form post to the admin is blocked; a reader sees no edit control or panel and a
// replayed post is refused.

let h: Harness;
let ui: AdminBrowser;
let readerToken: string;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

function ok(answer: { status: number; body: unknown }, status = 200) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as Record<string, unknown>;
}

async function createProduct(sku: string): Promise<string> {
  const created = ok(
    await staff('POST', '/api/catalog/products', {
      sku,
      translations: { en: { name: `${sku} tea` }, de: { name: `${sku} Tee` } },
      prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
      taxClassId: SELLABLE.standardTax,
      stockAvailable: 100,
    }),
    201,
  );
  return ((created.product ?? created) as { id: string }).id;
}

async function consumeEvidence() {
  const options = { owner: 'admin-apps-e2e', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  for (;;) {
    const report = await consumeOnce(h.services, intelligenceEvidenceProjection, options);
    if (report.tenantId === null) return;
  }
}

interface PairView {
  id: string;
  status: string;
  revision: number;
  productA: { id: string };
  productB: { id: string };
}
async function pairOf(a: string, b: string): Promise<PairView> {
  const listed = ok(await staff('GET', '/api/intelligence')) as { items: PairView[] };
  const pair = listed.items.find(
    (item) =>
      (item.productA.id === a && item.productB.id === b) ||
      (item.productA.id === b && item.productB.id === a),
  );
  expect(pair).toBeDefined();
  return pair!;
}

const TEXT = {
  en: {
    intelligence: 'Shop intelligence',
    approveRequired: 'Publishing needs your approval',
    loyaltyPanel: 'Loyalty questions',
    added: 'Added: ',
    published: 'Published',
    approved: 'The proposal was approved and applied.',
    stale: 'This proposal is stale',
    apps: 'Apps',
    newApp: 'A new app',
    saved: 'Saved.',
    compatible: 'A compatible upgrade.',
  },
  de: {
    intelligence: 'Shop-Intelligenz',
    approveRequired: 'Das Veröffentlichen braucht Ihre Genehmigung',
    loyaltyPanel: 'Fragen zum Treueprogramm',
    added: 'Hinzugefügt: ',
    published: 'Veröffentlicht',
    approved: 'Der Vorschlag wurde genehmigt und angewendet.',
    stale: 'Dieser Vorschlag ist veraltet',
    apps: 'Apps',
    newApp: 'Eine neue App',
    saved: 'Gespeichert.',
    compatible: 'Eine kompatible Aktualisierung.',
  },
} as const;

describe.skipIf(browserSkipped)('the admin intelligence and apps areas in chromium', () => {
  beforeAll(async () => {
    h = await createHarness();
    await h.sellableTea();
    expect((await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(
      200,
    );
    readerToken = await h.readerToken('reader@a.test');
    // Another app whose action the panel must never reach.
    ok(
      await staff('PUT', '/api/apps/other-app', {
        revision: 0,
        manifest: {
          apiVersion: 1,
          id: 'other-app',
          version: '1.0.0',
          name: { en: 'Other app' },
          entities: [{ id: 'memo', fields: [{ name: 'value', type: 'string' }] }],
          actions: [
            { id: 'other_only', kind: 'create', entity: 'memo' },
            { id: 'list_memos', kind: 'list', entity: 'memo' },
          ],
        },
      }),
    );
    // The loyalty example, unchanged, with its admin panel; and a panel that tries to reach the admin.
    const example = (path: string) =>
      readFileSync(new URL(`../../../examples/apps/loyalty/${path}`, import.meta.url), 'utf8');
    ok(
      await staff('PUT', '/api/apps/loyalty', {
        revision: 0,
        manifest: JSON.parse(example('manifest.json')),
        module: example('module.js'),
      }),
    );
    ok(await staff('PUT', '/api/apps/probe-app', { revision: 0, manifest: PROBE_MANIFEST }));
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('publishes a pair with approval, approves a proposal and shows a stale one', async () => {
      const [a, b, c] = [
        await createProduct(`A-${locale}`),
        await createProduct(`B-${locale}`),
        await createProduct(`C-${locale}`),
      ];
      ok(
        await staff('POST', '/api/intelligence/simulations', {
          source: 'manual',
          baskets: [
            [a, b],
            [a, b],
            [a, c],
            [b, c],
          ],
        }),
        201,
      );
      await consumeEvidence();
      const ab = await pairOf(a, b);
      const ac = await pairOf(a, c);
      const bc = await pairOf(b, c);
      const approvable = ok(
        await staff('POST', '/api/intelligence/proposals', {
          summary: `Recommend C with A (${locale})`,
          reason: 'Bought together in the manual baskets',
          operations: [{ kind: 'intelligence.publish_pair', hypothesisId: ac.id, revision: ac.revision }],
        }),
        201,
      );
      const staleOne = ok(
        await staff('POST', '/api/intelligence/proposals', {
          summary: `Recommend C with B (${locale})`,
          operations: [{ kind: 'intelligence.publish_pair', hypothesisId: bc.id, revision: bc.revision }],
        }),
        201,
      );
      // Someone dismisses B + C meanwhile: the second proposal read an older revision.
      ok(
        await staff('PUT', `/api/intelligence/hypotheses/${bc.id}`, {
          revision: bc.revision,
          status: 'dismissed',
        }),
      );

      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        const shown = await page.goto(`${ui.base}/admin/intelligence`);
        expect(shown?.status(), await shown?.text()).toBe(200);
        expect(await page.textContent('h1')).toBe(TEXT[locale].intelligence);
        // Product names in the shop's main language, the baskets counted.
        const row = page.locator('tr', { has: page.locator(`th:text("A-${locale} tea + B-${locale} tea")`) });
        expect(await row.locator('td.num').nth(1).textContent()).toBe('2');
        await ui.shot(page, `apps-${locale}-01-intelligence`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // Publish without the approval box: refused, nothing changed.
        await row.locator('form.publish button[type="submit"]').click();
        await page.waitForSelector('[role="alert"]');
        expect(await page.textContent('[role="alert"]')).toContain(TEXT[locale].approveRequired);
        expect((await pairOf(a, b)).status).toBe(ab.status);
        // With it: published.
        const again = page.locator('tr', {
          has: page.locator(`th:text("A-${locale} tea + B-${locale} tea")`),
        });
        await again.locator('form.publish input[type="checkbox"]').check();
        await again.locator('form.publish button[type="submit"]').click();
        await page.locator('[role="status"]', { hasText: TEXT[locale].published }).waitFor();
        expect((await pairOf(a, b)).status).toBe('published');
        await ui.shot(page, `apps-${locale}-02-pair-published`);

        // Approve the proposal: its plan (publish A + C) is applied.
        const card = page.locator('article', { hasText: `Recommend C with A (${locale})` });
        expect(await card.locator('ol li').textContent()).toContain(`A-${locale} tea + C-${locale} tea`);
        await card.locator('form[action$="/approve"] button').click();
        // The page before the click has a status too (the publish): wait for this answer's.
        await page.locator('[role="status"]', { hasText: TEXT[locale].approved }).waitFor();
        expect(await page.textContent('[role="status"]')).toBe(TEXT[locale].approved);
        expect((await pairOf(a, c)).status).toBe('published');
        expect(ok(await staff('GET', `/api/intelligence/proposals/${approvable.id}`)).status).toBe(
          'approved',
        );

        // The stale one: approving it applies nothing and says why.
        const staleCard = page.locator('article', { hasText: `Recommend C with B (${locale})` });
        await staleCard.locator('form[action$="/approve"] button').click();
        await page.locator('[role="alert"]', { hasText: TEXT[locale].stale }).waitFor();
        expect((await pairOf(b, c)).status).toBe('dismissed');
        expect(ok(await staff('GET', `/api/intelligence/proposals/${staleOne.id}`)).status).toBe('stale');
        await ui.shot(page, `apps-${locale}-03-proposal-stale`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('installs an app through the admin assistant and uses its blocks', async () => {
      const appId = `notes-${locale}`;
      const productId = await createProduct(`N-${locale}`);
      const { context, page, refused } = await ui.openContext(locale);
      const invokes: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes(`/admin/apps/${appId}/panel/invoke`)) invokes.push(request.url());
      });
      try {
        await ui.signIn(page, h.shopA.token);
        await page.click('nav a[href="/admin/apps"]');
        await page.waitForURL(/\/admin\/apps$/);
        await ui.shot(page, `apps-${locale}-04-apps`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // The admin assistant: a form generated from its typed questions, in the UI language.
        await page.click('a[href="/admin/apps/assistants/admin"]');
        await page.waitForURL(/\/assistants\/admin$/);
        await page.fill('#q-app_id', appId);
        await page.fill('#q-name', `Notes ${locale}`);
        await page.fill('#q-entity', 'note');
        await page.fill(
          '#q-fields',
          JSON.stringify([{ name: 'text', type: 'string', label: 'Text', required: true }]),
        );
        await page.selectOption('#q-object', 'product');
        await page.check('#q-mounts-admin\\.product\\.general');
        await page.check('#q-blocks-table');
        await page.check('#q-blocks-form');
        await page.click('form[action$="/preview"] button[type="submit"]');
        await page.waitForSelector('pre.manifest');
        expect(await page.textContent('main')).toContain(TEXT[locale].newApp);
        expect(JSON.parse((await page.textContent('pre.manifest'))!)).toMatchObject({ id: appId });
        await ui.shot(page, `apps-${locale}-05-assistant-preview`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await page.click('form[action$="/install"] button[type="submit"]');
        await page.waitForURL(new RegExp(`/admin/apps/${appId}$`));
        expect(ok(await staff('GET', '/api/apps')).items).toEqual(
          expect.arrayContaining([expect.objectContaining({ appId, version: '1.0.0' })]),
        );

        // The data cards beside a product: the form block writes, the table block shows it.
        await page.fill('#context-productId', productId);
        await page.click('form[method="get"] button[type="submit"]');
        await page.waitForURL(/productId=/);
        await page.fill('section[data-block="form_1"] input[name="f.text"]', `Gift wrap ${locale}`);
        await page.click('section[data-block="form_1"] button[type="submit"]');
        await page.waitForURL(/done=saved/);
        expect(await page.textContent('[role="status"]')).toContain(TEXT[locale].saved);
        expect(await page.textContent('section[data-block="table_1"] table')).toContain(
          `Gift wrap ${locale}`,
        );
        const records = ok(await staff('POST', `/api/apps/${appId}/actions/list`, {})) as {
          items: { data: Record<string, unknown> }[];
        };
        expect(records.items.map((item) => item.data)).toEqual([
          { product_id: productId, text: `Gift wrap ${locale}` },
        ]);
        await ui.shot(page, `apps-${locale}-06-app-blocks`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // An app without panels (the assistant's) shows none: the panel is the app's to supply.
        expect(await page.locator('iframe').count()).toBe(0);
        expect(invokes).toEqual([]);
        // An upgrade that removes a field is incompatible: the reasons are listed and nothing changes.
        const manifest = JSON.parse(await page.inputValue('#manifest')) as {
          version: string;
          entities: { fields: { name: string }[] }[];
        };
        manifest.version = '1.1.0';
        manifest.entities[0]!.fields = manifest.entities[0]!.fields.filter((field) => field.name !== 'text');
        await page.fill('#manifest', JSON.stringify(manifest));
        await page.click('form[action="/admin/apps/install"] button[type="submit"]');
        await page.waitForSelector('[role="alert"] li');
        expect(await page.textContent('[role="alert"]')).toContain('/entities/0/fields');
        await ui.shot(page, `apps-${locale}-08-upgrade-incompatible`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        const versionOf = async () =>
          (ok(await staff('GET', '/api/apps')).items as { appId: string; version: string }[]).find(
            (item) => item.appId === appId,
          )?.version;
        expect(await versionOf()).toBe('1.0.0');
        // The assistant again with one more field: a compatible upgrade, shown before installing.
        await page.goto(`${ui.base}/admin/apps/assistants/admin`);
        await page.fill('#q-app_id', appId);
        await page.fill('#q-name', `Notes ${locale}`);
        await page.fill('#q-entity', 'note');
        await page.fill(
          '#q-fields',
          JSON.stringify([
            { name: 'text', type: 'string', label: 'Text', required: true },
            { name: 'urgent', type: 'boolean', label: 'Urgent' },
          ]),
        );
        await page.selectOption('#q-object', 'product');
        await page.check('#q-mounts-admin\\.product\\.general');
        await page.check('#q-blocks-table');
        await page.check('#q-blocks-form');
        await page.click('form[action$="/preview"] button[type="submit"]');
        await page.waitForSelector('pre.manifest');
        expect(await page.textContent('main')).toContain(TEXT[locale].compatible);
        await ui.shot(page, `apps-${locale}-09-upgrade-preview`);
        await page.click('form[action$="/install"] button[type="submit"]');
        await page.waitForURL(new RegExp(`/admin/apps/${appId}$`));
        expect(await versionOf()).not.toBe('1.0.0');
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it("shows the loyalty app's own panel, whose script acts through the bridge and nothing else", async () => {
      const { context, page, refused } = await ui.openContext(locale);
      const invokes: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/admin/apps/loyalty/panel/invoke')) invokes.push(request.url());
      });
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/apps/loyalty`);
        const section = page.locator('section[data-panel="questions"]');
        expect(await section.locator('h3').textContent()).toBe(TEXT[locale].loyaltyPanel);
        const iframe = section.locator('iframe.app-panel');
        expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
        const nonce = (await iframe.getAttribute('data-panel-nonce'))!;
        const frame = await panelFrame(page, 'questions', '#questions li');
        // The app's markup, its texts chosen by its script from the document's language.
        expect(await frame.textContent('h1')).toBe(TEXT[locale].loyaltyPanel);
        expect(await frame.evaluate('document.documentElement.lang')).toBe(locale);
        // The admin's document around it: only the shim's and the app's hashed script and style.
        const panelAnswer = await page.request.get(`${ui.base}${await iframe.getAttribute('src')}`);
        const panelPolicy = panelAnswer.headers()['content-security-policy'] ?? '';
        expect(panelPolicy).toMatch(
          /script-src 'sha256-[^']+' 'sha256-[^']+'; style-src 'sha256-[^']+' 'sha256-[^']+';/,
        );
        for (const directive of [
          "connect-src 'none'",
          "form-action 'none'",
          "base-uri 'none'",
          "frame-ancestors 'self'",
          'img-src data:',
        ]) {
          expect(panelPolicy).toContain(directive);
        }
        expect(panelPolicy).not.toContain('unsafe');
        expect(await panelAnswer.text()).not.toContain('cw_pat_');
        expect(await frame.evaluate('self.origin')).toBe('null');
        expect(
          await frame.evaluate(
            "(() => { try { return document.cookie } catch (e) { return 'refused: ' + e.name } })()",
          ),
        ).toBe('refused: SecurityError');
        expect(
          await frame.evaluate(
            `fetch(${JSON.stringify(`${ui.base}/admin/apps`)}, { credentials: 'include' }).then(() => 'read', (e) => 'refused: ' + e.name)`,
          ),
        ).toBe('refused: TypeError');

        // The app's script invokes its declared actions through the bridge and shows the answer.
        const question = `Do points expire (${locale})?`;
        await frame.fill('#question', question);
        await frame.fill('#answer', 'After two years.');
        await frame.click('#faq-form button[type="submit"]');
        await frame.waitForSelector('#status[data-state="added"]');
        expect(await frame.textContent('#status')).toBe(`${TEXT[locale].added}${question}`);
        await frame.waitForSelector(`#questions li:has-text(${JSON.stringify(question)})`);
        expect(invokes).toHaveLength(3); // list_faq on load, add_faq, list_faq again
        const questions = async () =>
          (
            ok(await staff('POST', '/api/apps/loyalty/actions/list_faq', {})) as {
              items: { data: { question: string } }[];
            }
          ).items.map((item) => item.data.question);
        expect(await questions()).toContain(question);
        await ui.shot(page, `apps-${locale}-12-app-panel`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // A refusal of the action itself reaches the script as an error with its status.
        expect(
          await frame.evaluate(
            "cartwright.invoke('add_faq', {}).then(() => 'ran', (error) => error.status + ' ' + typeof error.code)",
          ),
        ).toBe('422 string');
        // Another app's action, by the helper or by a message naming the other app: refused, nothing sent.
        expect(
          await frame.evaluate(
            "cartwright.invoke('other_only', { value: 'x' }).then(() => 'ran', (error) => error.code)",
          ),
        ).toBe('APP_ACTION_NOT_FOUND');
        expect(
          await frame.evaluate(`new Promise((resolve) => {
            addEventListener('message', (event) => { if (event.data?.requestId === 'other') resolve(event.data.type) });
            parent.postMessage({ nonce: ${JSON.stringify(nonce)}, type: 'invoke', requestId: 'other', appId: 'other-app', action: 'other_only', input: { value: 'x' } }, '*');
          })`),
        ).toBe('refused');
        // Without the nonce, or from another window (the admin page itself): ignored.
        await frame.evaluate(
          `parent.postMessage({ type: 'invoke', action: 'add_faq', input: { question: 'no nonce', answer: 'x' } }, '*')`,
        );
        await page.evaluate(
          `window.postMessage({ nonce: ${JSON.stringify(nonce)}, type: 'invoke', action: 'add_faq', input: { question: 'wrong window', answer: 'x' } }, '*')`,
        );
        // The door behind the bridge checks again: this app's nonce opens no other app's route.
        const forged = await page.evaluate(`(async () => {
          const frame = document.querySelector('iframe.app-panel');
          const body = new URLSearchParams({ csrf: frame.dataset.panelCsrf, nonce: frame.dataset.panelNonce, action: 'other_only', input: '{"value":"x"}' });
          const response = await fetch('/admin/apps/other-app/panel/invoke', { method: 'POST', body });
          return response.status;
        })()`);
        expect(forged).toBe(403);
        // Let any stray message be handled before counting.
        await page.evaluate('new Promise((resolve) => setTimeout(resolve, 300))');
        expect(invokes).toHaveLength(4); // the refused add_faq {} was the only one more
        expect(
          (ok(await staff('POST', '/api/apps/other-app/actions/list_memos', {})) as { items: unknown[] })
            .items,
        ).toEqual([]);
        expect(await questions()).not.toContain('no nonce');
        expect(await questions()).not.toContain('wrong window');
        // The only refusals on the console: the credentialed fetch the test made from the panel.
        expect(refused.filter((text) => !/connect-src 'none'|Fetch API cannot load/.test(text))).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('blocks a panel script that tries fetch, XHR or a form post to the admin', async () => {
      const { context, page, refused } = await ui.openContext(locale);
      // What left a panel frame: answered requests, and refused ones with the browser's reason.
      const fromPanels: string[] = [];
      const blocked: string[] = [];
      page.on('requestfinished', (request) => {
        if (request.frame() !== page.mainFrame()) fromPanels.push(new URL(request.url()).pathname);
      });
      page.on('requestfailed', (request) => {
        if (request.frame() !== page.mainFrame())
          blocked.push(`${new URL(request.url()).pathname} ${request.failure()?.errorText}`);
      });
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/apps/probe-app`);
        const frame = await panelFrame(page, 'probe', '#out li:nth-child(5)');
        const seen = (await frame.locator('#out li').allTextContents()).sort();
        expect(seen).toEqual([
          'fetch TypeError',
          'violation connect-src',
          'violation connect-src',
          'violation form-action',
          'xhr error',
        ]);
        await page.evaluate('new Promise((resolve) => setTimeout(resolve, 300))');
        // Only the panel's own document was answered; the XHR failed as "csp" in the browser (the fetch and
        // the form post are not even reported as requests); nothing was written.
        expect(fromPanels).toEqual(['/admin/apps/probe-app/panels/probe']);
        expect(
          blocked.every((line) => line.endsWith(' csp')),
          blocked.join(),
        ).toBe(true);
        expect(
          (ok(await staff('POST', '/api/apps/probe-app/actions/list_memos', {})) as { items: unknown[] })
            .items,
        ).toEqual([]);
        await ui.shot(page, `apps-${locale}-13-probe-panel`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        expect(
          refused.filter((text) => !/connect-src 'none'|form-action 'none'|Fetch API cannot load/.test(text)),
        ).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('shows a reader no edit control and refuses the replayed posts', async () => {
      const appId = `notes-${locale}`;
      const { context, page } = await ui.openContext(locale);
      try {
        await ui.signIn(page, readerToken);
        await page.goto(`${ui.base}/admin/intelligence`);
        expect(await page.locator('main form').count()).toBe(0);
        await ui.shot(page, `apps-${locale}-10-reader-intelligence`);
        await page.goto(`${ui.base}/admin/apps/${appId}`);
        expect(await page.locator('main form[method="post"]').count()).toBe(0);
        expect(await page.locator('main input[name^="f."], main textarea').count()).toBe(0);
        expect(await page.locator('iframe').count()).toBe(0);
        await ui.shot(page, `apps-${locale}-11-reader-app`);
        // The loyalty app's panel is for writers: a reader sees no frame.
        await page.goto(`${ui.base}/admin/apps/loyalty`);
        expect(await page.locator('iframe').count()).toBe(0);
        expect(await ui.seriousViolations(page)).toEqual([]);
        // The owner's form post replayed with the reader's session and CSRF token: refused.
        const before = (
          ok(await staff('POST', `/api/apps/${appId}/actions/list`, {})) as { items: unknown[] }
        ).items.length;
        const product = (
          ok(await staff('POST', `/api/apps/${appId}/actions/list`, {})) as {
            items: { data: { product_id: string } }[];
          }
        ).items[0]!.data.product_id;
        const status = await page.evaluate(`(async () => {
          const csrf = document.querySelector('input[name="csrf"]').value;
          const body = new URLSearchParams({ csrf, back: '/admin/apps', context: ${JSON.stringify(product)}, 'f.text': 'by a reader' });
          const response = await fetch('/admin/apps/${appId}/blocks/form_1', { method: 'POST', body, redirect: 'manual' });
          return response.status;
        })()`);
        expect(status).toBe(403);
        expect(
          (ok(await staff('POST', `/api/apps/${appId}/actions/list`, {})) as { items: unknown[] }).items,
        ).toHaveLength(before);
      } finally {
        await context.close();
      }
    });
  });
});

/** The frame of an app panel once `ready` (a selector inside it) is there. */
async function panelFrame(page: Page, panelId: string, ready: string): Promise<Frame> {
  await page.waitForSelector(`section[data-panel="${panelId}"] iframe.app-panel`);
  for (let tries = 0; tries < 100; tries++) {
    const frame = page.frames().find((item) => item.url().includes(`/panels/${panelId}?nonce=`));
    if (frame && (await frame.locator(ready).count()) > 0) return frame;
    await page.waitForTimeout(100);
  }
  throw new Error(`the panel ${panelId} did not load`);
}

// An app whose panel script tries to reach the admin every way it can: a credentialed fetch, an
// XHR post to the bridge's door and a form post to a block route. It records what happened.
const PROBE_MANIFEST = {
  apiVersion: 1,
  id: 'probe-app',
  version: '1.0.0',
  name: { en: 'Probe app', de: 'Sonden-App' },
  entities: [{ id: 'memo', fields: [{ name: 'value', type: 'string' }] }],
  actions: [
    { id: 'add_memo', kind: 'create', entity: 'memo' },
    { id: 'list_memos', kind: 'list', entity: 'memo' },
  ],
  admin: {
    panels: [
      {
        id: 'probe',
        label: { en: 'Probe', de: 'Sonde' },
        html: '<main><h1>Probe</h1><form id="post" method="post" action="/admin/apps/probe-app/blocks/add"><label for="value">Value</label><input id="value" name="value" value="posted"><button type="submit">Post</button></form><ul id="out"></ul></main>',
        script: `const out = document.getElementById('out');
const note = (text) => out.append(Object.assign(document.createElement('li'), { textContent: text }));
document.addEventListener('securitypolicyviolation', (event) => note('violation ' + event.effectiveDirective));
fetch('/admin/apps', { credentials: 'include' }).then(() => note('fetch read'), (error) => note('fetch ' + error.name));
const request = new XMLHttpRequest();
request.open('POST', '/admin/apps/probe-app/panel/invoke');
request.onload = () => note('xhr read ' + request.status);
request.onerror = () => note('xhr error');
request.send(new URLSearchParams({ action: 'add_memo', input: '{"value":"xhr"}' }));
document.getElementById('post').requestSubmit();`
          // CR LF line ends: the admin hashes the text as the HTML parser reads it (LF), or it would not run.
          .replaceAll('\n', '\r\n'),
      },
    ],
  },
};
