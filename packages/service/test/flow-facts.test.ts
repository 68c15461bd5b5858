import {
  addOrderToCustomerHistory,
  type Database,
  insertCustomer,
  insertProduct,
  type OrderRow,
  saveCompanyIdentity,
  updateOrderAtRevision,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { type ConditionTree, compileRule, type Facts } from '@cartwright/rules-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from '../src/checkout/checkout.ts';
import { createDocument } from '../src/documents/create.ts';
import { orderFacts } from '../src/flows/facts.ts';
import { createServices, type Services } from '../src/kernel/services.ts';
import { NATIVE_CUSTOMER_GROUPS } from '../src/shop/starter-definitions.ts';
import {
  createSellableShop,
  insertTestOrder,
  readyVisitor,
  SELLABLE,
  type SellableShop,
} from '../src/testing.ts';

// The ORDER scope: facts built from a stored order (its snapshots, states, tags and documents,
// its customer with history, the current product where a line snapshot lacks product data), and
// rules evaluated over them by the engine.

let database: Database;
let services: Services;
let shop: SellableShop;
let customerId: string;
let order: OrderRow;
const BOOK = '0190f0c8-0000-7000-8000-0000000000f1';
const GONE = '0190f0c8-0000-7000-8000-0000000000f2';
const CATEGORY = '0190f0c8-0000-7000-8000-0000000000f3';
const system = { kind: 'system', process: 'test' } as const;
const NOW = new Date('2025-03-14T09:26:53.589Z');

const factsOf = (orderId: string, tenantId = shop.tenantId) =>
  database.transaction((tx) => orderFacts(tx, services, tenantId, orderId));

function holds(condition: ConditionTree, facts: Facts): boolean {
  const compiled = compileRule(condition);
  if (!compiled.ok) throw new Error(compiled.detail);
  const decided = compiled.value.evaluate(facts);
  if (!decided.ok) throw new Error(decided.detail);
  return decided.value;
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database, { clock: { now: () => NOW } });
  shop = await createSellableShop(services, 'Flow facts shop');
  const at = services.clock.now();
  customerId = await database.transaction(async (tx) => {
    await insertProduct(
      tx,
      shop.tenantId,
      {
        id: BOOK,
        sku: 'BOOK',
        translations: { en: { name: 'Book' } },
        prices: [{ currency: 'EUR', gross: 1999, net: 1680, listGross: 2499 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 40,
        weightGrams: 350,
        manufacturer: 'Cartwright Press',
        categoryIds: [CATEGORY],
        tags: ['bestseller'],
        ruleMetadata: { productType: 'digital' },
      },
      at,
    );
    const customer = await insertCustomer(tx, {
      tenantId: shop.tenantId,
      id: services.ids.next(),
      email: 'erika@example.test',
      firstName: 'Erika',
      lastName: 'Mustermann',
      tags: ['regular'],
    });
    for (const totalGross of [4998, 2000]) {
      await addOrderToCustomerHistory(tx, shop.tenantId, {
        customerId: customer.id,
        currency: 'EUR',
        totalGross,
        placedAt: at,
      });
    }
    return customer.id;
  });
  const placed = await insertTestOrder(services, shop.tenantId, { customerId, productIds: [BOOK, GONE] });
  order = (await database.transaction((tx) =>
    updateOrderAtRevision(
      tx,
      shop.tenantId,
      placed.id,
      placed.revision,
      {
        tags: ['vip', 'gift'],
        affiliateCode: 'partner-7',
        customFields: { priority: 'high' },
        ruleMetadata: { segment: 'b2c' },
      },
      services.clock.now(),
    ),
  ))!;
});
afterAll(async () => database?.close());

describe('orderFacts', () => {
  it('builds the order, cart, customer, addresses and context of a stored order', async () => {
    const facts = (await factsOf(order.id))!;
    expect(facts.now).toBe('2025-03-14T09:26:53.589Z');
    expect(facts.order).toEqual({
      id: order.id,
      stateId: 'open',
      tagIds: ['vip', 'gift'],
      affiliateCode: 'partner-7',
      campaignCode: null,
      createdByAdmin: false,
      customFields: { priority: 'high' },
      ruleMetadata: { segment: 'b2c' },
      deliveries: [{ stateId: 'open', trackingCodes: [] }],
      transactions: [{ stateId: 'open', stateName: 'open' }],
      documents: [],
    });
    // 1 × 19.99 + 2 × 12.50 = 44.99, shipping 4.99.
    expect(facts.cart).toMatchObject({ amount: 49.98, positionPrice: 44.99, shippingCost: 4.99 });
    const [book, mug] = facts.cart!.lineItems;
    // The book still exists: what the snapshot lacks comes from the current product.
    expect(book).toMatchObject({
      id: 'l1',
      type: 'product',
      referencedId: BOOK,
      good: true,
      quantity: 1,
      price: { unitPrice: 19.99, totalPrice: 19.99, listPrice: { price: 24.99, percentage: 20.01 } },
      delivery: { weight: 0.35, stock: 40, freeDelivery: false },
      product: {
        parentId: null,
        manufacturerId: 'Cartwright Press',
        categoryIds: [CATEGORY],
        tagIds: ['bestseller'],
        optionIds: [],
        taxId: SELLABLE.standardTax,
        productType: 'digital',
      },
    });
    // The mug's product is gone: the item carries what its snapshot recorded.
    expect(mug).toMatchObject({
      id: 'l2',
      referencedId: GONE,
      quantity: 2,
      price: { unitPrice: 12.5, totalPrice: 25, listPrice: null },
      delivery: null,
      product: { parentId: null, optionIds: ['colour:blue'], tagIds: null, categoryIds: null },
    });
    expect(facts.customer).toMatchObject({
      id: customerId,
      tagIds: ['regular'],
      groupId: NATIVE_CUSTOMER_GROUPS.consumer,
      orderCount: 2,
      orderTotalAmount: 69.98,
    });
    expect(facts.billingAddress).toMatchObject({
      street: 'Heidestraße 17',
      countryId: 'DE',
      stateId: 'DE-NW',
    });
    expect(facts.shippingAddress).toMatchObject({ street: 'Am Markt 1', zipcode: '50667', city: 'Köln' });
    expect(facts.context).toEqual({
      channelId: shop.channelId,
      currencyId: 'EUR',
      languageId: 'en',
      taxDisplay: 'gross',
      shippingMethodId: null,
      paymentMethodId: null,
      customerGroupId: NATIVE_CUSTOMER_GROUPS.consumer,
      adminSource: false,
    });
  });

  it('lets rules of the order scope evaluate over them', async () => {
    const facts = (await factsOf(order.id))!;
    expect(holds({ type: 'orderStatus', value: { operator: '=', stateIds: ['open'] } }, facts)).toBe(true);
    expect(holds({ type: 'orderStatus', value: { operator: '=', stateIds: ['completed'] } }, facts)).toBe(
      false,
    );
    expect(holds({ type: 'orderTag', value: { operator: '=', identifiers: ['vip'] } }, facts)).toBe(true);
    expect(holds({ type: 'orderTag', value: { operator: 'empty' } }, facts)).toBe(false);
    expect(
      holds({ type: 'orderTransactionStatus', value: { operator: '=', stateIds: ['open'] } }, facts),
    ).toBe(true);
    expect(
      holds({ type: 'orderDeliveryStatus', value: { operator: '!=', stateIds: ['shipped'] } }, facts),
    ).toBe(true);
    expect(holds({ type: 'orderTrackingCode', value: { isSet: false } }, facts)).toBe(true);
    expect(holds({ type: 'cartCartAmount', value: { operator: '>=', amount: 49.98 } }, facts)).toBe(true);
    expect(holds({ type: 'cartCartAmount', value: { operator: '>', amount: 49.98 } }, facts)).toBe(false);
    expect(holds({ type: 'customerOrderCount', value: { operator: '=', count: 2 } }, facts)).toBe(true);
    expect(holds({ type: 'orderDocumentType', value: { operator: 'empty' } }, facts)).toBe(true);
    expect(
      holds({ type: 'orderDocumentType', value: { operator: '=', documentIds: ['invoice'] } }, facts),
    ).toBe(false);
  });

  it('sees the documents created for the order', async () => {
    await database.transaction(async (tx) => {
      await saveCompanyIdentity(
        tx,
        shop.tenantId,
        0,
        {
          name: 'Musterfirma GmbH',
          street: 'Hauptstraße 5',
          zipcode: '10115',
          city: 'Berlin',
          country: 'DE',
        },
        services.clock.now(),
      );
      const created = await createDocument(tx, services, shop.tenantId, {
        orderId: order.id,
        type: 'invoice',
        actor: system,
      });
      expect(created.ok).toBe(true);
    });
    const facts = (await factsOf(order.id))!;
    expect(facts.order?.documents).toEqual([{ documentTypeId: 'invoice', sent: false }]);
    expect(
      holds({ type: 'orderDocumentType', value: { operator: '=', documentIds: ['invoice'] } }, facts),
    ).toBe(true);
    expect(
      holds({ type: 'orderDocumentType', value: { operator: '=', documentIds: ['delivery_note'] } }, facts),
    ).toBe(false);
  });

  it('takes the methods and price mode of an order placed at checkout', async () => {
    const { context, customerId: buyer } = await readyVisitor(services, shop, { [BOOK]: 2 });
    const placed = await checkout(services, shop.tenantId, context, undefined);
    if (!placed.ok) throw new Error(placed.detail);
    const facts = (await factsOf(placed.value.id))!;
    expect(facts.context).toMatchObject({
      shippingMethodId: SELLABLE.parcel,
      paymentMethodId: SELLABLE.invoice,
      taxDisplay: 'gross',
      customerGroupId: NATIVE_CUSTOMER_GROUPS.consumer,
    });
    // 2 × 19.99 + 4.90 parcel.
    expect(facts.cart).toMatchObject({ amount: 44.88, positionPrice: 39.98, shippingCost: 4.9 });
    expect(facts.cart?.lineItems).toHaveLength(1);
    expect(facts.cart?.lineItems[0]).toMatchObject({
      referencedId: BOOK,
      quantity: 2,
      product: { tagIds: ['bestseller'] },
    });
    expect(facts.customer?.id).toBe(buyer);
    expect(facts.shippingAddress).toMatchObject({ street: SELLABLE.address.street, countryId: 'DE' });
  });

  it('answers undefined for an order of another shop or none at all', async () => {
    const other = await createSellableShop(services, 'Other flow facts shop');
    const foreign = await insertTestOrder(services, other.tenantId);
    expect(await factsOf(foreign.id)).toBeUndefined();
    expect(await factsOf(services.ids.next())).toBeUndefined();
    expect(await factsOf(foreign.id, other.tenantId)).toBeDefined();
  });
});
