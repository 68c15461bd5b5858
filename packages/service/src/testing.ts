import { priceCart } from '@cartwright/commerce';
import {
  insertCustomer,
  insertOrder,
  listChannels,
  nextCounterValue,
  type OrderRow,
  type StoreContextRow,
  saveBasis,
  updateCart,
} from '@cartwright/repository';
import sharp from 'sharp';
import { createToken } from './access/tokens.ts';
import { openCartOf } from './carts/cart.ts';
import { bumpBasisRevision } from './channels/settings.ts';
import { openStoreContext } from './customers/contexts.ts';
import { authenticate, type Principal } from './kernel/auth.ts';
import type { Services } from './kernel/services.ts';
import { createShop } from './shop/shops.ts';

export {
  pngBomb,
  pngDeclaring,
  type SampleFormat,
  sampleImage,
  samplePixels,
  truncated,
} from './media/image-samples.ts';

// Fixtures for tests and benchmarks that need a shop able to sell: not used by the service itself.

/**
 * The RGBA pixels of a PNG, JPEG or WebP image (tests compare an image draft with what the provider
 * fixture drew), decoded by the service's own image library.
 */
export async function imagePixels(
  bytes: Uint8Array,
): Promise<{ readonly width: number; readonly height: number; readonly rgba: Uint8Array }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

export const SELLABLE = {
  standardTax: '0190f0c8-0000-7000-8000-0000000f0001',
  reducedTax: '0190f0c8-0000-7000-8000-0000000f0002',
  parcel: '0190f0c8-0000-7000-8000-0000000f0003',
  invoice: '0190f0c8-0000-7000-8000-0000000f0004',
  /** The provider payment method `addProviderPayment` adds (not part of `makeSellable`). */
  provider: '0190f0c8-0000-7000-8000-0000000f0005',
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

/** A new admin API token of the shop and the principal it authenticates as. */
export async function adminPrincipal(
  services: Services,
  tenantId: string,
  name = 'test admin',
): Promise<{ token: string; principal: Principal }> {
  const created = await services.database.transaction((tx) =>
    createToken(
      tx,
      services,
      tenantId,
      { kind: 'system', process: 'test' },
      { name, kind: 'api', role: 'admin' },
    ),
  );
  if (!created.ok) throw new Error(created.detail);
  const principal = await authenticate(services, created.value.token);
  if (!principal.ok) throw new Error(principal.detail);
  return { token: created.value.token, principal: principal.value };
}

/**
 * A new shop with Germany, a 19 % and a 7 % tax class, a parcel service at 4.90 EUR (no tax class
 * of its own) and invoice payment; products are the caller's.
 */
export async function createSellableShop(services: Services, name = 'Sellable shop'): Promise<SellableShop> {
  const { tenantId } = await createShop(services, { name });
  return makeSellable(services, tenantId);
}

/** Gives an existing shop what `createSellableShop` gives a new one (basis only; products are the caller's). */
export async function makeSellable(services: Services, tenantId: string): Promise<SellableShop> {
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
    await bumpBasisRevision(tx, tenantId);
  });
  const [main] = await listChannels(services.database.db, tenantId);
  return { tenantId, channelId: main!.id };
}

/** Adds the payment method `SELLABLE.provider` (handler `provider`: the shop's payment provider). */
export async function addProviderPayment(services: Services, tenantId: string): Promise<void> {
  await services.database.transaction(async (tx) => {
    await saveBasis(
      tx,
      'paymentMethods',
      tenantId,
      SELLABLE.provider,
      0,
      { id: SELLABLE.provider, translations: { en: { name: 'PayPal' } }, handler: 'provider' },
      services.clock.now(),
    );
    await bumpBasisRevision(tx, tenantId);
  });
}

/**
 * A logged-in customer whose cart holds `lines` (product id → quantity), ready for checkout with
 * the invoice method (or `paymentMethodId`).
 */
export async function readyVisitor(
  services: Services,
  shop: SellableShop,
  lines: Record<string, number>,
  options: { readonly paymentMethodId?: string } = {},
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
      paymentMethodId: options.paymentMethodId ?? SELLABLE.invoice,
    });
    return { context, customerId: customer.id };
  });
}

/**
 * An order row written directly, the way checkout writes one (two lines at 19 % VAT in EUR, gross
 * prices, 4.99 shipping), for tests of what happens to orders after checkout.
 */

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
