/** Fields merged key by key instead of inherited whole. */
export const KEY_MERGED_FIELDS = ['ruleMetadata'] as const;

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The variant's entries win, except those that are null or undefined: they inherit the parent's. */
function mergeKeys(
  parent: Readonly<Record<string, unknown>>,
  variant: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged = Object.entries(parent);
  for (const [key, value] of Object.entries(variant)) {
    if (value !== null && value !== undefined) merged.push([key, value]);
  }
  return Object.fromEntries(merged);
}

/**
 * The effective record of a variant: each of `fields` that is null or undefined on the variant is
 * taken from the parent; other fields are the variant's own. `ruleMetadata` is merged key by key
 * (the variant's non-null keys win, its null keys inherit). Neither input is mutated; inherited
 * values are shared, not copied.
 */
export function inheritFromParent<T extends object>(parent: T, variant: T, fields: readonly (keyof T)[]): T {
  const effective: T = { ...variant };
  for (const field of fields) {
    const own = variant[field];
    const inherited = parent[field];
    if (isKeyMerged(field) && isPlainRecord(own) && isPlainRecord(inherited)) {
      // Both sides are records here, so the merged record has the field's type.
      effective[field] = mergeKeys(inherited, own) as T[keyof T];
    } else if (own === null || own === undefined) {
      effective[field] = inherited;
    }
  }
  return effective;
}

function isKeyMerged(field: PropertyKey): boolean {
  return KEY_MERGED_FIELDS.some((name) => name === field);
}
