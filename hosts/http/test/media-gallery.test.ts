import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServices, stageGalleryEntry } from '@cartwright/service';
import { pngBomb, pngDeclaring, sampleImage, truncated } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createHarness, type Harness } from './harness.ts';

// Product media, gallery part (issue 18, decision 0043): upload → gallery → reorder, cover, alt
// text → public read; every bad input a clear 4xx with nothing stored; URL fetches only to public
// addresses unless the operator allows loopback; staged entries public only after a product save.

let h: Harness;
let productId: string;
let channelKey: string;
let readerToken: string;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const gallery = (id: string) => `/api/merchant/products/${id}/media/gallery`;
const assets = (id: string) => `/api/merchant/products/${id}/media/assets`;

function staff(method: string, path: string, body?: unknown) {
  return h.call(method, path, { token: h.shopA.token, body });
}

function store(path: string, key = channelKey) {
  return h.call('GET', path, { headers: { 'x-channel-key': key } });
}

/** GET of a store image: status, type and bytes (not JSON). */
async function storeBytes(path: string, key = channelKey) {
  const response = await h.app.request(path, { headers: { 'x-channel-key': key } });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

async function newProduct(sku: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await staff('POST', '/api/catalog/products', {
    sku,
    translations: { en: { name: sku } },
    prices: [{ currency: 'EUR', gross: 500, net: 420 }],
    stockAvailable: 10,
    ...extra,
  });
  expect(created.status).toBe(201);
  return (created.body.product as { id: string }).id;
}

async function revisionOf(id: string): Promise<number> {
  return (await staff('GET', gallery(id))).body.revision as number;
}

/** A distinct small PNG each call (its pixels differ), so no two uploads are the same file. */
let drawn = 0;
async function distinctPng(): Promise<Buffer> {
  drawn += 1;
  return sampleImage('png', 8 + (drawn % 50), 8);
}

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea());
  expect((await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(200);
  readerToken = await h.readerToken('reader@a.test');
}, 60_000);

afterAll(async () => h?.close());

