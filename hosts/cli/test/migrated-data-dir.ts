import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnScript } from '@cartwright/tooling/script-process';
import type { TestProject } from 'vitest/node';

// The vitest globalSetup of this package: `cartwright migrate` on an empty embedded data directory,
// once per run. Creating one (initdb in a child process, then the migrations) costs seconds on
// 2 cores; tests that need a migrated database but not an empty one copy this directory instead
// (`migratedStorage()` in storage.ts). On PostgreSQL the test databases are migrated clones
// already, so there is nothing to make.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded data directory to copy; '' when the tests run on PostgreSQL. */
    migratedDataDir: string;
  }
}

/** The `cartwright` entry point, and the variables of the test process its children never inherit. */
export const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
export const VARIABLES = ['DATABASE_URL', 'CARTWRIGHT_DATA_DIR', 'PROCESS_ROLE', 'PORT', 'HOST', 'LOG_LEVEL'];

export default async function makeMigratedDataDir(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) {
    project.provide('migratedDataDir', '');
    return undefined;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'cartwright-cli-migrated-'));
  const dataDir = join(scratch, 'data');
  const migrate = spawnScript(
    MAIN,
    { CARTWRIGHT_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    { unset: VARIABLES, args: ['migrate'] },
  );
  const code = await migrate.exited;
  if (code !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`cartwright migrate exited with ${code}: ${migrate.lines.join('\n')}`);
  }
  project.provide('migratedDataDir', dataDir);
  return () => rmSync(scratch, { recursive: true, force: true });
}
