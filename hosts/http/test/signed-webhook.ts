import { sha256Hex, signWebhook, webhookSignedString } from '@cartwright/service';

// What a third party sends to `POST /webhooks/apps/{tenant}/{app}/{webhook}` (decision 0039): the
// body and the three headers over the signed string. Shared by the tests that play the sender.

const bytesOf = (text: string) => new TextEncoder().encode(text);

export interface Signed {
  readonly tenant: string;
  readonly app: string;
  readonly webhook: string;
  readonly body: string;
  readonly secret: string;
  readonly eventId?: string;
  readonly timestamp?: number;
}

/** The request a sender makes: path, body and the three headers over the signed string. */
export function signedRequest(signed: Signed) {
  const { app, webhook } = signed;
  const timestamp = String(signed.timestamp ?? Math.floor(Date.now() / 1000));
  const eventId = signed.eventId ?? `evt-${Math.random().toString(36).slice(2)}`;
  const signature = signWebhook(
    bytesOf(signed.secret),
    webhookSignedString({
      tenant: signed.tenant,
      app,
      webhook,
      timestamp,
      eventId,
      bodySha256: sha256Hex(bytesOf(signed.body)),
    }),
  );
  return {
    path: `/webhooks/apps/${signed.tenant}/${app}/${webhook}`,
    body: signed.body,
    headers: {
      'content-type': 'application/json',
      'x-app-timestamp': timestamp,
      'x-app-event-id': eventId,
      'x-app-signature': signature,
    } as Record<string, string>,
  };
}