describe('the gallery over HTTP', () => {
  let png: Buffer;
  let jpeg: Buffer;
  let webp: Buffer;
  const entries: string[] = [];

  it('adds an upload, an uploaded asset and a WebP; the first is the cover', async () => {
    png = await sampleImage('png', 64, 48);
    jpeg = await sampleImage('jpeg', 80, 60);
    webp = await sampleImage('webp', 32, 32);
    const first = await staff('POST', gallery(productId), {
      contentBase64: base64(png),
      altTexts: { en: 'A cup of tea' },
    });
    expect(first.status).toBe(201);
    entries.push(first.body.entryId as string);
    const view = first.body.gallery as {
      revision: number;
      entries: { cover: boolean; asset: { format: string } }[];
    };
    expect(view.revision).toBe(1);
    expect(view.entries).toHaveLength(1);
    expect(view.entries[0]).toMatchObject({
      cover: true,
      state: 'published',
      asset: { format: 'png', width: 64, height: 48, source: 'upload' },
    });

    const asset = await staff('POST', assets(productId), { contentBase64: base64(jpeg) });
    expect(asset.status).toBe(201);
    expect(asset.body).toMatchObject({ format: 'jpeg', width: 80, height: 60, byteSize: jpeg.byteLength });
    const second = await staff('POST', gallery(productId), { assetId: asset.body.id });
    expect(second.status).toBe(201);
    entries.push(second.body.entryId as string);
    const again = await staff('POST', gallery(productId), { assetId: asset.body.id });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);

    const third = await staff('POST', gallery(productId), { contentBase64: base64(webp) });
    expect(third.status).toBe(201);
    entries.push(third.body.entryId as string);
    const read = await staff('GET', gallery(productId));
    expect(read.status).toBe(200);
    expect((read.body.entries as { id: string }[]).map((entry) => entry.id)).toEqual(entries);
    expect(read.body.revision).toBe(3);
    expect(read.body.inherited).toBeNull();
  });

  it('refuses exactly one source', async () => {
    const none = await staff('POST', gallery(productId), {});
    expect([none.status, none.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    const two = await staff('POST', gallery(productId), {
      contentBase64: base64(png),
      url: 'https://example.com/a.png',
    });
    expect([two.status, two.body.code]).toEqual([422, 'VALIDATION_FAILED']);
  });

  it('reorders by an id list at the gallery revision read', async () => {
    const revision = await revisionOf(productId);
    const order = [entries[2]!, entries[0]!, entries[1]!];
    const stale = await staff('PUT', `${gallery(productId)}/order`, {
      revision: revision - 1,
      entryIds: order,
    });
    expect([stale.status, stale.body.code]).toEqual([409, 'STALE_REVISION']);
    const partial = await staff('PUT', `${gallery(productId)}/order`, {
      revision,
      entryIds: order.slice(0, 2),
    });
    expect([partial.status, partial.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    const twice = await staff('PUT', `${gallery(productId)}/order`, {
      revision,
      entryIds: [order[0], order[0], order[1]],
    });
    expect([twice.status, twice.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    const done = await staff('PUT', `${gallery(productId)}/order`, { revision, entryIds: order });
    expect(done.status).toBe(200);
    expect((done.body.entries as { id: string }[]).map((entry) => entry.id)).toEqual(order);
    expect(done.body.revision).toBe(revision + 1);
  });

  it('selects one cover', async () => {
    const revision = await revisionOf(productId);
    const done = await staff('PUT', `${gallery(productId)}/cover`, { revision, entryId: entries[1] });
    expect(done.status).toBe(200);
    const covers = (done.body.entries as { id: string; cover: boolean }[]).filter((entry) => entry.cover);
    expect(covers.map((entry) => entry.id)).toEqual([entries[1]]);
  });

  it('keeps alt text per language: missing inherits the main language, empty stays empty, reading creates nothing', async () => {
    const revision = await revisionOf(productId);
    const set = await staff('PUT', `${gallery(productId)}/${entries[1]}/alt`, {
      revision,
      altTexts: { en: 'Tea leaves', de: '' },
    });
    expect(set.status).toBe(200);
    const before = await h.digest();
    const german = await staff('GET', `${gallery(productId)}?language=de`);
    const byId = (body: Record<string, unknown>, id: string) =>
      (body.entries as { id: string; alt: unknown; altTexts: unknown }[]).find((entry) => entry.id === id)!;
    expect(byId(german.body, entries[1]!).alt).toEqual({ value: '', language: 'de' });
    expect(byId(german.body, entries[0]!).alt).toEqual({ value: 'A cup of tea', language: 'en' });
    expect(byId(german.body, entries[2]!).alt).toBeNull();
    expect(await h.digest()).toBe(before);
    const french = await staff('GET', `${gallery(productId)}?language=fr`);
    expect([french.status, french.body.code]).toEqual([422, 'LANGUAGE_NOT_ENABLED']);
    const inherit = await staff('PUT', `${gallery(productId)}/${entries[1]}/alt`, {
      revision: revision + 1,
      altTexts: { de: null },
    });
    expect(inherit.status).toBe(200);
    expect(byId(inherit.body, entries[1]!).altTexts).toEqual({ en: 'Tea leaves' });
    const again = await staff('PUT', `${gallery(productId)}/${entries[1]}/alt`, {
      revision: revision + 2,
      altTexts: { de: 'Teeblätter' },
    });
    expect(again.status).toBe(200);
  });

  it('shows the published gallery to the storefront: cover first, alt text in the visitor’s language', async () => {
    const before = await h.digest();
    const detail = await store(`/store-api/products/${productId}?language=de`);
    expect(detail.status).toBe(200);
    const images = (
      detail.body.product as { gallery: { id: string; alt: string | null; cover: boolean; url: string }[] }
    ).gallery;
    expect(images.map((image) => image.id)).toEqual([entries[1], entries[2], entries[0]]);
    expect(images[0]).toMatchObject({
      cover: true,
      alt: 'Teeblätter',
      contentType: 'image/jpeg',
      width: 80,
      height: 60,
    });
    expect(images[2]).toMatchObject({ cover: false, alt: 'A cup of tea' });
    const english = await store(`/store-api/products/${productId}`);
    expect((english.body.product as { gallery: { alt: string | null }[] }).gallery[0]!.alt).toBe(
      'Tea leaves',
    );
    const list = await store('/store-api/products');
    const listed = (list.body.items as { id: string; gallery: { id: string }[] }[]).find(
      (item) => item.id === productId,
    )!;
    expect(listed.gallery.map((image) => image.id)).toEqual(images.map((image) => image.id));
    // The bytes, exactly as uploaded.
    const bytes = await storeBytes(images[0]!.url);
    expect([bytes.status, bytes.type]).toEqual([200, 'image/jpeg']);
    expect(Buffer.from(bytes.bytes).equals(jpeg)).toBe(true);
    expect(await h.digest()).toBe(before);
  });

  it('removes an entry; a removed cover passes on; the asset stays until deleted', async () => {
    const revision = await revisionOf(productId);
    const assetId = (
      (await staff('GET', gallery(productId))).body.entries as { id: string; assetId: string }[]
    ).find((entry) => entry.id === entries[1])!.assetId;
    const referenced = await staff('DELETE', `${assets(productId)}/${assetId}`);
    expect([referenced.status, referenced.body.code]).toEqual([409, 'REFERENCED']);
    const removed = await h.call('DELETE', `${gallery(productId)}/${entries[1]}`, {
      token: h.shopA.token,
      body: { revision },
    });
    expect(removed.status).toBe(200);
    const left = removed.body.entries as { id: string; cover: boolean }[];
    expect(left.map((entry) => entry.id)).toEqual([entries[2], entries[0]]);
    expect(left.filter((entry) => entry.cover)).toHaveLength(1);
    expect((await storeBytes(`/store-api/media/${assetId}`)).status).toBe(404);
    const deleted = await staff('DELETE', `${assets(productId)}/${assetId}`);
    expect(deleted.status).toBe(200);
    expect((await staff('GET', `${assets(productId)}/${assetId}/content`)).status).toBe(404);
  });

  it('answers the same operations over MCP', async () => {
    const call = await h.mcp(h.shopA.token);
    const read = await call('merchant.media.gallery.read', { productId });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent?.entries).toHaveLength(2);
    const refused = await call('merchant.media.gallery.add', {
      productId,
      contentBase64: base64(await sampleImage('gif')),
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('IMAGE_UNSUPPORTED_TYPE');
  });
});

describe('bad input: a clear 4xx and nothing stored', () => {
  let target: string;

  beforeAll(async () => {
    target = await newProduct('BAD-INPUT');
  });

  async function refusedWithoutChange(
    body: Record<string, unknown>,
    status: number,
    code: string,
    path = gallery(target),
  ) {
    const before = await h.digest();
    const answer = await staff('POST', path, body);
    expect([answer.status, answer.body.code]).toEqual([status, code]);
    expect(answer.type).toContain('application/problem+json');
    expect(await h.digest()).toBe(before);
    return answer;
  }

  it('refuses a 9 MiB upload', async () => {
    const nine = randomBytes(9 * 1024 * 1024);
    await refusedWithoutChange({ contentBase64: base64(nine) }, 413, 'PAYLOAD_TOO_LARGE');
    await refusedWithoutChange({ contentBase64: base64(nine) }, 413, 'PAYLOAD_TOO_LARGE', assets(target));
  });

  it('refuses a file just over 8 MiB as IMAGE_TOO_LARGE', async () => {
    const png = await sampleImage('png');
    const over = Buffer.concat([png, Buffer.alloc(8 * 1024 * 1024 + 1 - png.byteLength)]);
    await refusedWithoutChange({ contentBase64: base64(over) }, 413, 'IMAGE_TOO_LARGE');
  });

  it('refuses a GIF, a truncated PNG and a PNG declaring 100,000 × 100,000 pixels', async () => {
    await refusedWithoutChange(
      { contentBase64: base64(await sampleImage('gif')) },
      415,
      'IMAGE_UNSUPPORTED_TYPE',
    );
    const cut = truncated(await sampleImage('png', 256, 256));
    await refusedWithoutChange({ contentBase64: base64(cut) }, 422, 'IMAGE_INVALID');
    await refusedWithoutChange({ contentBase64: base64(cut) }, 422, 'IMAGE_INVALID', assets(target));
    const liar = await refusedWithoutChange(
      { contentBase64: base64(pngDeclaring(100_000, 100_000)) },
      422,
      'IMAGE_DIMENSIONS_EXCEEDED',
    );
    expect(liar.body).toMatchObject({ width: 100_000, height: 100_000, maxSide: 8192 });
  });

  it('refuses a real decompression bomb with the process memory bounded', async () => {
    const bomb = await pngBomb(20_000);
    const rssBefore = process.memoryUsage().rss;
    await refusedWithoutChange({ contentBase64: base64(bomb) }, 422, 'IMAGE_DIMENSIONS_EXCEEDED');
    const rssAfter = process.memoryUsage().rss;
    // A decode would need 400 MB of pixels; the header check needs none.
    expect(rssAfter - rssBefore).toBeLessThan(128 * 1024 * 1024);
    console.info(
      `media bomb over HTTP: ${bomb.byteLength} bytes declaring 20000 × 20000 refused; RSS ${Math.round(rssBefore / 1048576)} → ${Math.round(rssAfter / 1048576)} MiB, process peak ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`,
    );
  });

  it('refuses URLs to loopback, private, link-local and non-http addresses without the override', async () => {
    for (const url of [
      'http://127.0.0.1:9/tea.png',
      'http://localhost:9/tea.png',
      'http://[::1]:9/tea.png',
      'http://10.1.2.3/tea.png',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/tea.png',
      'http://0.0.0.0/tea.png',
    ]) {
      await refusedWithoutChange({ url }, 422, 'IMAGE_URL_REFUSED');
    }
    await refusedWithoutChange({ url: 'file:///etc/passwd' }, 422, 'IMAGE_URL_REFUSED');
    await refusedWithoutChange({ url: 'http://user:secret@example.com/a.png' }, 422, 'IMAGE_URL_REFUSED');
  });

  it('refuses the 21st gallery entry', async () => {
    for (let index = 0; index < 20; index++) {
      const added = await staff('POST', gallery(target), { contentBase64: base64(await distinctPng()) });
      expect(added.status).toBe(201);
    }
    const full = await refusedWithoutChange(
      { contentBase64: base64(await distinctPng()) },
      409,
      'GALLERY_LIMIT_REACHED',
    );
    expect(full.body.limit).toBe(20);
  });

  it('refuses the 51st asset of a product', async () => {
    const many = await newProduct('MANY-IMAGES');
    for (let index = 0; index < 50; index++) {
      const stored = await staff('POST', assets(many), { contentBase64: base64(await distinctPng()) });
      expect(stored.status).toBe(201);
    }
    const listed = await staff('GET', assets(many));
    expect((listed.body.items as unknown[]).length).toBe(50);
    await refusedWithoutChange(
      { contentBase64: base64(await distinctPng()) },
      409,
      'MEDIA_ASSET_LIMIT_REACHED',
      assets(many),
    );
  });
});

describe('adding by URL', () => {
  let server: Server;
  let origin: string;
  const seen: string[] = [];
  let png: Buffer;

  beforeAll(async () => {
    png = await sampleImage('png', 20, 10);
    server = createServer((request, response) => {
      seen.push(request.url ?? '');
      if (request.url === '/tea.png') {
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.byteLength });
        response.end(png);
      } else if (request.url === '/page') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html></html>');
      } else if (request.url === '/huge') {
        // No Content-Length: the limit must hold while streaming.
        response.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(1024 * 1024);
        for (let index = 0; index < 9; index++) response.write(chunk);
        response.end();
      } else if (request.url === '/moved') {
        response.writeHead(302, { location: '/tea.png' });
        response.end();
      } else if (request.url === '/to-metadata') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        response.end();
      } else if (request.url === '/slow') {
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'image/png' });
          response.end(png);
        }, 3_000);
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('never connects to loopback without the operator’s override', async () => {
    const target = await newProduct('URL-REFUSED');
    const answer = await staff('POST', gallery(target), { url: `${origin}/tea.png` });
    expect([answer.status, answer.body.code]).toEqual([422, 'IMAGE_URL_REFUSED']);
    expect(seen).toEqual([]);
  });

  it('fetches from a local server when the operator allows loopback (server configuration only)', async () => {
    const target = await newProduct('URL-ALLOWED');
    const app = createApp(
      createServices(h.database, { mediaUrls: { allowLoopback: true, timeoutMs: 1_000 } }),
    );
    const post = async (body: unknown) => {
      const response = await app.request(gallery(target), {
        method: 'POST',
        headers: { authorization: `Bearer ${h.shopA.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const added = await post({ url: `${origin}/tea.png` });
    expect(added.status).toBe(201);
    const entry = (added.body.gallery as { entries: { asset: Record<string, unknown> }[] }).entries[0]!;
    expect(entry.asset).toMatchObject({
      source: 'url',
      sourceUrl: `${origin}/tea.png`,
      width: 20,
      height: 10,
      byteSize: png.byteLength,
    });
    const redirected = await post({ url: `${origin}/moved` });
    expect(redirected.status).toBe(201);
    // A name goes through the connect-time lookup (every address it resolves to checked).
    const named = await post({ url: `${origin.replace('127.0.0.1', 'localhost')}/tea.png` });
    expect(named.status).toBe(201);

    const before = await h.digest();
    expect(await post({ url: `${origin}/page` })).toMatchObject({
      status: 415,
      body: { code: 'IMAGE_UNSUPPORTED_TYPE' },
    });
    expect(await post({ url: `${origin}/huge` })).toMatchObject({
      status: 413,
      body: { code: 'IMAGE_TOO_LARGE' },
    });
    expect(await post({ url: `${origin}/missing` })).toMatchObject({
      status: 422,
      body: { code: 'IMAGE_URL_FAILED' },
    });
    expect(await post({ url: `${origin}/slow` })).toMatchObject({
      status: 422,
      body: { code: 'IMAGE_URL_FAILED' },
    });
    // A redirect to a non-public address is refused even with loopback allowed.
    expect(await post({ url: `${origin}/to-metadata` })).toMatchObject({
      status: 422,
      body: { code: 'IMAGE_URL_REFUSED' },
    });
    expect(await h.digest()).toBe(before);
  });
});

describe('staged entries (the image drafts’ door)', () => {
  it('are shown to staff as staged, never to the public, and published by the next product save', async () => {
    const target = await newProduct('STAGED');
    const first = await staff('POST', gallery(target), {
      contentBase64: base64(await sampleImage('png', 30, 30)),
    });
    expect(first.status).toBe(201);
    const draftId = h.services.ids.next();
    const png = new Uint8Array(await sampleImage('png', 40, 40));
    const staged = await h.database.transaction((tx) =>
      stageGalleryEntry(tx, h.services, h.shopA.tenantId, { productId: target, draftId, png }),
    );
    expect(staged.ok).toBe(true);
    const entryId = staged.ok ? staged.value.entryId : '';
    const read = await staff('GET', gallery(target));
    const mine = (
      read.body.entries as { id: string; state: string; draftId: string | null; asset: { source: string } }[]
    ).find((entry) => entry.id === entryId);
    expect(mine).toMatchObject({ state: 'staged', draftId, asset: { source: 'draft' } });
    const coverOfStaged = await staff('PUT', `${gallery(target)}/cover`, {
      revision: read.body.revision,
      entryId,
    });
    expect([coverOfStaged.status, coverOfStaged.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    const publicBefore = await store(`/store-api/products/${target}`);
    expect(
      (publicBefore.body.product as { gallery: { id: string }[] }).gallery.map((image) => image.id),
    ).not.toContain(entryId);
    const assetId = staged.ok ? staged.value.assetId : '';
    expect((await storeBytes(`/store-api/media/${assetId}`)).status).toBe(404);

    // The product save publishes it.
    const product = await staff('GET', `/api/catalog/products/${target}`);
    const saved = await staff('PATCH', `/api/catalog/products/${target}`, {
      revision: (product.body.product as { revision: number }).revision,
      manufacturer: 'Leaf & Co',
    });
    expect(saved.status).toBe(200);
    const after = await store(`/store-api/products/${target}`);
    expect((after.body.product as { gallery: { id: string }[] }).gallery.map((image) => image.id)).toContain(
      entryId,
    );
    expect((await storeBytes(`/store-api/media/${assetId}`)).status).toBe(200);
    const staffAfter = await staff('GET', gallery(target));
    expect(
      (staffAfter.body.entries as { id: string; state: string }[]).find((entry) => entry.id === entryId)
        ?.state,
    ).toBe('published');
  });

  it('count against the 20 entries', async () => {
    const target = await newProduct('STAGED-FULL');
    for (let index = 0; index < 20; index++) {
      expect(
        (await staff('POST', gallery(target), { contentBase64: base64(await distinctPng()) })).status,
      ).toBe(201);
    }
    const png = new Uint8Array(await distinctPng());
    const before = await h.digest();
    const staged = await h.database.transaction((tx) =>
      stageGalleryEntry(tx, h.services, h.shopA.tenantId, {
        productId: target,
        draftId: h.services.ids.next(),
        png,
      }),
    );
    expect(staged).toMatchObject({ ok: false, code: 'GALLERY_LIMIT_REACHED' });
    expect(await h.digest()).toBe(before);
  });
});

describe('variants', () => {
  it('inherit the parent’s gallery unless they have their own', async () => {
    const parent = await newProduct('PARENT');
    const variant = await newProduct('PARENT-M', { parentId: parent, options: { size: 'M' } });
    const variantS = await newProduct('PARENT-S', { parentId: parent, options: { size: 'S' } });
    const parentImage = await staff('POST', gallery(parent), {
      contentBase64: base64(await sampleImage('png', 12, 12)),
    });
    expect(parentImage.status).toBe(201);
    const inherited = await staff('GET', gallery(variant));
    expect(inherited.body.entries).toEqual([]);
    expect((inherited.body.inherited as { productId: string; entries: unknown[] }).productId).toBe(parent);
    expect((inherited.body.inherited as { entries: unknown[] }).entries).toHaveLength(1);

    const own = await staff('POST', gallery(variant), {
      contentBase64: base64(await sampleImage('jpeg', 16, 16)),
    });
    expect(own.status).toBe(201);
    const detail = await store(`/store-api/products/${parent}`);
    const variants = detail.body.variants as { id: string; gallery: { id: string }[] }[];
    const parentEntry = parentImage.body.entryId;
    expect(variants.find((item) => item.id === variant)!.gallery.map((image) => image.id)).toEqual([
      own.body.entryId,
    ]);
    expect(variants.find((item) => item.id === variantS)!.gallery.map((image) => image.id)).toEqual([
      parentEntry,
    ]);
    expect((detail.body.product as { gallery: { id: string }[] }).gallery.map((image) => image.id)).toEqual([
      parentEntry,
    ]);
  });
});

describe('permissions and shops', () => {
  it('lets a reader read and refuses the reader’s writes', async () => {
    const read = await h.call('GET', gallery(productId), { token: readerToken });
    expect(read.status).toBe(200);
    const before = await h.digest();
    const write = await h.call('POST', gallery(productId), {
      token: readerToken,
      body: { contentBase64: base64(await sampleImage('png')) },
    });
    expect([write.status, write.body.code]).toEqual([403, 'FORBIDDEN']);
    const upload = await h.call('POST', assets(productId), {
      token: readerToken,
      body: { contentBase64: base64(await sampleImage('png')) },
    });
    expect([upload.status, upload.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(await h.digest()).toBe(before);
  });

  it('shows shop B nothing of shop A', async () => {
    const other = { token: h.shopB.token };
    const assetId = ((await staff('GET', gallery(productId))).body.entries as { assetId: string }[])[0]!
      .assetId;
    expect((await h.call('GET', gallery(productId), other)).status).toBe(404);
    expect((await h.call('GET', assets(productId), other)).status).toBe(404);
    expect((await h.call('GET', `${assets(productId)}/${assetId}/content`, other)).status).toBe(404);
    const before = await h.digest();
    const write = await h.call('POST', gallery(productId), { ...other, body: { assetId } });
    expect([write.status, write.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(await h.digest()).toBe(before);
    const channels = (await h.call('GET', '/api/automation', other)).body.channels as {
      accessKey: string;
      isMain: boolean;
    }[];
    const keyB = channels.find((channel) => channel.isMain)!.accessKey;
    expect((await storeBytes(`/store-api/media/${assetId}`, keyB)).status).toBe(404);
    expect((await storeBytes(`/store-api/media/${assetId}`)).status).toBe(200);
  });
});
