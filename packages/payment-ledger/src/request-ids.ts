import * as v from 'valibot';

// Provider idempotency keys (`PayPal-Request-Id`, 1..108 characters) are derived from ledger ids,
// never generated per call: a retry after a lost answer, by any worker, sends the same key, and
// the provider answers the first result instead of charging or refunding twice. The suffix keeps
// the kinds apart, so no attempt id and refund id can ever produce the same key.

/** Ids the ledger mints for attempts and refunds (a UUID fits); they become part of provider keys. */
export const LedgerId = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be 1 to 64 letters, digits, "-" or "_"'),
);

export const PROVIDER_REQUEST_ID_MAX_LENGTH = 108;

export interface AttemptRequestIds {
  readonly create: string;
  readonly capture: string;
}

/** The keys of an attempt's provider commands: `cw-<attemptId>-create`, `cw-<attemptId>-capture`. */
export function attemptRequestIds(attemptId: string): AttemptRequestIds {
  return { create: `cw-${attemptId}-create`, capture: `cw-${attemptId}-capture` };
}

/** The key of a refund command: `cw-<refundId>-refund`. */
export function refundRequestId(refundId: string): string {
  return `cw-${refundId}-refund`;
}
