import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { createServices, createShop, type Services } from '@cartwright/service';
import { createApp } from '../src/app.ts';

export interface Harness {
  readonly database: Database;
  readonly services: Services;
  readonly app: ReturnType<typeof createApp>;
  readonly shopA: { tenantId: string; token: string; userId: string };
  readonly shopB: { tenantId: string; token: string; userId: string };
  /** Calls the app with an optional bearer token and JSON body. */
  call(
    method: string,
    path: string,
    options?: { token?: string | undefined; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; type: string; body: Record<string, unknown> & { code?: string } }>;
  close(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const database = await createTestDatabase();
  const services = createServices(database);
  const app = createApp(services);
  const a = await createShop(services, { name: 'Shop A', ownerEmail: 'owner@a.test' });
  const b = await createShop(services, { name: 'Shop B', ownerEmail: 'owner@b.test' });
  return {
    database,
    services,
    app,
    shopA: { tenantId: a.tenantId, token: a.token, userId: a.userId! },
    shopB: { tenantId: b.tenantId, token: b.token, userId: b.userId! },
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.request(path, { method, headers, body });
      const text = await response.text();
      return {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    close: () => database.close(),
  };
}
