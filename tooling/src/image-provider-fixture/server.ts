import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf, sendJson, startLoopbackServer } from '../loopback-http.ts';
import { readBodyBytes } from '../request-body.ts';
import {
  createImageProviderFaults,
  type ImageEndpoint,
  type ImageProviderFault,
  type ImageProviderFaultKind,
} from './faults.ts';
import { type FixtureImage, pngBomb, renderFixtureImage } from './png.ts';

export interface ImageProviderFixtureOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** The API key every call must carry as `Authorization: Bearer <apiKey>` (401 otherwise). */
  readonly apiKey: string;
  /** The model used when a request names none. Default `gpt-image-1`. */
  readonly defaultModel?: string;
  /**
   * Draw every answer at this size instead of the requested one (tests keep images small);
   * otherwise `size` (`WxH`), with `auto` or none meaning 1024 × 1024.
   */
  readonly renderSize?: { readonly width: number; readonly height: number };
}

/** The image a caller sent to `edits`. */
export interface ReceivedImage {
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly sha256: string;
}

/** One HTTP request the fixture received, authorised or not. */
export interface ReceivedImageCall {
  readonly method: string;
  /** Pathname and query, as sent. */
  readonly path: string;
  /** Null when the path is neither endpoint. */
  readonly endpoint: ImageEndpoint | null;
  readonly authorized: boolean;
  readonly contentType: string | null;
  readonly model: string | null;
  readonly prompt: string | null;
  readonly n: number | null;
  readonly size: string | null;
  readonly responseFormat: string | null;
  readonly image: ReceivedImage | null;
  readonly fault?: ImageProviderFaultKind;
  /** The first image answered (what a test compares pixels with). */
  readonly output?: FixtureImage;
  /** Status answered; absent while in flight or when the connection was dropped unanswered. */
  readonly status?: number;
}

/** The loopback provider: its base URL, what it received, and faults on demand. */
export interface ImageProviderFixture {
  /** `http://127.0.0.1:<port>/v1`: the base URL to configure (`PROVIDER_BASE_URL`). */
  readonly url: string;
  readonly apiKey: string;
  /** Every request received, oldest first. */
  readonly calls: readonly ReceivedImageCall[];
  /** Injects a fault into the next matching call(s). */
  failNext(fault: ImageProviderFault): void;
  clearFaults(): void;
  /** Forgets the calls received so far. */
  clear(): void;
  /** Stops listening and cuts every open connection (slow ones too). */
  close(): Promise<void>;
}

const BASE = '/v1';
const ENDPOINTS: Readonly<Record<string, ImageEndpoint>> = {
  [`${BASE}/images/generations`]: 'generations',
  [`${BASE}/images/edits`]: 'edits',
};
/** What the fixture reads of a request: an edit carries an image of up to 8 MiB and its form. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_PROMPT = 32_000;
const MAX_SIDE = 4096;
const DEFAULT_OVERSIZED_BYTES = 21 * 1024 * 1024;

type MutableCall = { -readonly [K in keyof ReceivedImageCall]: ReceivedImageCall[K] };

/** The provider's error body. */
function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A request's fields, whichever way they came (JSON or a multipart form). */
interface ImageRequestFields {
  readonly model: unknown;
  readonly prompt: unknown;
  readonly n: unknown;
  readonly size: unknown;
  readonly responseFormat: unknown;
  readonly image?: { readonly fileName: string; readonly contentType: string; readonly bytes: Buffer };
}

async function readJsonFields(body: Buffer): Promise<ImageRequestFields | string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'We could not parse the JSON body of your request.';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'The body of your request must be a JSON object.';
  }
  const fields = parsed as Record<string, unknown>;
  return {
    model: fields.model,
    prompt: fields.prompt,
    n: fields.n,
    size: fields.size,
    responseFormat: fields.response_format,
  };
}

