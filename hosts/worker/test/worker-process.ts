import { fileURLToPath } from 'node:url';
import { type ScriptProcess, spawnScript } from '@cartwright/tooling/script-process';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** main.ts with the flow runner's test seam (see that file). */
const FLOW_WORKER = fileURLToPath(new URL('./flow-worker-process.ts', import.meta.url));
const WORKER_VARIABLES = [
  'PROCESS_ROLE',
  'DATABASE_URL',
  'CARTWRIGHT_DATA_DIR',
  'WORKER_POLL_MS',
  'WORKER_LEASE_MS',
];
const FLOW_WORKER_VARIABLES = [...WORKER_VARIABLES, 'WORKER_OWNER', 'FLOW_HANG_NODE'];

export type WorkerProcess = ScriptProcess;

/** Starts `src/main.ts` with only the given worker variables set. */
export function spawnWorker(
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): WorkerProcess {
  return spawnScript(MAIN, env, { unset: WORKER_VARIABLES, detached: options.detached });
}

/**
 * Starts `flow-worker-process.ts` (main.ts plus `WORKER_OWNER`, and `FLOW_HANG_NODE` to hang a
 * step after its receipt commits) with only the given variables set.
 */
export function spawnFlowWorker(
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): WorkerProcess {
  return spawnScript(FLOW_WORKER, env, { unset: FLOW_WORKER_VARIABLES, detached: options.detached });
}
