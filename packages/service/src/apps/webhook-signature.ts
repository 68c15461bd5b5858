import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// The signing scheme of incoming app webhooks (spec: Authentication 10; decision 0039): what is
// signed, how a signature is checked, and which transports count as HTTPS. No I/O, no clock: the
// caller passes the time and the request's facts.

/** The largest body accepted, in bytes (spec, Limits). */
export const APP_WEBHOOK_BODY_LIMIT_BYTES = 16 * 1024;
/** How far `x-app-timestamp` may be from the service clock, either way (spec, Limits). */
export const APP_WEBHOOK_SKEW_SECONDS = 5 * 60;
/** The longest `x-app-event-id`: 1 to 128 characters of `A-Z a-z 0-9 . _ : -`. */
export const APP_WEBHOOK_EVENT_ID_MAX_LENGTH = 128;

const EVENT_ID = new RegExp(`^[A-Za-z0-9._:-]{1,${APP_WEBHOOK_EVENT_ID_MAX_LENGTH}}$`);
/** Unix seconds, no sign, no fraction; 12 digits reach far beyond any clock's window. */
const TIMESTAMP = /^\d{1,12}$/;
/** 32 bytes of HMAC-SHA256 as hex, either case. */
const SIGNATURE = /^[0-9a-fA-F]{64}$/;

/** The members of the signed string, each exactly as sent. */
export interface SignedWebhook {
  readonly tenant: string;
  readonly app: string;
  readonly webhook: string;
  readonly timestamp: string;
  readonly eventId: string;
  /** SHA-256 hex (lowercase) of the exact body bytes. */
  readonly bodySha256: string;
}

/** `tenant\napp\nwebhook\ntimestamp\neventId\nsha256hex(body)`: what the sender signs. */
export function webhookSignedString(signed: SignedWebhook): string {
  return [
    signed.tenant,
    signed.app,
    signed.webhook,
    signed.timestamp,
    signed.eventId,
    signed.bodySha256,
  ].join('\n');
}

/** Lowercase SHA-256 hex of bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The signature a sender sends: lowercase hex HMAC-SHA256 of the signed string under the app's key. */
export function signWebhook(key: Uint8Array, signedString: string | Uint8Array): string {
  return createHmac('sha256', key).update(signedString).digest('hex');
}

/** Whether `signature` (hex, either case) is the HMAC of the signed string, compared in constant time. */
export function isWebhookSignatureValid(
  key: Uint8Array,
  signedString: string | Uint8Array,
  signature: string,
): boolean {
  if (!SIGNATURE.test(signature)) return false;
  const expected = createHmac('sha256', key).update(signedString).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/** The signature headers, checked for shape only (nothing about the shop or the body). */
export interface WebhookHeaders {
  readonly timestamp: string;
  readonly eventId: string;
  readonly signature: string;
}

/** Which header is missing or malformed, or null when all three have their shape. */
export function webhookHeaderProblem(headers: Partial<Record<keyof WebhookHeaders, string>>): string | null {
  if (headers.timestamp === undefined || !TIMESTAMP.test(headers.timestamp)) {
    return 'x-app-timestamp must be Unix seconds (digits only).';
  }
  if (headers.eventId === undefined || !EVENT_ID.test(headers.eventId)) {
    return `x-app-event-id must be 1 to ${APP_WEBHOOK_EVENT_ID_MAX_LENGTH} characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.`;
  }
  if (headers.signature === undefined || !SIGNATURE.test(headers.signature)) {
    return 'x-app-signature must be the hex HMAC-SHA256 of the signed string (64 hex digits).';
  }
  return null;
}

/** Whether a timestamp (Unix seconds) lies within the window around `nowMs`. */
export function isWithinSkew(timestamp: string, nowMs: number): boolean {
  return Math.abs(Number(timestamp) - nowMs / 1000) <= APP_WEBHOOK_SKEW_SECONDS;
}

/** What the host knows of the connection a webhook came on. */
export interface WebhookTransport {
  /** The socket itself is TLS. */
  readonly encrypted: boolean;
  /** The peer's IP address, when the host knows it. */
  readonly peerAddress?: string | undefined;
  /** `x-forwarded-proto`, as sent. */
  readonly forwardedProto?: string | undefined;
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * Whether the request travelled over HTTPS, or within a local trusted environment: a TLS socket;
 * a loopback peer, which is either a local sender (no `x-forwarded-proto`) or a proxy on this
 * machine whose `x-forwarded-proto` (the last value, the one it set) is `https`; or any peer when
 * the operator declared the network trusted (`allowHttp`). A remote peer's forwarding header is not
 * believed.
 */
export function isTransportAllowed(transport: WebhookTransport, allowHttp: boolean): boolean {
  if (allowHttp || transport.encrypted) return true;
  if (!isLoopbackAddress(transport.peerAddress)) return false;
  if (transport.forwardedProto === undefined) return true;
  const last = transport.forwardedProto.split(',').at(-1)?.trim().toLowerCase();
  return last === 'https';
}
