import { inheritFromParent } from '@cartwright/commerce';
import {
  type Executor,
  findProduct,
  type ProductRow,
  type ProductVisibilityJson,
  type RowLock,
} from '@cartwright/repository';
import * as v from 'valibot';
import { iso, Timestamp, Uuid } from '../kernel/schemas.ts';

// How staff see a product: the stored record (`own`, where a variant's nulls mean "inherit") and
// the effective record (a variant's gaps filled from its parent). Admin views include the private
// `purchasePrices` and `ruleMetadata`; the public store serialisation must never reuse these.

/** Product fields a variant takes from its parent when its own value is null. */
const INHERITED_FIELDS = [
  'active',
  'prices',
  'purchasePrices',
  'taxClassId',
  'weightGrams',
  'widthMm',
  'heightMm',
  'lengthMm',
  'manufacturer',
  'categoryIds',
  'tags',
  'properties',
  'releaseDate',
  'customFields',
  'ruleMetadata',
  'visibilities',
] as const satisfies readonly (keyof ProductRow)[];

export const TRANSLATED_FIELDS = ['name', 'description'] as const;
export const FLAG_NAMES = ['new', 'closeout', 'topseller', 'shippingFree'] as const;

type TranslationsJson = NonNullable<ProductRow['translations']>;
type FlagsJson = NonNullable<ProductRow['flags']>;

/** Per language and field: the variant's text unless null or missing, then the parent's. */
function inheritTranslations(
  parent: TranslationsJson | null,
  own: TranslationsJson | null,
): TranslationsJson | null {
  if (!own || !parent) return own ?? parent;
  const languages = new Set([...Object.keys(parent), ...Object.keys(own)]);
  const effective: TranslationsJson = {};
  for (const language of languages) {
    const merged = inheritFromParent(parent[language] ?? {}, own[language] ?? {}, TRANSLATED_FIELDS);
    effective[language] = Object.fromEntries(
      Object.entries(merged).filter(([, text]) => text !== undefined),
    ) as Record<string, string | null>;
  }
  return effective;
}

/** Per flag: the variant's unless null, then the parent's. */
function inheritFlags(parent: FlagsJson | null, own: FlagsJson | null): FlagsJson | null {
  if (!own || !parent) return own ?? parent;
  return inheritFromParent(parent, own, FLAG_NAMES);
}

/** The product as it sells: a variant's null fields come from its parent; a parent is its own. */
export function effectiveProduct(own: ProductRow, parent: ProductRow | null): ProductRow {
  if (!parent) return own;
  return {
    ...inheritFromParent(parent, own, INHERITED_FIELDS),
    translations: inheritTranslations(parent.translations, own.translations),
    flags: inheritFlags(parent.flags, own.flags),
  };
}

const Money = { currency: v.string(), gross: v.number(), net: v.number() };
const Text = v.record(v.string(), v.string());
const Json = v.record(v.string(), v.unknown());
const Flag = v.optional(v.nullable(v.boolean()));

/** How a product shows through one sales channel (decision 0030). */
export const ProductVisibility = v.picklist(['all', 'search', 'link'] satisfies ProductVisibilityJson[]);

export const ProductView = v.object({
  id: Uuid,
  parentId: v.nullable(Uuid),
  sku: v.string(),
  active: v.nullable(v.boolean()),
  translations: v.nullable(v.record(v.string(), v.record(v.string(), v.nullable(v.string())))),
  prices: v.nullable(
    v.array(
      v.object({
        ...Money,
        listGross: v.optional(v.nullable(v.number())),
        listNet: v.optional(v.nullable(v.number())),
      }),
    ),
  ),
  purchasePrices: v.nullable(v.array(v.object(Money))),
  taxClassId: v.nullable(Uuid),
  stockAvailable: v.number(),
  /** Held for placed orders; changed by checkout only. */
  stockReserved: v.number(),
  weightGrams: v.nullable(v.number()),
  widthMm: v.nullable(v.number()),
  heightMm: v.nullable(v.number()),
  lengthMm: v.nullable(v.number()),
  manufacturer: v.nullable(v.string()),
  categoryIds: v.nullable(v.array(Uuid)),
  tags: v.nullable(v.array(v.string())),
  properties: v.nullable(Text),
  options: v.nullable(Text),
  releaseDate: v.nullable(v.string()),
  flags: v.nullable(v.object({ new: Flag, closeout: Flag, topseller: Flag, shippingFree: Flag })),
  customFields: v.nullable(Json),
  ruleMetadata: v.nullable(Json),
  /** Per sales channel id: `all`, `search` or `link` (a variant's own is null: it follows its parent). */
  visibilities: v.nullable(v.record(Uuid, ProductVisibility)),
  revision: v.number(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProductView = v.InferOutput<typeof ProductView>;

/** The JSON of a product row: no tenant, dates as ISO strings. */
export function productView(row: ProductRow): ProductView {
  const { tenantId: _, createdAt, updatedAt, ...fields } = row;
  return { ...fields, createdAt: iso(createdAt), updatedAt: iso(updatedAt) };
}

/** Staff's view of one product: effective and stored values, and the ids of its variants. */
export const ProductDetail = v.object({
  product: ProductView,
  own: ProductView,
  variantIds: v.array(Uuid),
});
export type ProductDetail = v.InferOutput<typeof ProductDetail>;

export function productDetail(
  own: ProductRow,
  parent: ProductRow | null,
  variantIds: readonly string[],
): ProductDetail {
  return {
    product: productView(effectiveProduct(own, parent)),
    own: productView(own),
    variantIds: [...variantIds],
  };
}

/**
 * The product as the storefront sells it (a variant's gaps filled from its parent), or null when
 * it does not exist or is inactive. `lock` holds the product's own row until the transaction ends.
 */
export async function findProductOnSale(
  tx: Executor,
  tenantId: string,
  id: string,
  lock?: RowLock,
): Promise<ProductRow | null> {
  const own = await findProduct(tx, tenantId, id, lock);
  const parent = own?.parentId ? ((await findProduct(tx, tenantId, own.parentId)) ?? null) : null;
  const product = own ? effectiveProduct(own, parent) : null;
  return product && product.active !== false ? product : null;
}
