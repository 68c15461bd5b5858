import { basisTables, deleteRevisioned, findRevisioned } from '@cartwright/repository';
import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// What references a shipping or payment method (issue 6): the dependencies endpoint and the MCP
// tool list orders, open carts and any flow or rule naming the id, and the basis deletes of
// methods and tax classes refuse with that same list until the last reference is gone.

let h: Harness;
let channelKey: string;
let productId: string;
const EXPRESS = '0190f0c8-0000-7000-8000-0000000d0001';
const FLOW = '0190f0c8-0000-7000-8000-0000000d0002';
const SHIPPING_TAX = '0190f0c8-0000-7000-8000-0000000d0003';
const UNKNOWN = '0190f0c8-0000-7000-8000-0000000d0fff';

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
const store = (method: string, path: string, contextToken: string | null, body?: unknown) =>
  h.call(method, path, {
    body,
    headers: { 'x-channel-key': channelKey, ...(contextToken ? { 'x-context-token': contextToken } : {}) },
  });
const dependencies = (area: string, id: string, token = h.shopA.token) =>
  h.call('GET', `/api/merchant/commerce/methods/${area}/${id}/dependencies`, { token });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

/** A registered visitor's cart with one tea, parcel and invoice chosen; answers its token and id. */
async function openCart(): Promise<{ token: string; cartId: string }> {
  const token = await h.visitorWithCart(channelKey, [{ productId, quantity: 1 }]);
  const cart = expectOk(await store('GET', '/store-api/cart', token));
  return { token, cartId: cart.id as string };
}

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea({
    gross: 1000,
    net: 840,
    taxClassId: SELLABLE.reducedTax,
  }));
});
afterAll(async () => h?.close());

