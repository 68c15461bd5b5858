import {
  type Database,
  findOrder,
  insertProduct,
  type StoreContextRow,
  saveBasis,
  updateCart,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { type AppServiceFixture, startAppServiceFixture } from '@cartwright/tooling/app-service-fixture';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAppServices } from '../src/apps/external/http-app-services.ts';
import { createWorkerAppSandbox } from '../src/apps/sandbox/worker-pool.ts';
import { openCartOf, viewCart } from '../src/carts/cart.ts';
import { bumpBasisRevision } from '../src/channels/settings.ts';
import { checkout } from '../src/checkout/checkout.ts';
import { createServices, invokeOperation, operations, type Services } from '../src/index.ts';
import type { Principal } from '../src/kernel/auth.ts';
import { createShop } from '../src/shop/shops.ts';
import { adminPrincipal, makeSellable, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// A shipping method priced by an installed app (issue 17; decision 0042): cart pricing asks the
// app's `shipping.rate` (a sandboxed module or the app's external service) with the contract's
// input, once per pricing, within a short deadline, and reads the answer against the contract.
// Any failure is the cart's problem SHIPPING_RATE_UNAVAILABLE and checkout refuses: never a free rate.

const CREDENTIAL = 'courier-credential-0123456789';
const TEA = '0190f0c8-0000-7000-8000-0000000b1001';
/** Two lines of it fit the safe integers each, not together. */
const GOLD = '0190f0c8-0000-7000-8000-0000000b1002';
const PLATINUM = '0190f0c8-0000-7000-8000-0000000b1003';
const METHOD = {
  module: '0190f0c8-0000-7000-8000-0000000b2001',
  external: '0190f0c8-0000-7000-8000-0000000b2002',
  unconfigured: '0190f0c8-0000-7000-8000-0000000b2003',
  uninstalled: '0190f0c8-0000-7000-8000-0000000b2004',
  otherShop: '0190f0c8-0000-7000-8000-0000000b2005',
};
const RULE = '0190f0c8-0000-7000-8000-0000000b3001';
const TAX_RULE = '0190f0c8-0000-7000-8000-0000000b3002';

/** An app whose `rate` action (module or external) declares exactly the shipping contract. */
function shippingApp(id: string, runtime: 'module' | 'external', version = '1.0.0') {
  return {
    apiVersion: 1,
    id,
    version,
    name: { en: `Shipping by ${id}` },
    actions: [
      {
        id: 'rate',
        kind: 'service',
        runtime,
        ...(runtime === 'module' ? { export: 'rate' } : {}),
        input: [
          { name: 'currency', type: 'string', maxLength: 3, required: true },
          { name: 'country', type: 'string', maxLength: 2 },
          { name: 'quantity', type: 'integer', required: true },
          { name: 'subtotal', type: 'integer', required: true },
        ],
        // No bounds declared: the contract (non-negative, net ≤ gross) is the service's own check.
        output: [
          { name: 'gross', type: 'integer', required: true },
          { name: 'net', type: 'integer', required: true },
        ],
      },
    ],
    shipping: { label: { en: 'Calculated shipping' }, rate: 'rate' },
  };
}

/** 3.50 plus 1.50 per unit, 10.00 more outside Germany (or with no address), free from 100.00; 99 units never end. */
const MODULE = `
export function rate(input) {
  if (input.quantity === 99) for (;;) {}
  if (input.subtotal >= 10000) return { gross: 0, net: 0 };
  const gross = 350 + 150 * input.quantity + (input.country === 'DE' ? 0 : 1000);
  return { gross, net: Math.round((gross * 100) / 119) };
}
`;

let database: Database;
let services: Services;
let fixture: AppServiceFixture;
const sandbox = createWorkerAppSandbox();
let shop: SellableShop & { principal: Principal };
let other: SellableShop & { principal: Principal };

async function call(name: string, input: unknown, principal = shop.principal) {
  const operation = operations.find((candidate) => candidate.name === name)!;
  return invokeOperation(services, operation, principal, input);
}

async function succeed(name: string, input: unknown, principal = shop.principal) {
  const result = await call(name, input, principal);
  if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
  return result.value as Record<string, unknown>;
}

const saveMethod = (id: string, appId: string | null, principal = shop.principal) =>
  call(
    'basis.shipping_methods.save',
    { id, revision: 0, translations: { en: { name: id } }, appId },
    principal,
  );

/** A logged-in visitor ready for checkout with `lines`, their cart on the shipping method `methodId`. */
async function visitor(
  methodId: string,
  lines: Record<string, number>,
  of: SellableShop = shop,
  changes: { shippingAddress?: null } = {},
): Promise<StoreContextRow> {
  const { context } = await readyVisitor(services, of, lines);
  await database.transaction(async (tx) => {
    const cart = await openCartOf(tx, services, of.tenantId, context);
    await updateCart(tx, of.tenantId, cart.id, { shippingMethodId: methodId, ...changes });
  });
  return context;
}

function view(context: StoreContextRow, of: SellableShop = shop) {
  return database.transaction(async (tx) =>
    viewCart(tx, services, of.tenantId, await openCartOf(tx, services, of.tenantId, context), context),
  );
}

/** The main channel's own fields as a save takes them (its languages are the shop's). */
async function mainChannel() {
  const main = await succeed('merchant.commerce.read', { channelId: shop.channelId });
  const { languages: _, ...channel } = main.channel as Record<string, unknown>;
  return { revision: main.revision, baseRevision: main.baseRevision, channel };
}

const codes = (problems: readonly { code: string }[]) => problems.map((problem) => problem.code);
const rateCalls = () => fixture.calls.filter((received) => received.action === 'rate');

/** The cart shows the rate as unavailable (shipping unpriced) and checkout refuses it. */
async function expectUnavailable(context: StoreContextRow, of: SellableShop = shop) {
  const cart = await view(context, of);
  expect(codes(cart.problems)).toEqual(['SHIPPING_RATE_UNAVAILABLE']);
  expect(cart.total).toEqual(cart.subtotal);
  const placed = await checkout(services, of.tenantId, context, undefined);
  expect(placed.ok).toBe(false);
  if (placed.ok) return;
  expect(placed.code).toBe('CART_INVALID');
  expect(codes((placed.extensions?.problems ?? []) as { code: string }[])).toEqual([
    'SHIPPING_RATE_UNAVAILABLE',
  ]);
}

async function sellableShop(name: string) {
  const { tenantId } = await createShop(services, { name });
  const sellable = await makeSellable(services, tenantId);
  await database.transaction(async (tx) => {
    const product = (id: string, sku: string, gross: number, net: number) =>
      insertProduct(
        tx,
        tenantId,
        {
          id,
          sku,
          translations: { en: { name: sku } },
          prices: [{ currency: 'EUR', gross, net }],
          taxClassId: SELLABLE.standardTax,
          stockAvailable: 10_000,
        },
        services.clock.now(),
      );
    await product(TEA, 'TEA', 1000, 840);
    // Written past the catalog's bounds, as rows stored before them may be (decision 0025).
    await product(GOLD, 'GOLD', 2 ** 52, 2 ** 52);
    await product(PLATINUM, 'PLATINUM', 2 ** 52, 2 ** 52);
  });
  return { ...sellable, principal: (await adminPrincipal(services, tenantId, 'shipping')).principal };
}

beforeAll(async () => {
  database = await createTestDatabase();
  fixture = await startAppServiceFixture({
    credential: CREDENTIAL,
    actions: {
      rate: ({ input }) => {
        const { quantity } = input as { quantity: number };
        return { gross: 200 * quantity, net: 168 * quantity };
      },
    },
  });
  services = createServices(database, {
    sandbox,
    // Longer than pricing waits, so a slow answer runs into pricing's own deadline.
    appServices: createHttpAppServices(
      new Map([['courier', { baseUrl: fixture.url, credential: CREDENTIAL, timeoutMs: 5_000 }]]),
    ),
  });
  shop = await sellableShop('App shipping');
  other = await sellableShop('Another shop');
  await succeed('apps.install', {
    appId: 'calc',
    revision: 0,
    manifest: shippingApp('calc', 'module'),
    module: MODULE,
  });
  await succeed('apps.install', {
    appId: 'courier',
    revision: 0,
    manifest: shippingApp('courier', 'external'),
  });
  await succeed('apps.install', {
    appId: 'nowhere',
    revision: 0,
    manifest: shippingApp('nowhere', 'external'),
  });
  await succeed('apps.install', {
    appId: 'plain',
    revision: 0,
    manifest: { apiVersion: 1, id: 'plain', version: '1.0.0', name: { en: 'Plain' } },
  });
  for (const [methodId, appId] of [
    [METHOD.module, 'calc'],
    [METHOD.external, 'courier'],
    [METHOD.unconfigured, 'nowhere'],
  ] as const) {
    expect((await saveMethod(methodId, appId)).ok).toBe(true);
  }
});
afterAll(async () => {
  await sandbox.close();
  await fixture?.close();
  await database?.close();
});
afterEach(() => {
  fixture.clear();
  fixture.clearFaults();
});

describe('shipping methods naming an app', () => {
  it('keep the app and refuse one that is not installed here or computes no shipping rate', async () => {
    const saved = await call('basis.shipping_methods.list', {});
    expect(saved.ok && (saved.value as { items: { id: string; appId: string | null }[] }).items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: METHOD.module, appId: 'calc' }),
        expect.objectContaining({ id: SELLABLE.parcel, appId: null }),
      ]),
    );
    for (const appId of ['missing', 'plain']) {
      const refused = await saveMethod('0190f0c8-0000-7000-8000-0000000b2f01', appId);
      expect(refused).toMatchObject({
        ok: false,
        code: 'VALIDATION_FAILED',
        errors: [{ pointer: '/appId', message: 'not an installed app with a shipping rate' }],
      });
    }
  });

  it('cannot name another shop’s app', async () => {
    const refused = await saveMethod('0190f0c8-0000-7000-8000-0000000b2f02', 'calc', other.principal);
    expect(refused).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', errors: [{ pointer: '/appId' }] });
  });

  it('is shared basis: a channel cannot swap the app', async () => {
    const refused = await call('merchant.commerce.save', {
      channelId: shop.channelId,
      ...(await mainChannel()),
      overrides: { shippingMethods: { [METHOD.module]: { appId: 'courier' } } },
    });
    expect(refused).toMatchObject({ ok: false, code: 'SETTING_BASIS_ONLY' });
  });
});

