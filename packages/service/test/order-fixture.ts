import { priceCart } from '@cartwright/commerce';
import { insertOrder, listChannels, nextCounterValue, type OrderRow } from '@cartwright/repository';
import type { Services } from '@cartwright/service';

// Orders come from checkout; until it exists these tests write the row the way it will: a priced
// cart (two lines at 19 % VAT in EUR, gross prices) frozen into the order's snapshot.

export interface OrderFixture {
  readonly customerId?: string | null;
  readonly paymentState?: string;
  readonly language?: string;
  /** The products of the two lines (default: fresh ids no product has). */
  readonly productIds?: readonly [string, string];
}

const billingAddress = {
  salutation: 'Ms',
  firstName: 'Erika',
  lastName: 'Mustermann',
  company: null,
  street: 'Heidestraße 17',
  additionalLine: null,
  zipcode: '51147',
  city: 'Köln',
  country: 'DE',
  subdivision: 'DE-NW',
  phone: null,
};
const shippingAddress = { ...billingAddress, street: 'Am Markt 1', zipcode: '50667' };

/** Inserts an order of shop `tenantId` with the next order number and answers its row. */
export async function insertTestOrder(
  services: Services,
  tenantId: string,
  fixture: OrderFixture = {},
): Promise<OrderRow> {
  const [book, mug] = fixture.productIds ?? [services.ids.next(), services.ids.next()];
  const priced = priceCart({
    currency: { code: 'EUR', precision: 2 },
    priceMode: 'gross',
    lines: [
      {
        id: 'l1',
        productId: book,
        sku: 'EBOOK-1',
        quantity: 1,
        unitPrice: { gross: 1999, net: 1680 },
        taxRate: 1900,
      },
      {
        id: 'l2',
        productId: mug,
        sku: 'MUG-1',
        quantity: 2,
        unitPrice: { gross: 1250, net: 1050 },
        taxRate: 1900,
      },
    ],
    shipping: { price: { gross: 499, net: 419 }, taxRate: 1900 },
  });
  if (!priced.ok) throw new Error(priced.detail);
  const names: Record<string, string> = {
    l1: 'The Cartwright Handbook (e-book)',
    l2: 'Enamel mug “Cartwright”',
  };
  const { lines, ...price } = priced.value;
  return services.database.transaction(async (tx) => {
    const [channel] = await listChannels(tx, tenantId);
    const now = services.clock.now();
    return insertOrder(tx, {
      tenantId,
      id: services.ids.next(),
      number: 10_000 + (await nextCounterValue(tx, tenantId, 'order')),
      channelId: channel!.id,
      customerId: fixture.customerId ?? null,
      currency: 'EUR',
      language: fixture.language ?? 'en',
      paymentState: fixture.paymentState ?? 'open',
      price: { ...price },
      lines: lines.map((line) => ({
        ...line,
        type: 'product',
        parentId: null,
        name: names[line.id],
        options: line.id === 'l2' ? { colour: 'blue' } : {},
      })),
      customer: {
        email: 'erika@example.test',
        firstName: 'Erika',
        lastName: 'Mustermann',
        group: 'consumer',
      },
      billingAddress,
      shippingAddress,
      shippingMethod: { key: 'standard', name: 'Standard' },
      paymentMethod: { key: 'invoice', name: 'Invoice', handler: 'invoice' },
      settingsSnapshot: {},
      placedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  });
}
