import { once } from 'node:events';
import { killableHandle, type TestDatabase } from '@cartwright/repository/testing';
import { createServices, paymentServicesOf, type WorkerRole } from '@cartwright/service';
import { createLineWatcher } from '@cartwright/tooling/script-process';
import { sql } from 'drizzle-orm';
import { startWorkers } from '../src/index.ts';
import { stepReceiptSeam } from './step-receipt-seam.ts';
import { spawnFlowWorker, spawnWorker } from './worker-process.ts';

// Worker replicas for the crash tests, one scenario on either engine. On PostgreSQL each replica is
// a real worker process and a crash is SIGKILL. PGlite allows one process, so there each replica
// runs in this process on a killable handle of the test database: killed, its open transaction
// rolls back and it never sends another statement, which is what the database sees of a
// SIGKILLed process; its leases stay until they expire, by the database clock on either engine.

/** A replica's log record: a JSON line of a process, or a record its log sink got in this process. */
export interface ReplicaLogLine {
  readonly level?: string;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

export interface ReplicaOptions {
  readonly role: WorkerRole;
  /** The lease owner (default: the worker's own, `${hostname}:${pid}:${random}`). */
  readonly owner?: string;
  readonly leaseMs: number;
  readonly pollMs: number;
  /** A flow step at this node never gets past its receipt (step-receipt-seam.ts). */
  readonly hangNode?: string;
  /** The payment provider variables (PROVIDER_ACCOUNTS, …) as a process reads them. */
  readonly payments?: Readonly<Record<string, string>>;
}

export interface Replica {
  /** Log records so far. */
  readonly lines: readonly ReplicaLogLine[];
  /** Resolves with the first log record, seen or still to come, that matches. */
  line(matches: (line: ReplicaLogLine) => boolean): Promise<ReplicaLogLine>;
  /** Kills the replica now: no graceful stop, its leases stay until they expire. */
  kill(): Promise<void>;
  /**
   * Runs `trigger` (work for the replica) and kills the replica inside the transaction in which it
   * writes `table`, before that write: the transaction never commits.
   */
  killWhileWriting(table: string, trigger: () => Promise<unknown>): Promise<void>;
  /** Stops the replica gracefully (SIGTERM); fails when it does not exit cleanly. */
  stop(): Promise<void>;
}

export interface Replicas {
  start(options: ReplicaOptions): Promise<Replica>;
  /** Kills every replica still running (after a failed test). */
  killAll(): Promise<void>;
}

/** How the replicas of this run are killed, for test names (createTestDatabase picks the engine the same way). */
export const REPLICA_KIND = process.env.DATABASE_URL
  ? 'PostgreSQL: worker processes killed with SIGKILL'
  : 'PGlite: workers in this process cut off from the database';

/** Worker replicas on the test database: processes on PostgreSQL, killable handles on PGlite. */
export function replicasOn(database: TestDatabase): Replicas {
  return database.url ? processReplicas(database, database.url) : inProcessReplicas(database);
}

/** Whether a replica runs with the flow seam (a given owner or a hanging node), not as main.ts alone. */
function hasFlowSeam(options: ReplicaOptions): boolean {
  return options.owner !== undefined || options.hangNode !== undefined;
}

function parsed(line: string): ReplicaLogLine | null {
  try {
    return JSON.parse(line) as ReplicaLogLine;
  } catch {
    return null;
  }
}

function processReplicas(database: TestDatabase, databaseUrl: string): Replicas {
  const running = new Set<Replica>();
  return {
    async start(options) {
      const env = {
        PROCESS_ROLE: options.role,
        DATABASE_URL: databaseUrl,
        WORKER_POLL_MS: String(options.pollMs),
        WORKER_LEASE_MS: String(options.leaseMs),
        ...(options.owner === undefined ? {} : { WORKER_OWNER: options.owner }),
        ...(options.hangNode === undefined ? {} : { FLOW_HANG_NODE: options.hangNode }),
        ...options.payments,
      };
      // Own process group, so SIGKILL reaches every descendant.
      const worker = (hasFlowSeam(options) ? spawnFlowWorker : spawnWorker)(env, { detached: true });
      // Every line the process wrote has been read once its stdio closed.
      const closed = once(worker.child, 'close');
      const ended = async (signal: NodeJS.Signals, exitCode: number | null) => {
        running.delete(replica);
        const isAlive = worker.child.exitCode === null && worker.child.signalCode === null;
        if (isAlive) process.kill(signal === 'SIGKILL' ? -worker.child.pid! : worker.child.pid!, signal);
        const code = await worker.exited;
        await closed;
        if (code !== exitCode)
          throw new Error(`worker exited with ${code} after ${signal}:\n${worker.lines.join('\n')}`);
      };
      const replica: Replica = {
        get lines() {
          return worker.lines.flatMap((line) => {
            const record = parsed(line);
            return record === null ? [] : [record];
          });
        },
        async line(matches) {
          const text = await worker.line((line) => {
            const record = parsed(line);
            return record !== null && matches(record);
          });
          return parsed(text)!;
        },
        kill: () => ended('SIGKILL', null),
        async killWhileWriting(table, trigger) {
          // A share lock on the table: the replica's write waits on it, inside its transaction.
          let releaseLock = () => {};
          const lockReleased = new Promise<void>((resolve) => {
            releaseLock = resolve;
          });
          let lockTaken = () => {};
          const locked = new Promise<void>((resolve) => {
            lockTaken = resolve;
          });
          const holder = database.transaction(async (tx) => {
            await tx.execute(sql.raw(`lock table ${table} in share mode`));
            lockTaken();
            await lockReleased;
          });
          await locked;
          try {
            await trigger();
            for (;;) {
              const [waiting] = await database.rows<{ count: number }>(sql`
                select count(*)::int as count from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'
                  and query ilike ${`%${table}%`}`);
              if (waiting!.count > 0) break;
              await new Promise((resolve) => setTimeout(resolve, 25));
            }
            await replica.kill();
          } finally {
            releaseLock();
            await holder;
          }
        },
        stop: () => ended('SIGTERM', 0),
      };
      running.add(replica);
      await Promise.race([
        worker.line((line) => line.includes('"worker process ready"')),
        worker.exited.then((code) => {
          throw new Error(`worker exited with ${code} at start-up:\n${worker.lines.join('\n')}`);
        }),
      ]);
      return replica;
    },
    async killAll() {
      // Cleanup after a failed test: a process that already died says so in that test's failure.
      await Promise.allSettled([...running].map((replica) => replica.kill()));
    },
  };
}

function inProcessReplicas(database: TestDatabase): Replicas {
  const running = new Set<{ kill(): void }>();
  return {
    async start(options) {
      const handle = killableHandle(database);
      running.add(handle);
      const log = createLineWatcher<ReplicaLogLine>();
      const services = createServices(
        handle.database,
        options.payments ? { payments: paymentServicesOf(options.payments) } : {},
      );
      const worker = startWorkers(services, {
        roles: [options.role],
        owner: options.owner,
        pollMs: options.pollMs,
        leaseMs: options.leaseMs,
        log: (line) => log.push(line),
        afterReceipt: hasFlowSeam(options)
          ? stepReceiptSeam({
              hangNode: options.hangNode,
              log: (line) => log.push({ ...line, owner: worker.owner }),
              // No timer: a killed replica's promises never settle and keep nothing alive.
              hang: () => new Promise(() => {}),
            })
          : undefined,
      });
      return {
        lines: log.lines,
        line: (matches) => log.wait(matches),
        async kill() {
          running.delete(handle);
          handle.kill();
        },
        async killWhileWriting(table, trigger) {
          const writes = new RegExp(`^\\s*(insert into|update|delete from)\\s+"?${table}"?\\s`, 'i');
          const killed = handle.killAt((statement) => writes.test(statement));
          await trigger();
          await killed;
          running.delete(handle);
        },
        async stop() {
          running.delete(handle);
          await worker.stop();
        },
      };
    },
    async killAll() {
      for (const handle of running) handle.kill();
      running.clear();
    },
  };
}
