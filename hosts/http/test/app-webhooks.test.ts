import { readFileSync } from 'node:fs';
import type { AppWebhookSettings } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createHarness, type Harness } from './harness.ts';
import { type Signed, signedRequest as signedBy } from './signed-webhook.ts';

// Issue 16, item 2 (spec: Authentication 10, Events 5, Limits, Errors): signed incoming webhooks at
// POST /webhooks/apps/{tenant}/{app}/{webhook}, with the example app examples/apps/inbound-demo
// installed as a user installs it. Every refusal is checked to store nothing (a digest of every
// table before and after).

const manifest = JSON.parse(
  readFileSync(new URL('../../../examples/apps/inbound-demo/manifest.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

const SECRET_A = 'shop-a-inbound-demo-secret-0001-aaaaaaaaaaaa';
const SECRET_B = 'shop-b-inbound-demo-secret-0002-bbbbbbbbbbbb';
const SECRET_SANDBOX = 'sandbox-inbound-demo-secret-03-ssssssssssss';

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** A signed request to the inbound-demo app's ping webhook unless the test names another. */
function signedRequest(signed: Omit<Signed, 'app' | 'webhook'> & { app?: string; webhook?: string }) {
  return signedBy({ ...signed, app: signed.app ?? 'inbound-demo', webhook: signed.webhook ?? 'ping' });
}

type Sent = ReturnType<typeof signedRequest>;

let h: Harness;
let keys: Map<string, Map<string, Uint8Array>>;
let settings: { keys: typeof keys; allowHttp: boolean };
let sandboxTenant: string;

async function post(request: Sent, app: ReturnType<typeof createApp> = h.app, env?: unknown) {
  const response = await app.request(
    request.path,
    { method: 'POST', headers: request.headers, body: request.body },
    env,
  );
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text,
    body: JSON.parse(text) as Record<string, unknown> & { code?: string },
  };
}

async function pingEvents(token: string) {
  const listed = await h.call('GET', '/api/events?name=app.inbound-demo.ping&limit=100', { token });
  expect(listed.status).toBe(200);
  return listed.body.items as { id: string; payload: Record<string, unknown>; actor: unknown }[];
}

/** Sends the request and asserts the refusal's status and code, and that no table changed. */
async function expectRefused(request: Sent, status: number, code: string, app = h.app, env?: unknown) {
  const before = await h.digest();
  const answer = await post(request, app, env);
  expect(answer.type, answer.text).toBe('application/problem+json');
  expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
  expect(await h.digest()).toBe(before);
  return answer;
}

beforeAll(async () => {
  keys = new Map();
  settings = { keys, allowHttp: true };
  h = await createHarness({ ports: { appWebhooks: settings as AppWebhookSettings } });
  keys.set(h.shopA.tenantId, new Map([['inbound-demo', bytesOf(SECRET_A)]]));
  keys.set(h.shopB.tenantId, new Map([['inbound-demo', bytesOf(SECRET_B)]]));
  const installed = await h.call('PUT', '/api/apps/inbound-demo', {
    token: h.shopA.token,
    body: { manifest, revision: 0 },
  });
  expect(installed.status, JSON.stringify(installed.body)).toBeLessThan(300);
  const sandbox = await h.call('POST', '/api/shop/sandboxes', { token: h.shopA.token, body: {} });
  expect(sandbox.status).toBe(201);
  sandboxTenant = (sandbox.body.shop as { id: string }).id;
  const inSandbox = await h.call('PUT', '/api/apps/inbound-demo', {
    token: sandbox.body.token as string,
    body: { manifest, revision: 0 },
  });
  expect(inSandbox.status).toBeLessThan(300);
  keys.set(sandboxTenant, new Map([['inbound-demo', bytesOf(SECRET_SANDBOX)]]));
});

afterAll(() => h.close());

describe('the example app', () => {
  it('installs unchanged and declares the ping webhook of the emitting ping action', async () => {
    const listed = await h.call('GET', '/api/apps', { token: h.shopA.token });
    const app = (
      listed.body.items as { appId?: string; id?: string; manifest: Record<string, unknown> }[]
    ).find((item) => (item.appId ?? item.id) === 'inbound-demo');
    expect(app?.manifest).toMatchObject({
      id: 'inbound-demo',
      webhooks: [{ id: 'ping', action: 'ping' }],
      actions: [{ id: 'ping', emits: true }],
    });
  });
});

describe('POST /webhooks/apps/{tenant}/{app}/{webhook}', () => {
  it('accepts a signed ping: 202 with a receipt, and the event app.inbound-demo.ping in the outbox', async () => {
    const request = signedRequest({
      tenant: h.shopA.tenantId,
      body: JSON.stringify({ message: 'hello' }),
      secret: SECRET_A,
      eventId: 'evt_valid-1',
    });
    const answer = await post(request);
    expect(answer.status).toBe(202);
    expect(answer.type).toMatch(/^application\/json/);
    const receipt = answer.body.receipt as { eventId: string; outboxEventId: string; receivedAt: string };
    expect(receipt).toEqual({
      eventId: 'evt_valid-1',
      outboxEventId: expect.any(String),
      receivedAt: expect.any(String),
    });
    const events = await pingEvents(h.shopA.token);
    const event = events.find((item) => item.id === receipt.outboxEventId);
    expect(event?.payload).toMatchObject({
      appId: 'inbound-demo',
      actionId: 'ping',
      webhook: { id: 'ping', eventId: 'evt_valid-1' },
      input: { message: 'hello' },
    });
  });

  it('answers an identical repeat with the stored receipt and records nothing', async () => {
    const request = signedRequest({
      tenant: h.shopA.tenantId,
      body: JSON.stringify({ message: 'once' }),
      secret: SECRET_A,
      eventId: 'evt-repeat',
    });
    const first = await post(request);
    expect(first.status).toBe(202);
    const eventsAfterFirst = (await pingEvents(h.shopA.token)).length;
    const before = await h.digest();
    const again = await post(request);
    expect({ status: again.status, text: again.text }).toEqual({ status: first.status, text: first.text });
    expect(await h.digest()).toBe(before);
    expect(await pingEvents(h.shopA.token)).toHaveLength(eventsAfterFirst);
  });

  it('accepts concurrent identical requests once', async () => {
    const request = signedRequest({
      tenant: h.shopA.tenantId,
      body: JSON.stringify({ message: 'twice at once' }),
      secret: SECRET_A,
      eventId: 'evt-concurrent',
    });
    const before = (await pingEvents(h.shopA.token)).length;
    const answers = await Promise.all([post(request), post(request), post(request)]);
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.text}`)).size).toBe(1);
    expect(answers[0]!.status).toBe(202);
    expect(await pingEvents(h.shopA.token)).toHaveLength(before + 1);
  });

  it('refuses a wrong signature', async () => {
    const request = signedRequest({ tenant: h.shopA.tenantId, body: '{"message":"x"}', secret: SECRET_A });
    const flipped = request.headers['x-app-signature']!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    await expectRefused(
      { ...request, headers: { ...request.headers, 'x-app-signature': flipped } },
      401,
      'APP_WEBHOOK_SIGNATURE_INVALID',
    );
    // The body the signature was not made for.
    await expectRefused({ ...request, body: '{"message":"y"}' }, 401, 'APP_WEBHOOK_SIGNATURE_INVALID');
  });

  it('refuses a timestamp more than 5 minutes from the service clock, either way', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Well past the edge: the digests around each request take a while (the edge itself is a unit test).
    for (const timestamp of [now - 360, now + 360]) {
      await expectRefused(
        signedRequest({ tenant: h.shopA.tenantId, body: '{"message":"late"}', secret: SECRET_A, timestamp }),
        401,
        'APP_WEBHOOK_TIMESTAMP_SKEW',
      );
    }
    // Within the window.
    const answer = await post(
      signedRequest({
        tenant: h.shopA.tenantId,
        body: '{"message":"ok"}',
        secret: SECRET_A,
        timestamp: now - 240,
      }),
    );
    expect(answer.status).toBe(202);
  });

  it("refuses another shop's key", async () => {
    await expectRefused(
      signedRequest({ tenant: h.shopA.tenantId, body: '{"message":"forged"}', secret: SECRET_B }),
      401,
      'APP_WEBHOOK_SIGNATURE_INVALID',
    );
  });

  it('refuses delivery to a private sandbox shop', async () => {
    await expectRefused(
      signedRequest({ tenant: sandboxTenant, body: '{"message":"sandbox"}', secret: SECRET_SANDBOX }),
      403,
      'APP_WEBHOOK_SANDBOX_SHOP',
    );
  });

  it('refuses a body over 16 KiB, declared or streamed', async () => {
    const body = JSON.stringify({ message: 'x'.repeat(16 * 1024) });
    const request = signedRequest({ tenant: h.shopA.tenantId, body, secret: SECRET_A });
    await expectRefused(request, 413, 'APP_WEBHOOK_BODY_TOO_LARGE');
    // No content-length: counted on the stream.
    const before = await h.digest();
    const encoded = bytesOf(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < encoded.length; at += 1024) controller.enqueue(encoded.slice(at, at + 1024));
        controller.close();
      },
    });
    const response = await h.app.request(request.path, {
      method: 'POST',
      headers: request.headers,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('APP_WEBHOOK_BODY_TOO_LARGE');
    expect(await h.digest()).toBe(before);
  });

  it('refuses a body that does not fit the action input, with pointers', async () => {
    const tooLong = await expectRefused(
      signedRequest({
        tenant: h.shopA.tenantId,
        body: JSON.stringify({ message: 'm'.repeat(201) }),
        secret: SECRET_A,
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(tooLong.body.errors).toEqual([{ pointer: '/message', message: expect.any(String) }]);
    const wrong = await expectRefused(
      signedRequest({ tenant: h.shopA.tenantId, body: JSON.stringify({ text: 'hi' }), secret: SECRET_A }),
      422,
      'VALIDATION_FAILED',
    );
    expect((wrong.body.errors as { pointer: string }[]).map((error) => error.pointer).sort()).toEqual([
      '/message',
      '/text',
    ]);
    await expectRefused(
      signedRequest({ tenant: h.shopA.tenantId, body: '{"message":', secret: SECRET_A }),
      400,
      'INVALID_JSON',
    );
  });

  it('refuses an event id reused with other bytes', async () => {
    const first = await post(
      signedRequest({
        tenant: h.shopA.tenantId,
        body: '{"message":"first"}',
        secret: SECRET_A,
        eventId: 'evt-reused',
      }),
    );
    expect(first.status).toBe(202);
    await expectRefused(
      signedRequest({
        tenant: h.shopA.tenantId,
        body: '{"message":"second"}',
        secret: SECRET_A,
        eventId: 'evt-reused',
      }),
      409,
      'APP_WEBHOOK_EVENT_REUSED',
    );
    // The same body with other white space is other bytes.
    await expectRefused(
      signedRequest({
        tenant: h.shopA.tenantId,
        body: '{ "message": "first" }',
        secret: SECRET_A,
        eventId: 'evt-reused',
      }),
      409,
      'APP_WEBHOOK_EVENT_REUSED',
    );
  });

  it('refuses missing or malformed signature headers', async () => {
    const request = signedRequest({ tenant: h.shopA.tenantId, body: '{"message":"h"}', secret: SECRET_A });
    const without = (name: string) => {
      const headers = { ...request.headers };
      delete headers[name];
      return { ...request, headers };
    };
    const withHeader = (name: string, value: string) => ({
      ...request,
      headers: { ...request.headers, [name]: value },
    });
    for (const bad of [
      without('x-app-timestamp'),
      without('x-app-event-id'),
      without('x-app-signature'),
      withHeader('x-app-timestamp', '17e8'),
      withHeader('x-app-event-id', 'e'.repeat(129)),
      withHeader('x-app-event-id', 'evt with space'),
      withHeader('x-app-signature', 'sha256=abc'),
    ]) {
      await expectRefused(bad, 400, 'APP_WEBHOOK_HEADERS_INVALID');
    }
    // 128 characters is the longest event id.
    const longest = await post(
      signedRequest({
        tenant: h.shopA.tenantId,
        body: '{"message":"h"}',
        secret: SECRET_A,
        eventId: 'e'.repeat(128),
      }),
    );
    expect(longest.status).toBe(202);
  });

  it('answers the same for an app not installed, an unknown webhook and an unknown shop', async () => {
    const answers = [
      // Shop B has a key but has not installed the app.
      await expectRefused(
        signedRequest({ tenant: h.shopB.tenantId, body: '{"message":"b"}', secret: SECRET_B }),
        404,
        'APP_WEBHOOK_UNKNOWN',
      ),
      await expectRefused(
        signedRequest({
          tenant: h.shopA.tenantId,
          webhook: 'pong',
          body: '{"message":"a"}',
          secret: SECRET_A,
        }),
        404,
        'APP_WEBHOOK_UNKNOWN',
      ),
      await expectRefused(
        signedRequest({ tenant: h.shopA.tenantId, app: 'Not-An-App', body: '{}', secret: SECRET_A }),
        404,
        'APP_WEBHOOK_UNKNOWN',
      ),
    ];
    const { requestId: _, ...first } = answers[0]!.body;
    for (const answer of answers) {
      const { requestId: __, ...rest } = answer.body;
      expect(rest).toEqual(first);
    }
    // Without a key for the shop and app, a signature can only be wrong: nothing says whether the app exists.
    await expectRefused(
      signedRequest({ tenant: h.shopA.tenantId, app: 'loyalty', body: '{}', secret: SECRET_A }),
      401,
      'APP_WEBHOOK_SIGNATURE_INVALID',
    );
  });

  describe('HTTPS outside a local trusted environment', () => {
    const socket = (remoteAddress: string, encrypted = false) => ({
      incoming: { socket: { remoteAddress, encrypted } },
    });
    let strict: ReturnType<typeof createApp>;
    beforeAll(() => {
      strict = createApp({ ...h.services, appWebhooks: { keys, allowHttp: false } });
    });
    const ping = (extra: Record<string, string> = {}) => {
      const request = signedRequest({
        tenant: h.shopA.tenantId,
        body: '{"message":"tls"}',
        secret: SECRET_A,
      });
      return { ...request, headers: { ...request.headers, ...extra } };
    };

    it('refuses plain HTTP from a remote peer, even claiming https in x-forwarded-proto', async () => {
      await expectRefused(ping(), 403, 'APP_WEBHOOK_HTTPS_REQUIRED', strict, socket('203.0.113.7'));
      await expectRefused(
        ping({ 'x-forwarded-proto': 'https' }),
        403,
        'APP_WEBHOOK_HTTPS_REQUIRED',
        strict,
        socket('203.0.113.7'),
      );
      // A host that cannot say where the request came from (no socket) is not trusted either.
      await expectRefused(ping(), 403, 'APP_WEBHOOK_HTTPS_REQUIRED', strict);
    });

    it('refuses what a local proxy forwarded from plain HTTP', async () => {
      await expectRefused(
        ping({ 'x-forwarded-proto': 'http' }),
        403,
        'APP_WEBHOOK_HTTPS_REQUIRED',
        strict,
        socket('127.0.0.1'),
      );
    });

    it('accepts a TLS socket, a loopback sender and a local proxy that received HTTPS', async () => {
      for (const [request, env] of [
        [ping(), socket('203.0.113.7', true)],
        [ping(), socket('127.0.0.1')],
        [ping(), socket('::1')],
        [ping({ 'x-forwarded-proto': 'https' }), socket('::ffff:127.0.0.1')],
      ] as const) {
        expect((await post(request, strict, env)).status).toBe(202);
      }
    });
  });
});
