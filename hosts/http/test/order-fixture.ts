import { insertOrder, listChannels, nextCounterValue, type OrderRow } from '@cartwright/repository';
import type { Services } from '@cartwright/service';

// Orders come from checkout; until it exists these tests write the row the way it will: a priced
// cart frozen into the order (two lines at 19 % VAT in EUR, gross prices, 4.99 shipping).

const address = {
  firstName: 'Erika',
  lastName: 'Mustermann',
  street: 'Heidestraße 17',
  zipcode: '51147',
  city: 'Köln',
  country: 'DE',
};
const taxed = (gross: number, tax: number) => ({ gross, tax, net: gross - tax });

/** Inserts an order of the shop with the next order number and answers its row. */
export async function insertTestOrder(
  services: Services,
  tenantId: string,
  fixture: { customerId?: string; paymentState?: string; productIds?: readonly [string, string] } = {},
): Promise<OrderRow> {
  const [book, mug] = fixture.productIds ?? [services.ids.next(), services.ids.next()];
  const lines = [
    {
      id: 'l1',
      productId: book,
      sku: 'EBOOK-1',
      name: 'Handbook',
      quantity: 1,
      unitPrice: 1999,
      taxRate: 1900,
      total: taxed(1999, 319),
    },
    {
      id: 'l2',
      productId: mug,
      sku: 'MUG-1',
      name: 'Mug',
      quantity: 2,
      unitPrice: 1250,
      taxRate: 1900,
      total: taxed(2500, 399),
    },
  ];
  const price = {
    currency: { code: 'EUR', precision: 2 },
    priceMode: 'gross',
    subtotal: taxed(4499, 718),
    shipping: { ...taxed(499, 80), taxRate: 1900 },
    taxes: [{ rate: 1900, tax: 798, base: 4200 }],
    total: taxed(4998, 798),
    positionCount: 2,
  };
  return services.database.transaction(async (tx) => {
    const [channel] = await listChannels(tx, tenantId);
    const now = services.clock.now();
    return insertOrder(tx, {
      tenantId,
      id: services.ids.next(),
      number: await nextCounterValue(tx, tenantId, 'order'),
      channelId: channel!.id,
      customerId: fixture.customerId ?? null,
      currency: 'EUR',
      language: 'en',
      paymentState: fixture.paymentState ?? 'open',
      price,
      lines,
      customer: { email: 'erika@example.test', firstName: 'Erika', lastName: 'Mustermann' },
      billingAddress: address,
      shippingAddress: address,
      shippingMethod: { key: 'standard' },
      paymentMethod: { key: 'invoice' },
      settingsSnapshot: {},
      placedAt: now,
    });
  });
}
