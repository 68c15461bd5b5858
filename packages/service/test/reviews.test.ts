import { type Database, findCustomerHistory, listChannels, listEvents } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CreatedShop,
  consumeOnce,
  createServices,
  createShop,
  customerHistoryProjection,
  invokeOperation,
  invokeStoreOperation,
  type Principal,
  type Result,
  type Services,
  type Storefront,
} from '../src/index.ts';
import { operationNamed, principalOf, successOf } from './principals.ts';

let database: Database;
let services: Services;
let shop: CreatedShop;
let owner: Principal;
let storefront: Storefront;

interface Review {
  id: string;
  productId: string;
  customerId: string | null;
  authorName: string;
  rating: number;
  title: string;
  content: string;
  language: string;
  status: 'pending' | 'approved' | 'rejected';
  revision: number;
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await createShop(services, { name: 'Reviews', ownerEmail: 'owner@reviews.test' });
  owner = await principalOf(services, shop.token);
  const [main] = await listChannels(database.db, shop.tenantId);
  storefront = { tenantId: shop.tenantId, channelId: main!.id, contextToken: undefined };
});
afterAll(async () => database?.close());

function call(name: string, input: Record<string, unknown>): Promise<Result<unknown>> {
  return invokeOperation(services, operationNamed(name), owner, input);
}

function storeCall(name: string, contextToken: string | undefined, input: Record<string, unknown> = {}) {
  const operation = operationNamed(name);
  if (operation.audience !== 'store') throw new Error(`${name} is not a storefront operation`);
  return invokeStoreOperation(services, operation, { ...storefront, contextToken }, input);
}

function failureOf(result: Result<unknown>) {
  if (result.ok) throw new Error('expected a failure');
  return result;
}

async function createProduct(sku: string, fields: Record<string, unknown> = {}): Promise<string> {
  const created = successOf(
    await call('catalog.products.create', { sku, translations: { en: { name: sku } }, ...fields }),
  ) as { own: { id: string } };
  return created.own.id;
}

/** A registered customer, logged in on the storefront: their context token and id. */
async function loggedInCustomer(email: string, names = { firstName: 'Ada', lastName: 'lovelace' }) {
  const customer = successOf(
    await call('customers.create', { email, password: 'review-password', ...names }),
  ) as { id: string };
  const login = successOf(
    await storeCall('store.account.login', undefined, { email, password: 'review-password' }),
  ) as { contextToken: string };
  return { id: customer.id, contextToken: login.contextToken };
}

const body = { rating: 4, title: '  Sturdy  ', content: 'Survived a storm.' };

async function writeReview(contextToken: string, productId: string): Promise<Review> {
  return successOf(await storeCall('store.reviews.create', contextToken, { productId, ...body })) as Review;
}

async function staffReview(id: string): Promise<Review> {
  const page = successOf(await call('catalog.reviews.list', { limit: 100 })) as { items: Review[] };
  const found = page.items.find((review) => review.id === id);
  if (!found) throw new Error(`review ${id} is not listed`);
  return found;
}

async function payloadsOf(name: string, reviewId: string) {
  return (await listEvents(database.db, shop.tenantId, { name, limit: 1000 }))
    .map((event) => event.payload as { reviewId?: string })
    .filter((payload) => payload.reviewId === reviewId);
}

async function drainHistory(): Promise<void> {
  const options = { owner: 'reviews-test', leaseMs: 30_000, batchSize: 100, maxBatches: 100 };
  while ((await consumeOnce(services, customerHistoryProjection, options)).tenantId) {}
}

