import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf, sendJson, startLoopbackServer } from '../loopback-http.ts';
import { readBody } from '../request-body.ts';
import {
  type AppServiceFault,
  type AppServiceFaultKind,
  createAppServiceFaults,
  OVERSIZED_BYTES,
} from './faults.ts';

/** What a handler is given: the call's body fields and its idempotency key. */
export interface ActionCall {
  readonly tenant: string;
  readonly input: unknown;
  readonly idempotencyKey: string | null;
}

/** Answers one action; the value returned is the JSON answer (200). Throwing answers 500. */
export type ActionHandler = (call: ActionCall) => unknown;

export interface AppServiceFixtureOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** The bearer credential every call must carry (401 otherwise). */
  readonly credential: string;
  /** A handler per action name; an action without one answers 404. */
  readonly actions?: Readonly<Record<string, ActionHandler>>;
}

/** One HTTP request the fixture received, authorised or not. */
export interface ReceivedCall {
  readonly method: string;
  /** Pathname and query, as sent. */
  readonly path: string;
  /** Whether `Authorization: Bearer <credential>` matched. */
  readonly authorized: boolean;
  readonly contentType: string | null;
  /** The body's fields; null when the body was not a JSON object or the call was refused first. */
  readonly tenant: string | null;
  readonly action: string | null;
  readonly input: unknown;
  readonly idempotencyKey: string | null;
  /** Whether the action's handler ran (its effect happened). */
  readonly performed: boolean;
  readonly fault?: AppServiceFaultKind;
  /** Status answered; absent while in flight or when the connection was dropped unanswered. */
  readonly status?: number;
}

/** One event delivery the fixture received (a POST carrying `x-app-delivery-id`). */
export interface ReceivedDelivery {
  readonly deliveryId: string;
  readonly eventId: string | null;
  readonly sequence: string | null;
  readonly eventName: string | null;
  readonly timestamp: string | null;
  readonly signature: string | null;
  /** Whether the signature is the HMAC-SHA256, keyed with the credential, of the signed string. */
  readonly signatureValid: boolean;
  /** Whether an `Authorization` header came along (deliveries carry none). */
  readonly hasAuthorization: boolean;
  /** The parsed body; undefined when it was not JSON. */
  readonly body: unknown;
  readonly fault?: AppServiceFaultKind;
  /** Status answered; absent while in flight or when the connection was dropped unanswered. */
  readonly status?: number;
}

/** The loopback service: its base URL, what it received, and faults on demand. */
export interface AppServiceFixture {
  /** `http://127.0.0.1:<port>/actions`: the base URL to configure. */
  readonly url: string;
  readonly credential: string;
  /** Every request received, oldest first. */
  readonly calls: readonly ReceivedCall[];
  /** Sets (or replaces) an action's handler. */
  setAction(name: string, handler: ActionHandler): void;
  /** Injects a fault into the next matching call(s). */
  failNext(fault: AppServiceFault): void;
  /** Every event delivery received, oldest first. */
  readonly deliveries: readonly ReceivedDelivery[];
  /**
   * Injects a fault into the next delivery(ies) (`action` is matched against the event name):
   * `status`, `refuse`, `slow` (then answered 200) or `drop`.
   */
  failNextDeliveries(fault: AppServiceFault): void;
  clearFaults(): void;
  /** Forgets the calls received so far. */
  clear(): void;
  /** Stops listening and cuts every open connection (slow ones too). */
  close(): Promise<void>;
}

const PATH = '/actions';

