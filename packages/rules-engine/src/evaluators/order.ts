import type { Evaluator } from './model.ts';

export const ORDER_EVALUATORS: Readonly<Record<string, Evaluator>> = {};
