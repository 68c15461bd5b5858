import { type Executor, findDefinitions, insertPromotionRedemption } from '@cartwright/repository';
import { type Failure, fail } from '../kernel/errors.ts';
import type { Services } from '../kernel/services.ts';
import { promotionOf } from './definition.ts';
import { type AppliedPromotion, codeExhausted } from './pricing.ts';

/**
 * Records the order's redemption of every promotion its cart earned, in the checkout's
 * transaction. Each promotion's row is locked first (in id order, so two checkouts never wait on
 * each other crosswise), then its code's limit is counted again: of two orders racing for a
 * code's last redemption, the second waits for the first and is refused. A promotion changed or
 * deactivated since the cart was priced refuses too: the customer reviews the cart again.
 */
export async function redeemPromotions(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
  applied: readonly AppliedPromotion[],
): Promise<Failure | null> {
  const byId = [...applied].sort((a, b) => (a.promotionId < b.promotionId ? -1 : 1));
  for (const redeemed of byId) {
    const [row] = await findDefinitions(tx, tenantId, 'promotion', [redeemed.promotionId], 'update');
    const promotion = row ? promotionOf(row.data) : null;
    if (!row || !promotion || !row.active || row.revision !== redeemed.revision) {
      return fail(
        'CONFLICT',
        'A promotion of the cart changed during checkout; review the cart and check out again.',
        {
          extensions: { promotionId: redeemed.promotionId },
        },
      );
    }
    if (await codeExhausted(tx, tenantId, row.id, promotion, redeemed.code)) {
      return fail(
        'PROMOTION_CODE_EXHAUSTED',
        `The code ${redeemed.code} has been redeemed as often as it may be.`,
        {
          extensions: { promotionId: row.id, code: redeemed.code },
        },
      );
    }
    await insertPromotionRedemption(tx, {
      tenantId,
      id: services.ids.next(),
      promotionId: row.id,
      orderId,
      code: redeemed.code,
      ruleIds: [...redeemed.ruleIds],
      createdAt: services.clock.now(),
    });
  }
  return null;
}
