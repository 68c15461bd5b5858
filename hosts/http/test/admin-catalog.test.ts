import { randomBytes } from 'node:crypto';
import { encodePng } from '@cartwright/tooling/image-provider-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';

// The admin catalog and orders pages without a browser (decision 0047): the product list pages
// with the list operation's cursor, a server without an image provider hides the draft form and
// says why; an order's states are labelled in the UI language with the moves the machines allow
// (allowed, refused, stale, reader); the product form's mapping onto catalog.products.update
// (UI-language amounts, content-language texts, pinned field errors, stale saves); and uploads
// through the admin up to the gallery's 8 MiB while larger bodies get the 413 page.

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
  for (let index = 1; index <= 30; index++) {
    const sku = `PAGE-${String(index).padStart(2, '0')}`;
    const created = await h.call('POST', '/api/catalog/products', {
      token: h.shopA.token,
      body: { sku, translations: { en: { name: `Paged ${index}` } } },
    });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => h?.close());

/** A signed-in session of shop A's owner: its cookie. */
const ownerCookie = () => adminCookie(h, h.shopA.token);

const rowsOf = (html: string) =>
  [...html.matchAll(/<a href="\/admin\/products\/([0-9a-f-]{36})">/g)].map((m) => m[1]);

describe('the admin product list and page', () => {
  it('pages through the products 25 at a time with the cursor, and searches', async () => {
    const cookie = await ownerCookie();
    const first = await (await h.app.request('/admin/products', { headers: { cookie } })).text();
    expect(rowsOf(first)).toHaveLength(25);
    const next = /href="(\/admin\/products\?after=[0-9a-f-]{36})" rel="next"/.exec(first)?.[1];
    expect(next).toBeDefined();
    const second = await (await h.app.request(next!, { headers: { cookie } })).text();
    expect(rowsOf(second)).toHaveLength(5);
    expect(second).not.toContain('rel="next"');
    expect(new Set([...rowsOf(first), ...rowsOf(second)]).size).toBe(30);
    const found = await (
      await h.app.request('/admin/products?search=paged%2017', { headers: { cookie } })
    ).text();
    expect(found).toContain('PAGE-17');
    expect(rowsOf(found)).toHaveLength(1);
  });

  it('hides the image draft form on a server without an image provider and says why', async () => {
    const cookie = await ownerCookie();
    const list = await h.call('GET', '/api/catalog/products?limit=1', { token: h.shopA.token });
    const [product] = list.body.items as { id: string }[];
    const provider = await h.call('GET', '/api/merchant/media/provider', { token: h.shopA.token });
    expect(provider.body.available).toBe(false);
    const page = await (
      await h.app.request(`/admin/products/${product!.id}`, { headers: { cookie } })
    ).text();
    expect(page).toContain('Image drafts are off on this server');
    expect(page).not.toContain('name="instruction"');
  });
});

