import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAppServicesConfig } from '../src/apps/external/config.ts';
import { type AppServiceEndpoint, createHttpAppServices } from '../src/apps/external/http-app-services.ts';
import type { AppServiceResult, AppServices } from '../src/kernel/app-services.ts';
import { RESPONSE_LIMIT_BYTES } from '../src/kernel/bounded-exchange.ts';

// Issue 15, item 6: the HTTP adapter of the external app service port against a real loopback
// service. Every outcome of decision 0036's table, and no answer or message carrying the
// credential or the configured URL.

const CREDENTIAL = 'svc-credential-3f9a1c7e5b2d4a68';
const TENANT = '0190f0c8-0000-7000-8000-00000000000a';

let fixture: AppServiceFixture;
let services: AppServices;
let endpoint: AppServiceEndpoint;

beforeAll(async () => {
  fixture = await startAppServiceFixture({
    credential: CREDENTIAL,
    actions: {
      quote: ({ input }) => ({ points: (input as { total: number }).total / 100 }),
      list: () => [1, 2, 3],
      nothing: () => null,
    },
  });
  [endpoint] = readAppServicesConfig({
    APP_SERVICES: JSON.stringify({
      loyalty: { baseUrl: fixture.url, credential: CREDENTIAL, timeoutMs: 400 },
    }),
  }).values() as unknown as [AppServiceEndpoint];
  services = createHttpAppServices(new Map([['loyalty', endpoint]]));
});
afterAll(() => fixture.close());
afterEach(() => {
  fixture.clear();
  fixture.clearFaults();
});

const call = (
  actionId = 'quote',
  extra: { idempotencyKey?: string; appId?: string; timeoutMs?: number } = {},
) => services.call({ tenantId: TENANT, appId: 'loyalty', actionId, input: { total: 2500 }, ...extra });

/** The result, checked to carry neither the credential nor the URL anywhere. */
function clean(result: AppServiceResult): AppServiceResult {
  const text = JSON.stringify(result);
  expect(text).not.toContain(CREDENTIAL);
  expect(text).not.toContain(fixture.url);
  expect(text).not.toContain(new URL(fixture.url).host);
  if (!result.ok) expect(result.message).not.toContain('\n');
  return result;
}

async function failure(promise: Promise<AppServiceResult>) {
  const result = clean(await promise);
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result;
}

