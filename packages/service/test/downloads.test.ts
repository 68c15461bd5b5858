import { randomBytes } from 'node:crypto';
import { type Database, listChannels, listEvents } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  createServices,
  createShop,
  type FileContent,
  invokeOperation,
  invokeStoreOperation,
  type Principal,
  type Services,
  type Storefront,
  type StoreOperation,
  setDownloadAccess,
} from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestOrder } from '../src/testing.ts';
import { apiPrincipal, operationNamed, principalOf, successOf, testActor } from './principals.ts';

let database: Database;
let services: Services;
let owner: Principal;
let tenantId: string;
let other: Principal;
let storefront: Storefront;

const call = (name: string, input: unknown, principal = owner) =>
  invokeOperation(services, operationNamed(name), principal, input);
const store = (name: string, input: unknown, contextToken?: string) =>
  invokeStoreOperation(
    services,
    operationNamed(name) as StoreOperation,
    { ...storefront, contextToken },
    input,
  );

interface Asset {
  id: string;
  productId: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
}
interface Entitlement {
  id: string;
  assetId: string;
  productId: string;
  customerId: string | null;
  grantedAt: string | null;
  revokedAt: string | null;
  downloads: number;
}

let productCount = 0;
async function createProduct(principal = owner): Promise<string> {
  productCount += 1;
  const id = services.ids.next();
  const input = { id, sku: `DL-${productCount}`, translations: { en: { name: `Download ${productCount}` } } };
  successOf(await call('catalog.products.create', input, principal));
  return id;
}

async function upload(productId: string, bytes: Uint8Array, fileName = 'book.epub'): Promise<Asset> {
  const created = await call('catalog.assets.create', {
    productId,
    fileName,
    contentType: 'application/epub+zip',
    contentBase64: Buffer.from(bytes).toString('base64'),
  });
  return successOf(created) as Asset;
}

/** A registered customer of the main channel and the context token of their login. */
async function customer(email: string): Promise<{ id: string; contextToken: string }> {
  const registered = successOf(
    await store('store.account.register', {
      email,
      password: 'correct horse battery',
      firstName: 'Erika',
      lastName: 'Mustermann',
    }),
  ) as { contextToken: string; customer: { id: string } };
  return { id: registered.customer.id, contextToken: registered.contextToken };
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const shop = await createShop(services, { name: 'Downloads shop', ownerEmail: 'owner@downloads.test' });
  tenantId = shop.tenantId;
  owner = await principalOf(services, shop.token);
  const [main] = await listChannels(database.db, tenantId);
  storefront = { tenantId, channelId: main!.id, contextToken: undefined };
  const otherShop = await createShop(services, { name: 'Other shop', ownerEmail: 'owner@other.test' });
  other = await principalOf(services, otherShop.token);
});
afterAll(async () => database?.close());

