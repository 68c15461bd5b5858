import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedStorage, type Server, type Storage, startServer, stopServer } from './storage.ts';

// The README's first order ("Your first ten minutes") run as written, with bash and curl, against
// the demo shop of a first start: only the server's address and the printed token are filled in.
// The storage is migrated but has no shop (as on PostgreSQL), so the start creates the demo shop
// and prints its token; cli.test.ts and quick-start.test.ts start on an empty data directory.

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const URL_LINE = 'URL=http://127.0.0.1:3000';
const hasTools = ['/bin/bash', '/usr/bin/curl'].every((tool) => existsSync(tool));

/** The first sh block of the README's "Your first ten minutes" section. */
function walkthrough(): string {
  const readme = readFileSync(README, 'utf8');
  const section = readme.slice(readme.indexOf('## Your first ten minutes'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('the README has no walkthrough');
  return block[1]!;
}

let storage: Storage;
let server: Server | undefined;

beforeEach(async () => {
  storage = await migratedStorage();
});
afterEach(async () => {
  if (server) await stopServer(server);
  server = undefined;
  await storage.dispose();
});

describe.runIf(hasTools)('the README walkthrough', () => {
  it('places the first order of the demo shop, verbatim', async () => {
    const script = walkthrough();
    expect(script).toContain(URL_LINE);
    server = await startServer(storage);
    const printed = JSON.parse(await server.process.output(() => true)) as { token: string; url: string };
    const { stdout } = await promisify(execFile)(
      '/bin/bash',
      ['-eo', 'pipefail', '-c', script.replace(URL_LINE, `URL=${printed.url}`)],
      { env: { ...process.env, TOKEN: printed.token }, timeout: 120_000 },
    );
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('[]');
    expect(lines.slice(1).join(' ')).toMatch(/gross: 3070\b/);
  });
});
