import {
  type AttemptDecision,
  applyCaptureResponse,
  applyCreateResponse,
  applyRefundResponse,
  decideCancellation,
  markRefundSent,
  prepareCapture,
  prepareCreate,
  reconcile,
} from '@cartwright/payment-ledger';
import {
  claimPaymentJobs,
  type Executor,
  findOrder,
  findPaymentAttempt,
  findQuietAttempts,
  type PaymentJobRow,
  settlePaymentJob,
} from '@cartwright/repository';
import type { PaymentProvider, ProviderAnswer } from '../kernel/payment-provider.ts';
import type { Services } from '../kernel/services.ts';
import { type LoadedAttempt, loadAttempt, localOrderOf, storeDecision } from './attempts.ts';
import { queueReconcile } from './cancellation.ts';
import { providerOf } from './providers.ts';
import { runWebhookJob } from './webhooks.ts';

// The payment-worker's jobs. A job is one provider call (or a read to reconcile): it is leased in
// a short transaction, the call runs with no transaction open, and its answer is decided by the
// ledger and stored in a second transaction that holds the attempt's row lock and is fenced by
// the job's lease (a worker that lost its lease writes nothing). A lost or unreadable answer is
// never taken as a failure: the ledger keeps the attempt uncertain and reconciles before anything
// is sent again; reads that cannot reach the provider are retried with a growing pause, and after
// `MAX_TRIES` the job is left `uncertain` for the merchant to see.

/** How many times a job is tried before it is left for a person. */
export const MAX_TRIES = 8;

/** The pause before the next try: 1 s, 2 s, 4 s … at most 5 minutes. */
export function retryPauseMs(tries: number): number {
  return Math.min(2 ** Math.max(0, tries - 1) * 1000, 300_000);
}

/** How long an open attempt may go without any payment job before a sweep reads the provider. */
export const SWEEP_QUIET_MS = 10 * 60_000;

/**
 * Reconciles attempts the provider may have moved without telling us (no webhook, a buyer who
 * never came back, a pending capture that settled, an uncertain outcome) once they have been quiet
 * for `quietMs`: a buyer's abandoned approval expires at the provider, and the reconciliation then
 * releases its stock. Answers how many it queued.
 */
export async function sweepQuietAttempts(
  services: Services,
  options: { readonly quietMs?: number; readonly limit?: number } = {},
): Promise<number> {
  return services.database.transaction(async (tx) => {
    const quiet = await findQuietAttempts(tx, options.quietMs ?? SWEEP_QUIET_MS, options.limit ?? 50);
    let queued = 0;
    for (const attempt of quiet) {
      if (await queueReconcile(tx, services, attempt.tenantId, attempt.id)) queued += 1;
    }
    return queued;
  });
}

/** Thrown inside the deciding transaction to roll it back when the job's lease was lost. */
class LeaseLost extends Error {}

export interface PaymentRound {
  readonly ran: number;
  /** Jobs left uncertain or failed in this round, for the worker's log. */
  readonly unresolved: readonly {
    jobId: string;
    tenantId: string;
    attemptId: string;
    kind: string;
    status: string;
  }[];
}

/** Claims up to `limit` due payment jobs and runs each to its decision. */
export async function runDuePaymentJobs(
  services: Services,
  options: { readonly owner: string; readonly leaseMs: number; readonly limit: number },
): Promise<PaymentRound> {
  const jobs = await services.database.transaction((tx) =>
    claimPaymentJobs(tx, options.owner, options.leaseMs, options.limit),
  );
  const unresolved: PaymentRound['unresolved'][number][] = [];
  for (const job of jobs) {
    const status = await runJob(services, options.owner, job);
    if (status === 'uncertain' || status === 'failed') {
      unresolved.push({
        jobId: job.id,
        tenantId: job.tenantId,
        attemptId: job.attemptId,
        kind: job.kind,
        status,
      });
    }
  }
  return { ran: jobs.length, unresolved };
}

type Settled = 'done' | 'queued' | 'uncertain' | 'failed' | 'lost';

