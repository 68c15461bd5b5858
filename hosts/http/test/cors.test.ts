import { EnvironmentError, readEnvironment } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { httpEnvironment } from '../src/env.ts';
import { createHarness, type Harness } from './harness.ts';

const SHOP = 'https://shop.example';

let h: Harness;
let channelKey: string;
let withCors: ReturnType<typeof createApp>;

beforeAll(async () => {
  h = await createHarness();
  const channels = (await h.call('GET', '/api/automation', { token: h.shopA.token })).body.channels as {
    accessKey: string;
    isMain: boolean;
  }[];
  channelKey = channels.find((channel) => channel.isMain)!.accessKey;
  withCors = createApp(h.services, { corsOrigins: [SHOP, 'http://localhost:5173'] });
});
afterAll(async () => h?.close());

function preflight(app: ReturnType<typeof createApp>, origin: string, path = '/store-api/cart/lines') {
  return app.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, idempotency-key, x-channel-key, x-context-token',
    },
  });
}

describe('CORS on /store-api/*', () => {
  it('answers a preflight from an allowed origin with the storefront headers and methods', async () => {
    const response = await preflight(withCors, SHOP);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
    const allowedHeaders = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of [
      'x-channel-key',
      'x-context-token',
      'idempotency-key',
      'content-type',
      'authorization',
    ]) {
      expect(allowedHeaders).toContain(header);
    }
    const methods = response.headers.get('access-control-allow-methods') ?? '';
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) expect(methods).toContain(method);
    expect(response.headers.get('vary')?.toLowerCase()).toContain('origin');
  });

  it('marks a storefront answer readable by the allowed origin, with its request id exposed', async () => {
    const response = await withCors.request('/store-api/context', {
      method: 'POST',
      headers: { origin: SHOP, 'x-channel-key': channelKey },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-request-id');
    // A refusal must be readable too, or the storefront cannot tell what went wrong.
    const refused = await withCors.request('/store-api/context', {
      method: 'POST',
      headers: { origin: SHOP, 'x-channel-key': 'cw_ch_unknown' },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('gives no CORS headers to another origin, to /api/*, or when no origin is configured', async () => {
    const stranger = await preflight(withCors, 'https://evil.example');
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    const staff = await withCors.request('/api/shop', {
      headers: { origin: SHOP, authorization: `Bearer ${h.shopA.token}` },
    });
    expect(staff.status).toBe(200);
    expect(staff.headers.get('access-control-allow-origin')).toBeNull();
    const closed = await preflight(h.app, SHOP);
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    expect(closed.headers.get('access-control-allow-headers')).toBeNull();
  });
});

describe('CORS_ORIGINS', () => {
  it('is a comma-separated list of origins, empty by default', () => {
    expect(readEnvironment(httpEnvironment, {}).CORS_ORIGINS).toEqual([]);
    expect(
      readEnvironment(httpEnvironment, { CORS_ORIGINS: ` ${SHOP} , http://localhost:5173,` }).CORS_ORIGINS,
    ).toEqual([SHOP, 'http://localhost:5173']);
    expect(readEnvironment(httpEnvironment, { CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
  });

  it('stops start-up with a line naming it for something that is not an origin', () => {
    for (const bad of [
      'shop.example',
      'https://shop.example/',
      'ftp://shop.example',
      'https://shop.example/path',
    ]) {
      expect(() => readEnvironment(httpEnvironment, { CORS_ORIGINS: bad })).toThrow(EnvironmentError);
      expect(() => readEnvironment(httpEnvironment, { CORS_ORIGINS: bad })).toThrow(
        /^Invalid CORS_ORIGINS: /,
      );
    }
  });
});
