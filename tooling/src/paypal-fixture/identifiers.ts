import { randomBytes, randomUUID } from 'node:crypto';

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random upper-case alphanumerics; PayPal resource ids match `^[A-Z0-9]+$` (§2). */
function alphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  for (const byte of bytes) text += ID_ALPHABET[byte % ID_ALPHABET.length];
  return text;
}

/** An order, capture, authorization or refund id: 17 characters like `5O190127TN364715T` (§2). */
export function newResourceId(): string {
  return alphanumeric(17);
}

/** A payer id as sent back in the return URL's `PayerID` (§2.2). */
export function newPayerId(): string {
  return alphanumeric(13);
}

/** The `debug_id` of error bodies and the `Paypal-Debug-Id` header (§3, §6). */
export function newDebugId(): string {
  return randomBytes(7).toString('hex').slice(0, 13);
}

/** A webhook event id, `WH-<17>-<17>` (§5.2). */
export function newEventId(): string {
  return `WH-${alphanumeric(17)}-${alphanumeric(17)}`;
}

/** An opaque bearer token in PayPal's `A21AA…` style (§1). */
export function newAccessToken(): string {
  return `A21AA${randomBytes(48).toString('base64url')}`;
}

export function newTransmissionId(): string {
  return randomUUID();
}

export function newNonce(isoTime: string): string {
  return `${isoTime}${randomBytes(16).toString('base64url')}`;
}

/** RFC 3339 without milliseconds, as PayPal writes `create_time` / `update_time`. */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
