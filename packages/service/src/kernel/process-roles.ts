/** The parts of the service a process can run (`PROCESS_ROLE`); `all` runs every one. */
export const PROCESS_ROLES = [
  'all',
  'http',
  'memory-worker',
  'payment-worker',
  'app-worker',
  'translation-worker',
  'media-worker',
] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];
/** A role whose process runs workers and binds no port. */
export type WorkerRole = Exclude<ProcessRole, 'all' | 'http'>;

/** One structured log record of a worker round; the host decides how to write it. */
export interface WorkerLogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** What the host hands every round of a runner. */
export interface RoundOptions {
  /** Unique per worker handle (host, pid, random): it owns leases. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Outbox events per transaction (projections). */
  readonly batchSize: number;
  /** Batches per claim before a shop is released so other shops get their turn (projections). */
  readonly maxBatches: number;
  /** Jobs a job runner claims per round and moves together. */
  readonly jobBatchSize: number;
  readonly signal: AbortSignal;
  /** Test seam of the flow runner: runs after a step's receipt commits, before its action. */
  readonly afterReceipt?: ((key: string) => Promise<void>) | undefined;
}

/** What one round did: whether there may be more to do at once, and what to log. */
export interface Round {
  readonly busy: boolean;
  readonly lines: readonly WorkerLogLine[];
}

/**
 * A unit of background work the worker host loops over: an outbox projection or a job runner.
 * `wake` names the NOTIFY channel whose messages start its next round early (polling is the
 * safety net); `kind` tells the host how to label it.
 */
export interface Runner<S = unknown> {
  readonly name: string;
  readonly kind: 'projection' | 'jobs';
  readonly role: WorkerRole;
  readonly wake: string;
  round(services: S, options: RoundOptions): Promise<Round>;
}