async function readFormFields(body: Buffer, contentType: string): Promise<ImageRequestFields | string> {
  let form: FormData;
  try {
    form = await new Request('http://fixture/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
  } catch {
    return 'We could not parse the multipart form of your request.';
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const file = form.get('image') ?? form.get('image[]');
  const n = text('n');
  return {
    model: text('model'),
    prompt: text('prompt'),
    n: n === undefined ? undefined : Number(n),
    size: text('size'),
    responseFormat: text('response_format'),
    ...(file !== null && typeof file !== 'string'
      ? {
          image: {
            fileName: file.name,
            contentType: file.type,
            bytes: Buffer.from(await file.arrayBuffer()),
          },
        }
      : {}),
  };
}

/** Starts the loopback image provider on 127.0.0.1. */
export async function startImageProviderFixture(
  options: ImageProviderFixtureOptions,
): Promise<ImageProviderFixture> {
  const { apiKey } = options;
  const defaultModel = options.defaultModel ?? 'gpt-image-1';
  const faults = createImageProviderFaults();
  const calls: MutableCall[] = [];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '';
    const endpoint = ENDPOINTS[new URL(path, 'http://fixture').pathname] ?? null;
    const call: MutableCall = {
      method: request.method ?? '',
      path,
      endpoint,
      authorized: headerOf(request, 'authorization') === `Bearer ${apiKey}`,
      contentType: headerOf(request, 'content-type'),
      model: null,
      prompt: null,
      n: null,
      size: null,
      responseFormat: null,
      image: null,
    };
    calls.push(call);
    const answer = (status: number, body: unknown) => {
      call.status = status;
      sendJson(response, status, body);
    };
    const invalid = (message: string, param: string | null = null) =>
      answer(400, errorBody(message, 'invalid_request_error', null, param));

    const body = await readBodyBytes(request, MAX_BODY_BYTES);
    if (!call.authorized) {
      // Like the real API, the refusal names the key it was given; a client must never pass it on.
      const given = (headerOf(request, 'authorization') ?? '').replace(/^Bearer /, '');
      return answer(
        401,
        errorBody(`Incorrect API key provided: ${given}.`, 'invalid_request_error', 'invalid_api_key'),
      );
    }
    if (endpoint === null || call.method !== 'POST') {
      return answer(
        404,
        errorBody(`Unknown request URL: ${call.method} ${path}.`, 'invalid_request_error', null),
      );
    }
    if (body === undefined)
      return answer(413, errorBody('Request body too large.', 'invalid_request_error', null));
    const type = (call.contentType ?? '').toLowerCase();
    const fields =
      endpoint === 'generations'
        ? type.startsWith('application/json')
          ? await readJsonFields(body)
          : 'Generations take an application/json body.'
        : type.startsWith('multipart/form-data')
          ? await readFormFields(body, call.contentType ?? '')
          : 'Edits take a multipart/form-data body.';
    if (typeof fields === 'string') return invalid(fields);

    if (fields.model !== undefined && typeof fields.model !== 'string')
      return invalid('model must be a string.', 'model');
    call.model = (fields.model as string | undefined) ?? defaultModel;
    if (typeof fields.prompt !== 'string' || fields.prompt.trim() === '') {
      return invalid('prompt is required.', 'prompt');
    }
    if (fields.prompt.length > MAX_PROMPT)
      return invalid(`prompt is longer than ${MAX_PROMPT} characters.`, 'prompt');
    call.prompt = fields.prompt;
    const n = fields.n ?? 1;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10)
      return invalid('n must be 1 to 10.', 'n');
    call.n = n;
    if (fields.size !== undefined && typeof fields.size !== 'string')
      return invalid('size must be a string.', 'size');
    call.size = (fields.size as string | undefined) ?? null;
    const format = fields.responseFormat ?? 'b64_json';
    if (format !== 'b64_json')
      return invalid('This fixture answers response_format b64_json only.', 'response_format');
    call.responseFormat = (fields.responseFormat as string | undefined) ?? null;
    let sourceSha256: string | undefined;
    if (endpoint === 'edits') {
      if (!fields.image) return invalid('image is required.', 'image');
      sourceSha256 = createHash('sha256').update(fields.image.bytes).digest('hex');
      call.image = {
        fileName: fields.image.fileName,
        contentType: fields.image.contentType,
        size: fields.image.bytes.length,
        sha256: sourceSha256,
      };
    }
    let width = 1024;
    let height = 1024;
    if (options.renderSize) ({ width, height } = options.renderSize);
    else if (call.size !== null && call.size !== 'auto') {
      const match = /^(\d{1,4})x(\d{1,4})$/.exec(call.size);
      if (!match) return invalid('size must be WIDTHxHEIGHT or auto.', 'size');
      width = Number(match[1]);
      height = Number(match[2]);
      if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
        return invalid(`size must be at most ${MAX_SIDE}x${MAX_SIDE}.`, 'size');
      }
    }

    const fault = faults.take(endpoint);
    if (fault) call.fault = fault.kind;
    const created = Math.floor(Date.now() / 1000);
    const single = (b64: string) => answer(200, { created, data: [{ b64_json: b64 }] });
    switch (fault?.kind) {
      case 'status':
        return answer(
          fault.status ?? 500,
          errorBody(
            fault.message ?? 'The server had an error processing your request.',
            'server_error',
            fault.code ?? null,
          ),
        );
      case 'refuse':
        return answer(
          fault.status ?? 400,
          errorBody(
            fault.message ?? 'Your request was rejected by the safety system.',
            'invalid_request_error',
            fault.code ?? 'content_policy_violation',
          ),
        );
      case 'not-image':
        return single(Buffer.from('<html><body>not an image</body></html>').toString('base64'));
      case 'bomb':
        return single(pngBomb(fault.width ?? 100_000, fault.height ?? 100_000).toString('base64'));
      case 'oversized': {
        call.status = 200;
        const total = fault.bytes ?? DEFAULT_OVERSIZED_BYTES;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(`{"created":${created},"data":[{"b64_json":"`);
        const piece = 'A'.repeat(64 * 1024);
        for (let sent = 0; sent < total && !response.destroyed; sent += piece.length) {
          // Respect back-pressure: a client that stops reading stops the stream.
          if (!response.write(piece)) await new Promise((resolve) => response.once('drain', resolve));
        }
        response.end('"}]}');
        return;
      }
      case 'drop':
        request.socket.destroy();
        return;
      case 'slow':
        await sleep(fault.delayMs ?? 1000);
        if (request.socket.destroyed) return;
        break; // answered normally below
      default:
        break;
    }
    const images = Array.from({ length: n }, (_, index) =>
      renderFixtureImage(
        { model: call.model!, prompt: index === 0 ? call.prompt! : `${call.prompt}#${index}`, sourceSha256 },
        width,
        height,
      ),
    );
    call.output = images[0];
    const data = images.map((image) => ({ b64_json: image.png.toString('base64') }));
    if (fault?.kind === 'cut') {
      call.status = 200;
      response.writeHead(200, { 'content-type': 'application/json' });
      const text = JSON.stringify({ created, data });
      response.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      // Let the headers and the first bytes leave before the connection goes.
      setTimeout(() => request.socket.destroy(), 20);
      return;
    }
    return answer(200, { created, data });
  }

  const server = await startLoopbackServer(handle, {
    port: options.port,
    errorBody: errorBody('fixture error', 'server_error', null),
  });
  const { port } = server;

  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    apiKey,
    get calls() {
      return calls;
    },
    failNext: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    clear() {
      calls.length = 0;
    },
    close: server.close,
  };
}
