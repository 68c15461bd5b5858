import { resolveTranslated } from '@cartwright/commerce';
import { recommendFor } from '@cartwright/intelligence';
import {
  type Executor,
  findProductBySku,
  findTenant,
  listPublishedPairsOf,
  type ProductRow,
} from '@cartwright/repository';
import { findProductInChannel } from '../catalog/channel-assortment.ts';
import type { Storefront } from '../kernel/auth.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { rankablePairs } from './listing.ts';

// Public recommendations (decision 0045): the products of a product's published pairs that the
// visitor's channel sells and lists. Built field by field from an allow-list: no order id,
// customer id, count or score ever leaves here; the counts only decide the order.

export interface RecommendedProduct {
  readonly id: string;
  readonly sku: string;
  readonly name: string | null;
  readonly language: string;
  readonly price: { readonly currency: string; readonly gross: number; readonly net: number } | null;
  readonly available: boolean;
}

export interface Locale {
  readonly language: string;
  readonly mainLanguage: string;
  readonly currency: string;
}

function recommendedView(product: ProductRow, locale: Locale): RecommendedProduct {
  const name = product.translations
    ? (resolveTranslated(product.translations, 'name', locale.language, locale.mainLanguage)?.value ?? null)
    : null;
  const price = product.prices?.find((candidate) => candidate.currency === locale.currency);
  return {
    id: product.id,
    sku: product.sku,
    name,
    language: locale.language,
    price: price ? { currency: price.currency, gross: price.gross, net: price.net } : null,
    available: product.stockAvailable > 0,
  };
}

/**
 * The recommendations beside the product with `sku` in the storefront's channel, best first. The
 * asked product must be on sale in the channel (NOT_FOUND otherwise, as for any product read);
 * a variant's SKU answers its main product's pairs. A recommended product must be active, in the
 * channel's catalog and listed there (visibility `all`: recommendations are a list).
 */
export async function recommendationsFor(
  tx: Executor,
  storefront: Storefront,
  sku: string,
  locale: Locale,
): Promise<Result<RecommendedProduct[]>> {
  const { tenantId } = storefront;
  const asked = await findProductBySku(tx, tenantId, sku);
  if (!asked || !(await findProductInChannel(tx, storefront, asked.id))) {
    return fail('NOT_FOUND', 'No such product is on sale in this shop.');
  }
  const mainId = asked.parentId ?? asked.id;
  const stage = (await findTenant(tx, tenantId))?.stage ?? 'live';
  const { pairs } = await rankablePairs(tx, tenantId, await listPublishedPairsOf(tx, tenantId, mainId));
  const ranked = recommendFor(
    mainId,
    pairs.map((pair) => ({ ...pair, status: pair.row.status })),
    stage,
  );
  const items: RecommendedProduct[] = [];
  for (const recommendation of ranked) {
    const product = await findProductInChannel(tx, storefront, recommendation.productId);
    if (!product || (product.visibilities?.[storefront.channelId] ?? 'all') !== 'all') continue;
    items.push(recommendedView(product, locale));
  }
  return ok(items);
}
