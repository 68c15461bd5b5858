import * as v from 'valibot';

export const Uuid = v.pipe(v.string(), v.uuid('Expected a UUID.'));
export const Timestamp = v.pipe(v.string(), v.isoTimestamp());
export const NullableTimestamp = v.nullable(Timestamp);

/** Page size: 1 to 100, 50 unless asked. */
export const Limit = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50);

export const LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
/** Text per language code (`en`, `de-CH`, …). */
export const Translated = v.record(v.pipe(v.string(), v.regex(/^[a-z]{2}(-[A-Z]{2})?$/)), v.string());
export type Translated = v.InferOutput<typeof Translated>;

export const EmptyInput = v.object({});

/** The JSON shape of a Date at the edge. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
