// One HTTP exchange with an outside service (the payment provider, an app's external service, the
// image provider), bounded: one deadline covers connecting, the headers and the whole body; at most
// RESPONSE_LIMIT_BYTES (or the request's own `limitBytes`) of the answer are read, stream-limited;
// a redirect is never followed.
// Every way an exchange can end is an answer, never a throw. Nothing here repeats a request
// header, the URL or a body we sent, so no credential leaves through a reason.

/** Spec: service and payment JSON responses are stream-limited to 64 KiB. */
export const RESPONSE_LIMIT_BYTES = 65_536;

export interface BoundedRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text, or a multipart form (fetch writes its Content-Type with the boundary). */
  readonly body?: string | FormData;
  /**
   * The most of the answer read, in bytes; RESPONSE_LIMIT_BYTES by default. Only an exchange whose
   * answer is known to be larger by nature raises it (the image provider's base64 images).
   */
  readonly limitBytes?: number;
}

export interface BoundedClient {
  /** The HTTP client; tests pass one, the service uses the global fetch. */
  readonly fetch: typeof fetch;
  /** The deadline of the whole exchange, answer body included. */
  readonly timeoutMs: number;
}

/** Why an answer's body could not be read although its status arrived. */
export type UnreadableFault = 'oversized' | 'not-utf8' | 'interrupted';

/** How an exchange ended. */
export type BoundedAnswer =
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly headers: Headers;
      /** The parsed JSON body; undefined when empty or not JSON. */
      readonly body: unknown;
    }
  | {
      /** The status arrived, the body did not read (too large, not UTF-8, cut or late). */
      readonly kind: 'unreadable';
      readonly status: number;
      readonly headers: Headers;
      readonly fault: UnreadableFault;
      /** One line naming the status and what went wrong, e.g. `HTTP 200, then timeout`. */
      readonly reason: string;
    }
  | {
      /** No status: no connection, a timeout, a dropped connection. */
      readonly kind: 'unanswered';
      /** `timeout`, `network error` or `network error (ECONNREFUSED)`. */
      readonly reason: string;
    };

/** Sends one request and reads at most `limitBytes` (RESPONSE_LIMIT_BYTES) of its answer, within the timeout. */
export async function boundedExchange(
  client: BoundedClient,
  request: BoundedRequest,
): Promise<BoundedAnswer> {
  const signal = AbortSignal.timeout(client.timeoutMs);
  let response: Response;
  try {
    response = await client.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal,
      // A redirect is not part of any contract; following one could carry the bearer elsewhere.
      redirect: 'manual',
    });
  } catch (error) {
    return { kind: 'unanswered', reason: failureReason(error, signal) };
  }
  const { status, headers } = response;
  const unreadable = (fault: UnreadableFault, reason: string): BoundedAnswer => ({
    kind: 'unreadable',
    status,
    headers,
    fault,
    reason,
  });
  const limit = request.limitBytes ?? RESPONSE_LIMIT_BYTES;
  const oversized = () => unreadable('oversized', `HTTP ${status} with an answer over ${limit} bytes`);

  const declared = Number(headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    response.body?.cancel().catch(() => undefined);
    return oversized();
  }
  const chunks: Uint8Array[] = [];
  if (response.body) {
    const reader = response.body.getReader();
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          reader.cancel().catch(() => undefined);
          return oversized();
        }
        chunks.push(value);
      }
    } catch (error) {
      return unreadable('interrupted', `HTTP ${status}, then ${failureReason(error, signal)}`);
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return unreadable('not-utf8', `HTTP ${status} with an answer that is not UTF-8`);
  }
  return { kind: 'answered', status, headers, body: parseJson(text) };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Names how a request failed; only the system code of the cause, never a message that may quote a URL. */
function failureReason(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const cause = error instanceof Error ? error.cause : undefined;
  const code =
    cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string'
      ? cause.code
      : undefined;
  return code && /^[A-Z0-9_]{1,40}$/.test(code) ? `network error (${code})` : 'network error';
}

/** How long a quoted text from an outside service may be. */
export const QUOTED_TEXT_LIMIT = 200;

/**
 * Text an outside service sent back, fit to quote in one line of a message: every secret cut
 * out, control characters and runs of white space made one space, shortened to `limit`.
 */
export function quoteOutsideText(
  text: string,
  secrets: readonly string[],
  limit: number = QUOTED_TEXT_LIMIT,
): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret.length > 0) clean = clean.split(secret).join('[redacted]');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  clean = clean.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return clean.length > limit ? `${clean.slice(0, limit - 1)}…` : clean;
}
