/**
 * The exact source text of a top-level member of a JSON object, e.g. `webhook_event` in a
 * verify-webhook-signature request: §5.4 compares the event byte for byte, so it must not be
 * parsed and re-serialised. `text` must already be valid JSON (callers `JSON.parse` it first).
 */
export function rawMemberText(text: string, name: string): string | undefined {
  let index = skipWhitespace(text, 0);
  if (text[index] !== '{') return undefined;
  index = skipWhitespace(text, index + 1);
  let found: string | undefined;
  while (index < text.length && text[index] !== '}') {
    const keyEnd = stringEnd(text, index);
    const key = JSON.parse(text.slice(index, keyEnd)) as string;
    index = skipWhitespace(text, keyEnd);
    index = skipWhitespace(text, index + 1); // ':'
    const valueEnd = valueEndOf(text, index);
    // JSON.parse keeps the last of duplicate keys; so does this.
    if (key === name) found = text.slice(index, valueEnd);
    index = skipWhitespace(text, valueEnd);
    if (text[index] === ',') index = skipWhitespace(text, index + 1);
  }
  return found;
}

function skipWhitespace(text: string, index: number): number {
  let at = index;
  while (at < text.length && ' \t\n\r'.includes(text[at]!)) at += 1;
  return at;
}

/** Index just past the string literal that starts at `index`. */
function stringEnd(text: string, index: number): number {
  let at = index + 1;
  while (at < text.length) {
    if (text[at] === '\\') at += 2;
    else if (text[at] === '"') return at + 1;
    else at += 1;
  }
  return at;
}

/** Index just past the value that starts at `index`. */
function valueEndOf(text: string, index: number): number {
  const first = text[index];
  if (first === '"') return stringEnd(text, index);
  if (first === '{' || first === '[') {
    let depth = 0;
    let at = index;
    while (at < text.length) {
      const char = text[at]!;
      if (char === '"') {
        at = stringEnd(text, at);
        continue;
      }
      if (char === '{' || char === '[') depth += 1;
      else if (char === '}' || char === ']') {
        depth -= 1;
        if (depth === 0) return at + 1;
      }
      at += 1;
    }
    return at;
  }
  let at = index;
  while (at < text.length && !',}] \t\n\r'.includes(text[at]!)) at += 1;
  return at;
}
