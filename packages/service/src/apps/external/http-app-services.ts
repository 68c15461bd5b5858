import {
  type AppDeliveryRequest,
  type AppDeliveryResult,
  type AppServiceRequest,
  type AppServiceResult,
  type AppServices,
  noAppServices,
} from '../../kernel/app-services.ts';
import { type BoundedAnswer, boundedExchange, quoteOutsideText } from '../../kernel/bounded-exchange.ts';
import { sha256Hex, signWebhook, webhookSignedString } from '../webhook-signature.ts';

// The HTTP adapter of the external app service port (decision 0036). A call is one POST of
// `{"tenant", "action", "input"}` to the app's configured base URL with its bearer credential,
// through the shared bounded exchange (64 KiB, one deadline, no redirects). A 2xx JSON object is
// the output; everything else is an answer with a code. Messages are written here from the
// status and the exchange's reason, never from the URL, a header or a raw body, and any text
// quoted from the service has the credential and the URL cut out.

/** One app's service endpoint, as `APP_SERVICES` configures it. Private: never returned. */
export interface AppServiceEndpoint {
  /** https, or http on a loopback host; the POST goes to exactly this URL. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <credential>`. */
  readonly credential: string;
  /** The deadline of one call, answer body included. */
  readonly timeoutMs: number;
}

export interface HttpAppServicesOptions {
  /** The HTTP client; tests pass one, the service uses the global fetch. */
  readonly fetch?: typeof fetch;
}

/** What an `Idempotency-Key` may hold: visible ASCII, as header values travel. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Creates the adapter over the configured endpoints, keyed by app id. */
export function createHttpAppServices(
  endpoints: ReadonlyMap<string, AppServiceEndpoint>,
  options: HttpAppServicesOptions = {},
): AppServices {
  const fetchOf = options.fetch ?? globalThis.fetch;
  return {
    isConfigured: (appId) => endpoints.has(appId),

    async call(request: AppServiceRequest): Promise<AppServiceResult> {
      const endpoint = endpoints.get(request.appId);
      if (!endpoint) return noAppServices.call(request);
      // A caller's bug, not an outcome of the call: rejected before anything is sent.
      const input = JSON.stringify(request.input);
      if (input === undefined) throw new TypeError('app service input must be a JSON value');
      const body = `{"tenant":${JSON.stringify(request.tenantId)},"action":${JSON.stringify(request.actionId)},"input":${input}}`;
      const key = request.idempotencyKey;
      if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
        throw new TypeError('an idempotency key is 1 to 255 visible ASCII characters');
      }
      const deadline = request.timeoutMs;
      if (deadline !== undefined && !(Number.isSafeInteger(deadline) && deadline > 0)) {
        throw new TypeError('a call deadline is a positive whole number of milliseconds');
      }
      const answer = await boundedExchange(
        { fetch: fetchOf, timeoutMs: Math.min(endpoint.timeoutMs, deadline ?? endpoint.timeoutMs) },
        {
          method: 'POST',
          url: endpoint.baseUrl,
          headers: {
            Authorization: `Bearer ${endpoint.credential}`,
            'Content-Type': 'application/json',
            Accept: 'application/json',
            ...(key === undefined ? {} : { 'Idempotency-Key': key }),
          },
          body,
        },
      );
      return resultOf(answer, request.appId, endpoint);
    },

    async deliver(request: AppDeliveryRequest): Promise<AppDeliveryResult> {
      const endpoint = endpoints.get(request.appId);
      if (!endpoint) return noAppServices.deliver(request);
      const { event } = request;
      const body = JSON.stringify({
        tenant: request.tenantId,
        app: request.appId,
        delivery: request.deliveryId,
        event: {
          id: event.id,
          name: event.name,
          sequence: event.sequence,
          occurredAt: event.occurredAt,
          payload: event.payload,
        },
      });
      const timestamp = String(request.timestamp);
      // The incoming webhooks' scheme (decision 0039), outward: the event name where a webhook's
      // id stands, the delivery id where its event id stands, keyed with the service credential.
      const signature = signWebhook(
        Buffer.from(endpoint.credential, 'utf8'),
        webhookSignedString({
          tenant: request.tenantId,
          app: request.appId,
          webhook: event.name,
          timestamp,
          eventId: request.deliveryId,
          bodySha256: sha256Hex(Buffer.from(body, 'utf8')),
        }),
      );
      // No bearer: the signature proves the sender, and a delivery logged by a proxy leaks no credential.
      const answer = await boundedExchange(
        { fetch: fetchOf, timeoutMs: endpoint.timeoutMs },
        {
          method: 'POST',
          url: endpoint.baseUrl,
          headers: {
            'Content-Type': 'application/json',
            'x-app-delivery-id': request.deliveryId,
            'x-app-event-id': event.id,
            'x-app-event-sequence': String(event.sequence),
            'x-app-event': event.name,
            'x-app-timestamp': timestamp,
            'x-app-signature': signature,
          },
          body,
        },
      );
      return deliveryResultOf(answer, request.appId, endpoint);
    },
  };
}

