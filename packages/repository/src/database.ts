import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema.ts';

export type Schema = typeof schema;

/** A query executor: the database itself or an open transaction. Repository functions take one. */
export type Executor =
  | PgDatabase<PgQueryResultHKT, Schema>
  | PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type StorageKind = 'pglite' | 'postgres';

/** One typed interface over embedded PGlite and PostgreSQL: the same queries run on both. */
export interface Database {
  readonly kind: StorageKind;
  readonly db: Executor;
  /**
   * Runs `work` in a transaction. A deadlock or serialization failure rolls it back and runs it
   * again, a few times with a short random pause; one that persists raises TransientDatabaseError.
   * So `work` may run more than once: it must have no effect outside its transaction.
   */
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Rows of a raw statement, whatever the driver returns. */
  rows<T extends Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<T[]>;
  /** Answers when the database accepts queries (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it the embedded PGlite engine is used. */
  readonly databaseUrl?: string | undefined;
  /** PGlite data directory (default `.data`); ignored with `databaseUrl`. */
  readonly dataDir?: string | undefined;
  /** Apply committed migrations on open (default true). */
  readonly migrate?: boolean;
  /** PostgreSQL pool size (default 10). */
  readonly maxConnections?: number;
  /** Load a PGlite data directory from a tarball instead of a folder (test templates). */
  readonly loadDataDir?: Blob;
  /** How many times a transaction that failed with a deadlock or serialization failure runs again (default 3). */
  readonly transactionRetries?: number;
  /** Told of every such retry before its pause (hosts log it; tests count it). */
  readonly onTransactionRetry?: ((retry: TransactionRetry) => void) | undefined;
}

/** One rerun of a transaction that PostgreSQL rolled back as a deadlock victim or serialization failure. */
export interface TransactionRetry {
  /** `40P01` (deadlock detected) or `40001` (serialization failure). */
  readonly sqlState: TransientSqlState;
  /** The attempt that failed (1 = the first run). */
  readonly attempt: number;
  /** The pause before the next attempt. */
  readonly delayMs: number;
}

/**
 * SQLSTATEs after which PostgreSQL has rolled the whole transaction back and running it again may
 * succeed: deadlock detected, serialization failure.
 */
const TRANSIENT_SQL_STATES = ['40P01', '40001'] as const;
export type TransientSqlState = (typeof TRANSIENT_SQL_STATES)[number];

const DEFAULT_TRANSACTION_RETRIES = 3;
/** The first retry pauses up to this long; each further one up to twice as long as the last. */
const RETRY_BACKOFF_MS = 10;

/**
 * Raised by `Database.transaction` when its work still failed with a deadlock or serialization
 * failure after every retry. Nothing of it committed; the caller may try again later.
 */
export class TransientDatabaseError extends Error {
  constructor(
    readonly sqlState: TransientSqlState,
    /** Runs of the work, the last one included. */
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(
      `The transaction failed with SQLSTATE ${sqlState} (${sqlState === '40P01' ? 'deadlock' : 'serialization failure'}) ${attempts} times.`,
      options,
    );
    this.name = 'TransientDatabaseError';
  }
}

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

