import type { Database } from '@cartwright/repository';
import { type AppSandbox, noAppSandbox } from './app-sandbox.ts';
import { type AppServices, noAppServices } from './app-services.ts';
import { type BlobStore, databaseBlobStore } from './blob-store.ts';
import { type IdSource, uuidV7Ids } from './ids.ts';
import { type ImageProvider, noImageProvider } from './image-provider.ts';
import { type Mailer, noMailer } from './mailer.ts';
import { noPaymentProvider, type PaymentProvider } from './payment-provider.ts';

/** The clock every use case reads; tests pass a fixed one. */
export interface Clock {
  now(): Date;
}

/** Everything a use case needs from the outside world, passed down explicitly. */
export interface Services {
  readonly database: Database;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** Where document and asset bytes are kept (default: the database's `blobs` table). */
  readonly blobs: BlobStore;
  /** The payment provider port and the origin buyers return to (default: no accounts). */
  readonly payments: PaymentServices;
  /** The mail port and the sender address (default: no mail server). */
  readonly mail: MailServices;
  /**
   * Runs apps' pure modules (default: none, every call answers APP_SANDBOX_UNAVAILABLE). Hosts pass
   * `createWorkerAppSandbox()`, whose threads start on the first call, and close it on shutdown.
   */
  readonly sandbox: AppSandbox;
  /** Apps' external services (`APP_SERVICES`; default: none, every call answers APP_SERVICE_NOT_CONFIGURED). */
  readonly appServices: AppServices;
  /** Signed incoming app webhooks (`APP_WEBHOOK_KEYS`; default: no keys, every webhook refused). */
  readonly appWebhooks: AppWebhookSettings;
  /** Draws image drafts (`IMAGE_GENERATION_ENABLED`; default: off, every call answers IMAGE_PROVIDER_DISABLED). */
  readonly imageProvider: ImageProvider;
  /** How merchant-given image URLs are fetched (`MEDIA_URL_ALLOW_LOOPBACK`, `MEDIA_URL_TIMEOUT_MS`). */
  readonly mediaUrls: MediaUrlSettings;
}

/** The operator's settings of image URL fetching (decision 0043); never request input. */
export interface MediaUrlSettings {
  /** Loopback addresses (127.0.0.0/8, ::1) may be fetched: local fixtures and tests only. */
  readonly allowLoopback: boolean;
  /** The deadline of one fetch, redirects and body included. */
  readonly timeoutMs: number;
}

export interface PaymentServices {
  readonly provider: PaymentProvider;
  /** `PUBLIC_BASE_URL`: return and cancel URLs are built on it; null when unset. */
  readonly publicBaseUrl: string | null;
}

export interface MailServices {
  readonly mailer: Mailer;
  /** `MAIL_FROM`: the address mail is sent from (each shop's name is its display name); null when unset. */
  readonly from: string | null;
}

/** The operator's settings of signed incoming app webhooks (decision 0039). */
export interface AppWebhookSettings {
  /** Each app's HMAC key in a shop (its secret's UTF-8 bytes, at least 32), by shop id, then app id. */
  readonly keys: ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>;
  /** `APP_WEBHOOKS_ALLOW_HTTP`: the operator declares the network trusted, so plain HTTP is accepted from any peer. */
  readonly allowHttp: boolean;
}

/** No webhook keys: every signed webhook is refused. */
export const noAppWebhooks: AppWebhookSettings = { keys: new Map(), allowHttp: false };

export const systemClock: Clock = { now: () => new Date() };

export function createServices(
  database: Database,
  overrides: Partial<Omit<Services, 'database'>> = {},
): Services {
  const ids = overrides.ids ?? uuidV7Ids;
  return {
    database,
    clock: overrides.clock ?? systemClock,
    ids,
    blobs: overrides.blobs ?? databaseBlobStore(ids),
    payments: overrides.payments ?? { provider: noPaymentProvider, publicBaseUrl: null },
    mail: overrides.mail ?? { mailer: noMailer, from: null },
    sandbox: overrides.sandbox ?? noAppSandbox,
    appServices: overrides.appServices ?? noAppServices,
    appWebhooks: overrides.appWebhooks ?? noAppWebhooks,
    imageProvider: overrides.imageProvider ?? noImageProvider,
    mediaUrls: overrides.mediaUrls ?? { allowLoopback: false, timeoutMs: 10_000 },
  };
}
