import { resolveTranslated } from '@cartwright/commerce';
import { findBasis, findTenant, listProducts, listVariants, type ProductRow } from '@cartwright/repository';
import * as v from 'valibot';
import { resolveStoreContext } from '../customers/contexts.ts';
import { fail, ok } from '../kernel/errors.ts';
import { defineStoreOperation, type StoreOperationContext } from '../kernel/registry.ts';
import { CurrencyCode, LanguageCode, Limit, Uuid } from '../kernel/schemas.ts';
import { publicGalleries, StoreImage } from '../media/gallery.ts';
import { languageParameter, refuseDisabledLanguages } from '../settings/languages.ts';
import { channelAssortment, findProductInChannel, listedInChannel } from './channel-assortment.ts';
import { effectiveProduct } from './product-view.ts';

// The PUBLIC serialisation of products. It is built field by field from an allow-list, never by
// spreading a stored row, so purchase prices, rule metadata, custom fields and stock counts cannot
// leak into a storefront response by accident.

const StorePrice = v.object({
  currency: v.string(),
  gross: v.number(),
  net: v.number(),
  listGross: v.nullable(v.number()),
  listNet: v.nullable(v.number()),
});

export const StoreProduct = v.object({
  id: Uuid,
  parentId: v.nullable(Uuid),
  sku: v.string(),
  name: v.nullable(v.string()),
  description: v.nullable(v.string()),
  language: v.string(),
  price: v.nullable(StorePrice),
  available: v.boolean(),
  manufacturer: v.nullable(v.string()),
  categoryIds: v.array(Uuid),
  properties: v.record(v.string(), v.string()),
  options: v.record(v.string(), v.string()),
  releaseDate: v.nullable(v.string()),
  weightGrams: v.nullable(v.number()),
  dimensionsMm: v.object({
    width: v.nullable(v.number()),
    height: v.nullable(v.number()),
    length: v.nullable(v.number()),
  }),
  flags: v.object({
    new: v.boolean(),
    closeout: v.boolean(),
    topseller: v.boolean(),
    shippingFree: v.boolean(),
  }),
  /** Published gallery images, cover first; a variant without its own shows its parent's. */
  gallery: v.array(StoreImage),
});
export type StoreProduct = v.InferOutput<typeof StoreProduct>;

/** One product as a storefront may show it, in `language` and priced in `currency`, with its public gallery. */
export function storeProductView(
  product: ProductRow,
  language: string,
  mainLanguage: string,
  currency: string,
  gallery: readonly StoreImage[] = [],
): StoreProduct {
  const text = (field: string) =>
    product.translations
      ? (resolveTranslated(product.translations, field, language, mainLanguage)?.value ?? null)
      : null;
  const price = product.prices?.find((candidate) => candidate.currency === currency);
  return {
    id: product.id,
    parentId: product.parentId,
    sku: product.sku,
    name: text('name'),
    description: text('description'),
    language,
    price: price
      ? {
          currency: price.currency,
          gross: price.gross,
          net: price.net,
          listGross: price.listGross ?? null,
          listNet: price.listNet ?? null,
        }
      : null,
    available: product.stockAvailable > 0,
    manufacturer: product.manufacturer,
    categoryIds: product.categoryIds ?? [],
    properties: { ...(product.properties ?? {}) },
    options: { ...(product.options ?? {}) },
    releaseDate: product.releaseDate,
    weightGrams: product.weightGrams,
    dimensionsMm: { width: product.widthMm, height: product.heightMm, length: product.lengthMm },
    flags: {
      new: product.flags?.new === true,
      closeout: product.flags?.closeout === true,
      topseller: product.flags?.topseller === true,
      shippingFree: product.flags?.shippingFree === true,
    },
    gallery: [...gallery],
  };
}

const Locale = {
  language: v.optional(LanguageCode),
  currency: v.optional(CurrencyCode),
};

/**
 * The language and currency a storefront request reads in: asked for (a language the channel
 * has), else the context's, else the shop's.
 */
