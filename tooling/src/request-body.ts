import type { IncomingMessage } from 'node:http';

/** The most a loopback fixture reads of one request body. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** A fixture's request body as bytes, or undefined past `limit` bytes. */
export async function readBodyBytes(
  request: IncomingMessage,
  limit: number = MAX_REQUEST_BYTES,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A fixture's request body as UTF-8 text, or undefined past `MAX_REQUEST_BYTES`. */
export async function readBody(request: IncomingMessage): Promise<string | undefined> {
  return (await readBodyBytes(request))?.toString('utf8');
}
