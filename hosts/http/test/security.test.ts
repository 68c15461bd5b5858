import { readFileSync } from 'node:fs';
import { createMcpServer } from '@cartwright/mcp';
import {
  addBasketEvidence,
  insertAppDeliveries,
  insertMediaDraft,
  listChannels,
  listTokens,
} from '@cartwright/repository';
import {
  type AnyOperation,
  authenticate,
  isMcpTool,
  operations,
  type Principal,
  permissionOf,
} from '@cartwright/service';
import { insertTestOrder, sampleImage } from '@cartwright/service/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';

/** The example app (`examples/apps/loyalty`) with its module, installed in shop A. */
const loyaltyManifest: unknown = JSON.parse(
  readFileSync(new URL('../../../examples/apps/loyalty/manifest.json', import.meta.url), 'utf8'),
);
const loyaltyModule = readFileSync(
  new URL('../../../examples/apps/loyalty/module.js', import.meta.url),
  'utf8',
);

// The shared security suite: every registered route and every MCP tool must reject a missing
// token, never let a token of another shop read or change this shop, and answer 403 to a token
// that lacks the operation's permission. Storefront routes authenticate with a channel key
// instead: they must reject a missing or bad key, and another shop's key must not reach this shop.

let h: Harness;
let shopATokenId: string;
let keyA: string;
let keyB: string;
let aCustomerId: string;
let aAddressId: string;
/** A logged-in visitor context of shop A's customer (storefront samples send it as their context). */
let aContextToken: string;
/** Shop A's order with an invoice and granted download access to a file of A_PRODUCT. */
let aOrderId: string;
let aDocumentId: string;
let aAssetId: string;
let aEntitlementId: string;
/** A pending review of A_PRODUCT by shop A's customer. */
let aReviewId: string;
/** An access grant of shop A's main channel. */
let aGrantId: string;
/** A record of the loyalty app's `note` entity in shop A. */
let aNoteId: string;
/** A pending proposal of shop A (a plan to save A_RULE). */
let aProposalId: string;
/** An image of A_PRODUCT, shown by the gallery entry aGalleryEntryId; a PNG's base64 to upload. */
let aImageId: string;
let aGalleryEntryId: string;
let pngBase64: string;

const A_TAX_CLASS = '0190f0c8-0000-7000-8000-0000000000a1';
const A_SHIPPING = '0190f0c8-0000-7000-8000-0000000000a2';
const A_PAYMENT = '0190f0c8-0000-7000-8000-0000000000a3';
/** Shop A's tax destination rule (the shop's basis). */
const A_TAX_RULE = '0190f0c8-0000-7000-8000-0000000000ac';
const B_ONLY = '0190f0c8-0000-7000-8000-0000000000b9';
const A_PRODUCT = '0190f0c8-0000-7000-8000-0000000000a4';
const A_CATEGORY = '0190f0c8-0000-7000-8000-0000000000a5';
const A_RULE = '0190f0c8-0000-7000-8000-0000000000a6';
/** Shop A's promotion with the code A-ONLY. */
const A_PROMOTION = '0190f0c8-0000-7000-8000-0000000000a7';
/** A failed delivery of the loyalty app in shop A (a redelivery would queue it again). */
const A_DELIVERY = '0190f0c8-0000-7000-8000-0000000000a8';
/** A product id shop A's co-purchase pair names beside A_PRODUCT, and that pair's id. */
const A_PAIRED = '0190f0c8-0000-7000-8000-0000000000a9';
const A_PAIR = '0190f0c8-0000-7000-8000-0000000000aa';
/** A pending image draft of A_PRODUCT in shop A. */
const A_DRAFT = '0190f0c8-0000-7000-8000-0000000000ab';
/** A channel id no shop has: a save at revision 0 creates it in the caller's own shop. */
const NEW_CHANNEL = '0190f0c8-0000-7000-8000-0000000000c1';
/** Shop A's main channel. */
let aChannelId: string;
const translations = { en: { name: 'Thing' } };
/** The rule data a proposal's plan saves. */
const proposedRule = {
  name: { en: 'Proposed rule' },
  condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 5 } },
};
const aAddress = {
  firstName: 'A',
  lastName: 'B',
  street: 'S 1',
  zipcode: '1010',
  city: 'Vienna',
  country: 'AT',
};
/** Shop A's tax destination rule: Austria (seeded below), postcodes 10*, 7 %. */
const aTaxRule = {
  country: 'AT',
  state: null,
  postcode: { kind: 'prefix', value: '10' },
  validFrom: null,
  validUntil: null,
  priority: 1,
  ruleId: null,
  taxClassId: null,
  rate: 700,
};
const aCredentials = { email: 'customer@a.test', password: 'customer-password' };

/**
 * A valid input for every operation. `foreign` marks inputs that name a record only shop A has:
 * another shop must get 403/404 for them. Other inputs act on the caller's own shop.
 */
