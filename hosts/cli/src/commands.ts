import { hostname } from 'node:os';
import { createLogger, startHttpServer } from '@cartwright/http';
import {
  applyMigrations,
  createDatabase,
  type Database,
  embeddedDatabaseExists,
  findMembership,
  findTenant,
  listTenantIds,
  listTokens,
} from '@cartwright/repository';
import {
  backfillStarters,
  createDemoShopIfEmpty,
  createServices,
  createShop,
  createToken,
  outsideServicesOf,
  Role,
  readEnvironment,
  revokeTokenOf,
  type Services,
  setAdminPassword,
  shopView,
  tokenView,
} from '@cartwright/service';
import { needsPostgres, startWorkers, WORKER_ROLES } from '@cartwright/worker';
import * as v from 'valibot';
import { cliEnvironment } from './env.ts';

/** What a command prints: one JSON document on stdout for scripts, human notes on stderr. */
export interface CommandOutput {
  stdout(line: string): void;
  stderr(line: string): void;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

type Env = ReturnType<typeof readCliEnvironment>;

export function readCliEnvironment(source: Record<string, string | undefined>) {
  return readEnvironment(cliEnvironment, source);
}

async function openDatabase(env: Env): Promise<Database> {
  return createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.CARTWRIGHT_DATA_DIR });
}

/**
 * Opens the database and applies the migrations, saying on stderr what it does: a first start
 * spends seconds creating the embedded database and migrating it.
 */
async function openDatabaseVerbosely(env: Env, out: CommandOutput): Promise<Database> {
  if (env.DATABASE_URL) out.stderr('connecting to PostgreSQL…');
  else {
    const fresh = !embeddedDatabaseExists(env.CARTWRIGHT_DATA_DIR);
    out.stderr(`${fresh ? 'creating' : 'opening'} the database in ${env.CARTWRIGHT_DATA_DIR}…`);
  }
  const database = await createDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.CARTWRIGHT_DATA_DIR,
    migrate: false,
  });
  try {
    out.stderr('migrating…');
    await applyMigrations(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Parses a --shop value and checks that the shop exists. */
async function existingShop(services: Services, shop: string): Promise<string> {
  if (!v.is(v.pipe(v.string(), v.uuid()), shop)) throw new UsageError('--shop needs a shop id (UUID)');
  if (!(await findTenant(services.database.db, shop))) throw new UsageError(`no shop ${shop}`);
  return shop;
}

async function withServices<T>(env: Env, work: (services: Services) => Promise<T>): Promise<T> {
  const database = await openDatabase(env);
  try {
    return await work(createServices(database));
  } finally {
    await database.close();
  }
}

export async function migrate(env: Env, out: CommandOutput): Promise<void> {
  await withServices(env, async (services) => {
    out.stdout(JSON.stringify({ migrated: true, storage: services.database.kind }));
  });
}

export async function shopCreate(
  env: Env,
  out: CommandOutput,
  options: { name: string; ownerEmail?: string },
) {
  const name = v.safeParse(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)), options.name);
  if (!name.success) throw new UsageError('--name needs a shop name of 1 to 200 characters');
  if (options.ownerEmail !== undefined && !v.is(v.pipe(v.string(), v.email()), options.ownerEmail)) {
    throw new UsageError('--owner-email needs an email address');
  }
  await withServices(env, async (services) => {
    const shop = await createShop(services, { name: name.output, ownerEmail: options.ownerEmail });
    out.stdout(JSON.stringify({ tenantId: shop.tenantId, token: shop.token }));
  });
}

