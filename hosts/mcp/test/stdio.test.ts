import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '@cartwright/repository';
import { withDatabase } from '@cartwright/repository/testing';
import { createServices } from '@cartwright/service';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededShop, seedShop } from './fixtures.ts';
import { describeToolContract } from './tool-contract.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const serverArgs = ['--import', 'tsx', 'src/main.ts'];
const baseUrl = process.env.DATABASE_URL;

let scratch: string;
let dataDir: string;
let databaseName: string | undefined;
let shop: SeededShop;

/** Where the spawned server keeps its data: the embedded data dir, or a database of its own. */
function storageEnv(): Record<string, string> {
  return baseUrl && databaseName
    ? { DATABASE_URL: withDatabase(baseUrl, databaseName), CARTWRIGHT_DATA_DIR: dataDir }
    : { CARTWRIGHT_DATA_DIR: dataDir };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cartwright-mcp-stdio-'));
  dataDir = join(scratch, 'data');
  if (baseUrl) {
    databaseName = `cartwright_mcp_${randomBytes(6).toString('hex')}`;
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${databaseName}"`);
    await admin.end({ timeout: 5 });
  }
  // Seeded and closed before any server starts: embedded storage admits one process at a time.
  const database = await createDatabase({
    databaseUrl: baseUrl && databaseName ? withDatabase(baseUrl, databaseName) : undefined,
    dataDir,
  });
  try {
    shop = await seedShop(createServices(database), 'Stdio');
  } finally {
    await database.close();
  }
});

afterAll(async () => {
  if (baseUrl && databaseName) {
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
    await admin.end({ timeout: 5 });
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function spawnClient(token: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs,
    cwd: packageDir,
    // The SDK hands the child only a minimal environment: everything it needs goes here.
    env: { CARTWRIGHT_TOKEN: token, ...storageEnv() },
    stderr: 'pipe',
  });
  let diagnostics = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    diagnostics += chunk.toString();
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`the stdio server did not start: ${diagnostics}`, { cause: error });
  }
  return client;
}

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs the binary with its own streams, so the test sees its exit code and stderr. */
function start(env: Record<string, string>): { child: ChildProcess; exit: Promise<Exit> } {
  const child = spawn(process.execPath, serverArgs, {
    cwd: packageDir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  return { child, exit };
}

/** Resolves once stderr shows the server is serving (the protocol stream stays untouched). */
function serving(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      if (chunk.toString().includes('over stdio')) {
        child.stderr?.off('data', onData);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
  });
}

/**
 * The server of the tool contract's last `connect`, kept for the next call with the same token:
 * each server process spends seconds loading the service, and the contract's tests make one call
 * each. One at a time, since embedded storage admits one process.
 */
let kept: { token: string; client: Client } | undefined;

async function closeKept(): Promise<void> {
  const closing = kept?.client;
  kept = undefined;
  await closing?.close();
}

/** A client of a running stdio server acting with `token`; its `close()` leaves the server to the next test. */
async function connect(token: string): Promise<Client> {
  if (kept?.token !== token) {
    await closeKept();
    kept = { token, client: await spawnClient(token) };
  }
  const client = kept.client;
  return new Proxy(client, {
    get(target, property) {
      if (property === 'close') return async () => {};
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('MCP over stdio', () => {
  describe('the tool contract', () => {
    afterAll(closeKept);
    describeToolContract(() => ({ shop, connect }));
  });

  it('exits 2 with one line on stderr when the token is rejected', async () => {
    const { exit } = start({ CARTWRIGHT_TOKEN: `${shop.ownerToken.slice(0, -4)}AAAA`, ...storageEnv() });
    const { code, stderr } = await exit;
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('the token was rejected')]);
  });

  it('exits 2 naming CARTWRIGHT_TOKEN when it is missing', async () => {
    const { exit } = start(storageEnv());
    const { code, stderr } = await exit;
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('CARTWRIGHT_TOKEN')]);
  });

  it('exits 0 once stdin ends, and again on SIGTERM', async () => {
    for (const stop of [
      (child: ChildProcess) => child.stdin?.end(),
      (child: ChildProcess) => child.kill('SIGTERM'),
    ]) {
      const { child, exit } = start({ CARTWRIGHT_TOKEN: shop.ownerToken, ...storageEnv() });
      await serving(child);
      stop(child);
      const { code, stderr } = await exit;
      expect(code, stderr).toBe(0);
    }
  });

  it('exits 1 with the lock message when another process holds the embedded data directory', async () => {
    // On PGlite the seeded data directory exists: holding it needs no new embedded database (seconds
    // of initdb). On PostgreSQL the servers above never made one, so a new directory is held.
    const heldDir = baseUrl ? join(scratch, 'held') : dataDir;
    const holder = await createDatabase({ dataDir: heldDir, migrate: false });
    try {
      const { exit } = start({ CARTWRIGHT_TOKEN: shop.ownerToken, CARTWRIGHT_DATA_DIR: heldDir });
      const { code, stderr } = await exit;
      expect(code).toBe(1);
      expect(stderr).toContain(`is in use by process ${process.pid}`);
    } finally {
      await holder.close();
    }
  });
});
