import { type SourceCounts, trustedCount } from './evidence.ts';

// The merchant's review of a pair (the spec's "Intelligence hypothesis" state table). A pair is
// born `candidate` when its first evidence arrives; the merchant moves it with a revision-bound
// request to `dismissed`, `experiment` (marked for review; no trial starts) or `published` (only
// with `approve: true`). Every one of those moves is allowed from every state, the same state
// included (it still takes the revision forward). Refused: a stale revision, `published` without
// the approval, `published` for a pair whose only evidence is simulated in a live shop, and
// `candidate` as a target (no request can put a pair back; it is the state before any review).

export const HYPOTHESIS_STATUSES = ['candidate', 'dismissed', 'experiment', 'published'] as const;
export type HypothesisStatus = (typeof HYPOTHESIS_STATUSES)[number];

/** The states a review request may set. */
export const REVIEW_TARGETS = ['dismissed', 'experiment', 'published'] as const;
export type ReviewTarget = (typeof REVIEW_TARGETS)[number];

export const INITIAL_STATUS: HypothesisStatus = 'candidate';

/** A pair as the review sees it. */
export interface ReviewedPair {
  readonly status: HypothesisStatus;
  readonly revision: number;
  readonly counts: SourceCounts;
}

export interface ReviewRequest {
  readonly status: ReviewTarget;
  /** The revision the merchant saw. */
  readonly revision: number;
  readonly approve?: boolean | undefined;
}

/** A live shop's pairs publish on trusted evidence; a sandbox shop may publish simulated pairs for demos. */
export type ShopStage = 'live' | 'sandbox';

export type ReviewRefusal =
  | {
      readonly ok: false;
      readonly code: 'STALE_REVISION';
      readonly expected: number;
      readonly actual: number;
    }
  | { readonly ok: false; readonly code: 'APPROVAL_REQUIRED'; readonly detail: string }
  | { readonly ok: false; readonly code: 'EVIDENCE_SIMULATED_ONLY'; readonly detail: string };

export type ReviewDecision =
  | { readonly ok: true; readonly status: ReviewTarget; readonly revision: number; readonly changed: boolean }
  | ReviewRefusal;

/**
 * The review's answer: the pair's next status and revision (always one more), or why not. The
 * revision is checked first, so a stale request learns it is stale whatever else it asks.
 */
export function decideReview(pair: ReviewedPair, request: ReviewRequest, stage: ShopStage): ReviewDecision {
  if (request.revision !== pair.revision) {
    return { ok: false, code: 'STALE_REVISION', expected: pair.revision, actual: request.revision };
  }
  if (request.status === 'published') {
    if (request.approve !== true) {
      return { ok: false, code: 'APPROVAL_REQUIRED', detail: 'publishing a pair needs approve: true' };
    }
    if (!isPublishable(pair.counts, stage)) {
      return {
        ok: false,
        code: 'EVIDENCE_SIMULATED_ONLY',
        detail: 'a pair whose only evidence is simulated is published in sandbox shops only',
      };
    }
  }
  return {
    ok: true,
    status: request.status,
    revision: pair.revision + 1,
    changed: request.status !== pair.status,
  };
}

/** Whether evidence may back a published pair: trusted evidence, or any evidence in a sandbox shop. */
export function isPublishable(counts: SourceCounts, stage: ShopStage): boolean {
  return trustedCount(counts) > 0 || (stage === 'sandbox' && counts.simulated > 0);
}

/** Whether a pair in `status` feeds public recommendations. */
export function isPublic(status: HypothesisStatus): boolean {
  return status === 'published';
}