async function localeOf(
  context: StoreOperationContext,
  input: { language?: string | undefined; currency?: string | undefined },
) {
  const { services, storefront, tenantId } = context;
  const db = services.database.db;
  const refused = await refuseDisabledLanguages(db, storefront, languageParameter(input.language));
  if (refused) return refused;
  const tenant = await findTenant(db, tenantId);
  const visitor = await resolveStoreContext(db, services, storefront);
  const mainLanguage = tenant?.mainLanguage ?? 'en';
  return ok({
    mainLanguage,
    language: input.language ?? visitor?.language ?? mainLanguage,
    currency: input.currency ?? visitor?.currency ?? 'EUR',
  });
}

export const listStoreProducts = defineStoreOperation({
  name: 'store.products.list',
  summary:
    'Active products of the channel’s catalog as the storefront shows them (no purchase prices, no rule metadata); a product visible to search only is listed only with `search`, one visible by link never.',
  http: { method: 'GET', path: '/store-api/products' },
  readOnly: true,
  input: v.object({
    limit: Limit,
    after: v.optional(Uuid),
    search: v.optional(v.pipe(v.string(), v.maxLength(200))),
    categoryId: v.optional(Uuid),
    ...Locale,
  }),
  output: v.object({ items: v.array(StoreProduct), next: v.nullable(Uuid) }),
  async handler(context, input) {
    const located = await localeOf(context, input);
    if (!located.ok) return located;
    const locale = located.value;
    const db = context.services.database.db;
    const assortment = await channelAssortment(db, context.tenantId, context.storefront.channelId);
    const rows = await listProducts(db, context.tenantId, {
      limit: input.limit + 1,
      after: input.after,
      kind: 'parent',
      active: true,
      search: input.search,
      categoryId: input.categoryId,
      ...listedInChannel(assortment, input.search !== undefined),
    });
    const page = rows.slice(0, input.limit);
    const galleries = await publicGalleries(
      db,
      context.tenantId,
      page.map(({ product }) => product),
      locale.language,
      locale.mainLanguage,
    );
    return ok({
      items: page.map(({ product, parent }) =>
        storeProductView(
          effectiveProduct(product, parent),
          locale.language,
          locale.mainLanguage,
          locale.currency,
          galleries.get(product.id),
        ),
      ),
      next: rows.length > input.limit ? page.at(-1)!.product.id : null,
    });
  },
});

export const getStoreProduct = defineStoreOperation({
  name: 'store.products.get',
  summary:
    'One active product of the channel’s catalog (whatever its visibility there) with its active variants, as the storefront shows them.',
  http: { method: 'GET', path: '/store-api/products/:id' },
  readOnly: true,
  input: v.object({ id: Uuid, ...Locale }),
  output: v.object({ product: StoreProduct, variants: v.array(StoreProduct) }),
  async handler(context, input) {
    const db = context.services.database.db;
    const located = await localeOf(context, input);
    if (!located.ok) return located;
    const locale = located.value;
    const product = await findProductInChannel(db, context.storefront, input.id);
    if (!product) return fail('NOT_FOUND', 'No such product is on sale in this shop.');
    if (input.currency && !(await findBasis(db, 'currencies', context.tenantId, input.currency))) {
      return fail('VALIDATION_FAILED', 'The shop does not offer this currency.', {
        errors: [{ pointer: '/currency', message: 'unknown currency' }],
      });
    }
    const variants = product.parentId
      ? []
      : (await listVariants(db, context.tenantId, product.id))
          .map((variant) => effectiveProduct(variant, product))
          .filter((variant) => variant.active !== false);
    const galleries = await publicGalleries(
      db,
      context.tenantId,
      [product, ...variants],
      locale.language,
      locale.mainLanguage,
    );
    const view = (row: ProductRow) =>
      storeProductView(row, locale.language, locale.mainLanguage, locale.currency, galleries.get(row.id));
    return ok({ product: view(product), variants: variants.map(view) });
  },
});
