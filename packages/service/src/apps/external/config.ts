import { AppId } from '@cartwright/app-manifest';
import * as v from 'valibot';
import { type AppServices, noAppServices } from '../../kernel/app-services.ts';
import { EnvironmentError } from '../../kernel/environment.ts';
import {
  type AppServiceEndpoint,
  createHttpAppServices,
  type HttpAppServicesOptions,
} from './http-app-services.ts';

// App service configuration (spec: Authentication 9): `APP_SERVICES`, a JSON object keyed by app
// id, each entry the app's endpoint and credential. Server-only: read from the process environment
// by the hosts, checked here, never returned by an operation, a tool or a log line. A problem
// stops start-up with one line that names the variable (and the app), never a value.

/** A call's deadline when the entry names none. */
export const DEFAULT_APP_SERVICE_TIMEOUT_MS = 10_000;
/** The bounds of an entry's `timeoutMs`. */
export const APP_SERVICE_TIMEOUT_BOUNDS_MS = { min: 100, max: 60_000 } as const;
/** The shortest credential accepted: anything shorter is guessable, or a placeholder. */
export const APP_SERVICE_CREDENTIAL_MIN_LENGTH = 16;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

const EntrySchema = v.strictObject({
  baseUrl: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
  // Visible ASCII: it travels in a header.
  credential: v.pipe(
    v.string(),
    v.minLength(APP_SERVICE_CREDENTIAL_MIN_LENGTH),
    v.maxLength(4096),
    v.regex(/^[\x21-\x7e]+$/),
  ),
  timeoutMs: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(APP_SERVICE_TIMEOUT_BOUNDS_MS.min),
      v.maxValue(APP_SERVICE_TIMEOUT_BOUNDS_MS.max),
    ),
    DEFAULT_APP_SERVICE_TIMEOUT_MS,
  ),
});

/** What each field must be, for the one-line message (never the value given). */
const FIELD_RULES: Readonly<Record<string, string>> = {
  baseUrl: 'an https:// URL',
  credential: `at least ${APP_SERVICE_CREDENTIAL_MIN_LENGTH} visible ASCII characters`,
  timeoutMs: `a whole number of milliseconds from ${APP_SERVICE_TIMEOUT_BOUNDS_MS.min} to ${APP_SERVICE_TIMEOUT_BOUNDS_MS.max}`,
};

/** Raised for a configuration problem; the message is one line and holds no value. */
export class AppServicesConfigError extends EnvironmentError {
  override name = 'AppServicesConfigError';
}

/** The app service variable as an environment entry: every host that serves or works reads it. */
export const appServicesEnvironment = {
  APP_SERVICES: v.optional(v.string()),
};

/** The variables the hosts pass in (unset and empty are the same). */
export interface AppServicesVariables {
  readonly APP_SERVICES?: string | undefined;
}

/** The app services of a process: the HTTP adapter over the configured endpoints, if any. */
export function appServicesOf(
  variables: AppServicesVariables,
  options?: HttpAppServicesOptions,
): AppServices {
  const endpoints = readAppServicesConfig(variables);
  return endpoints.size > 0 ? createHttpAppServices(endpoints, options) : noAppServices;
}

/** Checks `APP_SERVICES` and answers the endpoints by app id, or throws AppServicesConfigError. */
export function readAppServicesConfig(variables: AppServicesVariables): Map<string, AppServiceEndpoint> {
  const endpoints = new Map<string, AppServiceEndpoint>();
  const text = variables.APP_SERVICES;
  if (text === undefined || text === '') return endpoints;
  const shape = 'expected a JSON object keyed by app id, each {"baseUrl","credential","timeoutMs"?}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppServicesConfigError(`Invalid APP_SERVICES: ${shape}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AppServicesConfigError(`Invalid APP_SERVICES: ${shape}`);
  }
  for (const [appId, entry] of Object.entries(parsed)) {
    // A bad key is not repeated: it may be a pasted secret.
    if (!v.is(AppId, appId)) {
      throw new AppServicesConfigError(
        'Invalid APP_SERVICES: keys are app ids (lowercase letters and digits, words joined by - or _, starting with a letter)',
      );
    }
    const checked = v.safeParse(EntrySchema, entry);
    if (!checked.success) {
      const key = checked.issues[0].path?.[0]?.key;
      const field = typeof key === 'string' && Object.hasOwn(FIELD_RULES, key) ? key : undefined;
      // An unknown field is not named either: its name could be anything pasted there.
      throw new AppServicesConfigError(
        field
          ? `Invalid APP_SERVICES: the entry of app ${appId} has a bad ${field} (${FIELD_RULES[field]})`
          : `Invalid APP_SERVICES: the entry of app ${appId} must be {"baseUrl","credential","timeoutMs"?} and nothing else`,
      );
    }
    endpoints.set(appId, { ...checked.output, baseUrl: readBaseUrl(appId, checked.output.baseUrl) });
  }
  return endpoints;
}

/** https, or http to a loopback host (local fixtures); no credentials, query or fragment in it. */
function readBaseUrl(appId: string, text: string): string {
  const problem = (rule: string) =>
    new AppServicesConfigError(`Invalid APP_SERVICES: the baseUrl of app ${appId} ${rule}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw problem('is not a URL (expected https://host/path)');
  }
  const isLoopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback)) {
    throw problem('must be https:// (http:// only on a loopback host: 127.0.0.1, ::1 or localhost)');
  }
  if (url.username !== '' || url.password !== '') {
    throw problem('must not hold a user or password (the credential is its own field)');
  }
  if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    throw problem('must not have a query or fragment');
  }
  return url.href;
}
