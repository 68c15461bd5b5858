import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  describeError,
  flowRunner,
  type Round,
  releaseLeases,
  runners,
  type ServiceRunner,
  type Services,
  type WorkerLogLine,
  type WorkerRole,
} from '@cartwright/service';

// The one redaction of errors every host logs with (no bound parameters, no row values).
export { describeError, type WorkerLogLine };

export interface WorkerOptions {
  /** Every runner whose role is listed gets a loop; roles without runners just idle. */
  readonly roles: readonly WorkerRole[];
  /** The runners the roles choose from (default: every runner of the service). */
  readonly runners?: readonly ServiceRunner[] | undefined;
  /** Lease owner, unique per handle. Default `${hostname}:${pid}:${random}`. */
  readonly owner?: string | undefined;
  /** Longest wait after a round that found nothing, when no NOTIFY arrives; also the retry delay after an error (default 1000). */
  readonly pollMs?: number | undefined;
  /** How long a claimed shop stays leased without progress (default 30000). */
  readonly leaseMs?: number | undefined;
  /** Events per transaction (default 100). */
  readonly batchSize?: number | undefined;
  /** Batches per claim before the shop is released so other shops get their turn (default 10). */
  readonly maxBatches?: number | undefined;
  /** Receives every log record (default: JSON lines on stderr). */
  readonly log?: ((line: WorkerLogLine) => void) | undefined;
  /** Flow jobs the `app-worker` role's flow runner claims per round and moves together (default 50). */
  readonly jobBatchSize?: number | undefined;
  /** Test seam of the flow runner: runs after a step's receipt commits, before its action. */
  readonly afterReceipt?: ((key: string) => Promise<void>) | undefined;
}

export interface WorkerHandle {
  readonly owner: string;
  /** Names of the projections this handle runs, one loop each. */
  readonly projections: readonly string[];
  /** Whether this handle runs flow jobs (the `app-worker` role). */
  readonly runsFlows: boolean;
  /**
   * Graceful shutdown: takes no new claims, lets the in-flight batch commit, gives back every
   * lease of this owner and unsubscribes from NOTIFY. Idempotent.
   */
  stop(): Promise<void>;
  /**
   * Wakes every loop and resolves once each has completed a round, started after this call, that
   * found no shop to claim (shops leased by other owners count as nothing to claim). Everything
   * committed before the call has then been applied, unless another owner holds it. Does not
   * resolve while rounds keep failing; resolves on stop.
   */
  idle(): Promise<void>;
}

interface Loop {
  readonly name: string;
  readonly kind: ServiceRunner['kind'];
  /** The NOTIFY channel that wakes this loop. */
  readonly channel: string;
  readonly round: () => Promise<Round>;
  /** Set by NOTIFY or idle(): the next wait returns at once, so no wake-up is lost mid-round. */
  wakeRequested: boolean;
  /** Ends the current wait early; null while a round runs or during an error back-off. */
  wake: (() => void) | null;
  /** idle() callers waiting for this loop's next empty round. */
  idleWaiters: (() => void)[];
  done: Promise<void>;
}

const DEFAULTS = { pollMs: 1000, leaseMs: 30_000, batchSize: 100, maxBatches: 10 } as const;

/** How long a NOTIFY waits for more before it wakes its loops. */
const WAKE_COALESCE_MS = 10;

