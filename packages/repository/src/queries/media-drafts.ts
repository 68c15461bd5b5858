import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { type MediaDraftFailureJson, type MediaDraftStatus, mediaDrafts } from '../schema.ts';
import { mediaDraftLease } from './leases.ts';
import { findRow, insertRow, inTenant, type Row, selectRows } from './tenant-rows.ts';

// Image drafts' rows (decision 0044): tables, not decisions (`packages/service/src/media/` decides).

export {
  MEDIA_DRAFT_MODES,
  MEDIA_DRAFT_STATUSES,
  type MediaDraftFailureJson,
  type MediaDraftMode,
  type MediaDraftStatus,
} from '../schema.ts';
export type MediaDraftRow = Row<typeof mediaDrafts>;
export type NewMediaDraft = typeof mediaDrafts.$inferInsert;

/** The NOTIFY channel that wakes the media worker when a draft is admitted. */
export const MEDIA_DRAFTS_CHANNEL = 'cartwright_media_drafts';

export function insertMediaDraft(tx: Executor, row: NewMediaDraft): Promise<MediaDraftRow> {
  return insertRow(tx, mediaDrafts, row);
}

/** Wakes the media worker (delivered when the caller's transaction commits). */
export async function notifyMediaDrafts(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_notify(${MEDIA_DRAFTS_CHANNEL}, '')`);
}

/** One draft of the shop; `lock` holds it (an apply takes it `update`). */
export function findMediaDraft(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: 'update',
): Promise<MediaDraftRow | undefined> {
  return findRow(tx, mediaDrafts, tenantId, [eq(mediaDrafts.id, id)], lock);
}

/** The draft an `Idempotency-Key` created, if any. */
export function findMediaDraftByIdempotencyKey(
  tx: Executor,
  tenantId: string,
  key: string,
): Promise<MediaDraftRow | undefined> {
  return findRow(tx, mediaDrafts, tenantId, [eq(mediaDrafts.idempotencyKey, key)]);
}

/** A product's drafts in these states, newest first (at most `limit`). */
export function listProductMediaDrafts(
  tx: Executor,
  tenantId: string,
  productId: string,
  statuses: readonly MediaDraftStatus[],
  limit: number,
): Promise<MediaDraftRow[]> {
  return selectRows(tx, mediaDrafts, tenantId, {
    where: [eq(mediaDrafts.productId, productId), inArray(mediaDrafts.status, [...statuses])],
    orderBy: [desc(mediaDrafts.createdAt), desc(mediaDrafts.id)],
    limit,
  });
}

/** How many drafts are pending in the shop, and how many of them for one product. */
export async function countPendingMediaDrafts(
  tx: Executor,
  tenantId: string,
  productId: string,
): Promise<{ shop: number; product: number }> {
  const [row] = await tx
    .select({
      shop: count(),
      product: sql<number>`count(*) filter (where ${mediaDrafts.productId} = ${productId})`.mapWith(Number),
    })
    .from(mediaDrafts)
    .where(inTenant(mediaDrafts, tenantId, eq(mediaDrafts.status, 'pending')));
  return { shop: row?.shop ?? 0, product: row?.product ?? 0 };
}

/** Leases up to `limit` due drafts across shops to `owner` (the media worker's claim). */
export function claimDueMediaDrafts(
  tx: Executor,
  owner: string,
  leaseMs: number,
  limit: number,
): Promise<MediaDraftRow[]> {
  return mediaDraftLease.claim(tx, { owner, leaseMs, limit });
}

/**
 * Extends `owner`'s lease on a pending draft to `leaseMs` from now (database clock), right before
 * its provider call; false when the lease was lost meanwhile.
 */
export async function renewMediaDraftLease(
  tx: Executor,
  owner: string,
  tenantId: string,
  id: string,
  leaseMs: number,
): Promise<boolean> {
  return (
    (await mediaDraftLease.renew(
      tx,
      owner,
      leaseMs,
      inTenant(mediaDrafts, tenantId, eq(mediaDrafts.id, id)),
    )) === 1
  );
}

/** What a worker's call came to: a private PNG to review, or a failure. */
export type MediaDraftOutcome =
  | {
      readonly status: 'ready';
      readonly imageBlobId: string;
      readonly imageWidth: number;
      readonly imageHeight: number;
    }
  | { readonly status: 'failed'; readonly failure: MediaDraftFailureJson };

/**
 * Ends `owner`'s lease on a pending draft with its outcome. Answers false when the lease was lost
 * meanwhile: the caller must roll its transaction back (nothing it wrote may stay).
 */
export async function settleMediaDraft(
  tx: Executor,
  owner: string,
  tenantId: string,
  id: string,
  outcome: MediaDraftOutcome,
): Promise<boolean> {
  const written = await mediaDraftLease.save(tx, {
    owner,
    where: inTenant(mediaDrafts, tenantId, eq(mediaDrafts.id, id)),
    set: {
      status: outcome.status,
      ...(outcome.status === 'ready'
        ? {
            imageBlobId: outcome.imageBlobId,
            imageWidth: outcome.imageWidth,
            imageHeight: outcome.imageHeight,
          }
        : { failure: outcome.failure }),
      finishedAt: sql`clock_timestamp()`,
      updatedAt: sql`clock_timestamp()`,
    },
    lease: 'release',
  });
  return written === 1;
}

/** Marks a ready draft applied with the gallery entry it staged; false when it was not ready. */
export async function markMediaDraftApplied(
  tx: Executor,
  tenantId: string,
  id: string,
  galleryEntryId: string,
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .update(mediaDrafts)
    .set({ status: 'applied', galleryEntryId, appliedAt: at, updatedAt: at })
    .where(and(inTenant(mediaDrafts, tenantId, eq(mediaDrafts.id, id)), eq(mediaDrafts.status, 'ready')))
    .returning({ id: mediaDrafts.id });
  return rows.length === 1;
}