describe('writing a review on the storefront', () => {
  it('stores a pending review by "first name, initial", in the context’s language, and records review.created', async () => {
    const productId = await createProduct('TENT');
    const ada = await loggedInCustomer('ada@reviews.test');
    const review = await writeReview(ada.contextToken, productId);
    expect(review).toMatchObject({
      productId,
      authorName: 'Ada l.',
      rating: 4,
      title: 'Sturdy',
      content: 'Survived a storm.',
      language: 'en',
      status: 'pending',
    });
    expect(review).not.toHaveProperty('customerId');
    expect(await payloadsOf('review.created', review.id)).toEqual([
      { reviewId: review.id, productId, customerId: ada.id, rating: 4 },
    ]);
    expect(await staffReview(review.id)).toMatchObject({
      customerId: ada.id,
      status: 'pending',
      revision: 1,
    });
  });

  it('takes an explicit language the channel has', async () => {
    // The main channel has the shop's languages: German once the shop enables it (decision 0029).
    successOf(await call('basis.languages.save', { code: 'de', revision: 0, name: 'Deutsch' }));
    const productId = await createProduct('STOVE');
    const ada = await loggedInCustomer('ada-de@reviews.test');
    const review = successOf(
      await storeCall('store.reviews.create', ada.contextToken, { productId, ...body, language: 'de' }),
    ) as Review;
    expect(review.language).toBe('de');
  });

  it('needs a logged-in registered customer', async () => {
    const productId = await createProduct('LAMP');
    const anonymous = successOf(await storeCall('store.context.create', undefined)) as {
      contextToken: string;
    };
    const guest = successOf(
      await storeCall('store.account.register', undefined, {
        email: 'guest@reviews.test',
        guest: true,
        firstName: 'Gus',
        lastName: 'Guest',
      }),
    ) as { contextToken: string };
    for (const contextToken of [undefined, 'not-a-token', anonymous.contextToken, guest.contextToken]) {
      const refused = failureOf(
        await storeCall('store.reviews.create', contextToken, { productId, ...body }),
      );
      expect(refused.code).toBe('UNAUTHENTICATED');
    }
    expect(
      (successOf(await call('catalog.reviews.list', { productId })) as { items: unknown[] }).items,
    ).toEqual([]);
  });

  it('answers NOT_FOUND for a product that does not exist or is not on sale', async () => {
    const inactive = await createProduct('HIDDEN', { active: false });
    const ada = await loggedInCustomer('ada-404@reviews.test');
    for (const productId of [inactive, '0190f0c8-0000-7000-8000-00000000dead']) {
      const refused = failureOf(
        await storeCall('store.reviews.create', ada.contextToken, { productId, ...body }),
      );
      expect(refused.code).toBe('NOT_FOUND');
    }
  });

  it('validates the rating, title and content', async () => {
    const productId = await createProduct('MAT');
    const ada = await loggedInCustomer('ada-422@reviews.test');
    const refused = failureOf(
      await storeCall('store.reviews.create', ada.contextToken, {
        productId,
        rating: 6,
        title: ' ',
        content: 'x'.repeat(5001),
      }),
    );
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.errors?.map((error) => error.pointer).sort()).toEqual(['/content', '/rating', '/title']);
    const fractional = failureOf(
      await storeCall('store.reviews.create', ada.contextToken, { productId, ...body, rating: 4.5 }),
    );
    expect(fractional.errors?.map((error) => error.pointer)).toEqual(['/rating']);
  });

  it('allows one review per customer and product, whatever became of the first', async () => {
    const productId = await createProduct('PAN');
    const other = await createProduct('POT');
    const ada = await loggedInCustomer('ada-once@reviews.test');
    const first = await writeReview(ada.contextToken, productId);
    const twice = failureOf(
      await storeCall('store.reviews.create', ada.contextToken, { productId, ...body }),
    );
    expect(twice).toMatchObject({ code: 'CONFLICT', extensions: { reviewId: first.id } });
    successOf(await call('catalog.reviews.moderate', { id: first.id, revision: 1, status: 'rejected' }));
    const afterRejection = failureOf(
      await storeCall('store.reviews.create', ada.contextToken, { productId, ...body }),
    );
    expect(afterRejection.code).toBe('CONFLICT');
    expect((await writeReview(ada.contextToken, other)).productId).toBe(other);
    const grace = await loggedInCustomer('grace@reviews.test', { firstName: 'Grace', lastName: 'Hopper' });
    expect((await writeReview(grace.contextToken, productId)).authorName).toBe('Grace H.');
  });

  it('answers one CONFLICT when the same customer sends two reviews of a product at once', async () => {
    const productId = await createProduct('TARP');
    const ada = await loggedInCustomer('ada-race@reviews.test');
    const results = await Promise.all([
      storeCall('store.reviews.create', ada.contextToken, { productId, ...body }),
      storeCall('store.reviews.create', ada.contextToken, { productId, ...body }),
    ]);
    expect(results.map((result) => (result.ok ? 'created' : result.code)).sort()).toEqual([
      'CONFLICT',
      'created',
    ]);
  });
});