function sample(operation: AnyOperation): { input: Record<string, unknown>; foreign: boolean } {
  const samples: Record<string, [Record<string, unknown>, boolean]> = {
    'shop.get': [{}, false],
    'shop.sandbox.create': [{ name: 'security sandbox' }, false],
    'members.list': [{}, false],
    'members.add': [{ email: 'intruder@security.test', role: 'reader' }, false],
    'members.remove': [{ userId: h.shopA.userId }, true],
    'tokens.list': [{}, false],
    'tokens.create': [{ name: 'intruder', kind: 'api', role: 'reader' }, false],
    'tokens.revoke': [{ tokenId: shopATokenId }, true],
    'events.list': [{}, false],
    'events.status': [{}, false],
    'automation.list': [{}, false],
    'basis.languages.list': [{}, false],
    'basis.languages.save': [{ code: 'es', revision: 0, name: 'Español' }, false],
    'basis.languages.delete': [{ code: 'nl', revision: 1 }, true],
    'basis.currencies.list': [{}, false],
    'basis.currencies.save': [{ code: 'GBP', revision: 0, precision: 2, symbol: '£' }, false],
    'basis.currencies.delete': [{ code: 'USD', revision: 1 }, true],
    'basis.countries.list': [{}, false],
    'basis.countries.save': [{ code: 'FR', revision: 0, translations }, false],
    'basis.countries.delete': [{ code: 'AT', revision: 1 }, true],
    'basis.tax_classes.list': [{}, false],
    'basis.tax_classes.save': [
      { id: B_ONLY, revision: 0, translations, rates: [{ country: null, rate: 1900 }] },
      false,
    ],
    'basis.tax_classes.delete': [{ id: A_TAX_CLASS, revision: 1 }, true],
    'basis.tax_rules.list': [{}, false],
    'basis.tax_rules.save': [{ id: B_ONLY, revision: 0, ...aTaxRule }, false],
    'basis.tax_rules.delete': [{ id: A_TAX_RULE, revision: 1 }, true],
    'basis.shipping_methods.list': [{}, false],
    'basis.shipping_methods.save': [{ id: B_ONLY, revision: 0, translations }, false],
    'basis.shipping_methods.delete': [{ id: A_SHIPPING, revision: 1 }, true],
    'basis.payment_methods.list': [{}, false],
    'basis.payment_methods.save': [{ id: B_ONLY, revision: 0, translations, handler: 'invoice' }, false],
    'basis.payment_methods.delete': [{ id: A_PAYMENT, revision: 1 }, true],
    'merchant.commerce.dependencies': [{ area: 'shipping', methodId: A_SHIPPING }, true],
    'merchant.commerce.method': [{ area: 'payments', methodId: A_PAYMENT, language: 'en' }, true],
    'merchant.commerce.read': [{ channelId: aChannelId, language: 'en' }, true],
    'merchant.commerce.save': [
      {
        channelId: NEW_CHANNEL,
        revision: 0,
        baseRevision: 1,
        channel: {
          name: { en: 'Intruder' },
          mode: 'headless',
          paused: false,
          private: true,
          languages: ['en'],
        },
      },
      false,
    ],
    'merchant.commerce.delete': [{ channelId: aChannelId, revision: 1 }, true],
    'merchant.commerce.grants.create': [{ channelId: aChannelId, name: 'Intruder grant' }, true],
    'merchant.commerce.grants.list': [{ channelId: aChannelId }, true],
    'merchant.commerce.grants.revoke': [{ channelId: aChannelId, grantId: aGrantId }, true],
    'catalog.products.list': [{}, false],
    'catalog.products.get': [{ id: A_PRODUCT }, true],
    'catalog.products.create': [{ sku: 'B-ONLY', translations, prices: [] }, false],
    'catalog.products.update': [{ id: A_PRODUCT, revision: 1, active: false }, true],
    'catalog.products.delete': [{ id: A_PRODUCT, revision: 1 }, true],
    'catalog.categories.list': [{}, false],
    'catalog.categories.save': [{ id: B_ONLY, revision: 0, translations }, false],
    'catalog.categories.delete': [{ id: A_CATEGORY, revision: 1 }, true],
    'customers.list': [{}, false],
    'customers.get': [{ id: aCustomerId }, true],
    'customers.create': [{ email: 'intruder@security.test', firstName: 'I', lastName: 'N' }, false],
    'customers.update': [{ id: aCustomerId, revision: 1, firstName: 'Mallory' }, true],
    'customers.delete': [{ id: aCustomerId, revision: 1 }, true],
    'customers.addresses.save': [{ id: aCustomerId, addressId: aAddressId, address: aAddress }, true],
    'customers.addresses.delete': [{ id: aCustomerId, addressId: aAddressId }, true],
    'store.context.create': [{}, false],
    'store.context.get': [{ contextToken: aContextToken }, false],
    'store.account.register': [
      { email: 'intruder@security.test', password: 'intruder-password', firstName: 'I', lastName: 'N' },
      false,
    ],
    'store.account.login': [{ contextToken: aContextToken, ...aCredentials }, false],
    'store.account.logout': [{ contextToken: aContextToken }, false],
    'store.account.get': [{ contextToken: aContextToken }, false],
    'automation.catalog': [{ language: 'de' }, false],
    'automation.save': [
      {
        kind: 'rules',
        id: B_ONLY,
        revision: 0,
        data: { name: { en: 'Intruder' }, condition: { type: 'alwaysValid' } },
      },
      false,
    ],
    'automation.dependencies': [{ kind: 'rules', id: A_RULE }, true],
    'automation.delete': [{ kind: 'rules', id: A_RULE, revision: 1 }, true],
    // Shop A's context token does not exist in another shop: 404, nothing evaluated.
    'automation.preview': [
      { condition: { type: 'alwaysValid' }, contextToken: aContextToken, explain: true },
      true,
    ],
    'automation.explain': [{ ruleId: A_RULE, facts: { now: '2026-01-01T00:00:00Z' } }, true],
    'automation.import': [{ condition: [{ id: 'x', type: 'alwaysValid', parentId: null }] }, false],
    'automation.executions': [{ limit: 10 }, false],
    // Another shop finds no such job: 404, nothing changed.
    'automation.executions.resolve': [{ id: B_ONLY, resolution: 'abandon' }, true],
    'automation.entities.save': [
      { entity: 'products', id: A_PRODUCT, revision: 1, data: { tier: 'gold' } },
      true,
    ],
    'company.get': [{}, false],
    'company.save': [{ revision: 0, data: { name: 'Intruder Ltd' } }, false],
    'orders.documents.create': [{ orderId: aOrderId, type: 'invoice' }, true],
    'orders.documents.list': [{ orderId: aOrderId }, true],
    'documents.download': [{ documentId: aDocumentId }, true],
    'catalog.assets.create': [
      { productId: A_PRODUCT, fileName: 'x.txt', contentType: 'text/plain', contentBase64: 'eA==' },
      true,
    ],
    'catalog.assets.list': [{ productId: A_PRODUCT }, true],
    'catalog.assets.delete': [{ productId: A_PRODUCT, assetId: aAssetId }, true],
    'orders.downloads.set': [{ orderId: aOrderId, value: false }, true],
    'orders.downloads.list': [{ orderId: aOrderId }, true],
    // The context is resolved before the entitlement, so another shop learns "log in" (401), never 404.
    'store.downloads.get': [{ entitlementId: aEntitlementId, contextToken: aContextToken }, false],
    'orders.list': [{}, false],
    // Another shop lists its own open carts: none of shop A's.
    'carts.list': [{ limit: 5 }, false],
    'orders.get': [{ orderId: aOrderId }, true],
    'orders.transition': [{ orderId: aOrderId, machine: 'order', to: 'in_progress', revision: 1 }, true],
    'orders.update': [{ orderId: aOrderId, revision: 1, tags: ['intruder'] }, true],
    'orders.notes.add': [{ orderId: aOrderId, text: 'intruder' }, true],
    'payments.list': [{}, false],
    'orders.payments.get': [{ orderId: aOrderId }, true],
    'orders.payments.reconcile': [{ orderId: aOrderId }, true],
    'orders.payments.refund': [{ orderId: aOrderId, amount: 100, idempotencyKey: 'intruder-refund-1' }, true],
    // The context is resolved before the order, so another shop learns "log in" (401), never 404.
    'store.orders.payment': [{ contextToken: aContextToken, orderId: aOrderId }, false],
    'store.products.list': [{}, false],
    'store.products.get': [{ id: A_PRODUCT }, true],
    // The context is resolved before the product, so another shop learns "log in" (401), never 404.
    'store.reviews.create': [
      {
        contextToken: aContextToken,
        productId: A_PRODUCT,
        rating: 1,
        title: 'Intruder',
        content: 'Intruder',
      },
      false,
    ],
    'store.reviews.list': [{ productId: A_PRODUCT }, true],
    'catalog.reviews.list': [{ productId: A_PRODUCT }, false],
    'merchant.media.provider': [{}, false],
    'merchant.media.create': [
      { id: A_PRODUCT, assetId: A_DRAFT, mode: 'generate', instruction: 'Intruder' },
      true,
    ],
    'merchant.media.list': [{ id: A_PRODUCT }, true],
    'merchant.media.detail': [{ id: A_DRAFT }, true],
    'merchant.media.image': [{ id: A_DRAFT }, true],
    'merchant.media.apply': [{ id: A_DRAFT, revision: 1 }, true],
    'merchant.media.gallery.read': [{ productId: A_PRODUCT }, true],
    'merchant.media.gallery.add': [{ productId: A_PRODUCT, assetId: aImageId }, true],
    'merchant.media.gallery.reorder': [
      { productId: A_PRODUCT, revision: 1, entryIds: [aGalleryEntryId] },
      true,
    ],
    'merchant.media.gallery.cover': [{ productId: A_PRODUCT, revision: 1, entryId: aGalleryEntryId }, true],
    'merchant.media.gallery.alt': [
      { productId: A_PRODUCT, entryId: aGalleryEntryId, revision: 1, altTexts: { en: 'Intruder' } },
      true,
    ],
    'merchant.media.gallery.remove': [{ productId: A_PRODUCT, entryId: aGalleryEntryId, revision: 1 }, true],
    'merchant.media.assets.upload': [{ productId: A_PRODUCT, contentBase64: pngBase64 }, true],
    'merchant.media.assets.list': [{ productId: A_PRODUCT }, true],
    'merchant.media.assets.content': [{ productId: A_PRODUCT, assetId: aImageId }, true],
    'merchant.media.assets.delete': [{ productId: A_PRODUCT, assetId: aImageId }, true],
    'store.media.get': [{ assetId: aImageId }, true],
    'catalog.reviews.moderate': [{ id: aReviewId, revision: 1, status: 'approved' }, true],
    'intelligence.proposals.list': [{}, false],
    'intelligence.proposals.get': [{ id: aProposalId }, true],
    // Another shop's plan naming shop A's rule at its revision: stale in its own shop (409), nothing stored.
    'intelligence.proposals.create': [
      {
        summary: 'Intruder plan',
        operations: [{ kind: 'automation.save_rule', ruleId: A_RULE, revision: 1, data: proposedRule }],
      },
      false,
    ],
    'intelligence.proposals.approve': [{ id: aProposalId }, true],
    'intelligence.proposals.reject': [{ id: aProposalId, note: 'Intruder' }, true],
    'intelligence.list': [{}, false],
    'intelligence.review': [{ id: A_PAIR, revision: 1, status: 'published', approve: true }, true],
    // Another shop names shop A's products: refused as unknown products of its own shop (422).
    'intelligence.simulate': [{ baskets: [[A_PRODUCT, A_PAIRED]] }, false],
    'store.intelligence.recommendations': [{ sku: 'A-ONLY' }, true],
    // Shop A's context token is not valid with another shop's channel key: 401, nothing read.
    'store.cart.get': [{ contextToken: aContextToken }, false],
    'store.cart.lines.add': [{ contextToken: aContextToken, productId: A_PRODUCT, quantity: 1 }, false],
    'store.cart.lines.update': [{ contextToken: aContextToken, lineId: A_PRODUCT, quantity: 2 }, false],
    'store.cart.lines.remove': [{ contextToken: aContextToken, lineId: A_PRODUCT }, false],
    'store.cart.update': [{ contextToken: aContextToken, paymentMethodId: A_PAYMENT }, false],
    'store.checkout': [{ contextToken: aContextToken, idempotencyKey: 'intruder-key-1' }, false],
    'apps.list': [{}, false],
    // Another shop installs into its own shop: nothing of shop A is touched.
    'apps.install': [{ appId: 'intruder', revision: 0, manifest: { apiVersion: 1, id: 'intruder' } }, false],
    'apps.uninstall': [{ appId: 'loyalty', revision: 1 }, true],
    // Shop B has no loyalty app: APP_NOT_INSTALLED (409), and shop A's records stay out of reach.
    'apps.actions.invoke': [{ appId: 'loyalty', actionId: 'get_note', id: aNoteId }, false],
    'apps.actions.configure': [{ appId: 'loyalty', actionId: 'score', revision: 1, mcp: true }, false],
    'apps.tools.list': [{}, false],
    'apps.catalog': [{}, false],
    'apps.entities.list': [{ appId: 'loyalty', entity: 'note' }, false],
    'apps.entities.create': [
      { appId: 'loyalty', entity: 'note', customer_id: aCustomerId, body: 'Intruder' },
      false,
    ],
    'apps.entities.get': [{ appId: 'loyalty', entity: 'note', id: aNoteId }, false],
    'apps.entities.update': [
      { appId: 'loyalty', entity: 'note', id: aNoteId, revision: 1, data: { body: 'Intruder' } },
      false,
    ],
    'apps.entities.delete': [{ appId: 'loyalty', entity: 'note', id: aNoteId, revision: 1 }, false],
    'apps.actions.invoke-public': [{ appId: 'loyalty', actionId: 'list_faq' }, true],
    'apps.entities.list-public': [{ appId: 'loyalty', entity: 'faq' }, true],
    // Another shop lists its own (empty) log and has no loyalty app to resume (APP_NOT_INSTALLED).
    'apps.deliveries.list': [{ appId: 'loyalty' }, false],
    'apps.deliveries.redeliver': [{ appId: 'loyalty', deliveryId: A_DELIVERY }, true],
    'apps.deliveries.resume': [{ appId: 'loyalty' }, false],
    'apps.assistants.list': [{ language: 'de' }, false],
    // Previewing reads the caller's own shop: shop A's loyalty app is not its installed version.
    'apps.assistants.preview': [
      { assistant: 'subscriber', answers: { app_id: 'loyalty', name: 'Intruder', events: ['order.placed'] } },
      false,
    ],
    // Another shop installs into its own shop: nothing of shop A is touched.
    'apps.assistants.install': [
      {
        assistant: 'subscriber',
        answers: { app_id: 'intruder-feed', name: 'Intruder', events: ['order.placed'] },
        revision: 0,
      },
      false,
    ],
    'apps.storefront-blocks.list': [{}, false],
    'store.cart.promotionCodes.add': [{ contextToken: aContextToken, code: 'A-ONLY' }, false],
    'store.cart.promotionCodes.remove': [{ contextToken: aContextToken, code: 'A-ONLY' }, false],
  };
  const found = samples[operation.name];
  if (!found) throw new Error(`the security suite has no sample input for ${operation.name}: add one`);
  return { input: found[0], foreign: found[1] };
}

