import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReviewsShop, type ReviewsShop } from './admin-reviews-fixture.ts';
import { adminSession, formFields } from './admin-session.ts';
import type { Harness } from './harness.ts';

// The reviews moderation page and the payments page without a browser (decision 0047, "Reviews"
// and "Payments"; the walk is admin-reviews.e2e.test.ts): listing, filters, moderation through
// catalog.reviews.moderate with its refusals, a reader's replayed post, and shop B seeing nothing.

let shop: ReviewsShop;
let h: Harness;
let greatTea: string;
let bitterTea: string;
let sturdyMug: string;

const session = (token: string, locale: 'en' | 'de' = 'en') => adminSession(h, token, locale);

async function reviewOf(id: string) {
  const listed = await h.call('GET', '/api/catalog/reviews?limit=100', { token: h.shopA.token });
  return (listed.body.items as { id: string; status: string; revision: number }[]).find(
    (review) => review.id === id,
  )!;
}

/** The moderation form of review `id` asking for `status`, as the browser posts it. */
function moderationForm(html: string, id: string, status: 'approved' | 'rejected') {
  const start = html.indexOf(`data-review="${id}"`);
  expect(start, `review ${id} on the page`).toBeGreaterThan(-1);
  const row = html.slice(start, html.indexOf('</tr>', start));
  const form = [...row.matchAll(/<form\b[\s\S]*?<\/form>/g)].find(([text]) =>
    text.includes(`name="status" value="${status}"`),
  );
  expect(form, `a ${status} button for ${id}`).toBeDefined();
  return formFields(form![0]);
}

beforeAll(async () => {
  shop = await createReviewsShop();
  h = shop.h;
  greatTea = await shop.review(shop.teaId, { rating: 5, title: 'Great tea', content: 'Smooth & fresh.' });
  bitterTea = await shop.review(shop.teaId, { rating: 2, title: 'Too bitter', content: 'Steeped badly?' });
  sturdyMug = await shop.review(shop.mugId, { rating: 4, title: 'Sturdy mug', content: 'Survived a fall.' });
}, 120_000);
afterAll(async () => shop?.close());

