/**
 * The worker process of `src/main.ts` with the flow runner's test seam wired to variables, for
 * tests that SIGKILL a real process inside a flow step:
 * - every step receipt the process commits is reported on stderr as a JSON line
 *   `{"msg":"step receipt committed","key":…,"owner":…,"hang":…}`, before the action runs;
 * - `FLOW_HANG_NODE=<node>`: a step whose key ends with `:<node>` never gets past its receipt
 *   (the process hangs between the two phases until it is killed);
 * - `WORKER_OWNER`: the lease owner (default `flow-worker:<pid>`).
 * Otherwise as main.ts: PROCESS_ROLE, DATABASE_URL, WORKER_POLL_MS, WORKER_LEASE_MS; SIGTERM stops
 * gracefully.
 */
import { runWorkerProcess } from '../src/process.ts';
import { writeJsonLine } from '../src/workers.ts';
import { stepReceiptSeam } from './step-receipt-seam.ts';

const owner = process.env.WORKER_OWNER || `flow-worker:${process.pid}`;

runWorkerProcess({
  owner,
  afterReceipt: stepReceiptSeam({
    hangNode: process.env.FLOW_HANG_NODE || undefined,
    log: (line) => writeJsonLine({ ...line, owner }),
    // A timer far longer than any test keeps the process alive: only SIGKILL ends this step.
    hang: () => new Promise((resolve) => setTimeout(resolve, 2 ** 31 - 1)),
  }),
});
