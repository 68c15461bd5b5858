import { AppId } from '@cartwright/app-manifest';
import * as v from 'valibot';
import { EnvironmentError } from '../kernel/environment.ts';
import { type AppWebhookSettings, noAppWebhooks } from '../kernel/services.ts';

// Signed incoming webhook configuration (spec: Authentication 10, Limits): `APP_WEBHOOK_KEYS`, a
// JSON object keyed by shop id, then app id, whose values are the secrets the senders sign with.
// Server-only: read from the process environment by the hosts, checked here, never returned by
// an operation, a tool or a log line. A problem stops start-up with one line that names the
// variable (and the shop and app when they are well formed), never a secret.

/** The shortest secret accepted, in UTF-8 bytes (spec, Limits). */
export const APP_WEBHOOK_SECRET_MIN_BYTES = 32;
/** The longest secret accepted, in UTF-8 bytes: a longer one is a pasted file, not a key. */
export const APP_WEBHOOK_SECRET_MAX_BYTES = 1024;

/** A shop id as the service makes them: a lowercase UUID (the path of a webhook names it exactly). */
const SHOP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Raised for a configuration problem; the message is one line and holds no secret. */
export class AppWebhookKeysConfigError extends EnvironmentError {
  override name = 'AppWebhookKeysConfigError';
}

/** The webhook variables as environment entries: every host reads them (one outside wiring). */
export const appWebhooksEnvironment = {
  APP_WEBHOOK_KEYS: v.optional(v.string()),
  APP_WEBHOOKS_ALLOW_HTTP: v.optional(v.picklist(['true', 'false'], 'expected true or false')),
};

/** The variables the hosts pass in (unset and empty are the same). */
export interface AppWebhookVariables {
  readonly APP_WEBHOOK_KEYS?: string | undefined;
  readonly APP_WEBHOOKS_ALLOW_HTTP?: 'true' | 'false' | undefined;
}

/** Whether a string is a shop id as a webhook's path must spell it. */
export function isShopId(text: string): boolean {
  return SHOP_ID.test(text);
}

/** Checks the webhook variables and answers the settings, or throws AppWebhookKeysConfigError. */
export function appWebhooksOf(variables: AppWebhookVariables): AppWebhookSettings {
  const allowHttp = variables.APP_WEBHOOKS_ALLOW_HTTP === 'true';
  const keys = readAppWebhookKeys(variables.APP_WEBHOOK_KEYS);
  return keys.size === 0 && !allowHttp ? noAppWebhooks : { keys, allowHttp };
}

/** Checks `APP_WEBHOOK_KEYS` and answers each app's key by shop id, then app id. */
export function readAppWebhookKeys(text: string | undefined): Map<string, ReadonlyMap<string, Uint8Array>> {
  const keys = new Map<string, ReadonlyMap<string, Uint8Array>>();
  if (text === undefined || text === '') return keys;
  const shape = 'expected a JSON object keyed by shop id, then app id, each value a secret string';
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppWebhookKeysConfigError(`Invalid APP_WEBHOOK_KEYS: ${shape}`);
  }
  if (!isObject(parsed)) throw new AppWebhookKeysConfigError(`Invalid APP_WEBHOOK_KEYS: ${shape}`);
  for (const [shopId, apps] of Object.entries(parsed)) {
    // A bad key is not repeated: it may be a pasted secret.
    if (!isShopId(shopId)) {
      throw new AppWebhookKeysConfigError(
        'Invalid APP_WEBHOOK_KEYS: top-level keys are shop ids (lowercase UUIDs)',
      );
    }
    if (!isObject(apps)) {
      throw new AppWebhookKeysConfigError(
        `Invalid APP_WEBHOOK_KEYS: the entry of shop ${shopId} must be an object keyed by app id`,
      );
    }
    const ofShop = new Map<string, Uint8Array>();
    for (const [appId, secret] of Object.entries(apps)) {
      if (!v.is(AppId, appId)) {
        throw new AppWebhookKeysConfigError(
          `Invalid APP_WEBHOOK_KEYS: the keys of shop ${shopId} are app ids (lowercase letters, digits, - or _)`,
        );
      }
      const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : undefined;
      if (
        !bytes ||
        bytes.byteLength < APP_WEBHOOK_SECRET_MIN_BYTES ||
        bytes.byteLength > APP_WEBHOOK_SECRET_MAX_BYTES
      ) {
        throw new AppWebhookKeysConfigError(
          `Invalid APP_WEBHOOK_KEYS: the secret of app ${appId} in shop ${shopId} must be a string of ${APP_WEBHOOK_SECRET_MIN_BYTES} to ${APP_WEBHOOK_SECRET_MAX_BYTES} bytes`,
        );
      }
      ofShop.set(appId, new Uint8Array(bytes));
    }
    if (ofShop.size > 0) keys.set(shopId, ofShop);
  }
  return keys;
}
