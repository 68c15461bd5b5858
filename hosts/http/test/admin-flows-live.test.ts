import { consumeOnce, flowMatchingProjection } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';

// The executions fragment's long-poll without a browser (decision 0047, "Flows and executions"):
// a request naming a list it no longer shows is answered at once; one naming the current list
// waits (3 s when nothing happens) and is answered soon after a job appears; a session's third
// concurrent wait is answered as a plain 3 s poll.

let h: Harness;
let channelKey: string;
let productId: string;
const FLOW = '0190f0c8-0000-7000-8000-0000000fa101';

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea());
  const saved = await h.call('PUT', `/api/automation/flows/${FLOW}`, {
    token: h.shopA.token,
    body: {
      revision: 0,
      active: true,
      data: {
        name: { en: 'Live note' },
        trigger: 'order.placed',
        pipeline: {
          entry: 'note',
          nodes: [{ id: 'note', kind: 'action', action: 'note', config: { text: 'live' }, next: null }],
        },
      },
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await matchEvents();
});
afterAll(async () => h?.close());

async function matchEvents() {
  const options = { owner: 'admin-flows-live', leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
  while ((await consumeOnce(h.services, flowMatchingProjection, options)).tenantId !== null) {
    // every shop's events into jobs
  }
}

/** A placed order and its flow job. */
async function newJob() {
  await h.placedOrder(channelKey, productId);
  await matchEvents();
}

const ownerCookie = () => adminCookie(h, h.shopA.token);

const fingerprintOf = (html: string) => /data-fingerprint="([\w-]+)"/.exec(html)?.[1];
const jobsOf = (html: string) => html.match(/<li class="card execution"/g)?.length ?? 0;

/** One long-poll: its answer's fingerprint and job count, and how long it took. */
async function live(cookie: string, seen: string) {
  const started = Date.now();
  const answer = await h.app.request(`/admin/flows/executions/live?seen=${seen}`, { headers: { cookie } });
  expect(answer.status).toBe(200);
  const html = await answer.text();
  return { fingerprint: fingerprintOf(html), jobs: jobsOf(html), ms: Date.now() - started };
}

describe('the executions long-poll', () => {
  it('answers a stale list at once and the current one after 3 s when nothing changes', async () => {
    await newJob();
    const cookie = await ownerCookie();
    const page = await (await h.app.request('/admin/flows/executions', { headers: { cookie } })).text();
    const current = fingerprintOf(page)!;
    expect(current).toBeDefined();
    expect(page).toContain(`hx-get="/admin/flows/executions/live?seen=${current}"`);
    const stale = await live(cookie, 'stale');
    expect(stale).toMatchObject({ fingerprint: current, jobs: jobsOf(page) });
    expect(stale.ms).toBeLessThan(2500);
    const idle = await live(cookie, current);
    expect(idle.fingerprint).toBe(current);
    expect(idle.ms).toBeGreaterThanOrEqual(2900);
  });

  it('answers the waits soon after a job appears, two per session; a third waits as a plain poll', async () => {
    const cookie = await ownerCookie();
    const before = await live(cookie, 'stale');
    const waits = [live(cookie, before.fingerprint!), live(cookie, before.fingerprint!)];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = live(cookie, before.fingerprint!);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await newJob();
    const answers = await Promise.all([...waits, third]);
    console.info(`executions long-poll: answered after ${answers.map((answer) => answer.ms).join(', ')} ms`);
    for (const answer of answers) {
      expect(answer.fingerprint).not.toBe(before.fingerprint);
      expect(answer.jobs).toBeGreaterThan(before.jobs);
    }
    expect(answers[0]!.ms).toBeLessThan(2900);
    expect(answers[1]!.ms).toBeLessThan(2900);
    expect(answers[2]!.ms).toBeGreaterThanOrEqual(2900);
  });
});
