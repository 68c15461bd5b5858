import type { IncomingMessage } from 'node:http';

/** The most a loopback fixture reads of one request body. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** A fixture's request body as UTF-8 text, or undefined past `MAX_REQUEST_BYTES`. */
export async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
