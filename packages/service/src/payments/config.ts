import * as v from 'valibot';
import { EnvironmentError } from '../kernel/environment.ts';
import { noPaymentProvider, type ProviderEnvironment } from '../kernel/payment-provider.ts';
import type { PaymentServices } from '../kernel/services.ts';
import { createPayPalProvider, type PayPalProviderOptions } from './paypal/index.ts';

// Payment provider configuration (spec: Authentication 11). Server-only: read from the process
// environment by the hosts, checked here, never returned by an operation, a tool or a log line.
// A problem stops start-up with one line that names the variable and never echoes a value.

/** One shop's provider account. */
export interface ProviderAccount {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly webhookId: string;
  /** Partner attribution (`PayPal-Partner-Attribution-Id`); private. */
  readonly bnCode: string;
  readonly environment: ProviderEnvironment;
  readonly merchantId: string | null;
}

export interface PaymentConfig {
  /** Accounts by exact shop id. */
  readonly accounts: ReadonlyMap<string, ProviderAccount>;
  /** The browser-accessible origin return and cancel URLs are built on; null when unset. */
  readonly publicBaseUrl: string | null;
  /** The loopback base URL every account uses instead of the provider's, for contract tests. */
  readonly contractBaseUrl: string | null;
}

/** The provider's API base for an environment (contract §7). */
export const PROVIDER_BASE_URLS: Readonly<Record<ProviderEnvironment, string>> = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
};

const Text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

const AccountSchema = v.strictObject({
  clientId: Text(512),
  clientSecret: Text(512),
  webhookId: Text(128),
  bnCode: Text(128),
  environment: v.picklist(['sandbox', 'live']),
  merchantId: v.optional(v.nullable(Text(64)), null),
});

const SHOP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Raised for a configuration problem; the message is one line and holds no secret. */
export class PaymentConfigError extends EnvironmentError {
  override name = 'PaymentConfigError';
}

/** The payment variables as environment entries: every host that serves or pays reads them. */
export const paymentEnvironment = {
  PROVIDER_ACCOUNTS: v.optional(v.string()),
  PROVIDER_SANDBOX_ACCOUNTS: v.optional(v.string()),
  PUBLIC_BASE_URL: v.optional(v.string()),
  PROVIDER_CONTRACT_BASE_URL: v.optional(v.string()),
};

/** The payment services of a process: the PayPal adapter over the configured accounts, if any. */
export function paymentServicesOf(
  variables: PaymentVariables,
  options?: PayPalProviderOptions,
): PaymentServices {
  const config = readPaymentConfig(variables);
  return {
    provider: config.accounts.size > 0 ? createPayPalProvider(config, options) : noPaymentProvider,
    publicBaseUrl: config.publicBaseUrl,
  };
}

/** The variables the hosts pass in (unset and empty are the same). */
export interface PaymentVariables {
  readonly PROVIDER_ACCOUNTS?: string | undefined;
  readonly PROVIDER_SANDBOX_ACCOUNTS?: string | undefined;
  readonly PUBLIC_BASE_URL?: string | undefined;
  readonly PROVIDER_CONTRACT_BASE_URL?: string | undefined;
}

/** Checks the payment variables and answers the configuration, or throws PaymentConfigError. */
export function readPaymentConfig(variables: PaymentVariables): PaymentConfig {
  const set = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const current = set(variables.PROVIDER_ACCOUNTS);
  const legacy = set(variables.PROVIDER_SANDBOX_ACCOUNTS);
  if (current && legacy) {
    throw new PaymentConfigError(
      'Invalid PROVIDER_SANDBOX_ACCOUNTS: set PROVIDER_ACCOUNTS or its legacy name, not both',
    );
  }
  const name = current ? 'PROVIDER_ACCOUNTS' : 'PROVIDER_SANDBOX_ACCOUNTS';
  const accounts = readAccounts(name, current ?? legacy);
  const publicBaseUrl = readOrigin('PUBLIC_BASE_URL', set(variables.PUBLIC_BASE_URL));
  const contractBaseUrl = readContractBaseUrl(set(variables.PROVIDER_CONTRACT_BASE_URL));
  if (accounts.size > 0 && !publicBaseUrl) {
    throw new PaymentConfigError(
      `Invalid PUBLIC_BASE_URL: required when ${name} is set (buyers return to it from the provider)`,
    );
  }
  const live = [...accounts.values()].some((account) => account.environment === 'live');
  if (live && publicBaseUrl && !publicBaseUrl.startsWith('https://')) {
    throw new PaymentConfigError('Invalid PUBLIC_BASE_URL: a live account needs an https:// return origin');
  }
  return { accounts, publicBaseUrl, contractBaseUrl };
}

function readAccounts(name: string, text: string | undefined): Map<string, ProviderAccount> {
  const accounts = new Map<string, ProviderAccount>();
  if (text === undefined) return accounts;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PaymentConfigError(`Invalid ${name}: expected a JSON object keyed by shop id`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PaymentConfigError(`Invalid ${name}: expected a JSON object keyed by shop id`);
  }
  for (const [shopId, entry] of Object.entries(parsed)) {
    if (!SHOP_ID.test(shopId)) {
      throw new PaymentConfigError(`Invalid ${name}: keys are exact shop ids (lower-case UUIDs)`);
    }
    const account = v.safeParse(AccountSchema, entry);
    if (!account.success) {
      // The path names the field; the value (perhaps a secret) is never repeated.
      const field = account.issues[0].path?.map((item) => String(item.key)).join('.') ?? 'entry';
      throw new PaymentConfigError(
        `Invalid ${name}: the entry of shop ${shopId} has a bad or unknown ${field}`,
      );
    }
    accounts.set(shopId, account.output);
  }
  return accounts;
}

function readOrigin(name: string, text: string | undefined): string | null {
  if (text === undefined) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PaymentConfigError(`Invalid ${name}: expected an origin such as https://shop.example`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new PaymentConfigError(`Invalid ${name}: expected an http(s) origin without credentials`);
  }
  if (url.search || url.hash) throw new PaymentConfigError(`Invalid ${name}: no query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function readContractBaseUrl(text: string | undefined): string | null {
  const origin = readOrigin('PROVIDER_CONTRACT_BASE_URL', text);
  if (origin === null) return null;
  if (!LOOPBACK_HOSTS.has(new URL(origin).hostname)) {
    throw new PaymentConfigError(
      'Invalid PROVIDER_CONTRACT_BASE_URL: only a loopback address (127.0.0.1, ::1 or localhost) is accepted',
    );
  }
  return origin;
}
