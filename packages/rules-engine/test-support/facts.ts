import type { buildFacts } from '../src/facts-schema.ts';

// For the package's tests only (outside src, so never part of what the package ships).

/** What `buildFacts` takes: the facts with every field but `now` optional (line items untyped). */
export type FactsInput = Parameters<typeof buildFacts>[0];
