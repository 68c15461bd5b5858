import { BASKET_PAIR_LIMIT, HYPOTHESIS_STATUSES, REVIEW_TARGETS } from '@cartwright/intelligence';
import { findBasis, findTenant } from '@cartwright/repository';
import * as v from 'valibot';
import { resolveStoreContext } from '../customers/contexts.ts';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { defineOperation, defineStoreOperation } from '../kernel/registry.ts';
import { CurrencyCode, LanguageCode, Revision, Timestamp, Uuid } from '../kernel/schemas.ts';
import { languageParameter, refuseDisabledLanguages } from '../settings/languages.ts';
import { listHypotheses } from './listing.ts';
import { recommendationsFor } from './recommendations.ts';
import { setHypothesisStatus } from './review.ts';
import { addLabelledEvidence, SIMULATION_BASKET_LIMIT } from './simulation.ts';

// Shop intelligence's operations (decision 0045). The merchant's side uses the settings
// permissions: reading pairs is `settings.read`, reviewing and adding evidence `settings.write`.

const Counts = v.object({
  observed: v.number(),
  manual: v.number(),
  simulated: v.number(),
  sandbox: v.number(),
});
const Scores = v.object({
  support: v.nullable(v.number()),
  confidenceAB: v.nullable(v.number()),
  confidenceBA: v.nullable(v.number()),
  lift: v.nullable(v.number()),
});
const PairProduct = v.object({ id: Uuid, sku: v.nullable(v.string()), name: v.nullable(v.string()) });
const Status = v.picklist(HYPOTHESIS_STATUSES);
const Hypothesis = v.object({
  id: Uuid,
  status: Status,
  revision: v.number(),
  productA: PairProduct,
  productB: PairProduct,
  counts: Counts,
  scores: v.object({ trusted: Scores, simulated: Scores }),
  sourceEvents: v.array(
    v.object({ id: Uuid, source: v.picklist(['observed', 'manual', 'simulated', 'sandbox']) }),
  ),
  reviewedAt: v.nullable(Timestamp),
  updatedAt: Timestamp,
});

export const listIntelligence = defineOperation({
  name: 'intelligence.list',
  summary:
    'At most 24 co-purchase pairs (hypotheses) of the shop, best first: both products, baskets holding both per source (observed, manual, simulated, sandbox), scores, the latest source event ids, status and revision.',
  http: { method: 'GET', path: '/api/intelligence' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({ status: v.optional(Status), language: v.optional(LanguageCode) }),
  output: v.object({ totals: Counts, items: v.array(Hypothesis) }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const refused = await refuseDisabledLanguages(db, { tenantId }, languageParameter(input.language));
    if (refused) return refused;
    return ok(await listHypotheses(db, tenantId, input));
  },
});

export const reviewIntelligence = defineOperation({
  name: 'intelligence.review',
  summary:
    'Sets a pair’s status at its revision: `dismissed`, `experiment` (marked for review; no trial starts) or `published` (needs `approve: true`; the pair then feeds public recommendations). Allowed from every status.',
  http: { method: 'PUT', path: '/api/intelligence/hypotheses/:id' },
  permission: 'settings.write',
  readOnly: false,
  input: v.strictObject({
    id: Uuid,
    revision: Revision,
    status: v.picklist(REVIEW_TARGETS),
    approve: v.optional(v.boolean()),
  }),
  output: v.object({
    id: Uuid,
    productAId: Uuid,
    productBId: Uuid,
    status: Status,
    previousStatus: Status,
    revision: v.number(),
  }),
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction((tx) =>
      setHypothesisStatus(tx, services, tenantId, actorOf(principal), input),
    );
  },
});

const ProductIds = v.pipe(v.array(Uuid), v.minLength(1), v.maxLength(BASKET_PAIR_LIMIT));

export const simulateIntelligence = defineOperation({
  name: 'intelligence.simulate',
  summary:
    'Adds labelled evidence baskets (product ids) to the shop: `simulated` (default; for demonstrations and sandboxes, never counted as observed) or `manual` (the merchant’s own). One outbox event per call; its id is each pair’s source event.',
  http: { method: 'POST', path: '/api/intelligence/simulations', status: 201 },
  permission: 'settings.write',
  readOnly: false,
  input: v.strictObject({
    source: v.optional(v.picklist(['simulated', 'manual']), 'simulated'),
    baskets: v.pipe(v.array(ProductIds), v.minLength(1), v.maxLength(SIMULATION_BASKET_LIMIT)),
  }),
  output: v.object({ eventId: Uuid, source: v.picklist(['simulated', 'manual']), baskets: v.number() }),
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction((tx) =>
      addLabelledEvidence(tx, services, tenantId, actorOf(principal), input),
    );
  },
});

const RecommendedProduct = v.object({
  id: Uuid,
  sku: v.string(),
  name: v.nullable(v.string()),
  language: v.string(),
  price: v.nullable(v.object({ currency: v.string(), gross: v.number(), net: v.number() })),
  available: v.boolean(),
});

export const getStoreRecommendations = defineStoreOperation({
  name: 'store.intelligence.recommendations',
  summary:
    'Products recommended beside the product with this SKU: the other products of its published pairs that this channel sells and lists, best first, in the visitor’s language (no order or customer ids, no counts).',
  http: { method: 'GET', path: '/store-api/intelligence/recommendations/:sku' },
  readOnly: true,
  input: v.object({
    sku: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
    language: v.optional(LanguageCode),
    currency: v.optional(CurrencyCode),
  }),
  output: v.object({ items: v.array(RecommendedProduct) }),
  async handler({ services, storefront, tenantId }, input) {
    const db = services.database.db;
    const refused = await refuseDisabledLanguages(db, storefront, languageParameter(input.language));
    if (refused) return refused;
    if (input.currency && !(await findBasis(db, 'currencies', tenantId, input.currency))) {
      return fail('VALIDATION_FAILED', 'The shop does not offer this currency.', {
        errors: [{ pointer: '/currency', message: 'unknown currency' }],
      });
    }
    const mainLanguage = (await findTenant(db, tenantId))?.mainLanguage ?? 'en';
    const visitor = await resolveStoreContext(db, services, storefront);
    const found = await recommendationsFor(db, storefront, input.sku, {
      mainLanguage,
      language: input.language ?? visitor?.language ?? mainLanguage,
      currency: input.currency ?? visitor?.currency ?? 'EUR',
    });
    return found.ok ? ok({ items: found.value }) : found;
  },
});

export const intelligenceOperations = [
  listIntelligence,
  reviewIntelligence,
  simulateIntelligence,
  getStoreRecommendations,
];
