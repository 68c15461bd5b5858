import {
  compareBoolean,
  idSet,
  idsMatch,
  isNegativeOperator,
  lowerCaseList,
  textInListMatches,
  textMatches,
} from '../compare.ts';
import { matchCustomField, prepareCustomField, readCustomField } from '../custom-field.ts';
import type { Facts, OrderFacts } from '../facts.ts';
import { type Evaluator, factsCondition } from './model.ts';

// Conditions over the order a flow runs for (group `order`), plus the checkout's admin source.

/** PHP's `!$text` for a nullable string: null, '' and '0' count as no value. */
function isBlank(text: string | null | undefined): boolean {
  return text === null || text === undefined || text === '' || text === '0';
}

function booleanOr(given: unknown, fallback: boolean): boolean {
  return typeof given === 'boolean' ? given : fallback;
}

/**
 * The order's affiliate or campaign code (AffiliateCodeOfOrderRule, CampaignCodeOfOrderRule): a
 * blank order code gives `isNegativeOperator`; otherwise a case-insensitive text comparison. The
 * reference throws when the rule's code is blank under an operator other than `empty`; here such a
 * condition does not match.
 */
function orderCode(parameter: string, read: (order: OrderFacts) => string | null): Evaluator {
  return factsCondition({
    prepare: (value) => {
      const code = value[parameter];
      return { operator: value.operator, code: typeof code === 'string' ? code : null };
    },
    read: (facts) => (facts.order === undefined ? null : read(facts.order)),
    test: (actual, { operator, code }) => {
      if (operator !== 'empty' && isBlank(code)) return false;
      if (isBlank(actual)) return isNegativeOperator(operator);
      return textMatches(actual, operator, code ?? '');
    },
  });
}

/** A state id against the rule's state ids (RuleComparison::stringArray); no list never matches. */
function stateCondition(read: (facts: Facts) => string | null): Evaluator {
  return factsCondition({
    prepare: (value) => ({
      operator: value.operator,
      stateIds: Array.isArray(value.stateIds) ? lowerCaseList(value.stateIds) : null,
    }),
    read,
    test: (actual, { operator, stateIds }) =>
      stateIds !== null && textInListMatches(actual, operator, stateIds),
  });
}

/** Document type ids of the order's documents (all, or only those sent) against `documentIds`. */
function documentTypes(sentOnly: boolean): Evaluator {
  return factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.documentIds) }),
    read: (facts) => {
      const typeIds: (string | null)[] = [];
      for (const document of facts.order?.documents ?? []) {
        if (!sentOnly || document.sent) typeIds.push(document.documentTypeId);
      }
      return typeIds;
    },
    test: (actual, { operator, ids }) => idsMatch(actual, operator, ids),
  });
}

const SKIPPED_TRANSACTION_STATES: ReadonlySet<string> = new Set(['failed', 'cancelled']);

export const ORDER_EVALUATORS: Readonly<Record<string, Evaluator>> = {
  orderAffiliateCode: orderCode('affiliateCode', (order) => order.affiliateCode),
  orderCampaignCode: orderCode('campaignCode', (order) => order.campaignCode),
  /** Whether the context was opened through the admin's sales-channel API (default: it was not). */
  adminSalesChannelSource: factsCondition({
    prepare: (value) => ({ expected: booleanOr(value.hasAdminSalesChannelSource, false) }),
    read: (facts) => facts.context.adminSource,
    test: (actual, { expected }) => compareBoolean(actual, expected),
  }),
  /** Whether staff created the order (default: the rule asks that they did). */
  orderCreatedByAdmin: factsCondition({
    prepare: (value) => ({ expected: booleanOr(value.shouldOrderBeCreatedByAdmin, true) }),
    read: (facts) => facts.order?.createdByAdmin ?? false,
    test: (actual, { expected }) => compareBoolean(actual, expected),
  }),
  /** The rule's field of the order's custom fields (CustomFieldRule::match). */
  orderCustomField: factsCondition({
    prepare: prepareCustomField,
    read: (facts, _item, prepared) => readCustomField(facts.order?.customFields, prepared),
    test: (actual, prepared, facts) => matchCustomField(actual, prepared, facts),
  }),
  /** State ids of every delivery, as ids (an order without deliveries has none). */
  orderDeliveryStatus: factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.stateIds) }),
    read: (facts) => (facts.order?.deliveries ?? []).map((delivery) => delivery.stateId),
    test: (actual, { operator, ids }) => idsMatch(actual, operator, ids),
  }),
  orderDocumentType: documentTypes(false),
  orderDocumentTypeSent: documentTypes(true),
  orderStatus: stateCondition((facts) => facts.order?.stateId ?? null),
  orderTag: factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.identifiers) }),
    read: (facts) => facts.order?.tagIds ?? [],
    test: (actual, { operator, ids }) => idsMatch(actual, operator, ids),
  }),
  /** How many non-blank tracking codes the deliveries carry, against whether one should be set. */
  orderTrackingCode: factsCondition({
    prepare: (value) => ({ isSet: booleanOr(value.isSet, false) }),
    read: (facts) => {
      let count = 0;
      for (const delivery of facts.order?.deliveries ?? []) {
        for (const code of delivery.trackingCodes) if (!isBlank(code)) count += 1;
      }
      return count;
    },
    test: (actual, { isSet }) => compareBoolean(actual > 0, isSet),
  }),
  /**
   * The state of the first transaction whose (known) state is neither failed nor cancelled, else of
   * the last transaction; an order without transactions has none.
   */
  orderTransactionStatus: stateCondition((facts) => {
    const transactions = facts.order?.transactions ?? [];
    for (const transaction of transactions) {
      const name = transaction.stateName;
      if (name !== null && !SKIPPED_TRANSACTION_STATES.has(name)) return transaction.stateId;
    }
    return transactions.at(-1)?.stateId ?? null;
  }),
};
