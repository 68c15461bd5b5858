import {
  basisTables,
  deleteProduct,
  type Executor,
  findCategoryIds,
  findChannelIds,
  findProduct,
  findProductBySku,
  findReferences,
  findRevisioned,
  insertProduct,
  listMediaAssets,
  listProductAssets,
  listProductReviewIds,
  listProducts,
  listVariants,
  lockTransaction,
  type ProductFields,
  type ProductRow,
  updateProduct,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { type Failure, type FieldError, fail, ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { Amount, Count, CurrencyCode, Limit, Revision, TranslationsOf, Uuid } from '../kernel/schemas.ts';
import { publishStagedGalleryEntries } from '../media/gallery.ts';
import { currenciesExist } from '../settings/currencies.ts';
import { refuseDisabledLanguages, translationLanguages } from '../settings/languages.ts';
import { categoryOperations } from './categories.operations.ts';
import {
  effectiveProduct,
  FLAG_NAMES,
  ProductDetail,
  ProductView,
  ProductVisibility,
  productDetail,
  productView,
  TRANSLATED_FIELDS,
} from './product-view.ts';
import { saveRuleMetadata } from './rule-metadata.operations.ts';
import { missingMainLanguageName } from './translations.ts';

// Products and their variants (one level: a variant's parent is never a variant). A variant stores
// only what differs from its parent; null means "inherit". A parent has no gaps: null written to
// one of its fields resets it to the default below.

const Sku = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100));
const Key = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Label = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));

function hasOneEntryPerCurrency(prices: readonly { currency: string }[]): boolean {
  return new Set(prices.map((price) => price.currency)).size === prices.length;
}

const Prices = v.pipe(
  v.array(
    v.object({
      currency: CurrencyCode,
      gross: Amount,
      net: Amount,
      listGross: v.optional(v.nullable(Amount)),
      listNet: v.optional(v.nullable(Amount)),
    }),
  ),
  v.check((prices) => hasOneEntryPerCurrency(prices), 'one entry per currency'),
);
const PurchasePrices = v.pipe(
  v.array(v.object({ currency: CurrencyCode, gross: Amount, net: Amount })),
  v.check((prices) => hasOneEntryPerCurrency(prices), 'one entry per currency'),
);
const Tags = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  v.transform((tags) => [...new Set(tags)]),
);

function isCalendarDate(date: string): boolean {
  const time = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === date;
}

const ReleaseDate = v.pipe(
  v.string(),
  v.maxLength(10, 'expected a date such as 2025-03-01'),
  v.isoDate('expected a date such as 2025-03-01'),
  v.check(isCalendarDate, 'no such calendar date'),
);
const Flag = v.optional(v.nullable(v.boolean()));
const Flags = v.strictObject({ new: Flag, closeout: Flag, topseller: Flag, shippingFree: Flag });

/** Absent: unchanged (on create: the default); null: inherit (variant) or reset (parent). */
function nullable<T extends v.GenericSchema>(schema: T) {
  return v.optional(v.nullable(schema));
}

const ProductBody = {
  active: nullable(v.boolean()),
  translations: nullable(TranslationsOf(TRANSLATED_FIELDS)),
  prices: nullable(Prices),
  purchasePrices: nullable(PurchasePrices),
  taxClassId: nullable(Uuid),
  /** The variant's own (never inherited); reserved stock belongs to checkout. */
  stockAvailable: v.optional(Count),
  weightGrams: nullable(Count),
  widthMm: nullable(Count),
  heightMm: nullable(Count),
  lengthMm: nullable(Count),
  manufacturer: nullable(Label),
  categoryIds: nullable(v.array(Uuid)),
  tags: nullable(Tags),
  properties: nullable(v.record(Key, v.pipe(v.string(), v.maxLength(1000)))),
  options: nullable(v.record(Key, Label)),
  releaseDate: nullable(ReleaseDate),
  flags: nullable(Flags),
  customFields: nullable(v.record(Key, v.unknown())),
  /** Per sales channel id (decision 0030); a product without an entry shows as `all`. Parents only. */
  visibilities: nullable(v.record(Uuid, ProductVisibility)),
};

type ProductBody = v.InferOutput<v.ObjectSchema<typeof ProductBody, undefined>> & { sku?: string };

/** What a parent holds where the caller gave nothing (or null). */
const PARENT_DEFAULTS = {
  active: true,
  prices: [],
  purchasePrices: [],
  categoryIds: [],
  tags: [],
  properties: {},
  customFields: {},
  flags: { new: false, closeout: false, topseller: false, shippingFree: false },
} satisfies Partial<ProductFields>;

type StoredChanges = Partial<Omit<ProductFields, 'id' | 'parentId'>>;

