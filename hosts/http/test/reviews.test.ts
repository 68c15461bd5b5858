import { listChannels } from '@cartwright/repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// Product reviews over HTTP: a customer writes on the storefront (x-channel-key, x-context-token),
// the merchant moderates under /api, and the public list shows approved reviews only, without
// anything that identifies the customer beyond "first name, initial".

let h: Harness;
let keyA: string;
let keyB: string;
let productId: string;

const adaEmail = 'ada.reviews@example.test';

const staff = (method: string, path: string, body?: unknown, token = h.shopA.token) =>
  h.call(method, path, { token, body });
function store(method: string, path: string, contextToken?: string, body?: unknown, key = keyA) {
  return h.call(method, path, {
    body,
    headers: { 'x-channel-key': key, ...(contextToken ? { 'x-context-token': contextToken } : {}) },
  });
}
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

/** Registers a customer on a storefront and answers their logged-in context token. */
async function register(email: string, firstName: string, lastName: string, key = keyA): Promise<string> {
  const registered = expectOk(
    await store(
      'POST',
      '/store-api/account/register',
      undefined,
      { email, password: 'review-password', firstName, lastName },
      key,
    ),
    201,
  );
  return registered.contextToken as string;
}

const review = { rating: 5, title: 'Great tent', content: 'Dry after a night of rain.' };

beforeAll(async () => {
  h = await createHarness();
  keyA = (await listChannels(h.database.db, h.shopA.tenantId))[0]!.accessKey;
  keyB = (await listChannels(h.database.db, h.shopB.tenantId))[0]!.accessKey;
  const created = expectOk(
    await staff('POST', '/api/catalog/products', { sku: 'TENT', translations: { en: { name: 'Tent' } } }),
    201,
  );
  productId = (created.own as { id: string }).id;
});
afterAll(async () => h?.close());

describe('reviews over HTTP', () => {
  let adaToken: string;
  let adaReviewId: string;

  it('needs a logged-in customer to write a review (401 otherwise), then answers 201 pending', async () => {
    const path = `/store-api/products/${productId}/reviews`;
    const anonymous = expectOk(await store('POST', '/store-api/context'), 201).contextToken as string;
    for (const contextToken of [undefined, anonymous]) {
      const refused = await store('POST', path, contextToken, review);
      expect(refused.status).toBe(401);
      expect(refused.type).toContain('application/problem+json');
      expect(refused.body.code).toBe('UNAUTHENTICATED');
    }
    adaToken = await register(adaEmail, 'Ada', 'Lovelace');
    const created = expectOk(await store('POST', path, adaToken, review), 201);
    expect(created).toMatchObject({ productId, authorName: 'Ada L.', status: 'pending', rating: 5 });
    adaReviewId = created.id as string;
    const twice = await store('POST', path, adaToken, review);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('CONFLICT');
  });

  it('lists only approved reviews publicly, without customer ids or emails', async () => {
    const graceToken = await register('grace.reviews@example.test', 'Grace', 'Hopper');
    const path = `/store-api/products/${productId}/reviews`;
    const grace = expectOk(await store('POST', path, graceToken, { ...review, rating: 3 }), 201);
    expect(expectOk(await store('GET', path))).toEqual({ items: [], next: null });

    const approved = expectOk(
      await staff('PUT', `/api/catalog/reviews/${adaReviewId}`, { revision: 1, status: 'approved' }),
    );
    expect(approved).toMatchObject({ status: 'approved', revision: 2 });

    const page = await store('GET', `${path}?limit=10`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      items: [
        {
          id: adaReviewId,
          authorName: 'Ada L.',
          rating: 5,
          title: 'Great tent',
          content: 'Dry after a night of rain.',
          language: 'en',
          createdAt: expect.any(String),
        },
      ],
      next: null,
    });
    const adaId = approved.customerId as string;
    const text = JSON.stringify(page.body);
    expect(text).not.toContain(adaId);
    expect(text).not.toContain(adaEmail);
    expect(text).not.toContain(grace.id as string);

    const pending = expectOk(
      await staff('GET', `/api/catalog/reviews?status=pending&productId=${productId}`),
    );
    expect(pending).toEqual({
      items: [expect.objectContaining({ id: grace.id, customerId: expect.any(String), status: 'pending' })],
      next: null,
    });
  });

  it('binds moderation to the revision and keeps other shops out', async () => {
    const path = `/api/catalog/reviews/${adaReviewId}`;
    const stale = await staff('PUT', path, { revision: 1, status: 'rejected' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_REVISION', expected: 1, actual: 2 });

    const foreign = await staff('PUT', path, { revision: 2, status: 'rejected' }, h.shopB.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    const foreignList = expectOk(await staff('GET', '/api/catalog/reviews', undefined, h.shopB.token));
    expect(foreignList).toEqual({ items: [], next: null });

    const withdrawn = expectOk(await staff('PUT', path, { revision: 2, status: 'rejected' }));
    expect(withdrawn).toMatchObject({ status: 'rejected', revision: 3 });
    const page = expectOk(await store('GET', `/store-api/products/${productId}/reviews`));
    expect(page.items).toEqual([]);
  });

  it('answers 404 to a customer of another shop naming this shop’s product', async () => {
    const bToken = await register('b.reviews@example.test', 'Bob', 'Builder', keyB);
    const path = `/store-api/products/${productId}/reviews`;
    const written = await store('POST', path, bToken, review, keyB);
    expect(written.status).toBe(404);
    expect((await store('GET', path, undefined, undefined, keyB)).status).toBe(404);
    // Shop A's context is not valid with shop B's key.
    expect((await store('POST', path, adaToken, review, keyB)).status).toBe(401);
  });

  it('refuses to delete a reviewed product with 409 REFERENCED', async () => {
    const refused = await staff('DELETE', `/api/catalog/products/${productId}`, { revision: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'REFERENCED',
      references: expect.arrayContaining([{ kind: 'review', id: adaReviewId }]),
    });
  });
});
