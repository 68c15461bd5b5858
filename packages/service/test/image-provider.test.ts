import {
  type ImageProviderFixture,
  renderFixtureImage,
  startImageProviderFixture,
} from '@cartwright/tooling/image-provider-fixture';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EnvironmentError } from '../src/kernel/environment.ts';
import type { ImageProviderResult } from '../src/kernel/image-provider.ts';
import { createHttpImageProvider, IMAGE_RESPONSE_LIMIT_BYTES } from '../src/media/http-image-provider.ts';
import {
  DEFAULT_IMAGE_MODEL,
  imageProviderOf,
  readImageProviderConfig,
} from '../src/media/image-provider-config.ts';

// The image provider adapter against the loopback fixture: every way a call ends, and no answer
// or message ever carries the API key or the configured URL.

const API_KEY = 'sk-test-image-key-0123456789';
let fixture: ImageProviderFixture;
beforeAll(async () => {
  fixture = await startImageProviderFixture({ apiKey: API_KEY, renderSize: { width: 16, height: 12 } });
});
afterAll(() => fixture.close());
beforeEach(() => {
  fixture.clear();
  fixture.clearFaults();
});

function provider(options: { apiKey?: string; timeoutMs?: number } = {}) {
  return createHttpImageProvider(
    { apiKey: options.apiKey ?? API_KEY, baseUrl: fixture.url, model: DEFAULT_IMAGE_MODEL },
    { timeoutMs: options.timeoutMs ?? 5_000 },
  );
}

function expectNoSecret(result: ImageProviderResult, key = API_KEY) {
  const text = JSON.stringify(result);
  expect(text).not.toContain(key);
  expect(text).not.toContain(fixture.url);
  expect(text).not.toContain(new URL(fixture.url).host);
}

describe('HTTP image provider', () => {
  it('generates: one JSON call with the model and prompt, the first image answered', async () => {
    const result = await provider().draw({ mode: 'generate', instruction: 'a red mug on white' });
    expect(result.ok).toBe(true);
    const call = fixture.calls[0]!;
    expect(call).toMatchObject({
      endpoint: 'generations',
      authorized: true,
      model: DEFAULT_IMAGE_MODEL,
      prompt: 'a red mug on white',
      n: 1,
      size: '1024x1024',
    });
    if (!result.ok) return;
    expect(Buffer.from(result.bytes).equals(call.output!.png)).toBe(true);
    expect(fixture.calls).toHaveLength(1);
  });

  it('optimizes: a multipart edit carrying the source image', async () => {
    const source = renderFixtureImage({ model: 'm', prompt: 'source' }, 4, 4).png;
    const result = await provider().draw({
      mode: 'optimize',
      instruction: 'brighter',
      image: { bytes: source, contentType: 'image/png', fileName: 'mug.png' },
    });
    expect(result.ok).toBe(true);
    const call = fixture.calls[0]!;
    expect(call.endpoint).toBe('edits');
    expect(call.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.image).toMatchObject({ fileName: 'mug.png', contentType: 'image/png', size: source.length });
  });

  it('a refused key is IMAGE_PROVIDER_REFUSED and never quoted', async () => {
    const wrong = 'sk-wrong-key-abcdefghijkl';
    const result = await provider({ apiKey: wrong }).draw({ mode: 'generate', instruction: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'IMAGE_PROVIDER_REFUSED' });
    expectNoSecret(result, wrong);
  });

  it('a policy refusal quotes the provider, without the key', async () => {
    fixture.failNext({ kind: 'refuse', status: 400, message: `blocked for ${API_KEY} at ${fixture.url}` });
    const result = await provider().draw({ mode: 'generate', instruction: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'IMAGE_PROVIDER_REFUSED' });
    expect(!result.ok && result.message).toContain('blocked for [redacted]');
    expectNoSecret(result);
  });

  it.each([
    ['5xx', { kind: 'status', status: 502 }],
    ['dropped connection', { kind: 'drop' }],
    ['cut answer', { kind: 'cut' }],
  ] as const)('%s is IMAGE_PROVIDER_UNAVAILABLE', async (_name, fault) => {
    fixture.failNext(fault);
    const result = await provider().draw({ mode: 'generate', instruction: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'IMAGE_PROVIDER_UNAVAILABLE' });
    expectNoSecret(result);
    expect(fixture.calls).toHaveLength(1);
  });

  it('a slow answer past the deadline is IMAGE_PROVIDER_UNAVAILABLE (timeout)', async () => {
    fixture.failNext({ kind: 'slow', delayMs: 2_000 });
    const result = await provider({ timeoutMs: 200 }).draw({ mode: 'generate', instruction: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'IMAGE_PROVIDER_UNAVAILABLE' });
    expect(!result.ok && result.message).toContain('timeout');
  });

  it('an answer past the stream limit is IMAGE_PROVIDER_ANSWER_INVALID', async () => {
    fixture.failNext({ kind: 'oversized', bytes: IMAGE_RESPONSE_LIMIT_BYTES + 1024 });
    const result = await provider().draw({ mode: 'generate', instruction: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'IMAGE_PROVIDER_ANSWER_INVALID' });
    expectNoSecret(result);
  });

  it('answers the bytes of a non-image unchecked (the draft worker decodes them)', async () => {
    fixture.failNext({ kind: 'not-image' });
    const result = await provider().draw({ mode: 'generate', instruction: 'x' });
    expect(result.ok && Buffer.from(result.bytes).toString('utf8')).toContain('not an image');
  });
});

