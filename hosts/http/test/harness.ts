import { createMcpServer } from '@cartwright/mcp';
import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  authenticate,
  createServices,
  createShop,
  createToken,
  type PaymentServices,
  PERMISSIONS,
  type Services,
} from '@cartwright/service';
import { makeSellable, SELLABLE } from '@cartwright/service/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { sql } from 'drizzle-orm';
import { createApp } from '../src/app.ts';

/** What an MCP tool call answers. */
export interface ToolResult {
  readonly isError?: boolean;
  readonly structuredContent?: Record<string, unknown>;
  readonly content: { text?: string }[];
}

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
  /**
   * Makes shop A sellable (`makeSellable`: Germany, 19 % and 7 % tax classes, parcel service,
   * invoice) and adds the product `TEA`; answers its id and shop A's main channel key.
   */
  sellableTea(product?: {
    readonly gross: number;
    readonly net: number;
    readonly taxClassId: string;
  }): Promise<{ productId: string; channelKey: string }>;
  /**
   * A newly registered storefront visitor of the channel whose cart holds `lines`, addressed to
   * `address` (default SELLABLE.address) with the parcel service and invoice chosen; answers the
   * visitor's context token.
   */
  visitorWithCart(
    channelKey: string,
    lines: readonly { readonly productId: string; readonly quantity: number }[],
    address?: Record<string, unknown>,
  ): Promise<string>;
  /**
   * A newly registered visitor of the channel orders one `productId` (parcel service, invoice; the
   * checkout answers 201): answers the order's id and the buyer's e-mail address.
   */
  placedOrder(channelKey: string, productId: string): Promise<{ orderId: string; buyerEmail: string }>;
  /** A new reader of shop A (`email`) and their personal token. */
  readerToken(email: string): Promise<string>;
  /** An API token of shop A holding every permission except `missing`. */
  tokenWithout(missing: string): Promise<string>;
  /** A digest of every table of the database (all shops): what a read must leave as it was. */
  digest(): Promise<string>;
  /** An MCP client acting with `token` (in-memory transport): calls a tool by name. */
  mcp(token: string): Promise<(name: string, args: Record<string, unknown>) => Promise<ToolResult>>;
  close(): Promise<void>;
}

/** The body of a response with the expected status; anything else throws with the problem. */
function expectStatus(response: { status: number; body: unknown }, status: number) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

/**
 * Two shops on a fresh database; `payments` gives the services a provider (default: none),
 * `ports` any other outside port (the app sandbox, app services, mail, the image provider).
 */
export async function createHarness(
  options: {
    readonly payments?: PaymentServices;
    readonly ports?: Partial<
      Pick<Services, 'sandbox' | 'appServices' | 'appWebhooks' | 'mail' | 'imageProvider'>
    >;
  } = {},
): Promise<Harness> {
  const database = await createTestDatabase();
  const services = createServices(database, {
    ...options.ports,
    ...(options.payments ? { payments: options.payments } : {}),
  });
  const app = createApp(services);
  const a = await createShop(services, { name: 'Shop A', ownerEmail: 'owner@a.test' });
  const b = await createShop(services, { name: 'Shop B', ownerEmail: 'owner@b.test' });
  let visitors = 0;
  const harness: Harness = {
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
    async readerToken(email) {
      const member = expectStatus(
        await harness.call('POST', '/api/members', {
          token: harness.shopA.token,
          body: { email, role: 'reader' },
        }),
        201,
      );
      const token = expectStatus(
        await harness.call('POST', '/api/tokens', {
          token: harness.shopA.token,
          body: { name: 'reader', kind: 'personal', userId: member.userId },
        }),
        201,
      );
      return token.token as string;
    },
    async tokenWithout(missing) {
      const created = await database.transaction((tx) =>
        createToken(
          tx,
          services,
          harness.shopA.tenantId,
          { kind: 'system', process: 'test' },
          {
            name: `without ${missing}`,
            kind: 'api',
            role: 'admin',
            permissions: PERMISSIONS.filter((permission) => permission !== missing),
          },
        ),
      );
      if (!created.ok) throw new Error(created.detail);
      return created.value.token;
    },
    async sellableTea(product = { gross: 1000, net: 840, taxClassId: SELLABLE.standardTax }) {
      await makeSellable(services, harness.shopA.tenantId);
      const staff = (method: string, path: string, body?: unknown) =>
        harness.call(method, path, { token: harness.shopA.token, body });
      const created = expectStatus(
        await staff('POST', '/api/catalog/products', {
          sku: 'TEA',
          translations: { en: { name: 'Tea' } },
          prices: [{ currency: 'EUR', gross: product.gross, net: product.net }],
          taxClassId: product.taxClassId,
          stockAvailable: 1000,
        }),
        201,
      );
      const channels = expectStatus(await staff('GET', '/api/automation'), 200).channels as {
        accessKey: string;
        isMain: boolean;
      }[];
      return {
        productId: ((created.product ?? created) as { id: string }).id,
        channelKey: channels.find((channel) => channel.isMain)!.accessKey,
      };
    },
    async visitorWithCart(channelKey, lines, address = SELLABLE.address) {
      const store = (method: string, path: string, token: string | null, body?: unknown) =>
        harness.call(method, path, {
          body,
          headers: { 'x-channel-key': channelKey, ...(token ? { 'x-context-token': token } : {}) },
        });
      const anonymous = expectStatus(await store('POST', '/store-api/context', null), 201)
        .contextToken as string;
      visitors += 1;
      const registered = expectStatus(
        await store('POST', '/store-api/account/register', anonymous, {
          email: `visitor${visitors}@harness.test`,
          password: 'correct horse battery',
          firstName: 'Ada',
          lastName: 'Lovelace',
          billingAddress: address,
        }),
        201,
      );
      const token = registered.contextToken as string;
      for (const line of lines) expectStatus(await store('POST', '/store-api/cart/lines', token, line), 200);
      expectStatus(
        await store('PATCH', '/store-api/cart', token, {
          billingAddress: address,
          shippingAddress: address,
          shippingMethodId: SELLABLE.parcel,
          paymentMethodId: SELLABLE.invoice,
        }),
        200,
      );
      return token;
    },
    async placedOrder(channelKey, productId) {
      const token = await harness.visitorWithCart(channelKey, [{ productId, quantity: 1 }]);
      const placed = expectStatus(
        await harness.call('POST', '/store-api/checkout', {
          headers: { 'x-channel-key': channelKey, 'x-context-token': token },
        }),
        201,
      );
      return { orderId: placed.id as string, buyerEmail: `visitor${visitors}@harness.test` };
    },
    async digest() {
      const tables = await database.rows<{ table_name: string }>(sql`
        select table_name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`);
      const parts: string[] = [];
      for (const { table_name } of tables) {
        const [row] = await database.rows<{ digest: string | null }>(
          sql`select md5(coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '')) as digest from ${sql.identifier(table_name)} t`,
        );
        parts.push(`${table_name}:${row?.digest}`);
      }
      return parts.join('\n');
    },
    async mcp(token) {
      const principal = await authenticate(services, token);
      if (!principal.ok) throw new Error(principal.detail);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(services, principal.value).connect(serverSide);
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      await client.connect(clientSide);
      return async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult;
    },
    close: () => database.close(),
  };
  return harness;
}
