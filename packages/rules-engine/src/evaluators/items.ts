import type { Evaluator } from './model.ts';

export const ITEMS_EVALUATORS: Readonly<Record<string, Evaluator>> = {};
