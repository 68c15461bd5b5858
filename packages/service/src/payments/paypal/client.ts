import {
  type BoundedClient,
  type BoundedRequest,
  boundedExchange,
  quoteOutsideText,
} from '../../kernel/bounded-exchange.ts';
import type { ProviderAnswer } from '../../kernel/payment-provider.ts';

// One HTTP exchange with PayPal and what its answer means. The exchange itself is the shared
// bounded one (kernel/bounded-exchange.ts); this reads it the PayPal way. Every way an exchange
// can end is an answer, never a throw: a timeout, a dropped connection, a 5xx, an answer too large
// or not JSON leave the outcome unknown (the provider may have performed the command); a definite
// 4xx is a refusal.

export { RESPONSE_LIMIT_BYTES } from '../../kernel/bounded-exchange.ts';

export type HttpRequest = BoundedRequest;
export type HttpClient = BoundedClient;

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

/**
 * The shared bounded exchange, read the PayPal way: an answer whose body did not read (too large,
 * not UTF-8, cut) leaves the outcome unknown whatever its status, like no answer at all.
 */
export async function exchange(client: HttpClient, request: HttpRequest): Promise<Exchange> {
  const answer = await boundedExchange(client, request);
  switch (answer.kind) {
    case 'answered':
      return {
        kind: 'answered',
        status: answer.status,
        body: answer.body,
        debugId: readDebugId(answer.headers.get('paypal-debug-id')),
      };
    case 'unreadable':
      return { kind: 'unanswered', reason: answer.reason };
    default:
      return answer;
  }
}

function readDebugId(value: string | null): string | null {
  return value && /^[A-Za-z0-9-]{1,64}$/.test(value) ? value : null;
}

const ISSUE = /^[A-Za-z0-9_.-]{1,100}$/;

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
    detail: `${quoteOutsideText(error.detail ?? `HTTP ${status}`, secrets)}${debug}`,
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
