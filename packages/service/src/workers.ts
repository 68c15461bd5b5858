import {
  APP_DELIVERIES_CHANNEL,
  FLOW_JOBS_CHANNEL,
  MEDIA_DRAFTS_CHANNEL,
  OUTBOX_CHANNEL,
  PAYMENT_JOBS_CHANNEL,
  releaseAllLeases,
} from '@cartwright/repository';
import { appDeliveryMatchingProjection } from './apps/delivery/matching.ts';
import { runDueDeliveries } from './apps/delivery/runner.ts';
import { APP_SCHEDULES_CHANNEL, runDueSchedules } from './apps/schedules.ts';
import { runDueJobs } from './flows/executor.ts';
import { flowMatchingProjection } from './flows/matching.ts';
import { intelligenceEvidenceProjection } from './intelligence/evidence.ts';
import type { Runner, WorkerLogLine } from './kernel/process-roles.ts';
import type { Services } from './kernel/services.ts';
import { runDueMediaDrafts } from './media/draft-worker.ts';
import { customerHistoryProjection } from './outbox/customer-history.ts';
import { consumeOnce, eventStatisticsProjection, type Projection } from './outbox/projections.ts';
import { runDuePaymentJobs, sweepQuietAttempts } from './payments/jobs.ts';

// The one list of background work. The worker host runs the runners of its roles in a generic
// loop (NOTIFY on `wake` + polling + graceful stop); a new projection or job kind is one entry here.

export type ServiceRunner = Runner<Services>;

/** Every projection the service runs. */
export const projections: readonly Projection[] = [
  eventStatisticsProjection,
  customerHistoryProjection,
  intelligenceEvidenceProjection,
  flowMatchingProjection,
  appDeliveryMatchingProjection,
];

/** A projection as a runner: each round leases one shop whose outbox is ahead and applies its backlog. */
export function projectionRunner(projection: Projection): ServiceRunner {
  return {
    name: projection.name,
    kind: 'projection',
    role: projection.role,
    wake: OUTBOX_CHANNEL,
    async round(services, options) {
      const report = await consumeOnce(services, projection, options);
      const fields = {
        owner: options.owner,
        projection: projection.name,
        tenantId: report.tenantId,
        applied: report.applied,
      };
      const lines: WorkerLogLine[] = report.leaseLost
        ? [{ level: 'warn', msg: 'lease lost', ...fields }]
        : report.applied > 0
          ? [{ level: 'info', msg: 'applied', ...fields }]
          : [];
      return { busy: report.tenantId !== null, lines };
    },
  };
}

/** Flow jobs: each round claims a batch of due jobs and moves them to their next wait or end. */
export const flowRunner: ServiceRunner = {
  name: 'flow-runner',
  kind: 'jobs',
  role: 'app-worker',
  wake: FLOW_JOBS_CHANNEL,
  async round(services, options) {
    // A job left uncertain needs a merchant's resolution: each one is a warning with its id.
    const lines: WorkerLogLine[] = [];
    const ran = await runDueJobs(services, {
      owner: options.owner,
      leaseMs: options.leaseMs,
      batchSize: options.jobBatchSize,
      signal: options.signal,
      afterReceipt: options.afterReceipt,
      onUncertain: (job) =>
        lines.push({ level: 'warn', msg: 'flow job uncertain', owner: options.owner, ...job }),
    });
    if (ran > 0) lines.push({ level: 'info', msg: 'flow jobs ran', owner: options.owner, jobs: ran });
    return { busy: ran > 0, lines };
  },
};

/**
 * Payment jobs: each round claims a batch of due provider calls and decides their answers. A job
 * left uncertain or failed needs a merchant's look: each one is a warning with its ids.
 */
/** How often a process sweeps for quiet attempts (each sweep is one query across shops). */
const SWEEP_EVERY_MS = 60_000;
let sweptAt = 0;