/** The column values a write sets: given fields only; a parent's nulls become its defaults. */
function storedChanges(body: ProductBody, isVariant: boolean): StoredChanges {
  const changes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const reset = isVariant ? null : (PARENT_DEFAULTS[field as keyof typeof PARENT_DEFAULTS] ?? null);
    changes[field] = value === null ? reset : value;
  }
  if (body.categoryIds) {
    // Deduplicated when stored, not when parsed, so error pointers index the list as sent.
    changes.categoryIds = [...new Set(body.categoryIds)];
  }
  if (!isVariant && body.flags) {
    // A parent's flag is true or false; a variant's null flag inherits the parent's.
    changes.flags = Object.fromEntries(FLAG_NAMES.map((flag) => [flag, body.flags?.[flag] ?? false]));
  }
  return changes as StoredChanges;
}

function sameOptions(a: Readonly<Record<string, string>> | null, b: Readonly<Record<string, string>>) {
  if (!a) return false;
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((key) => a[key] === b[key]);
}

interface ProductWrite {
  readonly id: string;
  /** What the caller sent (only these fields are checked against the shop). */
  readonly body: ProductBody;
  /** The record as it will be stored. */
  readonly record: Pick<ProductRow, 'options' | 'translations'>;
  /** The variant's parent, locked when `body.options` is set; null for a parent. */
  readonly parent: ProductRow | null;
  readonly creating: boolean;
}

/** The shop-dependent rules of a product write, beyond its schema; null when it may be stored. */
async function checkProduct(tx: Executor, tenantId: string, write: ProductWrite): Promise<Failure | null> {
  const { body, record, parent } = write;
  const languages = translationLanguages(body.translations, ['translations']);
  const refused = await refuseDisabledLanguages(tx, { tenantId }, languages);
  if (refused) return refused;
  const errors: FieldError[] = [];
  if (parent) {
    if (!record.options || Object.keys(record.options).length === 0) {
      errors.push({ pointer: '/options', message: 'a variant needs options that tell it from its siblings' });
    }
    if (body.visibilities) {
      errors.push({ pointer: '/visibilities', message: 'a variant follows its parent; set it there' });
    }
  } else {
    if (body.options) errors.push({ pointer: '/options', message: 'only variants have options' });
    if (write.creating || body.translations !== undefined) {
      const missing = await missingMainLanguageName(tx, tenantId, record.translations);
      if (missing) errors.push(missing);
    }
  }
  const currencies = [
    body.prices ? await currenciesExist(tx, tenantId, currencyCodes(body.prices), '/prices') : null,
    body.purchasePrices
      ? await currenciesExist(tx, tenantId, currencyCodes(body.purchasePrices), '/purchasePrices')
      : null,
  ];
  for (const unknown of currencies) errors.push(...(unknown?.errors ?? []));
  // Rows named here stay locked FOR SHARE, so they cannot be deleted before this write commits.
  if (
    body.taxClassId &&
    !(await findRevisioned(tx, basisTables.taxClasses, tenantId, body.taxClassId, 'share'))
  ) {
    errors.push({ pointer: '/taxClassId', message: 'no such tax class in this shop' });
  }
  if (body.categoryIds && body.categoryIds.length > 0) {
    const found = new Set(await findCategoryIds(tx, tenantId, body.categoryIds, 'share'));
    for (const [index, categoryId] of body.categoryIds.entries()) {
      if (!found.has(categoryId)) {
        errors.push({ pointer: `/categoryIds/${index}`, message: 'no such category in this shop' });
      }
    }
  }
  const channelIds = Object.keys(body.visibilities ?? {});
  if (channelIds.length > 0) {
    // Held FOR SHARE like the categories: a channel delete (which counts these entries) waits.
    const found = new Set(await findChannelIds(tx, tenantId, channelIds, 'share'));
    for (const channelId of channelIds.filter((id) => !found.has(id))) {
      errors.push({ pointer: `/visibilities/${channelId}`, message: 'no such sales channel in this shop' });
    }
  }
  if (errors.length > 0) {
    return fail('VALIDATION_FAILED', 'The product does not fit this shop.', { errors });
  }
  if (body.sku !== undefined) {
    // Serialises writers of one SKU, so the check below sees any that committed first.
    await lockTransaction(tx, `catalog.sku:${tenantId}:${body.sku.toLowerCase()}`);
    const holder = await findProductBySku(tx, tenantId, body.sku, write.id);
    if (holder) {
      return fail('SKU_TAKEN', `The SKU ${body.sku} belongs to another product of this shop.`, {
        errors: [{ pointer: '/sku', message: 'taken (SKUs are compared case-insensitively)' }],
        extensions: { productId: holder.id },
      });
    }
  }
  if (parent && body.options) {
    const options = body.options;
    const twin = (await listVariants(tx, tenantId, parent.id)).find(
      (sibling) => sibling.id !== write.id && sameOptions(sibling.options, options),
    );
    if (twin) {
      return fail('CONFLICT', 'Another variant of this product has the same options.', {
        errors: [{ pointer: '/options', message: 'the same as a sibling variant' }],
        extensions: { productId: twin.id },
      });
    }
  }
  return null;
}