describe('product assets', () => {
  it('stores a file of a product, lists it and deletes it', async () => {
    const productId = await createProduct();
    const bytes = new Uint8Array(randomBytes(3000));
    const asset = await upload(productId, bytes, 'Handbuch – Ausgabe 2.epub');
    expect(asset).toMatchObject({
      productId,
      fileName: 'Handbuch – Ausgabe 2.epub',
      contentType: 'application/epub+zip',
      size: 3000,
    });
    const listed = successOf(await call('catalog.assets.list', { productId })) as { items: Asset[] };
    expect(listed.items).toEqual([asset]);
    expect(successOf(await call('catalog.assets.delete', { productId, assetId: asset.id }))).toEqual({
      id: asset.id,
      deleted: true,
    });
    expect(successOf(await call('catalog.assets.list', { productId }))).toEqual({ items: [] });
    const names = (await listEvents(database.db, tenantId, { limit: 100 })).map((event) => event.name);
    expect(names).toEqual(expect.arrayContaining(['catalog.asset.created', 'catalog.asset.deleted']));
  });

  it('needs an existing product of the shop', async () => {
    const productId = await createProduct();
    const bytes = Buffer.from('x').toString('base64');
    const input = { productId, fileName: 'a.txt', contentType: 'text/plain', contentBase64: bytes };
    expect(await call('catalog.assets.create', input, other)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await call('catalog.assets.list', { productId }, other)).toMatchObject({ code: 'NOT_FOUND' });
    const missing = { ...input, productId: services.ids.next() };
    expect(await call('catalog.assets.create', missing)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('validates the file name, media type and base64 content with pointers', async () => {
    const productId = await createProduct();
    const result = await call('catalog.assets.create', {
      productId,
      fileName: '../etc/passwd',
      contentType: 'not a type\r\nx: y',
      contentBase64: 'not base64!',
    });
    if (result.ok) throw new Error('expected a validation failure');
    expect(result.code).toBe('VALIDATION_FAILED');
    expect(result.errors?.map((error) => error.pointer).sort()).toEqual([
      '/contentBase64',
      '/contentType',
      '/fileName',
    ]);
    const empty = await call('catalog.assets.create', {
      productId,
      fileName: 'empty.txt',
      contentType: 'text/plain',
      contentBase64: '',
    });
    expect(empty).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/contentBase64' }] });
  });

  it('accepts 8 MiB and refuses one byte more', async () => {
    const productId = await createProduct();
    const limit = 8 * 1024 * 1024;
    const asset = await upload(productId, new Uint8Array(limit).fill(7));
    expect(asset.size).toBe(limit);
    const tooLarge = await call('catalog.assets.create', {
      productId,
      fileName: 'big.bin',
      contentType: 'application/octet-stream',
      contentBase64: Buffer.alloc(limit + 1).toString('base64'),
    });
    expect(tooLarge).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', errors: [{ pointer: '/contentBase64' }] });
  });

  it('holds at most 50 files per product', async () => {
    const productId = await createProduct();
    for (let index = 0; index < 50; index++)
      await upload(productId, new Uint8Array([index]), `file-${index}.bin`);
    const refused = await call('catalog.assets.create', {
      productId,
      fileName: 'one-more.bin',
      contentType: 'application/octet-stream',
      contentBase64: 'AA==',
    });
    expect(refused).toMatchObject({ code: 'CONFLICT', extensions: { limit: 50 } });
    const listed = successOf(await call('catalog.assets.list', { productId })) as { items: Asset[] };
    expect(listed.items).toHaveLength(50);
  });

  it('needs catalog.read and catalog.write', async () => {
    const reader = await apiPrincipal(services, tenantId, 'reader');
    const productId = await createProduct();
    expect((await call('catalog.assets.list', { productId }, reader)).ok).toBe(true);
    const input = { productId, fileName: 'a.txt', contentType: 'text/plain', contentBase64: 'AA==' };
    expect(await call('catalog.assets.create', input, reader)).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('download access', () => {
  it('grants every file of every ordered product to the order’s customer, once', async () => {
    const [book, mug, unordered] = [await createProduct(), await createProduct(), await createProduct()];
    const [chapter1, chapter2] = [await upload(book, randomBytes(10)), await upload(book, randomBytes(20))];
    const poster = await upload(mug, randomBytes(30));
    await upload(unordered, randomBytes(40));
    const buyer = await customer('grant@downloads.test');
    const order = await insertTestOrder(services, tenantId, {
      customerId: buyer.id,
      productIds: [book, mug],
    });

    const granted = successOf(await call('orders.downloads.set', { orderId: order.id, value: true })) as {
      items: Entitlement[];
    };
    expect(granted.items.map((item) => item.assetId).sort()).toEqual(
      [chapter1.id, chapter2.id, poster.id].sort(),
    );
    for (const item of granted.items) {
      expect(item).toMatchObject({ customerId: buyer.id, revokedAt: null, downloads: 0 });
      expect(item.grantedAt).not.toBeNull();
    }
    const again = successOf(await call('orders.downloads.set', { orderId: order.id, value: true }));
    expect(again).toEqual(granted);
    const events = await listEvents(database.db, tenantId, { name: 'downloads.granted', limit: 100 });
    expect(
      events.filter((event) => (event.payload as { orderId: string }).orderId === order.id),
    ).toHaveLength(1);
    expect(successOf(await call('orders.downloads.list', { orderId: order.id }))).toEqual(granted);
  });

  it('revokes all of an order’s entitlements and grants them again', async () => {
    const book = await createProduct();
    await upload(book, randomBytes(10));
    const order = await insertTestOrder(services, tenantId, { productIds: [book, book] });
    const granted = await database.transaction((tx) =>
      setDownloadAccess(tx, services, tenantId, order.id, true, testActor),
    );
    expect(successOf(granted)).toHaveLength(1);
    const revoked = successOf(await call('orders.downloads.set', { orderId: order.id, value: false })) as {
      items: Entitlement[];
    };
    expect(revoked.items[0]?.revokedAt).not.toBeNull();
    const regranted = successOf(await call('orders.downloads.set', { orderId: order.id, value: true })) as {
      items: Entitlement[];
    };
    expect(regranted.items.map((item) => [item.id, item.revokedAt])).toEqual([[revoked.items[0]!.id, null]]);
    const names = (await listEvents(database.db, tenantId, { limit: 1000 }))
      .filter((event) => (event.payload as { orderId?: string }).orderId === order.id)
      .map((event) => event.name);
    expect(names).toEqual(['downloads.granted', 'downloads.revoked', 'downloads.granted']);
  });

  it('refuses to delete a file while an order is entitled to it', async () => {
    const book = await createProduct();
    const asset = await upload(book, randomBytes(10));
    const order = await insertTestOrder(services, tenantId, { productIds: [book, book] });
    successOf(await call('orders.downloads.set', { orderId: order.id, value: true }));
    const refused = await call('catalog.assets.delete', { productId: book, assetId: asset.id });
    expect(refused).toMatchObject({ code: 'REFERENCED', extensions: { entitlements: 1 } });
    successOf(await call('orders.downloads.set', { orderId: order.id, value: false }));
    // A revoked entitlement can be granted again, so it still needs the file.
    expect(await call('catalog.assets.delete', { productId: book, assetId: asset.id })).toMatchObject({
      code: 'REFERENCED',
    });
  });

  it('hides another shop’s orders', async () => {
    const order = await insertTestOrder(services, tenantId);
    expect(await call('orders.downloads.set', { orderId: order.id, value: true }, other)).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await call('orders.downloads.list', { orderId: order.id }, other)).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('the storefront download', () => {
  async function entitledOrder(paymentState: string) {
    const book = await createProduct();
    const bytes = new Uint8Array(randomBytes(5000));
    await upload(book, bytes, 'handbook.epub');
    const buyer = await customer(`buyer-${services.ids.next()}@downloads.test`);
    const order = await insertTestOrder(services, tenantId, {
      customerId: buyer.id,
      paymentState,
      productIds: [book, book],
    });
    const granted = successOf(await call('orders.downloads.set', { orderId: order.id, value: true })) as {
      items: Entitlement[];
    };
    return { buyer, order, bytes, entitlement: granted.items[0]! };
  }

  it('answers the file to the order’s logged-in customer of a paid order and counts it', async () => {
    const { buyer, order, bytes, entitlement } = await entitledOrder('paid');
    const result = await store('store.downloads.get', { entitlementId: entitlement.id }, buyer.contextToken);
    const file = successOf(result) as FileContent;
    expect(file.fileName).toBe('handbook.epub');
    expect(file.contentType).toBe('application/epub+zip');
    expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);
    successOf(await store('store.downloads.get', { entitlementId: entitlement.id }, buyer.contextToken));
    const listed = successOf(await call('orders.downloads.list', { orderId: order.id })) as {
      items: Entitlement[];
    };
    expect(listed.items[0]?.downloads).toBe(2);
  });

  it('needs a logged-in context first', async () => {
    const { entitlement } = await entitledOrder('paid');
    const guest = successOf(await store('store.context.create', {})) as { contextToken: string };
    for (const token of [undefined, 'not-a-token', guest.contextToken]) {
      const result = await store('store.downloads.get', { entitlementId: entitlement.id }, token);
      expect(result).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    }
  });

  it('answers NOT_FOUND to another customer, even before the payment check', async () => {
    const { entitlement } = await entitledOrder('open');
    const stranger = await customer('stranger@downloads.test');
    const result = await store(
      'store.downloads.get',
      { entitlementId: entitlement.id },
      stranger.contextToken,
    );
    expect(result).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('refuses revoked access, then an unpaid order, in that order', async () => {
    const { buyer, order, entitlement } = await entitledOrder('open');
    successOf(await call('orders.downloads.set', { orderId: order.id, value: false }));
    const revoked = await store('store.downloads.get', { entitlementId: entitlement.id }, buyer.contextToken);
    expect(revoked).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    successOf(await call('orders.downloads.set', { orderId: order.id, value: true }));
    const unpaid = await store('store.downloads.get', { entitlementId: entitlement.id }, buyer.contextToken);
    expect(unpaid).toMatchObject({ ok: false, code: 'PAYMENT_REQUIRED' });
    const listed = successOf(await call('orders.downloads.list', { orderId: order.id })) as {
      items: Entitlement[];
    };
    expect(listed.items[0]?.downloads).toBe(0);
  });
});
