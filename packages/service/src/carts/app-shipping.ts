import { type Executor, findApp } from '@cartwright/repository';
import { invokeAppAction } from '../apps/invoke.ts';
import { manifestOf } from '../apps/lifecycle.ts';
import type { Services } from '../kernel/services.ts';

// A shipping method priced by an installed app (decision 0042): cart pricing asks the app's
// `shipping.rate` action through the one app action dispatcher, as the service itself, inside the
// pricing's transaction and within a short deadline. Whatever goes wrong answers no rate, which
// pricing turns into the problem SHIPPING_RATE_UNAVAILABLE: never a free rate.

/**
 * How long pricing waits for a rate, in milliseconds: the transaction that prices the cart stays
 * open meanwhile (a cart read, or checkout before it takes the stock and order-number locks). An
 * external call gets it as its deadline (or the app's configured one, when shorter); a module run
 * is bounded by its CPU limit besides.
 */
export const SHIPPING_RATE_TIMEOUT_MS = 2_000;

/** The input of `SHIPPING_CONTRACT`: what a rate may depend on. */
export interface ShippingRateQuestion {
  readonly currency: string;
  /** ISO 3166-1 alpha-2; absent while the cart has no shipping address. */
  readonly country?: string;
  /** Units in the cart. */
  readonly quantity: number;
  /** Gross total of the lines, in minor units. */
  readonly subtotal: number;
}

/** A rate in the cart currency's minor units: safe non-negative integers, `net` at most `gross`. */
export interface ShippingRate {
  readonly gross: number;
  readonly net: number;
}

/** Answers an app's rate for a question, or null when the app gives no usable one. */
export type AppShippingRates = (
  appId: string,
  question: ShippingRateQuestion,
) => Promise<ShippingRate | null>;

/** Asks no app: every app-priced rate is unavailable (SHIPPING_RATE_UNAVAILABLE), the lines unaffected. */
export const NO_APP_RATES: AppShippingRates = async () => null;

/**
 * The rates of one cart pricing: each app is asked once per distinct question, however often
 * the pricing passes over the cart (a second pass for rule-conditioned tax rules asks the same).
 */
export function appShippingRates(tx: Executor, services: Services, tenantId: string): AppShippingRates {
  const asked = new Map<string, Promise<ShippingRate | null>>();
  return (appId, question) => {
    const key = JSON.stringify([
      appId,
      question.currency,
      question.country ?? null,
      question.quantity,
      question.subtotal,
    ]);
    let rate = asked.get(key);
    if (!rate) {
      rate = askRate(tx, services, tenantId, appId, question);
      asked.set(key, rate);
    }
    return rate;
  };
}

async function askRate(
  tx: Executor,
  services: Services,
  tenantId: string,
  appId: string,
  question: ShippingRateQuestion,
): Promise<ShippingRate | null> {
  // The method was saved naming an app with a shipping rate; it may since be uninstalled, or
  // upgraded to a version without the role.
  const app = await findApp(tx, tenantId, appId);
  const shipping = app ? manifestOf(app).shipping : undefined;
  if (!shipping) return null;
  const answer = await invokeAppAction(
    services,
    tenantId,
    { kind: 'system', process: 'cart-pricing', tx },
    { appId, actionId: shipping.rate, input: question, timeoutMs: SHIPPING_RATE_TIMEOUT_MS },
  );
  return answer.ok ? contractRate(answer.value) : null;
}

/** The output read against the contract again: the declared types may allow more than a price. */
function contractRate(output: Readonly<Record<string, unknown>>): ShippingRate | null {
  const { gross, net } = output;
  const isAmount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
  return isAmount(gross) && isAmount(net) && net <= gross ? { gross, net } : null;
}
