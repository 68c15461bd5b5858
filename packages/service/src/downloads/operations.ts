import {
  type AssetWithFile,
  countAssetEntitlements,
  countDownload,
  countProductAssets,
  deleteAsset,
  type EntitlementWithAsset,
  findAsset,
  findEntitlement,
  findOrder,
  findProduct,
  insertAsset,
  listOrderEntitlements,
  listProductAssets,
} from '@cartwright/repository';
import * as v from 'valibot';
import { resolveStoreContext } from '../customers/contexts.ts';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { defineOperation, defineStoreOperation, FileContent } from '../kernel/registry.ts';
import { Base64Of, iso, NullableTimestamp, Timestamp, Uuid } from '../kernel/schemas.ts';
import { noOrder, setDownloadAccess } from './access.ts';

/** The largest downloadable file (decoded bytes). */
export const MAX_ASSET_BYTES = 8 * 1024 * 1024;
/** Assets per product (spec limits). */
export const MAX_ASSETS_PER_PRODUCT = 50;
// Base64 grows the file by a third; the JSON around it is small.
const ASSET_BODY_LIMIT = Math.ceil((MAX_ASSET_BYTES * 4) / 3) + 64 * 1024;

const FileName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(255),
  v.regex(/^[^/\\"\p{Cc}]+$/u, 'must not contain /, \\, " or control characters'),
);
const MediaType = v.pipe(
  v.string(),
  v.maxLength(200),
  v.regex(
    /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(\s*;\s*[\w!#$&^.+-]+=("[^"\p{Cc}]*"|[\w!#$&^.+-]+))*$/u,
    'expected a media type such as application/pdf',
  ),
);

// valibot's base64 pattern overflows the regex stack on megabytes; this one is linear. Its
// maxLength (the base64 of MAX_ASSET_BYTES) is what lets it past the input policy's 1 MiB default.
const Base64 = Base64Of(MAX_ASSET_BYTES, {
  empty: 'the file must not be empty',
  tooLarge: 'decodes to more than 8 MiB',
});

const Asset = v.object({
  id: Uuid,
  productId: Uuid,
  fileName: v.string(),
  contentType: v.string(),
  size: v.number(),
  sha256: v.string(),
  createdAt: Timestamp,
});
type Asset = v.InferOutput<typeof Asset>;

function assetView(row: AssetWithFile): Asset {
  return {
    id: row.id,
    productId: row.productId,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    sha256: row.sha256,
    createdAt: iso(row.createdAt),
  };
}

const Entitlement = v.object({
  id: Uuid,
  orderId: Uuid,
  customerId: v.nullable(Uuid),
  assetId: Uuid,
  productId: Uuid,
  fileName: v.string(),
  grantedAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  downloads: v.number(),
  createdAt: Timestamp,
});
type Entitlement = v.InferOutput<typeof Entitlement>;

function entitlementView(row: EntitlementWithAsset): Entitlement {
  return {
    id: row.id,
    orderId: row.orderId,
    customerId: row.customerId,
    assetId: row.assetId,
    productId: row.productId,
    fileName: row.fileName,
    grantedAt: iso(row.grantedAt),
    revokedAt: iso(row.revokedAt),
    downloads: row.downloads,
    createdAt: iso(row.createdAt),
  };
}

const noProduct = () => fail('NOT_FOUND', 'No such product exists in this shop.');

export const createProductAsset = defineOperation({
  name: 'catalog.assets.create',
  summary: `Uploads a downloadable file of a product (base64, at most 8 MiB; at most ${MAX_ASSETS_PER_PRODUCT} per product).`,
  http: {
    method: 'POST',
    path: '/api/catalog/products/:productId/assets',
    status: 201,
    bodyLimitBytes: ASSET_BODY_LIMIT,
  },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({
    productId: Uuid,
    fileName: FileName,
    contentType: MediaType,
    contentBase64: Base64,
  }),
  output: Asset,
  async handler({ services, tenantId, principal }, input) {
    const bytes = new Uint8Array(Buffer.from(input.contentBase64, 'base64'));
    if (bytes.byteLength > MAX_ASSET_BYTES) {
      return fail('PAYLOAD_TOO_LARGE', 'A downloadable file may hold at most 8 MiB.', {
        errors: [
          { pointer: '/contentBase64', message: `decodes to ${bytes.byteLength} bytes, more than 8 MiB` },
        ],
      });
    }
    return services.database.transaction(async (tx) => {
      // The product row lock serialises uploads to one product, so the count below stays true.
      if (!(await findProduct(tx, tenantId, input.productId, 'update'))) return noProduct();
      if ((await countProductAssets(tx, tenantId, input.productId)) >= MAX_ASSETS_PER_PRODUCT) {
        return fail('CONFLICT', `A product has at most ${MAX_ASSETS_PER_PRODUCT} downloadable files.`, {
          extensions: { limit: MAX_ASSETS_PER_PRODUCT },
        });
      }
      const blob = await services.blobs.put(tx, tenantId, { bytes, contentType: input.contentType });
      const now = services.clock.now();
      const asset = await insertAsset(tx, {
        tenantId,
        id: services.ids.next(),
        productId: input.productId,
        blobId: blob.id,
        fileName: input.fileName,
        createdAt: now,
        updatedAt: now,
      });
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.asset.created', {
        assetId: asset.id,
        productId: asset.productId,
        size: blob.size,
      });
      return ok(
        assetView({ ...asset, size: blob.size, sha256: blob.sha256, contentType: input.contentType }),
      );
    });
  },
});

export const listProductAssetsOperation = defineOperation({
  name: 'catalog.assets.list',
  summary: 'The downloadable files of a product, oldest first.',
  http: { method: 'GET', path: '/api/catalog/products/:productId/assets' },
  permission: 'catalog.read',
  readOnly: true,
  input: v.object({ productId: Uuid }),
  output: v.object({ items: v.array(Asset) }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    if (!(await findProduct(db, tenantId, input.productId))) return noProduct();
    return ok({ items: (await listProductAssets(db, tenantId, input.productId)).map(assetView) });
  },
});

export const deleteProductAsset = defineOperation({
  name: 'catalog.assets.delete',
  summary: 'Deletes a downloadable file of a product; refused while any order is entitled to it.',
  http: { method: 'DELETE', path: '/api/catalog/products/:productId/assets/:assetId' },
  permission: 'catalog.write',
  readOnly: false,
  input: v.object({ productId: Uuid, assetId: Uuid }),
  output: v.object({ id: Uuid, deleted: v.literal(true) }),
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction(async (tx) => {
      // Locked, so no grant can add an entitlement between the count and the delete.
      const asset = await findAsset(tx, tenantId, input.assetId, { forUpdate: true });
      if (!asset || asset.productId !== input.productId) {
        return fail('NOT_FOUND', 'No such file exists for this product.');
      }
      const entitlements = await countAssetEntitlements(tx, tenantId, asset.id);
      if (entitlements > 0) {
        return fail('REFERENCED', 'Orders are entitled to this file; it cannot be deleted.', {
          extensions: { entitlements },
        });
      }
      await deleteAsset(tx, tenantId, asset.id);
      await services.blobs.delete(tx, tenantId, asset.blobId);
      await recordEvent(tx, services, tenantId, actorOf(principal), 'catalog.asset.deleted', {
        assetId: asset.id,
        productId: asset.productId,
      });
      return ok({ id: asset.id, deleted: true as const });
    });
  },
});

