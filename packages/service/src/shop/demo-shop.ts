import { type Executor, insertProduct, saveBasis } from '@cartwright/repository';
import { bumpBasisRevision } from '../channels/settings.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';

// What the demo shop of a first start sells with, so a new user can buy at once: Germany with its
// states, a 19 % and a 7 % tax class, one shipping and one payment method (the main channel
// inherits both) and three products with stock. Everything is labelled demo: names start with
// "Demo", keys with `demo_`, SKUs with `DEMO-`, products carry the tag `demo`.

const GERMAN_STATES: readonly (readonly [code: string, name: string])[] = [
  ['DE-BW', 'Baden-Württemberg'],
  ['DE-BY', 'Bavaria'],
  ['DE-BE', 'Berlin'],
  ['DE-BB', 'Brandenburg'],
  ['DE-HB', 'Bremen'],
  ['DE-HH', 'Hamburg'],
  ['DE-HE', 'Hesse'],
  ['DE-MV', 'Mecklenburg-Western Pomerania'],
  ['DE-NI', 'Lower Saxony'],
  ['DE-NW', 'North Rhine-Westphalia'],
  ['DE-RP', 'Rhineland-Palatinate'],
  ['DE-SL', 'Saarland'],
  ['DE-SN', 'Saxony'],
  ['DE-ST', 'Saxony-Anhalt'],
  ['DE-SH', 'Schleswig-Holstein'],
  ['DE-TH', 'Thuringia'],
];

/** Prices in minor units (cents); net is gross without the product's tax, rounded. */
const DEMO_PRODUCTS = [
  { sku: 'DEMO-MUG', name: 'Demo mug', gross: 1290, net: 1084, tax: 'standard', stock: 100 },
  { sku: 'DEMO-TEA', name: 'Demo tea, 100 g', gross: 590, net: 551, tax: 'reduced', stock: 250 },
  { sku: 'DEMO-SHIRT', name: 'Demo T-shirt', gross: 1999, net: 1680, tax: 'standard', stock: 40 },
] as const;

const provisioning: Actor = { kind: 'system', process: 'provisioning' };

/** Gives a new shop (EUR already set up) the demo basis and products, in the caller's transaction. */
export async function makeDemoShopSellable(
  tx: Executor,
  services: Services,
  tenantId: string,
): Promise<void> {
  const at = services.clock.now();
  const en = (name: string, more: Record<string, string> = {}) => ({ en: { name, ...more } });
  await saveBasis(
    tx,
    'countries',
    tenantId,
    'DE',
    0,
    {
      code: 'DE',
      translations: en('Germany'),
      subdivisions: GERMAN_STATES.map(([code, name]) => ({ code, translations: en(name) })),
      active: true,
    },
    at,
  );
  const taxClasses = { standard: services.ids.next(), reduced: services.ids.next() };
  for (const [kind, rate, name] of [
    ['standard', 1900, 'Demo standard rate'],
    ['reduced', 700, 'Demo reduced rate'],
  ] as const) {
    await saveBasis(
      tx,
      'taxClasses',
      tenantId,
      taxClasses[kind],
      0,
      {
        id: taxClasses[kind],
        key: `demo_${kind}`,
        translations: en(name, { label: `VAT ${rate / 100} %` }),
        rates: [{ country: null, rate }],
      },
      at,
    );
  }
  const shipping = services.ids.next();
  await saveBasis(
    tx,
    'shippingMethods',
    tenantId,
    shipping,
    0,
    {
      id: shipping,
      key: 'demo_standard_shipping',
      translations: en('Demo standard shipping', { description: 'Delivered in 2–4 working days.' }),
      active: true,
      prices: [{ currency: 'EUR', gross: 490, net: 412 }],
      taxClassId: null,
      position: 0,
    },
    at,
  );
  const payment = services.ids.next();
  await saveBasis(
    tx,
    'paymentMethods',
    tenantId,
    payment,
    0,
    {
      id: payment,
      key: 'demo_invoice',
      translations: en('Demo invoice', { description: 'Pay within 14 days of delivery.' }),
      active: true,
      handler: 'invoice',
      position: 0,
    },
    at,
  );
  await bumpBasisRevision(tx, tenantId);
  for (const product of DEMO_PRODUCTS) {
    const id = services.ids.next();
    await insertProduct(
      tx,
      tenantId,
      {
        id,
        parentId: null,
        sku: product.sku,
        active: true,
        translations: en(product.name, { description: 'A demo product: change or delete it freely.' }),
        prices: [{ currency: 'EUR', gross: product.gross, net: product.net }],
        purchasePrices: [],
        taxClassId: taxClasses[product.tax],
        stockAvailable: product.stock,
        categoryIds: [],
        tags: ['demo'],
        properties: {},
        customFields: {},
        flags: { new: false, closeout: false, topseller: false, shippingFree: false },
      },
      at,
    );
    await recordEvent(tx, services, tenantId, provisioning, 'catalog.product.created', {
      productId: id,
      revision: 1,
    });
  }
}
