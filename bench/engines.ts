import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type Database, type DatabaseOptions } from '@cartwright/repository';
import postgres from 'postgres';

// The engines a database benchmark runs on, each from a fresh database: embedded PGlite in a
// temporary directory always, and PostgreSQL when BENCH_DATABASE_URL names a server where the
// benchmark may create and drop its own database (`cartwright_bench_<pid>`).

type EngineOptions = Pick<DatabaseOptions, 'maxConnections' | 'onTransactionRetry'>;

/** Runs `bench` on each engine in turn; `options` gives each fresh database its settings. */
export async function onEachEngine(
  bench: (label: string, database: Database) => Promise<void>,
  options: () => EngineOptions = () => ({}),
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-bench-'));
  try {
    const pglite = await createDatabase({ dataDir: dir, ...options() });
    await bench('PGlite (embedded)', pglite);
    await pglite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)');
    return;
  }
  const name = `cartwright_bench_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  try {
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await createDatabase({ databaseUrl: target.toString(), ...options() });
    await bench('PostgreSQL', database);
    await database.close();
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}