type MutableCall = { -readonly [K in keyof ReceivedCall]: ReceivedCall[K] };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts the loopback service on 127.0.0.1. */
export async function startAppServiceFixture(options: AppServiceFixtureOptions): Promise<AppServiceFixture> {
  const { credential } = options;
  const actions = new Map(Object.entries(options.actions ?? {}));
  const faults = createAppServiceFaults();
  const calls: MutableCall[] = [];
  const deliveryFaults = createAppServiceFaults();
  const deliveries: { -readonly [K in keyof ReceivedDelivery]: ReceivedDelivery[K] }[] = [];

  /** An event delivery: signed (decision 0040), not authorised by a bearer. */
  async function handleDelivery(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      body = undefined;
    }
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const delivery: (typeof deliveries)[number] = {
      deliveryId: headerOf(request, 'x-app-delivery-id') ?? '',
      eventId: headerOf(request, 'x-app-event-id'),
      sequence: headerOf(request, 'x-app-event-sequence'),
      eventName: headerOf(request, 'x-app-event'),
      timestamp: headerOf(request, 'x-app-timestamp'),
      signature: headerOf(request, 'x-app-signature'),
      signatureValid: false,
      hasAuthorization: headerOf(request, 'authorization') !== null,
      body,
    };
    const event = (fields.event ?? {}) as Record<string, unknown>;
    const signed = [
      String(fields.tenant),
      String(fields.app),
      String(event.name),
      delivery.timestamp ?? '',
      delivery.deliveryId,
      createHash('sha256').update(bytes).digest('hex'),
    ].join('\n');
    const expected = createHmac('sha256', credential).update(signed).digest();
    const given = Buffer.from(delivery.signature ?? '', 'hex');
    delivery.signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
    deliveries.push(delivery);
    const answer = (status: number, value: unknown) => {
      delivery.status = status;
      sendJson(response, status, value);
    };
    const fault = deliveryFaults.take(String(event.name));
    if (fault) {
      delivery.fault = fault.kind;
      switch (fault.kind) {
        case 'status':
          return answer(fault.status ?? 503, { detail: fault.detail ?? 'the service is unavailable' });
        case 'refuse':
          return answer(fault.status ?? 422, { detail: fault.detail ?? 'the delivery was refused' });
        case 'slow':
          await sleep(fault.delayMs ?? 1000);
          break;
        case 'drop':
          request.socket.destroy();
          return;
        default:
          throw new Error(`failNextDeliveries: ${fault.kind} is not a delivery fault`);
      }
    }
    if (!delivery.signatureValid) return answer(401, { detail: 'bad signature' });
    return answer(200, { received: true });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'POST' && headerOf(request, 'x-app-delivery-id') !== null) {
      return handleDelivery(request, response);
    }
    const call: MutableCall = {
      method: request.method ?? '',
      path: request.url ?? '',
      authorized: headerOf(request, 'authorization') === `Bearer ${credential}`,
      contentType: headerOf(request, 'content-type'),
      tenant: null,
      action: null,
      input: undefined,
      idempotencyKey: headerOf(request, 'idempotency-key'),
      performed: false,
    };
    calls.push(call);
    const answer = (status: number, body: unknown) => {
      call.status = status;
      sendJson(response, status, body);
    };
    const raw = await readBody(request);
    if (!call.authorized) return answer(401, { detail: 'missing or wrong credential' });
    if (call.method !== 'POST' || new URL(call.path, 'http://fixture').pathname !== PATH) {
      return answer(404, { detail: `only POST ${PATH} is served` });
    }
    if (raw === undefined) return answer(413, { detail: 'request body too large' });
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return answer(400, { detail: 'the body is not JSON' });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return answer(400, { detail: 'the body is not a JSON object' });
    }
    const fields = body as Record<string, unknown>;
    if (typeof fields.tenant !== 'string' || typeof fields.action !== 'string' || !('input' in fields)) {
      return answer(400, { detail: 'the body needs tenant, action and input' });
    }
    call.tenant = fields.tenant;
    call.action = fields.action;
    call.input = fields.input;
    const handler = actions.get(fields.action);
    if (!handler) return answer(404, { detail: `no action ${fields.action}` });

    const perform = async (): Promise<{ ok: true; value: unknown } | { ok: false }> => {
      call.performed = true;
      try {
        return {
          ok: true,
          value: await handler({
            tenant: call.tenant!,
            input: call.input,
            idempotencyKey: call.idempotencyKey,
          }),
        };
      } catch {
        return { ok: false };
      }
    };
    const fault = faults.take(fields.action);
    if (fault) {
      call.fault = fault.kind;
      if (fault.performs && fault.kind !== 'slow') await perform();
      switch (fault.kind) {
        case 'status':
          return answer(fault.status ?? 503, { detail: fault.detail ?? 'the service is unavailable' });
        case 'refuse':
          return answer(fault.status ?? 422, { detail: fault.detail ?? 'the input was refused' });
        case 'slow':
          await sleep(fault.delayMs ?? 1000);
          break; // answered normally below
        case 'oversized': {
          const text = JSON.stringify({ padding: 'x'.repeat(OVERSIZED_BYTES) });
          call.status = 200;
          if (fault.declareLength) {
            response.writeHead(200, {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(text),
            });
            response.end(text);
          } else {
            // Chunked, in pieces: only a limit on the stream itself notices.
            response.writeHead(200, { 'content-type': 'application/json' });
            for (let offset = 0; offset < text.length; offset += 8192)
              response.write(text.slice(offset, offset + 8192));
            response.end();
          }
          return;
        }
        case 'not-json':
          call.status = 200;
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end('OK');
          return;
        case 'not-utf8':
          call.status = 200;
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
          return;
        case 'redirect':
          call.status = 307;
          response.writeHead(307, { location: fault.location ?? 'http://127.0.0.1:9/elsewhere' });
          response.end();
          return;
        case 'drop':
          request.socket.destroy();
          return;
        case 'cut':
          call.status = 200;
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write('{"partial":');
          // Let the headers and the first bytes leave before the connection goes.
          setTimeout(() => request.socket.destroy(), 20);
          return;
      }
    }
    const result = await perform();
    if (!result.ok) return answer(500, { detail: 'the action failed' });
    return answer(200, result.value ?? null);
  }

  const server = await startLoopbackServer(handle, {
    port: options.port,
    errorBody: { detail: 'fixture error' },
  });
  const { port } = server;

  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    credential,
    get calls() {
      return calls;
    },
    setAction: (name, handler) => {
      actions.set(name, handler);
    },
    failNext: (fault) => faults.add(fault),
    get deliveries() {
      return deliveries;
    },
    failNextDeliveries: (fault) => deliveryFaults.add(fault),
    clearFaults: () => {
      faults.clear();
      deliveryFaults.clear();
    },
    clear() {
      calls.length = 0;
      deliveries.length = 0;
    },
    close: server.close,
  };
}