export const paymentRunner: ServiceRunner = {
  name: 'payment-runner',
  kind: 'jobs',
  role: 'payment-worker',
  wake: PAYMENT_JOBS_CHANNEL,
  async round(services, options) {
    const now = Date.now();
    const sweep = now - sweptAt >= SWEEP_EVERY_MS;
    if (sweep) sweptAt = now;
    const swept = sweep ? await sweepQuietAttempts(services) : 0;
    const round = await runDuePaymentJobs(services, {
      owner: options.owner,
      leaseMs: options.leaseMs,
      limit: options.jobBatchSize,
    });
    const lines: WorkerLogLine[] = round.unresolved.map((job) => ({
      level: 'warn',
      msg: 'payment job unresolved',
      owner: options.owner,
      ...job,
    }));
    if (swept > 0) {
      lines.push({ level: 'info', msg: 'quiet payments swept', owner: options.owner, attempts: swept });
    }
    if (round.ran > 0)
      lines.push({ level: 'info', msg: 'payment jobs ran', owner: options.owner, jobs: round.ran });
    return { busy: round.ran > 0 || swept > 0, lines };
  },
};

/**
 * App deliveries: each round claims a batch of due deliveries (one lease each) and attempts them
 * together. A circuit that opened is a warning with its shop and app.
 */
export const appDeliveryRunner: ServiceRunner = {
  name: 'app-delivery-runner',
  kind: 'jobs',
  role: 'app-worker',
  wake: APP_DELIVERIES_CHANNEL,
  async round(services, options) {
    const round = await runDueDeliveries(services, {
      owner: options.owner,
      leaseMs: options.leaseMs,
      limit: options.jobBatchSize,
    });
    const lines: WorkerLogLine[] = round.opened.map((circuit) => ({
      level: 'warn',
      msg: 'app delivery circuit opened',
      owner: options.owner,
      ...circuit,
    }));
    if (round.ran > 0) {
      lines.push({ level: 'info', msg: 'app deliveries ran', owner: options.owner, deliveries: round.ran });
    }
    return { busy: round.ran > 0, lines };
  },
};

/**
 * App schedules: each round claims a batch of due schedules of live shops and commits each one's
 * tick with its event. Ticks come with time, so polling drives it.
 */
export const scheduleRunner: ServiceRunner = {
  name: 'schedule-runner',
  kind: 'jobs',
  role: 'app-worker',
  wake: APP_SCHEDULES_CHANNEL,
  async round(services, options) {
    const round = await runDueSchedules(services, {
      owner: options.owner,
      leaseMs: options.leaseMs,
      limit: options.jobBatchSize,
    });
    const lines: WorkerLogLine[] = [];
    if (round.emitted > 0)
      lines.push({ level: 'info', msg: 'schedule ticks', owner: options.owner, ticks: round.emitted });
    if (round.lost > 0)
      lines.push({ level: 'warn', msg: 'schedule leases lost', owner: options.owner, schedules: round.lost });
    return { busy: round.claimed > 0, lines };
  },
};

/**
 * Image drafts: each round claims a few pending drafts and makes each one's single provider call,
 * one at a time (an image decode holds tens of MiB). A failed draft is a warning with its reason.
 */
export const mediaDraftRunner: ServiceRunner = {
  name: 'media-draft-runner',
  kind: 'jobs',
  role: 'media-worker',
  wake: MEDIA_DRAFTS_CHANNEL,
  async round(services, options) {
    const round = await runDueMediaDrafts(services, {
      owner: options.owner,
      leaseMs: options.leaseMs,
      limit: Math.min(options.jobBatchSize, MEDIA_DRAFTS_PER_ROUND),
      afterReceipt: options.afterReceipt,
    });
    const lines: WorkerLogLine[] = round.failed.map((draft) => ({
      level: 'warn',
      msg: 'image draft failed',
      owner: options.owner,
      ...draft,
    }));
    if (round.ready > 0)
      lines.push({ level: 'info', msg: 'image drafts ready', owner: options.owner, drafts: round.ready });
    if (round.lost > 0)
      lines.push({ level: 'warn', msg: 'image draft leases lost', owner: options.owner, drafts: round.lost });
    return { busy: round.claimed > 0, lines };
  },
};
/** Drafts one round takes: each is a provider call of up to minutes and an image in memory. */
const MEDIA_DRAFTS_PER_ROUND = 2;

/** Every runner of the service, projections first. */
export const runners: readonly ServiceRunner[] = [
  ...projections.map(projectionRunner),
  flowRunner,
  paymentRunner,
  appDeliveryRunner,
  scheduleRunner,
  mediaDraftRunner,
];

/** Gives back every lease this owner holds (graceful shutdown). */
export async function releaseLeases(services: Services, owner: string): Promise<void> {
  await services.database.transaction((tx) => releaseAllLeases(tx, owner));
}
