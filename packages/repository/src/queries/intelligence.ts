import { eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import {
  type EvidenceSourceName,
  type IntelligenceStatus,
  intelligenceOrders,
  intelligencePairs,
  intelligenceProducts,
  intelligenceTotals,
  type PairSourceEventJson,
} from '../schema.ts';
import { findRow, type Row, type RowLock, reviseRows, selectRows } from './tenant-rows.ts';

// Shop intelligence's rows (decision 0045): counts per source side by side, never summed here.

export type IntelligencePairRow = Row<typeof intelligencePairs>;
export type IntelligenceProductRow = Row<typeof intelligenceProducts>;
export type IntelligenceTotalsRow = Row<typeof intelligenceTotals>;

/**
 * Marks an order as counted evidence; answers false when it already was (by placement or by a
 * capture), so an order feeds evidence once whichever event reaches it first.
 */
export async function claimEvidenceOrder(
  tx: Executor,
  tenantId: string,
  order: { readonly orderId: string; readonly eventId: string; readonly source: EvidenceSourceName },
): Promise<boolean> {
  const rows = await tx
    .insert(intelligenceOrders)
    .values({ tenantId, ...order })
    .onConflictDoNothing()
    .returning({ orderId: intelligenceOrders.orderId });
  return rows.length > 0;
}

/** One basket's evidence as the service hands it over. */
export interface BasketEvidenceInput {
  readonly source: EvidenceSourceName;
  /** Distinct product ids. */
  readonly products: readonly string[];
  /** Distinct pairs, `a` < `b`, each with the id a new row gets. */
  readonly pairs: readonly { readonly a: string; readonly b: string; readonly newId: string }[];
  /** Recorded on every pair of the basket. */
  readonly sourceEvent: PairSourceEventJson;
  /** How many of the latest source events a pair keeps. */
  readonly sourceEventLimit: number;
  readonly at: Date;
}

/**
 * Adds one basket to the shop's counts under its source: the shop's baskets, each product's
 * baskets and each pair's baskets (a new pair starts as a `candidate` at revision 1). Three
 * statements whatever the basket's size.
 */
export async function addBasketEvidence(
  tx: Executor,
  tenantId: string,
  basket: BasketEvidenceInput,
): Promise<void> {
  const source = basket.source;
  await tx
    .insert(intelligenceTotals)
    .values({ tenantId, [source]: 1 })
    .onConflictDoUpdate({
      target: [intelligenceTotals.tenantId],
      set: { [source]: sql`${intelligenceTotals[source]} + 1` },
    });
  if (basket.products.length > 0) {
    await tx
      .insert(intelligenceProducts)
      .values(basket.products.map((productId) => ({ tenantId, productId, [source]: 1 })))
      .onConflictDoUpdate({
        target: [intelligenceProducts.tenantId, intelligenceProducts.productId],
        set: { [source]: sql`${intelligenceProducts[source]} + 1` },
      });
  }
  if (basket.pairs.length > 0) {
    const events = sql`${intelligencePairs.sourceEvents} || excluded.source_events`;
    await tx
      .insert(intelligencePairs)
      .values(
        basket.pairs.map((pair) => ({
          tenantId,
          id: pair.newId,
          productAId: pair.a,
          productBId: pair.b,
          [source]: 1,
          sourceEvents: [basket.sourceEvent],
          createdAt: basket.at,
          updatedAt: basket.at,
        })),
      )
      .onConflictDoUpdate({
        target: [intelligencePairs.tenantId, intelligencePairs.productAId, intelligencePairs.productBId],
        set: {
          [source]: sql`${intelligencePairs[source]} + 1`,
          // The newest `limit` entries, in order (the array grows at its end).
          sourceEvents: sql`(select coalesce(jsonb_agg(e.value order by e.n), '[]'::jsonb)
            from jsonb_array_elements(${events}) with ordinality as e(value, n)
            where e.n > jsonb_array_length(${events}) - ${basket.sourceEventLimit})`,
          updatedAt: basket.at,
        },
      });
  }
}

/** One pair of the shop; `lock` holds it for a review. */
export function findIntelligencePair(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<IntelligencePairRow | undefined> {
  return findRow(tx, intelligencePairs, tenantId, [eq(intelligencePairs.id, id)], lock);
}

/**
 * Up to `limit` pairs of the shop (of `status` when given) with the most evidence first: pairs with
 * trusted evidence by trusted baskets, then simulated-only pairs by simulated baskets. The service
 * ranks these candidates exactly (`@cartwright/intelligence` `rankPairs`).
 */
export function listIntelligencePairs(
  tx: Executor,
  tenantId: string,
  query: { readonly status?: IntelligenceStatus | undefined; readonly limit: number },
): Promise<IntelligencePairRow[]> {
  const trusted = sql`(${intelligencePairs.observed} + ${intelligencePairs.manual} + ${intelligencePairs.sandbox})`;
  return selectRows(tx, intelligencePairs, tenantId, {
    where: [query.status ? eq(intelligencePairs.status, query.status) : undefined],
    orderBy: [
      sql`(${trusted} > 0) desc`,
      sql`(case when ${trusted} > 0 then ${trusted} else ${intelligencePairs.simulated} end) desc`,
      intelligencePairs.productAId,
      intelligencePairs.productBId,
    ],
    limit: query.limit,
  });
}

/** The shop's published pairs holding `productId` on either side. */
export function listPublishedPairsOf(
  tx: Executor,
  tenantId: string,
  productId: string,
): Promise<IntelligencePairRow[]> {
  return selectRows(tx, intelligencePairs, tenantId, {
    where: [
      eq(intelligencePairs.status, 'published'),
      or(eq(intelligencePairs.productAId, productId), eq(intelligencePairs.productBId, productId)),
    ],
  });
}

/**
 * Sets a pair's status if it is still at `revision`; answers the updated row, or undefined when
 * the pair is gone or its revision moved on.
 */
export async function setIntelligencePairStatus(
  tx: Executor,
  tenantId: string,
  change: {
    readonly id: string;
    readonly revision: number;
    readonly status: IntelligenceStatus;
    readonly at: Date;
  },
): Promise<IntelligencePairRow | undefined> {
  const [row] = await reviseRows(
    tx,
    intelligencePairs,
    tenantId,
    [eq(intelligencePairs.id, change.id), eq(intelligencePairs.revision, change.revision)],
    { status: change.status, reviewedAt: change.at },
    change.at,
  );
  return row;
}

/** The basket counts of these products (products without evidence are left out). */
export function listIntelligenceProducts(
  tx: Executor,
  tenantId: string,
  productIds: readonly string[],
): Promise<IntelligenceProductRow[]> {
  if (productIds.length === 0) return Promise.resolve([]);
  return selectRows(tx, intelligenceProducts, tenantId, {
    where: [inArray(intelligenceProducts.productId, [...productIds])],
  });
}

/** The shop's baskets per source, or undefined before its first evidence. */
export function findIntelligenceTotals(
  tx: Executor,
  tenantId: string,
): Promise<IntelligenceTotalsRow | undefined> {
  return findRow(tx, intelligenceTotals, tenantId, []);
}
