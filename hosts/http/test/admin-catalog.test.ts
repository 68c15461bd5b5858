import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The admin catalog pages without a browser (decision 0047): the product list pages with the
// list operation's cursor, and a server without an image provider hides the draft form and says why.

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
async function ownerCookie(): Promise<string> {
  const page = await h.app.request('/admin/sign-in');
  const preCookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const signed = await h.app.request('/admin/sign-in', {
    method: 'POST',
    headers: { cookie: preCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, token: h.shopA.token }).toString(),
  });
  return signed.headers.getSetCookie()[0]!.split(';')[0]!;
}

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