export const setOrderDownloads = defineOperation({
  name: 'orders.downloads.set',
  summary:
    'Grants (value true) or revokes (value false) download access to the files of every ordered product.',
  http: { method: 'PUT', path: '/api/orders/:orderId/downloads' },
  permission: 'orders.write',
  readOnly: false,
  input: v.object({ orderId: Uuid, value: v.boolean() }),
  output: v.object({ items: v.array(Entitlement) }),
  async handler({ services, tenantId, principal }, input) {
    const result = await services.database.transaction((tx) =>
      setDownloadAccess(tx, services, tenantId, input.orderId, input.value, actorOf(principal)),
    );
    return result.ok ? ok({ items: result.value.map(entitlementView) }) : result;
  },
});

export const listOrderDownloads = defineOperation({
  name: 'orders.downloads.list',
  summary: 'The download entitlements of an order, with their download counts.',
  http: { method: 'GET', path: '/api/orders/:orderId/downloads' },
  permission: 'orders.read',
  readOnly: true,
  input: v.object({ orderId: Uuid }),
  output: v.object({ items: v.array(Entitlement) }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    if (!(await findOrder(db, tenantId, input.orderId))) return noOrder();
    return ok({ items: (await listOrderEntitlements(db, tenantId, input.orderId)).map(entitlementView) });
  },
});

// Counting a download writes a counter but changes nothing the caller reads: the operation stays
// a read (GET, readOnlyHint), as authentication stays one while it stamps `last_used_at`.
export const downloadStoreFile = defineStoreOperation({
  name: 'store.downloads.get',
  summary:
    'Downloads a purchased file: needs the logged-in customer of the order, granted access and a paid order.',
  http: { method: 'GET', path: '/store-api/downloads/:entitlementId' },
  readOnly: true,
  file: true,
  input: v.object({ entitlementId: Uuid }),
  output: FileContent,
  async handler({ services, storefront, tenantId }, input) {
    const context = await resolveStoreContext(services.database.db, services, storefront);
    if (!context?.customerId) {
      return fail('UNAUTHENTICATED', 'Log in first: downloads belong to a customer (x-context-token).');
    }
    return services.database.transaction(async (tx) => {
      const entitlement = await findEntitlement(tx, tenantId, input.entitlementId);
      const order = entitlement ? await findOrder(tx, tenantId, entitlement.orderId) : undefined;
      // Another customer's entitlement is answered like a missing one: its existence is not theirs to learn.
      if (!entitlement || !order || order.customerId !== context.customerId) {
        return fail('NOT_FOUND', 'No such download exists for this customer.');
      }
      if (!entitlement.grantedAt || entitlement.revokedAt) {
        return fail('FORBIDDEN', 'Download access to this file has been revoked.');
      }
      if (order.paymentState !== 'paid') {
        return fail('PAYMENT_REQUIRED', 'The order is not paid yet; the file can be downloaded once it is.');
      }
      const asset = await findAsset(tx, tenantId, entitlement.assetId);
      const blob = asset ? await services.blobs.get(tx, tenantId, asset.blobId) : null;
      if (!asset || !blob) throw new Error(`entitlement ${entitlement.id} names a missing file`);
      await countDownload(tx, tenantId, entitlement.id, services.clock.now());
      return ok({ fileName: asset.fileName, contentType: blob.contentType, bytes: blob.bytes });
    });
  },
});

export const downloadOperations = [
  createProductAsset,
  listProductAssetsOperation,
  deleteProductAsset,
  setOrderDownloads,
  listOrderDownloads,
  downloadStoreFile,
];