/** Records only shop A has, named by the `foreign` samples. */
async function seedShopA() {
  const A = h.shopA.token;
  const put = (path: string, body: unknown) => h.call('PUT', path, { token: A, body });
  const seeded = [
    await put('/api/basis/languages/nl', { revision: 0, name: 'Nederlands' }),
    await put('/api/basis/currencies/USD', { revision: 0, precision: 2, symbol: '$' }),
    await put('/api/basis/countries/AT', { revision: 0, translations }),
    await put(`/api/basis/tax-classes/${A_TAX_CLASS}`, {
      revision: 0,
      translations,
      rates: [{ country: null, rate: 1900 }],
    }),
    await put(`/api/basis/tax-rules/${A_TAX_RULE}`, { revision: 0, ...aTaxRule }),
    await put(`/api/basis/shipping-methods/${A_SHIPPING}`, { revision: 0, translations }),
    await put(`/api/basis/payment-methods/${A_PAYMENT}`, { revision: 0, translations, handler: 'invoice' }),
    await put(`/api/catalog/categories/${A_CATEGORY}`, { revision: 0, translations }),
    await put(`/api/automation/rules/${A_RULE}`, {
      revision: 0,
      data: {
        name: { en: 'Shop A rule' },
        condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 1 } },
      },
    }),
    await put(`/api/automation/promotions/${A_PROMOTION}`, {
      revision: 0,
      data: {
        name: { en: 'Shop A promotion' },
        condition: { type: 'ruleReference', ruleId: A_RULE },
        codes: { type: 'global', code: 'A-ONLY', limit: null },
        discounts: [{ scope: 'cart', type: 'percentage', value: 5 }],
      },
    }),
    await put('/api/apps/loyalty', { revision: 0, manifest: loyaltyManifest, module: loyaltyModule }),
  ];
  for (const response of seeded) if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  const product = { id: A_PRODUCT, sku: 'A-ONLY', translations, categoryIds: [A_CATEGORY] };
  const created = await h.call('POST', '/api/catalog/products', { token: A, body: product });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const customer = await h.call('POST', '/api/customers', {
    token: A,
    body: { ...aCredentials, firstName: 'A', lastName: 'Customer', addresses: [{ address: aAddress }] },
  });
  if (customer.status !== 201) throw new Error(JSON.stringify(customer.body));
  aCustomerId = customer.body.id as string;
  aAddressId = (customer.body.addresses as { id: string }[])[0]!.id;
  keyA = (await listChannels(h.database.db, h.shopA.tenantId))[0]!.accessKey;
  aChannelId = (await listChannels(h.database.db, h.shopA.tenantId))[0]!.id;
  keyB = (await listChannels(h.database.db, h.shopB.tenantId))[0]!.accessKey;
  const login = await h.call('POST', '/store-api/account/login', {
    headers: { 'x-channel-key': keyA },
    body: aCredentials,
  });
  if (login.status !== 200) throw new Error(JSON.stringify(login.body));
  aContextToken = login.body.contextToken as string;
  const company = await put('/api/company', { revision: 0, data: { name: 'Shop A GmbH' } });
  if (company.status !== 200) throw new Error(JSON.stringify(company.body));
  await h.database.transaction(async (tx) => {
    await insertAppDeliveries(tx, [
      {
        tenantId: h.shopA.tenantId,
        id: A_DELIVERY,
        appId: 'loyalty',
        eventId: A_DELIVERY,
        eventName: 'order.placed',
        sequence: 1,
        payload: {},
        occurredAt: new Date(),
      },
    ]);
    await tx.execute(sql`update app_deliveries set status = 'failed', attempts = 16
      where tenant_id = ${h.shopA.tenantId} and id = ${A_DELIVERY}`);
  });
  await insertMediaDraft(h.database.db, {
    tenantId: h.shopA.tenantId,
    id: A_DRAFT,
    productId: A_PRODUCT,
    sourceAssetId: A_DRAFT,
    mode: 'generate',
    instruction: 'Only shop A has this draft.',
    productRevision: 1,
    status: 'pending',
    model: 'gpt-image-1',
    createdBy: { kind: 'token', tokenId: shopATokenId, userId: h.shopA.userId },
  });
  await h.database.transaction((tx) =>
    addBasketEvidence(tx, h.shopA.tenantId, {
      source: 'observed',
      products: [A_PRODUCT, A_PAIRED],
      pairs: [{ a: A_PRODUCT, b: A_PAIRED, newId: A_PAIR }],
      sourceEvent: { id: A_PAIR, source: 'observed' },
      sourceEventLimit: 20,
      at: new Date(),
    }),
  );
  aOrderId = (
    await insertTestOrder(h.services, h.shopA.tenantId, {
      customerId: aCustomerId,
      paymentState: 'paid',
      productIds: [A_PRODUCT, A_PRODUCT],
    })
  ).id;
  const document = await h.call('POST', `/api/orders/${aOrderId}/documents`, {
    token: A,
    body: { type: 'invoice' },
  });
  if (document.status !== 201) throw new Error(JSON.stringify(document.body));
  aDocumentId = document.body.id as string;
  const asset = await h.call('POST', `/api/catalog/products/${A_PRODUCT}/assets`, {
    token: A,
    body: { fileName: 'a.txt', contentType: 'text/plain', contentBase64: 'YQ==' },
  });
  if (asset.status !== 201) throw new Error(JSON.stringify(asset.body));
  aAssetId = asset.body.id as string;
  const granted = await put(`/api/orders/${aOrderId}/downloads`, { value: true });
  if (granted.status !== 200) throw new Error(JSON.stringify(granted.body));
  aEntitlementId = (granted.body.items as { id: string }[])[0]!.id;
  const review = await h.call('POST', `/store-api/products/${A_PRODUCT}/reviews`, {
    headers: { 'x-channel-key': keyA, 'x-context-token': aContextToken },
    body: { rating: 5, title: 'Shop A review', content: 'Only shop A has this review.' },
  });
  if (review.status !== 201) throw new Error(JSON.stringify(review.body));
  aReviewId = review.body.id as string;
  const grant = await h.call('POST', `/api/merchant/commerce/channels/${aChannelId}/grants`, {
    token: A,
    body: { name: 'Shop A partner' },
  });
  if (grant.status !== 201) throw new Error(JSON.stringify(grant.body));
  aGrantId = (grant.body.grant as { id: string }).id;
  const note = await h.call('POST', '/api/apps/loyalty/actions/add_note', {
    token: A,
    body: { customer_id: aCustomerId, body: 'Only shop A has this note.' },
  });
  if (note.status !== 200) throw new Error(JSON.stringify(note.body));
  aNoteId = note.body.id as string;
  const proposal = await h.call('POST', '/api/intelligence/proposals', {
    token: A,
    body: {
      summary: 'Shop A plan',
      operations: [{ kind: 'automation.save_rule', ruleId: A_RULE, revision: 1, data: proposedRule }],
    },
  });
  if (proposal.status !== 201) throw new Error(JSON.stringify(proposal.body));
  aProposalId = proposal.body.id as string;
  pngBase64 = (await sampleImage('png', 16, 16)).toString('base64');
  const image = await h.call('POST', `/api/merchant/products/${A_PRODUCT}/media/gallery`, {
    token: A,
    body: { contentBase64: pngBase64 },
  });
  if (image.status !== 201) throw new Error(JSON.stringify(image.body));
  aGalleryEntryId = image.body.entryId as string;
  aImageId = (image.body.gallery as { entries: { assetId: string }[] }).entries[0]!.assetId;
}

