import { AppId, actionInputShape, appEventName, checkValue, Id } from '@cartwright/app-manifest';
import {
  type AppWebhookReceiptRow,
  findApp,
  findAppWebhookReceipt,
  findTenant,
  insertAppWebhookReceipt,
} from '@cartwright/repository';
import * as v from 'valibot';
import { collisionFailureOf, type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';
import { manifestOf } from './lifecycle.ts';
import { isShopId } from './webhook-keys.ts';
import {
  APP_WEBHOOK_BODY_LIMIT_BYTES,
  APP_WEBHOOK_SKEW_SECONDS,
  isTransportAllowed,
  isWebhookSignatureValid,
  isWithinSkew,
  sha256Hex,
  type WebhookTransport,
  webhookHeaderProblem,
  webhookSignedString,
} from './webhook-signature.ts';

// Signed incoming app webhooks (issue 16, item 2; spec Authentication 10, Events 5; decision
// 0039). `POST /webhooks/apps/{tenant}/{app}/{webhook}` hands the raw request here. The checks run
// so that a sender without the app's key learns nothing: transport, header shapes, body size,
// signature; only a signed request is told about clock skew, its event id, the shop, the app and
// the body's shape. An accepted request stores its receipt and the action's event in one
// transaction; every refusal stores nothing.

/** The raw request, as the HTTP host receives it. */
export interface AppWebhookRequest {
  /** The path's segments, exactly as sent. */
  readonly tenant: string;
  readonly app: string;
  readonly webhook: string;
  /** `x-app-timestamp`, `x-app-event-id`, `x-app-signature`. */
  readonly headers: {
    readonly timestamp?: string | undefined;
    readonly eventId?: string | undefined;
    readonly signature?: string | undefined;
  };
  /** `content-length`, if sent: a larger declared body is refused before reading. */
  readonly contentLength?: string | undefined;
  /** The body, read here at most to the limit. */
  readonly body: ReadableStream<Uint8Array> | null;
  readonly transport: WebhookTransport;
}

/** The answer to an accepted request (or to its identical repeat, the same status and body). */
export interface AppWebhookAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  /** True when this request repeated one already accepted (nothing new was stored). */
  readonly repeated: boolean;
}

/** The status of an accepted webhook: its event is in the outbox, its effects come later. */
export const APP_WEBHOOK_ACCEPTED_STATUS = 202;

/** An HMAC key no configured secret equals: a request for an app without a key costs the same and fails the same. */
const NO_KEY = new Uint8Array(32);

/** The body's bytes, read until the limit is passed (then the stream is cancelled): null when too large. */
export async function readLimitedBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks, size);
}

function unknownWebhook(): Failure {
  return fail('APP_WEBHOOK_UNKNOWN', 'No such webhook is accepted here.');
}

function tooLarge(): Failure {
  return fail(
    'APP_WEBHOOK_BODY_TOO_LARGE',
    `A webhook body may hold at most ${APP_WEBHOOK_BODY_LIMIT_BYTES} bytes.`,
    { extensions: { limitBytes: APP_WEBHOOK_BODY_LIMIT_BYTES } },
  );
}

function repeatOf(receipt: AppWebhookReceiptRow, bodySha256: string): Result<AppWebhookAnswer> {
  if (receipt.bodySha256 !== bodySha256) {
    return fail(
      'APP_WEBHOOK_EVENT_REUSED',
      'This event id was accepted before with another body; send a new event id for new content.',
    );
  }
  return ok({ status: receipt.status, body: receipt.response, repeated: true });
}

/**
 * Checks a signed incoming webhook and, when it holds, stores its receipt and appends the
 * declared action's event `app.<app>.<action>` in one transaction. An identical repeat answers
 * the stored receipt and stores nothing.
 */
