import type { WorkerLogLine } from '../src/index.ts';

/**
 * The flow runner's test seam as the crash tests use it, in a worker process or in this one: every
 * step receipt the worker commits is logged (`step receipt committed`, with its key) before the
 * action runs, and a step at `hangNode` never gets past its receipt, as if the worker
 * died between the two phases. `hang` is how it waits forever.
 */
export function stepReceiptSeam(options: {
  readonly hangNode: string | undefined;
  readonly log: (line: WorkerLogLine) => void;
  readonly hang: () => Promise<void>;
}): (key: string) => Promise<void> {
  const { hangNode, log, hang } = options;
  return async (key) => {
    const hangs = hangNode !== undefined && key.endsWith(`:${hangNode}`);
    log({ level: 'info', msg: 'step receipt committed', key, hang: hangs });
    if (hangs) await hang();
  };
}
