/** A JSON value as stored in a basis or an overrides document. */
export type Json = null | boolean | number | string | readonly Json[] | JsonObject;

/**
 * A JSON object. Values may be `undefined` only so that typed literals pass; `undefined` counts as
 * an absent key everywhere (JSON cannot carry it).
 */
export interface JsonObject {
  readonly [key: string]: Json | undefined;
}

/** True for a JSON object (not `null`, not an array): the only value a container can descend into. */
export function isPlainObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The own value of `key`, `undefined` when absent: keys like `constructor` are data, never inherited. */
export function ownValue(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * Sets `key` as an own data property. Plain assignment would treat a key named `__proto__` (a map
 * key comes from merchant data) as the prototype instead of a field.
 */
export function setOwn(object: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A fresh deep copy, so results never share (and never let callers mutate) the inputs' objects. */
export function cloneJson(value: Json): Json {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isPlainObject(value)) {
    const copy: Record<string, Json> = {};
    for (const [key, child] of Object.entries(value))
      if (child !== undefined) setOwn(copy, key, cloneJson(child));
    return copy;
  }
  return value as Json;
}

/** Deep equality of JSON values; key order does not matter, an `undefined` value equals absence. */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: Json, index: number) => jsonEqual(item, b[index]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keysA = Object.keys(a).filter((key) => a[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => b[key] !== undefined);
  return keysA.length === keysB.length && keysA.every((key) => jsonEqual(a[key], ownValue(b, key)));
}

/**
 * The JSON pointer (RFC 6901) of a path of field names, map keys and ids: `['shippingMethods',
 * 'std', 'active']` → `/shippingMethods/std/active`. Issues and provenance use it, so a patch path
 * maps onto both.
 */
export function jsonPointer(path: readonly string[]): string {
  return path.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
