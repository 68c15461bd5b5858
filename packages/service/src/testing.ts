import {
  insertCustomer,
  listChannels,
  type StoreContextRow,
  saveBasis,
  updateCart,
} from '@cartwright/repository';
import { openCartOf } from './carts/cart.ts';
import type { Services } from './services.ts';
import { createShop } from './shops.ts';
import { openStoreContext } from './store-context.ts';

// Fixtures for tests and benchmarks that need a shop able to sell: not used by the service itself.

export const SELLABLE = {
  standardTax: '0190f0c8-0000-7000-8000-0000000f0001',
  reducedTax: '0190f0c8-0000-7000-8000-0000000f0002',
  parcel: '0190f0c8-0000-7000-8000-0000000f0003',
  invoice: '0190f0c8-0000-7000-8000-0000000f0004',
  address: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    street: 'Main 1',
    zipcode: '10115',
    city: 'Berlin',
    country: 'DE',
  },
} as const;

export interface SellableShop {
  readonly tenantId: string;
  readonly channelId: string;
}

/**
 * A new shop with Germany, a 19 % and a 7 % tax class, a parcel service at 4.90 EUR (no tax class
 * of its own) and invoice payment; products are the caller's.
 */
export async function createSellableShop(services: Services, name = 'Sellable shop'): Promise<SellableShop> {
  const { tenantId } = await createShop(services, { name });
  const at = services.clock.now();
  const { standardTax, reducedTax, parcel, invoice } = SELLABLE;
  await services.database.transaction(async (tx) => {
    await saveBasis(
      tx,
      'countries',
      tenantId,
      'DE',
      0,
      { code: 'DE', translations: { en: { name: 'Germany' } } },
      at,
    );
    await saveBasis(
      tx,
      'taxClasses',
      tenantId,
      standardTax,
      0,
      { id: standardTax, translations: { en: { name: 'Standard' } }, rates: [{ country: null, rate: 1900 }] },
      at,
    );
    await saveBasis(
      tx,
      'taxClasses',
      tenantId,
      reducedTax,
      0,
      { id: reducedTax, translations: { en: { name: 'Reduced' } }, rates: [{ country: null, rate: 700 }] },
      at,
    );
    await saveBasis(
      tx,
      'shippingMethods',
      tenantId,
      parcel,
      0,
      {
        id: parcel,
        translations: { en: { name: 'Parcel' } },
        prices: [{ currency: 'EUR', gross: 490, net: 412 }],
      },
      at,
    );
    await saveBasis(
      tx,
      'paymentMethods',
      tenantId,
      invoice,
      0,
      { id: invoice, translations: { en: { name: 'Invoice' } }, handler: 'invoice' },
      at,
    );
  });
  const [main] = await listChannels(services.database.db, tenantId);
  return { tenantId, channelId: main!.id };
}

/** A logged-in customer whose cart holds `lines` (product id → quantity), ready for checkout. */
export async function readyVisitor(
  services: Services,
  shop: SellableShop,
  lines: Record<string, number>,
): Promise<{ context: StoreContextRow; customerId: string }> {
  return services.database.transaction(async (tx) => {
    const customer = await insertCustomer(tx, {
      tenantId: shop.tenantId,
      id: services.ids.next(),
      email: `${services.ids.next()}@example.test`,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const { context } = await openStoreContext(tx, services, shop, { customerId: customer.id });
    const cart = await openCartOf(tx, services, shop.tenantId, context);
    await updateCart(tx, shop.tenantId, cart.id, {
      customerId: customer.id,
      lines: Object.entries(lines).map(([productId, quantity]) => ({
        id: services.ids.next(),
        productId,
        quantity,
      })),
      billingAddress: SELLABLE.address,
      shippingAddress: SELLABLE.address,
      shippingMethodId: SELLABLE.parcel,
      paymentMethodId: SELLABLE.invoice,
    });
    return { context, customerId: customer.id };
  });
}
