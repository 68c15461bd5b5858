import { findOrder, insertProduct, listPaymentAttempts } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import {
  checkout,
  createServices,
  paymentServicesOf,
  returnFromProvider,
  runDuePaymentJobs,
  type Services,
} from '@cartwright/service';
import {
  addProviderPayment,
  createSellableShop,
  readyVisitor,
  SELLABLE,
  type SellableShop,
} from '@cartwright/service/testing';
import { type PayPalFixture, startPayPalFixture } from '@cartwright/tooling/paypal-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICA_KIND, type Replicas, replicasOn } from './replicas.ts';

// Issue 13: a payment-worker killed while the provider is performing its capture never causes a
// second charge. The capture was performed at the provider, the answer never reached us; once the
// killed worker's lease runs out, another worker takes the job, asks again with the same
// PayPal-Request-Id and the provider answers the capture it already made: paid once, one capture.

const LEASE_MS = 1500;
const PRODUCT = '0190f0c8-0000-7000-8000-00000000cc01';

let database: TestDatabase;
let services: Services;
let fixture: PayPalFixture;
let shop: SellableShop;
let variables: Record<string, string>;
let replicas: Replicas;

async function waitFor(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe(`a payment-worker killed mid-capture (${REPLICA_KIND})`, () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    replicas = replicasOn(database);
    fixture = await startPayPalFixture();
    fixture.addAccount({
      clientId: 'crash-a',
      clientSecret: 'crash-secret',
      merchantId: 'CRASHM1',
      webhookId: 'WH-C',
    });
    shop = await createSellableShop(createServices(database), 'Crash shop');
    variables = {
      PROVIDER_ACCOUNTS: JSON.stringify({
        [shop.tenantId]: {
          clientId: 'crash-a',
          clientSecret: 'crash-secret',
          webhookId: 'WH-C',
          bnCode: 'CARTWRIGHT_TEST',
          environment: 'sandbox',
          merchantId: 'CRASHM1',
        },
      }),
      PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
      PROVIDER_CONTRACT_BASE_URL: fixture.url,
    };
    services = createServices(database, { payments: paymentServicesOf(variables) });
    await addProviderPayment(services, shop.tenantId);
    await services.database.transaction((tx) =>
      insertProduct(
        tx,
        shop.tenantId,
        {
          id: PRODUCT,
          sku: 'CRASH',
          translations: { en: { name: 'Crash' } },
          prices: [{ currency: 'EUR', gross: 2500, net: 2101 }],
          taxClassId: SELLABLE.standardTax,
          stockAvailable: 10,
        },
        services.clock.now(),
      ),
    );
  });
  afterAll(async () => {
    await replicas?.killAll();
    await fixture?.close();
    await database?.close();
  });

  it('captures once: the killed worker performed it, the next one reads it back by its request id', async () => {
    const { context } = await readyVisitor(
      services,
      shop,
      { [PRODUCT]: 1 },
      { paymentMethodId: SELLABLE.provider },
    );
    const placed = await checkout(services, shop.tenantId, context, 'crash-order-1');
    if (!placed.ok) throw new Error(placed.detail);
    const orderId = placed.value.id;
    // The create job, here; the capture goes to the worker process.
    await runDuePaymentJobs(services, { owner: 'test', leaseMs: LEASE_MS, limit: 10 });
    const [attempt] = await listPaymentAttempts(database.db, shop.tenantId, orderId);
    const providerOrderId = attempt!.providerOrderId!;
    fixture.approve(providerOrderId);
    // The provider performs the capture and then never answers: the worker waits inside the call.
    fixture.failNext({ path: /\/capture$/, kind: 'timeout', performs: true });

    const worker = await replicas.start({
      role: 'payment-worker',
      pollMs: 50,
      leaseMs: LEASE_MS,
      payments: variables,
    });
    // The buyer returns; the worker reads the order (approved) and sends the capture.
    const returned = await returnFromProvider(services, shop.tenantId, attempt!.id, providerOrderId);
    expect(returned.ok).toBe(true);
    await waitFor(
      'the provider to perform the capture',
      15_000,
      () => fixture.captures(providerOrderId).length === 1,
    );
    await worker.kill();
    expect((await findOrder(database.db, shop.tenantId, orderId))!.paymentState).toBe('open');

    // Another worker: the killed one's lease runs out, the job is taken over and asks again.
    await waitFor('the order to be paid', 15_000, async () => {
      await runDuePaymentJobs(services, { owner: 'rescuer', leaseMs: LEASE_MS, limit: 10 });
      return (await findOrder(database.db, shop.tenantId, orderId))!.paymentState === 'paid';
    });
    expect(fixture.captures(providerOrderId)).toHaveLength(1);
    const [after] = await listPaymentAttempts(database.db, shop.tenantId, orderId);
    expect(after!.status).toBe('captured');
  });
});
