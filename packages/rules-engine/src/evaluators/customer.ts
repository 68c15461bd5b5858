import type { Evaluator } from './model.ts';

export const CUSTOMER_EVALUATORS: Readonly<Record<string, Evaluator>> = {};
