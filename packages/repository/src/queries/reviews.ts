import { eq } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { productReviews } from '../schema.ts';
import {
  findRow,
  insertRow,
  listIds,
  listPage,
  type RowLock,
  reviseRows,
  selectRows,
} from './tenant-rows.ts';

export type ReviewRow = typeof productReviews.$inferSelect;
export type ReviewStatus = ReviewRow['status'];
/** What a new review holds: everything but the tenant, status, revision and timestamps. */
export type ReviewFields = Omit<
  typeof productReviews.$inferInsert,
  'tenantId' | 'status' | 'revision' | 'createdAt' | 'updatedAt'
>;

/** Inserts a pending review at revision 1. */
export function insertReview(
  tx: Executor,
  tenantId: string,
  fields: ReviewFields,
  at: Date,
): Promise<ReviewRow> {
  const review = {
    ...fields,
    tenantId,
    status: 'pending',
    revision: 1,
    createdAt: at,
    updatedAt: at,
  } as const;
  return insertRow(tx, productReviews, review);
}

export function findReview(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<ReviewRow | undefined> {
  return findRow(tx, productReviews, tenantId, [eq(productReviews.id, id)], lock);
}

/** The customer's review of the product, in any status (a customer writes one per product). */
export async function findReviewOfCustomer(
  tx: Executor,
  tenantId: string,
  productId: string,
  customerId: string,
): Promise<ReviewRow | undefined> {
  const [row] = await selectRows(tx, productReviews, tenantId, {
    where: [eq(productReviews.productId, productId), eq(productReviews.customerId, customerId)],
    limit: 1,
  });
  return row;
}

export interface ReviewQuery {
  readonly limit: number;
  /** Id of the last review of the previous page (reviews are listed by id, UUIDv7). */
  readonly after?: string | undefined;
  readonly productId?: string | undefined;
  readonly status?: ReviewStatus | undefined;
}

/** A page of reviews by id, filtered by product and status. */
export function listReviews(tx: Executor, tenantId: string, query: ReviewQuery): Promise<ReviewRow[]> {
  return listPage(tx, productReviews, tenantId, { key: productReviews.id, direction: 'asc' }, query, [
    query.productId ? eq(productReviews.productId, query.productId) : undefined,
    query.status ? eq(productReviews.status, query.status) : undefined,
  ]);
}

/** Up to `limit` reviews of the product in any status (what keeps the product from being deleted). */
export function listProductReviewIds(
  tx: Executor,
  tenantId: string,
  productId: string,
  limit: number,
): Promise<string[]> {
  return listIds(tx, productReviews, tenantId, [eq(productReviews.productId, productId)], limit);
}

/**
 * Sets the review's status and raises its revision, only when the stored revision is
 * `expectedRevision`; undefined otherwise.
 */
export async function updateReviewStatus(
  tx: Executor,
  tenantId: string,
  id: string,
  expectedRevision: number,
  status: ReviewStatus,
  at: Date,
): Promise<ReviewRow | undefined> {
  const atRevision = [eq(productReviews.id, id), eq(productReviews.revision, expectedRevision)];
  const [row] = await reviseRows(tx, productReviews, tenantId, atRevision, { status }, at);
  return row;
}
