import { describe, expect, it } from 'vitest';
import {
  AppServicesConfigError,
  appServicesOf,
  DEFAULT_APP_SERVICE_TIMEOUT_MS,
  readAppServicesConfig,
} from '../src/apps/external/config.ts';
import { noAppServices } from '../src/kernel/app-services.ts';
import { EnvironmentError } from '../src/kernel/environment.ts';
import { outsideEnvironment, outsideServicesOf } from '../src/outside/config.ts';

// Issue 15, item 6: `APP_SERVICES` is server-only configuration; every problem stops start-up with
// one line that names the variable (and the app) and never repeats the credential.

const CREDENTIAL = 'svc-credential-3f9a1c7e5b2d4a68';

const config = (entries: unknown) => ({ APP_SERVICES: JSON.stringify(entries) });

function refusal(variables: { APP_SERVICES?: string }): string {
  try {
    readAppServicesConfig(variables);
  } catch (error) {
    expect(error).toBeInstanceOf(AppServicesConfigError);
    expect(error).toBeInstanceOf(EnvironmentError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid APP_SERVICES: /);
    expect(message).not.toContain(CREDENTIAL);
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a refusal');
}

describe('readAppServicesConfig', () => {
  it('answers no endpoints when unset or empty', () => {
    expect(readAppServicesConfig({})).toEqual(new Map());
    expect(readAppServicesConfig({ APP_SERVICES: '' })).toEqual(new Map());
    expect(readAppServicesConfig(config({}))).toEqual(new Map());
    expect(appServicesOf({})).toBe(noAppServices);
  });

  it('reads https endpoints and loopback http ones, with the default or a bounded timeout', () => {
    const endpoints = readAppServicesConfig(
      config({
        loyalty: { baseUrl: 'https://loyalty.example/cartwright/actions', credential: CREDENTIAL },
        local_fixture: { baseUrl: 'http://127.0.0.1:4010', credential: CREDENTIAL, timeoutMs: 250 },
        v6: { baseUrl: 'http://[::1]:4010/x', credential: CREDENTIAL, timeoutMs: 60_000 },
        named: { baseUrl: 'http://localhost:4010/x', credential: CREDENTIAL },
        'inbound-demo': { baseUrl: 'https://inbound.example', credential: CREDENTIAL },
      }),
    );
    expect(Object.fromEntries(endpoints)).toEqual({
      loyalty: {
        baseUrl: 'https://loyalty.example/cartwright/actions',
        credential: CREDENTIAL,
        timeoutMs: DEFAULT_APP_SERVICE_TIMEOUT_MS,
      },
      local_fixture: { baseUrl: 'http://127.0.0.1:4010/', credential: CREDENTIAL, timeoutMs: 250 },
      v6: { baseUrl: 'http://[::1]:4010/x', credential: CREDENTIAL, timeoutMs: 60_000 },
      named: { baseUrl: 'http://localhost:4010/x', credential: CREDENTIAL, timeoutMs: 10_000 },
      'inbound-demo': { baseUrl: 'https://inbound.example/', credential: CREDENTIAL, timeoutMs: 10_000 },
    });
    const services = appServicesOf(
      config({ loyalty: { baseUrl: 'https://l.example', credential: CREDENTIAL } }),
    );
    expect(services.isConfigured('loyalty')).toBe(true);
    expect(services.isConfigured('other')).toBe(false);
  });

  it.each([
    ['not JSON', '{loyalty', /expected a JSON object keyed by app id/],
    ['an array', '[]', /expected a JSON object keyed by app id/],
  ])('refuses %s', (_name, text, message) => {
    expect(refusal({ APP_SERVICES: text })).toMatch(message);
  });

  it.each([
    [
      'http to a host that is not loopback',
      { loyalty: { baseUrl: 'http://loyalty.example/actions', credential: CREDENTIAL } },
      'Invalid APP_SERVICES: the baseUrl of app loyalty must be https:// (http:// only on a loopback host: 127.0.0.1, ::1 or localhost)',
    ],
    [
      'http to a private address',
      { loyalty: { baseUrl: 'http://10.0.0.7:8080', credential: CREDENTIAL } },
      /the baseUrl of app loyalty must be https:\/\//,
    ],
    [
      'another scheme',
      { loyalty: { baseUrl: 'ftp://loyalty.example', credential: CREDENTIAL } },
      /the baseUrl of app loyalty must be https:\/\//,
    ],
    [
      'a relative URL',
      { loyalty: { baseUrl: '/actions', credential: CREDENTIAL } },
      'Invalid APP_SERVICES: the baseUrl of app loyalty is not a URL (expected https://host/path)',
    ],
    [
      'a user in the URL',
      { loyalty: { baseUrl: `https://user:${CREDENTIAL}@loyalty.example`, credential: CREDENTIAL } },
      'Invalid APP_SERVICES: the baseUrl of app loyalty must not hold a user or password (the credential is its own field)',
    ],
    [
      'a query',
      { loyalty: { baseUrl: `https://loyalty.example/?token=${CREDENTIAL}`, credential: CREDENTIAL } },
      'Invalid APP_SERVICES: the baseUrl of app loyalty must not have a query or fragment',
    ],
    [
      'a short credential',
      { loyalty: { baseUrl: 'https://loyalty.example', credential: 'short-secret' } },
      'Invalid APP_SERVICES: the entry of app loyalty has a bad credential (at least 16 visible ASCII characters)',
    ],
    [
      'a credential with a space',
      { loyalty: { baseUrl: 'https://loyalty.example', credential: `${CREDENTIAL} x` } },
      'Invalid APP_SERVICES: the entry of app loyalty has a bad credential (at least 16 visible ASCII characters)',
    ],
    [
      'no credential',
      { loyalty: { baseUrl: 'https://loyalty.example' } },
      /the entry of app loyalty has a bad credential/,
    ],
    [
      'a timeout out of bounds',
      { loyalty: { baseUrl: 'https://loyalty.example', credential: CREDENTIAL, timeoutMs: 60_001 } },
      'Invalid APP_SERVICES: the entry of app loyalty has a bad timeoutMs (a whole number of milliseconds from 100 to 60000)',
    ],
    [
      'a fractional timeout',
      { loyalty: { baseUrl: 'https://loyalty.example', credential: CREDENTIAL, timeoutMs: 99.5 } },
      /has a bad timeoutMs/,
    ],
    [
      'an unknown field (not named: it could be a pasted secret)',
      { loyalty: { baseUrl: 'https://loyalty.example', credential: CREDENTIAL, [CREDENTIAL]: 1 } },
      'Invalid APP_SERVICES: the entry of app loyalty must be {"baseUrl","credential","timeoutMs"?} and nothing else',
    ],
    [
      'an entry that is not an object',
      { loyalty: CREDENTIAL },
      'Invalid APP_SERVICES: the entry of app loyalty must be {"baseUrl","credential","timeoutMs"?} and nothing else',
    ],
    [
      'a key that is not an app id (not repeated)',
      { [`${CREDENTIAL}=`]: { baseUrl: 'https://loyalty.example', credential: CREDENTIAL } },
      'Invalid APP_SERVICES: keys are app ids (lowercase letters and digits, words joined by - or _, starting with a letter)',
    ],
  ])('refuses %s, in one line without the credential', (_name, entries, message) => {
    const text = refusal(config(entries));
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
  });
});

describe('outsideServicesOf', () => {
  it('lists every outside variable once', () => {
    expect(Object.keys(outsideEnvironment).sort()).toEqual([
      'APP_SERVICES',
      'APP_WEBHOOKS_ALLOW_HTTP',
      'APP_WEBHOOK_KEYS',
      'IMAGE_GENERATION_ENABLED',
      'MAIL_FROM',
      'MEDIA_URL_ALLOW_LOOPBACK',
      'MEDIA_URL_TIMEOUT_MS',
      'PROVIDER_ACCOUNTS',
      'PROVIDER_API_KEY',
      'PROVIDER_BASE_URL',
      'PROVIDER_CONTRACT_BASE_URL',
      'PROVIDER_IMAGE_MODEL',
      'PROVIDER_SANDBOX_ACCOUNTS',
      'PUBLIC_BASE_URL',
      'SMTP_URL',
    ]);
  });

  it('answers every outside service; the sandbox closes (no thread was started)', async () => {
    const outside = outsideServicesOf({
      ...config({ loyalty: { baseUrl: 'https://l.example', credential: CREDENTIAL } }),
      IMAGE_GENERATION_ENABLED: 'true',
      PROVIDER_API_KEY: CREDENTIAL,
    });
    expect(Object.keys(outside).sort()).toEqual([
      'appServices',
      'appWebhooks',
      'imageProvider',
      'mail',
      'mediaUrls',
      'payments',
      'sandbox',
    ]);
    expect(outside.appServices.isConfigured('loyalty')).toBe(true);
    expect(outside.imageProvider.info()).toEqual({ available: true, model: 'gpt-image-1' });
    const off = outsideServicesOf({});
    expect(off.imageProvider.info()).toEqual({ available: false, model: null });
    await off.sandbox.close();
    expect(outside.payments.publicBaseUrl).toBeNull();
    expect(outside.mail.from).toBeNull();
    await outside.sandbox.close();
    expect(
      await outside.sandbox.run({
        moduleSource: 'export default () => 1',
        exportName: 'default',
        input: null,
      }),
    ).toMatchObject({
      ok: false,
      code: 'APP_SANDBOX_UNAVAILABLE',
    });
  });

  it('stops at the first bad variable, naming it', () => {
    expect(() => outsideServicesOf({ APP_SERVICES: '[]' })).toThrow(AppServicesConfigError);
    expect(() => outsideServicesOf({ SMTP_URL: 'smtp://mail.example' })).toThrow(/^Invalid MAIL_FROM/);
    expect(() => outsideServicesOf({ IMAGE_GENERATION_ENABLED: 'true' })).toThrow(
      /^Invalid PROVIDER_API_KEY/,
    );
  });
});
