import { CART_EVALUATORS } from './cart.ts';
import { CUSTOMER_EVALUATORS } from './customer.ts';
import { GENERAL_EVALUATORS } from './general.ts';
import { ITEMS_EVALUATORS } from './items.ts';
import type { Evaluator } from './model.ts';
import { ORDER_EVALUATORS } from './order.ts';

/** The leaf evaluator of every enabled condition the engine does not implement as a container. */
export const EVALUATORS: Readonly<Record<string, Evaluator>> = {
  ...ITEMS_EVALUATORS,
  ...CART_EVALUATORS,
  ...CUSTOMER_EVALUATORS,
  ...ORDER_EVALUATORS,
  ...GENERAL_EVALUATORS,
};
