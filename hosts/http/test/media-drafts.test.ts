import { Writable } from 'node:stream';
import {
  createHttpImageProvider,
  createServices,
  type ImageProvider,
  isMcpTool,
  mediaDraftRunner,
  operations,
  runDueMediaDrafts,
} from '@cartwright/service';
import { imagePixels } from '@cartwright/service/testing';
import {
  type ImageProviderFixture,
  renderFixtureImage,
  startImageProviderFixture,
} from '@cartwright/tooling/image-provider-fixture';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createLogger } from '../src/logger.ts';
import { createHarness, type Harness } from './harness.ts';

// Image drafts end to end over HTTP with the loopback image provider (issue 18): upload → draft →
// the media worker's round → ready (a PNG whose pixels are the provider's) → apply at the draft's
// product revision → the product's save publishes it; a newer product edit refuses the apply;
// provider failures, decompression bombs and lost workers fail the draft without a second call;
// admission limits, permissions and shops.

const API_KEY = 'sk-media-drafts-test-key-0123456789';
const RENDER = { width: 32, height: 24 } as const;

let fixture: ImageProviderFixture;
let provider: ImageProvider;
let h: Harness;
/** Every response body this file saw: none may carry the API key. */
const seen: string[] = [];

type Body = Record<string, unknown> & { code?: string };

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await h.call(method, path, { token: h.shopA.token, ...options });
  seen.push(JSON.stringify(response.body));
  return response;
}

