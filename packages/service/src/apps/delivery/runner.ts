import {
  type AppDeliveryRow,
  claimAppDeliveries,
  countAppDeliveryOutcome,
  settleAppDelivery,
} from '@cartwright/repository';
import type { Services } from '../../kernel/services.ts';

// The app-worker's deliveries (issue 16, decision 0040). Each due delivery is leased on its own
// (one lease per delivery) in a short transaction, POSTed with no transaction open, and settled in a
// second transaction fenced by its lease: the attempt joins the log, the delivery is delivered or
// waits for its next attempt (exponential backoff with jitter), and the app's circuit counts the
// outcome. A worker lost mid-attempt leaves the lease to expire: another worker sends the delivery
// again with the same delivery id (at least once), and the lost attempt's own outcome is never written.

export interface DeliveryPolicy {
  /** The pause after the first failed attempt; it doubles after each further one. */
  readonly baseMs: number;
  /** The longest pause. */
  readonly capMs: number;
  /** Attempts before the delivery is `failed` (a redelivery starts a fresh budget). */
  readonly maxAttempts: number;
  /** Consecutive failed attempts of an app in a shop that open its circuit. */
  readonly circuitThreshold: number;
}

/** 5 s, doubling, at most 4 hours; 16 attempts (about 20 hours); the circuit opens after 8 failures in a row. */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  baseMs: 5_000,
  capMs: 4 * 60 * 60_000,
  maxAttempts: 16,
  circuitThreshold: 8,
};

/**
 * The pause before the next attempt after `failures` failed ones: `baseMs · 2^(failures-1)`, at most
 * `capMs`, with "equal jitter" (between half and all of it), so deliveries that failed together
 * do not all come back together. `random` is in [0, 1).
 */
export function retryPauseMs(policy: DeliveryPolicy, failures: number, random: number): number {
  const exponential = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random);
}

export interface DeliveryRoundOptions {
  readonly owner: string;
  readonly leaseMs: number;
  readonly limit: number;
  readonly policy?: DeliveryPolicy;
  /** Jitter's source (tests pass a fixed one). */
  readonly random?: () => number;
}

export interface DeliveryRound {
  /** Deliveries attempted. */
  readonly ran: number;
  /** Circuits this round opened, for the worker's log. */
  readonly opened: readonly { readonly tenantId: string; readonly appId: string }[];
  /** Deliveries whose lease was lost before their outcome could be written. */
  readonly lost: number;
}

/** Claims up to `limit` due deliveries and attempts them together. */
export async function runDueDeliveries(
  services: Services,
  options: DeliveryRoundOptions,
): Promise<DeliveryRound> {
  const policy = options.policy ?? DEFAULT_DELIVERY_POLICY;
  const random = options.random ?? Math.random;
  const claimed = await services.database.transaction((tx) =>
    claimAppDeliveries(tx, options.owner, options.leaseMs, options.limit),
  );
  const opened: { tenantId: string; appId: string }[] = [];
  let lost = 0;
  await Promise.all(
    claimed.map(async (delivery) => {
      const settled = await attempt(services, options.owner, delivery, policy, random);
      if (settled === 'lost') lost += 1;
      else if (settled === 'opened') opened.push({ tenantId: delivery.tenantId, appId: delivery.appId });
    }),
  );
  return { ran: claimed.length, opened, lost };
}

async function attempt(
  services: Services,
  owner: string,
  delivery: AppDeliveryRow,
  policy: DeliveryPolicy,
  random: () => number,
): Promise<'settled' | 'opened' | 'lost'> {
  const startedAt = services.clock.now();
  const started = performance.now();
  const result = await services.appServices.deliver({
    tenantId: delivery.tenantId,
    appId: delivery.appId,
    deliveryId: delivery.id,
    event: {
      id: delivery.eventId,
      name: delivery.eventName,
      sequence: delivery.sequence,
      occurredAt: delivery.occurredAt.toISOString(),
      payload: delivery.payload,
    },
    timestamp: Math.floor(startedAt.getTime() / 1000),
  });
  const durationMs = Math.round(performance.now() - started);
  const failures = delivery.attempts + 1;
  const outcome = result.ok ? 'delivered' : 'failed';
  const next = result.ok
    ? ({ status: 'delivered' } as const)
    : failures >= policy.maxAttempts
      ? ({ status: 'failed' } as const)
      : ({ status: 'pending', retryAfterMs: retryPauseMs(policy, failures, random()) } as const);
  return services.database.transaction(async (tx) => {
    const written = await settleAppDelivery(
      tx,
      owner,
      delivery,
      {
        startedAt,
        durationMs,
        statusCode: result.status,
        outcome,
        error: result.ok ? null : `${result.code}: ${result.message}`,
      },
      next,
    );
    if (!written) return 'lost';
    const circuit = await countAppDeliveryOutcome(
      tx,
      delivery.tenantId,
      delivery.appId,
      outcome,
      policy.circuitThreshold,
    );
    const justOpened =
      circuit.openedAt !== null && !result.ok && circuit.consecutiveFailures === policy.circuitThreshold;
    return justOpened ? 'opened' : 'settled';
  });
}