describe('moderating a review', () => {
  it('approves once: review.approved is recorded once and the history counts it once', async () => {
    const productId = await createProduct('KETTLE');
    const ada = await loggedInCustomer('ada-approve@reviews.test');
    const review = await writeReview(ada.contextToken, productId);

    const approved = successOf(
      await call('catalog.reviews.moderate', { id: review.id, revision: 1, status: 'approved' }),
    ) as Review;
    expect(approved).toMatchObject({ status: 'approved', revision: 2, customerId: ada.id });
    const again = successOf(
      await call('catalog.reviews.moderate', { id: review.id, revision: 2, status: 'approved' }),
    ) as Review;
    expect(again).toMatchObject({ status: 'approved', revision: 2 });
    const stale = failureOf(
      await call('catalog.reviews.moderate', { id: review.id, revision: 1, status: 'approved' }),
    );
    expect(stale).toMatchObject({ code: 'STALE_REVISION', extensions: { expected: 1, actual: 2 } });

    expect(await payloadsOf('review.approved', review.id)).toEqual([
      { reviewId: review.id, productId, customerId: ada.id },
    ]);
    await drainHistory();
    expect((await findCustomerHistory(database.db, shop.tenantId, ada.id))?.reviewCount).toBe(1);
  });

  it('withdraws an approved review with review.rejected, and a rejected review stays rejected', async () => {
    const productId = await createProduct('MUG');
    const ada = await loggedInCustomer('ada-reject@reviews.test');
    const review = await writeReview(ada.contextToken, productId);
    successOf(await call('catalog.reviews.moderate', { id: review.id, revision: 1, status: 'approved' }));
    const withdrawn = successOf(
      await call('catalog.reviews.moderate', { id: review.id, revision: 2, status: 'rejected' }),
    ) as Review;
    expect(withdrawn).toMatchObject({ status: 'rejected', revision: 3 });
    expect(await payloadsOf('review.rejected', review.id)).toEqual([
      { reviewId: review.id, productId, customerId: ada.id, previousStatus: 'approved' },
    ]);

    const reinstated = failureOf(
      await call('catalog.reviews.moderate', { id: review.id, revision: 3, status: 'approved' }),
    );
    expect(reinstated).toMatchObject({ code: 'CONFLICT', extensions: { status: 'rejected' } });
    expect((await staffReview(review.id)).revision).toBe(3);
    expect(await payloadsOf('review.approved', review.id)).toHaveLength(1);
    await drainHistory();
    expect((await findCustomerHistory(database.db, shop.tenantId, ada.id))?.reviewCount).toBe(1);
  });

  it('rejects a pending review without ever recording review.approved', async () => {
    const productId = await createProduct('SPOON');
    const ada = await loggedInCustomer('ada-decline@reviews.test');
    const review = await writeReview(ada.contextToken, productId);
    successOf(await call('catalog.reviews.moderate', { id: review.id, revision: 1, status: 'rejected' }));
    expect(await payloadsOf('review.rejected', review.id)).toEqual([
      { reviewId: review.id, productId, customerId: ada.id, previousStatus: 'pending' },
    ]);
    expect(await payloadsOf('review.approved', review.id)).toEqual([]);
    await drainHistory();
    expect(await findCustomerHistory(database.db, shop.tenantId, ada.id)).toBeUndefined();
  });

  it('answers NOT_FOUND for an unknown review', async () => {
    const missing = failureOf(
      await call('catalog.reviews.moderate', {
        id: '0190f0c8-0000-7000-8000-00000000dead',
        revision: 1,
        status: 'approved',
      }),
    );
    expect(missing.code).toBe('NOT_FOUND');
  });
});

