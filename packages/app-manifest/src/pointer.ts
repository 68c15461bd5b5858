/** One segment of a JSON pointer (RFC 6901): `~` and `/` escaped. */
export function pointerSegment(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The JSON pointer of a path of keys and indexes; the empty path is the whole document (`''`). */
export function pointerOf(path: readonly (string | number)[]): string {
  return path.map((key) => `/${pointerSegment(key)}`).join('');
}
