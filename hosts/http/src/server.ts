import type { Services } from '@cartwright/service';
import { type ServerType, serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { createApp } from './app.ts';

export interface HttpServerOptions {
  readonly port: number;
  readonly host: string;
  readonly bodyLimitBytes: number;
  readonly logger: Logger;
}

export interface RunningHttpServer {
  readonly port: number;
  /** Stops accepting connections and waits for open requests to finish. */
  close(): Promise<void>;
}

/** Serves the application on a port and resolves once it listens. */
export function startHttpServer(services: Services, options: HttpServerOptions): Promise<RunningHttpServer> {
  const app = createApp(services, { logger: options.logger, bodyLimitBytes: options.bodyLimitBytes });
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
    } catch (error) {
      reject(error);
    }
  });
}