describe('listing reviews', () => {
  it('shows the storefront only approved reviews, page by page, and staff every status by filter', async () => {
    const productId = await createProduct('BOOTS');
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      const customer = await loggedInCustomer(`${name}-list@reviews.test`);
      ids.push((await writeReview(customer.contextToken, productId)).id);
    }
    for (const id of [ids[0]!, ids[1]!, ids[3]!]) {
      successOf(await call('catalog.reviews.moderate', { id, revision: 1, status: 'approved' }));
    }
    successOf(await call('catalog.reviews.moderate', { id: ids[3]!, revision: 2, status: 'rejected' }));

    const first = successOf(await storeCall('store.reviews.list', undefined, { productId, limit: 1 })) as {
      items: Record<string, unknown>[];
      next: string | null;
    };
    expect(first.items.map((item) => item.id)).toEqual([ids[0]]);
    expect(Object.keys(first.items[0]!).sort()).toEqual(
      ['authorName', 'content', 'createdAt', 'id', 'language', 'rating', 'title'].sort(),
    );
    const second = successOf(
      await storeCall('store.reviews.list', undefined, { productId, limit: 1, after: first.next }),
    );
    expect(second).toEqual({ items: [expect.objectContaining({ id: ids[1] })], next: null });

    const byStatus = async (status: string) =>
      (successOf(await call('catalog.reviews.list', { productId, status })) as { items: Review[] }).items.map(
        (review) => review.id,
      );
    expect(await byStatus('approved')).toEqual([ids[0], ids[1]]);
    expect(await byStatus('pending')).toEqual([ids[2]]);
    expect(await byStatus('rejected')).toEqual([ids[3]]);
  });

  it('answers NOT_FOUND on the storefront for a product that is not on sale', async () => {
    const productId = await createProduct('GONE', { active: false });
    const refused = failureOf(await storeCall('store.reviews.list', undefined, { productId }));
    expect(refused.code).toBe('NOT_FOUND');
  });
});

describe('deleting a product', () => {
  it('is refused while it has downloadable files or reviews, which are listed among the references', async () => {
    const ebook = await createProduct('EBOOK');
    const asset = successOf(
      await call('catalog.assets.create', {
        productId: ebook,
        fileName: 'book.txt',
        contentType: 'text/plain',
        contentBase64: 'Ym9vaw==',
      }),
    ) as { id: string };
    const withFile = failureOf(await call('catalog.products.delete', { id: ebook, revision: 1 }));
    expect(withFile).toMatchObject({
      code: 'REFERENCED',
      extensions: { references: [{ kind: 'asset', id: asset.id }] },
    });

    const chair = await createProduct('CHAIR');
    const ada = await loggedInCustomer('ada-delete@reviews.test');
    const review = await writeReview(ada.contextToken, chair);
    successOf(await call('catalog.reviews.moderate', { id: review.id, revision: 1, status: 'rejected' }));
    const withReview = failureOf(await call('catalog.products.delete', { id: chair, revision: 1 }));
    expect(withReview).toMatchObject({
      code: 'REFERENCED',
      extensions: { references: [{ kind: 'review', id: review.id }] },
    });
    expect(withReview.detail).toContain('review');

    const plain = await createProduct('PLAIN');
    expect(successOf(await call('catalog.products.delete', { id: plain, revision: 1 }))).toEqual({
      id: plain,
      deleted: true,
    });
  });
});
