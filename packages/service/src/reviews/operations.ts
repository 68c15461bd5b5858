import {
  findCustomer,
  findReview,
  findReviewOfCustomer,
  findTenant,
  insertReview,
  listReviews,
  lockTransaction,
  type ReviewRow,
  updateReviewStatus,
} from '@cartwright/repository';
import * as v from 'valibot';
import { findProductInChannel } from '../catalog/channel-assortment.ts';
import { resolveStoreContext } from '../customers/contexts.ts';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { defineOperation, defineStoreOperation } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { iso, LanguageCode, Limit, Revision, Timestamp, Uuid } from '../kernel/schemas.ts';
import { languageParameter, refuseDisabledLanguages } from '../settings/languages.ts';

// Product reviews: a logged-in customer writes one per product, it waits as `pending`, and it is
// public once the merchant approved it. Moderation moves forward only (pending → approved or
// rejected; approved → rejected), so `review.approved` is recorded at most once per review.

const Rating = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5));
const ReviewStatus = v.picklist(['pending', 'approved', 'rejected']);

/** A review as the storefront shows it: built field by field, never by spreading the row. */
const StoreReview = v.object({
  id: Uuid,
  authorName: v.string(),
  rating: v.number(),
  title: v.string(),
  content: v.string(),
  language: v.string(),
  createdAt: Timestamp,
});
type StoreReview = v.InferOutput<typeof StoreReview>;

function storeReviewView(row: ReviewRow): StoreReview {
  return {
    id: row.id,
    authorName: row.authorName,
    rating: row.rating,
    title: row.title,
    content: row.content,
    language: row.language,
    createdAt: iso(row.createdAt),
  };
}

/** What the author sees of their new review: the public view, the product and the status. */
const OwnReview = v.object({ ...StoreReview.entries, productId: Uuid, status: ReviewStatus });

/** A review as staff see it, with the customer who wrote it and the moderation state. */
const Review = v.object({
  ...StoreReview.entries,
  productId: Uuid,
  customerId: v.nullable(Uuid),
  status: ReviewStatus,
  revision: v.number(),
  updatedAt: Timestamp,
});
type Review = v.InferOutput<typeof Review>;

function reviewView(row: ReviewRow): Review {
  return {
    ...storeReviewView(row),
    productId: row.productId,
    customerId: row.customerId,
    status: row.status,
    revision: row.revision,
    updatedAt: iso(row.updatedAt),
  };
}

/** "Ada L.": the first name and the initial of the last name, so a review names no one in full. */
function authorNameOf(customer: { firstName: string; lastName: string }): string {
  const initial = Array.from(customer.lastName.trim())[0];
  return initial ? `${customer.firstName} ${initial}.` : customer.firstName;
}

const noProduct = () => fail('NOT_FOUND', 'No such product is on sale in this shop.');

export const createStoreReview = defineStoreOperation({
  name: 'store.reviews.create',
  summary:
    'The logged-in customer reviews a product (one review per customer and product); it is shown once the merchant approves it.',
  http: { method: 'POST', path: '/store-api/products/:productId/reviews', status: 201 },
  readOnly: false,
  input: v.object({
    productId: Uuid,
    rating: Rating,
    title: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
    content: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(5000)),
    language: v.optional(LanguageCode),
  }),
  output: OwnReview,
  async handler({ services, storefront, tenantId }, input) {
    return services.database.transaction(async (tx) => {
      const context = await resolveStoreContext(tx, services, storefront);
      const customer = context?.customerId ? await findCustomer(tx, tenantId, context.customerId) : undefined;
      // Guests have no account to stand behind a review, and cannot log in to see it again.
      if (!context || !customer || customer.guest) {
        return fail('UNAUTHENTICATED', 'Log in first: reviews are written by registered customers.');
      }
      const refused = await refuseDisabledLanguages(tx, storefront, languageParameter(input.language));
      if (refused) return refused;
      // Share-locked: the product cannot be deleted before this review commits.
      const product = await findProductInChannel(tx, storefront, input.productId, 'share');
      if (!product) return noProduct();
      // Serialises this customer's writes for this product, so the check below sees any that committed.
      await lockTransaction(tx, `review:${tenantId}:${input.productId}:${customer.id}`);
      const existing = await findReviewOfCustomer(tx, tenantId, input.productId, customer.id);
      if (existing) {
        return fail('CONFLICT', 'You have already reviewed this product.', {
          extensions: { reviewId: existing.id },
        });
      }
      const language =
        input.language ?? context.language ?? (await findTenant(tx, tenantId))?.mainLanguage ?? 'en';
      const row = await insertReview(
        tx,
        tenantId,
        {
          id: services.ids.next(),
          productId: input.productId,
          customerId: customer.id,
          authorName: authorNameOf(customer),
          rating: input.rating,
          title: input.title,
          content: input.content,
          language,
        },
        services.clock.now(),
      );
      await recordEvent(
        tx,
        services,
        tenantId,
        { kind: 'customer', customerId: customer.id, contextId: context.id },
        'review.created',
        { reviewId: row.id, productId: row.productId, customerId: customer.id, rating: row.rating },
      );
      return ok({ ...storeReviewView(row), productId: row.productId, status: row.status });
    });
  },
});

