import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_COUNTS, type RankablePair, rankPairs, type SourceCounts, scorePair } from './index.ts';

describe('scorePair', () => {
  it.each([
    // 10 baskets; a in 5, b in 4, both in 2.
    {
      counts: { both: 2, a: 5, b: 4, baskets: 10 },
      scores: { support: 0.2, confidenceAB: 0.4, confidenceBA: 0.5, lift: 1 },
    },
    {
      counts: { both: 3, a: 3, b: 3, baskets: 6 },
      scores: { support: 0.5, confidenceAB: 1, confidenceBA: 1, lift: 2 },
    },
    {
      counts: { both: 1, a: 4, b: 5, baskets: 10 },
      scores: { support: 0.1, confidenceAB: 0.25, confidenceBA: 0.2, lift: 0.5 },
    },
    {
      counts: { both: 0, a: 0, b: 0, baskets: 0 },
      scores: { support: null, confidenceAB: null, confidenceBA: null, lift: null },
    },
  ])('$counts', ({ counts, scores }) => {
    expect(scorePair(counts)).toEqual(scores);
  });

  it('keeps support and confidence within 0..1 and lift symmetric for consistent counts', () => {
    const consistent = fc
      .record({ baskets: fc.integer({ min: 1, max: 1000 }), a: fc.nat(), b: fc.nat(), both: fc.nat() })
      .map(({ baskets, a, b, both }) => {
        const ca = (a % baskets) + 1;
        const cb = (b % baskets) + 1;
        return { baskets, a: ca, b: cb, both: both % (Math.min(ca, cb) + 1) };
      });
    fc.assert(
      fc.property(consistent, (counts) => {
        const scores = scorePair(counts);
        for (const value of [scores.support, scores.confidenceAB, scores.confidenceBA]) {
          expect(value).not.toBeNull();
          expect(value!).toBeGreaterThanOrEqual(0);
          expect(value!).toBeLessThanOrEqual(1);
        }
        const swapped = scorePair({ ...counts, a: counts.b, b: counts.a });
        expect(swapped.lift).toBe(scores.lift);
        expect(swapped.confidenceAB).toBe(scores.confidenceBA);
      }),
    );
  });
});

const counts = (values: Partial<SourceCounts>): SourceCounts => ({ ...NO_COUNTS, ...values });
const totals = counts({ observed: 30, simulated: 100 });
const pair = (a: string, b: string, both: Partial<SourceCounts>, ca = 10, cb = 10): RankablePair => ({
  a,
  b,
  counts: counts(both),
  countsA: counts({ observed: ca, simulated: 50 }),
  countsB: counts({ observed: cb, simulated: 50 }),
  totals,
});

describe('rankPairs', () => {
  it('puts trusted evidence first, then more baskets, then confidence, then lift', () => {
    const simulatedOnly = pair('s1', 's2', { simulated: 90 });
    const many = pair('m1', 'm2', { observed: 6 });
    const confident = pair('c1', 'c2', { observed: 3 }, 3, 20);
    const plain = pair('p1', 'p2', { observed: 3 }, 10, 10);
    const manual = pair('n1', 'n2', { manual: 4 });
    expect(rankPairs([simulatedOnly, plain, confident, manual, many]).map((p) => p.a)).toEqual([
      'm1',
      'n1',
      'c1',
      'p1',
      's1',
    ]);
  });

  it('is a total order that ignores the input order', () => {
    const arbitraryPair = fc
      .record({
        a: fc.constantFrom('a', 'b', 'c', 'd'),
        b: fc.constantFrom('e', 'f', 'g'),
        observed: fc.integer({ min: 0, max: 5 }),
        simulated: fc.integer({ min: 0, max: 5 }),
      })
      .map(({ a, b, observed, simulated }) => pair(a, b, { observed, simulated }));
    fc.assert(
      fc.property(fc.uniqueArray(arbitraryPair, { selector: (p) => `${p.a}|${p.b}` }), (pairs) => {
        const ranked = rankPairs(pairs);
        expect(rankPairs([...pairs].reverse())).toEqual(ranked);
        const firstSimulatedOnly = ranked.findIndex((p) => p.counts.observed === 0);
        if (firstSimulatedOnly >= 0) {
          expect(ranked.slice(firstSimulatedOnly).every((p) => p.counts.observed === 0)).toBe(true);
        }
      }),
    );
  });
});
