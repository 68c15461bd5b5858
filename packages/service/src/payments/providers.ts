import { type BasisRow, type Executor, findApp } from '@cartwright/repository';
import { manifestOf } from '../apps/lifecycle.ts';
import { noPaymentProvider, type PaymentProvider } from '../kernel/payment-provider.ts';
import type { Services } from '../kernel/services.ts';
import { APP_PROVIDER_PREFIX, createAppPaymentProvider } from './app/provider.ts';

// Which adapter of the payment provider port takes an attempt's money. An attempt records its
// provider (`payment_attempts.provider`) when checkout opens it: `paypal` for a payment method
// with handler `provider` (the shop's configured account), `app:<appId>` for handler `app`. Every
// later call about the attempt (create, capture, reconcile, refund, cancellation) picks the
// adapter by that record through `providerOf`, so an attempt is only ever spoken for by the
// adapter that opened it.

/** The provider key of the shop's own provider account (provider API 1: PayPal). */
export const PAYPAL_PROVIDER = 'paypal';

/** The provider an attempt through `method` records, or null for an offline method (no attempt). */
export function providerKeyOf(method: Pick<BasisRow<'paymentMethods'>, 'handler' | 'appId'>): string | null {
  if (method.handler === 'provider') return PAYPAL_PROVIDER;
  // A method naming no app (a row written around the settings' check) is still an app payment:
  // readiness then finds no such app, and no order goes through it unpaid.
  if (method.handler === 'app') return `${APP_PROVIDER_PREFIX}${method.appId ?? ''}`;
  return null;
}

/**
 * The adapter that speaks for an attempt, by the provider it recorded. A provider this process
 * does not know answers not-configured to everything (nothing is sent; the ledger keeps money
 * that may have moved uncertain).
 */
export function providerOf(
  services: Services,
  attempt: { readonly provider: string; readonly currency: string },
): PaymentProvider {
  if (attempt.provider === PAYPAL_PROVIDER) return services.payments.provider;
  if (attempt.provider.startsWith(APP_PROVIDER_PREFIX)) {
    return createAppPaymentProvider(
      services,
      attempt.provider.slice(APP_PROVIDER_PREFIX.length),
      attempt.currency,
    );
  }
  return noPaymentProvider;
}

/**
 * Why checkout cannot take a payment through `provider` now (one line for the buyer's pointer),
 * or null when it can: the shop has no provider account; the app is not installed, declares no
 * `payment` or has no service endpoint; buyers could not come back (no `PUBLIC_BASE_URL`). The app
 * row is held FOR SHARE until checkout commits, so an uninstall waits for the order.
 */
export async function unavailableProvider(
  tx: Executor,
  services: Services,
  tenantId: string,
  provider: string,
): Promise<string | null> {
  if (provider.startsWith(APP_PROVIDER_PREFIX)) {
    const appId = provider.slice(APP_PROVIDER_PREFIX.length);
    const app = appId ? await findApp(tx, tenantId, appId, 'share') : undefined;
    if (!app) return `the app ${appId} is not installed`;
    if (!manifestOf(app).payment) return `the app ${appId} serves no payment method`;
    if (!services.appServices.isConfigured(appId)) return `the app ${appId} has no service endpoint`;
    if (services.payments.publicBaseUrl === null) return 'the shop has no public address to return to';
    return null;
  }
  if (provider === PAYPAL_PROVIDER && services.payments.provider.accountOf(tenantId)) return null;
  return 'provider not configured';
}