async function runJob(services: Services, owner: string, job: PaymentJobRow): Promise<Settled> {
  const { tenantId } = job;
  const row = await findPaymentAttempt(services.database.db, tenantId, job.attemptId);
  if (!row)
    return settle(services, owner, job, { status: 'failed', error: failure('NOT_FOUND', 'no such attempt') });
  const loaded = loadAttempt(row);
  const provider = providerOf(services, row);
  const mismatch = adapterMismatch(provider, loaded);
  if (mismatch && job.kind !== 'webhook') {
    return settle(services, owner, job, {
      status: 'uncertain',
      error: failure('ADAPTER_MISMATCH', mismatch),
    });
  }
  switch (job.kind) {
    case 'create': {
      const command = prepareCreate(loaded.attempt, loaded.state);
      if (!command.ok) return decide(services, owner, job, () => null);
      const order = await findOrder(services.database.db, tenantId, loaded.attempt.orderId);
      const base = `${services.payments.publicBaseUrl ?? ''}/payments`;
      const answer = await provider.createOrder(tenantId, {
        ...command.value,
        invoiceId: `${order?.number ?? ''}-${loaded.attempt.id.slice(-12)}`,
        returnUrl: `${base}/return/${tenantId}/${loaded.attempt.id}`,
        cancelUrl: `${base}/cancel/${tenantId}/${loaded.attempt.id}`,
      });
      return decide(services, owner, job, (current) =>
        applyCreateResponse(current.attempt, current.state, commandAnswer(answer)),
      );
    }
    case 'capture': {
      const step = prepareCapture(
        loaded.attempt,
        loaded.state,
        await localOrderOf(services.database.db, tenantId, loaded.attempt.orderId),
      );
      if (step.action === 'skip') {
        return decide(services, owner, job, async (current, tx) => {
          const local = await localOrderOf(tx, tenantId, current.attempt.orderId);
          const again = prepareCapture(current.attempt, current.state, local);
          return again.action === 'skip' ? again.decision : null;
        });
      }
      const answer = await provider.captureOrder(
        tenantId,
        step.command.providerOrderId,
        step.command.requestId,
      );
      return decide(services, owner, job, async (current, tx) =>
        applyCaptureResponse(
          current.attempt,
          current.state,
          readAnswer(answer),
          await localOrderOf(tx, tenantId, current.attempt.orderId),
        ),
      );
    }
    case 'reconcile': {
      const providerOrderId = loaded.state.providerOrderId;
      if (providerOrderId === null) {
        // No provider order to read yet: only a cancelled order has something to decide (an
        // attempt whose create was never sent is cancelled and its stock released).
        return decide(services, owner, job, async (current, tx) => {
          const local = await localOrderOf(tx, tenantId, current.attempt.orderId);
          if (local !== null && local.state !== 'cancelled') return null;
          const decided = decideCancellation(current.attempt, current.state, null);
          return decided.outcome === 'wait' ? null : decided;
        });
      }
      const answer = readAnswer(await provider.getOrder(tenantId, providerOrderId));
      if (answer.outcome === 'unknown') return retry(services, owner, job, answer.reason);
      return decide(services, owner, job, async (current, tx) =>
        reconcile(
          current.attempt,
          current.state,
          answer,
          await localOrderOf(tx, tenantId, current.attempt.orderId),
        ),
      );
    }
    case 'refund':
      return runRefund(services, owner, job, loaded, provider);
    case 'webhook':
      return runWebhookJob(services, owner, job);
    default:
      return settle(services, owner, job, {
        status: 'failed',
        error: failure('UNSUPPORTED_JOB', `payment job kind ${job.kind} is not run by this worker`),
      });
  }
}

/**
 * A refund: marked `sent` and stored before the provider is called (a worker lost during the
 * call leaves it sent, so the replay uses the same request id), then the answer is decided.
 */
async function runRefund(
  services: Services,
  owner: string,
  job: PaymentJobRow,
  loaded: LoadedAttempt,
  provider: PaymentProvider,
): Promise<Settled> {
  const refundId = job.subjectId ?? '';
  const ledger = loaded.refunds;
  const sent = ledger ? markRefundSent(ledger, refundId) : null;
  if (!sent?.ok) return decide(services, owner, job, () => null);
  const marked = await services.database.transaction(async (tx) => {
    const current = await lockedAttempt(tx, job);
    if (!current.refunds) return false;
    const again = markRefundSent(current.refunds, refundId);
    if (!again.ok) return false;
    await storeDecision(tx, services, current, { refunds: again.value.ledger, effects: [] });
    return true;
  });
  if (!marked) return decide(services, owner, job, () => null);
  const captureProviderId = loaded.state.capture?.id;
  if (!captureProviderId) return decide(services, owner, job, () => null);
  const answer = await provider.refundCapture(job.tenantId, captureProviderId, {
    requestId: sent.value.command.requestId,
    customId: sent.value.command.customId,
    amount: sent.value.command.amount,
  });
  return decide(services, owner, job, async (current) => {
    if (!current.refunds) return null;
    const decided = applyRefundResponse(current.refunds, refundId, readAnswer(answer));
    return decided.ok ? { refunds: decided.value.ledger, effects: decided.value.effects } : null;
  });
}

