import { type ProductPair, pairKey, type SourceCounts, trustedCount } from './evidence.ts';

/** The counts association scores are computed from, all of one set of sources. */
export interface PairCounts {
  /** Baskets holding both products. */
  readonly both: number;
  /** Baskets holding product `a`. */
  readonly a: number;
  /** Baskets holding product `b`. */
  readonly b: number;
  /** Baskets in all. */
  readonly baskets: number;
}

/**
 * Association scores of a pair: `support` = both / baskets, `confidenceAB` = both / a (how often a
 * basket with `a` also holds `b`), `confidenceBA` = both / b, `lift` = both · baskets / (a · b)
 * (above 1: bought together more often than chance). A score whose denominator is zero is null.
 */
export interface PairScores {
  readonly support: number | null;
  readonly confidenceAB: number | null;
  readonly confidenceBA: number | null;
  readonly lift: number | null;
}

const ratio = (numerator: number, denominator: number) => (denominator > 0 ? numerator / denominator : null);

/** The association scores of `counts` (see `PairScores`). */
export function scorePair(counts: PairCounts): PairScores {
  return {
    support: ratio(counts.both, counts.baskets),
    confidenceAB: ratio(counts.both, counts.a),
    confidenceBA: ratio(counts.both, counts.b),
    lift: ratio(counts.both * counts.baskets, counts.a * counts.b),
  };
}

/** A pair with its counts per source, as ranking reads it. */
export interface RankablePair extends ProductPair {
  readonly counts: SourceCounts;
  readonly countsA: SourceCounts;
  readonly countsB: SourceCounts;
  readonly totals: SourceCounts;
}

/** The counts of the trusted sources (observed, manual, sandbox) summed, simulated left out. */
export function trustedPairCounts(pair: RankablePair): PairCounts {
  return {
    both: trustedCount(pair.counts),
    a: trustedCount(pair.countsA),
    b: trustedCount(pair.countsB),
    baskets: trustedCount(pair.totals),
  };
}

/** The simulated counts alone. */
export function simulatedPairCounts(pair: RankablePair): PairCounts {
  return {
    both: pair.counts.simulated,
    a: pair.countsA.simulated,
    b: pair.countsB.simulated,
    baskets: pair.totals.simulated,
  };
}

/** The key ranking sorts by, biggest first, component by component. */
function rankKey(pair: RankablePair): number[] {
  const trusted = trustedPairCounts(pair);
  const evidence = trusted.both > 0 ? trusted : simulatedPairCounts(pair);
  const scores = scorePair(evidence);
  return [
    trusted.both > 0 ? 1 : 0,
    evidence.both,
    Math.max(scores.confidenceAB ?? 0, scores.confidenceBA ?? 0),
    scores.lift ?? 0,
  ];
}

/**
 * Pairs best first: every pair with trusted evidence before any pair with simulated evidence only
 * (simulation may illustrate, never outrank what shoppers did); then more baskets holding both,
 * then the higher of the two confidences, then lift; equal pairs in the order of their keys, so
 * the ranking is a total order and does not depend on the input's order.
 */
export function rankPairs<P extends RankablePair>(pairs: readonly P[]): P[] {
  const keyed = pairs.map((pair) => ({ pair, key: rankKey(pair), id: pairKey(pair) }));
  keyed.sort((left, right) => {
    for (let i = 0; i < left.key.length; i++) {
      const difference = right.key[i]! - left.key[i]!;
      if (difference !== 0) return difference;
    }
    return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
  });
  return keyed.map((entry) => entry.pair);
}
