import { compareId, idSet } from '../compare.ts';
import { type Evaluator, factsCondition } from './model.ts';

// Conditions of the context and the clock (group `general`), plus the cart-level method choices.

export const GENERAL_EVALUATORS: Readonly<Record<string, Evaluator>> = {
  alwaysValid: factsCondition({ read: () => true, test: () => true }),
  salesChannel: factsCondition({
    prepare: (value) => ({ operator: value.operator, ids: idSet(value.salesChannelIds) }),
    read: (facts) => facts.context.channelId,
    test: (actual, { operator, ids }) => compareId(actual, operator, ids),
  }),
};
