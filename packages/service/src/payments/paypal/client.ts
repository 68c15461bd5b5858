import type { ProviderAnswer } from '../../kernel/payment-provider.ts';

// One HTTP exchange with PayPal and what its answer means. Every way an exchange can end is an
// answer, never a throw: a timeout, a dropped connection, a 5xx, an answer too large or not JSON
// leave the outcome unknown (the provider may have performed the command); a definite 4xx is a
// refusal. Nothing here repeats a request header or a body we sent, so no credential leaves.

/** Spec: service and payment JSON responses are stream-limited to 64 KiB. */
export const RESPONSE_LIMIT_BYTES = 65_536;

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** How an exchange ended: an HTTP answer with its body (parsed JSON, or undefined), or no answer. */
export type Exchange =
  | {
      readonly kind: 'answered';
      readonly status: number;
      /** The parsed JSON body; undefined when empty or not JSON. */
      readonly body: unknown;
      /** `Paypal-Debug-Id`, quoted in refusals so support can find the call. */
      readonly debugId: string | null;
    }
  | { readonly kind: 'unanswered'; readonly reason: string };

export interface HttpClient {
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}

/** Sends one request and reads at most RESPONSE_LIMIT_BYTES of its answer, within the timeout. */
export async function exchange(client: HttpClient, request: HttpRequest): Promise<Exchange> {
  // One deadline covers connecting, the headers and the whole body.
  const signal = AbortSignal.timeout(client.timeoutMs);
  let response: Response;
  try {
    response = await client.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal,
      // A redirect is not part of the contract; following one could carry the bearer elsewhere.
      redirect: 'manual',
    });
  } catch (error) {
    return { kind: 'unanswered', reason: failureReason(error, signal) };
  }
  const debugId = readDebugId(response.headers.get('paypal-debug-id'));
  const text = await readLimited(response, signal);
  if (typeof text !== 'string') return text;
  return { kind: 'answered', status: response.status, body: parseJson(text), debugId };
}

async function readLimited(response: Response, signal: AbortSignal): Promise<string | Exchange> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > RESPONSE_LIMIT_BYTES) {
    response.body?.cancel().catch(() => undefined);
    return oversized(response.status);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > RESPONSE_LIMIT_BYTES) {
        reader.cancel().catch(() => undefined);
        return oversized(response.status);
      }
      chunks.push(value);
    }
  } catch (error) {
    return { kind: 'unanswered', reason: `HTTP ${response.status}, then ${failureReason(error, signal)}` };
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return { kind: 'unanswered', reason: `HTTP ${response.status} with an answer that is not UTF-8` };
  }
}

function oversized(status: number): Exchange {
  return { kind: 'unanswered', reason: `HTTP ${status} with an answer over ${RESPONSE_LIMIT_BYTES} bytes` };
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

function readDebugId(value: string | null): string | null {
  return value && /^[A-Za-z0-9-]{1,64}$/.test(value) ? value : null;
}

const ISSUE = /^[A-Za-z0-9_.-]{1,100}$/;
const DETAIL_LIMIT = 200;

/**
 * What an answer other than a readable success means (contract §6). A 2xx reaches here only when
 * its body did not read; `secrets` are cut out of any text the provider sent back.
 */
export function failedAnswer(result: Exchange, secrets: readonly string[]): ProviderAnswer<never> {
  if (result.kind === 'unanswered') return { outcome: 'unknown', reason: result.reason };
  const { status } = result;
  if (status >= 200 && status < 300) {
    return { outcome: 'unknown', reason: `HTTP ${status} with an unreadable answer` };
  }
  if (status === 404) return { outcome: 'not-found' };
  const error = readErrorBody(result.body);
  // 409 PREVIOUS_REQUEST_IN_PROGRESS: the first request with this key is still being performed.
  // Any other conflict is not named by the contract, so its outcome is not definite either.
  if (status === 409 || status === 408 || status === 425 || status === 429 || status >= 500 || status < 400) {
    const issue = error.issue ? ` ${error.issue}` : '';
    return { outcome: 'unknown', reason: `HTTP ${status}${issue}` };
  }
  const debug = result.debugId ? ` (debug id ${result.debugId})` : '';
  return {
    outcome: 'refused',
    status,
    issue: error.issue ?? `HTTP_${status}`,
    detail: `${redact(error.detail ?? `HTTP ${status}`, secrets)}${debug}`,
  };
}

/** Reads the standard error body (`name`, `details[0].issue`) and the OAuth one (`error`) (§1, §6). */
function readErrorBody(body: unknown): { issue: string | undefined; detail: string | undefined } {
  if (!isRecord(body)) return { issue: undefined, detail: undefined };
  const first = Array.isArray(body.details) && isRecord(body.details[0]) ? body.details[0] : {};
  const issue = [first.issue, body.name, body.error].find(
    (candidate): candidate is string => typeof candidate === 'string' && ISSUE.test(candidate),
  );
  const detail = [first.description, body.message, body.error_description].find(
    (candidate): candidate is string => typeof candidate === 'string' && candidate.trim() !== '',
  );
  return { issue, detail };
}

/** Cuts every secret out of provider text, then shortens it to one line. */
function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret.length > 0) clean = clean.split(secret).join('[redacted]');
  }
  clean = clean.replace(/\s+/g, ' ').trim();
  return clean.length > DETAIL_LIMIT ? `${clean.slice(0, DETAIL_LIMIT - 1)}…` : clean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
