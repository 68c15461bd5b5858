import type { PaymentRole } from '@cartwright/app-manifest';
import { findApp } from '@cartwright/repository';
import { invokeAppAction } from '../../apps/invoke.ts';
import { manifestOf } from '../../apps/lifecycle.ts';
import {
  type PaymentProvider,
  PROVIDER_API_VERSION,
  type ProviderAccountInfo,
  type ProviderAnswer,
} from '../../kernel/payment-provider.ts';
import type { Services } from '../../kernel/services.ts';
import { type ContractReading, isOrderId, readOrderState, readRefundState } from './contract.ts';

// The payment provider port served by an installed app (decision 0042): each command is the
// action the app's installed manifest names for its `payment` role, run through the one app
// dispatcher (`invokeAppAction`: the action's declared input and output types are checked there),
// then its answer is read against the payment contract. Calls go only to an app that is installed
// in the shop, still declares `payment` and has a service endpoint in this process; otherwise
// nothing is sent and the answer is not-configured. The command's request id (derived from the
// ledger's ids) is the call's Idempotency-Key, so a replay after a lost answer is the same call.

/** The provider key an attempt through an app records (`payment_attempts.provider`). */
export const APP_PROVIDER_PREFIX = 'app:';

/** The payment-worker, as the app's actions see their caller (their emitted events name it). */
const PROCESS = 'payment-worker';

/**
 * What an app's payment account is. The service cannot tell an app's test mode from its live one,
 * so every app payment is taken as real money (`live`), never labelled a contract fixture (an
 * app's service may run on loopback in production too), and names no merchant (the app's answers
 * carry none; the app is the merchant's own).
 */
const APP_ACCOUNT: ProviderAccountInfo = {
  environment: 'live',
  merchantId: null,
  contractFixture: false,
  adapterVersion: PROVIDER_API_VERSION,
};

/** Failure codes of the dispatcher that mean nothing reached the app's service. */
const NOT_SENT_UNCONFIGURED = new Set([
  'APP_NOT_INSTALLED',
  'APP_ACTION_NOT_FOUND',
  'APP_SERVICE_NOT_CONFIGURED',
]);

/**
 * The adapter of the app `appId`'s payment method for attempts in `currency` (the contract's
 * capture amounts name none: they are in the currency the payment was authorized in).
 */
export function createAppPaymentProvider(
  services: Services,
  appId: string,
  currency: string,
): PaymentProvider {
  /**
   * Runs the action of `role` and reads its output; the dispatcher's failures become the port's
   * answers: nothing sent (not installed, no payment role, no endpoint) is not-configured, a 4xx
   * of the app is a definite refusal, no answer or an answer that breaks the declared types or the
   * contract is unknown (the app may have acted).
   */
  async function run<T>(
    tenantId: string,
    role: PaymentRole,
    input: Record<string, string>,
    idempotencyKey: string | undefined,
    read: (output: unknown) => ContractReading<T>,
  ): Promise<ProviderAnswer<T>> {
    const app = await findApp(services.database.db, tenantId, appId);
    const actionId = app ? manifestOf(app).payment?.[role] : undefined;
    if (!actionId) return { outcome: 'not-configured' };
    const result = await invokeAppAction(
      services,
      tenantId,
      { kind: 'system', process: PROCESS, idempotencyKey },
      { appId, actionId, input },
    );
    if (!result.ok) {
      if (NOT_SENT_UNCONFIGURED.has(result.code)) return { outcome: 'not-configured' };
      if (result.code === 'APP_SERVICE_REFUSED') {
        return { outcome: 'refused', status: 0, issue: 'APP_SERVICE_REFUSED', detail: result.detail };
      }
      // The input did not fit the action's declared types: refused before anything was sent.
      if (result.code === 'VALIDATION_FAILED') {
        return { outcome: 'refused', status: 0, issue: 'APP_INPUT_REFUSED', detail: result.detail };
      }
      return { outcome: 'unknown', reason: `${role}: ${result.detail}` };
    }
    const reading = read(result.value);
    if ('reason' in reading) return { outcome: 'unknown', reason: `${role}: ${reading.reason}` };
    return { outcome: 'done', value: reading.value };
  }

  const readOrder = (output: unknown) => readOrderState(output, currency);

  return {
    accountOf: () => (services.appServices.isConfigured(appId) ? APP_ACCOUNT : undefined),

    createOrder: (tenantId, order) =>
      run(
        tenantId,
        'authorize',
        {
          request_id: order.requestId,
          attempt_id: order.customId,
          amount: order.amount.value,
          currency: order.amount.currency,
          invoice_id: order.invoiceId,
          return_url: order.returnUrl,
          cancel_url: order.cancelUrl,
        },
        order.requestId,
        readOrder,
      ),

    getOrder: async (tenantId, providerOrderId) =>
      isOrderId(providerOrderId)
        ? run(tenantId, 'status', { order_id: providerOrderId }, undefined, readOrder)
        : { outcome: 'not-found' },

    captureOrder: async (tenantId, providerOrderId, requestId) =>
      isOrderId(providerOrderId)
        ? run(tenantId, 'capture', { order_id: providerOrderId, request_id: requestId }, requestId, readOrder)
        : { outcome: 'not-found' },

    refundCapture: (tenantId, captureId, refund) => {
      // Our refund id, echoed in the app's reports; the request id when a caller gives none.
      const reference = refund.customId ?? refund.requestId;
      return run(
        tenantId,
        'refund',
        {
          capture_id: captureId,
          request_id: refund.requestId,
          refund_reference: reference,
          amount: refund.amount.value,
          currency: refund.amount.currency,
        },
        refund.requestId,
        (output) => readRefundState(output, { captureId, amount: refund.amount, reference }),
      );
    },

    // The contract has no refund read: a refund is settled by the refund action's own answer
    // (its replay under the same request id answers the refund's current state).
    getRefund: async () => ({
      outcome: 'unknown',
      reason: 'the payment contract of apps has no refund read',
    }),

    // Apps report nothing by provider webhooks: the worker reads their status instead.
    verifyWebhook: async () => ({ outcome: 'not-configured' }),
  };
}