describe('the reviews page', () => {
  it('lists pending reviews first: product, stars with their text, title, text, author name, date', async () => {
    const owner = await session(h.shopA.token);
    const page = await owner.get('/admin/reviews');
    expect(page.status).toBe(200);
    expect(page.html).toContain('href="/admin/reviews"');
    expect(page.html).toMatch(/<option value="pending" selected="">Pending<\/option>/);
    for (const id of [greatTea, bitterTea, sturdyMug]) expect(page.html).toContain(`data-review="${id}"`);
    expect(page.html).toContain('aria-label="5 of 5 stars"');
    expect(page.html).toContain('★★☆☆☆');
    expect(page.html).toContain('>Great tea</strong>');
    expect(page.html).toContain('Smooth &amp; fresh.');
    expect(page.html).toContain(`href="/admin/products/${shop.teaId}" lang="en">Tea</a>`);
    expect(page.html).toContain('<td>Ada L.</td>');
    // The operation exposes no e-mail, and the page shows none.
    expect(page.html).not.toContain('@harness.test');
    expect(page.html).toMatch(/<time datetime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(page.html).toContain('data-moderate="approved"');

    const german = await (await session(h.shopA.token, 'de')).get('/admin/reviews');
    expect(german.html).toContain('aria-label="5 von 5 Sternen"');
    expect(german.html).toContain('>Wartend</td>');
    expect(german.html).toMatch(/<time datetime="[^"]+">\d{1,2}\.\d{1,2}\.\d{4}/);
    expect(german.html).toContain('Freigeben');
  });

  it('filters by product (linked from the product page) and by status', async () => {
    const owner = await session(h.shopA.token);
    const product = await owner.get(`/admin/products/${shop.mugId}`);
    const href = `/admin/reviews?status=all&amp;productId=${shop.mugId}`;
    expect(product.html).toContain(`href="${href}">Reviews of this product</a>`);
    const mug = await owner.get(href.replaceAll('&amp;', '&'));
    expect(mug.html).toContain('Reviews of Mug');
    expect(mug.html).toContain(`data-review="${sturdyMug}"`);
    expect(mug.html).not.toContain(`data-review="${greatTea}"`);
    const approved = await owner.get('/admin/reviews?status=approved');
    expect(approved.html).toContain('No reviews here.');
    // An unknown status or product id falls back to the pending list, never a 500.
    const odd = await owner.get('/admin/reviews?status=maybe&productId=x&after=y');
    expect(odd.status).toBe(200);
    expect(odd.html).toContain(`data-review="${greatTea}"`);
  });

  it('approves and rejects with the list’s filter kept, and shows the operation’s refusals', async () => {
    const owner = await session(h.shopA.token);
    const list = await owner.get('/admin/reviews');
    const approve = moderationForm(list.html, greatTea, 'approved');
    const approved = await owner.post(`/admin/reviews/${greatTea}`, approve);
    expect(approved.status).toBe(303);
    expect(approved.location).toBe('/admin/reviews?status=pending&done=approved');
    const after = await owner.get(approved.location!);
    expect(after.html).toContain('Review approved: it is shown in the shop.');
    expect(after.html).not.toContain(`data-review="${greatTea}"`);
    expect(await reviewOf(greatTea)).toMatchObject({ status: 'approved', revision: 2 });
    // The approved review offers only rejecting.
    const approvedList = await owner.get('/admin/reviews?status=approved');
    expect(approvedList.html).toContain('data-status="approved">Approved</td>');
    moderationForm(approvedList.html, greatTea, 'rejected');
    expect(approvedList.html).not.toMatch(
      new RegExp(`data-review="${greatTea}"[\\s\\S]*?name="status" value="approved"[\\s\\S]*?</tr>`),
    );

    // The same form again: its revision is stale now, refused and shown as a warning (409).
    const stale = await owner.post(`/admin/reviews/${greatTea}`, approve);
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('The review changed since this page was shown');
    expect(await reviewOf(greatTea)).toMatchObject({ status: 'approved', revision: 2 });

    const reject = moderationForm(list.html, bitterTea, 'rejected');
    expect((await owner.post(`/admin/reviews/${bitterTea}`, reject)).location).toBe(
      '/admin/reviews?status=pending&done=rejected',
    );
    // A rejected review stays rejected: the operation's refusal, with its detail, nothing changed.
    const current = await reviewOf(bitterTea);
    const back = await owner.post(`/admin/reviews/${bitterTea}`, {
      ...reject,
      status: 'approved',
      revision: String(current.revision),
    });
    expect(back.status).toBe(409);
    expect(back.html).toContain('The change was refused: A rejected review stays rejected.');
    expect(await reviewOf(bitterTea)).toMatchObject({ status: 'rejected', revision: current.revision });
    const rejectedList = await owner.get('/admin/reviews?status=rejected');
    expect(rejectedList.html).toContain(`data-review="${bitterTea}"`);
    expect(rejectedList.html).not.toContain('data-moderate=');
  });

  it('shows a reader plain text, and refuses a reader’s replayed post (403, nothing changed)', async () => {
    const owner = await session(h.shopA.token);
    const form = moderationForm((await owner.get('/admin/reviews')).html, sturdyMug, 'approved');
    const reader = await session(await h.readerToken('reviews.reader@example.test'));
    const page = await reader.get('/admin/reviews');
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-review="${sturdyMug}"`);
    expect(page.html).not.toContain('data-moderate=');
    expect(page.html).not.toContain('Moderation</th>');
    const replayed = await reader.post(`/admin/reviews/${sturdyMug}`, { ...form, csrf: reader.csrf });
    expect(replayed.status).toBe(403);
    expect(await reviewOf(sturdyMug)).toMatchObject({ status: 'pending', revision: 1 });
  });

  it('shows shop B none of shop A’s reviews and cannot moderate them (404)', async () => {
    const owner = await session(h.shopA.token);
    const form = moderationForm((await owner.get('/admin/reviews')).html, sturdyMug, 'rejected');
    const other = await session(h.shopB.token);
    for (const path of ['/admin/reviews', '/admin/reviews?status=all']) {
      const page = await other.get(path);
      expect(page.status).toBe(200);
      expect(page.html).toContain('No reviews here.');
    }
    const mine = await other.get(`/admin/reviews?status=all&productId=${shop.mugId}`);
    expect(mine.html).not.toContain(`data-review="${sturdyMug}"`);
    const posted = await other.post(`/admin/reviews/${sturdyMug}`, { ...form, csrf: other.csrf });
    expect(posted.status).toBe(404);
    expect(await reviewOf(sturdyMug)).toMatchObject({ status: 'pending', revision: 1 });
  });
});

describe('the payments page', () => {
  let captured: { orderId: string; token: string };

  beforeAll(async () => {
    const orders = await shop.providerOrders(27);
    captured = orders[0]!;
    await shop.captureAndRefund(captured, 300);
  }, 180_000);

  it('lists attempts a page at a time, newest change first, without repeating one', async () => {
    const owner = await session(h.shopA.token);
    const first = await owner.get('/admin/payments?status=awaiting_approval');
    expect(first.status).toBe(200);
    const rows = (html: string) => [...html.matchAll(/data-attempt="([^"]+)"/g)].map(([, id]) => id!);
    expect(rows(first.html)).toHaveLength(25);
    const next = /<a href="([^"]+)" rel="next">Older payments<\/a>/.exec(first.html)?.[1];
    expect(next).toBeDefined();
    const second = await owner.get(next!.replaceAll('&amp;', '&'));
    expect(second.html).toContain('Most recent payments');
    expect(second.html).not.toContain('rel="next"');
    const all = [...rows(first.html), ...rows(second.html)];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(26);
    expect(first.html).toContain('Awaiting buyer approval');
    // A cursor the operation does not know is its refusal, not a 500.
    expect((await owner.get('/admin/payments?before=bm90IGEgY3Vyc29y')).status).toBe(422);
  });

  it('shows order number, provider, amount, status, captured and refunded amounts in the UI language', async () => {
    const order = await h.call('GET', `/api/orders/${captured.orderId}`, { token: h.shopA.token });
    const number = (order.body.order as { number: number }).number;
    const owner = await session(h.shopA.token);
    const page = await owner.get('/admin/payments?status=captured');
    expect(page.html).toContain(`<a href="/admin/orders/${captured.orderId}">Order ${number}</a>`);
    expect(page.html).toContain('data-status="captured">Captured</td>');
    expect(page.html).toContain('paypal');
    expect(page.html).toContain('€3.00');
    expect(page.html).toMatch(/Payment jobs: \d+ uncertain, \d+ failed\./);
    const german = await (await session(h.shopA.token, 'de')).get('/admin/payments?status=captured');
    expect(german.html).toContain('data-status="captured">Eingezogen</td>');
    expect(german.html).toContain(`Bestellung ${number}`);
    expect(german.html).toContain('3,00\u00a0€');
    // The order's own ledger names the attempt's status with the same labels.
    const ledger = await owner.get(`/admin/orders/${captured.orderId}`);
    expect(ledger.html).toContain('paypal (sandbox): Captured');
    // The default: what needs a look (none here).
    const attention = await owner.get('/admin/payments');
    expect(attention.html).toMatch(/<option value="" selected="">Needing a look/);
    expect(attention.html).toContain('No payments here.');
    expect(attention.html).toContain('href="/admin/payments"');
  });

  it('shows shop B nothing of shop A’s payments, and hides the page without orders.read', async () => {
    const other = await session(h.shopB.token);
    for (const status of ['captured', 'awaiting_approval']) {
      const page = await other.get(`/admin/payments?status=${status}`);
      expect(page.status).toBe(200);
      expect(page.html).toContain('No payments here.');
      expect(page.html).not.toContain(captured.orderId);
    }
    // A member whose grants read the catalog only.
    const member = await h.call('POST', '/api/members', {
      token: h.shopA.token,
      body: { email: 'catalog.only@example.test', role: 'reader', permissions: ['catalog.read'] },
    });
    const token = await h.call('POST', '/api/tokens', {
      token: h.shopA.token,
      body: { name: 'catalog only', kind: 'personal', userId: member.body.userId },
    });
    const blind = await session(token.body.token as string);
    expect((await blind.get('/admin/payments')).status).toBe(404);
    expect((await blind.get('/admin')).html).not.toContain('href="/admin/payments"');
  });
});