describe('image provider configuration', () => {
  it('is off unless IMAGE_GENERATION_ENABLED=true', async () => {
    expect(readImageProviderConfig({})).toBeNull();
    expect(
      readImageProviderConfig({ IMAGE_GENERATION_ENABLED: 'false', PROVIDER_API_KEY: API_KEY }),
    ).toBeNull();
    const off = imageProviderOf({ PROVIDER_API_KEY: API_KEY });
    expect(off.info()).toEqual({ available: false, model: null });
    expect(await off.draw({ mode: 'generate', instruction: 'x' })).toMatchObject({
      ok: false,
      code: 'IMAGE_PROVIDER_DISABLED',
    });
  });

  it('defaults the model and base URL, and says the model but never the key', () => {
    expect(readImageProviderConfig({ IMAGE_GENERATION_ENABLED: 'true', PROVIDER_API_KEY: API_KEY })).toEqual({
      apiKey: API_KEY,
      model: 'gpt-image-1',
      baseUrl: 'https://api.openai.com/v1',
    });
    const on = imageProviderOf({
      IMAGE_GENERATION_ENABLED: 'true',
      PROVIDER_API_KEY: API_KEY,
      PROVIDER_IMAGE_MODEL: 'dall-e-3',
      PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1/',
    });
    expect(on.info()).toEqual({ available: true, model: 'dall-e-3' });
    expect(JSON.stringify(on.info())).not.toContain(API_KEY);
  });

  it.each([
    [{ IMAGE_GENERATION_ENABLED: 'yes' }, 'IMAGE_GENERATION_ENABLED'],
    [{ IMAGE_GENERATION_ENABLED: 'true' }, 'PROVIDER_API_KEY'],
    [{ IMAGE_GENERATION_ENABLED: 'true', PROVIDER_API_KEY: 'short' }, 'PROVIDER_API_KEY'],
    [
      { IMAGE_GENERATION_ENABLED: 'true', PROVIDER_API_KEY: API_KEY, PROVIDER_IMAGE_MODEL: 'a b' },
      'PROVIDER_IMAGE_MODEL',
    ],
    [
      {
        IMAGE_GENERATION_ENABLED: 'true',
        PROVIDER_API_KEY: API_KEY,
        PROVIDER_BASE_URL: 'http://api.example/v1',
      },
      'PROVIDER_BASE_URL',
    ],
    [
      {
        IMAGE_GENERATION_ENABLED: 'true',
        PROVIDER_API_KEY: API_KEY,
        PROVIDER_BASE_URL: `https://u:${API_KEY}@api.example/v1`,
      },
      'PROVIDER_BASE_URL',
    ],
  ])('refuses %j naming %s and no value', (variables, name) => {
    let error: unknown;
    try {
      readImageProviderConfig(variables);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvironmentError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message).not.toContain(API_KEY);
    expect(message.split('\n')).toHaveLength(1);
  });
});
