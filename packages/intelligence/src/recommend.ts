import { type HypothesisStatus, isPublic, isPublishable, type ShopStage } from './review.ts';
import { type RankablePair, rankPairs } from './scores.ts';

/** A pair with its review status, as recommendations read it. */
export interface RecommendablePair extends RankablePair {
  readonly status: HypothesisStatus;
}

/** A product to show beside another: its id and its place (1 = first). */
export interface Recommendation {
  readonly productId: string;
  readonly rank: number;
}

/** The most products recommended beside one product. */
export const RECOMMENDATION_LIMIT = 12;

/**
 * The products to recommend beside `productId`: the other product of each published pair holding
 * it whose evidence still allows publication, best pair first (`rankPairs`), each product once, at
 * most `limit`. Counts decide the order but never leave this function.
 */
export function recommendFor(
  productId: string,
  pairs: readonly RecommendablePair[],
  stage: ShopStage,
  limit = RECOMMENDATION_LIMIT,
): Recommendation[] {
  const eligible = pairs.filter(
    (pair) =>
      (pair.a === productId || pair.b === productId) &&
      pair.a !== pair.b &&
      isPublic(pair.status) &&
      isPublishable(pair.counts, stage),
  );
  const seen = new Set<string>();
  const answer: Recommendation[] = [];
  for (const pair of rankPairs(eligible)) {
    const other = pair.a === productId ? pair.b : pair.a;
    if (seen.has(other)) continue;
    seen.add(other);
    answer.push({ productId: other, rank: answer.length + 1 });
    if (answer.length >= limit) break;
  }
  return answer;
}