export async function tokenCreate(
  env: Env,
  out: CommandOutput,
  options: { shop: string; name: string; role?: string; userId?: string; expiresAt?: string },
) {
  const role = options.role === undefined ? undefined : v.safeParse(Role, options.role);
  if (role && !role.success) throw new UsageError('--role must be owner, admin, editor or reader');
  if (!options.userId && !role)
    throw new UsageError('give --role for an API token or --user for a personal token');
  const expiresAt = options.expiresAt ? new Date(options.expiresAt) : undefined;
  if (expiresAt && Number.isNaN(expiresAt.getTime()))
    throw new UsageError('--expires needs an ISO 8601 timestamp');
  await withServices(env, async (services) => {
    const shop = await existingShop(services, options.shop);
    const created = await services.database.transaction((tx) =>
      createToken(
        tx,
        services,
        shop,
        { kind: 'system', process: 'cli' },
        {
          name: options.name,
          kind: options.userId ? 'personal' : 'api',
          userId: options.userId,
          role: role?.success ? role.output : undefined,
          expiresAt,
        },
      ),
    );
    if (!created.ok) throw new UsageError(created.detail);
    out.stdout(JSON.stringify({ tokenId: created.value.details.id, token: created.value.token }));
  });
}

/** Prints every shop, oldest first, one JSON line each. */
export async function shopList(env: Env, out: CommandOutput) {
  await withServices(env, async (services) => {
    const db = services.database.db;
    for (const id of await listTenantIds(db)) {
      const tenant = await findTenant(db, id);
      if (!tenant) continue;
      const { id: shopId, name, stage, createdAt } = shopView(tenant);
      out.stdout(JSON.stringify({ id: shopId, name, stage, createdAt }));
    }
  });
}

const TOKEN_PAGE = 100;

/**
 * Prints every token of a shop, newest first, one JSON line each: its role (a personal token's is
 * its member's) and whether it is active, expired or revoked. Never a secret: only the hint.
 */
export async function tokenList(env: Env, out: CommandOutput, options: { shop: string }) {
  await withServices(env, async (services) => {
    const shop = await existingShop(services, options.shop);
    const db = services.database.db;
    const now = services.clock.now();
    let after: string | undefined;
    for (;;) {
      const rows = await listTokens(db, shop, { limit: TOKEN_PAGE, after });
      for (const row of rows) {
        const view = tokenView(row);
        const role = row.userId ? ((await findMembership(db, shop, row.userId))?.role ?? null) : view.role;
        const status = row.revokedAt
          ? 'revoked'
          : row.expiresAt && row.expiresAt <= now
            ? 'expired'
            : 'active';
        out.stdout(
          JSON.stringify({
            id: view.id,
            name: view.name,
            kind: view.kind,
            role,
            userId: view.userId,
            hint: view.hint,
            status,
            createdAt: view.createdAt,
            lastUsedAt: view.lastUsedAt,
            expiresAt: view.expiresAt,
            revokedAt: view.revokedAt,
          }),
        );
      }
      if (rows.length < TOKEN_PAGE) return;
      after = rows.at(-1)!.id;
    }
  });
}

export async function tokenRevoke(env: Env, out: CommandOutput, options: { shop: string; tokenId: string }) {
  await withServices(env, async (services) => {
    const shop = await existingShop(services, options.shop);
    if (!v.is(v.pipe(v.string(), v.uuid()), options.tokenId))
      throw new UsageError('--token needs a token id (UUID)');
    const revoked = await services.database.transaction((tx) =>
      revokeTokenOf(tx, services, shop, { kind: 'system', process: 'cli' }, options.tokenId),
    );
    if (!revoked.ok) throw new UsageError(revoked.detail);
    out.stdout(JSON.stringify({ tokenId: revoked.value.id, revokedAt: revoked.value.revokedAt }));
  });
}

/**
 * Sets a person's admin UI password (decision 0047). The password comes from `input` (stdin), so
 * it never shows in a process list or shell history; a trailing line break is not part of it.
 */
export async function userPassword(
  env: Env,
  out: CommandOutput,
  options: { email: string; input: AsyncIterable<Buffer | string> },
) {
  let text = '';
  for await (const chunk of options.input) {
    text += chunk.toString();
    if (text.length > 4096) throw new UsageError('the password is longer than 1024 characters');
  }
  const password = text.replace(/\r?\n$/, '');
  await withServices(env, async (services) => {
    const set = await setAdminPassword(services, options.email, password);
    if (!set.ok) throw new UsageError(set.detail);
    out.stdout(JSON.stringify({ userId: set.value.userId, passwordSet: true }));
  });
}

