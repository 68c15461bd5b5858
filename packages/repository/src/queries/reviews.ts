import { and, asc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { productReviews } from '../schema.ts';
import type { RowLock } from './catalog.ts';

export type ReviewRow = typeof productReviews.$inferSelect;
export type ReviewStatus = ReviewRow['status'];
/** What a new review holds: everything but the tenant, status, revision and timestamps. */
export type ReviewFields = Omit<
  typeof productReviews.$inferInsert,
  'tenantId' | 'status' | 'revision' | 'createdAt' | 'updatedAt'
>;

/** Inserts a pending review at revision 1. */
export async function insertReview(
  tx: Executor,
  tenantId: string,
  fields: ReviewFields,
  at: Date,
): Promise<ReviewRow> {
  const [row] = await tx
    .insert(productReviews)
    .values({ ...fields, tenantId, status: 'pending', revision: 1, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

export async function findReview(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<ReviewRow | undefined> {
  const query = tx
    .select()
    .from(productReviews)
    .where(and(eq(productReviews.tenantId, tenantId), eq(productReviews.id, id)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** The customer's review of the product, in any status (a customer writes one per product). */
export async function findReviewOfCustomer(
  tx: Executor,
  tenantId: string,
  productId: string,
  customerId: string,
): Promise<ReviewRow | undefined> {
  const [row] = await tx
    .select()
    .from(productReviews)
    .where(
      and(
        eq(productReviews.tenantId, tenantId),
        eq(productReviews.productId, productId),
        eq(productReviews.customerId, customerId),
      ),
    )
    .limit(1);
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
  const conditions: SQL[] = [eq(productReviews.tenantId, tenantId)];
  if (query.after) conditions.push(gt(productReviews.id, query.after));
  if (query.productId) conditions.push(eq(productReviews.productId, query.productId));
  if (query.status) conditions.push(eq(productReviews.status, query.status));
  return tx
    .select()
    .from(productReviews)
    .where(and(...conditions))
    .orderBy(asc(productReviews.id))
    .limit(query.limit);
}

/** Up to `limit` reviews of the product in any status (what keeps the product from being deleted). */
export async function listProductReviewIds(
  tx: Executor,
  tenantId: string,
  productId: string,
  limit: number,
): Promise<string[]> {
  const rows = await tx
    .select({ id: productReviews.id })
    .from(productReviews)
    .where(and(eq(productReviews.tenantId, tenantId), eq(productReviews.productId, productId)))
    .orderBy(asc(productReviews.id))
    .limit(limit);
  return rows.map((row) => row.id);
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
  const [row] = await tx
    .update(productReviews)
    .set({ status, revision: sql`${productReviews.revision} + 1`, updatedAt: at })
    .where(
      and(
        eq(productReviews.tenantId, tenantId),
        eq(productReviews.id, id),
        eq(productReviews.revision, expectedRevision),
      ),
    )
    .returning();
  return row;
}
