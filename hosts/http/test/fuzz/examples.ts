import { SELLABLE } from '@cartwright/service/testing';
import type { Pools } from './generator.ts';

// Inputs the schema alone rarely produces (a rule's `data` is `{}` in the document, so random JSON
// is nearly always refused): one realistic input per such operation. The generator uses each as
// a second base beside the schema's, and mutates both the same way, so hostile values also reach
// the code behind validation (rule compilation, pricing, checkout readiness).

export interface Example {
  readonly pathParams?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

const address = SELLABLE.address;

/** A 2 × 2 PNG, base64: what an image upload needs to get past the image check. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWM4UaFxokKDAUIBACnuBaHUWYGdAAAAAElFTkSuQmCC';

const condition = {
  type: 'orContainer',
  children: [
    { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
    { type: 'andContainer', children: [{ type: 'alwaysValid' }] },
  ],
};

/**
 * The realistic input of an operation, if it has one. `nonce` varies what must be unique (SKU,
 * email, method key), so a run does not end up only ever hitting "taken".
 */
export function exampleOf(operationId: string, pools: Pools, nonce: number): Example | undefined {
  const first = (kind: string) => pools.own[kind]?.[0] ?? '0190f0c8-0000-7000-8000-000000000000';
  switch (operationId) {
    case 'automation.save':
      // Every other example a promotion, so hostile values reach its codes and discounts too.
      return nonce % 2 === 0
        ? {
            pathParams: { kind: 'rules' },
            body: { revision: 0, data: { name: { en: 'Fuzz rule' }, condition } },
          }
        : {
            pathParams: { kind: 'promotions' },
            body: {
              revision: 0,
              data: {
                name: { en: 'Fuzz promotion' },
                campaign: { priority: 3, exclusive: nonce % 3 === 0 },
                condition,
                codes: { type: 'global', code: `FUZZ-${nonce}`, limit: 5 },
                discounts: [
                  { scope: 'cart', type: 'percentage', value: 12.5 },
                  { scope: 'shipping', type: 'absolute', amounts: { EUR: 250 } },
                  {
                    scope: 'lineItems',
                    type: 'percentage',
                    value: 5,
                    condition: { type: 'cartLineItemTotalPrice', value: { operator: '>=', amount: 1 } },
                  },
                ],
              },
            },
          };
    case 'store.cart.promotionCodes.add':
      return { body: { code: `FUZZ-${nonce % 50}` } };
    case 'automation.preview':
      return { body: { condition } };
    case 'automation.explain':
      return {
        body: {
          condition,
          facts: { now: '2026-01-01T00:00:00Z', cart: { amount: 120, lineItems: [] } },
        },
      };
    case 'automation.import':
      return {
        body: {
          condition: [
            { id: 'root', type: 'andContainer', parentId: null },
            { id: 'leaf', type: 'cartCartAmount', parentId: 'root', value: { operator: '>=', amount: 1 } },
          ],
        },
      };
    case 'automation.entities.save':
      return {
        pathParams: { entity: 'products', id: first('products') },
        body: { revision: 1, data: { tier: 'gold' } },
      };
    case 'catalog.products.create':
      return {
        body: {
          sku: `FUZZ-${nonce}`,
          translations: { en: { name: 'Fuzz' } },
          prices: [{ currency: 'EUR', gross: 1190, net: 1000 }],
          taxClassId: first('taxClasses'),
          stockAvailable: 5,
          categoryIds: [first('categories')],
        },
      };
    case 'customers.create':
      return {
        body: {
          email: `fuzz${nonce}@a.test`,
          password: 'fuzz-password',
          firstName: 'F',
          lastName: 'Z',
          addresses: [{ address }],
        },
      };
    case 'store.account.register':
      return {
        body: {
          email: `fuzz-visitor${nonce}@a.test`,
          password: 'fuzz-password',
          firstName: 'F',
          lastName: 'Z',
          billingAddress: address,
        },
      };
    case 'store.account.login':
      return { body: { email: pools.emails[0], password: 'correct horse battery' } };
    case 'store.cart.lines.add':
      return { body: { productId: first('products'), quantity: 1 } };
    case 'store.cart.update':
      return {
        body: {
          billingAddress: address,
          shippingAddress: address,
          shippingMethodId: first('shippingMethods'),
          paymentMethodId: first('paymentMethods'),
        },
      };
    case 'orders.transition':
      return {
        pathParams: { orderId: first('orders') },
        body: { machine: 'order', to: 'in_progress', revision: 1 },
      };
    case 'merchant.commerce.save':
      return {
        body: {
          revision: 0,
          baseRevision: 1,
          channel: {
            name: { en: 'Fuzz channel' },
            mode: 'headless',
            paused: false,
            private: true,
            languages: ['en'],
          },
          overrides: { taxRules: [] },
        },
      };
    case 'basis.payment_methods.save':
      return {
        body: {
          revision: 0,
          key: `fuzz_${nonce}`,
          translations: { en: { name: 'Fuzz' } },
          handler: 'prepayment',
        },
      };
    case 'basis.shipping_methods.save':
      return { body: { revision: 0, key: `fuzz_${nonce}`, translations: { en: { name: 'Fuzz' } } } };
    case 'catalog.categories.save':
      return { body: { revision: 0, translations: { en: { name: 'Fuzz' } } } };
    case 'basis.tax_classes.save':
      return {
        body: { revision: 0, translations: { en: { name: 'Fuzz' } }, rates: [{ country: null, rate: 1900 }] },
      };
    case 'catalog.assets.create':
      return { body: { fileName: 'a.txt', contentType: 'text/plain', contentBase64: 'YQ==' } };
    case 'merchant.media.gallery.add':
    case 'merchant.media.assets.upload':
      return { body: { contentBase64: TINY_PNG, altTexts: { en: `Fuzz ${nonce}` } } };
    default:
      return undefined;
  }
}
