import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCount,
  BASKET_PAIR_LIMIT,
  basketEvidence,
  NO_COUNTS,
  orderSource,
  pairKey,
  pairOf,
  rememberSourceEvents,
  SOURCE_EVENT_LIMIT,
  trustedCount,
} from './index.ts';

describe('basketEvidence', () => {
  it.each([
    { basket: [], products: [], pairs: [] },
    { basket: ['a'], products: ['a'], pairs: [] },
    { basket: ['a', 'a', 'a'], products: ['a'], pairs: [] },
    { basket: ['b', 'a'], products: ['a', 'b'], pairs: ['a|b'] },
    { basket: ['b', 'a', 'b', 'a'], products: ['a', 'b'], pairs: ['a|b'] },
    { basket: ['c', 'a', 'b'], products: ['a', 'b', 'c'], pairs: ['a|b', 'a|c', 'b|c'] },
    {
      basket: ['d', 'c', 'b', 'a', 'c'],
      products: ['a', 'b', 'c', 'd'],
      pairs: ['a|b', 'a|c', 'a|d', 'b|c', 'b|d', 'c|d'],
    },
  ])('$basket → $pairs', ({ basket, products, pairs }) => {
    const evidence = basketEvidence(basket, 'observed');
    expect(evidence.source).toBe('observed');
    expect(evidence.products).toEqual(products);
    expect(evidence.pairs.map(pairKey)).toEqual(pairs);
  });

  it('gives no pairs above the basket limit but still every product', () => {
    const big = Array.from({ length: BASKET_PAIR_LIMIT + 1 }, (_, i) => `p${String(i).padStart(3, '0')}`);
    expect(basketEvidence(big, 'observed')).toMatchObject({ products: big, pairs: [] });
    expect(basketEvidence(big.slice(1), 'observed').pairs).toHaveLength(
      (BASKET_PAIR_LIMIT * (BASKET_PAIR_LIMIT - 1)) / 2,
    );
  });

  it('counts each unordered pair of distinct products exactly once, whatever the order and repeats', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 30 }), (basket) => {
        const evidence = basketEvidence(basket, 'simulated');
        const distinct = new Set(basket).size;
        expect(evidence.pairs).toHaveLength((distinct * (distinct - 1)) / 2);
        const keys = evidence.pairs.map(pairKey);
        expect(new Set(keys).size).toBe(keys.length);
        for (const pair of evidence.pairs) {
          expect(pair.a < pair.b).toBe(true);
          expect(basket).toContain(pair.a);
          expect(basket).toContain(pair.b);
        }
        const shuffled = [...basket].reverse().concat(basket);
        expect(basketEvidence(shuffled, 'simulated')).toEqual(evidence);
      }),
    );
  });
});

describe('pairOf', () => {
  it('is symmetric and refuses a product with itself', () => {
    expect(pairOf('x', 'x')).toBeNull();
    fc.assert(
      fc.property(fc.string(), fc.string(), (first, second) => {
        fc.pre(first !== second);
        expect(pairOf(first, second)).toEqual(pairOf(second, first));
      }),
    );
  });
});

describe('counts per source', () => {
  it('adds to one source only and leaves simulated out of the trusted count', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('observed', 'manual', 'simulated', 'sandbox' as const), { maxLength: 50 }),
        (sources) => {
          const counts = sources.reduce((sum, source) => addCount(sum, source), NO_COUNTS);
          expect(counts.observed).toBe(sources.filter((source) => source === 'observed').length);
          expect(counts.simulated).toBe(sources.filter((source) => source === 'simulated').length);
          expect(trustedCount(counts)).toBe(sources.filter((source) => source !== 'simulated').length);
        },
      ),
    );
  });

  it('labels a sandbox shop’s orders sandbox', () => {
    expect(orderSource('live')).toBe('observed');
    expect(orderSource('sandbox')).toBe('sandbox');
  });
});

describe('rememberSourceEvents', () => {
  it('keeps the newest events, each once, at most the limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 10 }), { maxLength: 10 }),
        (batches) => {
          let kept: ReturnType<typeof rememberSourceEvents> = [];
          for (const batch of batches) {
            const added = batch.map((n) => ({ id: `e${n}`, source: 'observed' as const }));
            const model = kept.map((event) => event.id);
            for (const event of added) if (!model.includes(event.id)) model.push(event.id);
            kept = rememberSourceEvents(kept, added);
            expect(kept.length).toBeLessThanOrEqual(SOURCE_EVENT_LIMIT);
            expect(new Set(kept.map((event) => event.id)).size).toBe(kept.length);
            expect(kept.map((event) => event.id)).toEqual(model.slice(-SOURCE_EVENT_LIMIT));
          }
        },
      ),
    );
  });
});