describe('app data cards on the product page', () => {
  it('shows the blocks an app declares on the product mounts, with the rows bound to that product', async () => {
    const cookie = await ownerCookie();
    const staff = (method: string, path: string, body?: unknown) =>
      h.call(method, path, { token: h.shopA.token, body });
    const installed = await staff('POST', '/api/apps/assistants/admin/install', {
      revision: 0,
      answers: {
        app_id: 'care-notes',
        name: 'Care notes',
        entity: 'note',
        object: 'product',
        mounts: ['admin.product.general'],
        blocks: ['table', 'form'],
        fields: [{ name: 'body', type: 'text', label: 'Note', required: true }],
      },
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    const [product, other] = (await staff('GET', '/api/catalog/products?limit=2')).body.items as {
      id: string;
    }[];
    const blocks = (installed.body.app as { manifest: { blocks: { kind: string; action: string }[] } })
      .manifest.blocks;
    const form = blocks.find((block) => block.kind === 'form')!;
    const created = await staff('POST', `/api/apps/care-notes/actions/${form.action}`, {
      product_id: product!.id,
      body: 'Keep dry',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    const page = await (
      await h.app.request(`/admin/products/${product!.id}`, { headers: { cookie } })
    ).text();
    expect(page).toContain('class="card app-block"');
    expect(page).toContain('Keep dry');
    // Another product's page shows the cards, but not this product's rows.
    const elsewhere = await (
      await h.app.request(`/admin/products/${other!.id}`, { headers: { cookie } })
    ).text();
    expect(elsewhere).toContain('class="card app-block"');
    expect(elsewhere).not.toContain('Keep dry');
  });
});

/** The signed-in cookie and a page's CSRF token. */
async function pageOf(path: string, cookie: string, language = 'en') {
  const response = await h.app.request(path, { headers: { cookie, 'accept-language': language } });
  const html = await response.text();
  return { status: response.status, html, csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '' };
}

async function post(path: string, cookie: string, fields: Record<string, string>, language = 'en') {
  const response = await h.app.request(path, {
    method: 'POST',
    headers: { cookie, 'accept-language': language, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

/** The `to` of each transition button, per machine fieldset. */
function movesOf(html: string): Record<string, string[]> {
  const moves: Record<string, string[]> = {};
  for (const [, machine, inner] of html.matchAll(
    /<fieldset class="field-row" data-machine="(\w+)">([\s\S]*?)<\/fieldset>/g,
  )) {
    moves[machine!] = [...inner!.matchAll(/data-to="(\w+)"/g)].map((m) => m[1]!);
  }
  return moves;
}

describe('order states and transitions', () => {
  let orderId: string;
  let readerToken: string;

  beforeAll(async () => {
    const { productId, channelKey } = await h.sellableTea();
    ({ orderId } = await h.placedOrder(channelKey, productId));
    readerToken = await h.readerToken('reader@orders.test');
  });

  /** Posts the order page's transition form: `machine` to `to` at `revision`. */
  const transition = (cookie: string, csrf: string, machine: string, to: string, revision: number) =>
    post(`/admin/orders/${orderId}/transitions`, cookie, { csrf, machine, to, revision: String(revision) });

  const orderOf = async () =>
    (await staff('GET', `/api/orders/${orderId}`)).body.order as {
      state: string;
      paymentState: string;
      deliveryState: string;
      revision: number;
    };

  it('labels the states in the UI language and offers exactly the moves the machines allow', async () => {
    const cookie = await ownerCookie();
    const list = await pageOf('/admin/orders', cookie, 'de');
    expect(list.html).toContain('<td data-state="open">Offen</td>');
    const { html } = await pageOf(`/admin/orders/${orderId}`, cookie, 'de');
    expect(html).toContain('<dd data-state="open">Offen</dd>');
    expect(html).not.toContain('<code>open</code>');
    expect(movesOf(html)).toEqual({
      order: ['in_progress', 'cancelled'],
      payment: ['authorized', 'paid', 'paid_partially', 'unconfirmed', 'reminded', 'failed', 'cancelled'],
      delivery: ['shipped', 'shipped_partially', 'cancelled'],
    });
    expect(html).toContain('Auf „In Bearbeitung“ setzen');
    const french = await pageOf(`/admin/orders/${orderId}`, cookie, 'fr');
    expect(french.html).toContain('Passer à « Expédiée partiellement »');
  });

  it('moves a state through orders.transition and shows it on the timeline', async () => {
    const cookie = await ownerCookie();
    const { csrf } = await pageOf(`/admin/orders/${orderId}`, cookie);
    const before = await orderOf();
    const moved = await transition(cookie, csrf, 'delivery', 'shipped', before.revision);
    expect(moved.status).toBe(303);
    expect(moved.location).toBe(`/admin/orders/${orderId}?done=moved`);
    const after = await orderOf();
    expect(after.deliveryState).toBe('shipped');
    expect(after.revision).toBe(before.revision + 1);
    const { html } = await pageOf(moved.location!, cookie);
    expect(html).toContain('State changed.');
    expect(html).toContain('Delivery: Open → Shipped');
    // Goods are out: the delivery guard takes "cancel" off the order's moves.
    expect(movesOf(html).order).toEqual(['in_progress']);
    expect(movesOf(html).delivery).toEqual(['returned', 'returned_partially']);
  });

  it('shows a refused move with its detail and a stale one with 409, changing nothing', async () => {
    const cookie = await ownerCookie();
    const { csrf } = await pageOf(`/admin/orders/${orderId}`, cookie);
    const before = await orderOf();
    // Not in the table (open → completed): the operation's refusal, nothing changed.
    const refused = await transition(cookie, csrf, 'order', 'completed', before.revision);
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('order cannot move from open to completed');
    // The delivery guard: an order whose goods are out cannot be cancelled.
    const guarded = await transition(cookie, csrf, 'order', 'cancelled', before.revision);
    expect(guarded.status).toBe(422);
    expect(guarded.html).toContain('cannot be cancelled');
    // A revision the order has left: 409 with the current states shown.
    const stale = await transition(cookie, csrf, 'order', 'in_progress', before.revision - 1);
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('The order changed since this page was shown');
    expect(stale.html).toContain('<dd data-state="shipped">Shipped</dd>');
    expect(await orderOf()).toEqual(before);
  });

  it('shows a reader the labels without a move, and refuses the reader’s replayed post', async () => {
    const cookie = await adminCookie(h, readerToken);
    const { html, csrf } = await pageOf(`/admin/orders/${orderId}`, cookie);
    expect(html).toContain('<dd data-state="shipped">Shipped</dd>');
    expect(html).not.toContain('/transitions');
    const before = await orderOf();
    const replayed = await transition(cookie, csrf, 'order', 'in_progress', before.revision);
    expect(replayed.status).toBe(403);
    expect(await orderOf()).toEqual(before);
  });
});

describe('the product form', () => {
  let productId: string;

  beforeAll(async () => {
    expect((await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(
      200,
    );
    const created = await staff('POST', '/api/catalog/products', {
      sku: 'FORM-1',
      translations: { en: { name: 'Teapot', description: 'Holds a litre' } },
      prices: [{ currency: 'EUR', gross: 2990, net: 2513, listGross: 3490, listNet: 2933 }],
      stockAvailable: 5,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    productId = (created.body.product as { id: string }).id;
  });

  const productOf = async () =>
    (await staff('GET', `/api/catalog/products/${productId}`)).body.product as {
      sku: string;
      active: boolean;
      stockAvailable: number;
      revision: number;
      translations: Record<string, Record<string, string | null>>;
      prices: { currency: string; gross: number; net: number; listGross?: number }[];
    };

  const formOf = (html: string, name: string) =>
    new RegExp(
      `name="${name.replaceAll('.', '\\.')}"[^>]*value="([^"]*)"|<textarea[^>]*name="${name}"[^>]*>([^<]*)<`,
    ).exec(html);

  it('shows the fields in the content language, the main language’s text marked where a translation is missing', async () => {
    const cookie = await ownerCookie();
    const { html } = await pageOf(`/admin/products/${productId}?language=de`, cookie, 'de');
    expect(html).toContain('Name (Deutsch)');
    expect(html).toContain('nicht übersetzt: zeigt den Text auf Englisch');
    expect(html).toContain('<span lang="en">“Teapot”</span>');
    // Amounts as German writes them.
    expect(html).toMatch(
      /name="price\.EUR\.gross"[^>]*value="29,90"|value="29,90"[^>]*name="price\.EUR\.gross"/,
    );
    // A reader sees text, the German page marking the English description it falls back to.
    const readerCookie = await adminCookie(h, await h.readerToken('reader@form.test'));
    const reader = await pageOf(`/admin/products/${productId}?language=de`, readerCookie, 'de');
    expect(reader.html).not.toContain('name="price.EUR.gross"');
    expect(reader.html.slice(reader.html.indexOf('<main'))).not.toContain('<input');
    expect(reader.html).toContain(
      '<dd><span class="badge fallback">nicht übersetzt: zeigt den Text auf Englisch</span> <span lang="en">Teapot</span></dd>',
    );
    expect(reader.html).toContain(
      'nicht übersetzt: zeigt den Text auf Englisch</span> <span lang="en">Holds a litre</span>',
    );
  });

  it('maps the form onto catalog.products.update: German amounts, German texts, stock, active, SKU', async () => {
    const cookie = await ownerCookie();
    const { csrf } = await pageOf(`/admin/products/${productId}?language=de`, cookie, 'de');
    const before = await productOf();
    const saved = await post(
      `/admin/products/${productId}/save?language=de`,
      cookie,
      {
        csrf,
        revision: String(before.revision),
        name: 'Teekanne',
        description: 'Fasst einen Liter',
        sku: 'FORM-1-DE',
        'price.EUR.gross': '1.234,50',
        'price.EUR.net': '1037,39',
        stock: '12',
      },
      'de',
    );
    expect(saved.status, saved.html).toBe(303);
    expect(saved.location).toBe(`/admin/products/${productId}?done=saved-${before.revision + 1}&language=de`);
    const after = await productOf();
    expect(after.translations).toEqual({
      en: { name: 'Teapot', description: 'Holds a litre' },
      de: { name: 'Teekanne', description: 'Fasst einen Liter' },
    });
    expect(after.prices).toEqual([
      { currency: 'EUR', gross: 123450, net: 103739, listGross: 3490, listNet: 2933 },
    ]);
    expect(after.stockAvailable).toBe(12);
    expect(after.active).toBe(false);
    expect(after.sku).toBe('FORM-1-DE');
  });

  it('sends only the revision when nothing changed (the save still happens)', async () => {
    const cookie = await ownerCookie();
    const { html, csrf } = await pageOf(`/admin/products/${productId}`, cookie);
    const before = await productOf();
    const field = (name: string) => {
      const match = formOf(html, name);
      return match?.[1] ?? match?.[2] ?? '';
    };
    const saved = await post(`/admin/products/${productId}/save`, cookie, {
      csrf,
      revision: String(before.revision),
      name: field('name'),
      description: field('description'),
      sku: field('sku'),
      'price.EUR.gross': field('price.EUR.gross'),
      'price.EUR.net': field('price.EUR.net'),
      stock: field('stock'),
    });
    expect(saved.status, saved.html).toBe(303);
    const after = await productOf();
    expect(after).toEqual({
      ...before,
      revision: before.revision + 1,
      updatedAt: (after as { updatedAt?: string }).updatedAt,
    });
  });

  it('pins the form’s own problems and the operation’s field errors on their fields, keeping the entries', async () => {
    const cookie = await ownerCookie();
    const { csrf } = await pageOf(`/admin/products/${productId}`, cookie);
    const before = await productOf();
    const base = {
      csrf,
      revision: String(before.revision),
      name: 'Teapot',
      description: '',
      sku: before.sku,
      'price.EUR.gross': '12.5x',
      'price.EUR.net': '10.00',
      stock: '-3',
      active: 'on',
    };
    const invalid = await post(`/admin/products/${productId}/save`, cookie, base);
    expect(invalid.status).toBe(422);
    expect(invalid.html).toContain('Some fields need a change');
    expect(invalid.html).toMatch(/id="product-price-EUR-gross"[^>]*aria-invalid="true"/);
    expect(invalid.html).toContain(
      '<ul class="field-errors" id="product-price-EUR-gross-error"><li>Enter an amount such as 11.90.</li>',
    );
    expect(invalid.html).toContain(
      '<ul class="field-errors" id="product-stock-error"><li>Enter a whole number, 0 or more.</li>',
    );
    expect(invalid.html).toContain('value="12.5x"');
    expect(invalid.html).toContain('value="-3"');
    // The main language's name emptied: the operation refuses it, pinned on the name.
    const refused = await post(`/admin/products/${productId}/save`, cookie, {
      ...base,
      name: '',
      'price.EUR.gross': '12.50',
      stock: '3',
    });
    expect(refused.status).toBe(422);
    expect(refused.html).toMatch(
      /<ul class="field-errors" id="product-name-error"><li lang="en">needs a name in the main language/,
    );
    expect(refused.html).toContain('value="12.50"');
    expect(await productOf()).toEqual(before);
  });

  it('answers a stale save 409 and keeps the member’s edits over the product as it is now', async () => {
    const cookie = await ownerCookie();
    const { html, csrf } = await pageOf(`/admin/products/${productId}`, cookie);
    const before = await productOf();
    const was = /name="was" value="([^"]*)"/.exec(html)![1]!.replaceAll('&quot;', '"');
    // Someone else changes the stock after the page was rendered.
    expect(
      (
        await staff('PATCH', `/api/catalog/products/${productId}`, {
          revision: before.revision,
          stockAvailable: 99,
        })
      ).status,
    ).toBe(200);
    const stale = await post(`/admin/products/${productId}/save`, cookie, {
      csrf,
      revision: String(before.revision),
      was,
      name: 'Teapot, large',
      description: 'Holds a litre',
      sku: before.sku,
      'price.EUR.gross': '12.50',
      'price.EUR.net': '10.37',
      stock: '12',
    });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('Someone else saved this product first');
    // The member's edit stays; the stock they left as shown is the stock now.
    expect(stale.html).toContain('value="Teapot, large"');
    expect(stale.html).toMatch(/id="product-stock"[^>]*value="99"|value="99"[^>]*id="product-stock"/);
    const after = await productOf();
    expect(after.translations.en!.name).toBe('Teapot');
    expect(after.stockAvailable).toBe(99);
    expect(after.revision).toBe(before.revision + 1);
  });
});

describe('uploads through the admin', () => {
  let productId: string;

  beforeAll(async () => {
    const created = await staff('POST', '/api/catalog/products', {
      sku: 'UPLOAD-1',
      translations: { en: { name: 'Big picture' } },
    });
    productId = (created.body.product as { id: string }).id;
  });

  const assetsOf = async () =>
    ((await staff('GET', `/api/merchant/products/${productId}/media/assets`)).body.items as unknown[]).length;

  async function upload(cookie: string, bytes: Uint8Array) {
    const { csrf } = await pageOf(`/admin/products/${productId}`, cookie);
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('alt', 'A big picture');
    form.set('file', new Blob([bytes], { type: 'image/png' }), 'big.png');
    const response = await h.app.request(`/admin/products/${productId}/gallery/upload`, {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      html: await response.text(),
    };
  }

  it('takes a valid image far past the default body limit, up to the gallery’s 8 MiB', async () => {
    const cookie = await ownerCookie();
    const side = 1440;
    const png = encodePng(side, side, randomBytes(side * side * 4));
    expect(png.byteLength).toBeGreaterThan(7.9 * 1024 * 1024);
    expect(png.byteLength).toBeLessThanOrEqual(8 * 1024 * 1024);
    const answered = await upload(cookie, png);
    expect(answered.status, answered.html.slice(0, 500)).toBe(303);
    const gallery = (await staff('GET', `/api/merchant/products/${productId}/media/gallery`)).body as {
      entries: { altTexts: Record<string, string> }[];
    };
    expect(gallery.entries.map((entry) => entry.altTexts)).toEqual([{ en: 'A big picture' }]);
  }, 60_000);

  it('refuses a file just past 8 MiB with the gallery’s message (413), storing nothing', async () => {
    const cookie = await ownerCookie();
    const before = await assetsOf();
    const png = encodePng(8, 8, randomBytes(8 * 8 * 4));
    const over = Buffer.concat([png, Buffer.alloc(8 * 1024 * 1024 + 1 - png.byteLength)]);
    const answered = await upload(cookie, over);
    expect(answered.status).toBe(413);
    expect(answered.type).toContain('text/html');
    expect(answered.html).toContain('The image is larger than 8 MiB');
    expect(await assetsOf()).toBe(before);
  }, 60_000);

  it('answers a body past the upload route’s limit with the 413 page, unread', async () => {
    const cookie = await ownerCookie();
    const before = await assetsOf();
    const answered = await upload(cookie, new Uint8Array(9 * 1024 * 1024));
    expect(answered.status).toBe(413);
    expect(answered.type).toContain('text/html');
    expect(answered.html).toContain('The form sent more than this page accepts (at most 8 MiB)');
    expect(await assetsOf()).toBe(before);
  }, 60_000);

  it('keeps the default limit on every other admin post and on the API', async () => {
    const cookie = await ownerCookie();
    const { csrf } = await pageOf(`/admin/products/${productId}`, cookie);
    const revision = String(
      ((await staff('GET', `/api/catalog/products/${productId}`)).body.product as { revision: number })
        .revision,
    );
    const big = await post(`/admin/products/${productId}/save`, cookie, {
      csrf,
      revision,
      description: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(big.status).toBe(413);
    expect(big.html).toContain('(at most 1 MiB)');
    expect(
      ((await staff('GET', `/api/catalog/products/${productId}`)).body.product as { revision: number })
        .revision,
    ).toBe(Number(revision));
    const api = await staff('POST', '/api/catalog/products', {
      sku: 'BIG',
      translations: { en: { name: 'x'.repeat(1024 * 1024) } },
    });
    expect(api.status).toBe(413);
    expect(api.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