export const listStoreReviews = defineStoreOperation({
  name: 'store.reviews.list',
  summary: 'The approved reviews of a product on sale, by id (no customer ids or emails).',
  http: { method: 'GET', path: '/store-api/products/:productId/reviews' },
  readOnly: true,
  input: v.object({ productId: Uuid, limit: Limit, after: v.optional(Uuid) }),
  output: v.object({ items: v.array(StoreReview), next: v.nullable(Uuid) }),
  async handler({ services, storefront, tenantId }, input) {
    const db = services.database.db;
    if (!(await findProductInChannel(db, storefront, input.productId))) return noProduct();
    const rows = await listReviews(db, tenantId, {
      limit: input.limit + 1,
      after: input.after,
      productId: input.productId,
      status: 'approved',
    });
    const page = rows.slice(0, input.limit);
    return ok({
      items: page.map(storeReviewView),
      next: rows.length > input.limit ? page.at(-1)!.id : null,
    });
  },
});

export const listCatalogReviews = defineOperation({
  name: 'catalog.reviews.list',
  summary: 'Reviews of the shop’s products by id, in every status; filter by `status` and `productId`.',
  http: { method: 'GET', path: '/api/catalog/reviews' },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({
    limit: Limit,
    after: v.optional(Uuid),
    status: v.optional(ReviewStatus),
    productId: v.optional(Uuid),
  }),
  output: v.object({ items: v.array(Review), next: v.nullable(Uuid) }),
  async handler({ services, tenantId }, input) {
    const { limit, ...filters } = input;
    const rows = await listReviews(services.database.db, tenantId, { ...filters, limit: limit + 1 });
    const page = rows.slice(0, limit);
    return ok({ items: page.map(reviewView), next: rows.length > limit ? page.at(-1)!.id : null });
  },
});

export const moderateCatalogReview = defineOperation({
  name: 'catalog.reviews.moderate',
  summary:
    'Approves or rejects a review at its stored revision. Approving a pending review publishes it; rejecting withdraws it for good. Asking for the status it has changes nothing.',
  http: { method: 'PUT', path: '/api/catalog/reviews/:id' },
  permission: 'catalog.write',
  readOnly: false,
  input: v.strictObject({ id: Uuid, revision: Revision, status: v.picklist(['approved', 'rejected']) }),
  output: Review,
  async handler({ services, tenantId, principal }, input) {
    const { id, revision, status } = input;
    return services.database.transaction(async (tx) => {
      const current = await findReview(tx, tenantId, id, 'update');
      if (!current) return fail('NOT_FOUND', `No review ${id} exists in this shop.`);
      if (current.revision !== revision) return staleRevision(revision, current.revision);
      // Idempotent: the review is as asked, so nothing moves and no event is recorded again.
      if (current.status === status) return ok(reviewView(current));
      // Only pending → approved records review.approved; a rejected review never returns, so no
      // review is counted twice (the customer history counts each review.approved).
      if (current.status === 'rejected') {
        return fail('CONFLICT', 'A rejected review stays rejected.', {
          extensions: { status: current.status },
        });
      }
      const row = await updateReviewStatus(tx, tenantId, id, revision, status, services.clock.now());
      if (!row) return staleRevision(revision, current.revision);
      const payload = { reviewId: row.id, productId: row.productId, customerId: row.customerId };
      if (status === 'approved') {
        await recordEvent(tx, services, tenantId, actorOf(principal), 'review.approved', payload);
      } else {
        await recordEvent(tx, services, tenantId, actorOf(principal), 'review.rejected', {
          ...payload,
          previousStatus: current.status,
        });
      }
      return ok(reviewView(row));
    });
  },
});

export const reviewOperations = [
  createStoreReview,
  listStoreReviews,
  listCatalogReviews,
  moderateCatalogReview,
];
