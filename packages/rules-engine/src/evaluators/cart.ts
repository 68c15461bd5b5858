import type { Evaluator } from './model.ts';

export const CART_EVALUATORS: Readonly<Record<string, Evaluator>> = {};
