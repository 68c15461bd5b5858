import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideReview,
  HYPOTHESIS_STATUSES,
  type HypothesisStatus,
  isPublic,
  NO_COUNTS,
  REVIEW_TARGETS,
  type ReviewTarget,
  recommendFor,
  type SourceCounts,
} from './index.ts';

const observed: SourceCounts = { ...NO_COUNTS, observed: 2, simulated: 5 };
const simulatedOnly: SourceCounts = { ...NO_COUNTS, simulated: 5 };

describe('decideReview (the spec’s hypothesis table)', () => {
  const rows: { from: HypothesisStatus; to: ReviewTarget; approve?: boolean; answer: string }[] = [];
  for (const from of HYPOTHESIS_STATUSES) {
    rows.push({ from, to: 'dismissed', answer: 'dismissed' });
    rows.push({ from, to: 'experiment', answer: 'experiment' });
    rows.push({ from, to: 'published', approve: true, answer: 'published' });
    rows.push({ from, to: 'published', answer: 'APPROVAL_REQUIRED' });
    rows.push({ from, to: 'published', approve: false, answer: 'APPROVAL_REQUIRED' });
  }
  it.each(rows)('$from → $to (approve $approve): $answer', ({ from, to, approve, answer }) => {
    const decision = decideReview(
      { status: from, revision: 3, counts: observed },
      { status: to, revision: 3, approve },
      'live',
    );
    if (decision.ok) {
      expect(decision).toEqual({ ok: true, status: answer, revision: 4, changed: from !== to });
    } else {
      expect(decision.code).toBe(answer);
    }
  });

  it('refuses a stale revision before anything else', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...HYPOTHESIS_STATUSES),
        fc.constantFrom(...REVIEW_TARGETS),
        fc.boolean(),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100 }),
        (from, to, approve, revision, seen) => {
          fc.pre(revision !== seen);
          const decision = decideReview(
            { status: from, revision, counts: observed },
            { status: to, revision: seen, approve },
            'live',
          );
          expect(decision).toEqual({ ok: false, code: 'STALE_REVISION', expected: revision, actual: seen });
        },
      ),
    );
  });

  it('publishes simulated-only evidence in a sandbox shop only', () => {
    const request = { status: 'published', revision: 1, approve: true } as const;
    const pair = { status: 'candidate', revision: 1, counts: simulatedOnly } as const;
    expect(decideReview(pair, request, 'live')).toMatchObject({ ok: false, code: 'EVIDENCE_SIMULATED_ONLY' });
    expect(decideReview(pair, request, 'sandbox')).toMatchObject({ ok: true, status: 'published' });
  });

  it('makes only published pairs public', () => {
    expect(HYPOTHESIS_STATUSES.filter(isPublic)).toEqual(['published']);
  });
});

describe('recommendFor', () => {
  const totals = { ...NO_COUNTS, observed: 10 };
  const base = { countsA: { ...NO_COUNTS, observed: 5 }, countsB: { ...NO_COUNTS, observed: 5 }, totals };
  it('answers the other product of published pairs, best first, each once', () => {
    const pairs = [
      { a: 'x', b: 'y', status: 'published' as const, counts: { ...NO_COUNTS, observed: 1 }, ...base },
      { a: 'w', b: 'x', status: 'published' as const, counts: { ...NO_COUNTS, observed: 3 }, ...base },
      { a: 'x', b: 'z', status: 'dismissed' as const, counts: { ...NO_COUNTS, observed: 4 }, ...base },
      { a: 'v', b: 'x', status: 'experiment' as const, counts: { ...NO_COUNTS, observed: 4 }, ...base },
      { a: 'u', b: 'x', status: 'published' as const, counts: simulatedOnly, ...base },
      { a: 'q', b: 'r', status: 'published' as const, counts: { ...NO_COUNTS, observed: 9 }, ...base },
    ];
    expect(recommendFor('x', pairs, 'live')).toEqual([
      { productId: 'w', rank: 1 },
      { productId: 'y', rank: 2 },
    ]);
    expect(recommendFor('x', pairs, 'sandbox').map((r) => r.productId)).toEqual(['w', 'y', 'u']);
    expect(recommendFor('x', pairs, 'live', 1)).toHaveLength(1);
    expect(recommendFor('nothing', pairs, 'live')).toEqual([]);
  });
});
