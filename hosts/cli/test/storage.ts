import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { type ScriptProcess, spawnScript } from '@cartwright/tooling/script-process';
import { inject } from 'vitest';
import { MAIN, VARIABLES } from './migrated-data-dir.ts';

/** Where a test's `cartwright` processes keep their data: a fresh data directory or PostgreSQL database. */
export interface Storage {
  readonly kind: 'pglite' | 'postgres';
  readonly env: Record<string, string>;
  dispose(): Promise<void>;
}

/** Empty storage: on PGlite a new empty data directory, which the first `cartwright` run creates the database in. */
export async function freshStorage(): Promise<Storage> {
  if (process.env.DATABASE_URL) return postgresStorage();
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-cli-'));
  return pgliteStorage(dir);
}

/**
 * A migrated database without shops, as `cartwright migrate` leaves empty storage. On PGlite a copy
 * of the data directory the globalSetup (migrated-data-dir.ts) migrated once for the run, which
 * spares each test creating the embedded database; on PostgreSQL the same as `freshStorage()`
 * (its test databases are migrated clones).
 */
export async function migratedStorage(): Promise<Storage> {
  if (process.env.DATABASE_URL) return postgresStorage();
  const template = inject('migratedDataDir');
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-cli-'));
  // Without the lock file, should one have been left: the copy belongs to no process yet.
  cpSync(template, dir, { recursive: true, filter: (source) => basename(source) !== 'cartwright.lock' });
  return pgliteStorage(dir);
}

async function postgresStorage(): Promise<Storage> {
  const database: TestDatabase = await createTestDatabase();
  return { kind: 'postgres', env: { DATABASE_URL: database.url! }, dispose: () => database.close() };
}

function pgliteStorage(dir: string): Storage {
  return {
    kind: 'pglite',
    env: { CARTWRIGHT_DATA_DIR: dir },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `cartwright <args>` against the storage. */
export function cartwright(
  storage: Storage,
  args: readonly string[],
  env: Record<string, string> = {},
  options: { detached?: boolean } = {},
): ScriptProcess {
  return spawnScript(
    MAIN,
    { ...storage.env, LOG_LEVEL: 'warn', ...env },
    { unset: VARIABLES, args, ...options },
  );
}

/** Runs a command to its end; resolves with its exit code and output lines. */
export async function run(storage: Storage, args: readonly string[], env: Record<string, string> = {}) {
  const process = cartwright(storage, args, env);
  const code = await process.exited;
  return { code, stdout: process.stdout, stderr: process.lines };
}

export interface Server {
  readonly process: ScriptProcess;
  readonly url: string;
}

/** `cartwright start` on a free port; resolves once it listens. */
export async function startServer(storage: Storage, env: Record<string, string> = {}): Promise<Server> {
  const process = cartwright(
    storage,
    ['start'],
    { PORT: '0', WORKER_POLL_MS: '100', ...env },
    { detached: true },
  );
  const listening = await Promise.race([
    process.line((line) => line.includes(' is listening on ')),
    process.exited.then((code) => {
      throw new Error(`cartwright start exited with ${code}: ${process.lines.join('\n')}`);
    }),
  ]);
  const url = /listening on (http:\/\/\S+) with/.exec(listening)![1]!;
  return { process, url };
}

/** SIGTERM, then the exit code. */
export async function stopServer(server: Server): Promise<number | null> {
  server.process.child.kill('SIGTERM');
  return server.process.exited;
}

export async function api(
  server: Server,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