function currencyCodes(prices: readonly { currency: string }[]): string[] {
  return prices.map((price) => price.currency);
}

const ProductId = v.object({ id: Uuid });

export const listCatalogProducts = defineOperation({
  name: 'catalog.products.list',
  summary:
    'Products by id, as they sell (a variant’s gaps filled from its parent). `kind` is `parent` unless asked, or `variant` with `parentId`; filters match the effective values.',
  http: { method: 'GET', path: '/api/catalog/products' },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({
    limit: Limit,
    after: v.optional(Uuid),
    search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
    sku: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    parentId: v.optional(Uuid),
    active: v.optional(v.boolean()),
    tag: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    categoryId: v.optional(Uuid),
    kind: v.optional(v.picklist(['parent', 'variant', 'all'])),
  }),
  output: v.object({ items: v.array(ProductView), next: v.nullable(Uuid) }),
  async handler({ services, tenantId }, input) {
    const { limit, kind, ...filters } = input;
    const rows = await listProducts(services.database.db, tenantId, {
      ...filters,
      kind: kind ?? (input.parentId ? 'variant' : 'parent'),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return ok({
      items: page.map(({ product, parent }) => productView(effectiveProduct(product, parent))),
      next: rows.length > limit ? page.at(-1)!.product.id : null,
    });
  },
});

export const getCatalogProduct = defineOperation({
  name: 'catalog.products.get',
  summary: 'One product: effective values, stored values (a variant’s nulls inherit) and its variants.',
  http: { method: 'GET', path: '/api/catalog/products/:id' },
  permission: 'catalog.read',
  readOnly: true,
  input: ProductId,
  output: ProductDetail,
  async handler({ services, tenantId }, input) {
    return services.database.transaction(async (tx) => {
      const product = await findProduct(tx, tenantId, input.id);
      if (!product) return fail('NOT_FOUND', `No product ${input.id} exists in this shop.`);
      const parent = product.parentId ? ((await findProduct(tx, tenantId, product.parentId)) ?? null) : null;
      const variants = product.parentId ? [] : await listVariants(tx, tenantId, product.id);
      return ok(
        productDetail(
          product,
          parent,
          variants.map((variant) => variant.id),
        ),
      );
    });
  },
});

export const createCatalogProduct = defineOperation({
  name: 'catalog.products.create',
  summary:
    'Creates a product, or with `parentId` a variant of one (a variant needs `options`; its absent or null fields inherit).',
  http: { method: 'POST', path: '/api/catalog/products', status: 201 },
  permission: 'catalog.write',
  readOnly: false,
  input: v.strictObject({ id: v.optional(Uuid), parentId: nullable(Uuid), sku: Sku, ...ProductBody }),
  output: ProductDetail,
  async handler({ services, tenantId, principal }, input) {
    const { id: requestedId, parentId, ...body } = input;
    const id = requestedId ?? services.ids.next();
    return services.database.transaction(async (tx) => {
      // The parent stays locked: its variants' options are compared, and it cannot be deleted meanwhile.
      const parent = parentId ? ((await findProduct(tx, tenantId, parentId, 'update')) ?? null) : null;
      if (parentId && !parent) {
        return fail('VALIDATION_FAILED', 'The parent product does not exist in this shop.', {
          errors: [{ pointer: '/parentId', message: 'no such product in this shop' }],
        });
      }
      if (parent?.parentId) {
        return fail('VALIDATION_FAILED', 'A variant cannot have variants of its own.', {
          errors: [{ pointer: '/parentId', message: 'is a variant; name its parent instead' }],
        });
      }
      const fields: ProductFields = {
        ...(parent ? {} : PARENT_DEFAULTS),
        ...storedChanges(body, parent !== null),
        id,
        parentId: parent?.id ?? null,
        sku: body.sku,
      };
      const refused = await checkProduct(tx, tenantId, {
        id,
        body,
        record: { options: fields.options ?? null, translations: fields.translations ?? null },
        parent,
        creating: true,
      });
      if (refused) return refused;
      const row = await insertProduct(tx, tenantId, fields, services.clock.now());
      if (!row) {
        return fail('CONFLICT', `A product with the id ${id} exists already.`, {
          errors: [{ pointer: '/id', message: 'taken' }],
        });
      }
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.product.created', {
        productId: id,
        revision: row.revision,
      });
      return ok(productDetail(row, parent, []));
    });
  },
});