/** The attempt of a job, locked for the deciding transaction. */
async function lockedAttempt(tx: Executor, job: PaymentJobRow): Promise<LoadedAttempt> {
  const row = await findPaymentAttempt(tx, job.tenantId, job.attemptId, 'update');
  if (!row) throw new Error(`payment attempt ${job.attemptId} disappeared`);
  return loadAttempt(row);
}

type Decision =
  | AttemptDecision
  | { readonly refunds: LoadedAttempt['refunds']; readonly effects: AttemptDecision['effects'] }
  | null;

/**
 * Decides on the freshly locked attempt (the call may have raced a webhook or another job) and
 * stores the decision with the job's end, or nothing when the lease was lost.
 */
async function decide(
  services: Services,
  owner: string,
  job: PaymentJobRow,
  decideOn: (current: LoadedAttempt, tx: Executor) => Decision | Promise<Decision>,
): Promise<Settled> {
  try {
    return await services.database.transaction(async (tx) => {
      const current = await lockedAttempt(tx, job);
      const decision = await decideOn(current, tx);
      if (decision) await storeDecision(tx, services, current, decision);
      if (!(await settlePaymentJob(tx, owner, job.tenantId, job.id, { status: 'done' })))
        throw new LeaseLost();
      return 'done' as const;
    });
  } catch (error) {
    if (error instanceof LeaseLost) return 'lost';
    throw error;
  }
}

/**
 * Why this process may not speak for the attempt: an attempt is reconciled only with the
 * environment, contract label and adapter version it was created with (an account switched from
 * sandbox to live, or a process on another adapter version, must not touch it). `provider` is the
 * attempt's own adapter (`providerOf`). Null when it may.
 */
function adapterMismatch(provider: PaymentProvider, loaded: LoadedAttempt): string | null {
  const account = provider.accountOf(loaded.row.tenantId);
  if (!account) return null;
  const { environment, contractFixture, adapterVersion } = loaded.attempt;
  if (
    account.environment === environment &&
    account.contractFixture === contractFixture &&
    account.adapterVersion === adapterVersion
  ) {
    return null;
  }
  const label = (env: string, fixture: boolean, version: number) =>
    `${env}${fixture ? ' (contract fixture)' : ''}, adapter ${version}`;
  return `the attempt was made in ${label(environment, contractFixture, adapterVersion)}; this process's account is ${label(account.environment, account.contractFixture, account.adapterVersion)}: reconcile it with the original adapter`;
}

/** A read that could not reach the provider: try again later, or leave it for a person. */
function retry(services: Services, owner: string, job: PaymentJobRow, reason: string): Promise<Settled> {
  const error = failure('PROVIDER_UNREACHABLE', reason);
  if (job.tries >= MAX_TRIES) return settle(services, owner, job, { status: 'uncertain', error });
  const availableAt = new Date(services.clock.now().getTime() + retryPauseMs(job.tries));
  return settle(services, owner, job, { status: 'queued', availableAt, error });
}

async function settle(
  services: Services,
  owner: string,
  job: PaymentJobRow,
  outcome: Parameters<typeof settlePaymentJob>[4],
): Promise<Settled> {
  const written = await services.database.transaction((tx) =>
    settlePaymentJob(tx, owner, job.tenantId, job.id, outcome),
  );
  return written ? outcome.status : 'lost';
}

const failure = (code: string, message: string) => ({ code, message: message.slice(0, 500) });

/** Why a provider answered not-configured: no account, or an app gone from the shop or this process. */
const NOT_CONFIGURED =
  'the provider is not configured for the shop (no account; or the app is uninstalled, serves no payment or has no service endpoint)';

/**
 * A port answer as the ledger reads it. A shop whose account (or app) was removed meanwhile cannot
 * be asked: that is an unknown outcome (the money may have moved), never a refusal.
 */
function readAnswer<T>(answer: ProviderAnswer<T>) {
  return answer.outcome === 'not-configured'
    ? ({ outcome: 'unknown', reason: NOT_CONFIGURED } as const)
    : answer;
}

/** Before a provider order exists, no account means nothing was sent: a definite refusal. */
function commandAnswer<T>(answer: ProviderAnswer<T>) {
  return answer.outcome === 'not-configured'
    ? ({
        outcome: 'refused',
        status: 0,
        issue: 'NOT_CONFIGURED',
        detail: NOT_CONFIGURED,
      } as const)
    : answer;
}
