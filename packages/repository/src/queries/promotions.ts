import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { promotionRedemptions } from '../schema.ts';
import { insertRow, inTenant } from './tenant-rows.ts';

export type PromotionRedemptionRow = typeof promotionRedemptions.$inferSelect;

/** Records that an order redeemed a promotion (one row per promotion and order: the key refuses a second). */
export function insertPromotionRedemption(
  tx: Executor,
  redemption: typeof promotionRedemptions.$inferInsert,
): Promise<PromotionRedemptionRow> {
  return insertRow(tx, promotionRedemptions, redemption);
}

/**
 * How many orders redeemed the promotion, or only with `code` (the promotion's own spelling).
 * Read under the promotion's row lock when a limit is enforced, so the count cannot move meanwhile.
 */
export async function countPromotionRedemptions(
  tx: Executor,
  tenantId: string,
  promotionId: string,
  code?: string,
): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(promotionRedemptions)
    .where(
      inTenant(
        promotionRedemptions,
        tenantId,
        eq(promotionRedemptions.promotionId, promotionId),
        code === undefined ? undefined : eq(promotionRedemptions.code, code),
      ),
    );
  return row?.n ?? 0;
}

/** The redemption counts of these promotions (a promotion never redeemed is absent). */
export async function countRedemptionsByPromotion(
  tx: Executor,
  tenantId: string,
  promotionIds: readonly string[],
): Promise<Map<string, number>> {
  if (promotionIds.length === 0) return new Map();
  const rows = await tx
    .select({ promotionId: promotionRedemptions.promotionId, n: count() })
    .from(promotionRedemptions)
    .where(
      inTenant(promotionRedemptions, tenantId, inArray(promotionRedemptions.promotionId, [...promotionIds])),
    )
    .groupBy(promotionRedemptions.promotionId);
  return new Map(rows.map((row) => [row.promotionId, row.n]));
}

/** The redemptions of the promotion `id`, or of a promotion that referenced the rule `id` then. */
export function findRedemptionsNaming(
  tx: Executor,
  tenantId: string,
  id: string,
  limit: number,
): Promise<Pick<PromotionRedemptionRow, 'id' | 'promotionId' | 'orderId'>[]> {
  return tx
    .select({
      id: promotionRedemptions.id,
      promotionId: promotionRedemptions.promotionId,
      orderId: promotionRedemptions.orderId,
    })
    .from(promotionRedemptions)
    .where(
      inTenant(
        promotionRedemptions,
        tenantId,
        sql`(${promotionRedemptions.promotionId} = ${id} or ${promotionRedemptions.ruleIds} @> ${JSON.stringify([id])}::jsonb)`,
      ),
    )
    .orderBy(asc(promotionRedemptions.createdAt), asc(promotionRedemptions.id))
    .limit(limit);
}
