import * as v from 'valibot';
import { EnvironmentError } from '../kernel/environment.ts';
import { type ImageProvider, noImageProvider } from '../kernel/image-provider.ts';
import { createHttpImageProvider, type HttpImageProviderOptions } from './http-image-provider.ts';

// Image provider configuration (spec Authentication 12; decision 0044). Server-only: read from the
// process environment by the hosts (through `outside/config.ts`), checked here, never returned by
// an operation, a tool or a log line. Off unless `IMAGE_GENERATION_ENABLED=true`. A problem stops
// start-up with one line naming the variable and never its value (the key is a secret, and a
// pasted value in the wrong variable could be one too).

/** The model drafts are drawn with when `PROVIDER_IMAGE_MODEL` is unset. */
export const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
/** Where the provider is reached when `PROVIDER_BASE_URL` is unset. */
export const DEFAULT_PROVIDER_BASE_URL = 'https://api.openai.com/v1';

/** The image provider's settings. Private: never returned. */
export interface ImageProviderConfig {
  /** https, or http on a loopback host; `/images/generations` and `/images/edits` are under it. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: string;
}

/** Raised for a configuration problem; the message is one line and holds no value. */
export class ImageProviderConfigError extends EnvironmentError {
  override name = 'ImageProviderConfigError';
}

/** The image provider variables as environment entries. */
export const imageProviderEnvironment = {
  IMAGE_GENERATION_ENABLED: v.optional(v.string()),
  PROVIDER_API_KEY: v.optional(v.string()),
  PROVIDER_IMAGE_MODEL: v.optional(v.string()),
  PROVIDER_BASE_URL: v.optional(v.string()),
};

/** The variables the hosts pass in (unset and empty are the same). */
export interface ImageProviderVariables {
  readonly IMAGE_GENERATION_ENABLED?: string | undefined;
  readonly PROVIDER_API_KEY?: string | undefined;
  readonly PROVIDER_IMAGE_MODEL?: string | undefined;
  readonly PROVIDER_BASE_URL?: string | undefined;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Visible ASCII: the key travels in a header. */
const API_KEY = /^[\x21-\x7e]{8,4096}$/;
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/** Checks the variables: null when image generation is off, else the settings (or throws). */
export function readImageProviderConfig(variables: ImageProviderVariables): ImageProviderConfig | null {
  const set = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const enabled = set(variables.IMAGE_GENERATION_ENABLED);
  if (enabled === undefined || enabled === 'false') return null;
  if (enabled !== 'true') {
    throw new ImageProviderConfigError('Invalid IMAGE_GENERATION_ENABLED: expected true or false');
  }
  const apiKey = set(variables.PROVIDER_API_KEY);
  if (apiKey === undefined) {
    throw new ImageProviderConfigError(
      'Invalid PROVIDER_API_KEY: required when IMAGE_GENERATION_ENABLED=true',
    );
  }
  if (!API_KEY.test(apiKey)) {
    throw new ImageProviderConfigError(
      'Invalid PROVIDER_API_KEY: expected 8 to 4096 visible ASCII characters',
    );
  }
  const model = set(variables.PROVIDER_IMAGE_MODEL) ?? DEFAULT_IMAGE_MODEL;
  if (!MODEL.test(model)) {
    throw new ImageProviderConfigError(
      'Invalid PROVIDER_IMAGE_MODEL: expected a model identifier (letters, digits, . _ : -; at most 100)',
    );
  }
  return {
    apiKey,
    model,
    baseUrl: readBaseUrl(set(variables.PROVIDER_BASE_URL) ?? DEFAULT_PROVIDER_BASE_URL),
  };
}

/** https, or http to a loopback host (local fixtures); no credentials, query or fragment in it. */
function readBaseUrl(text: string): string {
  const problem = (what: string) => new ImageProviderConfigError(`Invalid PROVIDER_BASE_URL: ${what}`);
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
  if (url.username !== '' || url.password !== '') throw problem('must not carry a user or password');
  if (url.search !== '' || url.hash !== '') throw problem('must not carry a query or fragment');
  return url.href.replace(/\/+$/, '');
}

/** The image provider of a process: the HTTP adapter when enabled, else none. */
export function imageProviderOf(
  variables: ImageProviderVariables,
  options?: HttpImageProviderOptions,
): ImageProvider {
  const config = readImageProviderConfig(variables);
  return config ? createHttpImageProvider(config, options) : noImageProvider;
}