/** Raised when another process already holds the embedded data directory. */
export class DataDirectoryInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by process ${pid}. Embedded storage allows one process at a time: stop that process first, or set DATABASE_URL to use PostgreSQL.`,
    );
    this.name = 'DataDirectoryInUseError';
  }
}

const MIGRATION_LOCK = 7_401_275_030; // pg_advisory_lock key reserved for migrations

/** Opens the configured storage engine and applies migrations. */
export async function createDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const retries = options.transactionRetries ?? DEFAULT_TRANSACTION_RETRIES;
  if (!Number.isSafeInteger(retries) || retries < 0)
    throw new RangeError(`transactionRetries must be a non-negative integer, got ${retries}`);
  const retry: RetryPolicy = { retries, onRetry: options.onTransactionRetry };
  const database = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.maxConnections ?? 10, retry)
    : await openPglite(options, retry);
  if (options.migrate ?? true) await applyMigrations(database);
  return database;
}

/**
 * Applies committed migrations; on PostgreSQL under an advisory lock so concurrent starts are safe.
 * `folder` is for tests of the migrations themselves (a folder holding only the first ones).
 */
export async function applyMigrations(database: Database, folder: string = migrationsFolder): Promise<void> {
  const internals = internalsOf(database);
  if (internals.kind === 'pglite') {
    await migratePglite(drizzlePglite(internals.client, { schema }), { migrationsFolder: folder });
    return;
  }
  // One connection (max: 1), so the advisory lock and every migration statement share a session.
  const client = postgres(internals.url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(client, { schema }), { migrationsFolder: folder });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

type Internals = { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; client: postgres.Sql; url: string };
const internals = new WeakMap<Database, Internals>();
function internalsOf(database: Database): Internals {
  const found = internals.get(database);
  if (!found) throw new Error('not a database created by createDatabase');
  return found;
}

/** The PGlite client behind an embedded database (for template dumps in tests). */
export function pgliteClientOf(database: Database): PGlite | undefined {
  const found = internalsOf(database);
  return found.kind === 'pglite' ? found.client : undefined;
}

function normaliseRows<T>(result: unknown): T[] {
  // PGlite answers { rows }, postgres.js answers an array.
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** The rows of a raw statement run on an executor (the database or a transaction), on either driver. */
export async function executeRows<T extends Record<string, unknown>>(
  tx: Executor,
  statement: ReturnType<typeof sql>,
): Promise<T[]> {
  return normaliseRows<T>(await tx.execute(statement));
}

/** What differs between the drivers; everything else is the same drizzle API on both. */
interface Driver {
  readonly kind: StorageKind;
  readonly db: Executor & Pick<PgDatabase<PgQueryResultHKT, Schema>, 'transaction'>;
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

interface RetryPolicy {
  readonly retries: number;
  readonly onRetry: ((retry: TransactionRetry) => void) | undefined;
}

/** The SQLSTATE of a deadlock or serialization failure anywhere in the error's cause chain (drizzle wraps the driver's). */
function transientSqlStateOf(error: unknown): TransientSqlState | undefined {
  let current: unknown = error;
  while (current && typeof current === 'object') {
    const code = (current as { code?: unknown }).code;
    if (TRANSIENT_SQL_STATES.includes(code as TransientSqlState)) return code as TransientSqlState;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The transaction runner: runs `work` in a transaction, and again after a deadlock or
 * serialization failure (PostgreSQL rolled it back whole, so nothing of the failed run stays), at
 * most `retries` times. The pauses are random ("full jitter"), so the transactions that collided
 * do not meet again in step.
 */
async function runTransaction<T>(
  db: Driver['db'],
  policy: RetryPolicy,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const sqlState = transientSqlStateOf(error);
      if (sqlState === undefined) throw error;
      if (attempt > policy.retries) throw new TransientDatabaseError(sqlState, attempt, { cause: error });
      const delayMs = Math.random() * RETRY_BACKOFF_MS * 2 ** (attempt - 1);
      policy.onRetry?.({ sqlState, attempt, delayMs });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

function databaseOver(driver: Driver, internal: Internals, retry: RetryPolicy): Database {
  const { db } = driver;
  const database: Database = {
    kind: driver.kind,
    db,
    transaction: (work) => runTransaction(db, retry, work),
    listen: (channel, onNotify) => driver.listen(channel, onNotify),
    rows: async (statement) => normaliseRows(await db.execute(statement)),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => driver.close(),
  };
  internals.set(database, internal);
  return database;
}

function openPostgres(url: string, max: number, retry: RetryPolicy): Database {
  const client = postgres(url, { max, onnotice: () => {}, prepare: true });
  return databaseOver(
    {
      kind: 'postgres',
      db: drizzlePostgres(preparingEvery(client), { schema }),
      async listen(channel, onNotify) {
        const subscription = await client.listen(channel, onNotify);
        return () => subscription.unlisten();
      },
      close: () => client.end({ timeout: 5 }),
    },
    { kind: 'postgres', client, url },
    retry,
  );
}

/**
 * The client drizzle runs on, preparing every statement that has parameters (decision 0019).
 * drizzle asks postgres.js to prepare only named queries, so every other statement would travel
 * with its full text and be parsed and planned again by the server each time; prepared, it is
 * parsed once per connection and then sends only its parameters, so pipelined statements share
 * one network write. Transactions and savepoints hand their own client to the work: it is wrapped
 * the same way. Statements without parameters keep the simple protocol (several statements in one
 * text stay possible).
 */
function preparingEvery(client: postgres.Sql): postgres.Sql {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property === 'unsafe') {
        return (query: string, args: unknown[] = [], options: Record<string, unknown> = {}) =>
          target.unsafe(
            query,
            args as postgres.ParameterOrJSON<never>[],
            args.length > 0 ? { ...options, prepare: true } : options,
          );
      }
      if ((property === 'begin' || property === 'savepoint') && typeof value === 'function') {
        // begin([options], work) and savepoint([name], work): the work is the last argument.
        return (...args: unknown[]) => {
          const work = args.at(-1) as (inner: postgres.Sql) => unknown;
          return value.apply(target, [
            ...args.slice(0, -1),
            (inner: postgres.Sql) => work(preparingEvery(inner)),
          ]);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * PostgreSQL settings of the embedded engine. PGlite's default `shared_buffers` of 128 MB is
 * WebAssembly memory the process touches and keeps; 16 MB holds a shop's hot pages, and the rest
 * are a file read away in the operating system's page cache (decision 0027 has the measurements).
 */
const PGLITE_SETTINGS = ['shared_buffers = 16MB'];

/** True when `dataDir` holds an embedded database (`openDatabase` would open, not create, it). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(resolve(dataDir), 'pglite', 'PG_VERSION'));
}

/**
 * What the child process runs to create an embedded data directory: initdb grows PGlite's
 * WebAssembly memory to about 600 MiB, which a WebAssembly instance never gives back, so the
 * long-running process only opens directories that exist (decision 0027). Inline, so the child
 * needs no TypeScript loader and the published package no extra file.
 */
const CREATE_DIRECTORY = `const [engine, directory, settings] = process.argv.slice(1);
const { PGlite } = await import(engine);
const client = await PGlite.create(directory, { postgresqlconf: JSON.parse(settings) });
await client.close();`;

/** Runs initdb for a new embedded data directory in a short-lived child process. */
async function createPgliteDirectory(directory: string): Promise<void> {
  const engine = import.meta.resolve('@electric-sql/pglite');
  const existed = existsSync(directory);
  try {
    await promisify(execFile)(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        CREATE_DIRECTORY,
        '--',
        engine,
        directory,
        JSON.stringify(PGLITE_SETTINGS),
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    // A half-made directory of ours would be taken for a database next time; one we found stays.
    if (!existed) rmSync(directory, { recursive: true, force: true });
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(
      `could not create the embedded database in ${directory}: ${stderr.split('\n').at(-1) ?? ''}`,
      {
        cause: error,
      },
    );
  }
}

async function openPglite(options: DatabaseOptions, retry: RetryPolicy): Promise<Database> {
  const dataDir = options.loadDataDir ? undefined : resolve(options.dataDir ?? '.data');
  const releaseLock = dataDir ? lockDataDirectory(dataDir) : () => {};
  let client: PGlite;
  try {
    if (dataDir && !embeddedDatabaseExists(dataDir)) await createPgliteDirectory(join(dataDir, 'pglite'));
    client = await PGlite.create({
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : { dataDir: join(dataDir!, 'pglite') }),
      postgresqlconf: PGLITE_SETTINGS,
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const close = async () => {
    try {
      await client.close();
    } finally {
      releaseLock();
    }
  };
  return databaseOver(pgliteDriver(client, close), { kind: 'pglite', client }, retry);
}

/** The embedded driver: drizzle and NOTIFY over `client` (the engine, or a test's wrapper of it). */
function pgliteDriver(client: PGlite, close: () => Promise<void>): Driver {
  return {
    kind: 'pglite',
    db: drizzlePglite(client, { schema }),
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, onNotify);
      return () => unlisten();
    },
    close,
  };
}

/**
 * Another handle on the engine of an embedded `database`, sending its statements through
 * `through(engine)`, a wrapper of the engine's client (crash tests put a kill switch there). Closing
 * the handle leaves the engine open.
 */
export function embeddedHandle(database: Database, through: (engine: PGlite) => PGlite): Database {
  const engine = pgliteClientOf(database);
  if (!engine) throw new Error('embeddedHandle needs an embedded (PGlite) database');
  return databaseOver(
    pgliteDriver(through(engine), async () => {}),
    { kind: 'pglite', client: engine },
    { retries: DEFAULT_TRANSACTION_RETRIES, onRetry: undefined },
  );
}

/**
 * PGlite has no multi-process locking of its own: two processes on one data directory corrupt it.
 * A lock file with the owner's pid keeps a second process out; a lock left by a dead process
 * (SIGKILL) is taken over.
 */
function lockDataDirectory(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'cartwright.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        if (existsSync(lockPath) && readFileSync(lockPath, 'utf8') === String(process.pid)) rmSync(lockPath);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirectoryInUseError(dataDir, owner);
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not lock the data directory ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the statement's error is a unique violation (SQLSTATE 23505) on either driver. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === 'object') {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Serialises transactions that name the same key until the caller's transaction ends. */
export async function lockTransaction(tx: Executor, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Makes the current transaction read-only: any write in it fails (first statement only). */
export async function readOnlyTransaction(tx: Executor): Promise<void> {
  await tx.execute(sql`set transaction read only`);
}

/** Runs `work` in a savepoint of the caller's transaction: its writes roll back alone if it throws. */
export function inSavepoint<T>(tx: Executor, work: (inner: Executor) => Promise<T>): Promise<T> {
  return (tx as PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>).transaction(
    work,
  );
}