describe('the HTTP app services adapter', () => {
  it('POSTs {tenant, action, input} with the bearer credential and answers the JSON object', async () => {
    expect(clean(await call('quote', { idempotencyKey: 'flow:job-1:node-2' }))).toEqual({
      ok: true,
      output: { points: 25 },
    });
    expect(fixture.calls).toEqual([
      {
        method: 'POST',
        path: '/actions',
        authorized: true,
        contentType: 'application/json',
        tenant: TENANT,
        action: 'quote',
        input: { total: 2500 },
        idempotencyKey: 'flow:job-1:node-2',
        performed: true,
        status: 200,
      },
    ]);
    await call();
    expect(fixture.calls[1]!.idempotencyKey).toBeNull();
  });

  it('knows which apps it serves and answers an unconfigured one without sending', async () => {
    expect(services.isConfigured('loyalty')).toBe(true);
    expect(services.isConfigured('reviews')).toBe(false);
    expect(await failure(call('quote', { appId: 'reviews' }))).toEqual({
      ok: false,
      code: 'APP_SERVICE_NOT_CONFIGURED',
      message: 'No service endpoint is configured for the app reviews (APP_SERVICES).',
      outcomeUnknown: false,
    });
    expect(fixture.calls).toEqual([]);
  });

  it('answers a 4xx as refused, quoting the JSON detail cleaned of the credential and the URL', async () => {
    fixture.failNext({
      kind: 'refuse',
      status: 422,
      detail: `points\nexhausted for ${CREDENTIAL} at ${fixture.url}\u0007 ${'x'.repeat(400)}`,
    });
    const refused = await failure(call());
    expect(refused).toMatchObject({ code: 'APP_SERVICE_REFUSED', outcomeUnknown: false });
    expect(refused.message).toMatch(
      /^The service of the app loyalty refused the call \(HTTP 422\): points exhausted for \[redacted\] at \[redacted\] x+…$/,
    );
    expect(refused.message.length).toBeLessThan(300);
    fixture.failNext({ kind: 'refuse', status: 404 });
    expect((await failure(call())).message).toMatch(/refused the call \(HTTP 404\): the input was refused$/);
  });

  it('answers a wrong credential (401) as refused, without the credential', async () => {
    const wrong = createHttpAppServices(
      new Map([['loyalty', { ...endpoint, credential: 'another-credential-0000000000' }]]),
    );
    const refused = await failure(
      wrong.call({ tenantId: TENANT, appId: 'loyalty', actionId: 'quote', input: {} }),
    );
    expect(refused).toEqual({
      ok: false,
      code: 'APP_SERVICE_REFUSED',
      message: 'The service of the app loyalty refused the call (HTTP 401): missing or wrong credential',
      outcomeUnknown: false,
    });
    expect(refused.message).not.toContain('another-credential');
  });

  it.each([
    [500, true],
    [503, false],
  ])('answers a %i as unavailable with an unknown outcome (performed: %s)', async (status, performs) => {
    fixture.failNext({ kind: 'status', status, performs, detail: `boom ${CREDENTIAL}` });
    expect(await failure(call())).toEqual({
      ok: false,
      code: 'APP_SERVICE_UNAVAILABLE',
      message: `The service of the app loyalty answered HTTP ${status}; the call may have had its effect.`,
      outcomeUnknown: true,
    });
    expect(fixture.calls[0]!.performed).toBe(performs);
  });

  it('answers a timeout as unavailable, within the configured deadline', async () => {
    fixture.failNext({ kind: 'slow', delayMs: 1500 });
    const started = performance.now();
    const result = await failure(call());
    expect(performance.now() - started).toBeLessThan(1200);
    expect(result).toEqual({
      ok: false,
      code: 'APP_SERVICE_UNAVAILABLE',
      message: 'The service of the app loyalty did not answer (timeout); the call may have had its effect.',
      outcomeUnknown: true,
    });
  });

  it('keeps a caller’s shorter deadline, and the configured one when the caller’s is longer', async () => {
    // Answered after 300 ms: within the configured 400 ms, past the caller's 100 ms.
    fixture.failNext({ kind: 'slow', delayMs: 300 });
    expect(await failure(call('quote', { timeoutMs: 100 }))).toMatchObject({
      code: 'APP_SERVICE_UNAVAILABLE',
      message: expect.stringContaining('(timeout)'),
    });
    fixture.failNext({ kind: 'slow', delayMs: 700 });
    expect(await failure(call('quote', { timeoutMs: 5_000 }))).toMatchObject({
      code: 'APP_SERVICE_UNAVAILABLE',
      message: expect.stringContaining('(timeout)'),
    });
  });

  it('answers a dropped connection, a cut body and a closed port as unavailable', async () => {
    fixture.failNext({ kind: 'drop', performs: true });
    expect(await failure(call())).toMatchObject({
      code: 'APP_SERVICE_UNAVAILABLE',
      message: expect.stringMatching(
        /^The service of the app loyalty did not answer \(network error.*\); the call/,
      ),
      outcomeUnknown: true,
    });
    fixture.failNext({ kind: 'cut' });
    expect(await failure(call())).toMatchObject({
      code: 'APP_SERVICE_UNAVAILABLE',
      message: expect.stringMatching(
        /^The service of the app loyalty answered HTTP 200, then (network error|timeout)/,
      ),
      outcomeUnknown: true,
    });
    const closed = await startAppServiceFixture({ credential: CREDENTIAL });
    const closedUrl = closed.url;
    await closed.close();
    const dead = createHttpAppServices(new Map([['loyalty', { ...endpoint, baseUrl: closedUrl }]]));
    const result = await dead.call({ tenantId: TENANT, appId: 'loyalty', actionId: 'quote', input: {} });
    expect(result).toEqual({
      ok: false,
      code: 'APP_SERVICE_UNAVAILABLE',
      message:
        'The service of the app loyalty did not answer (network error (ECONNREFUSED)); the call may have had its effect.',
      outcomeUnknown: true,
    });
    expect(JSON.stringify(result)).not.toContain(new URL(closedUrl).host);
  });

  it('does not follow a redirect', async () => {
    fixture.failNext({ kind: 'redirect', location: `${fixture.url}?again` });
    expect(await failure(call())).toMatchObject({
      code: 'APP_SERVICE_UNAVAILABLE',
      message: 'The service of the app loyalty answered HTTP 307; the call may have had its effect.',
    });
    expect(fixture.calls).toHaveLength(1);
  });

  it.each([
    ['streamed', {}],
    ['declared', { declareLength: true }],
  ])('answers a %s 2xx over 64 KiB as an invalid answer', async (_name, extra) => {
    fixture.failNext({ kind: 'oversized', performs: true, ...extra });
    expect(await failure(call())).toEqual({
      ok: false,
      code: 'APP_SERVICE_ANSWER_INVALID',
      message: `The service of the app loyalty answered HTTP 200 with an answer over ${RESPONSE_LIMIT_BYTES} bytes; the call may have had its effect.`,
      outcomeUnknown: true,
    });
  });

  it('answers a 2xx that is not JSON, not UTF-8 or not an object as an invalid answer', async () => {
    fixture.failNext({ kind: 'not-json' });
    expect(await failure(call())).toEqual({
      ok: false,
      code: 'APP_SERVICE_ANSWER_INVALID',
      message:
        'The service of the app loyalty answered HTTP 200 without a JSON object; the call may have had its effect.',
      outcomeUnknown: true,
    });
    fixture.failNext({ kind: 'not-utf8' });
    expect(await failure(call())).toMatchObject({
      code: 'APP_SERVICE_ANSWER_INVALID',
      message:
        'The service of the app loyalty answered HTTP 200 with an answer that is not UTF-8; the call may have had its effect.',
      outcomeUnknown: true,
    });
    for (const action of ['list', 'nothing']) {
      expect(await failure(call(action))).toMatchObject({
        code: 'APP_SERVICE_ANSWER_INVALID',
        outcomeUnknown: true,
      });
    }
  });

  it('rejects a caller’s bug before sending anything', async () => {
    await expect(call('quote', { idempotencyKey: 'two\nlines' })).rejects.toThrow(TypeError);
    for (const timeoutMs of [0, -5, 1.5, Number.NaN]) {
      await expect(call('quote', { timeoutMs })).rejects.toThrow(TypeError);
    }
    await expect(
      services.call({ tenantId: TENANT, appId: 'loyalty', actionId: 'quote', input: undefined }),
    ).rejects.toThrow(TypeError);
    expect(fixture.calls).toEqual([]);
  });
});