function request(operation: AnyOperation, input: Record<string, unknown>) {
  const http = operation.http!;
  let path = http.path;
  const rest = { ...input };
  for (const [, name] of http.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    path = path.replace(`:${name}`, String(rest[name!]));
    delete rest[name!];
  }
  const body = http.method === 'GET' ? undefined : rest;
  return { method: http.method, path, body };
}

/** A digest of every row that belongs to shop A, in every tenant-owned table. */
async function snapshotOfShopA(): Promise<Record<string, string>> {
  const tables = await h.database.rows<{ table_name: string }>(sql`
    select table_name from information_schema.columns
    where column_name = 'tenant_id' and table_schema = current_schema() order by table_name`);
  const digest: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await h.database.rows<{ digest: string | null }>(
      // last_used_at moves whenever a token authenticates; everything else must stay as it was.
      sql`select md5(coalesce(string_agg((to_jsonb(t) - 'last_used_at')::text, '|' order by t::text), '')) as digest
          from ${sql.identifier(table_name)} t where tenant_id = ${h.shopA.tenantId}`,
    );
    digest[table_name] = row?.digest ?? '';
  }
  return digest;
}

/** Calls a storefront route with a channel key; a sample's `contextToken` travels as x-context-token. */
function callStore(operation: AnyOperation, input: Record<string, unknown>, channelKey: string | undefined) {
  const { contextToken, ...rest } = input;
  const { method, path, body } = request(operation, rest);
  const headers: Record<string, string> = {};
  if (channelKey !== undefined) headers['x-channel-key'] = channelKey;
  if (typeof contextToken === 'string') headers['x-context-token'] = contextToken;
  return h.call(method, path, { headers, body });
}

async function principalOf(token: string): Promise<Principal> {
  const result = await authenticate(h.services, token);
  if (!result.ok) throw new Error(result.detail);
  return result.value;
}

