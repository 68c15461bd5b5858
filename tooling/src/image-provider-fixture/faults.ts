import { createFaultQueue } from '../fault-queue.ts';

/**
 * Failures an image provider shows its caller, injected into the next matching call(s):
 * - `status`: answer `status` (500 to 599; 500 by default) with the provider's error body;
 * - `refuse`: answer `status` (400 to 499; 400 by default) with the provider's error body
 *   (`code` e.g. `content_policy_violation`, `rate_limit_exceeded`);
 * - `not-image`: answer 200 whose `b64_json` decodes to text, not an image;
 * - `bomb`: answer 200 whose `b64_json` is a small PNG declaring `width × height` pixels
 *   (100,000 × 100,000 by default) over a zlib stream of zeros;
 * - `oversized`: answer 200 with a `b64_json` of `bytes` (21 MiB by default), streamed without a
 *   Content-Length, so only a limit on the stream notices;
 * - `slow`: hold the answer `delayMs` (default 1000), then answer normally;
 * - `drop`: destroy the connection before answering;
 * - `cut`: send a 200's headers and the start of its body, then destroy the connection.
 */
export type ImageProviderFaultKind =
  | 'status'
  | 'refuse'
  | 'not-image'
  | 'bomb'
  | 'oversized'
  | 'slow'
  | 'drop'
  | 'cut';

/** The fixture's two endpoints. */
export type ImageEndpoint = 'generations' | 'edits';

export interface ImageProviderFault {
  readonly kind: ImageProviderFaultKind;
  /** Only calls of this endpoint; both when absent. */
  readonly endpoint?: ImageEndpoint;
  /** How many matching calls it affects; 1 by default. */
  readonly times?: number;
  /** For `status` and `refuse`. */
  readonly status?: number;
  /** For `status` and `refuse`: the error's `code` and `message`. */
  readonly code?: string;
  readonly message?: string;
  /** For `slow`. */
  readonly delayMs?: number;
  /** For `bomb`. */
  readonly width?: number;
  readonly height?: number;
  /** For `oversized`: the bytes of the base64 text sent. */
  readonly bytes?: number;
}

/** Pending faults, consumed first-added first. */
export function createImageProviderFaults() {
  return createFaultQueue(
    (fault: ImageProviderFault, endpoint: ImageEndpoint) =>
      fault.endpoint === undefined || fault.endpoint === endpoint,
    (fault) => {
      const { status } = fault;
      if (fault.kind === 'status' && status !== undefined && !(status >= 500 && status <= 599))
        throw new Error('failNext: a status fault answers 500 to 599');
      if (fault.kind === 'refuse' && status !== undefined && !(status >= 400 && status <= 499))
        throw new Error('failNext: a refuse fault answers 400 to 499');
    },
  );
}
