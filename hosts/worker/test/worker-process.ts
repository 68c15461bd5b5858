import { fileURLToPath } from 'node:url';
import { type ScriptProcess, spawnScript } from '@cartwright/tooling/script-process';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const WORKER_VARIABLES = [
  'PROCESS_ROLE',
  'DATABASE_URL',
  'CARTWRIGHT_DATA_DIR',
  'WORKER_POLL_MS',
  'WORKER_LEASE_MS',
];

export type WorkerProcess = ScriptProcess;

/** Starts `src/main.ts` with only the given worker variables set. */
export function spawnWorker(
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): WorkerProcess {
  return spawnScript(MAIN, env, { unset: WORKER_VARIABLES, detached: options.detached });
}