beforeAll(async () => {
  h = await createHarness();
  shopATokenId = (await principalOf(h.shopA.token)).tokenId;
  await seedShopA();
});
afterAll(async () => h?.close());

const routes = operations.filter((operation) => operation.http && operation.audience !== 'store');
const storeRoutes = operations.filter((operation) => operation.http && operation.audience === 'store');
const guarded = operations.filter((operation) => permissionOf(operation));

describe('every route', () => {
  it('covers a non-empty registry', () => {
    expect(routes.length).toBeGreaterThan(5);
  });

  it.each(routes.map((operation) => [operation.name, operation] as const))(
    '%s answers 401 without a token, or with a malformed or revoked one',
    async (_name, operation) => {
      const before = await snapshotOfShopA();
      const { method, path, body } = request(operation, sample(operation).input);
      for (const token of [undefined, 'cw_api_nope', `${h.shopA.token}x`]) {
        const response = await h.call(method, path, { token, body });
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('UNAUTHENTICATED');
      }
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );

  it.each(routes.map((operation) => [operation.name, operation] as const))(
    '%s with a token of another shop neither reads nor changes this shop',
    async (_name, operation) => {
      const before = await snapshotOfShopA();
      const { method, path, body } = request(operation, sample(operation).input);
      const response = await h.call(method, path, { token: h.shopB.token, body });
      if (sample(operation).foreign) expect([403, 404]).toContain(response.status);
      const text = JSON.stringify(response.body);
      expect(text).not.toContain(h.shopA.tenantId);
      expect(text).not.toContain(h.shopA.userId);
      expect(text).not.toContain(shopATokenId);
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );

  it.each(
    routes
      .filter((operation) => permissionOf(operation))
      .map((operation) => [operation.name, operation] as const),
  )('%s answers 403 to a token without its permission and changes nothing', async (_name, operation) => {
    const token = await h.tokenWithout(permissionOf(operation)!);
    const before = await snapshotOfShopA();
    const { method, path, body } = request(operation, sample(operation).input);
    const response = await h.call(method, path, { token, body });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN');
    expect(await snapshotOfShopA()).toEqual(before);
  });
});

describe('every automation kind', () => {
  // `automation.save|delete|dependencies` serve four kinds; the route table above samples rules.
  // Another shop reaching shop A's promotion or channel by id finds nothing and changes nothing.
  const cases: [string, string, string, unknown][] = [
    ['promotions dependencies', 'GET', `/api/automation/promotions/${A_PROMOTION}/dependencies`, undefined],
    ['promotions delete', 'DELETE', `/api/automation/promotions/${A_PROMOTION}?revision=1`, undefined],
    ['channels dependencies', 'GET', '/api/automation/channels/{main}/dependencies', undefined],
    ['channels delete', 'DELETE', '/api/automation/channels/{main}?revision=1', undefined],
    ['flows dependencies', 'GET', `/api/automation/flows/${A_RULE}/dependencies`, undefined],
  ];
  it.each(cases)(
    '%s with a token of another shop answers 404 and changes nothing',
    async (_name, method, path) => {
      const before = await snapshotOfShopA();
      const response = await h.call(method, path.replace('{main}', aChannelId), { token: h.shopB.token });
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain(h.shopA.tenantId);
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );

  it('saves a promotion or channel with a foreign id into the caller’s own shop only', async () => {
    const before = await snapshotOfShopA();
    const promotion = await h.call('PUT', `/api/automation/promotions/${A_PROMOTION}`, {
      token: h.shopB.token,
      body: {
        revision: 0,
        data: {
          name: { en: 'Intruder' },
          codes: { type: 'global', code: 'A-ONLY', limit: null },
          discounts: [{ scope: 'cart', type: 'percentage', value: 100 }],
        },
      },
    });
    // Shop B's own promotion: the code is free in shop B.
    expect(promotion.status).toBe(200);
    const channel = await h.call('PUT', `/api/automation/channels/${aChannelId}`, {
      token: h.shopB.token,
      body: {
        revision: 1,
        baseRevision: 1,
        channel: {
          name: { en: 'Intruder' },
          mode: 'headless',
          paused: true,
          private: true,
          languages: ['en'],
        },
      },
    });
    // Revision 1 of a channel shop B does not have: stale against its 0, never shop A's.
    expect(channel.status).toBe(409);
    expect(await snapshotOfShopA()).toEqual(before);
  });
});

describe('every storefront route', () => {
  it('covers the storefront operations', () => {
    expect(storeRoutes.length).toBeGreaterThan(0);
  });

  it.each(storeRoutes.map((operation) => [operation.name, operation] as const))(
    '%s answers 401 without a channel key, or with a malformed or unknown one',
    async (_name, operation) => {
      const before = await snapshotOfShopA();
      const { input } = sample(operation);
      const unknown = `cwk_${h.shopA.tenantId.replaceAll('-', '')}_${'x'.repeat(24)}`;
      for (const key of [undefined, 'cwk_nope', `${keyA}x`, unknown]) {
        const response = await callStore(operation, input, key);
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('UNAUTHENTICATED');
      }
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );

  it.each(storeRoutes.map((operation) => [operation.name, operation] as const))(
    '%s with another shop’s channel key neither reads nor changes this shop',
    async (_name, operation) => {
      const before = await snapshotOfShopA();
      const { input, foreign } = sample(operation);
      const response = await callStore(operation, input, keyB);
      if (foreign) expect(response.status).toBe(404);
      const text = JSON.stringify(response.body);
      expect(text).not.toContain(h.shopA.tenantId);
      expect(text).not.toContain(aCustomerId);
      expect(text).not.toContain(keyA);
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );
});

describe('every storefront route of a private channel', () => {
  const PRIVATE = '0190f0c8-0000-7000-8000-0000000000c2';
  let privateKey: string;
  /** An access grant of shop B's main channel: a credential, but not for shop A. */
  let bGrant: string;

  beforeAll(async () => {
    const main = await h.call('GET', `/api/merchant/commerce/channels/${aChannelId}`, {
      token: h.shopA.token,
    });
    const saved = await h.call('PUT', `/api/merchant/commerce/channels/${PRIVATE}`, {
      token: h.shopA.token,
      body: {
        revision: 0,
        baseRevision: main.body.baseRevision,
        channel: {
          name: { en: 'Private' },
          mode: 'storefront',
          paused: false,
          private: true,
          languages: ['en'],
        },
      },
    });
    if (saved.status !== 200) throw new Error(JSON.stringify(saved.body));
    privateKey = saved.body.accessKey as string;
    const bMain = (await listChannels(h.database.db, h.shopB.tenantId))[0]!.id;
    const grant = await h.call('POST', `/api/merchant/commerce/channels/${bMain}/grants`, {
      token: h.shopB.token,
      body: { name: 'Shop B partner' },
    });
    if (grant.status !== 201) throw new Error(JSON.stringify(grant.body));
    bGrant = grant.body.token as string;
  });

  it.each(storeRoutes.map((operation) => [operation.name, operation] as const))(
    '%s answers 401 CHANNEL_PRIVATE without a bearer token, or with another shop’s token or grant',
    async (_name, operation) => {
      const before = await snapshotOfShopA();
      const { contextToken: _, ...input } = sample(operation).input;
      const { method, path, body } = request(operation, input);
      for (const token of [undefined, h.shopB.token, bGrant, `${h.shopA.token}x`]) {
        const response = await h.call(method, path, {
          token,
          body,
          headers: { 'x-channel-key': privateKey },
        });
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('CHANNEL_PRIVATE');
        expect(JSON.stringify(response.body)).not.toContain(h.shopA.tenantId);
      }
      expect(await snapshotOfShopA()).toEqual(before);
    },
  );

  it('serves shop A’s own staff token', async () => {
    const response = await h.call('GET', '/store-api/products', {
      token: h.shopA.token,
      headers: { 'x-channel-key': privateKey },
    });
    expect(response.status).toBe(200);
  });
});

describe('every MCP tool', () => {
  async function connect(principal: Principal): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.services, principal).connect(serverSide);
    const client = new Client({ name: 'security-suite', version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  }

  it('/mcp answers 401 without a token or with another shop’s forged one', async () => {
    for (const token of [undefined, 'cw_api_nope', `${h.shopB.token}x`]) {
      const response = await h.call('POST', '/mcp', {
        token,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHENTICATED');
    }
  });

  it('lists every operation as a tool, except those the spec makes HTTP only', async () => {
    const client = await connect(await principalOf(h.shopA.token));
    const { tools } = await client.listTools();
    // Besides, one tool per app action shop A's apps expose (the loyalty app: its `mcp: true` list).
    expect(tools.filter((tool) => tool.name.startsWith('app.')).map((tool) => tool.name)).toEqual([
      'app.loyalty.list',
    ]);
    expect(
      tools
        .filter((tool) => !tool.name.startsWith('app.'))
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(
      operations
        .filter(isMcpTool)
        .map((operation) => operation.name)
        .sort(),
    );
    expect(tools.map((tool) => tool.name)).not.toContain('automation.entities.save');
    const entity = await client.callTool({ name: 'automation.entities.save', arguments: {} });
    expect(entity.isError).toBe(true);
    expect(JSON.stringify(entity)).toContain('NOT_FOUND');
    await client.close();
  });

  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s called by another shop neither reads nor changes this shop',
    async (_name, operation) => {
      const client = await connect(await principalOf(h.shopB.token));
      const before = await snapshotOfShopA();
      const { input, foreign } = sample(operation);
      const result = await client.callTool({ name: operation.name, arguments: input });
      const text = JSON.stringify(result);
      expect(text).not.toContain(h.shopA.tenantId);
      expect(text).not.toContain(h.shopA.userId);
      expect(text).not.toContain(shopATokenId);
      if (foreign) {
        expect(result.isError).toBe(true);
        expect(['FORBIDDEN', 'NOT_FOUND']).toContain((result.structuredContent as { code: string }).code);
      }
      expect(await snapshotOfShopA()).toEqual(before);
      await client.close();
    },
  );

  it('offers another shop none of shop A’s app tools, and its calls reach nothing of shop A', async () => {
    const client = await connect(await principalOf(h.shopB.token));
    const reader = await connect(await principalOf(await h.tokenWithout('apps.write')));
    const before = await snapshotOfShopA();
    expect((await client.listTools()).tools.filter((tool) => tool.name.startsWith('app.'))).toEqual([]);
    for (const [name, args] of [
      ['app.loyalty.list', {}],
      ['app.loyalty.get_note', { id: aNoteId }],
      ['app.loyalty.delete_note', { id: aNoteId, revision: 1 }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as { code: string }).code).toBe('APP_NOT_INSTALLED');
      expect(JSON.stringify(result)).not.toContain(h.shopA.tenantId);
    }
    // A reader of shop A sees the read-only tool, and may not call a writing action as a tool.
    expect((await reader.listTools()).tools.map((tool) => tool.name)).toContain('app.loyalty.list');
    const refused = await reader.callTool({
      name: 'app.loyalty.delete_note',
      arguments: { id: aNoteId, revision: 1 },
    });
    expect(refused.isError).toBe(true);
    expect(await snapshotOfShopA()).toEqual(before);
    await Promise.all([client.close(), reader.close()]);
  });

  it.each(guarded.filter(isMcpTool).map((operation) => [operation.name, operation] as const))(
    '%s refuses a caller without its permission with FORBIDDEN',
    async (_name, operation) => {
      const client = await connect(await principalOf(await h.tokenWithout(permissionOf(operation)!)));
      const before = await snapshotOfShopA();
      const result = await client.callTool({ name: operation.name, arguments: sample(operation).input });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as { code: string }).code).toBe('FORBIDDEN');
      expect(await snapshotOfShopA()).toEqual(before);
      await client.close();
    },
  );
});

// The admin UI's routes are no operations: they act through operations with a session's
// principal (decision 0047). Without a session nothing is shown or changed; a session of
// another shop reaches nothing of shop A.
describe('the admin UI routes', () => {
  const post = (path: string, cookie: string | undefined, form: Record<string, string>) =>
    h.app.request(path, {
      method: 'POST',
      headers: {
        ...(cookie ? { cookie } : {}),
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost',
      },
      body: new URLSearchParams(form).toString(),
    });

  it('leads every page to sign-in without a session and refuses every post', async () => {
    const [main] = (await listChannels(h.database.db, h.shopA.tenantId)).filter((channel) => channel.isMain);
    const before = await snapshotOfShopA();
    for (const path of [
      '/admin',
      '/admin/settings',
      `/admin/settings/channels/${main!.id}`,
      `/admin/settings/channels/${main!.id}/tax`,
      '/admin/rules',
      `/admin/rules/${A_RULE}`,
      '/admin/settings/methods',
      '/admin/settings/methods/shipping/new',
      `/admin/settings/methods/shipping/${A_RULE}`,
      `/admin/settings/methods/payments/${A_RULE}/remove`,
      '/admin/reviews',
      '/admin/payments',
      '/admin/team',
      `/admin/team/members/${h.shopA.userId}/remove`,
      `/admin/team/tokens/${A_RULE}/revoke`,
    ]) {
      const page = await h.app.request(path);
      expect(page.status, path).toBe(303);
      expect(page.headers.get('location')).toBe('/admin/sign-in');
    }
    for (const path of [
      '/admin/sign-out',
      '/admin/shop',
      '/admin/locale',
      '/admin/sign-in',
      `/admin/settings/channels/${main!.id}`,
      '/admin/settings/channels',
      `/admin/settings/channels/${main!.id}/company`,
      `/admin/settings/channels/${main!.id}/delete`,
      `/admin/settings/channels/${main!.id}/tax`,
      `/admin/settings/channels/${main!.id}/tax/shop`,
      `/admin/rules/${A_RULE}`,
      '/admin/settings/methods/shipping/new',
      `/admin/settings/methods/shipping/${A_RULE}`,
      `/admin/settings/methods/shipping/${A_RULE}/active`,
      `/admin/settings/methods/payments/${A_RULE}/remove`,
      `/admin/reviews/${A_RULE}`,
      '/admin/team/members',
      '/admin/team/tokens',
      `/admin/team/members/${h.shopA.userId}/remove`,
      `/admin/team/tokens/${A_RULE}/revoke`,
    ]) {
      const answer = await post(path, undefined, { tenantId: h.shopA.tenantId, token: h.shopA.token });
      expect(answer.status, path).toBe(403);
      expect(answer.headers.getSetCookie().some((line) => line.startsWith('cw_admin='))).toBe(false);
    }
    expect(await snapshotOfShopA()).toEqual(before);
  });

  it('a session of another shop neither reads nor changes shop A', async () => {
    const [main] = (await listChannels(h.database.db, h.shopA.tenantId)).filter((channel) => channel.isMain);
    const { cookie, csrf } = await adminSession(h, h.shopB.token, 'en');
    const before = await snapshotOfShopA();
    const page = await h.app.request(`/admin/settings/channels/${main!.id}`, { headers: { cookie } });
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).not.toContain(h.shopA.tenantId);
    expect(html).not.toContain(main!.accessKey);
    const saved = await post(`/admin/settings/channels/${main!.id}?language=en`, cookie, {
      csrf,
      revision: String(main!.revision),
      baseRevision: '1',
    });
    expect(saved.status).toBe(404);
    // Shop A's main channel: its company identity form and its delete reach nothing of shop A.
    const company = await post(`/admin/settings/channels/${main!.id}/company`, cookie, {
      csrf,
      companyRevision: '0',
      'basis:name': 'Intruder',
      'was:basis.name': '',
    });
    expect(company.status).toBe(404);
    const deleted = await post(`/admin/settings/channels/${main!.id}/delete`, cookie, {
      csrf,
      revision: String(main!.revision),
      confirm: 'on',
    });
    expect(deleted.status).toBe(404);
    // Its tax page: not shown, and its save reaches nothing.
    expect(
      (await h.app.request(`/admin/settings/channels/${main!.id}/tax`, { headers: { cookie } })).status,
    ).toBe(404);
    const taxSaved = await post(`/admin/settings/channels/${main!.id}/tax`, cookie, {
      csrf,
      revision: String(main!.revision),
      baseRevision: '1',
      'addRate:class': A_RULE,
      'addRate:country': 'DE',
      'addRate:rate': '5',
    });
    expect(taxSaved.status).toBe(404);
    // The shop's rules form: shop A's through its main channel, or through shop B's own main channel.
    const shopRule = { csrf, remove: `${A_TAX_RULE}:1` };
    expect((await post(`/admin/settings/channels/${main!.id}/tax/shop`, cookie, shopRule)).status).toBe(404);
    const [mainB] = (await listChannels(h.database.db, h.shopB.tenantId)).filter((channel) => channel.isMain);
    const viaOwn = await post(`/admin/settings/channels/${mainB!.id}/tax/shop`, cookie, {
      ...shopRule,
      [`shop:${A_TAX_RULE}:rate`]: '1',
    });
    expect(viaOwn.status).toBe(422);
    expect(await viaOwn.text()).not.toContain(h.shopA.tenantId);
    const switched = await post('/admin/shop', cookie, { csrf, tenantId: h.shopA.tenantId });
    expect(switched.status).toBe(404);
    const listed = await h.app.request('/admin/settings', { headers: { cookie } });
    expect(await listed.text()).not.toContain(main!.id);
    // Shop A's rule: not shown, not listed, not previewed, not replaced.
    expect((await h.app.request(`/admin/rules/${A_RULE}`, { headers: { cookie } })).status).toBe(404);
    expect(await (await h.app.request('/admin/rules', { headers: { cookie } })).text()).not.toContain(A_RULE);
    const previewed = await post(`/admin/rules/${A_RULE}`, cookie, { csrf, op: 'preview', token: 'x' });
    expect(previewed.status).toBe(404);
    const replaced = await post(`/admin/rules/${A_RULE}`, cookie, {
      csrf,
      op: 'save',
      revision: '1',
      name: 'Intruder',
      tree: JSON.stringify({ type: 'alwaysValid' }),
    });
    expect(replaced.status).not.toBe(303);
    expect(await replaced.text()).not.toContain('Shop A rule');
    expect(await snapshotOfShopA()).toEqual(before);
  });

  it('team: a session of another shop lists, removes and revokes nothing of shop A', async () => {
    const [aToken] = await listTokens(h.database.db, h.shopA.tenantId, { limit: 1 });
    const { cookie, csrf } = await adminSession(h, h.shopB.token, 'en');
    const before = await snapshotOfShopA();
    const team = await (await h.app.request('/admin/team', { headers: { cookie } })).text();
    expect(team).not.toContain(h.shopA.userId);
    expect(team).not.toContain(aToken!.id);
    for (const path of [
      `/admin/team/members/${h.shopA.userId}/remove`,
      `/admin/team/tokens/${aToken!.id}/revoke`,
    ]) {
      expect((await h.app.request(path, { headers: { cookie } })).status, path).toBe(404);
      expect((await post(path, cookie, { csrf })).status, path).toBe(404);
    }
    const personal = await post('/admin/team/tokens', cookie, {
      csrf,
      name: 'Into A',
      kind: 'personal',
      userId: h.shopA.userId,
    });
    expect(personal.status).toBe(422);
    expect(await snapshotOfShopA()).toEqual(before);
  });

  it('flows and executions: nothing without a session, nothing of shop A for another shop', async () => {
    const aFlow = '0190f0c8-0000-7000-8000-0000000000f1';
    const saved = await h.call('PUT', `/api/automation/flows/${aFlow}`, {
      token: h.shopA.token,
      body: {
        revision: 0,
        active: false,
        data: {
          name: { en: 'Shop A flow' },
          trigger: 'order.placed',
          pipeline: { entry: 'end', nodes: [{ id: 'end', kind: 'stop' }] },
        },
      },
    });
    expect(saved.status).toBe(200);
    const before = await snapshotOfShopA();
    for (const path of [
      '/admin/flows',
      '/admin/flows/new',
      `/admin/flows/${aFlow}`,
      '/admin/flows/executions',
      '/admin/flows/executions/live',
    ]) {
      const page = await h.app.request(path);
      expect(page.status, path).toBe(303);
      expect(page.headers.get('location')).toBe('/admin/sign-in');
    }
    const job = '0190f0c8-0000-7000-8000-0000000000f2';
    for (const path of [`/admin/flows/${aFlow}`, `/admin/flows/executions/${job}/resolve`]) {
      const answer = await post(path, undefined, { op: 'save', revision: '1', resolution: 'abandon' });
      expect(answer.status, path).toBe(403);
    }
    const { cookie, csrf } = await adminSession(h, h.shopB.token, 'en');
    // Shop A's flow: not listed, not shown, not replaced; no job of shop A is resolved.
    expect(await (await h.app.request('/admin/flows', { headers: { cookie } })).text()).not.toContain(aFlow);
    expect((await h.app.request(`/admin/flows/${aFlow}`, { headers: { cookie } })).status).toBe(404);
    const executions = await (
      await h.app.request('/admin/flows/executions/live', { headers: { cookie } })
    ).text();
    expect(executions).not.toContain('Shop A flow');
    const replaced = await post(`/admin/flows/${aFlow}`, cookie, {
      csrf,
      op: 'save',
      revision: '1',
      count: '1',
      name: 'Intruder',
      trigger: 'order.placed',
      entry: 'end',
      'n-0-id': 'end',
      'n-0-kind': 'stop',
    });
    expect(replaced.status).toBe(409);
    expect(await replaced.text()).not.toContain('Shop A flow');
    expect(
      (await post(`/admin/flows/executions/${job}/resolve`, cookie, { csrf, resolution: 'abandon' })).status,
    ).toBe(404);
    expect(await snapshotOfShopA()).toEqual(before);
  });

  it('catalog and orders: nothing without a session, nothing of shop A for another shop', async () => {
    const before = await snapshotOfShopA();
    const product = `/admin/products/${A_PRODUCT}`;
    const order = `/admin/orders/${aOrderId}`;
    for (const path of [
      '/admin/products',
      product,
      `${product}/assets/${aImageId}`,
      `${product}/drafts`,
      `${product}/drafts/${A_DRAFT}`,
      `${product}/drafts/${A_DRAFT}/image`,
      '/admin/orders',
      order,
      `${order}/documents/${aDocumentId}`,
    ]) {
      const page = await h.app.request(path);
      expect(page.status, path).toBe(303);
      expect(page.headers.get('location')).toBe('/admin/sign-in');
    }
    const form = { revision: '1', entryId: aGalleryEntryId, direction: 'up', alt: 'x', type: 'invoice' };
    const posts = [
      ...['move', 'cover', 'remove', 'alt', 'upload'].map((what) => `${product}/gallery/${what}`),
      `${product}/save`,
      `${product}/drafts`,
      `${product}/drafts/${A_DRAFT}/apply`,
      `${order}/notes`,
      `${order}/documents`,
      `${order}/refunds`,
    ];
    for (const path of posts) {
      expect((await post(path, undefined, form)).status, path).toBe(403);
    }
    const { cookie, csrf } = await adminSession(h, h.shopB.token, 'en');
    // Shop A's product, image, draft, order and document: not listed, not shown, not changed.
    const listed = await (await h.app.request('/admin/products', { headers: { cookie } })).text();
    expect(listed).not.toContain(A_PRODUCT);
    expect(await (await h.app.request('/admin/orders', { headers: { cookie } })).text()).not.toContain(
      aOrderId,
    );
    for (const path of [
      product,
      `${product}/assets/${aImageId}`,
      `${product}/drafts/${A_DRAFT}`,
      `${product}/drafts/${A_DRAFT}/image`,
      order,
      `${order}/documents/${aDocumentId}`,
    ]) {
      expect((await h.app.request(path, { headers: { cookie } })).status, path).toBe(404);
    }
    for (const path of posts) {
      const answer = await post(path, cookie, {
        ...form,
        csrf,
        amount: '1',
        idempotencyKey: 'admin-refund-intruder',
        text: 'intruder',
        instruction: 'intruder',
        assetId: aImageId,
      });
      expect([404, 422], path).toContain(answer.status);
      expect(await answer.text(), path).not.toContain(aGalleryEntryId);
    }
    expect(await snapshotOfShopA()).toEqual(before);
  });

  it('intelligence and apps: nothing without a session, nothing of shop A for another shop', async () => {
    const before = await snapshotOfShopA();
    for (const path of [
      '/admin/intelligence',
      '/admin/apps',
      '/admin/apps/loyalty',
      '/admin/apps/assistants/admin',
      '/admin/apps/loyalty/deliveries',
      '/admin/events',
    ]) {
      const page = await h.app.request(path);
      expect(page.status, path).toBe(303);
      expect(page.headers.get('location')).toBe('/admin/sign-in');
    }
    const posts = [
      `/admin/intelligence/pairs/${A_PAIR}`,
      `/admin/intelligence/proposals/${aProposalId}/approve`,
      `/admin/intelligence/proposals/${aProposalId}/reject`,
      '/admin/apps/install',
      '/admin/apps/assistants/admin/preview',
      '/admin/apps/assistants/admin/install',
      '/admin/apps/loyalty/blocks/notes',
      '/admin/apps/loyalty/panel/invoke',
      `/admin/apps/loyalty/deliveries/${A_DELIVERY}/redeliver`,
      '/admin/apps/loyalty/deliveries/resume',
    ];
    for (const path of posts) {
      const answer = await post(path, undefined, { revision: '1', status: 'published', approve: 'yes' });
      expect(answer.status, path).toBe(403);
    }
    const { cookie, csrf } = await adminSession(h, h.shopB.token, 'en');
    // Shop A's pair and proposal: not listed, not reviewed, not decided.
    const listed = await (await h.app.request('/admin/intelligence', { headers: { cookie } })).text();
    expect(listed).not.toContain(A_PAIR);
    expect(listed).not.toContain(aProposalId);
    const reviewed = await post(`/admin/intelligence/pairs/${A_PAIR}`, cookie, {
      csrf,
      revision: '1',
      status: 'published',
      approve: 'yes',
    });
    expect(reviewed.status).toBe(404);
    expect(
      (await post(`/admin/intelligence/proposals/${aProposalId}/approve`, cookie, { csrf })).status,
    ).toBe(404);
    expect((await post(`/admin/intelligence/proposals/${aProposalId}/reject`, cookie, { csrf })).status).toBe(
      404,
    );
    // Shop A's app records never show; its actions are not reached through a block or the panel door.
    const app = await (await h.app.request('/admin/apps/loyalty', { headers: { cookie } })).text();
    expect(app).not.toContain('Only shop A has this note.');
    const invoked = await post('/admin/apps/loyalty/panel/invoke', cookie, {
      csrf,
      nonce: `${'a'.repeat(24)}.${'b'.repeat(43)}`,
      action: 'add_note',
      input: JSON.stringify({ customer_id: aCustomerId, body: 'Intruder' }),
    });
    expect(invoked.status).toBe(403);
    // Shop A's delivery log is not shown, its delivery not redelivered, its app not resumed.
    expect((await h.app.request('/admin/apps/loyalty/deliveries', { headers: { cookie } })).status).toBe(404);
    expect(
      (await post(`/admin/apps/loyalty/deliveries/${A_DELIVERY}/redeliver`, cookie, { csrf })).status,
    ).toBe(404);
    expect((await post('/admin/apps/loyalty/deliveries/resume', cookie, { csrf })).status).toBe(404);
    // Shop A's events are not in shop B's event log.
    const eventLog = await h.app.request('/admin/events?after=0', { headers: { cookie } });
    expect(eventLog.status).toBe(200);
    const events = await eventLog.text();
    const ofA = await h.call('GET', '/api/events?limit=100', { token: h.shopA.token });
    expect((ofA.body.items as unknown[]).length).toBeGreaterThan(0);
    for (const event of ofA.body.items as { id: string }[]) expect(events).not.toContain(event.id);
    expect(await snapshotOfShopA()).toEqual(before);
  });

  it('customers: nothing without a session, nothing of shop A for another shop', async () => {
    const before = await snapshotOfShopA();
    const customer = `/admin/customers/${aCustomerId}`;
    for (const path of ['/admin/customers', '/admin/customers/new', customer]) {
      const page = await h.app.request(path);
      expect(page.status, path).toBe(303);
      expect(page.headers.get('location')).toBe('/admin/sign-in');
    }
    const form = {
      revision: '1',
      confirm: 'on',
      email: 'mallory@example.test',
      firstName: 'Mallory',
      lastName: 'M',
    };
    const posts = [
      '/admin/customers/new',
      customer,
      `${customer}/addresses/${aAddressId}`,
      `${customer}/addresses/${aAddressId}/remove`,
      `${customer}/delete`,
    ];
    for (const path of posts) expect((await post(path, undefined, form)).status, path).toBe(403);
    const { cookie, csrf } = await adminSession(h, h.shopB.token, 'en');
    // Shop A's customer: not listed, not shown, not changed, its addresses not reached.
    const listed = await (await h.app.request('/admin/customers', { headers: { cookie } })).text();
    expect(listed).not.toContain(aCustomerId);
    expect((await h.app.request(customer, { headers: { cookie } })).status).toBe(404);
    for (const path of posts.slice(1)) {
      const answer = await post(path, cookie, {
        ...form,
        csrf,
        street: 'Intruder 1',
        zipcode: '1',
        city: 'X',
        country: 'DE',
      });
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).not.toContain(aCustomerId);
    }
    expect(await snapshotOfShopA()).toEqual(before);
  });
});
