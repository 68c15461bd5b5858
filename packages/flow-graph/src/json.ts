/** Nesting bound of a JSON value in a config, so no later walk over it can overflow. */
export const MAX_JSON_DEPTH = 32;

/** True for plain JSON: null, booleans, finite numbers, strings, arrays and plain objects. */
export function isJsonValue(value: unknown): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const current = item.value;
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return false;
      continue;
    }
    if (typeof current !== 'object' || item.depth >= MAX_JSON_DEPTH) return false;
    if (Array.isArray(current)) {
      for (const element of current) stack.push({ value: element, depth: item.depth + 1 });
      continue;
    }
    const prototype = Object.getPrototypeOf(current);
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const element of Object.values(current)) stack.push({ value: element, depth: item.depth + 1 });
  }
  return true;
}
