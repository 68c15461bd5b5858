import {
  type PaymentProvider,
  PROVIDER_API_VERSION,
  type ProviderAccountInfo,
  type ProviderAnswer,
} from '../../kernel/payment-provider.ts';
import { type PaymentConfig, PROVIDER_BASE_URLS, type ProviderAccount } from '../config.ts';
import { type Exchange, exchange, failedAnswer, type HttpClient } from './client.ts';
import { orderRequestBody, readOrder, readRefund, readVerification, refundRequestBody } from './mapping.ts';
import { createTokenSource } from './token.ts';
import { verificationRequestBody } from './webhook.ts';

// The PayPal adapter of the payment provider port (Orders v2, Payments v2, Webhooks v1). Each
// call uses the account of the shop it names and no other; a shop without one is answered
// not-configured before anything is sent.

export interface PayPalProviderOptions {
  /** The HTTP client; tests pass one, the service uses the global fetch. */
  readonly fetch?: typeof fetch;
  /** The deadline of one HTTP exchange, answer body included. */
  readonly timeoutMs?: number;
  /** The clock token expiry is measured with (epoch milliseconds). */
  readonly now?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** PayPal resource ids are upper-case alphanumerics (§2); anything else is never sent in a path. */
const RESOURCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface ApiCall {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  /** `PayPal-Request-Id` of a command; GETs and the verification carry none. */
  readonly requestId?: string;
}

/** Creates the PayPal provider over the configured accounts. */
export function createPayPalProvider(
  config: PaymentConfig,
  options: PayPalProviderOptions = {},
): PaymentProvider {
  const client: HttpClient = {
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  const tokens = createTokenSource(client, options.now ?? Date.now);

  const baseUrlOf = (account: ProviderAccount) =>
    config.contractBaseUrl ?? PROVIDER_BASE_URLS[account.environment];

  /** One API call with the account's bearer; a 401 renews the token and retries once (§1). */
  async function call<T>(
    account: ProviderAccount,
    request: ApiCall,
    read: (body: unknown) => T | undefined,
  ): Promise<ProviderAnswer<T>> {
    const baseUrl = baseUrlOf(account);
    for (let attempt = 1; ; attempt++) {
      const granted = await tokens.tokenOf(account, baseUrl);
      if (!('ok' in granted)) return granted;
      const result = await exchange(client, {
        method: request.method,
        url: `${baseUrl}${request.path}`,
        headers: apiHeaders(account, granted.token, request),
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      // A 401 is answered before anything is performed, so the retry (same request id) is safe.
      if (isAnswered(result, 401) && attempt === 1) {
        tokens.discard(account, granted.token);
        continue;
      }
      if (result.kind === 'answered' && result.status >= 200 && result.status < 300) {
        const value = read(result.body);
        if (value !== undefined) return { outcome: 'done', value };
      }
      return failedAnswer(result, [account.clientSecret, granted.token]);
    }
  }

  /** Runs `command` with the shop's account, or answers not-configured without a call. */
  function withAccount<T>(
    tenantId: string,
    command: (account: ProviderAccount) => Promise<ProviderAnswer<T>>,
  ): Promise<ProviderAnswer<T>> {
    const account = config.accounts.get(tenantId);
    if (!account) return Promise.resolve({ outcome: 'not-configured' });
    return command(account);
  }

  return {
    accountOf(tenantId): ProviderAccountInfo | undefined {
      const account = config.accounts.get(tenantId);
      if (!account) return undefined;
      return {
        environment: account.environment,
        merchantId: account.merchantId,
        contractFixture: config.contractBaseUrl !== null,
        adapterVersion: PROVIDER_API_VERSION,
      };
    },

    createOrder: (tenantId, order) =>
      withAccount(tenantId, (account) =>
        call(
          account,
          {
            method: 'POST',
            path: '/v2/checkout/orders',
            body: orderRequestBody(order),
            requestId: order.requestId,
          },
          readOrder,
        ),
      ),

    getOrder: (tenantId, providerOrderId) =>
      withAccount(tenantId, async (account) =>
        RESOURCE_ID.test(providerOrderId)
          ? call(account, { method: 'GET', path: `/v2/checkout/orders/${providerOrderId}` }, readOrder)
          : { outcome: 'not-found' },
      ),

    captureOrder: (tenantId, providerOrderId, requestId) =>
      withAccount(tenantId, async (account) =>
        RESOURCE_ID.test(providerOrderId)
          ? call(
              account,
              {
                method: 'POST',
                path: `/v2/checkout/orders/${providerOrderId}/capture`,
                body: '{}',
                requestId,
              },
              readOrder,
            )
          : { outcome: 'not-found' },
      ),

    refundCapture: (tenantId, captureId, refund) =>
      withAccount(tenantId, async (account) =>
        RESOURCE_ID.test(captureId)
          ? call(
              account,
              {
                method: 'POST',
                path: `/v2/payments/captures/${captureId}/refund`,
                body: refundRequestBody(refund),
                requestId: refund.requestId,
              },
              (body) => readRefund(body, captureId),
            )
          : { outcome: 'not-found' },
      ),

    getRefund: (tenantId, refundId) =>
      withAccount(tenantId, async (account) =>
        RESOURCE_ID.test(refundId)
          ? call(account, { method: 'GET', path: `/v2/payments/refunds/${refundId}` }, (body) =>
              readRefund(body, null),
            )
          : { outcome: 'not-found' },
      ),

    verifyWebhook: (tenantId, delivery) =>
      withAccount(tenantId, async (account) => {
        const body = verificationRequestBody(delivery, account.webhookId);
        // A delivery without its transmission headers or with a non-object body cannot be genuine.
        if (body === undefined) return { outcome: 'done', value: { verified: false } };
        return call(
          account,
          { method: 'POST', path: '/v1/notifications/verify-webhook-signature', body },
          readVerification,
        );
      }),
  };
}

function apiHeaders(account: ProviderAccount, token: string, request: ApiCall): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    Accept: 'application/json',
    'PayPal-Partner-Attribution-Id': account.bnCode,
  };
  if (request.method === 'POST') {
    headers['Content-Type'] = 'application/json';
    headers.Prefer = 'return=representation';
  }
  if (request.requestId !== undefined) headers['PayPal-Request-Id'] = request.requestId;
  return headers;
}

function isAnswered(result: Exchange, status: number): boolean {
  return result.kind === 'answered' && result.status === status;
}
