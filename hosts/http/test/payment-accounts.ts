import type { PaymentProvider } from '@cartwright/service';
import type { PayPalFixture } from '@cartwright/tooling/paypal-fixture';
import { createHarness, type Harness } from './harness.ts';

// The payment tests' shared set-up: shops' provider accounts at the loopback PayPal fixture, as
// the variables an operator sets, and the shop's provider payment method.

export interface TestAccount {
  readonly clientId: string;
  readonly webhookId: string;
  readonly merchantId: string;
  readonly environment?: 'sandbox' | 'live';
}

/** Registers `account` at the fixture (its secret is the client id with `secret` for `client`). */
export function registerAccount(fixture: PayPalFixture, account: TestAccount): void {
  fixture.addAccount({
    clientId: account.clientId,
    clientSecret: secretOf(account),
    merchantId: account.merchantId,
    webhookId: account.webhookId,
  });
}

/** The payment variables for shops' accounts, every one reaching the fixture. */
export function accountVariables(
  fixture: PayPalFixture,
  accounts: Readonly<Record<string, TestAccount>>,
  publicBaseUrl = 'http://127.0.0.1:3000',
): Record<string, string> {
  const entries = Object.entries(accounts).map(([tenantId, account]) => [
    tenantId,
    {
      clientId: account.clientId,
      clientSecret: secretOf(account),
      webhookId: account.webhookId,
      bnCode: 'CARTWRIGHT_TEST',
      environment: account.environment ?? 'sandbox',
      merchantId: account.merchantId,
    },
  ]);
  return {
    PROVIDER_ACCOUNTS: JSON.stringify(Object.fromEntries(entries)),
    PUBLIC_BASE_URL: publicBaseUrl,
    PROVIDER_CONTRACT_BASE_URL: fixture.url,
  };
}

/**
 * The two-shop harness with a payment provider and shop A's provider payment method `methodId`.
 * Accounts are keyed by shop id, known only once the harness made its shops, so the provider is
 * built on first use by `providerOf` (from the same variables an operator sets).
 */
export async function createPaymentHarness(
  providerOf: (h: Harness) => PaymentProvider,
  methodId: string,
): Promise<Harness> {
  const h: Harness = await createHarness({
    payments: {
      get provider() {
        return providerOf(h);
      },
      publicBaseUrl: 'http://127.0.0.1:3000',
    },
  });
  await saveProviderMethod(h, methodId);
  return h;
}

/** Saves a payment method of shop A whose handler is the provider. */
export async function saveProviderMethod(h: Harness, id: string): Promise<void> {
  const saved = await h.call('PUT', `/api/basis/payment-methods/${id}`, {
    token: h.shopA.token,
    body: { revision: 0, key: 'paypal', translations: { en: { name: 'PayPal' } }, handler: 'provider' },
  });
  if (saved.status !== 200) throw new Error(`${saved.status}: ${JSON.stringify(saved.body)}`);
}

const secretOf = (account: TestAccount) => account.clientId.replace('client', 'secret');

/** Shop A's staff calls (owner token), with optional headers. */
export function staffOf(h: Harness) {
  return (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    h.call(method, path, { token: h.shopA.token, body, ...(headers ? { headers } : {}) });
}

/** The body of a response with the expected status; anything else throws with the problem. */
export function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
