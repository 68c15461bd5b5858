import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ImageProviderFixture,
  renderFixtureImage,
  startImageProviderFixture,
} from '../src/image-provider-fixture/index.ts';

// The fixture is driven with the global fetch directly (no adapter), so its tests do not depend on
// the adapter they exist to test.

const API_KEY = 'sk-fixture-0123456789abcdef';
let fixture: ImageProviderFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function start(renderSize = { width: 8, height: 6 }) {
  fixture = await startImageProviderFixture({ apiKey: API_KEY, renderSize });
  return fixture;
}

function generate(f: ImageProviderFixture, body: unknown, key = API_KEY) {
  return fetch(`${f.url}/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The pixels of a PNG the fixture drew (filter 0, RGBA): enough to check its own output. */
function pixelsOf(png: Buffer): { width: number; height: number; rgba: Buffer } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  let offset = 8;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    if (type === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rows = Array.from({ length: height }, (_, y) =>
    raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)),
  );
  return { width, height, rgba: Buffer.concat(rows) };
}

describe('image provider fixture', () => {
  it('refuses a wrong key with the provider error shape, naming the key it was given', async () => {
    const f = await start();
    const response = await generate(f, { prompt: 'a mug' }, 'sk-wrong');
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_api_key');
    expect(body.error.message).toContain('sk-wrong');
    expect(f.calls[0]?.authorized).toBe(false);
  });

  it('draws the same pixels for the same request and records the call', async () => {
    const f = await start();
    const request = {
      model: 'gpt-image-1',
      prompt: 'a red mug',
      n: 1,
      size: '1024x1024',
      response_format: 'b64_json',
    };
    const first = (await (await generate(f, request)).json()) as {
      created: number;
      data: { b64_json: string }[];
    };
    const second = (await (await generate(f, request)).json()) as { data: { b64_json: string }[] };
    expect(typeof first.created).toBe('number');
    expect(first.data).toHaveLength(1);
    expect(first.data[0]!.b64_json).toBe(second.data[0]!.b64_json);
    const decoded = pixelsOf(Buffer.from(first.data[0]!.b64_json, 'base64'));
    const expected = renderFixtureImage({ model: 'gpt-image-1', prompt: 'a red mug' }, 8, 6);
    expect(decoded.width).toBe(8);
    expect(decoded.height).toBe(6);
    expect(Buffer.compare(decoded.rgba, Buffer.from(expected.rgba))).toBe(0);
    expect(f.calls[0]).toMatchObject({
      endpoint: 'generations',
      prompt: 'a red mug',
      size: '1024x1024',
      status: 200,
    });
    const other = (await (await generate(f, { ...request, prompt: 'a blue mug' })).json()) as {
      data: { b64_json: string }[];
    };
    expect(other.data[0]!.b64_json).not.toBe(first.data[0]!.b64_json);
  });

  it('edits take a multipart image and draw from its bytes', async () => {
    const f = await start();
    const source = renderFixtureImage({ model: 'x', prompt: 'source' }, 4, 4).png;
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'on white');
    form.set('image', new Blob([source], { type: 'image/png' }), 'source.png');
    const response = await fetch(`${f.url}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}` },
      body: form,
    });
    expect(response.status).toBe(200);
    const call = f.calls[0]!;
    expect(call.endpoint).toBe('edits');
    expect(call.image).toMatchObject({
      fileName: 'source.png',
      contentType: 'image/png',
      size: source.length,
    });
    expect(call.output).toBeDefined();
    const withoutImage = new FormData();
    withoutImage.set('prompt', 'on white');
    const refused = await fetch(`${f.url}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}` },
      body: withoutImage,
    });
    expect(refused.status).toBe(400);
  });

  it('injects provider errors, a non-image, a bomb, a slow answer and a dropped connection', async () => {
    const f = await start();
    f.failNext({ kind: 'status', status: 503 });
    expect((await generate(f, { prompt: 'x' })).status).toBe(503);
    f.failNext({ kind: 'refuse', status: 429, code: 'rate_limit_exceeded' });
    const refused = await generate(f, { prompt: 'x' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');

    f.failNext({ kind: 'not-image' });
    const text = (await (await generate(f, { prompt: 'x' })).json()) as { data: { b64_json: string }[] };
    expect(Buffer.from(text.data[0]!.b64_json, 'base64').toString('utf8')).toContain('not an image');

    f.failNext({ kind: 'bomb' });
    const bomb = (await (await generate(f, { prompt: 'x' })).json()) as { data: { b64_json: string }[] };
    const png = Buffer.from(bomb.data[0]!.b64_json, 'base64');
    expect(png.length).toBeLessThan(1024 * 1024);
    expect(png.readUInt32BE(16)).toBe(100_000);
    expect(png.readUInt32BE(20)).toBe(100_000);

    f.failNext({ kind: 'slow', delayMs: 300 });
    const slow = await fetch(`${f.url}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x' }),
      signal: AbortSignal.timeout(50),
    }).then(
      () => 'answered',
      () => 'aborted',
    );
    expect(slow).toBe('aborted');

    f.failNext({ kind: 'drop' });
    await expect(generate(f, { prompt: 'x' })).rejects.toThrow();
    f.failNext({ kind: 'cut' });
    const cut = await generate(f, { prompt: 'x' });
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow();
    expect(f.calls.map((call) => call.fault ?? null)).toEqual([
      'status',
      'refuse',
      'not-image',
      'bomb',
      'slow',
      'drop',
      'cut',
    ]);
  });

  it('streams an oversized answer without a length', async () => {
    const f = await start();
    f.failNext({ kind: 'oversized', bytes: 2 * 1024 * 1024 });
    const response = await generate(f, { prompt: 'x' });
    expect(response.headers.get('content-length')).toBeNull();
    expect((await response.text()).length).toBeGreaterThan(2 * 1024 * 1024);
  });
});