describe('cart pricing with an app’s shipping rate', () => {
  it('prices shipping with the sandboxed module from the cart’s units, subtotal and country, and checks out at it', async () => {
    const context = await visitor(METHOD.module, { [TEA]: 3 });
    const cart = await view(context);
    expect(cart.problems).toEqual([]);
    // 3.50 + 3 × 1.50 = 8.00 gross at the lines' 19 %: tax 800·1900/11900 = 127.7… → 128.
    expect(cart.shipping).toEqual({ gross: 800, tax: 128, net: 672, taxRate: 1900 });
    expect(cart.total).toEqual({ gross: 3800, tax: 607, net: 3193 });
    const placed = await checkout(services, shop.tenantId, context, undefined);
    if (!placed.ok) throw new Error(placed.detail);
    const order = await findOrder(database.db, shop.tenantId, placed.value.id);
    expect(order?.price).toMatchObject({ shipping: { gross: 800 }, total: { gross: 3800 } });

    // No shipping address yet: the country is left out (10.00 more by the module's formula).
    const nowhere = await view(await visitor(METHOD.module, { [TEA]: 1 }, shop, { shippingAddress: null }));
    expect(nowhere.shipping.gross).toBe(350 + 150 + 1000);
    // The app's own free shipping from 100.00 is the app's answer, not a failure.
    const big = await view(await visitor(METHOD.module, { [TEA]: 10 }));
    expect(big.problems).toEqual([]);
    expect(big.shipping.gross).toBe(0);
  });

  it('asks the external service with the contract’s input, once per pricing', async () => {
    const context = await visitor(METHOD.external, { [TEA]: 2 });
    const cart = await view(context);
    expect(cart.problems).toEqual([]);
    expect(cart.shipping).toMatchObject({ gross: 400, taxRate: 1900 });
    expect(rateCalls()).toEqual([
      expect.objectContaining({
        tenant: shop.tenantId,
        input: { currency: 'EUR', country: 'DE', quantity: 2, subtotal: 2000 },
        idempotencyKey: null,
        status: 200,
      }),
    ]);
    fixture.clear();
    const placed = await checkout(services, shop.tenantId, context, undefined);
    expect(placed.ok).toBe(true);
    expect(rateCalls()).toHaveLength(1);
  });

  it('asks once even when a rule-conditioned tax rule makes pricing pass over the cart twice', async () => {
    await succeed('automation.save', {
      kind: 'rules',
      id: RULE,
      revision: 0,
      data: {
        name: { en: 'Every cart' },
        condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 0 } },
      },
    });
    const save = async (overrides: Record<string, unknown>) =>
      succeed('merchant.commerce.save', { channelId: shop.channelId, ...(await mainChannel()), overrides });
    await save({
      taxRules: {
        [TAX_RULE]: {
          country: 'DE',
          state: null,
          postcode: null,
          validFrom: null,
          validUntil: null,
          priority: 1,
          ruleId: RULE,
          taxClassId: null,
          rate: 500,
        },
      },
    });
    try {
      const cart = await view(await visitor(METHOD.external, { [TEA]: 2 }));
      // The second pass applied the rule's 5 %, to the lines and to shipping.
      expect(cart.lines.map((line) => line.taxRate)).toEqual([500]);
      expect(cart.shipping).toMatchObject({ gross: 400, taxRate: 500 });
      expect(rateCalls()).toHaveLength(1);
    } finally {
      await save({});
    }
  });

  it('does not ask while nothing is to be shipped', async () => {
    const context = await visitor(METHOD.external, {});
    expect((await view(context)).shipping.gross).toBe(0);
    expect(rateCalls()).toEqual([]);
  });

  it('does not ask for a cart whose lines cannot be priced together', async () => {
    const cart = await view(await visitor(METHOD.external, { [GOLD]: 1, [PLATINUM]: 1 }));
    expect(codes(cart.problems)).toEqual(['AMOUNT_OUT_OF_RANGE']);
    expect(rateCalls()).toEqual([]);
  });

  it('leaves shipping unpriced and refuses checkout when the answer comes after the deadline, never 0', async () => {
    const context = await visitor(METHOD.external, { [TEA]: 1 });
    // Within the configured 5 s, past pricing's 2 s.
    fixture.failNext({ kind: 'slow', delayMs: 2_600, action: 'rate', times: 2 });
    await expectUnavailable(context);
    // The same cart prices again once the service answers in time.
    const cart = await view(context);
    expect(cart.problems).toEqual([]);
    expect(cart.shipping.gross).toBe(200);
  });

  it.each([
    ['a negative rate', { gross: -100, net: -84 }],
    ['net above gross', { gross: 100, net: 120 }],
    ['no net', { gross: 100 }],
    ['a fraction', { gross: 100.5, net: 84 }],
    ['a string', { gross: '100', net: 84 }],
    ['beyond the safe integers', { gross: 2 ** 53, net: 84 }],
  ])('treats %s as unavailable', async (_, answer) => {
    fixture.setAction('rate', () => answer);
    try {
      await expectUnavailable(await visitor(METHOD.external, { [TEA]: 1 }));
    } finally {
      fixture.setAction('rate', ({ input }) => {
        const { quantity } = input as { quantity: number };
        return { gross: 200 * quantity, net: 168 * quantity };
      });
    }
  });

  it('treats a refusal, a 5xx and an unconfigured service as unavailable', async () => {
    fixture.failNext({ kind: 'refuse', action: 'rate', times: 2 });
    await expectUnavailable(await visitor(METHOD.external, { [TEA]: 1 }));
    fixture.failNext({ kind: 'status', status: 502, action: 'rate', times: 2 });
    await expectUnavailable(await visitor(METHOD.external, { [TEA]: 1 }));
    await expectUnavailable(await visitor(METHOD.unconfigured, { [TEA]: 1 }));
  });

  it('treats a module past its time limit as unavailable', async () => {
    await expectUnavailable(await visitor(METHOD.module, { [TEA]: 99 }));
  });

  it('treats an uninstalled app, or one upgraded without its shipping role, as unavailable', async () => {
    await succeed('apps.install', {
      appId: 'gone',
      revision: 0,
      manifest: shippingApp('gone', 'module'),
      module: MODULE,
    });
    expect((await saveMethod(METHOD.uninstalled, 'gone')).ok).toBe(true);
    const context = await visitor(METHOD.uninstalled, { [TEA]: 1 });
    expect((await view(context)).problems).toEqual([]);

    const { shipping: _, ...withoutShipping } = shippingApp('gone', 'module', '1.1.0');
    await succeed('apps.install', { appId: 'gone', revision: 1, manifest: withoutShipping, module: MODULE });
    await expectUnavailable(context);

    await succeed('apps.uninstall', { appId: 'gone', revision: 2 });
    await expectUnavailable(context);
  });

  it('never asks another shop’s app', async () => {
    // Written past the settings check, as a stale or hand-made row would be.
    await database.transaction(async (tx) => {
      await saveBasis(
        tx,
        'shippingMethods',
        other.tenantId,
        METHOD.otherShop,
        0,
        { id: METHOD.otherShop, translations: { en: { name: 'Borrowed' } }, appId: 'courier' },
        services.clock.now(),
      );
      await bumpBasisRevision(tx, other.tenantId);
    });
    await expectUnavailable(await visitor(METHOD.otherShop, { [TEA]: 1 }, other), other);
    expect(fixture.calls).toEqual([]);
  });
});