export async function acceptAppWebhook(
  services: Services,
  request: AppWebhookRequest,
): Promise<Result<AppWebhookAnswer>> {
  const settings = services.appWebhooks;
  const refuseUnread = async (failure: Failure) => {
    await request.body?.cancel().catch(() => undefined);
    return failure;
  };
  if (!isTransportAllowed(request.transport, settings.allowHttp)) {
    return refuseUnread(
      fail('APP_WEBHOOK_HTTPS_REQUIRED', 'Send webhooks over HTTPS; plain HTTP is accepted only locally.'),
    );
  }
  const headerProblem = webhookHeaderProblem(request.headers);
  if (headerProblem) return refuseUnread(fail('APP_WEBHOOK_HEADERS_INVALID', headerProblem));
  const { tenant, app: appId, webhook: webhookId } = request;
  if (!isShopId(tenant) || !v.is(AppId, appId) || !v.is(Id, webhookId)) {
    return refuseUnread(unknownWebhook());
  }
  const declared = request.contentLength === undefined ? 0 : Number(request.contentLength);
  if (!(declared <= APP_WEBHOOK_BODY_LIMIT_BYTES)) return refuseUnread(tooLarge());
  const bytes = await readLimitedBody(request.body, APP_WEBHOOK_BODY_LIMIT_BYTES);
  if (!bytes) return tooLarge();

  // The signature, before anything about the shop, the app or the body is revealed.
  const timestamp = request.headers.timestamp!;
  const eventId = request.headers.eventId!;
  const bodySha256 = sha256Hex(bytes);
  const signed = webhookSignedString({
    tenant,
    app: appId,
    webhook: webhookId,
    timestamp,
    eventId,
    bodySha256,
  });
  const key = settings.keys.get(tenant)?.get(appId);
  if (!isWebhookSignatureValid(key ?? NO_KEY, signed, request.headers.signature!) || !key) {
    return fail('APP_WEBHOOK_SIGNATURE_INVALID', 'The signature does not match this shop and app.');
  }
  const now = services.clock.now();
  if (!isWithinSkew(timestamp, now.getTime())) {
    return fail(
      'APP_WEBHOOK_TIMESTAMP_SKEW',
      `x-app-timestamp is more than ${APP_WEBHOOK_SKEW_SECONDS} seconds from the service clock.`,
      { extensions: { serverTime: Math.floor(now.getTime() / 1000) } },
    );
  }

  const reader = services.database.db;
  const earlier = await findAppWebhookReceipt(reader, tenant, appId, eventId);
  if (earlier) return repeatOf(earlier, bodySha256);
  const shop = await findTenant(reader, tenant);
  if (!shop) return unknownWebhook();
  if (shop.stage === 'sandbox') {
    return fail('APP_WEBHOOK_SANDBOX_SHOP', 'A private sandbox shop receives no webhooks.');
  }
  const installed = await findApp(reader, tenant, appId);
  if (!installed) return unknownWebhook();
  const manifest = manifestOf(installed);
  const declaredWebhook = manifest.webhooks.find((item) => item.id === webhookId);
  const action = declaredWebhook && manifest.actions.find((item) => item.id === declaredWebhook.action);
  const shape = action?.emits ? actionInputShape(manifest, action) : null;
  if (!action || !shape) return unknownWebhook();

  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return fail('INVALID_JSON', 'The webhook body is not UTF-8 JSON.');
  }
  const checked = checkValue(shape, body);
  if (!checked.ok) {
    return fail('VALIDATION_FAILED', `The body does not fit the input of the action ${action.id}.`, {
      errors: checked.issues.map((issue) => ({ pointer: issue.pointer, message: issue.message })),
    });
  }

  const outboxEventId = services.ids.next();
  const actor: Actor = { kind: 'system', process: 'app-webhook' };
  try {
    const stored = await services.database.transaction(async (tx) => {
      const receipt = await insertAppWebhookReceipt(tx, {
        tenantId: tenant,
        appId,
        eventId,
        webhookId,
        bodySha256,
        status: APP_WEBHOOK_ACCEPTED_STATUS,
        response: { receipt: { eventId, outboxEventId, receivedAt: now.toISOString() } },
        outboxEventId,
        createdAt: now,
      });
      // Another request took the event id first (its transaction has ended): nothing was written.
      if (!receipt) return undefined;
      await recordEvent(
        tx,
        services,
        tenant,
        actor,
        appEventName(appId, action.id),
        {
          appId,
          version: installed.version,
          actionId: action.id,
          webhook: { id: webhookId, eventId },
          input: checked.value,
        },
        outboxEventId,
      );
      return receipt;
    });
    if (stored) return ok({ status: stored.status, body: stored.response, repeated: false });
  } catch (error) {
    const collision = collisionFailureOf(error);
    if (collision) return collision;
    throw error;
  }
  const winner = await findAppWebhookReceipt(reader, tenant, appId, eventId);
  return winner ? repeatOf(winner, bodySha256) : fail('BUSY', 'The event id is being accepted; send again.');
}
