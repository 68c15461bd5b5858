import { imagePixels } from '@cartwright/service/testing';
import {
  type ImageProviderFixture,
  renderFixtureImage,
  startImageProviderFixture,
} from '@cartwright/tooling/image-provider-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, migratedStorage, run, type Server, type Storage, startServer, stopServer } from './storage.ts';

// Image drafts as an operator runs them: `cartwright start` (HTTP and every worker in one process)
// configured only through its environment (IMAGE_GENERATION_ENABLED, PROVIDER_API_KEY,
// PROVIDER_BASE_URL at the loopback provider); the media worker in that process is woken by the
// draft's NOTIFY and makes the call. The key appears in no answer and no log line.

const API_KEY = 'sk-cli-e2e-image-key-4c1d9e7f';

let fixture: ImageProviderFixture;
let storage: Storage;
let server: Server;
let token: string;

beforeAll(async () => {
  fixture = await startImageProviderFixture({ apiKey: API_KEY, renderSize: { width: 24, height: 16 } });
  storage = await migratedStorage();
  const created = await run(storage, ['shop', 'create', '--name', 'Media']);
  token = (JSON.parse(created.stdout[0]!) as { token: string }).token;
  server = await startServer(storage, {
    IMAGE_GENERATION_ENABLED: 'true',
    PROVIDER_API_KEY: API_KEY,
    PROVIDER_BASE_URL: fixture.url,
    LOG_LEVEL: 'debug',
  });
});
afterAll(async () => {
  if (server) await stopServer(server);
  await storage?.dispose();
  await fixture?.close();
});

/** The draft once it left `pending` (the worker runs in the server's process). */
async function settled(id: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const draft = await api(server, 'GET', `/api/merchant/media/jobs/${id}`, token);
    if (draft.body.status !== 'pending') return draft.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`draft ${id} stayed pending`);
}

describe('image drafts in `cartwright start`', () => {
  it('are drawn by the process’s media worker from its environment alone, once per draft', async () => {
    const provider = await api(server, 'GET', '/api/merchant/media/provider', token);
    expect(provider.body).toMatchObject({ available: true, model: 'gpt-image-1' });

    const product = await api(server, 'POST', '/api/catalog/products', token, {
      sku: 'CLI-MUG',
      translations: { en: { name: 'Mug' } },
    });
    const productId = (product.body.product as { id: string }).id;
    const source = renderFixtureImage({ model: 'upload', prompt: 'mug' }, 20, 20).png;
    const asset = await api(server, 'POST', `/api/merchant/products/${productId}/media/assets`, token, {
      contentBase64: source.toString('base64'),
    });
    expect(asset.status).toBe(201);

    const draft = await api(server, 'POST', `/api/merchant/products/${productId}/media/jobs`, token, {
      assetId: asset.body.id,
      mode: 'optimize',
      instruction: 'on white',
    });
    expect(draft.status).toBe(201);
    expect(await settled(draft.body.id as string)).toMatchObject({
      status: 'ready',
      image: { width: 24, height: 16 },
    });
    expect(fixture.calls).toHaveLength(1);
    const image = await fetch(`${server.url}/api/merchant/media/jobs/${draft.body.id}/image`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const pixels = await imagePixels(new Uint8Array(await image.arrayBuffer()));
    expect(Buffer.from(pixels.rgba).equals(Buffer.from(fixture.calls[0]!.output!.rgba))).toBe(true);

    // The provider drops the connection: the draft fails, and nobody calls again.
    fixture.failNext({ kind: 'drop' });
    const dropped = await api(server, 'POST', `/api/merchant/products/${productId}/media/jobs`, token, {
      assetId: asset.body.id,
      mode: 'generate',
      instruction: 'in snow',
    });
    expect(await settled(dropped.body.id as string)).toMatchObject({
      status: 'failed',
      failure: { code: 'IMAGE_PROVIDER_UNAVAILABLE' },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fixture.calls).toHaveLength(2);

    const log = [...server.process.lines, ...server.process.stdout].join('\n');
    expect(log).toContain('image draft failed');
    expect(log).not.toContain(API_KEY);
  });
});
