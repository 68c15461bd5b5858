import { randomBytes } from 'node:crypto';
import { listChannels } from '@cartwright/repository';
import { insertTestOrder } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let channelKey: string;
let productId: string;

const MiB = 1024 * 1024;
const uploadPath = () => `/api/catalog/products/${productId}/assets`;

function upload(bytes: Uint8Array, fileName: string) {
  return h.call('POST', uploadPath(), {
    token: h.shopA.token,
    body: { fileName, contentType: 'application/pdf', contentBase64: Buffer.from(bytes).toString('base64') },
  });
}

/** A customer registered and logged in through the storefront, with their context token. */
async function register(email: string): Promise<{ customerId: string; contextToken: string }> {
  const response = await h.call('POST', '/store-api/account/register', {
    headers: { 'x-channel-key': channelKey },
    body: { email, password: 'correct horse battery', firstName: 'Erika', lastName: 'Mustermann' },
  });
  expect(response.status).toBe(201);
  const body = response.body as { contextToken: string; customer: { id: string } };
  return { customerId: body.customer.id, contextToken: body.contextToken };
}

function storeDownload(entitlementId: string, contextToken: string) {
  return h.app.request(`/store-api/downloads/${entitlementId}`, {
    headers: { 'x-channel-key': channelKey, 'x-context-token': contextToken },
  });
}

beforeAll(async () => {
  h = await createHarness();
  const [main] = await listChannels(h.database.db, h.shopA.tenantId);
  channelKey = main!.accessKey;
  const created = await h.call('POST', '/api/catalog/products', {
    token: h.shopA.token,
    body: { sku: 'EBOOK', translations: { en: { name: 'E-book' } } },
  });
  expect(created.status).toBe(201);
  productId = (created.body as { product: { id: string } }).product.id;
});
afterAll(async () => h?.close());

describe('asset uploads', () => {
  it('accept a file larger than the default body limit on the upload route only', async () => {
    const created = await upload(new Uint8Array(randomBytes(2 * MiB)), 'large.pdf');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ productId, fileName: 'large.pdf', size: 2 * MiB });
    const elsewhere = await h.call('PUT', '/api/company', {
      token: h.shopA.token,
      body: { revision: 0, data: { name: 'x'.repeat(2 * MiB) } },
    });
    expect(elsewhere.status).toBe(413);
    expect(elsewhere.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('take the largest file allowed (8 MiB) and answer 413 above the route’s own limit', async () => {
    const largest = await upload(new Uint8Array(8 * MiB).fill(255), 'largest.pdf');
    expect(largest.status).toBe(201);
    expect(largest.body.size).toBe(8 * MiB);
    const response = await upload(new Uint8Array(12 * MiB), 'huge.pdf');
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('the storefront download route', () => {
  it('sends a paid order’s file to its customer as an attachment, and 402 while unpaid', async () => {
    const bytes = new Uint8Array(randomBytes(4096));
    const asset = await upload(bytes, 'Übung “1”.pdf');
    expect(asset.status).toBe(201);
    const buyer = await register('buyer@downloads.test');
    const order = await insertTestOrder(h.services, h.shopA.tenantId, {
      customerId: buyer.customerId,
      paymentState: 'open',
      productIds: [productId, productId],
    });
    const granted = await h.call('PUT', `/api/orders/${order.id}/downloads`, {
      token: h.shopA.token,
      body: { value: true },
    });
    expect(granted.status).toBe(200);
    const entitlement = (granted.body.items as { id: string; fileName: string }[]).find(
      (item) => item.fileName === 'Übung “1”.pdf',
    )!;

    const unpaid = await storeDownload(entitlement.id, buyer.contextToken);
    expect(unpaid.status).toBe(402);
    expect(unpaid.headers.get('content-type')).toBe('application/problem+json');
    expect(await unpaid.json()).toMatchObject({ code: 'PAYMENT_REQUIRED', title: 'Payment required' });

    const paid = await insertTestOrder(h.services, h.shopA.tenantId, {
      customerId: buyer.customerId,
      paymentState: 'paid',
      productIds: [productId, productId],
    });
    const grantedPaid = await h.call('PUT', `/api/orders/${paid.id}/downloads`, {
      token: h.shopA.token,
      body: { value: true },
    });
    const paidEntitlement = (grantedPaid.body.items as { id: string; fileName: string }[]).find(
      (item) => item.fileName === 'Übung “1”.pdf',
    )!;
    const response = await storeDownload(paidEntitlement.id, buyer.contextToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="_bung _1_.pdf"; filename*=UTF-8''${encodeURIComponent('Übung “1”.pdf')}`,
    );
    expect(response.headers.get('content-length')).toBe('4096');
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    const listed = await h.call('GET', `/api/orders/${paid.id}/downloads`, { token: h.shopA.token });
    expect(
      (listed.body.items as { id: string; downloads: number }[]).find(
        (item) => item.id === paidEntitlement.id,
      ),
    ).toMatchObject({ downloads: 1 });
  });

  it('answers 401 without a logged-in context and 404 to another customer', async () => {
    const buyer = await register('owner-of-order@downloads.test');
    const stranger = await register('stranger@downloads.test');
    const order = await insertTestOrder(h.services, h.shopA.tenantId, {
      customerId: buyer.customerId,
      paymentState: 'paid',
      productIds: [productId, productId],
    });
    const granted = await h.call('PUT', `/api/orders/${order.id}/downloads`, {
      token: h.shopA.token,
      body: { value: true },
    });
    const [entitlement] = granted.body.items as { id: string }[];
    expect((await storeDownload(entitlement!.id, 'x'.repeat(43))).status).toBe(401);
    expect((await storeDownload(entitlement!.id, stranger.contextToken)).status).toBe(404);
  });
});
