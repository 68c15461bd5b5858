import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminSessionClient, adminSession, formFields } from './admin-session.ts';
import { APP_CREDENTIAL, createEventsShop, type EventsShop } from './events-fixture.ts';
import type { Harness } from './harness.ts';

// The event log (/admin/events) and an app's delivery log (/admin/apps/:app/deliveries) in process
// (decision 0047): events listed after an action with the consumers' positions, a delivery to the
// loopback app service failed, listed and redelivered, the circuit opened and resumed; a reader
// sees no button and the reader's replayed posts are refused (403, nothing changed); shop B
// reaches nothing of shop A (404).

let shop: EventsShop;
let h: Harness;
let owner: AdminSessionClient;
let ownerDe: AdminSessionClient;
let reader: AdminSessionClient;
let productId: string;

beforeAll(async () => {
  shop = await createEventsShop();
  ({ h } = shop);
  owner = await adminSession(h, h.shopA.token, 'en');
  ownerDe = await adminSession(h, h.shopA.token, 'de');
  reader = await adminSession(h, await h.readerToken('reader@events.test'), 'en');
  // The action: a product, refused twice by the app's service, so its delivery fails.
  shop.appService.failNextDeliveries({ kind: 'refuse', status: 422, times: 2, detail: 'not today' });
  ({ productId } = await h.sellableTea());
  await shop.deliverUntil(async () =>
    (await shop.deliveries()).items.some((item) => item.status === 'failed'),
  );
});

afterAll(async () => {
  await shop?.close();
});

describe('/admin/events', () => {
  it('lists the event of an action with its time, actor and subject, and each consumer’s position', async () => {
    const listed = await h.call('GET', '/api/events?name=catalog.product.created', { token: h.shopA.token });
    const created = (listed.body.items as { id: string; sequence: number }[])[0]!;
    const page = await owner.get('/admin/events');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Event log</h1>');
    const row = page.html.slice(page.html.indexOf(`data-event="${created.id}"`));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(
      new RegExp(`catalog\\.product\\.created[\\s\\S]*API token [0-9a-f-]{36}[\\s\\S]*${productId}`),
    );
    // The app's matching consumer has processed everything so far: lag 0.
    const status = await h.call('GET', '/api/events/status', { token: h.shopA.token });
    const head = status.body.head as number;
    const consumer = page.html.slice(page.html.indexOf('data-consumer="app-delivery-matching"'));
    expect(consumer.slice(0, consumer.indexOf('</tr>'))).toMatch(
      new RegExp(`<td class="num">${head}</td><td class="num">0</td>`),
    );
    expect(page.html).toContain(`Latest event: number ${head}`);
    // German: the same page in the UI language, dates and numbers through Intl.
    const german = await ownerDe.get('/admin/events');
    expect(german.html).toContain('<h1>Ereignisprotokoll</h1>');
    expect(german.html).toContain('Verarbeitet bis');
  });

  it('filters by type and pages forward from a number; a bad number is refused with its detail', async () => {
    const filtered = await owner.get('/admin/events?name=catalog.product.created&after=0');
    const table = filtered.html.slice(filtered.html.indexOf('<table class="data events">'));
    const names = [...table.matchAll(/<th scope="row"><code>([^<]+)<\/code><\/th>/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['catalog.product.created']));
    const none = await owner.get('/admin/events?after=999999');
    expect(none.html).toContain('No event in this range.');
    const bad = await owner.get('/admin/events?after=twelve');
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('The filter is not valid: twelve');
    const long = await owner.get(`/admin/events?name=${'x'.repeat(201)}`);
    expect(long.status).toBe(422);
    expect(long.html).toContain('The filter is not valid');
  });

  it('shows shop B only its own events, and the nav link only to members who read settings', async () => {
    const shopB = await adminSession(h, h.shopB.token, 'en');
    const listed = await h.call('GET', '/api/events', { token: h.shopA.token });
    const page = await shopB.get('/admin/events?after=0');
    expect(page.status).toBe(200);
    for (const event of listed.body.items as { id: string }[]) expect(page.html).not.toContain(event.id);
    expect((await owner.get('/admin')).html).toContain('href="/admin/events"');
    expect((await reader.get('/admin/events')).status).toBe(200);
  });
});

