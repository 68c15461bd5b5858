import { createServices, defineOperation } from '@cartwright/service';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

function expectProblem(response: Awaited<ReturnType<Harness['call']>>, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.type).toContain('application/problem+json');
  expect(response.body).toMatchObject({ status, code });
  expect(typeof response.body.title).toBe('string');
  expect(typeof response.body.detail).toBe('string');
}

describe('problem responses', () => {
  it('401 without a token, with a malformed one and with an unknown one', async () => {
    expectProblem(await h.call('GET', '/api/shop'), 401, 'UNAUTHENTICATED');
    expectProblem(await h.call('GET', '/api/shop', { token: 'nonsense' }), 401, 'UNAUTHENTICATED');
    const forged = `${h.shopA.token.slice(0, -4)}AAAA`;
    expectProblem(await h.call('GET', '/api/shop', { token: forged }), 401, 'UNAUTHENTICATED');
  });

  it('422 with a JSON pointer per invalid field, and nothing created', async () => {
    const before = await h.call('GET', '/api/tokens?limit=100', { token: h.shopA.token });
    const response = await h.call('POST', '/api/tokens', {
      token: h.shopA.token,
      body: { name: '', kind: 'robot' },
    });
    expectProblem(response, 422, 'VALIDATION_FAILED');
    const pointers = (response.body.errors as { pointer: string }[]).map((error) => error.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/name', '/kind']));
    const after = await h.call('GET', '/api/tokens?limit=100', { token: h.shopA.token });
    expect(after.body.items).toEqual(before.body.items);
  });

  it('422 for a query value of the wrong type', async () => {
    expectProblem(
      await h.call('GET', '/api/tokens?limit=abc', { token: h.shopA.token }),
      422,
      'VALIDATION_FAILED',
    );
    expectProblem(
      await h.call('GET', '/api/tokens?limit=1000', { token: h.shopA.token }),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('400 for malformed JSON, 415 for another media type, 422 for a non-object body', async () => {
    expectProblem(
      await h.call('POST', '/api/tokens', { token: h.shopA.token, body: '{"name":' }),
      400,
      'INVALID_JSON',
    );
    expectProblem(
      await h.call('POST', '/api/tokens', {
        token: h.shopA.token,
        body: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectProblem(
      await h.call('POST', '/api/tokens', { token: h.shopA.token, body: '[1,2]' }),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('413 above the body limit', async () => {
    const big = { name: 'x'.repeat(2 * 1024 * 1024), kind: 'api', role: 'reader' };
    expectProblem(
      await h.call('POST', '/api/tokens', { token: h.shopA.token, body: big }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('404 for an unknown route and for a resource of no such id', async () => {
    expectProblem(await h.call('GET', '/api/nothing-here', { token: h.shopA.token }), 404, 'ROUTE_NOT_FOUND');
    expectProblem(
      await h.call('DELETE', '/api/tokens/0190f0c8-0000-7000-8000-000000000000', { token: h.shopA.token }),
      404,
      'NOT_FOUND',
    );
  });

  it('409 LAST_OWNER when the only owner would be removed', async () => {
    expectProblem(
      await h.call('DELETE', `/api/members/${h.shopA.userId}`, { token: h.shopA.token }),
      409,
      'LAST_OWNER',
    );
    expect((await h.call('GET', '/api/shop', { token: h.shopA.token })).status).toBe(200);
  });

  it('500 says "internal error" with a request id and never the exception text', async () => {
    const exploding = defineOperation({
      name: 'test.explode',
      summary: 'throws',
      http: { method: 'GET', path: '/api/explode' },
      permission: null,
      readOnly: true,
      input: v.object({}),
      output: v.object({}),
      handler: async () => {
        throw new Error('secret database detail');
      },
    });
    const app = createApp(createServices(h.database), { operations: [exploding] });
    const response = await app.request('/api/explode', {
      headers: { authorization: `Bearer ${h.shopA.token}` },
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(500);
    expect(body.code).toBe('INTERNAL');
    expect(JSON.stringify(body)).not.toContain('secret database detail');
    expect(body.requestId).toBe(response.headers.get('x-request-id'));
  });
});
