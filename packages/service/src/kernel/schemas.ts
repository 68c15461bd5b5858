import * as v from 'valibot';

// Integers are bounded by where they land (decision 0025): `integer` columns hold int4, `bigint`
// columns are read as JS numbers (drizzle `mode: 'number'`) and money lives in JSON, so both are
// exact only within the safe integers. `test/input-policy.test.ts` compares these bounds with the
// columns the operations write.

/** The range of a PostgreSQL `integer` column. */
export const INT32 = { min: -2_147_483_648, max: 2_147_483_647 } as const;
/** The range of a `bigint` column read as a JS number, and of any integer kept in JSON. */
export const INT64_SAFE = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER } as const;

/** An integer from `min` to `max`, both included (and both safe integers). */
export function IntegerIn(min: number, max: number, what = 'an integer') {
  const message = `expected ${what} from ${min} to ${max}`;
  return v.pipe(v.number(), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

/** Any value of an `integer` column. */
export const Int32 = IntegerIn(INT32.min, INT32.max);
/** Any value of a `bigint` column (as the service reads it) or an integer kept in JSON. */
export const Int64Safe = IntegerIn(INT64_SAFE.min, INT64_SAFE.max);
/** A non-negative count of an `integer` column (stock, grams, millimetres). */
export const Count = IntegerIn(0, INT32.max);

export const Uuid = v.pipe(v.string(), v.maxLength(36, 'Expected a UUID.'), v.uuid('Expected a UUID.'));
/** An ISO 8601 timestamp (at most 64 characters). */
export const Timestamp = v.pipe(v.string(), v.maxLength(64), v.isoTimestamp());
export const NullableTimestamp = v.nullable(Timestamp);

/** Page size: 1 to 100, 50 unless asked. */
export const Limit = v.optional(IntegerIn(1, 100), 50);

export const LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
/** A language code: `de`, or regional `de-CH` (which falls back to `de`). */
export const LanguageCode = v.pipe(
  v.string(),
  v.maxLength(5),
  v.regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'expected a code such as de or de-CH'),
);
/** The longest translated text (a name, a description). */
export const MAX_TRANSLATED_TEXT = 10_000;
/** Text per language code (`en`, `de-CH`, …). */
export const Translated = v.record(LanguageCode, v.pipe(v.string(), v.maxLength(MAX_TRANSLATED_TEXT)));
export type Translated = v.InferOutput<typeof Translated>;

/**
 * Translated fields per language: `{ "de": { "name": "…" } }`. A missing or null field inherits
 * the main language; an explicit empty string stays empty.
 */
export function TranslationsOf(fields: readonly string[]) {
  const text = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(MAX_TRANSLATED_TEXT))));
  return v.record(LanguageCode, v.strictObject(Object.fromEntries(fields.map((field) => [field, text]))));
}

/** The revision a write read: 0 to create, the stored revision to replace or delete (an `integer` column). */
export const Revision = IntegerIn(0, INT32.max, 'a revision');

/** An ISO 4217 currency code. */
export const CurrencyCode = v.pipe(
  v.string(),
  v.maxLength(3, 'expected an ISO 4217 code such as EUR'),
  v.regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as EUR'),
);
/** An amount in minor units of its currency (cents for EUR), kept in JSON: a safe integer. */
export const Amount = IntegerIn(0, INT64_SAFE.max, 'minor units (an integer)');
/** A sort position (an `integer` column), 0 unless given. */
export const Position = v.optional(Int32, 0);
export const Active = v.optional(v.boolean(), true);

export const EmptyInput = v.object({});

/**
 * A file sent as standard padded base64 whose text decodes to at most `maxBytes` (base64 grows a
 * file by a third). Checked linearly: valibot's base64 pattern overflows the regex stack on megabytes.
 */
export function Base64Of(maxBytes: number, messages: { readonly empty: string; readonly tooLarge: string }) {
  return v.pipe(
    v.string(),
    v.minLength(1, messages.empty),
    v.maxLength(4 * Math.ceil(maxBytes / 3), messages.tooLarge),
    v.check(
      (text) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text),
      'expected standard base64 with padding',
    ),
  );
}

/** The JSON shape of a Date at the edge. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
