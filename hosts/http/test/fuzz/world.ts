import { Writable } from 'node:stream';
import { insertMediaDraft, listChannels } from '@cartwright/repository';
import { createHttpImageProvider } from '@cartwright/service';
import { makeSellable, SELLABLE } from '@cartwright/service/testing';
import { renderFixtureImage } from '@cartwright/tooling/image-provider-fixture';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { createApp } from '../../src/app.ts';
import { createHarness, type Harness } from '../harness.ts';
import { TINY_PNG } from './examples.ts';
import type { Pools } from './generator.ts';

// Two shops on one PGlite database: A (the attacker's own, with data) and B (another shop with
// the same kinds of data). The fuzzer acts as A's owner and as A's storefront visitors; B's rows
// must come out of the run exactly as they went in.

export interface ShopData {
  readonly tenantId: string;
  readonly channelKey: string;
  readonly ids: Record<string, string[]>;
  /** Storefront context tokens: a logged-in customer with an open cart, and an anonymous visitor. */
  readonly contexts: string[];
  readonly emails: string[];
}

export interface World {
  readonly harness: Harness;
  /** The app under test, logging its errors into `serverLog`. */
  readonly app: ReturnType<typeof createApp>;
  readonly serverLog: ServerLog;
  readonly shopA: ShopData;
  readonly shopB: ShopData;
  readonly pools: Pools;
  /** Ids, keys and tokens of shop B (with what each is): none may reach shop A unasked. */
  readonly foreignSecrets: ReadonlyMap<string, string>;
  /** A digest per table of every row that belongs to shop B. */
  foreignDigest(): Promise<Map<string, string>>;
  /** The size of the database (all shops), to tell data growth from a leak. */
  databaseBytes(): Promise<number>;
  /** The live token of shop A's visitor context number `index` (see CONTEXT_MARKER). */
  contextOf(index: number): string;
  /** Gives the contexts that stopped working (a logout, a login) fresh tokens with a cart. */
  renewContexts(indexes: Iterable<number>): Promise<void>;
  close(): Promise<void>;
}