describe('method dependencies', () => {
  it('lists a flow naming the method only inside its JSON and blocks the delete until the flow is gone', async () => {
    expectOk(
      await staff('PUT', `/api/basis/shipping-methods/${EXPRESS}`, {
        revision: 0,
        translations: { en: { name: 'Express' } },
        prices: [{ currency: 'EUR', gross: 990, net: 832 }],
      }),
    );
    const unused = expectOk(await dependencies('shipping', EXPRESS));
    expect(unused).toEqual({ area: 'shipping', methodId: EXPRESS, references: [], deletable: true });

    expectOk(
      await staff('PUT', `/api/automation/flows/${FLOW}`, {
        revision: 0,
        data: {
          name: { en: 'Express orders' },
          trigger: 'order.placed',
          condition: { type: 'shippingMethod', value: { operator: '=', shippingMethodIds: [EXPRESS] } },
          pipeline: {
            entry: 'a',
            nodes: [{ id: 'a', kind: 'action', action: 'note', config: { text: 'express' }, next: null }],
          },
        },
      }),
    );
    const listed = expectOk(await dependencies('shipping', EXPRESS));
    expect(listed.deletable).toBe(false);
    expect(listed.references).toEqual([expect.objectContaining({ kind: 'flow', id: FLOW })]);

    const blocked = await staff('DELETE', `/api/basis/shipping-methods/${EXPRESS}`, { revision: 1 });
    expect(blocked.status).toBe(409);
    expect(blocked.type).toContain('application/problem+json');
    expect(blocked.body.code).toBe('REFERENCED');
    expect(blocked.body.references).toEqual(listed.references);

    const flow = (
      expectOk(await staff('GET', '/api/automation')).flows as { id: string; revision: number }[]
    ).find((entry) => entry.id === FLOW)!;
    expectOk(await staff('DELETE', `/api/automation/flows/${FLOW}`, { revision: flow.revision }));
    expect(expectOk(await dependencies('shipping', EXPRESS)).deletable).toBe(true);
    const method = (
      expectOk(await staff('GET', '/api/basis/shipping-methods')).items as { id: string; revision: number }[]
    ).find((entry) => entry.id === EXPRESS)!;
    expectOk(await staff('DELETE', `/api/basis/shipping-methods/${EXPRESS}`, { revision: method.revision }));
    expect((await dependencies('shipping', EXPRESS)).status).toBe(404);
  });

  it('lists the order that used a method and the open cart that chose it, never the ordered cart', async () => {
    const buyer = await openCart();
    const placed = expectOk(await store('POST', '/store-api/checkout', buyer.token), 201);
    const browsing = await openCart();
    expect(browsing.cartId).not.toBe(buyer.cartId);
    const expected = [
      { kind: 'order', id: placed.id, key: String(placed.number) },
      { kind: 'cart', id: browsing.cartId },
    ];

    const shipping = expectOk(await dependencies('shipping', SELLABLE.parcel));
    expect(shipping).toEqual({
      area: 'shipping',
      methodId: SELLABLE.parcel,
      references: expected,
      deletable: false,
    });
    const payment = expectOk(await dependencies('payments', SELLABLE.invoice));
    expect(payment.references).toEqual(expected);

    const blockedShipping = await staff('DELETE', `/api/basis/shipping-methods/${SELLABLE.parcel}`, {
      revision: 1,
    });
    expect(blockedShipping.status).toBe(409);
    expect(blockedShipping.body).toMatchObject({ code: 'REFERENCED', references: expected });
    const blockedPayment = await staff('DELETE', `/api/basis/payment-methods/${SELLABLE.invoice}`, {
      revision: 1,
    });
    expect(blockedPayment.status).toBe(409);
    expect(blockedPayment.body).toMatchObject({ code: 'REFERENCED', references: expected });
    // Still there: the refused deletes changed nothing.
    expect((await dependencies('payments', SELLABLE.invoice)).status).toBe(200);
    // A shipping method is not a payment method: the area decides where the id is looked up.
    expect((await dependencies('payments', SELLABLE.parcel)).status).toBe(404);
  });

  it('refuses to delete a tax class a product or a shipping method uses', async () => {
    const byProduct = await staff('DELETE', `/api/basis/tax-classes/${SELLABLE.reducedTax}`, { revision: 1 });
    expect(byProduct.status).toBe(409);
    expect(byProduct.body).toMatchObject({
      code: 'REFERENCED',
      references: [{ kind: 'product', id: productId }],
    });

    expectOk(
      await staff('PUT', `/api/basis/tax-classes/${SHIPPING_TAX}`, {
        revision: 0,
        translations: { en: { name: 'Shipping' } },
        rates: [{ country: null, rate: 1900 }],
      }),
    );
    const bound = expectOk(
      await staff('PUT', `/api/basis/shipping-methods/${EXPRESS}`, {
        revision: 0,
        translations: { en: { name: 'Express' } },
        taxClassId: SHIPPING_TAX,
      }),
    );
    const byMethod = await staff('DELETE', `/api/basis/tax-classes/${SHIPPING_TAX}`, { revision: 1 });
    expect(byMethod.status).toBe(409);
    expect(byMethod.body.references).toEqual([{ kind: 'shipping_method', id: EXPRESS, key: null }]);
    expectOk(
      await staff('PUT', `/api/basis/shipping-methods/${EXPRESS}`, {
        revision: bound.revision,
        translations: { en: { name: 'Express' } },
        taxClassId: null,
      }),
    );
    expectOk(await staff('DELETE', `/api/basis/tax-classes/${SHIPPING_TAX}`, { revision: 1 }));
  });

  it('answers a validation problem for an unknown area and 404 for a method of another shop', async () => {
    const area = await dependencies('vouchers', SELLABLE.parcel);
    expect([400, 422]).toContain(area.status);
    expect(area.type).toContain('application/problem+json');
    expect(area.body.code).toBe('VALIDATION_FAILED');

    const foreign = await dependencies('shipping', SELLABLE.parcel, h.shopB.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect(JSON.stringify(foreign.body)).not.toContain('"references"');
    expect((await dependencies('shipping', UNKNOWN)).status).toBe(404);
  });
});

// On PostgreSQL the choice waits on the method's row lock; on PGlite (one session) it waits for the
// deleting transaction to end. Either way it then finds the method gone.
describe('a method chosen while it is being deleted', () => {
  it('makes the cart wait for the delete and then refuses the choice (no cart names a deleted method)', async () => {
    const CASH = '0190f0c8-0000-7000-8000-0000000d0004';
    expectOk(
      await staff('PUT', `/api/basis/payment-methods/${CASH}`, {
        revision: 0,
        translations: { en: { name: 'Cash' } },
        handler: 'cash_on_delivery',
      }),
    );
    const { token } = await openCart();
    let locked!: () => void;
    const held = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // A delete in progress: the method row locked FOR UPDATE, removed a moment later.
    const deleting = h.database.transaction(async (tx) => {
      const row = await findRevisioned(tx, basisTables.paymentMethods, h.shopA.tenantId, CASH, 'update');
      locked();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await deleteRevisioned(tx, basisTables.paymentMethods, h.shopA.tenantId, CASH, row!.revision);
    });
    await held;
    const choosing = store('PATCH', '/store-api/cart', token, { paymentMethodId: CASH });
    await deleting;
    const chosen = await choosing;
    expect(chosen.status).toBe(422);
    expect((chosen.body.errors as { pointer: string }[])[0]!.pointer).toBe('/paymentMethodId');
  });
});

describe('MCP parity', () => {
  it('answers the same references as HTTP, and NOT_FOUND for an unknown method', async () => {
    const tool = await h.mcp(h.shopA.token);
    const call = (args: Record<string, unknown>) => tool('merchant.commerce.dependencies', args);
    const http = expectOk(await dependencies('shipping', SELLABLE.parcel));
    expect((http.references as unknown[]).length).toBeGreaterThan(0);
    const found = await call({ area: 'shipping', methodId: SELLABLE.parcel });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toEqual(http);

    const unknown = await call({ area: 'payments', methodId: UNKNOWN });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent?.code).toBe('NOT_FOUND');
  });
});
