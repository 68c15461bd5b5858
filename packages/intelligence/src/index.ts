// The public door of @cartwright/intelligence: named exports only.
export {
  addCount,
  BASKET_PAIR_LIMIT,
  type BasketEvidence,
  basketEvidence,
  EVIDENCE_SOURCES,
  type EvidenceSource,
  NO_COUNTS,
  orderSource,
  type ProductPair,
  pairKey,
  pairOf,
  rememberSourceEvents,
  SOURCE_EVENT_LIMIT,
  type SourceCounts,
  type SourceEvent,
  TRUSTED_SOURCES,
  trustedCount,
} from './evidence.ts';
export {
  RECOMMENDATION_LIMIT,
  type RecommendablePair,
  type Recommendation,
  recommendFor,
} from './recommend.ts';
export {
  decideReview,
  HYPOTHESIS_STATUSES,
  type HypothesisStatus,
  INITIAL_STATUS,
  isPublic,
  isPublishable,
  REVIEW_TARGETS,
  type ReviewDecision,
  type ReviewedPair,
  type ReviewRefusal,
  type ReviewRequest,
  type ReviewTarget,
  type ShopStage,
} from './review.ts';
export {
  type PairCounts,
  type PairScores,
  type RankablePair,
  rankPairs,
  scorePair,
  simulatedPairCounts,
  trustedPairCounts,
} from './scores.ts';

/** The most pairs the merchant's intelligence response holds (spec, Limits). */
export const MERCHANT_PAIR_LIMIT = 24;
