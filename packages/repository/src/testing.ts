import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import postgres from 'postgres';
import {
  applyMigrations,
  createDatabase,
  type Database,
  embeddedHandle,
  migrationsFolder,
  pgliteClientOf,
} from './database.ts';

/**
 * A fresh migrated database for one test file. Without DATABASE_URL: an embedded PGlite loaded
 * from a migrated template tarball (built once per migration set, shared by every test process).
 * With DATABASE_URL: a new PostgreSQL database cloned from a migrated template database, dropped
 * again by `close()`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  return url
    ? createPostgresTestDatabase(url)
    : Object.assign(await createPgliteTestDatabase(), { url: undefined });
}

/** A test database; on PostgreSQL `url` reaches the same database from another process. */
export type TestDatabase = Database & { readonly url: string | undefined };

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).sort()) {
    if (file.endsWith('.sql')) hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function createPgliteTestDatabase(): Promise<Database> {
  const dir = join(process.env.CARTWRIGHT_TEST_TEMPLATE_DIR ?? tmpdir(), 'cartwright-test-templates');
  const tarball = join(dir, `pglite-${migrationsHash()}.tar.gz`);
  if (!existsSync(tarball)) {
    mkdirSync(dir, { recursive: true });
    const template = await createDatabase({
      loadDataDir: undefined,
      dataDir: join(dir, `build-${process.pid}`),
    });
    const dump = await pgliteClientOf(template)!.dumpDataDir('gzip');
    await template.close();
    rmSync(join(dir, `build-${process.pid}`), { recursive: true, force: true });
    // Write then rename: concurrent test processes may build the template at once; each rename is atomic.
    const partial = `${tarball}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, tarball);
  }
  return createDatabase({ loadDataDir: new Blob([readFileSync(tarball)]), migrate: false });
}

async function createPostgresTestDatabase(url: string): Promise<TestDatabase> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const template = `cartwright_template_${migrationsHash()}`;
  const name = throwawayName();
  try {
    await admin`select pg_advisory_lock(7401275031)`;
    try {
      const [exists] = await admin`select 1 from pg_database where datname = ${template}`;
      if (!exists) {
        // Built under another name and renamed when complete, so a failed build leaves no template.
        const building = `${template}_building`;
        await admin.unsafe(`drop database if exists "${building}" with (force)`);
        await admin.unsafe(`create database "${building}"`);
        const migrated = await createDatabase({ databaseUrl: withDatabase(url, building), migrate: false });
        await applyMigrations(migrated);
        await migrated.close();
        await admin.unsafe(`alter database "${building}" rename to "${template}"`);
      }
      await admin.unsafe(`create database "${name}" template "${template}"`);
    } finally {
      await admin`select pg_advisory_unlock(7401275031)`;
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
  return openThrowaway(url, name);
}

function throwawayName(): string {
  return `cartwright_test_${randomBytes(6).toString('hex')}`;
}

/** Opens a test database on PostgreSQL that `close()` drops. */
async function openThrowaway(url: string, name: string): Promise<TestDatabase> {
  const databaseUrl = withDatabase(url, name);
  const database = await createDatabase({ databaseUrl, migrate: false, maxConnections: 5 });
  const close = database.close.bind(database);
  return Object.assign(database, {
    url: databaseUrl,
    async close() {
      await close();
      const dropper = postgres(url, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      await dropper.end({ timeout: 5 });
    },
  });
}

/**
 * A test database with no migration applied, for tests of the migrations themselves: apply them
 * with `applyMigrations(database, migrationsThrough(tag))`, then `applyMigrations(database)`.
 */
export async function createEmptyTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = throwawayName();
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${name}"`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    return openThrowaway(url, name);
  }
  const dataDir = mkdtempSync(
    join(process.env.CARTWRIGHT_TEST_TEMPLATE_DIR ?? tmpdir(), 'cartwright-empty-'),
  );
  const database = await createDatabase({ dataDir, migrate: false });
  const close = database.close.bind(database);
  return Object.assign(database, {
    url: undefined,
    async close() {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/** A new folder holding the committed migrations up to and including the one tagged `tag`. */
export function migrationsThrough(tag: string): string {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 0) throw new Error(`no migration tagged ${tag}`);
  const entries = journal.entries.slice(0, last + 1);
  const folder = mkdtempSync(join(tmpdir(), 'cartwright-migrations-'));
  mkdirSync(join(folder, 'meta'));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries)
    copyFileSync(join(migrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return folder;
}

/** The same connection string pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A handle on an embedded test database that the test can kill: what a worker process SIGKILLed
 * on PostgreSQL is to the database, for the one-process engine. Once killed, a transaction open
 * at that moment rolls back (PostgreSQL does so when the connection drops) and nothing sent
 * through the handle answers again, so the code using it never goes on; NOTIFY no longer reaches
 * it. What it leased stays leased until the lease expires.
 *
 * Every statement first waits a turn of the event loop, as one sent to a server does: the engine
 * answers synchronously, so without it a busy worker's rounds would never let timers (another
 * worker's wake-up, the test's polling) run.
 */
export interface KillableHandle {
  readonly database: Database;
  /** Kills the handle now. */
  kill(): void;
  /** Kills the handle as it sends the first statement whose text matches, which does not run; resolves then. */
  killAt(matches: (statement: string) => boolean): Promise<void>;
}

/** Raised inside the transaction a killed handle had open, so the engine rolls it back. */
class HandleKilled extends Error {}

/** One turn of the event loop: timers and I/O callbacks due by now run first. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A promise that never settles: the answer a killed process never reads. */
function silence<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/** `target` with the methods of `overrides` in place of its own (the others bound to it: PGlite keeps private fields). */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(object, property);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** A killable handle on the engine of an embedded `database` (PGlite only). */
export function killableHandle(database: Database): KillableHandle {
  let isKilled = false;
  let armed: { matches: (statement: string) => boolean; resolve: () => void } | null = null;
  const kill = () => {
    isKilled = true;
    armed?.resolve();
    armed = null;
  };
  /** Whether the handle is dead once `statement` is sent (it dies here when the statement is the armed one). */
  const diesAt = (statement: string) => {
    if (!isKilled && armed?.matches(statement)) kill();
    return isKilled;
  };
  /** The caller hears the outcome of `work` only while the handle lives. */
  const answered = async <T>(work: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (isKilled) return silence();
      throw error;
    }
    return isKilled ? silence() : result;
  };
  const inTransaction = (tx: Transaction): Transaction =>
    overriding(tx, {
      query: async (statement, ...rest) => {
        await turn();
        if (diesAt(statement)) throw new HandleKilled();
        const result = await tx.query(statement, ...rest);
        if (isKilled) throw new HandleKilled();
        return result as never;
      },
      exec: async (statement, ...rest) => {
        await turn();
        if (diesAt(statement)) throw new HandleKilled();
        const results = await tx.exec(statement, ...rest);
        if (isKilled) throw new HandleKilled();
        return results;
      },
    });
  const through = (engine: PGlite): PGlite =>
    overriding(engine, {
      query: async (statement, ...rest) => {
        await turn();
        return diesAt(statement) ? silence() : answered(() => engine.query(statement, ...rest));
      },
      exec: async (statement, ...rest) => {
        await turn();
        return diesAt(statement) ? silence() : answered(() => engine.exec(statement, ...rest));
      },
      transaction: async (work) => {
        await turn();
        if (isKilled) return silence();
        return answered(() =>
          engine.transaction(async (tx) => {
            const result = await work(inTransaction(tx));
            // Killed while the work ran: roll back instead of committing.
            if (isKilled) throw new HandleKilled();
            return result;
          }),
        );
      },
      listen: (channel, onNotify, ...rest) =>
        isKilled
          ? silence()
          : answered(() =>
              engine.listen(
                channel,
                (payload) => {
                  if (!isKilled) onNotify(payload);
                },
                ...rest,
              ),
            ),
    });
  return {
    database: embeddedHandle(database, through),
    kill,
    killAt(matches) {
      if (isKilled) return Promise.resolve();
      return new Promise<void>((resolve) => {
        armed = { matches, resolve };
      });
    },
  };
}
