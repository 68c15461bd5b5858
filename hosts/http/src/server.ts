import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { fail, problemOf, type Services } from '@cartwright/service';
import { type ServerType, serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { createApp } from './app.ts';

/** How long a refused connection may keep sending before it is cut. */
const REFUSED_DRAIN_MS = 5_000;

/** Node's answers to other requests its parser refuses, as it would send them itself. */
const PLAIN_REFUSALS: Readonly<Record<string, string>> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
  default: 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n',
};

function headersTooLarge(): string {
  const body = JSON.stringify(
    problemOf(
      fail(
        'HEADERS_TOO_LARGE',
        `The request headers are larger than this server accepts (${maxHeaderSize} bytes in all).`,
      ),
    ),
  );
  return [
    'HTTP/1.1 431 Request Header Fields Too Large',
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

const answered = new WeakSet<Duplex>();

/**
 * Answers a request Node's parser refused before any route saw it (oversized headers: 431
 * problem+json), then half-closes and reads what the client still sends: closing a socket with
 * unread bytes resets the connection, and the client would lose the answer.
 */
function refuseClientError(error: NodeJS.ErrnoException, socket: Duplex, logger: Logger): void {
  // The parser reports again for every later chunk of the same connection.
  if (answered.has(socket)) return;
  answered.add(socket);
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? headersTooLarge()
      : (PLAIN_REFUSALS[error.code ?? ''] ?? PLAIN_REFUSALS.default!);
  // The code only: the error's `rawPacket` holds the request's bytes, credentials included.
  logger.info(
    { status: Number(answer.slice(9, 12)), code: error.code },
    'request refused by the HTTP parser',
  );
  socket.end(answer);
  socket.resume();
  setTimeout(() => socket.destroy(), REFUSED_DRAIN_MS).unref();
}

export interface HttpServerOptions {
  readonly port: number;
  readonly host: string;
  readonly bodyLimitBytes: number;
  readonly logger: Logger;
  /** Origins allowed to call `/store-api/*` from a browser (`CORS_ORIGINS`); default none. */
  readonly corsOrigins?: readonly string[] | undefined;
}

export interface RunningHttpServer {
  readonly port: number;
  /** Stops accepting connections and waits for open requests to finish. */
  close(): Promise<void>;
}

/** Serves the application on a port and resolves once it listens. */
export function startHttpServer(services: Services, options: HttpServerOptions): Promise<RunningHttpServer> {
  const app = createApp(services, {
    logger: options.logger,
    bodyLimitBytes: options.bodyLimitBytes,
    corsOrigins: options.corsOrigins,
  });
  return new Promise((resolve, reject) => {
    let server: ServerType;
    try {
      server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info) => {
        resolve({
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              if ('closeIdleConnections' in server) server.closeIdleConnections();
            }),
        });
      });
      server.once('error', reject);
      server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
        refuseClientError(error, socket, options.logger),
      );
    } catch (error) {
      reject(error);
    }
  });
}
