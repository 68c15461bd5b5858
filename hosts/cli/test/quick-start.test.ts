import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createLineWatcher } from '@cartwright/tooling/script-process';
import { afterEach, describe, expect, it } from 'vitest';
import { freshStorage, migratedStorage, type Storage } from './storage.ts';

// The README's commands for scripts: `corepack pnpm --silent start` and `corepack pnpm --silent
// cartwright …` from the repository root. Scripts parse stdout, so it must carry the command's
// JSON and nothing else (no pnpm script banner); progress goes to stderr.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface PnpmProcess {
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exited: Promise<number | null>;
  line(matches: (line: string) => boolean): Promise<string>;
}

/** `corepack pnpm <args>` in the repository root, with none of a parent pnpm's npm_* variables. */
function pnpm(storage: Storage, args: readonly string[], env: Record<string, string> = {}): PnpmProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^npm_/i.test(key) &&
        !['DATABASE_URL', 'CARTWRIGHT_DATA_DIR', 'PROCESS_ROLE', 'PORT', 'HOST', 'LOG_LEVEL'].includes(key),
    ),
  );
  const child = spawn('corepack', ['pnpm', ...args], {
    cwd: ROOT,
    env: { ...inherited, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', LOG_LEVEL: 'warn', ...storage.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: pnpm runs the script in a child, and the test stops them together.
    detached: true,
  });
  const stdout = createLineWatcher();
  const stderr = createLineWatcher();
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: stdout.lines, stderr: stderr.lines, exited, line: (m) => stderr.wait(m) };
}

// Each test sets its storage: empty for the first start, migrated (no database to create) else.
let storage: Storage | undefined;
let running: PnpmProcess | undefined;

afterEach(async () => {
  if (running && running.child.exitCode === null) {
    process.kill(-running.child.pid!, 'SIGTERM');
    await running.exited;
  }
  running = undefined;
  await storage?.dispose();
  storage = undefined;
});

describe('corepack pnpm --silent start', () => {
  it('prints only the demo shop’s JSON line on stdout, and its progress on stderr', async () => {
    storage = await freshStorage();
    running = pnpm(storage, ['--silent', 'start'], { PORT: '0' });
    const listening = await Promise.race([
      running.line((line) => line.includes(' is listening on ')),
      running.exited.then((code) => {
        throw new Error(`start exited with ${code}: ${running!.stderr.join('\n')}`);
      }),
    ]);
    await running.line((line) => line.startsWith('Try: curl'));
    process.kill(-running.child.pid!, 'SIGTERM');
    await running.exited;

    expect(running.stdout).toHaveLength(1);
    const printed = JSON.parse(running.stdout[0]!) as Record<string, unknown>;
    expect(Object.keys(printed).sort()).toEqual(['tenantId', 'token', 'url']);
    expect(listening).toContain(String(printed.url));

    const progress = running.stderr.filter((line) => line.endsWith('…'));
    const opening = storage.kind === 'pglite' ? 'creating the database in ' : 'connecting to PostgreSQL…';
    expect(progress).toEqual([
      'starting Cartwright…',
      expect.stringContaining(opening),
      'migrating…',
      'creating the demo shop…',
    ]);
  });
});

describe('corepack pnpm --silent cartwright', () => {
  it('prints only the JSON of `shop create` on stdout', async () => {
    storage = await migratedStorage();
    running = pnpm(storage, ['--silent', 'cartwright', 'shop', 'create', '--name', 'Corner shop']);
    expect(await running.exited).toBe(0);
    expect(running.stdout).toHaveLength(1);
    expect(Object.keys(JSON.parse(running.stdout[0]!) as object).sort()).toEqual(['tenantId', 'token']);
  });
});