/** Any 2xx delivers (its body is read within the bounds and ignored); everything else fails the attempt. */
function deliveryResultOf(
  answer: BoundedAnswer,
  appId: string,
  endpoint: AppServiceEndpoint,
): AppDeliveryResult {
  if (answer.kind === 'unanswered') {
    return {
      ok: false,
      code: 'APP_SERVICE_UNAVAILABLE',
      status: null,
      message: `The service of the app ${appId} did not answer (${answer.reason}).`,
    };
  }
  const { status } = answer;
  if (status >= 200 && status < 300) return { ok: true, status };
  const result = resultOf(answer, appId, endpoint);
  const code = result.ok ? 'APP_SERVICE_UNAVAILABLE' : result.code;
  const message = result.ok ? `The service of the app ${appId} answered HTTP ${status}.` : result.message;
  return { ok: false, code, status, message: message.replace(/; the call may have had its effect\.$/, '.') };
}

/** What an exchange's end means for the caller (the table of decision 0036). */
function resultOf(answer: BoundedAnswer, appId: string, endpoint: AppServiceEndpoint): AppServiceResult {
  const service = `The service of the app ${appId}`;
  const mayHaveActed = 'the call may have had its effect';
  if (answer.kind === 'unanswered') {
    return unavailable(`${service} did not answer (${answer.reason}); ${mayHaveActed}.`);
  }
  const { status } = answer;
  if (status >= 400 && status < 500) {
    const detail = answer.kind === 'answered' ? detailOf(answer.body, endpoint) : '';
    return {
      ok: false,
      code: 'APP_SERVICE_REFUSED',
      message: `${service} refused the call (HTTP ${status})${detail ? `: ${detail}` : '.'}`,
      outcomeUnknown: false,
    };
  }
  if (status < 200 || status >= 300) {
    // A 5xx, or a redirect or interim answer the contract does not have.
    return unavailable(`${service} answered HTTP ${status}; ${mayHaveActed}.`);
  }
  if (answer.kind === 'unreadable') {
    if (answer.fault === 'interrupted') {
      return unavailable(`${service} answered ${answer.reason}; ${mayHaveActed}.`);
    }
    return invalid(`${service} answered ${answer.reason}; ${mayHaveActed}.`);
  }
  if (isRecord(answer.body)) return { ok: true, output: answer.body };
  return invalid(`${service} answered HTTP ${status} without a JSON object; ${mayHaveActed}.`);
}

function unavailable(message: string): AppServiceResult {
  return { ok: false, code: 'APP_SERVICE_UNAVAILABLE', message, outcomeUnknown: true };
}

function invalid(message: string): AppServiceResult {
  return { ok: false, code: 'APP_SERVICE_ANSWER_INVALID', message, outcomeUnknown: true };
}

/** The `detail` string of a refusal's JSON body, fit to quote; '' when there is none. */
function detailOf(body: unknown, endpoint: AppServiceEndpoint): string {
  if (!isRecord(body) || typeof body.detail !== 'string') return '';
  const url = new URL(endpoint.baseUrl);
  return quoteOutsideText(body.detail, [endpoint.credential, endpoint.baseUrl, url.host, url.hostname]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