/** Starts one loop per runner of the given roles (each begins once LISTEN is set up). */
export function startWorkers(services: Services, options: WorkerOptions): WorkerHandle {
  const pollMs = positiveInteger('pollMs', options.pollMs ?? DEFAULTS.pollMs);
  const leaseMs = positiveInteger('leaseMs', options.leaseMs ?? DEFAULTS.leaseMs);
  const batchSize = positiveInteger('batchSize', options.batchSize ?? DEFAULTS.batchSize);
  const maxBatches = positiveInteger('maxBatches', options.maxBatches ?? DEFAULTS.maxBatches);
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const sink = options.log ?? writeJsonLine;
  const emit = (line: WorkerLogLine) => {
    try {
      sink(line);
    } catch {
      // A failing log sink must not stop the loops.
    }
  };

  const controller = new AbortController();
  const { signal } = controller;
  const jobBatchSize = positiveInteger('jobBatchSize', options.jobBatchSize ?? 50);
  const roundOptions = {
    owner,
    leaseMs,
    batchSize,
    maxBatches,
    jobBatchSize,
    signal,
    afterReceipt: options.afterReceipt,
  };
  const loops: Loop[] = (options.runners ?? runners)
    .filter((runner) => options.roles.includes(runner.role))
    .map((runner) => ({
      name: runner.name,
      kind: runner.kind,
      channel: runner.wake,
      round: () => runner.round(services, roundOptions),
      wakeRequested: false,
      wake: null,
      idleWaiters: [],
      done: Promise.resolve(),
    }));

  // A burst of commits (every flow action appends an event) wakes a loop once, a few
  // milliseconds later, so its round takes the burst as one batch instead of one event each.
  const coalescing = new Map<string, ReturnType<typeof setTimeout>>();
  const wake = (channel: string) => {
    if (coalescing.has(channel)) return;
    coalescing.set(
      channel,
      setTimeout(() => {
        coalescing.delete(channel);
        for (const loop of loops) {
          if (loop.channel !== channel) continue;
          loop.wakeRequested = true;
          loop.wake?.();
        }
      }, WAKE_COALESCE_MS),
    );
  };

  // Loops start once LISTEN is in place or has failed, so no NOTIFY falls between the two; but at
  // the latest after pollMs, since polling alone is enough and a LISTEN may hang on a bad connection.
  const listening: Promise<(() => Promise<void>) | null> =
    loops.length === 0
      ? Promise.resolve(null)
      : Promise.all(
          // Each channel wakes only its loops (events the projections, new jobs the flow runner):
          // an action's own event does not send every loop on a round.
          [...new Set(loops.map((loop) => loop.channel))].map((channel) =>
            services.database.listen(channel, () => wake(channel)),
          ),
        )
          .then((unlistens) => async () => {
            for (const unlisten of unlistens) await unlisten();
          })
          .catch((error: unknown) => {
            emit({
              level: 'warn',
              msg: 'listen failed, polling only',
              owner,
              pollMs,
              error: describeError(error),
            });
            return null;
          });

  /** Waits up to `ms`; stop always ends it early, a wake request only when `wakeable`. */
  const pause = (loop: Loop, ms: number, wakeable: boolean): Promise<void> => {
    if (signal.aborted || (wakeable && loop.wakeRequested)) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        loop.wake = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      signal.addEventListener('abort', finish, { once: true });
      if (wakeable) loop.wake = finish;
    });
  };

  const run = async (loop: Loop): Promise<void> => {
    while (!signal.aborted) {
      loop.wakeRequested = false;
      const armed = loop.idleWaiters.splice(0);
      try {
        const round = await loop.round();
        for (const line of round.lines) emit(line);
        if (!round.busy) {
          for (const resolve of armed) resolve();
          await pause(loop, pollMs, true);
        } else {
          loop.idleWaiters.unshift(...armed);
          // Let the process's other work run before the next busy round: the embedded engine
          // answers without waiting on a socket, so back-to-back rounds would starve timers and
          // the HTTP server sharing the process (PROCESS_ROLE=all) until the backlog is gone.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        loop.idleWaiters.unshift(...armed);
        emit({
          level: 'error',
          msg: 'round failed, retrying',
          owner,
          ...(loop.kind === 'projection' ? { projection: loop.name } : { loop: loop.name }),
          retryMs: pollMs,
          error: describeError(error),
        });
        await pause(loop, pollMs, false);
      }
    }
    for (const resolve of loop.idleWaiters.splice(0)) resolve();
  };
  let listenSettled = false;
  void listening.then(() => {
    listenSettled = true;
  });
  const ready = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, pollMs);
    void listening.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  for (const loop of loops) loop.done = ready.then(() => run(loop));

  const names = loops.filter((loop) => loop.kind === 'projection').map((loop) => loop.name);
  emit({
    level: 'info',
    msg: 'workers started',
    owner,
    roles: options.roles,
    projections: names,
    pollMs,
    leaseMs,
  });

  let stopping: Promise<void> | null = null;
  return {
    owner,
    projections: names,
    runsFlows: loops.some((loop) => loop.name === flowRunner.name),
    stop() {
      stopping ??= (async () => {
        controller.abort();
        await Promise.all(loops.map((loop) => loop.done));
        try {
          await releaseLeases(services, owner);
        } catch (error) {
          emit({
            level: 'error',
            msg: 'releasing leases failed; they expire on their own',
            owner,
            leaseMs,
            error: describeError(error),
          });
        }
        // A LISTEN still pending (hung connection) is undone whenever it completes; stop() does not wait for it.
        const unlisten = listenSettled ? await listening : null;
        if (!listenSettled) void listening.then((late) => late?.().catch(() => {}));
        try {
          await unlisten?.();
        } catch (error) {
          emit({ level: 'warn', msg: 'unlisten failed', owner, error: describeError(error) });
        }
        emit({ level: 'info', msg: 'workers stopped', owner });
      })();
      return stopping;
    },
    async idle() {
      await Promise.all(
        loops.map(
          (loop) =>
            new Promise<void>((resolve) => {
              if (signal.aborted) return resolve();
              loop.idleWaiters.push(resolve);
              loop.wakeRequested = true;
              loop.wake?.();
            }),
        ),
      );
    },
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** Writes one log record as a JSON line on stderr (stdout stays free for a protocol). */
export function writeJsonLine(line: WorkerLogLine): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}
