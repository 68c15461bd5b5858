import {
  noAppServices,
  noAppWebhooks,
  noImageProvider,
  noMailer,
  noPaymentProvider,
} from '@cartwright/service';
import { describe, expect, it } from 'vitest';
import { readWorkerEnv, WORKER_ROLES } from '../src/index.ts';

/** The app sandbox pool, created for every process (its threads start on the first call). */
const lazySandbox = expect.objectContaining({ run: expect.any(Function), close: expect.any(Function) });

describe('readWorkerEnv', () => {
  it('defaults to every worker role on embedded storage', () => {
    expect(readWorkerEnv({})).toEqual({
      ok: true,
      config: {
        processRole: 'all',
        roles: ['memory-worker', 'payment-worker', 'app-worker', 'translation-worker', 'media-worker'],
        databaseUrl: undefined,
        dataDir: '.data',
        pollMs: 1000,
        leaseMs: 30_000,
        flowBatch: 50,
        outside: {
          payments: { provider: noPaymentProvider, publicBaseUrl: null },
          mail: { mailer: noMailer, from: null },
          appServices: noAppServices,
          appWebhooks: noAppWebhooks,
          imageProvider: noImageProvider,
          mediaUrls: { allowLoopback: false, timeoutMs: 10_000 },
          sandbox: lazySandbox,
        },
      },
    });
    expect(WORKER_ROLES).not.toContain('http');
  });

  it('runs one worker role against PostgreSQL', () => {
    expect(
      readWorkerEnv({
        PROCESS_ROLE: 'memory-worker',
        DATABASE_URL: 'postgres://cartwright@db.internal:5432/shop',
        WORKER_POLL_MS: '250',
        WORKER_LEASE_MS: '1500',
        WORKER_FLOW_BATCH: '20',
        UNRELATED: 'ignored',
      }),
    ).toEqual({
      ok: true,
      config: {
        processRole: 'memory-worker',
        roles: ['memory-worker'],
        databaseUrl: 'postgres://cartwright@db.internal:5432/shop',
        dataDir: '.data',
        pollMs: 250,
        leaseMs: 1500,
        flowBatch: 20,
        outside: {
          payments: { provider: noPaymentProvider, publicBaseUrl: null },
          mail: { mailer: noMailer, from: null },
          appServices: noAppServices,
          appWebhooks: noAppWebhooks,
          imageProvider: noImageProvider,
          mediaUrls: { allowLoopback: false, timeoutMs: 10_000 },
          sandbox: lazySandbox,
        },
      },
    });
  });

  it.each([
    [
      { PROCESS_ROLE: 'memory-worker' },
      'PROCESS_ROLE=memory-worker needs PostgreSQL (set DATABASE_URL); embedded storage allows one process, use PROCESS_ROLE=all',
    ],
    [
      { PROCESS_ROLE: 'media-worker', DATABASE_URL: '' },
      'PROCESS_ROLE=media-worker needs PostgreSQL (set DATABASE_URL); embedded storage allows one process, use PROCESS_ROLE=all',
    ],
    [{ PROCESS_ROLE: 'http' }, expect.stringMatching(/^Invalid PROCESS_ROLE: .*all.*memory-worker/)],
    [{ DATABASE_URL: 'mysql://db/shop' }, 'Invalid DATABASE_URL: expected a postgres:// URL'],
    [{ WORKER_POLL_MS: '1.5' }, 'Invalid WORKER_POLL_MS: expected a whole number'],
    [{ WORKER_POLL_MS: '0' }, 'Invalid WORKER_POLL_MS: expected at least 1'],
    [{ WORKER_LEASE_MS: '30s' }, 'Invalid WORKER_LEASE_MS: expected a whole number'],
    [{ WORKER_FLOW_BATCH: '0' }, 'Invalid WORKER_FLOW_BATCH: expected at least 1'],
    [{ WORKER_FLOW_BATCH: '501' }, 'Invalid WORKER_FLOW_BATCH: expected at most 500'],
    [
      { PROVIDER_ACCOUNTS: '{not json' },
      'Invalid PROVIDER_ACCOUNTS: expected a JSON object keyed by shop id',
    ],
    [
      { PROVIDER_CONTRACT_BASE_URL: 'https://api-m.sandbox.paypal.com' },
      'Invalid PROVIDER_CONTRACT_BASE_URL: only a loopback address (127.0.0.1, ::1 or localhost) is accepted',
    ],
    [
      { SMTP_URL: 'https://mailer:secret@mail.example.com', MAIL_FROM: 'orders@shop.example' },
      'Invalid SMTP_URL: the scheme is smtp:// (STARTTLS when offered) or smtps:// (TLS from the start)',
    ],
    [
      { SMTP_URL: 'smtp://mailer:secret@mail.example.com' },
      'Invalid MAIL_FROM: required when SMTP_URL is set (the address mail is sent from)',
    ],
    [
      {
        APP_SERVICES:
          '{"loyalty":{"baseUrl":"http://loyalty.example","credential":"svc-credential-0123456789"}}',
      },
      'Invalid APP_SERVICES: the baseUrl of app loyalty must be https:// (http:// only on a loopback host: 127.0.0.1, ::1 or localhost)',
    ],
  ])('rejects %o with one line that names the variable', (env, message) => {
    expect(readWorkerEnv(env)).toEqual({ ok: false, message });
  });
});

describe('readWorkerEnv with APP_SERVICES', () => {
  it('configures each app’s external service', async () => {
    const result = readWorkerEnv({
      APP_SERVICES: JSON.stringify({
        loyalty: { baseUrl: 'https://loyalty.example/actions', credential: 'svc-credential-0123456789' },
      }),
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.config.outside.appServices.isConfigured('loyalty')).toBe(true);
    expect(result.config.outside.appServices.isConfigured('reviews')).toBe(false);
    await result.config.outside.sandbox.close();
  });
});
