import {
  type EntitlementWithAsset,
  type Executor,
  findOrder,
  grantEntitlements,
  listOrderEntitlements,
  lockAssetsOfProducts,
  revokeEntitlements,
} from '@cartwright/repository';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';

export const noOrder = () => fail('NOT_FOUND', 'No such order exists in this shop.');

function orderedProductIds(lines: readonly Record<string, unknown>[]): string[] {
  const ids = lines.flatMap((line) => (typeof line.productId === 'string' ? [line.productId] : []));
  return [...new Set(ids)];
}

/**
 * Grants (`value` true) the order's customer every downloadable file of every ordered product,
 * creating missing entitlements and re-granting revoked ones, or revokes (`value` false) all of
 * the order's entitlements. Emits `downloads.granted` / `downloads.revoked` when anything changed.
 * The staff operation and the flow action "grant download access" both call this.
 */
export async function setDownloadAccess(
  tx: Executor,
  services: Services,
  tenantId: string,
  orderId: string,
  value: boolean,
  actor: Actor,
): Promise<Result<EntitlementWithAsset[]>> {
  const order = await findOrder(tx, tenantId, orderId, { forUpdate: true });
  if (!order) return noOrder();
  const at = services.clock.now();
  let changed: { id: string }[];
  if (value) {
    const assets = await lockAssetsOfProducts(tx, tenantId, orderedProductIds(order.lines));
    changed = await grantEntitlements(tx, {
      tenantId,
      orderId,
      customerId: order.customerId,
      at,
      assets: assets.map((asset) => ({ assetId: asset.id, newId: services.ids.next() })),
    });
  } else {
    changed = await revokeEntitlements(tx, tenantId, orderId, at);
  }
  if (changed.length > 0) {
    await recordEvent(tx, services, tenantId, actor, value ? 'downloads.granted' : 'downloads.revoked', {
      orderId,
      entitlementIds: changed.map((entitlement) => entitlement.id),
    });
  }
  return ok(await listOrderEntitlements(tx, tenantId, orderId));
}
