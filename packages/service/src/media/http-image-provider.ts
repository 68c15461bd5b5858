import { type BoundedAnswer, boundedExchange, quoteOutsideText } from '../kernel/bounded-exchange.ts';
import type { ImageProvider, ImageProviderRequest, ImageProviderResult } from '../kernel/image-provider.ts';
import type { ImageProviderConfig } from './image-provider-config.ts';

// The HTTP adapter of the image provider port (decision 0044), speaking the widely used images
// API: `generate` is `POST {base}/images/generations` (JSON: model, prompt, n), `optimize` is
// `POST {base}/images/edits` (multipart: image, prompt, model, n), both with the bearer key and
// answered `{ created, data: [{ b64_json }] }`. One bounded exchange per call (no redirects, one
// deadline, the answer stream-limited to IMAGE_RESPONSE_LIMIT_BYTES). Nothing is retried here: a
// repeated call would draw (and bill) another image. Messages are written here from the status and
// the exchange's reason; text quoted from the provider has the key and the URL cut out.

/**
 * The most of an answer read: 20 MiB of JSON, i.e. a base64 image of about 15 MiB. A 1536 × 1024
 * PNG from the provider is 2 to 4 MiB; the decoded image is then held to the image limits.
 */
export const IMAGE_RESPONSE_LIMIT_BYTES = 20 * 1024 * 1024;
/** How long one call may take, answer included: image models take tens of seconds. */
export const DEFAULT_IMAGE_TIMEOUT_MS = 120_000;
/** The size asked of `generate` (the edit keeps its source's proportions). */
export const GENERATED_IMAGE_SIZE = '1024x1024';

export interface HttpImageProviderOptions {
  /** The HTTP client; tests pass one, the service uses the global fetch. */
  readonly fetch?: typeof fetch;
  /** The deadline of one call; DEFAULT_IMAGE_TIMEOUT_MS unless a test shortens it. */
  readonly timeoutMs?: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Creates the adapter over the operator's settings. */
export function createHttpImageProvider(
  config: ImageProviderConfig,
  options: HttpImageProviderOptions = {},
): ImageProvider {
  const client = {
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS,
  };
  const secrets = [config.apiKey, config.baseUrl, new URL(config.baseUrl).host];
  // gpt-image models always answer base64 and refuse `response_format`; DALL·E models need it.
  const asksFormat = config.model.startsWith('dall-e');

  return {
    info: () => ({ available: true, model: config.model }),
    timeoutMs: client.timeoutMs,
    async draw(request: ImageProviderRequest): Promise<ImageProviderResult> {
      const headers: Record<string, string> = {
        authorization: `Bearer ${config.apiKey}`,
        accept: 'application/json',
      };
      let body: string | FormData;
      let path: string;
      if (request.mode === 'generate') {
        path = '/images/generations';
        headers['content-type'] = 'application/json';
        body = JSON.stringify({
          model: config.model,
          prompt: request.instruction,
          n: 1,
          size: GENERATED_IMAGE_SIZE,
          ...(asksFormat ? { response_format: 'b64_json' } : {}),
        });
      } else {
        path = '/images/edits';
        const form = new FormData();
        form.set('model', config.model);
        form.set('prompt', request.instruction);
        form.set('n', '1');
        if (asksFormat) form.set('response_format', 'b64_json');
        form.set(
          'image',
          new Blob([request.image.bytes], { type: request.image.contentType }),
          request.image.fileName,
        );
        body = form;
      }
      const answer = await boundedExchange(client, {
        method: 'POST',
        url: `${config.baseUrl}${path}`,
        headers,
        body,
        limitBytes: IMAGE_RESPONSE_LIMIT_BYTES,
      });
      return readAnswer(answer, config.model, secrets);
    },
  };
}

function unavailable(why: string): ImageProviderResult {
  return {
    ok: false,
    code: 'IMAGE_PROVIDER_UNAVAILABLE',
    message: `The image provider did not answer: ${why}.`,
  };
}

function invalid(why: string): ImageProviderResult {
  return {
    ok: false,
    code: 'IMAGE_PROVIDER_ANSWER_INVALID',
    message: `The image provider's answer is unusable: ${why}.`,
  };
}

/** What one exchange means for the draft. */
function readAnswer(answer: BoundedAnswer, model: string, secrets: readonly string[]): ImageProviderResult {
  if (answer.kind === 'unanswered') return unavailable(answer.reason);
  if (answer.kind === 'unreadable') {
    return answer.fault === 'interrupted' ? unavailable(answer.reason) : invalid(answer.reason);
  }
  const { status, body } = answer;
  if (status >= 400 && status <= 499) {
    // A refused key is answered with (part of) the key it was given: never quoted.
    const said =
      status === 401 || status === 403 ? 'the API key was not accepted' : providerMessage(body, secrets);
    return {
      ok: false,
      code: 'IMAGE_PROVIDER_REFUSED',
      message: `The image provider refused the request (HTTP ${status}${said ? `: ${said}` : ''}).`,
    };
  }
  if (status < 200 || status > 299) return unavailable(`HTTP ${status}`);
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  const first = Array.isArray(data) ? (data[0] as { b64_json?: unknown } | undefined) : undefined;
  const b64 = first?.b64_json;
  if (typeof b64 !== 'string' || b64.length === 0) return invalid(`HTTP ${status} without a base64 image`);
  if (b64.length % 4 !== 0 || !BASE64.test(b64))
    return invalid(`HTTP ${status} with an image that is not base64`);
  const bytes = Buffer.from(b64, 'base64');
  return { ok: true, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), model };
}

/** The provider's own `error.message`, fit to quote: key and URL cut out, one short line. */
function providerMessage(body: unknown, secrets: readonly string[]): string | null {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const message =
    typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  if (typeof message !== 'string' || message.trim() === '') return null;
  return quoteOutsideText(message, secrets);
}
