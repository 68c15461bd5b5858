import { resolveTranslated } from '@cartwright/commerce';
import {
  type HypothesisStatus,
  MERCHANT_PAIR_LIMIT,
  NO_COUNTS,
  type PairScores,
  type RankablePair,
  rankPairs,
  type SourceCounts,
  type SourceEvent,
  scorePair,
  simulatedPairCounts,
  trustedPairCounts,
} from '@cartwright/intelligence';
import {
  type Executor,
  findIntelligenceTotals,
  findProducts,
  findTenant,
  type IntelligencePairRow,
  listIntelligencePairs,
  listIntelligenceProducts,
} from '@cartwright/repository';
import { iso } from '../kernel/schemas.ts';

// The merchant's view of the shop's pairs: at most 24, best first, with the counts per source,
// the scores, the remembered source events and the review state.

/**
 * How many pairs, by most evidence, are ranked exactly for the merchant's view. The database
 * orders by evidence (the ranking's first two keys); the exact ranking then breaks ties by
 * confidence and lift among these.
 */
export const RANKED_CANDIDATES = 500;

export interface PairProduct {
  readonly id: string;
  /** Null once the product is deleted. */
  readonly sku: string | null;
  readonly name: string | null;
}

export interface HypothesisView {
  readonly id: string;
  readonly status: HypothesisStatus;
  readonly revision: number;
  readonly productA: PairProduct;
  readonly productB: PairProduct;
  /** Baskets holding both products, per source. */
  readonly counts: SourceCounts;
  /** Scores over the trusted sources (observed, manual, sandbox) and over simulated evidence alone. */
  readonly scores: { readonly trusted: PairScores; readonly simulated: PairScores };
  /** The latest source events (outbox event ids), newest last. */
  readonly sourceEvents: SourceEvent[];
  readonly reviewedAt: string | null;
  readonly updatedAt: string;
}

export interface IntelligenceView {
  /** Baskets per source in the shop. */
  readonly totals: SourceCounts;
  readonly items: HypothesisView[];
}

const countsOf = (row: SourceCounts | undefined): SourceCounts =>
  row
    ? { observed: row.observed, manual: row.manual, simulated: row.simulated, sandbox: row.sandbox }
    : NO_COUNTS;

interface RankedRow extends RankablePair {
  readonly row: IntelligencePairRow;
}

/** The pairs of `rows` with the marginal counts ranking needs, read in two statements. */
export async function rankablePairs(
  tx: Executor,
  tenantId: string,
  rows: readonly IntelligencePairRow[],
): Promise<{ totals: SourceCounts; pairs: RankedRow[] }> {
  const totals = countsOf(await findIntelligenceTotals(tx, tenantId));
  const productIds = [...new Set(rows.flatMap((row) => [row.productAId, row.productBId]))];
  const products = new Map(
    (await listIntelligenceProducts(tx, tenantId, productIds)).map((row) => [row.productId, countsOf(row)]),
  );
  const pairs = rows.map((row) => ({
    row,
    a: row.productAId,
    b: row.productBId,
    counts: countsOf(row),
    countsA: products.get(row.productAId) ?? NO_COUNTS,
    countsB: products.get(row.productBId) ?? NO_COUNTS,
    totals,
  }));
  return { totals, pairs };
}

/** The shop's best pairs (of `status` when given) for the merchant, names in `language` or the shop's. */
export async function listHypotheses(
  tx: Executor,
  tenantId: string,
  query: { readonly status?: HypothesisStatus | undefined; readonly language?: string | undefined },
): Promise<IntelligenceView> {
  const rows = await listIntelligencePairs(tx, tenantId, { status: query.status, limit: RANKED_CANDIDATES });
  const { totals, pairs } = await rankablePairs(tx, tenantId, rows);
  const best = rankPairs(pairs).slice(0, MERCHANT_PAIR_LIMIT);
  const mainLanguage = (await findTenant(tx, tenantId))?.mainLanguage ?? 'en';
  const language = query.language ?? mainLanguage;
  const productIds = [...new Set(best.flatMap((pair) => [pair.a, pair.b]))];
  const products = new Map((await findProducts(tx, tenantId, productIds)).map((row) => [row.id, row]));
  const productOf = (id: string): PairProduct => {
    const product = products.get(id);
    if (!product) return { id, sku: null, name: null };
    const name = product.translations
      ? (resolveTranslated(product.translations, 'name', language, mainLanguage)?.value ?? null)
      : null;
    return { id, sku: product.sku, name };
  };
  return {
    totals,
    items: best.map((pair) => ({
      id: pair.row.id,
      status: pair.row.status,
      revision: pair.row.revision,
      productA: productOf(pair.a),
      productB: productOf(pair.b),
      counts: pair.counts,
      scores: {
        trusted: scorePair(trustedPairCounts(pair)),
        simulated: scorePair(simulatedPairCounts(pair)),
      },
      sourceEvents: pair.row.sourceEvents,
      reviewedAt: iso(pair.row.reviewedAt),
      updatedAt: iso(pair.row.updatedAt),
    })),
  };
}
