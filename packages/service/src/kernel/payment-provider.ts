// The payment provider port (provider API 1). The service talks to a payment provider only
// through this interface; the PayPal adapter (`payments/paypal/`) implements it over HTTP, tests
// run it against the loopback fixture in `tooling/`. Every command names the shop: the adapter
// picks that shop's configured account and never another's. Every answer says whether the
// provider did the thing, refused it, or left its outcome unknown: an unknown outcome (timeout,
// dropped connection, 5xx, oversized answer) is never read as a failure, because the provider
// may have performed it. Later API versions add authorize and void (`PROVIDER_API_VERSION`).
// The shapes are `@cartwright/payment-ledger`'s, which decides what every answer means.

import type {
  ProviderAnswer as LedgerAnswer,
  ProviderCapture as LedgerCapture,
  ProviderOrder as LedgerOrder,
  ProviderMoney,
  ProviderRefund,
} from '@cartwright/payment-ledger';

export type {
  CaptureStatus as ProviderCaptureStatus,
  ProviderMoney,
  ProviderOrderStatus,
  ProviderRefund,
  ProviderRefundStatus,
} from '@cartwright/payment-ledger';

/** The provider contract version this service speaks; attempts record the version they used. */
export { PROVIDER_API_VERSION } from '@cartwright/payment-ledger';

export type ProviderEnvironment = 'sandbox' | 'live';

/** What a shop's configured account is, without its secrets. */
export interface ProviderAccountInfo {
  readonly environment: ProviderEnvironment;
  /** The merchant the receipts must name (`payee.merchant_id`), when configured. */
  readonly merchantId: string | null;
  /** Attempts through an explicit loopback override are labelled so forever. */
  readonly contractFixture: boolean;
  readonly adapterVersion: number;
}

/** What one port call did: the ledger's provider answers, or no account for the shop. */
export type ProviderAnswer<T> = LedgerAnswer<T> | { readonly outcome: 'not-configured' };

export interface CreateProviderOrder {
  /** Idempotency key (`PayPal-Request-Id`), derived from the attempt id. */
  readonly requestId: string;
  readonly amount: ProviderMoney;
  /** Our attempt id, echoed on captures, refunds and webhooks. */
  readonly customId: string;
  /** Shown to the payer; our order number. */
  readonly invoiceId: string;
  readonly returnUrl: string;
  readonly cancelUrl: string;
  readonly locale?: string | undefined;
}

/** A capture as the port reads it: the ledger's fields and the provider's reason for its status. */
export interface ProviderCapture extends LedgerCapture {
  readonly statusReason: string | null;
}

/** An order as the port reads it: the ledger's fields and the order's amount and custom id. */
export interface ProviderOrder extends Omit<LedgerOrder, 'captures'> {
  readonly amount: ProviderMoney | null;
  readonly customId: string | null;
  readonly captures: readonly ProviderCapture[];
}

/** A provider webhook as it arrived: the exact body bytes and the transmission headers. */
export interface ProviderWebhookDelivery {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface PaymentProvider {
  /** The shop's account, or undefined when the shop has none configured. */
  accountOf(tenantId: string): ProviderAccountInfo | undefined;
  createOrder(tenantId: string, order: CreateProviderOrder): Promise<ProviderAnswer<ProviderOrder>>;
  getOrder(tenantId: string, providerOrderId: string): Promise<ProviderAnswer<ProviderOrder>>;
  /** Captures an approved order; `requestId` makes a retry answer the first capture, never a second charge. */
  captureOrder(
    tenantId: string,
    providerOrderId: string,
    requestId: string,
  ): Promise<ProviderAnswer<ProviderOrder>>;
  refundCapture(
    tenantId: string,
    captureId: string,
    refund: {
      readonly requestId: string;
      readonly amount: ProviderMoney;
      /** Our refund id, echoed in the provider's reports of the refund. */
      readonly customId?: string;
      readonly invoiceId?: string;
    },
  ): Promise<ProviderAnswer<ProviderRefund>>;
  getRefund(tenantId: string, refundId: string): Promise<ProviderAnswer<ProviderRefund>>;
  /** Asks the provider's verification endpoint; only `verified: true` may be stored. */
  verifyWebhook(
    tenantId: string,
    delivery: ProviderWebhookDelivery,
  ): Promise<ProviderAnswer<{ readonly verified: boolean }>>;
}

/** The provider of a service with no accounts configured: every shop answers not-configured. */
export const noPaymentProvider: PaymentProvider = {
  accountOf: () => undefined,
  createOrder: async () => ({ outcome: 'not-configured' }),
  getOrder: async () => ({ outcome: 'not-configured' }),
  captureOrder: async () => ({ outcome: 'not-configured' }),
  refundCapture: async () => ({ outcome: 'not-configured' }),
  getRefund: async () => ({ outcome: 'not-configured' }),
  verifyWebhook: async () => ({ outcome: 'not-configured' }),
};
