import { handleMcpRequest } from '@cartwright/mcp';
import {
  type AnyOperation,
  acceptAppWebhook,
  authenticate,
  authenticateStorefront,
  FileContent,
  fail,
  invokeOperation,
  invokeStoreOperation,
  type JsonSchema,
  operationInputSchema,
  type Principal,
  problemResponse,
  receiveProviderWebhook,
  operations as registeredOperations,
  returnFromProvider,
  type Services,
  type Storefront,
  WEBHOOK_BODY_LIMIT_BYTES,
} from '@cartwright/service';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import type { Logger } from 'pino';
import * as v from 'valibot';
import { mountAdmin } from './admin/routes.tsx';
import { API_REFERENCE_PATH, API_REFERENCE_POLICY, apiReferenceAssets } from './api-reference.ts';
import { openApiDocument } from './openapi.ts';

export interface AppOptions {
  /** Structured request logs; silent when absent. */
  readonly logger?: Logger | undefined;
  /** Largest accepted request body in bytes (default 1 MiB). */
  readonly bodyLimitBytes?: number | undefined;
  /** The operations to serve (default: the whole registry). */
  readonly operations?: readonly AnyOperation[] | undefined;
  readonly version?: string | undefined;
  /** Browser origins allowed to call `/store-api/*` (`*` for any); none by default: no CORS headers. */
  readonly corsOrigins?: readonly string[] | undefined;
}

/** The request headers a storefront in a browser sends (see the Storefront API). */
const STOREFRONT_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  'x-channel-key',
  'x-context-token',
];

type Env = {
  Variables: { principal: Principal; storefront: Storefront; requestId: string; bodyLimitBytes: number };
};

/** `attachment; filename="…"`, with an RFC 5987 `filename*` when the name is not plain ASCII. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The bytes of a file operation's result, sent as a download. */
function fileResponse(value: unknown, status: number, requestId: string): Response {
  const file = v.parse(FileContent, value);
  return new Response(file.bytes, {
    status,
    headers: {
      'content-type': file.contentType,
      'content-disposition': contentDisposition(file.fileName),
      'content-length': String(file.bytes.byteLength),
      'x-request-id': requestId,
    },
  });
}

/** Query strings carry text; the operation's schema says which values are numbers or booleans. */
function queryInput(url: URL, schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const input: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    const type = properties[key]?.type;
    const coerce = (value: string): unknown => {
      if (
        (type === 'number' || type === 'integer') &&
        value.trim() !== '' &&
        Number.isFinite(Number(value))
      ) {
        return Number(value);
      }
      if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
      return value;
    };
    input[key] = type === 'array' ? values.map(coerce) : coerce(values.at(-1)!);
  }
  return input;
}

async function bodyInput(
  request: Request,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; response: Response }> {
  const text = await request.text();
  if (text.trim() === '') return { ok: true, value: {} };
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    return {
      ok: false,
      response: problemResponse(fail('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.')),
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, response: problemResponse(fail('INVALID_JSON', 'The body is not valid JSON.')) };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      ok: false,
      response: problemResponse(
        fail('VALIDATION_FAILED', 'The body must be a JSON object.', {
          errors: [{ pointer: '', message: 'expected an object' }],
        }),
      ),
    };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}

/** Methods in the order an `Allow` header lists them. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods each served path answers, so that a known path with another method answers 405
 * with `Allow` instead of 404.
 */
