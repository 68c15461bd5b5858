import { type AppServicesVariables, appServicesEnvironment, appServicesOf } from '../apps/external/config.ts';
import type { HttpAppServicesOptions } from '../apps/external/http-app-services.ts';
import { createWorkerAppSandbox, type WorkerSandboxOptions } from '../apps/sandbox/worker-pool.ts';
import { type AppWebhookVariables, appWebhooksEnvironment, appWebhooksOf } from '../apps/webhook-keys.ts';
import type { Services } from '../kernel/services.ts';
import { type MailVariables, mailEnvironment, mailServicesOf } from '../mail/config.ts';
import type { SmtpMailerOptions } from '../mail/smtp.ts';
import type { HttpImageProviderOptions } from '../media/http-image-provider.ts';
import {
  type ImageProviderVariables,
  imageProviderEnvironment,
  imageProviderOf,
} from '../media/image-provider-config.ts';
import { type MediaUrlVariables, mediaUrlEnvironment, mediaUrlsOf } from '../media/url-config.ts';
import { type PaymentVariables, paymentEnvironment, paymentServicesOf } from '../payments/config.ts';
import type { PayPalProviderOptions } from '../payments/paypal/index.ts';

// Everything a process reaches outside itself, configured in one place for every host: the
// payment provider, the mail server, apps' external services and webhook keys, the image provider
// (each from its variables) and the app sandbox. A host spreads `outsideEnvironment` into its entries, calls `outsideServicesOf`
// once and passes the answer to `createServices`; on shutdown it closes the sandbox.

/** The variables of every outside service, as environment entries. */
export const outsideEnvironment = {
  ...paymentEnvironment,
  ...mailEnvironment,
  ...appServicesEnvironment,
  ...appWebhooksEnvironment,
  ...imageProviderEnvironment,
  ...mediaUrlEnvironment,
};

/** The variables the hosts pass in (unset and empty are the same). */
export type OutsideVariables = PaymentVariables &
  MailVariables &
  AppServicesVariables &
  AppWebhookVariables &
  ImageProviderVariables &
  MediaUrlVariables;

/** The outside services of a process, as `createServices` takes them. */
export type OutsideServices = Pick<
  Services,
  'payments' | 'mail' | 'appServices' | 'appWebhooks' | 'sandbox' | 'imageProvider' | 'mediaUrls'
>;

/** Test seams of each adapter; hosts pass none. */
export interface OutsideServicesOptions {
  readonly payments?: PayPalProviderOptions;
  readonly mail?: SmtpMailerOptions;
  readonly appServices?: HttpAppServicesOptions;
  readonly sandbox?: WorkerSandboxOptions;
  readonly imageProvider?: HttpImageProviderOptions;
}

/**
 * Checks every outside variable (an EnvironmentError names the first bad one) and answers the
 * adapters. The sandbox's threads start on its first call; the host awaits `sandbox.close()` on
 * every way out.
 */
export function outsideServicesOf(
  variables: OutsideVariables,
  options: OutsideServicesOptions = {},
): OutsideServices {
  const payments = paymentServicesOf(variables, options.payments);
  const mail = mailServicesOf(variables, options.mail);
  const appServices = appServicesOf(variables, options.appServices);
  const appWebhooks = appWebhooksOf(variables);
  const imageProvider = imageProviderOf(variables, options.imageProvider);
  // Last, so a configuration error leaves nothing to close.
  return {
    payments,
    mail,
    appServices,
    appWebhooks,
    imageProvider,
    mediaUrls: mediaUrlsOf(variables),
    sandbox: createWorkerAppSandbox(options.sandbox),
  };
}
