import { createFaultQueue } from '../fault-queue.ts';
/**
 * Failures an app's external service shows its caller, injected into the next matching call(s):
 * - `status`: answer `status` (500 to 599; 503 by default) with a JSON `{detail}`;
 * - `refuse`: answer `status` (400 to 499; 422 by default) with a JSON `{detail}`;
 * - `slow`: hold the answer `delayMs` (default 1000), then answer normally;
 * - `oversized`: answer 200 with a JSON object over 64 KiB (`declareLength` sends Content-Length,
 *   else it is streamed without one, so only a stream limit catches it);
 * - `not-json`: answer 200 with a text body; `not-utf8`: 200 with bytes that are not UTF-8;
 * - `redirect`: answer 307 to `location`;
 * - `drop`: destroy the connection without answering;
 * - `cut`: send a 200's headers and part of its body, then destroy the connection.
 * `performs: true` runs the action's handler (recording its effect) before the fault applies.
 */
export type AppServiceFaultKind =
  | 'status'
  | 'refuse'
  | 'slow'
  | 'oversized'
  | 'not-json'
  | 'not-utf8'
  | 'redirect'
  | 'drop'
  | 'cut';

export interface AppServiceFault {
  readonly kind: AppServiceFaultKind;
  /** Only calls of this action; any action when absent. */
  readonly action?: string;
  /** How many matching calls it affects; 1 by default. */
  readonly times?: number;
  /** For `status` and `refuse`. */
  readonly status?: number;
  /** For `status` and `refuse`: the body's `detail` (a default otherwise). */
  readonly detail?: string;
  /** For `slow`. */
  readonly delayMs?: number;
  /** For `oversized`. */
  readonly declareLength?: boolean;
  /** For `redirect`. */
  readonly location?: string;
  /** Run the handler first (`slow` always does). Default false. */
  readonly performs?: boolean;
}

/** Bytes an `oversized` answer has at least: past a 64 KiB response cap. */
export const OVERSIZED_BYTES = 64 * 1024 + 1024;

/** Pending faults, consumed first-added first; a fault without `action` matches every call. */
export function createAppServiceFaults() {
  return createFaultQueue(
    (fault: AppServiceFault, action: string) => fault.action === undefined || fault.action === action,
    (fault) => {
      const { status } = fault;
      if (fault.kind === 'status' && status !== undefined && !(status >= 500 && status <= 599))
        throw new Error('failNext: a status fault answers 500 to 599');
      if (fault.kind === 'refuse' && status !== undefined && !(status >= 400 && status <= 499))
        throw new Error('failNext: a refuse fault answers 400 to 499');
    },
  );
}
