import { connect } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../src/server.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let server: RunningHttpServer;

beforeAll(async () => {
  h = await createHarness();
  server = await startHttpServer(h.services, {
    port: 0,
    host: '127.0.0.1',
    bodyLimitBytes: 1024 * 1024,
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});

/**
 * Sends `head` on a fresh connection; once the server has finished its answer, keeps sending as
 * a slow client would, then closes. Answers what the server sent and any connection error.
 */
function exchange(head: string): Promise<{ text: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      socket.write('a'.repeat(64 * 1024));
      setTimeout(() => socket.end(), 100);
    });
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString(), error }));
    socket.write(head);
  });
}

describe('405 for a known path with another method', () => {
  it('answers problem+json with Allow listing the path’s methods', async () => {
    const response = await h.app.request('/api/shop', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${h.shopA.token}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('lists every method of a path with parameters', async () => {
    const response = await h.app.request('/api/tokens/0190f0c8-0000-7000-8000-000000000000', {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.shopA.token}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('DELETE');
  });

  it('answers 405 on storefront and unauthenticated paths too, 404 where no method matches', async () => {
    expect((await h.app.request('/healthz', { method: 'POST' })).status).toBe(405);
    expect((await h.app.request('/healthz', { method: 'POST' })).headers.get('allow')).toBe('GET, HEAD');
    const channels = (await h.call('GET', '/api/automation', { token: h.shopA.token })).body.channels as {
      accessKey: string;
    }[];
    const store = await h.app.request('/store-api/context', {
      method: 'DELETE',
      headers: { 'x-channel-key': channels[0]!.accessKey },
    });
    expect(store.status).toBe(405);
    expect(store.headers.get('allow')).toBe('GET, HEAD, POST');
    const unknown = await h.app.request('/api/nothing-here', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${h.shopA.token}` },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('431 for oversized request headers (real server)', () => {
  it('answers a 200 KB header with 431 problem+json instead of resetting the connection', async () => {
    const { text, error } = await exchange(
      `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(200 * 1024)}`,
    );
    expect(error).toBeUndefined();
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('content-type: application/problem+json');
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
  });

  it('still serves a normal request on the same server afterwards', async () => {
    const { text } = await exchange('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });
});
