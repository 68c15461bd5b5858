import {
  type Executor,
  findChannel,
  findProduct,
  listCategoryLinks,
  type ProductQuery,
  type ProductRow,
  type ProductVisibilityJson,
  type RowLock,
} from '@cartwright/repository';
import type { Storefront } from '../kernel/auth.ts';
import { effectiveProduct, findProductOnSale } from './product-view.ts';

// What a sales channel shows of the catalog (decision 0030): the products of its catalog's
// categories and their descendants (the whole catalog when it has none), each as its visibility
// for the channel says: `all` listed and found by search, `search` found by a search term only,
// `link` read by its id only. No entry for the channel counts as `all`, so a shop that never sets
// one keeps its storefront as it was. A variant follows its parent in both.

export interface ChannelAssortment {
  readonly channelId: string;
  /** The catalog's categories with every descendant; null: the channel shows the whole catalog. */
  readonly categoryIds: ReadonlySet<string> | null;
}

/** The categories `roots` name, with every category below them. */
function withDescendants(
  roots: readonly string[],
  links: readonly { id: string; parentId: string | null }[],
): Set<string> {
  const children = new Map<string, string[]>();
  for (const link of links) {
    if (link.parentId) children.set(link.parentId, [...(children.get(link.parentId) ?? []), link.id]);
  }
  const found = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (found.has(id)) continue;
    found.add(id);
    pending.push(...(children.get(id) ?? []));
  }
  return found;
}

/** Reads what the channel shows of the catalog. */
export async function channelAssortment(
  tx: Executor,
  tenantId: string,
  channelId: string,
): Promise<ChannelAssortment> {
  const channel = await findChannel(tx, tenantId, channelId);
  if (!channel) throw new Error(`channel ${channelId} does not exist`);
  const catalog = (channel.data as { catalog?: { categoryIds: string[] } | null }).catalog ?? null;
  if (!catalog) return { channelId, categoryIds: null };
  return {
    channelId,
    categoryIds: withDescendants(catalog.categoryIds, await listCategoryLinks(tx, tenantId)),
  };
}

/**
 * Whether the channel shows a product at all (read by its id, put in a cart), whatever its
 * visibility there. `product` is the effective record: a variant's categories are its parent's.
 */
export function showsProduct(assortment: ChannelAssortment, product: ProductRow): boolean {
  const { categoryIds } = assortment;
  return categoryIds === null || (product.categoryIds ?? []).some((id) => categoryIds.has(id));
}

/** The `listProducts` filter of a storefront list through the channel; `searching`: a search term was given. */
export function listedInChannel(
  assortment: ChannelAssortment,
  searching: boolean,
): Pick<ProductQuery, 'inCategories' | 'visibleIn'> {
  const among: ProductVisibilityJson[] = searching ? ['all', 'search'] : ['all'];
  return {
    inCategories: assortment.categoryIds ? [...assortment.categoryIds] : undefined,
    visibleIn: { channelId: assortment.channelId, among },
  };
}

/** The product on sale as the storefront's channel shows it by id, or null (not there, inactive, or not in the channel). */
export async function findProductInChannel(
  tx: Executor,
  storefront: Pick<Storefront, 'tenantId' | 'channelId'>,
  id: string,
  lock?: RowLock,
): Promise<ProductRow | null> {
  const product = await findProductOnSale(tx, storefront.tenantId, id, lock);
  if (!product) return null;
  const assortment = await channelAssortment(tx, storefront.tenantId, storefront.channelId);
  return showsProduct(assortment, product) ? product : null;
}

/** Whether the storefront's channel shows a stored product (a variant through its parent), active or not. */
export async function isInChannel(
  tx: Executor,
  storefront: Pick<Storefront, 'tenantId' | 'channelId'>,
  own: ProductRow,
): Promise<boolean> {
  const parent = own.parentId ? ((await findProduct(tx, storefront.tenantId, own.parentId)) ?? null) : null;
  const assortment = await channelAssortment(tx, storefront.tenantId, storefront.channelId);
  return showsProduct(assortment, effectiveProduct(own, parent));
}
