import * as v from 'valibot';

export const Uuid = v.pipe(v.string(), v.uuid('Expected a UUID.'));
export const Timestamp = v.pipe(v.string(), v.isoTimestamp());
export const NullableTimestamp = v.nullable(Timestamp);

/** Page size: 1 to 100, 50 unless asked. */
export const Limit = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50);

export const LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
/** A language code: `de`, or regional `de-CH` (which falls back to `de`). */
export const LanguageCode = v.pipe(
  v.string(),
  v.regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'expected a code such as de or de-CH'),
);
/** Text per language code (`en`, `de-CH`, …). */
export const Translated = v.record(LanguageCode, v.string());
export type Translated = v.InferOutput<typeof Translated>;

/**
 * Translated fields per language: `{ "de": { "name": "…" } }`. A missing or null field inherits
 * the main language; an explicit empty string stays empty.
 */
export function TranslationsOf(fields: readonly string[]) {
  const text = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(10_000))));
  return v.record(LanguageCode, v.strictObject(Object.fromEntries(fields.map((field) => [field, text]))));
}

/** The revision a write read: 0 to create, the stored revision to replace or delete. */
export const Revision = v.pipe(v.number(), v.integer(), v.minValue(0));

/** An ISO 4217 currency code. */
export const CurrencyCode = v.pipe(
  v.string(),
  v.regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as EUR'),
);
/** An amount in minor units of its currency (cents for EUR). */
export const Amount = v.pipe(v.number(), v.integer('expected minor units (an integer)'), v.minValue(0));
export const Position = v.optional(v.pipe(v.number(), v.integer()), 0);
export const Active = v.optional(v.boolean(), true);

export const EmptyInput = v.object({});

/** The JSON shape of a Date at the edge. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
