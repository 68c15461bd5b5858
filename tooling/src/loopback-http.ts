import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The HTTP side the loopback fixtures share (the image provider and the app service): one way to
// listen on 127.0.0.1, answer JSON and close; each fixture keeps only its own contract.

/** A request header's first value, or null. */
export function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** Answers `body` as JSON with its length. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export interface LoopbackServer {
  readonly port: number;
  /** Ends every open connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (`port` 0: any free one) and resolves once it does. A handler that throws
 * answers 500 with `errorBody` (or cuts the connection when its answer has begun).
 */
export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  options: { readonly port?: number | undefined; readonly errorBody: unknown },
): Promise<LoopbackServer> {
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, options.errorBody);
      else response.destroy();
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
