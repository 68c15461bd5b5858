import { cloneJson, isPlainObject, type Json, type JsonObject, setOwn } from './json.ts';
import { childShape, isContainer, type RecordShape, type Shape } from './shape.ts';

/**
 * The canonical form of an overrides document: a fresh copy without `undefined` values and without
 * empty objects where the shape merges key by key (records, maps, collections and their entries),
 * because `{}` there overrides nothing and means the same as an absent key. Values replaced whole
 * (leaves), basis-only fields and unknown fields are kept exactly, so validation still sees them.
 * Store this form: two documents with the same meaning are then equal. A non-object breaks the
 * parameter's type, a caller's bug, and throws a `TypeError` (`validateOverrides` reports it).
 */
export function normalizeOverrides(shape: RecordShape, overrides: JsonObject): JsonObject {
  if (!isPlainObject(overrides)) throw new TypeError('The overrides must be an object.');
  return normalizeAt(shape, overrides) as JsonObject;
}

function normalizeAt(shape: Shape | undefined, value: Json): Json {
  if (!isContainer(shape) || !isPlainObject(value)) return cloneJson(value);
  const normalized: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const position = childShape(shape, key);
    const normalizedChild = normalizeAt(position, child);
    if (
      isContainer(position) &&
      isPlainObject(normalizedChild) &&
      Object.keys(normalizedChild).length === 0
    ) {
      continue;
    }
    setOwn(normalized, key, normalizedChild);
  }
  return normalized;
}