function expectOk(response: { status: number; body: Body }, status = 200): Body {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A new product of shop A; answers its id and revision. */
async function newProduct(sku: string): Promise<{ id: string; revision: number }> {
  const body = expectOk(
    await call('POST', '/api/catalog/products', { body: { sku, translations: { en: { name: sku } } } }),
    201,
  );
  const product = body.product as { id: string; revision: number };
  return { id: product.id, revision: product.revision };
}

/** Uploads an image of the product through the gallery's asset store; answers the asset's id. */
async function uploadImage(productId: string, png: Uint8Array, token = h.shopA.token): Promise<string> {
  const body = expectOk(
    await call('POST', `/api/merchant/products/${productId}/media/assets`, {
      token,
      body: { contentBase64: Buffer.from(png).toString('base64') },
    }),
    201,
  );
  return body.id as string;
}

function createDraft(
  productId: string,
  body: Record<string, unknown>,
  options: { token?: string; headers?: Record<string, string> } = {},
) {
  return call('POST', `/api/merchant/products/${productId}/media/jobs`, { body, ...options });
}

/** One round of the media worker. */
function workerRound() {
  return runDueMediaDrafts(h.services, { owner: 'media-test-worker', leaseMs: 30_000, limit: 10 });
}

async function draftOf(id: string): Promise<Body> {
  return expectOk(await call('GET', `/api/merchant/media/jobs/${id}`));
}

const source = renderFixtureImage({ model: 'upload', prompt: 'a plain mug' }, 40, 30).png;

beforeAll(async () => {
  fixture = await startImageProviderFixture({ apiKey: API_KEY, renderSize: RENDER });
  provider = createHttpImageProvider(
    { apiKey: API_KEY, baseUrl: fixture.url, model: 'gpt-image-1' },
    { timeoutMs: 1_500 },
  );
  h = await createHarness({ ports: { imageProvider: provider } });
});
afterAll(async () => {
  await h?.close();
  await fixture?.close();
});
beforeEach(() => {
  fixture.clearFaults();
});

describe('image drafts over HTTP', () => {
  it('the provider is available with its model, never its key', async () => {
    const body = expectOk(await call('GET', '/api/merchant/media/provider'));
    expect(body).toMatchObject({
      available: true,
      model: 'gpt-image-1',
      limits: { pendingPerShop: 4, pendingPerProduct: 2 },
    });
    expect(JSON.stringify(body)).not.toContain(API_KEY);
  });

  it('upload → draft → ready PNG with the provider’s pixels → apply → the product’s save publishes it', async () => {
    const product = await newProduct('MUG-E2E');
    const assetId = await uploadImage(product.id, source);
    fixture.clear();
    const created = expectOk(
      await createDraft(product.id, { assetId, mode: 'optimize', instruction: 'on a white background' }),
      201,
    );
    expect(created).toMatchObject({
      productId: product.id,
      sourceAssetId: assetId,
      mode: 'optimize',
      status: 'pending',
      productRevision: product.revision,
      model: 'gpt-image-1',
      image: null,
    });
    const listed = expectOk(await call('GET', `/api/merchant/products/${product.id}/media/jobs`));
    expect((listed.items as Body[]).map((item) => [item.id, item.status])).toEqual([[created.id, 'pending']]);

    const round = await workerRound();
    expect(round).toMatchObject({ claimed: 1, ready: 1, lost: 0 });
    expect(fixture.calls).toHaveLength(1);
    const call0 = fixture.calls[0]!;
    expect(call0).toMatchObject({
      endpoint: 'edits',
      authorized: true,
      prompt: 'on a white background',
      status: 200,
    });
    expect(call0.image?.size).toBe(source.length);

    const ready = await draftOf(created.id as string);
    expect(ready).toMatchObject({
      status: 'ready',
      image: { contentType: 'image/png', width: RENDER.width, height: RENDER.height },
    });
    const image = await h.app.request(`/api/merchant/media/jobs/${created.id}/image`, {
      headers: { authorization: `Bearer ${h.shopA.token}` },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = new Uint8Array(await image.arrayBuffer());
    expect(Buffer.from(png.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a');
    const pixels = await imagePixels(png);
    expect([pixels.width, pixels.height]).toEqual([RENDER.width, RENDER.height]);
    expect(Buffer.from(pixels.rgba).equals(Buffer.from(call0.output!.rgba))).toBe(true);

    const applied = expectOk(
      await call('POST', `/api/merchant/media/jobs/${created.id}/apply`, {
        body: { revision: product.revision },
      }),
    );
    expect(applied.draft).toMatchObject({ status: 'applied', galleryEntryId: applied.galleryEntryId });
    // Applied drafts leave the list of pending and reviewable ones.
    const after = expectOk(await call('GET', `/api/merchant/products/${product.id}/media/jobs`));
    expect(after.items).toEqual([]);
    const staged = await galleryOf(product.id);
    expect(staged.find((entry) => entry.id === applied.galleryEntryId)).toMatchObject({
      state: 'staged',
      draftId: created.id,
    });

    expectOk(
      await call('PATCH', `/api/catalog/products/${product.id}`, {
        body: { revision: product.revision, manufacturer: 'Cartwright' },
      }),
    );
    const published = await galleryOf(product.id);
    const entry = published.find((item) => item.id === applied.galleryEntryId);
    expect(entry).toMatchObject({ state: 'published', draftId: created.id });
    // The published image is the draft's PNG, pixel for pixel.
    const content = await h.app.request(
      `/api/merchant/products/${product.id}/media/assets/${entry!.assetId}/content`,
      { headers: { authorization: `Bearer ${h.shopA.token}` } },
    );
    expect(content.status).toBe(200);
    const shown = await imagePixels(new Uint8Array(await content.arrayBuffer()));
    expect(Buffer.from(shown.rgba).equals(Buffer.from(call0.output!.rgba))).toBe(true);
    // Each step is an outbox event of the shop (flows can start from them).
    const events = expectOk(await call('GET', '/api/events?limit=100'));
    const mine = (events.items as { name: string; payload: { draftId?: string } }[])
      .filter((event) => event.payload.draftId === created.id)
      .map((event) => event.name);
    expect(mine).toEqual([
      'catalog.media.draft.created',
      'catalog.media.draft.ready',
      'catalog.media.draft.applied',
    ]);
    // The same draft cannot be applied twice.
    const again = await call('POST', `/api/merchant/media/jobs/${created.id}/apply`, {
      body: { revision: product.revision },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('MEDIA_DRAFT_NOT_READY');
  });

  it('generate sends the instruction to generations, without an image', async () => {
    const product = await newProduct('MUG-GEN');
    const assetId = await uploadImage(product.id, source);
    fixture.clear();
    const created = expectOk(
      await createDraft(product.id, { assetId, mode: 'generate', instruction: 'a mug in snow' }),
      201,
    );
    await workerRound();
    expect(fixture.calls.map((c) => [c.endpoint, c.prompt, c.image])).toEqual([
      ['generations', 'a mug in snow', null],
    ]);
    expect(await draftOf(created.id as string)).toMatchObject({ status: 'ready' });
  });

  it('an apply after another product edit is refused with MEDIA_DRAFT_STALE and changes nothing', async () => {
    const product = await newProduct('MUG-STALE');
    const assetId = await uploadImage(product.id, source);
    const created = expectOk(
      await createDraft(product.id, { assetId, mode: 'optimize', instruction: 'brighter' }),
      201,
    );
    await workerRound();
    expectOk(
      await call('PATCH', `/api/catalog/products/${product.id}`, {
        body: { revision: product.revision, manufacturer: 'Edited' },
      }),
    );
    const before = await h.digest();
    for (const revision of [product.revision, product.revision + 1]) {
      const refused = await call('POST', `/api/merchant/media/jobs/${created.id}/apply`, {
        body: { revision },
      });
      expect(refused.status).toBe(409);
      expect(refused.type).toContain('application/problem+json');
      expect(refused.body).toMatchObject({
        code: 'MEDIA_DRAFT_STALE',
        draftRevision: product.revision,
        productRevision: product.revision + 1,
      });
    }
    expect(await h.digest()).toBe(before);
    expect(await draftOf(created.id as string)).toMatchObject({ status: 'ready' });
  });

  it.each([
    ['a connection dropped mid-answer', { kind: 'cut' }, 'IMAGE_PROVIDER_UNAVAILABLE'],
    ['a dropped connection', { kind: 'drop' }, 'IMAGE_PROVIDER_UNAVAILABLE'],
    ['a provider error', { kind: 'status', status: 503 }, 'IMAGE_PROVIDER_UNAVAILABLE'],
    ['a slow answer past the deadline', { kind: 'slow', delayMs: 4_000 }, 'IMAGE_PROVIDER_UNAVAILABLE'],
    [
      'a refusal',
      { kind: 'refuse', status: 400, code: 'content_policy_violation' },
      'IMAGE_PROVIDER_REFUSED',
    ],
    ['an answer that is not an image', { kind: 'not-image' }, 'IMAGE_UNSUPPORTED_TYPE'],
    ['a PNG declaring 100,000 × 100,000 pixels', { kind: 'bomb' }, 'IMAGE_DIMENSIONS_EXCEEDED'],
    ['an answer over the 20 MiB limit', { kind: 'oversized' }, 'IMAGE_PROVIDER_ANSWER_INVALID'],
  ] as const)(
    '%s fails the draft with its code after exactly one call, never retried',
    async (_name, fault, code) => {
      const product = await newProduct(`MUG-FAIL-${code}-${fault.kind}`);
      const assetId = await uploadImage(product.id, source);
      fixture.clear();
      fixture.failNext(fault);
      const created = expectOk(
        await createDraft(product.id, { assetId, mode: 'generate', instruction: 'x' }),
        201,
      );
      const rssBefore = process.memoryUsage().rss;
      const round = await workerRound();
      const rssGrowth = process.memoryUsage().rss - rssBefore;
      expect(round).toMatchObject({ claimed: 1, ready: 0 });
      const failed = await draftOf(created.id as string);
      expect(failed).toMatchObject({ status: 'failed', image: null, failure: { code } });
      expect(JSON.stringify(failed)).not.toContain(API_KEY);
      expect(JSON.stringify(failed)).not.toContain(fixture.url);
      // Later rounds never send it again.
      await workerRound();
      expect(fixture.calls).toHaveLength(1);
      // A bomb is refused from its header: memory stays bounded (a decode would need 40 GB).
      if (fault.kind === 'bomb') expect(rssGrowth).toBeLessThan(256 * 1024 * 1024);
      const listed = expectOk(await call('GET', `/api/merchant/products/${product.id}/media/jobs`));
      expect(listed.items).toEqual([]);
    },
  );

  it('a draft whose worker was lost during its call fails, and the provider is not called again', async () => {
    const product = await newProduct('MUG-LOST');
    const assetId = await uploadImage(product.id, source);
    fixture.clear();
    const created = expectOk(
      await createDraft(product.id, { assetId, mode: 'generate', instruction: 'x' }),
      201,
    );
    // The worker records the call, then dies before (or while) making it.
    await expect(
      runDueMediaDrafts(h.services, {
        owner: 'doomed-worker',
        leaseMs: 30_000,
        limit: 10,
        afterReceipt: async () => {
          throw new Error('worker lost');
        },
      }),
    ).rejects.toThrow('worker lost');
    expect(await draftOf(created.id as string)).toMatchObject({ status: 'pending' });
    // Its lease runs out (database clock).
    await h.database.db.execute(
      sql`update media_drafts set lease_expires_at = clock_timestamp() - interval '1 second' where id = ${created.id as string}`,
    );
    const round = await workerRound();
    expect(round.failed.map((draft) => draft.code)).toEqual(['MEDIA_WORKER_LOST']);
    expect(await draftOf(created.id as string)).toMatchObject({
      status: 'failed',
      failure: { code: 'MEDIA_WORKER_LOST' },
    });
    expect(fixture.calls).toHaveLength(0);
  });

  it('two workers at once make one call per draft', async () => {
    const product = await newProduct('MUG-TWO');
    const assetId = await uploadImage(product.id, source);
    fixture.clear();
    const ids = [
      expectOk(await createDraft(product.id, { assetId, mode: 'generate', instruction: 'one' }), 201).id,
      expectOk(await createDraft(product.id, { assetId, mode: 'generate', instruction: 'two' }), 201).id,
    ];
    const rounds = await Promise.all(
      ['worker-a', 'worker-b'].map((owner) =>
        runDueMediaDrafts(h.services, { owner, leaseMs: 30_000, limit: 10 }),
      ),
    );
    expect(rounds.reduce((sum, round) => sum + round.claimed, 0)).toBe(2);
    expect(fixture.calls.map((c) => c.prompt).sort()).toEqual(['one', 'two']);
    for (const id of ids) expect(await draftOf(id as string)).toMatchObject({ status: 'ready' });
  });

  it('admits at most 2 pending drafts per product and 4 per shop (MEDIA_DRAFT_LIMIT, 429)', async () => {
    const products = [await newProduct('LIM-1'), await newProduct('LIM-2'), await newProduct('LIM-3')];
    const assets: string[] = [];
    for (const product of products) assets.push(await uploadImage(product.id, source));
    const draft = (index: number) =>
      createDraft(products[index]!.id, {
        assetId: assets[index],
        mode: 'generate',
        instruction: `limit ${index}`,
      });
    expectOk(await draft(0), 201);
    expectOk(await draft(0), 201);
    const perProduct = await draft(0);
    expect(perProduct.status).toBe(429);
    expect(perProduct.body).toMatchObject({ code: 'MEDIA_DRAFT_LIMIT', scope: 'product', limit: 2 });
    expectOk(await draft(1), 201);
    expectOk(await draft(1), 201);
    const perShop = await draft(2);
    expect(perShop.status).toBe(429);
    expect(perShop.body).toMatchObject({ code: 'MEDIA_DRAFT_LIMIT', scope: 'shop', limit: 4 });
    // Shop B is not held to shop A's count.
    const bProduct = expectOk(
      await call('POST', '/api/catalog/products', {
        token: h.shopB.token,
        body: { sku: 'B-LIM', translations: { en: { name: 'B' } } },
      }),
      201,
    ).product as { id: string };
    const bAsset = await uploadImage(bProduct.id, source, h.shopB.token);
    expectOk(
      await createDraft(
        bProduct.id,
        { assetId: bAsset, mode: 'generate', instruction: 'b' },
        { token: h.shopB.token },
      ),
      201,
    );
    // Finished drafts free their places.
    await workerRound();
    expectOk(await draft(2), 201);
    await workerRound();
  });

  it('an Idempotency-Key answers the same draft, and refuses another request', async () => {
    const product = await newProduct('MUG-IDEM');
    const assetId = await uploadImage(product.id, source);
    const headers = { 'idempotency-key': 'draft-key-0001' };
    const first = expectOk(
      await createDraft(product.id, { assetId, mode: 'generate', instruction: 'same' }, { headers }),
      201,
    );
    const second = expectOk(
      await createDraft(product.id, { assetId, mode: 'generate', instruction: 'same' }, { headers }),
      201,
    );
    expect(second.id).toBe(first.id);
    const other = await createDraft(
      product.id,
      { assetId, mode: 'generate', instruction: 'other' },
      { headers },
    );
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('CONFLICT');
    await workerRound();
  });

  it('refuses bad input with a clear 4xx and stores nothing', async () => {
    const product = await newProduct('MUG-BAD');
    const other = await newProduct('MUG-OTHER');
    const otherAsset = await uploadImage(other.id, source);
    const before = await h.digest();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ assetId: otherAsset, mode: 'generate', instruction: 'x' }, 422, 'VALIDATION_FAILED'],
      [{ assetId: otherAsset, mode: 'paint', instruction: 'x' }, 422, 'VALIDATION_FAILED'],
      [{ assetId: otherAsset, mode: 'generate', instruction: '   ' }, 422, 'VALIDATION_FAILED'],
      [{ assetId: otherAsset, mode: 'generate', instruction: 'x'.repeat(4001) }, 422, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of cases) {
      const response = await createDraft(product.id, body);
      expect(response.status).toBe(status);
      expect(response.body.code).toBe(code);
    }
    const missing = await createDraft('0190f0c8-0000-7000-8000-00000000dead', {
      assetId: otherAsset,
      mode: 'generate',
      instruction: 'x',
    });
    expect(missing.status).toBe(404);
    const pendingApply = await call(
      'POST',
      '/api/merchant/media/jobs/0190f0c8-0000-7000-8000-00000000dead/apply',
      { body: { revision: 1 } },
    );
    expect(pendingApply.status).toBe(404);
    expect(await h.digest()).toBe(before);
  });

  it('answers IMAGE_PROVIDER_DISABLED (503) when image generation is off', async () => {
    const product = await newProduct('MUG-OFF');
    const assetId = await uploadImage(product.id, source);
    const off = createApp(createServices(h.database));
    const headers = { authorization: `Bearer ${h.shopA.token}`, 'content-type': 'application/json' };
    const info = await off.request('/api/merchant/media/provider', { headers });
    expect(await info.json()).toMatchObject({ available: false, model: null });
    const refused = await off.request(`/api/merchant/products/${product.id}/media/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ assetId, mode: 'generate', instruction: 'x' }),
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'IMAGE_PROVIDER_DISABLED' });
  });

  it('a refused key fails the draft without the key in the draft, the answer or the worker’s log', async () => {
    const wrongKey = 'sk-wrong-key-for-media-drafts-987654321';
    const wrong = createHttpImageProvider(
      { apiKey: wrongKey, baseUrl: fixture.url, model: 'gpt-image-1' },
      { timeoutMs: 1_500 },
    );
    const services = { ...h.services, imageProvider: wrong };
    const logged: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    const app = createApp(services, { logger: createLogger('trace', 'cartwright', sink) });
    const product = await newProduct('MUG-KEY');
    const assetId = await uploadImage(product.id, source);
    const headers = { authorization: `Bearer ${h.shopA.token}`, 'content-type': 'application/json' };
    const created = await app.request(`/api/merchant/products/${product.id}/media/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ assetId, mode: 'generate', instruction: 'x' }),
    });
    const draft = (await created.json()) as Body;
    const round = await mediaDraftRunner.round(services, {
      owner: 'key-test',
      leaseMs: 30_000,
      batchSize: 10,
      maxBatches: 1,
      jobBatchSize: 10,
      signal: new AbortController().signal,
    });
    expect(JSON.stringify(round.lines)).not.toContain(wrongKey);
    const detail = await app.request(`/api/merchant/media/jobs/${draft.id}`, { headers });
    const text = await detail.text();
    expect(JSON.parse(text)).toMatchObject({ status: 'failed', failure: { code: 'IMAGE_PROVIDER_REFUSED' } });
    expect(text).not.toContain(wrongKey);
    expect(fixture.calls.at(-1)?.authorized).toBe(false);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('')).not.toContain(wrongKey);
    expect(logged.join('')).not.toContain(API_KEY);
  });

  it('a reader may look but not create or apply; shop B sees nothing of shop A', async () => {
    const product = await newProduct('MUG-PERM');
    const assetId = await uploadImage(product.id, source);
    const created = expectOk(
      await createDraft(product.id, { assetId, mode: 'generate', instruction: 'x' }),
      201,
    );
    await workerRound();
    const reader = expectOk(
      await call('POST', '/api/tokens', { body: { name: 'reader', kind: 'api', role: 'reader' } }),
      201,
    ).token as string;
    expect(
      (await call('GET', `/api/merchant/products/${product.id}/media/jobs`, { token: reader })).status,
    ).toBe(200);
    expect((await call('GET', `/api/merchant/media/jobs/${created.id}`, { token: reader })).status).toBe(200);
    const image = await h.app.request(`/api/merchant/media/jobs/${created.id}/image`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(image.status).toBe(200);
    const refused = await createDraft(
      product.id,
      { assetId, mode: 'generate', instruction: 'x' },
      { token: reader },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const apply = await call('POST', `/api/merchant/media/jobs/${created.id}/apply`, {
      token: reader,
      body: { revision: product.revision },
    });
    expect(apply.status).toBe(403);

    const before = await h.digest();
    const b = { token: h.shopB.token };
    for (const [method, path, body] of [
      ['GET', `/api/merchant/products/${product.id}/media/jobs`, undefined],
      ['GET', `/api/merchant/media/jobs/${created.id}`, undefined],
      ['GET', `/api/merchant/media/jobs/${created.id}/image`, undefined],
      ['POST', `/api/merchant/media/jobs/${created.id}/apply`, { revision: product.revision }],
      [
        'POST',
        `/api/merchant/products/${product.id}/media/jobs`,
        { assetId, mode: 'generate', instruction: 'x' },
      ],
    ] as const) {
      const response = await call(method, path, { ...b, body });
      expect(response.status, path).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain(h.shopA.tenantId);
    }
    expect(await h.digest()).toBe(before);
  });

  it('the five spec tools exist over MCP and name the same operations as their routes', async () => {
    const spec: [string, string, string][] = [
      ['merchant.media.provider', 'GET', '/api/merchant/media/provider'],
      ['merchant.media.create', 'POST', '/api/merchant/products/:id/media/jobs'],
      ['merchant.media.list', 'GET', '/api/merchant/products/:id/media/jobs'],
      ['merchant.media.detail', 'GET', '/api/merchant/media/jobs/:id'],
      ['merchant.media.apply', 'POST', '/api/merchant/media/jobs/:id/apply'],
    ];
    for (const [name, method, path] of spec) {
      const operation = operations.find((candidate) => candidate.name === name);
      expect(operation && isMcpTool(operation), name).toBe(true);
      expect(operation?.http).toMatchObject({ method, path });
    }
    const tool = await h.mcp(h.shopA.token);
    const info = await tool('merchant.media.provider', {});
    expect(info.isError).toBeFalsy();
    expect(info.structuredContent).toMatchObject({ available: true, model: 'gpt-image-1' });
    const product = await newProduct('MUG-MCP');
    const assetId = await uploadImage(product.id, source);
    const created = await tool('merchant.media.create', {
      id: product.id,
      assetId,
      mode: 'generate',
      instruction: 'mcp',
    });
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent!.id as string;
    await workerRound();
    const listed = await tool('merchant.media.list', { id: product.id });
    expect((listed.structuredContent!.items as Body[]).map((item) => item.id)).toEqual([id]);
    expect((await tool('merchant.media.detail', { id })).structuredContent).toMatchObject({
      status: 'ready',
    });
    const stale = await tool('merchant.media.apply', { id, revision: product.revision + 5 });
    expect(stale.isError).toBe(true);
    expect(JSON.stringify(stale.content)).toContain('MEDIA_DRAFT_STALE');
    const applied = await tool('merchant.media.apply', { id, revision: product.revision });
    expect(applied.isError).toBeFalsy();
  });

  it('no response of this file carried the API key', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const body of seen) expect(body).not.toContain(API_KEY);
  });
});

/** Staff's view of a product's gallery entries. */
async function galleryOf(
  productId: string,
): Promise<{ id: string; assetId: string; state: string; draftId: string | null }[]> {
  const body = expectOk(await call('GET', `/api/merchant/products/${productId}/media/gallery`));
  return body.entries as { id: string; assetId: string; state: string; draftId: string | null }[];
}
