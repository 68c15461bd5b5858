/**
 * A minimal reader of the messages the fixture receives: headers unfolded and decoded (RFC 2047
 * encoded words, B and Q), MIME multiparts walked, quoted-printable and base64 bodies decoded.
 * Enough to assert what a test sent; not a general mail parser.
 */

/** A message as read: its headers (names lower-case; a repeated header keeps every value) and parts. */
export interface ParsedMessage {
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** The first `text/plain` part, decoded; null when there is none. */
  readonly text: string | null;
  /** The first `text/html` part, decoded; null when there is none. */
  readonly html: string | null;
}

/** Reads a raw message (CRLF or LF line ends). */
export function parseMessage(raw: string): ParsedMessage {
  const { headers, body } = splitEntity(raw);
  const found: { text: string | null; html: string | null } = { text: null, html: null };
  collectParts(headers, body, found, 0);
  return { headers, ...found };
}

/** The first value of a header, or undefined. */
export function headerOf(headers: ParsedMessage['headers'], name: string): string | undefined {
  return headers[name.toLowerCase()]?.[0];
}

function splitEntity(raw: string): { headers: Record<string, string[]>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers: Record<string, string[]> = {};
  const unfolded: string[] = [];
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && unfolded.length > 0) unfolded[unfolded.length - 1] += ` ${line.trim()}`;
    else if (line !== '') unfolded.push(line);
  }
  for (const line of unfolded) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const values = headers[name] ?? [];
    values.push(decodeWords(line.slice(colon + 1).trim()));
    headers[name] = values;
  }
  return { headers, body };
}

/** `type/subtype` and its parameters, from a Content-Type value. */
function contentTypeOf(headers: Record<string, readonly string[]>): {
  type: string;
  params: Record<string, string>;
} {
  const value = headers['content-type']?.[0] ?? 'text/plain; charset=us-ascii';
  const [type = 'text/plain', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    params[part.slice(0, equals).trim().toLowerCase()] = part
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params };
}

function collectParts(
  headers: Record<string, readonly string[]>,
  body: string,
  found: { text: string | null; html: string | null },
  depth: number,
): void {
  const { type, params } = contentTypeOf(headers);
  if (type.startsWith('multipart/') && params.boundary && depth < 10) {
    const delimiter = `--${params.boundary}`;
    const sections = body.split('\n');
    let current: string[] | null = null;
    const parts: string[] = [];
    for (const line of sections) {
      if (line.startsWith(delimiter)) {
        if (current) parts.push(current.join('\n'));
        current = line.startsWith(`${delimiter}--`) ? null : [];
        if (current === null) break;
      } else current?.push(line);
    }
    for (const part of parts) {
      const entity = splitEntity(part);
      collectParts(entity.headers, entity.body, found, depth + 1);
    }
    return;
  }
  if (type !== 'text/plain' && type !== 'text/html') return;
  const decoded = decodeBody(body, headers['content-transfer-encoding']?.[0], params.charset);
  if (type === 'text/plain') found.text ??= decoded;
  else found.html ??= decoded;
}

function decodeBody(body: string, encoding: string | undefined, charset: string | undefined): string {
  switch (encoding?.trim().toLowerCase()) {
    case 'quoted-printable':
      return decodeBytes(quotedPrintableBytes(body.replace(/=\n/g, ''), false), charset);
    case 'base64':
      return decodeBytes(Buffer.from(body.replace(/\s+/g, ''), 'base64'), charset);
    default:
      return body;
  }
}

/** `=XX` escapes to bytes; in a Q encoded word `_` is a space too. */
function quotedPrintableBytes(text: string, encodedWord: boolean): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const hex = text.slice(index + 1, index + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else if (encodedWord && char === '_') bytes.push(0x20);
    else bytes.push(...Buffer.from(char, 'utf8'));
  }
  return Buffer.from(bytes);
}

function decodeBytes(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset?.toLowerCase() ?? 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** RFC 2047 encoded words; the blanks between two adjacent ones belong to neither. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?[^?]+\?[BbQq]\?[^?]*\?=)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, charset: string, kind: string, text: string) =>
      decodeBytes(
        kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintableBytes(text, true),
        charset.split('*')[0],
      ),
    );
}