function methodTable() {
  const paths = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  return {
    add(method: string, path: string) {
      let entry = paths.get(path);
      if (!entry) {
        const source = path
          .split('/')
          .map((segment) =>
            segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/');
        entry = { pattern: new RegExp(`^${source}$`), methods: new Set() };
        paths.set(path, entry);
      }
      entry.methods.add(method);
      // Hono answers HEAD with the GET route.
      if (method === 'GET') entry.methods.add('HEAD');
    },
    /** The methods a concrete path is served with (empty for an unknown path). */
    allowed(path: string): string[] {
      const methods = new Set<string>();
      for (const entry of paths.values()) {
        if (entry.pattern.test(path)) for (const method of entry.methods) methods.add(method);
      }
      return METHOD_ORDER.filter((method) => methods.has(method));
    },
  };
}

function bearerOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** The HTTP application: one route per registered operation, plus health, OpenAPI and /mcp. */
export function createApp(services: Services, options: AppOptions = {}): Hono<Env> {
  const operations = options.operations ?? registeredOperations;
  const app = new Hono<Env>();
  const logger = options.logger;

  app.use('*', requestId());
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    logger?.info({
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      tenantId: c.get('principal')?.tenantId,
    });
  });
  // One body limit per request: the route's own (`http.bodyLimitBytes`) or the server's default.
  const limiters = new Map<number, MiddlewareHandler<Env>>();
  const limiterOf = (maxSize: number) => {
    let limiter = limiters.get(maxSize);
    if (!limiter) {
      limiter = bodyLimit({
        maxSize,
        onError: (c) =>
          problemResponse(
            fail('PAYLOAD_TOO_LARGE', 'The request body is larger than this server accepts.'),
            c.get('requestId'),
          ),
      });
      limiters.set(maxSize, limiter);
    }
    return limiter;
  };
  for (const operation of operations) {
    const limit = operation.http?.bodyLimitBytes;
    if (operation.http && limit !== undefined) {
      app.on(operation.http.method, operation.http.path, async (c, next) => {
        c.set('bodyLimitBytes', limit);
        await next();
      });
    }
  }
  const defaultBodyLimit = options.bodyLimitBytes ?? 1024 * 1024;
  // Under /admin/ the admin applies the same default itself (mountAdmin), per path where an area
  // needs another (an image upload), and answers a refusal with a page instead of problem JSON.
  app.use('*', (c, next) =>
    c.req.path.startsWith('/admin/')
      ? next()
      : limiterOf(c.get('bodyLimitBytes') ?? defaultBodyLimit)(c, next),
  );

  const served = methodTable();
  for (const path of ['/healthz', '/readyz', '/api/openapi.json']) served.add('GET', path);
  for (const operation of operations) {
    if (operation.http) served.add(operation.http.method, operation.http.path);
  }

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await services.database.ping();
      return c.json({ status: 'ready', storage: services.database.kind });
    } catch {
      return problemResponse(fail('NOT_READY', 'The database is not reachable.'), c.get('requestId'));
    }
  });

  // A tool call's INTERNAL result names a reference; the log names it too, beside the request id.
  app.all('/mcp', (c) =>
    handleMcpRequest(services, c.req.raw, {
      onInternalError: (error, reference) =>
        logger?.error(
          { requestId: c.get('requestId'), reference, err: error },
          'internal error in an MCP tool',
        ),
    }),
  );

  // The buyer's way back from the provider's approval page (return and cancel URLs of an
  // attempt). Anyone can open these URLs, so they prove nothing: they only ask the payment-worker
  // to read the provider's order (which captures it when the provider says it is approved).
  for (const way of ['return', 'cancel'] as const) {
    const path = `/payments/${way}/:tenantId/:attemptId`;
    served.add('GET', path);
    app.get(path, async (c) => {
      const tenantId = c.req.param('tenantId') ?? '';
      const attemptId = c.req.param('attemptId') ?? '';
      const token = c.req.query('token') ?? '';
      const id = v.pipe(v.string(), v.uuid());
      const known = v.is(id, tenantId) && v.is(id, attemptId) && /^[A-Za-z0-9]{1,64}$/.test(token);
      const asked = known
        ? await returnFromProvider(services, tenantId, attemptId, token)
        : fail('NOT_FOUND', 'No payment is waiting for this return.');
      if (!asked.ok) return problemResponse(asked, c.get('requestId'));
      return c.json({
        ...asked.value,
        detail:
          way === 'return'
            ? 'Thank you: the payment is being confirmed with the provider. The order shows it once it is.'
            : 'The payment was not completed. The order keeps its approval link while the provider allows it.',
      });
    });
  }

  // The payment provider's webhooks for one shop. No bearer token: the provider calls it, and
  // the shop's own account verifies each delivery with the provider before anything is stored.
  // The body is read as the exact text sent (verification compares bytes), at most 64 KiB.
  served.add('POST', '/webhooks/payments/:tenantId');
  app.post('/webhooks/payments/:tenantId', async (c) => {
    const id = c.get('requestId');
    const tooLarge = () =>
      problemResponse(
        fail(
          'PAYLOAD_TOO_LARGE',
          `A payment webhook body may hold at most ${WEBHOOK_BODY_LIMIT_BYTES} bytes.`,
        ),
        id,
      );
    if (Number(c.req.header('content-length') ?? 0) > WEBHOOK_BODY_LIMIT_BYTES) return tooLarge();
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (c.req.raw.body) {
      const reader = c.req.raw.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        size += read.value.byteLength;
        if (size > WEBHOOK_BODY_LIMIT_BYTES) {
          await reader.cancel();
          return tooLarge();
        }
        chunks.push(read.value);
      }
    }
    const tenantId = c.req.param('tenantId') ?? '';
    if (!v.is(v.pipe(v.string(), v.uuid()), tenantId)) {
      return problemResponse(fail('NOT_FOUND', 'This shop receives no payment provider webhooks.'), id);
    }
    let body: string;
    try {
      body = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
    } catch {
      return problemResponse(fail('UNAUTHENTICATED', 'A payment webhook body must be UTF-8 text.'), id);
    }
    const received = await receiveProviderWebhook(services, tenantId, { headers: c.req.header(), body });
    if (!received.ok) return problemResponse(received, id);
    return c.json(received.value);
  });

  // Signed incoming app webhooks (decision 0039). No bearer token: the app's key signs each
  // request, and the service checks everything (HTTPS, signature, limits, receipt). The host only
  // hands over the path, the three headers, the raw body stream and what it knows of the socket.
  served.add('POST', '/webhooks/apps/:tenant/:app/:webhook');
  app.post('/webhooks/apps/:tenant/:app/:webhook', async (c) => {
    const socket = (
      c.env as { incoming?: { socket?: { remoteAddress?: string; encrypted?: boolean } } } | undefined
    )?.incoming?.socket;
    const accepted = await acceptAppWebhook(services, {
      tenant: c.req.param('tenant') ?? '',
      app: c.req.param('app') ?? '',
      webhook: c.req.param('webhook') ?? '',
      headers: {
        timestamp: c.req.header('x-app-timestamp'),
        eventId: c.req.header('x-app-event-id'),
        signature: c.req.header('x-app-signature'),
      },
      contentLength: c.req.header('content-length'),
      body: c.req.raw.body,
      transport: {
        encrypted: socket?.encrypted === true,
        peerAddress: socket?.remoteAddress,
        forwardedProto: c.req.header('x-forwarded-proto'),
      },
    });
    if (!accepted.ok) return problemResponse(accepted, c.get('requestId'));
    return c.json(accepted.value.body, accepted.value.status as 200 | 202);
  });

  // Before the token check: the API's description and its HTML reference hold no shop data.
  const document = openApiDocument(operations, options.version ?? '0.1.0');
  app.get('/api/openapi.json', (c) => c.json(document));
  for (const asset of apiReferenceAssets) {
    served.add('GET', asset.path);
    app.get(asset.path, (c) =>
      c.body(asset.body(), 200, {
        'content-type': asset.contentType,
        'content-security-policy': API_REFERENCE_POLICY,
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=3600',
      }),
    );
  }

  // The admin UI (decision 0047): its own session cookie, never a bearer token; `/` and `/docs`
  // lead to it and to the API reference.
  for (const path of ['/', '/docs']) served.add('GET', path);
  mountAdmin(app as unknown as Hono, services, API_REFERENCE_PATH, defaultBodyLimit);

  app.use('/api/*', async (c, next) => {
    const authenticated = await authenticate(services, bearerOf(c.req.header('authorization')));
    if (!authenticated.ok) {
      const response = problemResponse(authenticated, c.get('requestId'));
      response.headers.set('www-authenticate', 'Bearer realm="cartwright"');
      return response;
    }
    c.set('principal', authenticated.value);
    await next();
  });

  // A storefront in the browser calls from its own origin: answer its preflights before the
  // channel key is checked, and mark every answer (problems too) readable by it.
  const corsOrigins = options.corsOrigins ?? [];
  if (corsOrigins.length > 0) {
    app.use(
      '/store-api/*',
      cors({
        origin: corsOrigins.includes('*') ? '*' : [...corsOrigins],
        allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowHeaders: STOREFRONT_HEADERS,
        exposeHeaders: ['x-request-id'],
        maxAge: 600,
      }),
    );
  }

  // Storefront routes name their shop and channel by a public channel key; the visitor's cart
  // context travels in x-context-token. A private channel also needs a bearer token: a staff
  // token of its shop or an access grant of the channel.
  app.use('/store-api/*', async (c, next) => {
    const storefront = await authenticateStorefront(
      services,
      c.req.header('x-channel-key'),
      c.req.header('x-context-token'),
      bearerOf(c.req.header('authorization')),
    );
    if (!storefront.ok) {
      const response = problemResponse(storefront, c.get('requestId'));
      if (storefront.code === 'CHANNEL_PRIVATE') {
        response.headers.set('www-authenticate', 'Bearer realm="cartwright-store"');
      }
      return response;
    }
    c.set('storefront', storefront.value);
    await next();
  });

  for (const operation of operations) {
    const http = operation.http;
    if (!http) continue;
    const inputSchema = operationInputSchema(operation);
    app.on(http.method, http.path, async (c) => {
      const id = c.get('requestId');
      let body: Record<string, unknown> = {};
      if (http.method !== 'GET') {
        const parsed = await bodyInput(c.req.raw);
        if (!parsed.ok) {
          parsed.response.headers.set('x-request-id', id);
          return parsed.response;
        }
        body = parsed.value;
      }
      const fromHeaders = Object.fromEntries(
        Object.entries(http.headers ?? {})
          .map(([header, field]) => [field, c.req.header(header)] as const)
          .filter(([, value]) => value !== undefined),
      );
      const input = {
        ...queryInput(new URL(c.req.url), inputSchema),
        ...body,
        ...fromHeaders,
        ...c.req.param(),
      };
      const result =
        operation.audience === 'store'
          ? await invokeStoreOperation(services, operation, c.get('storefront'), input)
          : await invokeOperation(services, operation, c.get('principal'), input);
      if (!result.ok) return problemResponse(result, id);
      if (operation.file) return fileResponse(result.value, http.status ?? 200, id);
      return c.json(result.value as object, http.status ?? 200);
    });
  }

  app.notFound((c) => {
    const allowed = served.allowed(c.req.path);
    if (allowed.length === 0) {
      return problemResponse(
        fail('ROUTE_NOT_FOUND', `No route ${c.req.method} ${c.req.path}.`),
        c.get('requestId'),
      );
    }
    const allow = allowed.join(', ');
    return problemResponse(
      fail('METHOD_NOT_ALLOWED', `${c.req.path} answers ${allow}, not ${c.req.method}.`),
      c.get('requestId'),
      { allow },
    );
  });
  app.onError((error, c) => {
    logger?.error({ requestId: c.get('requestId'), err: error }, 'unhandled error');
    return problemResponse(
      fail('INTERNAL', 'Internal error. Quote the request id when you report it.'),
      c.get('requestId'),
    );
  });
  return app;
}
