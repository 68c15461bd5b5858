import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AppServiceFixture,
  OVERSIZED_BYTES,
  startAppServiceFixture,
} from '../src/app-service-fixture/index.ts';

// The fixture is driven by node:http directly (no adapter), so its tests do not depend on the
// adapter they exist to test.

const CREDENTIAL = 'fixture-credential-0123456789';
let fixture: AppServiceFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

interface Answer {
  readonly status: number | null;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Buffer;
  readonly error: string | null;
}

/** One POST; a dropped or cut connection answers `error` with what arrived before it. */
function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let status: number | null = null;
    let received: Answer['headers'] = {};
    const done = (error: string | null) =>
      resolve({ status, headers: received, bytes: Buffer.concat(chunks), error });
    const outgoing = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${CREDENTIAL}`,
          'content-type': 'application/json',
          ...headers,
        },
      },
      (response) => {
        status = response.statusCode ?? null;
        received = response.headers;
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null));
        response.on('error', (error) => done(error.message));
        response.on('aborted', () => done('aborted'));
      },
    );
    outgoing.on('error', (error) => done(error.message));
    outgoing.end(JSON.stringify(body));
  });
}

const json = (answer: Answer) => JSON.parse(answer.bytes.toString('utf8'));

describe('the loopback app service fixture', () => {
  it('answers a configured action and records the call', async () => {
    fixture = await startAppServiceFixture({
      credential: CREDENTIAL,
      actions: { quote: ({ tenant, input }) => ({ tenant, doubled: (input as { n: number }).n * 2 }) },
    });
    expect(fixture.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/actions$/);
    const answer = await post(
      fixture.url,
      { tenant: 'shop-a', action: 'quote', input: { n: 21 } },
      { 'idempotency-key': 'flow:1:quote' },
    );
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ tenant: 'shop-a', doubled: 42 });
    expect(fixture.calls).toEqual([
      {
        method: 'POST',
        path: '/actions',
        authorized: true,
        contentType: 'application/json',
        tenant: 'shop-a',
        action: 'quote',
        input: { n: 21 },
        idempotencyKey: 'flow:1:quote',
        performed: true,
        status: 200,
      },
    ]);
  });

  it('refuses a missing or wrong credential with 401 and runs nothing', async () => {
    let runs = 0;
    fixture = await startAppServiceFixture({
      credential: CREDENTIAL,
      actions: { quote: () => ({ n: ++runs }) },
    });
    const body = { tenant: 't', action: 'quote', input: {} };
    expect((await post(fixture.url, body, { authorization: 'Bearer wrong-credential-000000' })).status).toBe(
      401,
    );
    expect((await post(fixture.url, body, { authorization: '' })).status).toBe(401);
    expect(runs).toBe(0);
    expect(fixture.calls.map((call) => [call.authorized, call.performed])).toEqual([
      [false, false],
      [false, false],
    ]);
  });

  it('answers 404 for an unknown action and 400 for a body without its fields', async () => {
    fixture = await startAppServiceFixture({ credential: CREDENTIAL });
    const unknown = await post(fixture.url, { tenant: 't', action: 'nope', input: {} });
    expect([unknown.status, json(unknown)]).toEqual([404, { detail: 'no action nope' }]);
    expect((await post(fixture.url, { tenant: 't' })).status).toBe(400);
    fixture.setAction('nope', () => ({ ok: true }));
    expect((await post(fixture.url, { tenant: 't', action: 'nope', input: {} })).status).toBe(200);
  });

  it('injects each fault once, for the named action, performing only when asked', async () => {
    let runs = 0;
    fixture = await startAppServiceFixture({
      credential: CREDENTIAL,
      actions: { a: () => ({ runs: ++runs }), b: () => ({ b: true }) },
    });
    const call = (action = 'a') => post(fixture!.url, { tenant: 't', action, input: {} });

    fixture.failNext({ kind: 'status', status: 502, action: 'a' });
    expect((await call('b')).status).toBe(200);
    const failed = await call();
    expect([failed.status, json(failed)]).toEqual([502, { detail: 'the service is unavailable' }]);
    expect(runs).toBe(0);

    fixture.failNext({ kind: 'refuse', status: 409, detail: 'already booked' });
    const refused = await call();
    expect([refused.status, json(refused)]).toEqual([409, { detail: 'already booked' }]);

    fixture.failNext({ kind: 'oversized' });
    const streamed = await call();
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-length']).toBeUndefined();
    expect(streamed.bytes.length).toBeGreaterThan(OVERSIZED_BYTES);

    fixture.failNext({ kind: 'oversized', declareLength: true });
    expect(Number((await call()).headers['content-length'])).toBeGreaterThan(OVERSIZED_BYTES);

    fixture.failNext({ kind: 'not-json' });
    expect((await call()).bytes.toString()).toBe('OK');

    fixture.failNext({ kind: 'not-utf8' });
    const notUtf8 = await call();
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(notUtf8.bytes)).toThrow();

    fixture.failNext({ kind: 'redirect', location: 'http://127.0.0.1:9/x' });
    const redirected = await call();
    expect([redirected.status, redirected.headers.location]).toEqual([307, 'http://127.0.0.1:9/x']);

    fixture.failNext({ kind: 'drop', performs: true });
    const dropped = await call();
    expect(dropped.status).toBeNull();
    expect(dropped.error).not.toBeNull();
    expect(runs).toBe(1);

    fixture.failNext({ kind: 'cut' });
    const cut = await call();
    expect(cut.status).toBe(200);
    expect(cut.error).not.toBeNull();
    expect(cut.bytes.toString()).toBe('{"partial":');

    fixture.failNext({ kind: 'slow', delayMs: 150 });
    const started = performance.now();
    const slow = await call();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(json(slow)).toEqual({ runs: 2 });

    expect(json(await call())).toEqual({ runs: 3 });
    expect(fixture.calls.map((received) => received.fault ?? null)).toEqual([
      null,
      'status',
      'refuse',
      'oversized',
      'oversized',
      'not-json',
      'not-utf8',
      'redirect',
      'drop',
      'cut',
      'slow',
      null,
    ]);
  });

  it('refuses faults it cannot inject', async () => {
    fixture = await startAppServiceFixture({ credential: CREDENTIAL });
    expect(() => fixture!.failNext({ kind: 'status', status: 404 })).toThrow(/500 to 599/);
    expect(() => fixture!.failNext({ kind: 'refuse', status: 503 })).toThrow(/400 to 499/);
    expect(() => fixture!.failNext({ kind: 'drop', times: 0 })).toThrow(/positive integer/);
  });

  it('closes with a slow call still open', async () => {
    fixture = await startAppServiceFixture({ credential: CREDENTIAL, actions: { a: () => ({}) } });
    fixture.failNext({ kind: 'slow', delayMs: 5000 });
    const pending = post(fixture.url, { tenant: 't', action: 'a', input: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await fixture.close();
    fixture = undefined;
    expect((await pending).status).toBeNull();
  });
});
