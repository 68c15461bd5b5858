import { paymentServicesOf, runDuePaymentJobs } from '@cartwright/service';
import { type PayPalFixture, startPayPalFixture } from '@cartwright/tooling/paypal-fixture';
import type { Harness } from './harness.ts';
import { accountVariables, createPaymentHarness, expectOk, registerAccount } from './payment-accounts.ts';

// The shop the reviews and payments pages are tested with (admin-reviews.test.ts and its browser
// walk): two products on sale in shop A, reviews written by registered customers on the
// storefront, and provider payments made with the loopback PayPal fixture.

const PROVIDER_METHOD = '0190f0c8-0000-7000-8000-0000000e0a01';

export interface ReviewsShop {
  readonly h: Harness;
  readonly teaId: string;
  readonly mugId: string;
  /** A new customer's review of `productId` (pending): answers its id. */
  review(productId: string, entry: { rating: number; title: string; content: string }): Promise<string>;
  /** `count` orders of shop A paid with the provider, their attempts awaiting the buyer's approval. */
  providerOrders(count: number): Promise<{ orderId: string; token: string }[]>;
  /** The buyer approves at the provider and the worker captures; then `refund` (minor units) is refunded. */
  captureAndRefund(order: { orderId: string; token: string }, refund: number): Promise<void>;
  close(): Promise<void>;
}

export async function createReviewsShop(): Promise<ReviewsShop> {
  const fixture: PayPalFixture = await startPayPalFixture();
  let provider: ReturnType<typeof paymentServicesOf>['provider'] | undefined;
  const account = { clientId: 'client-reviews', webhookId: 'WH-R', merchantId: 'MERCHANTR1' };
  const h = await createPaymentHarness((harness) => {
    if (!provider) {
      registerAccount(fixture, account);
      provider = paymentServicesOf(accountVariables(fixture, { [harness.shopA.tenantId]: account })).provider;
    }
    return provider;
  }, PROVIDER_METHOD);
  const { productId: teaId, channelKey } = await h.sellableTea();
  const staff = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    h.call(method, path, { token: h.shopA.token, body, ...(headers ? { headers } : {}) });
  const mug = expectOk(
    await staff('POST', '/api/catalog/products', {
      sku: 'MUG',
      translations: { en: { name: 'Mug' } },
      prices: [{ currency: 'EUR', gross: 1500, net: 1260 }],
      stockAvailable: 10,
    }),
    201,
  );
  const mugId = ((mug.product ?? mug) as { id: string }).id;
  const store = (method: string, path: string, token: string, body?: unknown) =>
    h.call(method, path, { body, headers: { 'x-channel-key': channelKey, 'x-context-token': token } });
  const runPayments = async () => {
    for (let round = 0; round < 20; round++) {
      const ran = await runDuePaymentJobs(h.services, { owner: 'admin-reviews', leaseMs: 30_000, limit: 50 });
      if (ran.ran === 0) return;
    }
    throw new Error('the payment jobs did not settle');
  };
  return {
    h,
    teaId,
    mugId,
    async review(productId, entry) {
      const token = await h.visitorWithCart(channelKey, []);
      const created = expectOk(
        await store('POST', `/store-api/products/${productId}/reviews`, token, entry),
        201,
      );
      return created.id as string;
    },
    async providerOrders(count) {
      const orders: { orderId: string; token: string }[] = [];
      for (let index = 0; index < count; index++) {
        const token = await h.visitorWithCart(channelKey, [{ productId: teaId, quantity: 1 }]);
        expectOk(await store('PATCH', '/store-api/cart', token, { paymentMethodId: PROVIDER_METHOD }));
        const order = expectOk(await store('POST', '/store-api/checkout', token), 201);
        orders.push({ orderId: order.id as string, token });
      }
      await runPayments();
      return orders;
    },
    async captureAndRefund(order, refund) {
      const payment = expectOk(await store('GET', `/store-api/orders/${order.orderId}/payment`, order.token));
      const approvalUrl = (payment.attempt as { approvalUrl: string }).approvalUrl;
      const approved = await fetch(approvalUrl, { redirect: 'manual' });
      const back = new URL(approved.headers.get('location')!);
      await h.app.request(`${back.pathname}${back.search}`);
      await runPayments();
      expectOk(
        await staff(
          'POST',
          `/api/orders/${order.orderId}/payments/refunds`,
          { amount: refund },
          {
            'idempotency-key': `admin-reviews-${order.orderId}`,
          },
        ),
        201,
      );
      await runPayments();
    },
    async close() {
      await h.close();
      await fixture.close();
    },
  };
}
