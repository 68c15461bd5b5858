import {
  EnvironmentError,
  integerVariable,
  type OutsideServices,
  outsideEnvironment,
  outsideServicesOf,
  PROCESS_ROLES,
  readEnvironment,
  storageEnvironment,
  type WorkerRole,
} from '@cartwright/service';
import * as v from 'valibot';

/** The process roles that run outbox workers (every role but `all` and `http`). */
export const WORKER_ROLES: readonly WorkerRole[] = PROCESS_ROLES.filter(
  (role): role is WorkerRole => role !== 'all' && role !== 'http',
);

/** How worker loops pace themselves; the CLI's `start` reads the same entries. */
export const workerTimingEnvironment = {
  WORKER_POLL_MS: integerVariable(1000, 1, 3_600_000),
  WORKER_LEASE_MS: integerVariable(30_000, 500, 3_600_000),
  /** Flow jobs a flow runner claims and moves together (decision 0019). */
  WORKER_FLOW_BATCH: integerVariable(50, 1, 500),
};

/** The worker process's variables. `all` runs every worker role in one process (embedded storage allowed). */
export const workerEnvironment = {
  PROCESS_ROLE: v.optional(v.picklist(['all', ...WORKER_ROLES]), 'all'),
  ...storageEnvironment,
  ...workerTimingEnvironment,
  ...outsideEnvironment,
};

/** What main.ts needs, as plain options. */
export interface WorkerConfig {
  readonly processRole: 'all' | WorkerRole;
  readonly roles: readonly WorkerRole[];
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly pollMs: number;
  readonly leaseMs: number;
  readonly flowBatch: number;
  /**
   * The payment provider, the mail server, apps' external services (from their variables) and the
   * app sandbox, whose threads start on its first call; the process closes it on shutdown.
   */
  readonly outside: OutsideServices;
}

export type WorkerConfigResult =
  | { readonly ok: true; readonly config: WorkerConfig }
  | { readonly ok: false; readonly message: string };

/** The message for a worker role started without PostgreSQL. */
export function needsPostgres(role: string): string {
  return `PROCESS_ROLE=${role} needs PostgreSQL (set DATABASE_URL); embedded storage allows one process, use PROCESS_ROLE=all`;
}

/** Validates the environment; a failure carries the one-line message that names the variable. */
export function readWorkerEnv(
  source: Readonly<Record<string, string | undefined>> = process.env,
): WorkerConfigResult {
  let env: v.InferOutput<v.ObjectSchema<typeof workerEnvironment, undefined>>;
  try {
    env = readEnvironment(workerEnvironment, source);
  } catch (error) {
    if (error instanceof EnvironmentError) return { ok: false, message: error.message };
    throw error;
  }
  if (env.PROCESS_ROLE !== 'all' && env.DATABASE_URL === undefined) {
    return { ok: false, message: needsPostgres(env.PROCESS_ROLE) };
  }
  let outside: OutsideServices;
  try {
    outside = outsideServicesOf(env);
  } catch (error) {
    if (error instanceof EnvironmentError) return { ok: false, message: error.message };
    throw error;
  }
  return {
    ok: true,
    config: {
      processRole: env.PROCESS_ROLE,
      roles: env.PROCESS_ROLE === 'all' ? WORKER_ROLES : [env.PROCESS_ROLE],
      databaseUrl: env.DATABASE_URL,
      dataDir: env.CARTWRIGHT_DATA_DIR,
      pollMs: env.WORKER_POLL_MS,
      leaseMs: env.WORKER_LEASE_MS,
      flowBatch: env.WORKER_FLOW_BATCH,
      outside,
    },
  };
}
