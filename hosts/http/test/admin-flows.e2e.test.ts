import { consumeOnce, flowMatchingProjection, runDueJobs } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, browserSkipped, launchAdminBrowser } from './admin-browser.ts';
import { createHarness, type Harness } from './harness.ts';

// The flow builder and the executions page walked in chromium (decision 0047, "Flows"), in English
// and German: build a flow (order.placed → delay 1 s → note → tag) node by node, the actions
// configured with the typed inputs the catalog describes, see the problems pinned to their nodes
// and config inputs before saving (an edge to nowhere, an unreachable node, a missing note text,
// missing tags; each said in the UI language from its code and the draft), fix and save; place
// orders through the store API, drive the workers' rounds from the test while the page long-polls,
// print how long each new job took to show, and watch the execution appear waiting on its delay,
// then finished with its trace. A reader sees no edit or resolve control and the API refuses the
// reader's replayed posts.

let h: Harness;
let ui: AdminBrowser;
let channelKey: string;
let productId: string;
let readerToken: string;
const BRANCHING = '0190f0c8-0000-7000-8000-0000000fa003';

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

/** What the memory-worker role does first: every shop's events into jobs. */
async function matchEvents() {
  const options = { owner: 'admin-flows', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  while ((await consumeOnce(h.services, flowMatchingProjection, options)).tenantId !== null) {
    // every shop's events into jobs
  }
}

/** One round of what the memory-worker and app-worker roles do: events into jobs, then due jobs. */
async function workerRound() {
  await matchEvents();
  while ((await runDueJobs(h.services, { owner: 'admin-flows', leaseMs: 30_000, batchSize: 20 })) > 0) {
    // every due job
  }
}

async function placeOrder(): Promise<string> {
  return (await h.placedOrder(channelKey, productId)).orderId;
}

interface StoredFlow {
  id: string;
  revision: number;
  active: boolean;
  data: { name: Record<string, string>; trigger: string; pipeline: { entry: string; nodes: unknown[] } };
}

async function storedFlow(id: string): Promise<StoredFlow | undefined> {
  const listed = await staff('GET', '/api/automation');
  expect(listed.status).toBe(200);
  return (listed.body as { flows: StoredFlow[] }).flows.find((flow) => flow.id === id);
}

const TEXT = {
  en: {
    title: 'Flows',
    valid: 'The graph is valid.',
    saved: 'Saved as revision 1.',
    waiting: 'waiting',
    finished: 'finished',
    dangling: '“Then” of node delay-1 goes to node nowhere, which does not exist.',
    unreachable: 'Nodes end and action-1 cannot be reached from the start node.',
    noteRequired: '“Note” is required.',
    tagsRequired: '“Tags” is required.',
  },
  de: {
    title: 'Flows',
    valid: 'Der Graph ist gültig.',
    saved: 'Als Revision 1 gespeichert.',
    waiting: 'wartet',
    finished: 'beendet',
    dangling: '„Danach“ von Knoten delay-1 führt zu Knoten nowhere, den es nicht gibt.',
    unreachable: 'Die Knoten end und action-1 sind vom Startknoten aus nicht erreichbar.',
    noteRequired: '„Notiz“ ist ein Pflichtfeld.',
    tagsRequired: '„Tags“ ist ein Pflichtfeld.',
  },
} as const;

describe.skipIf(browserSkipped)('the flow builder and executions in chromium', () => {
  const flows: Partial<Record<'en' | 'de', string>> = {};

  beforeAll(async () => {
    h = await createHarness();
    ({ productId, channelKey } = await h.sellableTea());
    readerToken = await h.readerToken('flow-reader@a.test');
    // A branching flow (inactive): a condition with both branches, a delay of 2 hours, a stop.
    const branching = await staff('PUT', `/api/automation/flows/${BRANCHING}`, {
      revision: 0,
      active: false,
      data: {
        name: { en: 'Big orders', de: 'Große Bestellungen' },
        trigger: 'order.placed',
        pipeline: {
          entry: 'big',
          nodes: [
            {
              id: 'big',
              kind: 'condition',
              condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
              on_true: 'wait',
              on_false: 'end',
            },
            { id: 'wait', kind: 'delay', seconds: 7200, next: 'tag' },
            {
              id: 'tag',
              kind: 'action',
              action: 'action.add.order.tag',
              config: { tags: ['big'] },
              next: 'end',
            },
            { id: 'end', kind: 'stop' },
          ],
        },
      },
    });
    expect(branching.status, JSON.stringify(branching.body)).toBe(200);
    // Events from setting the shop up become jobs now, so each walk sees only its own order's.
    await workerRound();
    ui = await launchAdminBrowser(h.services);
  });

  afterAll(async () => {
    await ui?.close();
    await h?.close();
  });

  describe.each(['en', 'de'] as const)('in %s', (locale) => {
    it('builds a flow with a delay, pins problems to nodes before saving, and watches its execution finish', async () => {
      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/flows`);
        expect(await page.textContent('h1')).toBe(TEXT[locale].title);
        await ui.shot(page, `flows-${locale}-01-list`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        await page.click('a[href="/admin/flows/new"]');
        await page.waitForSelector('#flow-name');
        const name = `Delay then note (${locale})`;
        await page.fill('#flow-name', name);
        expect(await page.inputValue('#flow-trigger')).toBe('order.placed');

        // A delay node: 1 second, its edge pointing to a node that does not exist.
        await page.selectOption('#flow-add-kind', 'delay');
        await ui.answer(page, () => page.click('button[name="op"][value="add"]'));
        await page.waitForSelector('#node-1');
        await page.fill('#n-1-amount', '1');
        await page.selectOption('#n-1-unit', 'seconds');
        await page.fill('#n-1-next', 'nowhere');
        await page.fill('#flow-entry', 'delay-1');
        // A note action, which nothing leads to yet.
        await page.selectOption('#flow-add-kind', 'action');
        await ui.answer(page, () => page.click('button[name="op"][value="add"]'));
        await page.waitForSelector('#node-2');
        expect(await page.inputValue('#n-2-action')).toBe('note');
        // Its text is a typed input labelled in the UI language, left empty for now.
        expect(await page.textContent('label[for="n-2-c0"]')).toContain(locale === 'en' ? 'Note' : 'Notiz');
        expect(await page.locator('#node-2 textarea[name="n-2-config"]').count()).toBe(0);
        await page.fill('#n-2-next', 'end');

        await ui.answer(page, () => page.click('button[name="op"][value="check"]'));
        // The dangling edge is pinned to the delay node, the unreachable node to itself: in the
        // node's fieldset and in the drawn graph, before anything is saved.
        await page.waitForSelector('#node-1 .message.error');
        // Each said in the UI language from the code and the draft (which edge, which id).
        expect(await page.textContent('#node-1 .message.error')).toContain(TEXT[locale].dangling);
        expect(await page.locator('#node-2 .message.error').count()).toBe(1);
        expect(await page.textContent('#node-2 .message.error')).toContain(TEXT[locale].unreachable);
        expect(await page.textContent('#g-node-1 .flow-issues')).toContain(TEXT[locale].dangling);
        // The stop node is only reached through the unreachable note, so it is unreachable too.
        expect(await page.locator('#node-0 .message.error').count()).toBe(1);
        expect(await page.locator('.flow-graph .flow-missing').textContent()).toContain('nowhere');
        expect(await page.locator('.flow-graph .flow-node.has-issues').count()).toBe(3);
        expect(await page.getAttribute('#n-1-id', 'aria-invalid')).toBe('true');
        // The missing note text is pinned to its input.
        expect(await page.getAttribute('#n-2-c0', 'aria-invalid')).toBe('true');
        expect(await page.getAttribute('#n-2-c0', 'aria-describedby')).toContain('n-2-c0-error');
        expect(await page.textContent('#n-2-c0-error')).toBe(TEXT[locale].noteRequired);
        // No text of the graph check's English messages shows on the page (these need no detail).
        const problems = await page.locator('.message.error, .flow-issues, .node-errors').allTextContents();
        expect(problems.join('\n')).not.toMatch(
          /The key \w+ is required|names no node|Not reachable from the entry/,
        );
        expect(await page.locator('.issue-detail').count()).toBe(0);
        await ui.shot(page, `flows-${locale}-02-problems`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // Saving anyway is refused before the operation is called: nothing is stored.
        const flowId = (await page.getAttribute('form.flow-editor', 'action'))!.split('/').at(-1)!;
        await ui.answer(page, () => page.click('button[name="op"][value="save"]'));
        await page.waitForSelector('#node-1 .message.error');
        expect(await storedFlow(flowId)).toBeUndefined();

        // Fixed: delay → note → tag → stop. The note's text typed; a second action switched to
        // "add order tag", whose tags input appears after Check (and is pinned while empty).
        await page.fill('#n-1-next', 'action-1');
        await page.fill('#n-2-c0', `Checked by the ${locale} flow`);
        await page.fill('#n-2-next', 'action-2');
        await page.selectOption('#flow-add-kind', 'action');
        await ui.answer(page, () => page.click('button[name="op"][value="add"]'));
        await page.waitForSelector('#node-3');
        await page.selectOption('#n-3-action', 'action.add.order.tag');
        await page.fill('#n-3-next', 'end');
        await ui.answer(page, () => page.click('button[name="op"][value="check"]'));
        // (the page before the Check already had an n-3-c0: the new action's note text)
        await page.locator('label[for="n-3-c0"]', { hasText: 'Tags' }).waitFor();
        expect(await page.getAttribute('#n-3-c0', 'aria-invalid')).toBe('true');
        expect(await page.getAttribute('#n-3-c0', 'aria-describedby')).toBe('n-3-c0-hint n-3-c0-error');
        expect(await page.textContent('#n-3-c0-error')).toBe(TEXT[locale].tagsRequired);
        // Pinned to the input, not to the node as a whole.
        expect(await page.getAttribute('#n-3-id', 'aria-invalid')).toBeNull();
        expect(await page.inputValue('#n-2-c0')).toBe(`Checked by the ${locale} flow`);
        await ui.shot(page, `flows-${locale}-02b-typed-config`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await page.fill('#n-3-c0', `vip\nflow-${locale}`);
        await ui.answer(page, () => page.click('button[name="op"][value="check"]'));
        await page.getByText(TEXT[locale].valid).waitFor();
        expect(await page.locator('.message.error').count()).toBe(0);
        await ui.shot(page, `flows-${locale}-03-valid`);
        await ui.answer(page, () => page.click('button[name="op"][value="save"]'));
        await page.getByText(TEXT[locale].saved).waitFor();
        await ui.shot(page, `flows-${locale}-04-saved`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        const stored = (await storedFlow(flowId))!;
        expect(stored).toMatchObject({
          revision: 1,
          active: true,
          data: {
            name: { [locale]: name },
            trigger: 'order.placed',
            pipeline: {
              entry: 'delay-1',
              nodes: [
                { id: 'end', kind: 'stop' },
                { id: 'delay-1', kind: 'delay', seconds: 1, next: 'action-1' },
                {
                  id: 'action-1',
                  kind: 'action',
                  action: 'note',
                  config: { text: `Checked by the ${locale} flow` },
                  next: 'action-2',
                },
                {
                  id: 'action-2',
                  kind: 'action',
                  action: 'action.add.order.tag',
                  config: { tags: ['vip', `flow-${locale}`] },
                  next: 'end',
                },
              ],
            },
          },
        });
        flows[locale] = flowId;

        // Someone saves the flow through the API meanwhile: the page's save (at revision 1) is stale.
        expect(
          (
            await staff('PUT', `/api/automation/flows/${flowId}`, {
              revision: 1,
              active: true,
              data: stored.data,
            })
          ).status,
        ).toBe(200);
        await ui.answer(page, () => page.click('button[name="op"][value="save"]'));
        await page.locator('.message.warning').waitFor();
        expect(await page.textContent('.message.warning')).toContain('2');
        await ui.shot(page, `flows-${locale}-04b-stale`);
        expect((await storedFlow(flowId))!.revision).toBe(2);

        // The executions page long-polls its fragment; the page itself is never reloaded.
        await page.goto(`${ui.base}/admin/flows/executions`);
        expect(await page.getAttribute('#executions', 'hx-trigger')).toMatch(/^load\b/);
        expect(await page.getAttribute('#executions', 'hx-get')).toMatch(/\?seen=[\w-]+$/);
        await page.evaluate('window.__notReloaded = true');
        // How long a new job takes to show, measured from its creation (the events matched) to its
        // row in the page, at a random moment of the long-poll's cycle; printed, not asserted.
        const rows = page.locator('li.execution', { hasText: name });
        const appeared: number[] = [];
        for (let run = 0; run < 4; run += 1) {
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 3000)));
          const before = await rows.count();
          await placeOrder();
          await matchEvents();
          const created = Date.now();
          await rows.nth(before).waitFor({ timeout: 15_000 });
          appeared.push(Date.now() - created);
        }
        console.info(`admin flows (${locale}): new jobs showed after ${appeared.join(', ')} ms`);
        const orderId = await placeOrder();
        await workerRound();
        const job = page.locator('li.execution', { hasText: name }).first();
        await job.and(page.locator('[data-status="waiting"]')).waitFor();
        expect(await job.locator('.badge').textContent()).toBe(TEXT[locale].waiting);
        expect(await job.textContent()).toContain('delay-1');
        await ui.shot(page, `flows-${locale}-05-waiting`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // The delay runs out; the next round finishes the job and the poll shows it with its trace.
        await new Promise((resolve) => setTimeout(resolve, 1100));
        await workerRound();
        await job.and(page.locator('[data-status="finished"]')).waitFor();
        expect(await job.locator('.badge').textContent()).toBe(TEXT[locale].finished);
        const trace = await job.locator('ol.trace li').allTextContents();
        expect(trace.some((line) => line.startsWith('delay-1'))).toBe(true);
        expect(trace.some((line) => line.startsWith('action-1'))).toBe(true);
        expect(trace.some((line) => line.startsWith('action-2'))).toBe(true);
        expect(trace.some((line) => line.startsWith('end'))).toBe(true);
        expect(await page.evaluate('window.__notReloaded')).toBe(true);
        await ui.shot(page, `flows-${locale}-06-finished`);
        expect(await ui.seriousViolations(page)).toEqual([]);

        // The note action ran on the order.
        const order = await staff('GET', `/api/orders/${orderId}`);
        expect(JSON.stringify((order.body as { activities: unknown[] }).activities)).toContain(
          `Checked by the ${locale} flow`,
        );
        expect((order.body as { order: { tags: string[] } }).order.tags).toEqual(
          expect.arrayContaining(['vip', `flow-${locale}`]),
        );
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('resolves an uncertain job from the executions page (retry in English, abandon in German)', async () => {
      // A flow tagging the order; the worker dies right after the step's receipt commits, so the
      // job is left uncertain (as packages/service/test/flows.test.ts drives it).
      const flowId =
        locale === 'en' ? '0190f0c8-0000-7000-8000-0000000fa001' : '0190f0c8-0000-7000-8000-0000000fa002';
      const name = `Tag the order (${locale})`;
      const tagFlow = (revision: number, active: boolean) =>
        staff('PUT', `/api/automation/flows/${flowId}`, {
          revision,
          active,
          data: {
            name: { en: name },
            trigger: 'order.placed',
            pipeline: {
              entry: 'tag',
              nodes: [
                {
                  id: 'tag',
                  kind: 'action',
                  action: 'action.add.order.tag',
                  config: { tags: ['audited'] },
                  next: null,
                },
              ],
            },
          },
        });
      expect((await tagFlow(0, true)).status).toBe(200);
      const orderId = await placeOrder();
      await consumeOnce(h.services, flowMatchingProjection, {
        owner: 'admin-flows',
        leaseMs: 30_000,
        batchSize: 100,
        maxBatches: 10,
      });
      const lost = runDueJobs(h.services, {
        owner: 'doomed',
        leaseMs: 300,
        batchSize: 20,
        afterReceipt: (key) =>
          key.endsWith(':tag') ? Promise.reject(new Error('worker lost')) : Promise.resolve(),
      });
      await expect(lost).rejects.toThrow('worker lost');
      await new Promise((resolve) => setTimeout(resolve, 400));
      await workerRound();
      // Later orders do not start it again.
      expect((await tagFlow(1, false)).status).toBe(200);

      const { context, page, refused } = await ui.openContext(locale);
      try {
        await ui.signIn(page, h.shopA.token);
        await page.goto(`${ui.base}/admin/flows/executions`);
        const job = page.locator('li.execution', { hasText: name });
        await job.and(page.locator('[data-status="uncertain"]')).waitFor();
        expect(await job.locator('button[name="resolution"]').count()).toBe(3);
        await ui.shot(page, `flows-${locale}-09-uncertain`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        const resolution = locale === 'en' ? 'retry' : 'abandon';
        await job.locator(`button[name="resolution"][value="${resolution}"]`).click();
        await page.waitForURL(/resolved=/);
        await page.locator('.message[role="status"]').waitFor();
        const jobs = await staff('GET', `/api/automation/executions?flowId=${flowId}&limit=5`);
        const [stored] = (jobs.body as { items: { status: string; trace: { outcome: string }[] }[] }).items;
        expect(stored!.status).toBe(resolution === 'retry' ? 'queued' : 'cancelled');
        expect(stored!.trace.at(-1)!.outcome).toBe(resolution);
        if (resolution === 'retry') {
          await workerRound();
          await job.and(page.locator('[data-status="finished"]')).waitFor();
          const order = await staff('GET', `/api/orders/${orderId}`);
          expect((order.body as { order: { tags: string[] } }).order.tags).toContain('audited');
        } else {
          await job.and(page.locator('[data-status="cancelled"]')).waitFor();
          const order = await staff('GET', `/api/orders/${orderId}`);
          expect((order.body as { order: { tags: string[] } }).order.tags).not.toContain('audited');
        }
        expect(await job.locator('button[name="resolution"]').count()).toBe(0);
        await ui.shot(page, `flows-${locale}-10-resolved`);
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('shows a reader the graph and the executions without edit or resolve controls, and the API refuses the replayed posts', async () => {
      const flowId = flows[locale]!;
      expect(flowId).toBeDefined();
      const { context, page } = await ui.openContext(locale);
      try {
        await ui.signIn(page, readerToken);
        await page.goto(`${ui.base}/admin/flows`);
        expect(await page.locator('a[href="/admin/flows/new"]').count()).toBe(0);
        await page.goto(`${ui.base}/admin/flows/${flowId}`);
        await page.waitForSelector('.flow-graph');
        expect(await page.locator('form.flow-editor, button[name="op"], textarea').count()).toBe(0);
        await ui.shot(page, `flows-${locale}-07-reader`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        // The branching flow drawn: both branches of the condition, the delay in hours, one stop
        // drawn once and linked from the other branch.
        await page.goto(`${ui.base}/admin/flows/${BRANCHING}`);
        await page.waitForSelector('.flow-graph');
        expect(await page.locator('.flow-graph .flow-branches > li').count()).toBe(2);
        expect(await page.locator('.flow-graph .flow-node').count()).toBe(4);
        expect(await page.locator('.flow-graph .flow-goto').count()).toBe(1);
        expect(await page.textContent('.flow-graph')).toContain(
          locale === 'en' ? 'wait 2 hours' : '2 Stunden warten',
        );
        expect(await page.locator('form.flow-editor, button[name="op"], textarea').count()).toBe(0);
        await ui.shot(page, `flows-${locale}-07b-reader-branches`);
        expect(await ui.seriousViolations(page)).toEqual([]);
        await page.goto(`${ui.base}/admin/flows/executions`);
        await page.waitForSelector('li.execution');
        expect(await page.locator('button[name="resolution"]').count()).toBe(0);
        await ui.shot(page, `flows-${locale}-08-reader-executions`);

        // The reader's own session and CSRF token, the owner's save: automation.save refuses it.
        const csrf = (await page.getAttribute('form[action="/admin/sign-out"] input[name="csrf"]', 'value'))!;
        const answer = await context.request.post(`${ui.base}/admin/flows/${flowId}`, {
          headers: { origin: ui.base },
          form: {
            csrf,
            op: 'save',
            revision: '2',
            count: '1',
            name: 'Vom Leser',
            trigger: 'order.placed',
            active: 'on',
            entry: 'end',
            'n-0-id': 'end',
            'n-0-kind': 'stop',
          },
        });
        expect(answer.status()).toBe(403);
        expect((await storedFlow(flowId))!.revision).toBe(2);
        // And a resolution of one of the shop's jobs.
        const jobs = await staff('GET', '/api/automation/executions?limit=1');
        const jobId = (jobs.body as { items: { id: string }[] }).items[0]!.id;
        const resolve = await context.request.post(`${ui.base}/admin/flows/executions/${jobId}/resolve`, {
          headers: { origin: ui.base },
          form: { csrf, resolution: 'abandon' },
        });
        expect(resolve.status()).toBe(403);
      } finally {
        await context.close();
      }
    });
  });
});
