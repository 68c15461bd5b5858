import type { ProviderWebhookDelivery } from '../../kernel/payment-provider.ts';

// The verify-webhook-signature request (contract §5.4). PayPal checks the signature over the
// exact bytes it sent, so `webhook_event` must be the received body itself: it is spliced in as
// text. Parsing it and serialising it again can reorder keys or change number and escape
// spelling, and PayPal then answers FAILURE for a genuine delivery.

/** The transmission headers and the request field each one fills (§5.3). */
const TRANSMISSION_FIELDS = [
  ['auth_algo', 'paypal-auth-algo'],
  ['cert_url', 'paypal-cert-url'],
  ['transmission_id', 'paypal-transmission-id'],
  ['transmission_sig', 'paypal-transmission-sig'],
  ['transmission_time', 'paypal-transmission-time'],
] as const;

/**
 * The request body, or undefined when the delivery cannot be verified at all: a transmission
 * header is missing or the body is not one JSON object.
 */
export function verificationRequestBody(
  delivery: ProviderWebhookDelivery,
  webhookId: string,
): string | undefined {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(delivery.headers)) {
    if (typeof value === 'string') headers.set(name.toLowerCase(), value);
  }
  const fields: string[] = [];
  for (const [field, header] of TRANSMISSION_FIELDS) {
    const value = headers.get(header)?.trim();
    if (!value) return undefined;
    fields.push(`${JSON.stringify(field)}:${JSON.stringify(value)}`);
  }
  fields.push(`"webhook_id":${JSON.stringify(webhookId)}`);
  // Splicing is safe only for a text that is exactly one JSON object: anything else could add
  // or override fields of the request.
  if (!isJsonObject(delivery.body)) return undefined;
  fields.push(`"webhook_event":${delivery.body}`);
  return `{${fields.join(',')}}`;
}

function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
