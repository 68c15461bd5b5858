import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import {
  applyMigrations,
  createDatabase,
  type Database,
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
  const name = `cartwright_test_${randomBytes(6).toString('hex')}`;
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

/** The same connection string pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
