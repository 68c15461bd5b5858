import { decideReview, type HypothesisStatus, type ReviewTarget } from '@cartwright/intelligence';
import {
  type Executor,
  findIntelligencePair,
  findTenant,
  type IntelligencePairRow,
  setIntelligencePairStatus,
} from '@cartwright/repository';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import type { Services } from '../kernel/services.ts';

// The merchant's review of a pair (decision 0045). The rules are `@cartwright/intelligence`'s
// `decideReview`; this module holds the pair's row while it decides and records the move.

/** A review request: the status to set at the revision the merchant saw. */
export interface HypothesisStatusChange {
  readonly id: string;
  readonly revision: number;
  readonly status: ReviewTarget;
  /** Needed (true) to publish; ignored for the other statuses. */
  readonly approve?: boolean | undefined;
}

/** The pair after the move. */
export interface ReviewedHypothesis {
  readonly id: string;
  readonly productAId: string;
  readonly productBId: string;
  readonly status: HypothesisStatus;
  readonly previousStatus: HypothesisStatus;
  readonly revision: number;
}

/**
 * Sets a pair's status inside the caller's transaction `tx` (so a plan of several operations can
 * commit or fail together): the pair's row is locked, the move decided, the row written at the
 * next revision, and `intelligence.hypothesis.reviewed` recorded in the same transaction.
 * Failures change nothing: NOT_FOUND (no such pair in this shop), STALE_REVISION (extensions
 * `expected`/`actual`), APPROVAL_REQUIRED (`published` without `approve: true`),
 * EVIDENCE_SIMULATED_ONLY (a live shop publishing a pair with simulated evidence only).
 * Permissions are the caller's to check (the operation needs `settings.write`).
 */
export async function setHypothesisStatus(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  change: HypothesisStatusChange,
): Promise<Result<ReviewedHypothesis>> {
  const pair = await findIntelligencePair(tx, tenantId, change.id, 'update');
  if (!pair) return fail('NOT_FOUND', `No pair ${change.id} exists in this shop.`);
  const stage = (await findTenant(tx, tenantId))?.stage ?? 'live';
  const decision = decideReview(
    { status: pair.status, revision: pair.revision, counts: pair },
    { status: change.status, revision: change.revision, approve: change.approve },
    stage,
  );
  if (!decision.ok) {
    if (decision.code === 'STALE_REVISION') return staleRevision(decision.actual, decision.expected);
    return fail(decision.code, decision.detail, { errors: errorsOf(decision.code) });
  }
  const row = await setIntelligencePairStatus(tx, tenantId, {
    id: pair.id,
    revision: pair.revision,
    status: decision.status,
    at: services.clock.now(),
  });
  // The row is locked, so the revision cannot have moved; a miss here is a bug, not a race.
  if (!row) throw new Error(`pair ${pair.id} vanished under its lock`);
  const reviewed = reviewedOf(row, pair.status);
  await recordEvent(tx, services, tenantId, actor, 'intelligence.hypothesis.reviewed', { ...reviewed });
  return ok(reviewed);
}

function errorsOf(code: 'APPROVAL_REQUIRED' | 'EVIDENCE_SIMULATED_ONLY') {
  return code === 'APPROVAL_REQUIRED'
    ? [{ pointer: '/approve', message: 'must be true to publish' }]
    : [{ pointer: '/status', message: 'only simulated evidence backs this pair' }];
}

function reviewedOf(row: IntelligencePairRow, previousStatus: HypothesisStatus): ReviewedHypothesis {
  return {
    id: row.id,
    productAId: row.productAId,
    productBId: row.productBId,
    status: row.status,
    previousStatus,
    revision: row.revision,
  };
}
