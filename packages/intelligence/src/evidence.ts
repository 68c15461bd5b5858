// Pair evidence: what one basket (an order, or a simulated or manual basket) says about which
// products are bought together. Evidence carries its source label from the start, and counts are
// kept per source, so simulated, manual and sandbox evidence can never be added to observed counts.

/** Where a basket came from. */
export const EVIDENCE_SOURCES = ['observed', 'manual', 'simulated', 'sandbox'] as const;
export type EvidenceSource = (typeof EVIDENCE_SOURCES)[number];

/**
 * The sources a merchant's decision may rest on: real orders of a live shop, the merchant's own
 * entries, and real orders of a sandbox shop (which has no observed orders). Simulated evidence is
 * for demonstrations and never counts as any of them.
 */
export const TRUSTED_SOURCES = ['observed', 'manual', 'sandbox'] as const satisfies readonly EvidenceSource[];

/** Baskets per source. */
export type SourceCounts = Readonly<Record<EvidenceSource, number>>;

export const NO_COUNTS: SourceCounts = { observed: 0, manual: 0, simulated: 0, sandbox: 0 };

/** The latest source events a pair keeps; older ones are dropped first. */
export const SOURCE_EVENT_LIMIT = 20;

/**
 * A basket with more distinct products than this feeds product and basket counts but no pairs:
 * such orders are bulk purchases that say little about what goes together, and their pairs grow
 * quadratically (40 products are 780 pairs).
 */
export const BASKET_PAIR_LIMIT = 40;

/** An unordered pair of distinct products, `a` < `b` (code-unit order of the ids). */
export interface ProductPair {
  readonly a: string;
  readonly b: string;
}

/** One piece of evidence a pair remembers: the event (or simulation run) and its source. */
export interface SourceEvent {
  readonly id: string;
  readonly source: EvidenceSource;
}

/** What one basket adds: every distinct product once, and every unordered pair once. */
export interface BasketEvidence {
  readonly source: EvidenceSource;
  readonly products: readonly string[];
  readonly pairs: readonly ProductPair[];
}

const compareIds = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0);

/** The canonical pair of two distinct products, or null for a product with itself. */
export function pairOf(first: string, second: string): ProductPair | null {
  if (first === second) return null;
  return first < second ? { a: first, b: second } : { a: second, b: first };
}

/** The key of a pair (`a|b`), equal for both orders of the same two products. */
export function pairKey(pair: ProductPair): string {
  return `${pair.a}|${pair.b}`;
}

/**
 * The evidence of one basket of product ids (with repeats: an order may hold a product on several
 * lines). Each distinct product counts once and each unordered pair of distinct products counts
 * once; a product never pairs with itself. Products and pairs come sorted, so equal baskets give
 * equal evidence. Above `BASKET_PAIR_LIMIT` distinct products the basket gives no pairs.
 */
export function basketEvidence(productIds: readonly string[], source: EvidenceSource): BasketEvidence {
  const products = [...new Set(productIds)].sort(compareIds);
  const pairs: ProductPair[] = [];
  if (products.length <= BASKET_PAIR_LIMIT) {
    for (let i = 0; i < products.length; i++) {
      for (let j = i + 1; j < products.length; j++) pairs.push({ a: products[i]!, b: products[j]! });
    }
  }
  return { source, products, pairs };
}

/** The source label of a real order: `sandbox` in a sandbox shop, `observed` in a live one. */
export function orderSource(stage: 'live' | 'sandbox'): EvidenceSource {
  return stage === 'sandbox' ? 'sandbox' : 'observed';
}

/** `counts` with `by` baskets added to `source`; the other sources are untouched. */
export function addCount(counts: SourceCounts, source: EvidenceSource, by = 1): SourceCounts {
  return { ...counts, [source]: counts[source] + by };
}

/** Baskets of the trusted sources (everything but simulated). */
export function trustedCount(counts: SourceCounts): number {
  return TRUSTED_SOURCES.reduce((sum, source) => sum + counts[source], 0);
}

/**
 * A pair's remembered source events after `added`: newest last, an id already present is not
 * repeated, and only the last `limit` are kept.
 */
export function rememberSourceEvents(
  kept: readonly SourceEvent[],
  added: readonly SourceEvent[],
  limit = SOURCE_EVENT_LIMIT,
): SourceEvent[] {
  const seen = new Set(kept.map((event) => event.id));
  const next = [...kept];
  for (const event of added) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    next.push(event);
  }
  return next.slice(Math.max(0, next.length - limit));
}