export const updateCatalogProduct = defineOperation({
  name: 'catalog.products.update',
  summary:
    'Changes the given fields of a product at its stored revision; null clears a field (a variant inherits it again). Reserved stock is never set here.',
  http: { method: 'PATCH', path: '/api/catalog/products/:id' },
  permission: 'catalog.write',
  readOnly: false,
  input: v.strictObject({
    id: Uuid,
    revision: Revision,
    parentId: nullable(Uuid),
    sku: v.optional(Sku),
    ...ProductBody,
  }),
  output: ProductDetail,
  async handler({ services, tenantId, principal }, input) {
    const { id, revision, parentId, ...body } = input;
    return services.database.transaction(async (tx) => {
      const current = await findProduct(tx, tenantId, id, 'update');
      if (!current) return fail('NOT_FOUND', `No product ${id} exists in this shop.`);
      if (current.revision !== revision) return staleRevision(revision, current.revision);
      if (parentId !== undefined && parentId !== current.parentId) {
        return fail('VALIDATION_FAILED', 'A product cannot move between parents or become a variant.', {
          errors: [{ pointer: '/parentId', message: 'fixed at creation; create a new product instead' }],
        });
      }
      const parent = current.parentId
        ? ((await findProduct(tx, tenantId, current.parentId, body.options ? 'update' : undefined)) ?? null)
        : null;
      const changes = storedChanges(body, parent !== null);
      const record = { ...current, ...changes };
      const refused = await checkProduct(tx, tenantId, { id, body, record, parent, creating: false });
      if (refused) return refused;
      const row = await updateProduct(tx, tenantId, id, revision, changes, services.clock.now());
      if (!row) return staleRevision(revision, current.revision);
      // The save is what makes images staged by applied image drafts public (decision 0043).
      await publishStagedGalleryEntries(tx, services, tenantId, id);
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.product.updated', {
        productId: id,
        revision: row.revision,
      });
      const variants = parent ? [] : await listVariants(tx, tenantId, id);
      return ok(
        productDetail(
          row,
          parent,
          variants.map((variant) => variant.id),
        ),
      );
    });
  },
});

export const deleteCatalogProduct = defineOperation({
  name: 'catalog.products.delete',
  summary:
    'Deletes a product at its stored revision; refused while it has variants, downloadable files, images, reviews or reserved stock, or a rule, flow or promotion names it.',
  http: { method: 'DELETE', path: '/api/catalog/products/:id' },
  permission: 'catalog.write',
  readOnly: false,
  input: v.strictObject({ id: Uuid, revision: Revision }),
  output: v.object({ id: Uuid, deleted: v.literal(true) }),
  async handler({ services, tenantId, principal }, input) {
    const { id, revision } = input;
    return services.database.transaction(async (tx) => {
      // Locked first: a variant being created waits for this lock, so none slips past the check.
      const current = await findProduct(tx, tenantId, id, 'update');
      if (!current) return fail('NOT_FOUND', `No product ${id} exists in this shop.`);
      if (current.revision !== revision) return staleRevision(revision, current.revision);
      // Uploads and new reviews lock this row too, so none appears between this check and the delete.
      const references = [
        ...(await listVariants(tx, tenantId, id)).map((variant) => ({ kind: 'variant', id: variant.id })),
        ...(await findReferences(tx, tenantId, id)),
        ...(await listProductAssets(tx, tenantId, id)).map((asset) => ({ kind: 'asset', id: asset.id })),
        ...(await listMediaAssets(tx, tenantId, id)).map((image) => ({ kind: 'image', id: image.id })),
        ...(await listProductReviewIds(tx, tenantId, id, 100)).map((reviewId) => ({
          kind: 'review',
          id: reviewId,
        })),
      ];
      if (references.length > 0 || current.stockReserved > 0) {
        const kinds = [...new Set(references.map((reference) => reference.kind))];
        const reasons = [
          references.length > 0 ? `it is still referenced (${kinds.join(', ')})` : null,
          current.stockReserved > 0 ? `${current.stockReserved} units are reserved for orders` : null,
        ].filter((reason) => reason !== null);
        return fail(
          'REFERENCED',
          `The product cannot be deleted: ${reasons.join('; ')}. Deactivate it instead.`,
          {
            extensions: { references, stockReserved: current.stockReserved },
          },
        );
      }
      if (!(await deleteProduct(tx, tenantId, id, revision)))
        return staleRevision(revision, current.revision);
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.product.deleted', {
        productId: id,
        revision,
      });
      return ok({ id, deleted: true as const });
    });
  },
});

/** The catalog's admin operations: products, categories, and rule metadata of entities. */
export const catalogOperations: readonly AnyOperation[] = [
  listCatalogProducts,
  getCatalogProduct,
  createCatalogProduct,
  updateCatalogProduct,
  deleteCatalogProduct,
  ...categoryOperations,
  saveRuleMetadata,
];
