import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { type ScriptProcess, spawnScript } from '@cartwright/tooling/script-process';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const VARIABLES = ['DATABASE_URL', 'CARTWRIGHT_DATA_DIR', 'PROCESS_ROLE', 'PORT', 'HOST', 'LOG_LEVEL'];

/** Where a test's `cartwright` processes keep their data: a fresh data directory or PostgreSQL database. */
export interface Storage {
  readonly kind: 'pglite' | 'postgres';
  readonly env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function freshStorage(): Promise<Storage> {
  if (process.env.DATABASE_URL) {
    const database: TestDatabase = await createTestDatabase();
    return { kind: 'postgres', env: { DATABASE_URL: database.url! }, dispose: () => database.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-cli-'));
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