describe('/admin/apps/hooks/deliveries', () => {
  it('lists the failed delivery with its status, attempts and last answer, and redelivers it', async () => {
    const failed = (await shop.deliveries()).items.find((item) => item.status === 'failed')!;
    expect(failed.event.name).toMatch(/^catalog\.product\./);
    const page = await owner.get('/admin/apps/hooks/deliveries');
    expect(page.status).toBe(200);
    const row = page.html.slice(page.html.indexOf(`data-delivery="${failed.id}"`));
    const cells = row.slice(0, row.indexOf('</tr>'));
    expect(cells).toContain('Failed');
    expect(cells).toContain('HTTP 422');
    expect(cells).toContain('<td class="num">2</td>');
    expect(page.html).not.toContain(APP_CREDENTIAL);
    // German labels.
    const german = await ownerDe.get('/admin/apps/hooks/deliveries');
    expect(german.html).toContain('Fehlgeschlagen');
    expect(german.html).toContain('Erneut zustellen');
    // Linked from the app's page.
    expect((await owner.get('/admin/apps/hooks')).html).toContain('href="/admin/apps/hooks/deliveries"');

    const action = `/admin/apps/hooks/deliveries/${failed.id}/redeliver`;
    const fields = formFields(page.html, `action="${action}"`);
    const done = await owner.post(action, fields);
    expect(done.status).toBe(303);
    expect(done.location).toBe('/admin/apps/hooks/deliveries?done=redelivered');
    expect((await owner.get(done.location!)).html).toContain('The delivery was queued again');
    expect((await shop.deliveries()).items.find((item) => item.id === failed.id)).toMatchObject({
      status: 'pending',
      attempts: 0,
    });
    await shop.deliverUntil(
      async () =>
        (await shop.deliveries()).items.find((item) => item.id === failed.id)?.status === 'delivered',
    );
    const after = await owner.get('/admin/apps/hooks/deliveries?status=delivered');
    expect(after.html).toContain(`data-delivery="${failed.id}"`);
    // The filter: no failed one is left.
    expect((await owner.get('/admin/apps/hooks/deliveries?status=failed')).html).toContain(
      'No delivery here.',
    );
  });

  it('shows paused deliveries after consecutive failures and resumes them', async () => {
    shop.appService.failNextDeliveries({ kind: 'status', status: 500, times: 100 });
    for (const sku of ['HOOK-A', 'HOOK-B', 'HOOK-C']) await shop.createProduct(sku);
    await shop.deliverUntil(async () => (await shop.deliveries()).circuit.open);
    shop.appService.clearFaults();
    const page = await owner.get('/admin/apps/hooks/deliveries');
    expect(page.html).toMatch(/Deliveries are paused since .*: 3 failures in a row/);
    expect(page.html).toContain('waits for Resume');
    // A reader sees neither Resume nor Redeliver, and the owner's posts replayed by the reader are refused.
    const readerPage = await reader.get('/admin/apps/hooks/deliveries');
    expect(readerPage.status).toBe(200);
    expect(readerPage.html).not.toContain('Resume deliveries');
    expect(readerPage.html).not.toContain('/redeliver"');
    const before = await h.digest();
    expect((await reader.post('/admin/apps/hooks/deliveries/resume', {})).status).toBe(403);
    const anyDelivery = (await shop.deliveries()).items[0]!;
    expect((await reader.post(`/admin/apps/hooks/deliveries/${anyDelivery.id}/redeliver`, {})).status).toBe(
      403,
    );
    expect(await h.digest()).toBe(before);

    const resumed = await owner.post(
      '/admin/apps/hooks/deliveries/resume',
      formFields(page.html, 'action="/admin/apps/hooks/deliveries/resume"'),
    );
    expect(resumed.status).toBe(303);
    expect((await owner.get(resumed.location!)).html).toContain('Deliveries resumed');
    expect((await shop.deliveries()).circuit.open).toBe(false);
    // Resuming again changes nothing and says so.
    const again = await owner.post('/admin/apps/hooks/deliveries/resume', {});
    expect((await owner.get(again.location!)).html).toContain('Deliveries were not paused; nothing changed.');
    await shop.deliverUntil(async () =>
      (await shop.deliveries()).items.every((item) => item.status !== 'pending'),
    );
  });

  it('refuses a post without CSRF, an unknown delivery, and everything of shop A to shop B', async () => {
    const anyDelivery = (await shop.deliveries()).items[0]!;
    const shopB = await adminSession(h, h.shopB.token, 'en');
    const before = await h.digest();
    const noCsrf = await h.app.request(`/admin/apps/hooks/deliveries/${anyDelivery.id}/redeliver`, {
      method: 'POST',
      headers: {
        cookie: owner.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost',
      },
      body: '',
    });
    expect(noCsrf.status).toBe(403);
    const unknown = await owner.post(
      '/admin/apps/hooks/deliveries/0190f0c8-0000-7000-8000-00000000dead/redeliver',
      {},
    );
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('No such delivery');
    expect((await shopB.get('/admin/apps/hooks/deliveries')).status).toBe(404);
    expect((await shopB.post(`/admin/apps/hooks/deliveries/${anyDelivery.id}/redeliver`, {})).status).toBe(
      404,
    );
    expect((await shopB.post('/admin/apps/hooks/deliveries/resume', {})).status).toBe(404);
    expect(await h.digest()).toBe(before);
  });
});
