import { createFaultQueue } from '../fault-queue.ts';
/**
 * Faults injected into the next matching call(s), for adapters' retry and timeout paths. They are
 * transport failures PayPal's callers must survive, not part of the contract itself.
 * - `status-500` / `status-503`: answered with the standard 5xx body (§6), nothing performed;
 * - `drop-after-performing`: the operation happens, then the socket is destroyed unanswered;
 * - `timeout`: never answered (until the client gives up); performed only with `performs: true`;
 * - `slow`: held `delayMs` before being performed and answered (an idempotency key stays in flight
 *   meanwhile, so a duplicate sent in that window meets 409, §3);
 * - `oversized`: performed, answered with the real body padded beyond 64 KiB.
 */
export type FaultKind =
  | 'status-500'
  | 'status-503'
  | 'drop-after-performing'
  | 'timeout'
  | 'slow'
  | 'oversized';

export interface FaultRule {
  /** Exact pathname (no query), or a pattern tested against it. */
  readonly path: RegExp | string;
  /** Any method when absent. */
  readonly method?: string;
  /** How many matching calls it affects; 1 by default. */
  readonly times?: number;
  readonly kind: FaultKind;
  /** For `slow` (default 1000 ms). */
  readonly delayMs?: number;
  /** For `timeout`: perform the operation before going silent (default false). */
  readonly performs?: boolean;
}

/** Bytes an `oversized` answer is padded to at least: past a 64 KiB response cap. */
export const OVERSIZED_BYTES = 64 * 1024 + 1024;

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method !== undefined && rule.method.toUpperCase() !== method) return false;
  return typeof rule.path === 'string' ? rule.path === path : rule.path.test(path);
}

/** Pending fault rules, consumed first-added first. */
export function createPaypalFaults() {
  return createFaultQueue(matches);
}