/** Errors the app logged, by request id (pino JSON lines, level error and above). */
export class ServerLog {
  private readonly entries = new Map<string, string>();

  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          const entry = JSON.parse(line) as { requestId?: string; msg?: string; err?: LoggedError };
          if (!entry.requestId) continue;
          const message = entry.err ? describeLoggedError(entry.err) : (entry.msg ?? line);
          this.entries.set(entry.requestId, message);
        } catch {
          // Not JSON: ignore.
        }
      }
      done();
    },
  });

  /** The logged error of a request (removed, so the map stays small over a long run). */
  take(requestId: string | null): string | undefined {
    if (!requestId) return undefined;
    const entry = this.entries.get(requestId);
    this.entries.delete(requestId);
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** An error as pino serializes it (database errors carry the statement). */
interface LoggedError {
  readonly type?: string;
  readonly message?: string;
  readonly stack?: string;
  readonly query?: string;
}

/**
 * One line for a logged error: its type, for a database error the statement's kind and table and
 * PostgreSQL's message (not the whole statement and its parameters), and the first frame in our
 * own code. Failures with one cause read the same, so they group.
 */
export function describeLoggedError(error: LoggedError): string {
  const message = error.message ?? '';
  const stack = error.stack ?? '';
  // pino appends the cause's message to the error's own: the stack's first line lacks it.
  const own = stack.split('\n    at ')[0]!.replace(/^[\w$]*: /, '');
  const cause = own && message.startsWith(own) ? message.slice(own.length).replace(/^: /, '') : '';
  let what = message.split('\n')[0]!.slice(0, 300);
  if (error.query) {
    const statement =
      /\b(insert into|update|delete from)\s+"(\w+)"/i.exec(error.query) ??
      /\bfrom\s+"(\w+)"/i.exec(error.query);
    const target = statement
      ? statement.length > 2
        ? `${statement[1]} "${statement[2]}"`
        : `select from "${statement[1]}"`
      : 'query';
    what = `${target}: ${cause || message.split('\n').at(-1)}`;
  } else if (cause) {
    what = `${what}: ${cause}`;
  }
  const frame = stack
    .split('\n')
    .slice(1)
    .map((text) => text.trim().replace(/^at /, ''))
    .find((text) => !text.includes('node_modules') && /\/(packages|hosts)\//.test(text));
  const where = frame ? ` (at ${frame.replace(/(\(|^)[^(]*?\/((packages|hosts)\/)/, '$1$2')})` : '';
  return `${error.type ?? 'Error'}: ${what}${where}`;
}

type Call = Harness['call'];

function expectStatus(
  response: Awaited<ReturnType<Call>>,
  status: number,
  what: string,
): Record<string, unknown> {
  if (response.status !== status) {
    throw new Error(
      `fuzz setup: ${what} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`,
    );
  }
  return response.body;
}

/** Fixed ids per shop, so a replay aims at the same records. */
function idOf(shop: 'a' | 'b', n: number): string {
  return `0190f0c8-0000-7000-8000-0000${shop === 'a' ? 'aa' : 'bb'}${String(n).padStart(6, '0')}`;
}

/** Gives a shop the same kinds of data through its own API: what the fuzzer aims at. */
async function seedShop(
  h: Harness,
  shop: 'a' | 'b',
  tenantId: string,
  token: string,
  userId: string,
): Promise<ShopData> {
  const call: Call = (method, path, options = {}) => h.call(method, path, { token, ...options });
  await makeSellable(h.services, tenantId);
  const channels = await listChannels(h.database.db, tenantId);
  const channel = channels.find((candidate) => candidate.isMain) ?? channels[0]!;
  const store = (method: string, path: string, context: string | null, body?: unknown) =>
    h.call(method, path, {
      body,
      headers: { 'x-channel-key': channel.accessKey, ...(context ? { 'x-context-token': context } : {}) },
    });
  const translations = { en: { name: `Shop ${shop.toUpperCase()} thing` } };

  const categoryId = idOf(shop, 1);
  expectStatus(
    await call('PUT', `/api/catalog/categories/${categoryId}`, { body: { revision: 0, translations } }),
    200,
    'category',
  );
  const product = expectStatus(
    await call('POST', '/api/catalog/products', {
      body: {
        sku: `TEA-${shop}`,
        translations: { en: { name: 'Tea' } },
        prices: [{ currency: 'EUR', gross: 1000, net: 840 }],
        taxClassId: SELLABLE.standardTax,
        stockAvailable: 1000,
        categoryIds: [categoryId],
      },
    }),
    201,
    'product',
  );
  const productId = ((product.product ?? product) as { id: string }).id;
  const ruleId = idOf(shop, 2);
  expectStatus(
    await call('PUT', `/api/automation/rules/${ruleId}`, {
      body: {
        revision: 0,
        data: {
          name: { en: 'Big carts' },
          condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
        },
      },
    }),
    200,
    'rule',
  );
  const flowId = idOf(shop, 3);
  expectStatus(
    await call('PUT', `/api/automation/flows/${flowId}`, {
      body: {
        revision: 0,
        data: {
          name: { en: 'Tag big orders' },
          trigger: 'order.placed',
          pipeline: {
            entry: 'tag',
            nodes: [
              {
                id: 'tag',
                kind: 'action',
                action: 'action.add.order.tag',
                config: { tags: ['big'] },
                next: null,
              },
            ],
          },
        },
      },
    }),
    200,
    'flow',
  );
  const email = `customer@${shop}.test`;
  const password = 'correct horse battery';
  const customer = expectStatus(
    await call('POST', '/api/customers', {
      body: {
        email,
        password,
        firstName: 'C',
        lastName: shop.toUpperCase(),
        addresses: [{ address: SELLABLE.address }],
      },
    }),
    201,
    'customer',
  );
  const customerId = customer.id as string;
  const addressId = (customer.addresses as { id: string }[])[0]!.id;

  // An order: a visitor buys the product; then its invoice, a download and a review.
  const buyer = await h.visitorWithCart(channel.accessKey, [{ productId, quantity: 1 }]);
  const order = expectStatus(await store('POST', '/store-api/checkout', buyer), 201, 'checkout');
  const orderId = ((order.order ?? order) as { id: string }).id;
  expectStatus(
    await call('PUT', '/api/company', {
      body: { revision: 0, data: { name: `Shop ${shop.toUpperCase()} GmbH` } },
    }),
    200,
    'company',
  );
  const document = expectStatus(
    await call('POST', `/api/orders/${orderId}/documents`, { body: { type: 'invoice' } }),
    201,
    'document',
  );
  const asset = expectStatus(
    await call('POST', `/api/catalog/products/${productId}/assets`, {
      body: { fileName: `${shop}.txt`, contentType: 'text/plain', contentBase64: 'YQ==' },
    }),
    201,
    'asset',
  );
  const image = expectStatus(
    await call('POST', `/api/merchant/products/${productId}/media/gallery`, {
      body: { contentBase64: TINY_PNG },
    }),
    201,
    'gallery image',
  );
  const galleryEntries = (image.gallery as { entries: { id: string; assetId: string }[] }).entries;
  // Image drafts (the provider is off here, so none can be created): a pending one, and a ready
  // one with its private PNG, for the draft reads to reach past "not found".
  const mediaDrafts = [idOf(shop, 4), idOf(shop, 5)];
  const product0 = await h.call('GET', `/api/catalog/products/${productId}`, { token });
  const productRevision = (product0.body.product as { revision: number }).revision;
  await h.database.transaction(async (tx) => {
    const png = renderFixtureImage({ model: 'fuzz', prompt: shop }, 2, 2).png;
    const blob = await h.services.blobs.put(tx, tenantId, { bytes: png, contentType: 'image/png' });
    for (const [index, id] of mediaDrafts.entries()) {
      await insertMediaDraft(tx, {
        tenantId,
        id,
        productId,
        sourceAssetId: asset.id as string,
        mode: 'generate',
        instruction: `Fuzz draft ${index}`,
        productRevision,
        status: index === 0 ? 'pending' : 'ready',
        model: 'gpt-image-1',
        ...(index === 0 ? {} : { imageBlobId: blob.id, imageWidth: 2, imageHeight: 2 }),
        createdBy: { kind: 'token', tokenId: 'fuzz', userId },
      });
    }
  });
  const downloads = expectStatus(
    await call('PUT', `/api/orders/${orderId}/downloads`, { body: { value: true } }),
    200,
    'downloads',
  );
  const review = expectStatus(
    await store('POST', `/store-api/products/${productId}/reviews`, buyer, {
      rating: 4,
      title: `Shop ${shop} review`,
      content: 'Good tea.',
    }),
    201,
    'review',
  );

  // A visitor with an open cart (its line ids), the customer logged in, and an anonymous visitor.
  const shopper = await h.visitorWithCart(channel.accessKey, [{ productId, quantity: 2 }]);
  const cart = expectStatus(await store('GET', '/store-api/cart', shopper), 200, 'cart');
  const lineIds = ((cart.lines ?? (cart.cart as { lines?: unknown })?.lines ?? []) as { id: string }[]).map(
    (line) => line.id,
  );
  const login = expectStatus(
    await store('POST', '/store-api/account/login', null, { email, password }),
    200,
    'login',
  );
  const anonymous = expectStatus(await store('POST', '/store-api/context', null), 201, 'context');
  // Pending AI proposals (plans without operations) for the review operations to decide.
  const proposals: string[] = [];
  for (const summary of ['First plan', 'Second plan', 'Third plan']) {
    const proposal = expectStatus(
      await call('POST', '/api/intelligence/proposals', { body: { summary, operations: [] } }),
      201,
      'proposal',
    );
    proposals.push(proposal.id as string);
  }
  const reader = expectStatus(
    await call('POST', '/api/tokens', { body: { name: 'reader', kind: 'api', role: 'reader' } }),
    201,
    'token',
  );

  return {
    tenantId,
    channelKey: channel.accessKey,
    ids: {
      products: [productId],
      categories: [categoryId],
      rules: [ruleId],
      flows: [flowId],
      customers: [customerId],
      addresses: [addressId],
      orders: [orderId],
      documents: [document.id as string],
      // Download files and gallery images both answer to `assetId`.
      assets: [asset.id as string, ...galleryEntries.map((entry) => entry.assetId)],
      galleryEntries: galleryEntries.map((entry) => entry.id),
      entitlements: ((downloads.items ?? []) as { id: string }[]).map((item) => item.id),
      reviews: [review.id as string],
      mediaDrafts,
      proposals,
      lines: lineIds,
      channels: [channel.id],
      members: [userId],
      tokens: [((reader.details ?? reader) as { id: string }).id],
      taxClasses: [SELLABLE.standardTax, SELLABLE.reducedTax],
      shippingMethods: [SELLABLE.parcel],
      paymentMethods: [SELLABLE.invoice],
      methods: [SELLABLE.parcel, SELLABLE.invoice],
    },
    contexts: [shopper, login.contextToken as string, anonymous.contextToken as string],
    emails: [email, `owner@${shop}.test`],
  };
}

/** Shop A and shop B with data, the app with a capturing logger, and the fuzzer's pools. */
export async function createWorld(): Promise<World> {
  // An image provider nobody answers (no worker runs here): image drafts can be created, so the
  // fuzzer reaches admission and its limits; a call would fail as unavailable.
  const harness = await createHarness({
    ports: {
      imageProvider: createHttpImageProvider({
        apiKey: 'sk-fuzz-never-called-0000',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'gpt-image-1',
      }),
    },
  });
  const serverLog = new ServerLog();
  const app = createApp(harness.services, { logger: pino({ level: 'error' }, serverLog.stream) });
  const shopA = await seedShop(
    harness,
    'a',
    harness.shopA.tenantId,
    harness.shopA.token,
    harness.shopA.userId,
  );
  const shopB = await seedShop(
    harness,
    'b',
    harness.shopB.tenantId,
    harness.shopB.token,
    harness.shopB.userId,
  );
  // The fuzzer's own owner token (an API token: no member removal can take it away).
  const fuzzToken = expectStatus(
    await harness.call('POST', '/api/tokens', {
      token: harness.shopA.token,
      body: { name: 'fuzzer', kind: 'api', role: 'owner' },
    }),
    201,
    'fuzz token',
  ).token as string;

  const tables = await harness.database.rows<{ table_name: string }>(sql`
    select table_name from information_schema.columns
    where column_name = 'tenant_id' and table_schema = current_schema() order by table_name`);
  const members = await harness.database.rows<{ user_id: string }>(
    sql`select user_id from memberships where tenant_id = ${shopB.tenantId}`,
  );
  const memberIds = members.map((member) => member.user_id);
  const foreignDigest = async () => {
    const digest = new Map<string, string>();
    const parts = [
      ...tables.map(({ table_name }) => ({
        name: table_name,
        query: sql`select md5(coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '')) as digest
          from ${sql.identifier(table_name)} t where tenant_id = ${shopB.tenantId}`,
      })),
      {
        name: 'tenants',
        query: sql`select md5(coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '')) as digest
          from tenants t where id = ${shopB.tenantId}`,
      },
      {
        name: 'users',
        query: sql`select md5(coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '')) as digest
          from users t where id in (${sql.join(
            memberIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
      },
    ];
    for (const { name, query } of parts) {
      const [row] = await harness.database.rows<{ digest: string | null }>(query);
      digest.set(name, row?.digest ?? '');
    }
    return digest;
  };

  // The sellable fixture gives both shops the same tax class and method ids: those are no secret
  // of B's and no foreign rows to aim at.
  const shared = new Set(Object.values(shopA.ids).flat());
  const foreign = Object.fromEntries(
    Object.entries(shopB.ids).map(([kind, ids]) => [kind, ids.filter((id) => !shared.has(id))]),
  );
  const pools: Pools = {
    staffToken: fuzzToken,
    channelKey: shopA.channelKey,
    own: shopA.ids,
    foreign,
    ownContexts: shopA.contexts,
    foreignContexts: shopB.contexts,
    emails: [...shopA.emails, ...shopB.emails],
    foreignTenantId: shopB.tenantId,
    foreignChannelKey: shopB.channelKey,
  };
  const contexts = [...shopA.contexts];
  let renewals = 0;
  /** A newly registered visitor (logged in) with the product in the cart when it can still be sold. */
  const renewContext = async (index: number) => {
    const store = (method: string, path: string, context: string | null, body?: unknown) =>
      harness.call(method, path, {
        body,
        headers: { 'x-channel-key': shopA.channelKey, ...(context ? { 'x-context-token': context } : {}) },
      });
    const anonymous = (await store('POST', '/store-api/context', null)).body.contextToken;
    if (typeof anonymous !== 'string') return;
    renewals += 1;
    const registered = await store('POST', '/store-api/account/register', anonymous, {
      email: `renewed${renewals}@a.test`,
      password: 'correct horse battery',
      firstName: 'R',
      lastName: 'V',
    });
    const token = typeof registered.body.contextToken === 'string' ? registered.body.contextToken : anonymous;
    contexts[index] = token;
    // The fuzzer may have deleted or deactivated the product, or changed the basis: best effort.
    await store('POST', '/store-api/cart/lines', token, { productId: shopA.ids.products?.[0], quantity: 1 });
    await store('PATCH', '/store-api/cart', token, {
      billingAddress: SELLABLE.address,
      shippingAddress: SELLABLE.address,
      shippingMethodId: SELLABLE.parcel,
      paymentMethodId: SELLABLE.invoice,
    });
  };
  return {
    harness,
    app,
    serverLog,
    shopA,
    shopB,
    pools,
    // Users are global (a person may belong to several shops): B's owner id is no secret of B's.
    foreignSecrets: new Map([
      [shopB.tenantId, 'tenant id'],
      [shopB.channelKey, 'channel key'],
      ...Object.entries(foreign)
        .filter(([kind]) => kind !== 'members')
        .flatMap(([kind, ids]) => ids.map((id) => [id, `${kind} id`] as [string, string])),
      ...shopB.contexts.map((context) => [context, 'context token'] as [string, string]),
    ]),
    foreignDigest,
    contextOf: (index) => contexts[index] ?? '',
    async databaseBytes() {
      const [row] = await harness.database.rows<{ bytes: string | number }>(
        sql`select pg_database_size(current_database()) as bytes`,
      );
      return Number(row?.bytes ?? 0);
    },
    async renewContexts(indexes) {
      for (const index of indexes) await renewContext(index);
    },
    close: () => harness.close(),
  };
}