export async function backfill(env: Env, out: CommandOutput) {
  await withServices(env, async (services) => {
    const report = await backfillStarters(services);
    out.stdout(
      JSON.stringify({
        created: Object.fromEntries(report.created),
        failed: Object.fromEntries(report.failed),
      }),
    );
    if (report.failed.size > 0)
      throw new UsageError(`the backfill failed for ${report.failed.size} shop(s); see "failed"`);
  });
}

/**
 * Runs the service for PROCESS_ROLE until SIGTERM/SIGINT, then shuts down gracefully: the HTTP
 * server stops accepting, workers finish their batch and release their leases, the database closes.
 */
export async function start(env: Env, out: CommandOutput, signals: NodeJS.EventEmitter): Promise<void> {
  const role = env.PROCESS_ROLE;
  if (role !== 'all' && role !== 'http' && !env.DATABASE_URL) {
    throw new UsageError(needsPostgres(role));
  }
  const logger = createLogger(env.LOG_LEVEL);
  const outside = outsideServicesOf(env);
  let database: Database;
  try {
    database = await openDatabaseVerbosely(env, out);
  } catch (error) {
    await outside.sandbox.close();
    throw error;
  }
  const services = createServices(database, outside);
  const stops: (() => Promise<void>)[] = [];
  try {
    const backfill = await backfillStarters(services);
    for (const [tenantId, reason] of backfill.failed)
      logger.error({ tenantId, reason }, 'starter backfill failed');
    if (role === 'all' || role === 'http') {
      const demo = await createDemoShopIfEmpty(services, {
        onCreating: () => out.stderr('creating the demo shop…'),
      });
      const server = await startHttpServer(services, {
        port: env.PORT,
        host: env.HOST,
        bodyLimitBytes: env.BODY_LIMIT_BYTES,
        corsOrigins: env.CORS_ORIGINS,
        logger,
      });
      stops.push(() => server.close());
      const url = `http://${env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST}:${server.port}`;
      const storage =
        database.kind === 'pglite' ? `embedded PGlite in ${env.CARTWRIGHT_DATA_DIR}` : 'PostgreSQL';
      out.stderr(`Cartwright (${role}) is listening on ${url} with ${storage}.`);
      if (demo) {
        out.stderr('A demo shop was created. Its owner token is printed once, below; keep it.');
        out.stdout(JSON.stringify({ tenantId: demo.tenantId, token: demo.token, url }));
        out.stderr(`Try: curl -H "Authorization: Bearer ${demo.token}" ${url}/api/shop`);
        out.stderr('It sells at once: README.md, "Your first ten minutes", places an order with curl.');
      }
    }
    const roles = role === 'all' ? WORKER_ROLES : WORKER_ROLES.filter((candidate) => candidate === role);
    if (roles.length > 0) {
      const workers = startWorkers(services, {
        roles,
        owner: `${hostname()}:${process.pid}`,
        pollMs: env.WORKER_POLL_MS,
        leaseMs: env.WORKER_LEASE_MS,
        jobBatchSize: env.WORKER_FLOW_BATCH,
        log: ({ level, msg, ...fields }) => logger[level](fields, msg),
      });
      stops.unshift(() => workers.stop());
      if (role !== 'all') out.stderr(`Cartwright ${role} is running (no HTTP port).`);
    }
  } catch (error) {
    for (const stop of stops) await stop();
    await outside.sandbox.close();
    await database.close();
    throw error;
  }
  await new Promise<void>((resolve) => {
    const shutdown = () => resolve();
    signals.once('SIGTERM', shutdown);
    signals.once('SIGINT', shutdown);
  });
  logger.info({ role }, 'shutting down');
  // The sandbox after HTTP and the workers: what they still run may call it.
  for (const stop of stops) await stop();
  await outside.sandbox.close();
  await database.close();
}
