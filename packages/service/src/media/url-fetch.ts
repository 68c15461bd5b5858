import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { fail, ok, type Result } from '../kernel/errors.ts';
import type { MediaUrlSettings } from '../kernel/services.ts';
import { IMAGE_CONTENT_TYPES, IMAGE_LIMITS } from './images.ts';

// Fetching a merchant-given image URL is a server-side request to an address someone else chose,
// so it is held to more than the bounded exchange: the address every connection really goes to
// is checked when the socket connects (a DNS answer that changes between a check and the connect
// cannot slip through, nor can a redirect), every address a name resolves to must be public,
// redirects are followed by hand (at most MAX_REDIRECTS, each target checked the same way), and
// the body is read stream-limited to 8 MiB within one deadline. Decision 0043.

export const MAX_REDIRECTS = 3;
/** The longest URL accepted. */
export const MAX_URL_LENGTH = 2048;

// Addresses that are not the public internet (RFC 6890 special-purpose registries and friends).
const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * An IPv4 address written inside IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is judged as the IPv4
 * address. (The mapped range is not in the IPv6 list: BlockList matches every IPv4 address against
 * `::ffff:0:0/96`.)
 */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (dotted) return { address: dotted[1]!, family: 'ipv4' };
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const high = Number.parseInt(hex[1]!, 16);
    const low = Number.parseInt(hex[2]!, 16);
    return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 'ipv4' };
  }
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Whether the server may connect to `address` for a merchant's URL. */
export function isAllowedAddress(
  address: string,
  settings: Pick<MediaUrlSettings, 'allowLoopback'>,
): boolean {
  const { address: plain, family } = unmapped(address);
  if (isIP(plain) === 0) return false;
  if (settings.allowLoopback && loopback.check(plain, family)) return true;
  return !notPublic.check(plain, family);
}

class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

/** A DNS lookup for sockets that refuses the connection unless every address the name has is allowed. */
function guardedLookup(settings: MediaUrlSettings): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as unknown as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isAllowedAddress(entry.address, settings))) {
        return callback(new RefusedAddress('not a public address'), '', 4);
      }
      if (options.all) return callback(null, list as never);
      const first = list[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

function refusedUrl(detail: string) {
  return fail('IMAGE_URL_REFUSED', detail);
}

function unreachable(detail: string) {
  return fail('IMAGE_URL_FAILED', detail);
}

/** Why a URL is not one the server fetches, or null when it is (scheme, credentials, length, a literal address). */
export function refuseImageUrl(text: string, settings: MediaUrlSettings): string | null {
  if (text.length > MAX_URL_LENGTH) return `The URL is longer than ${MAX_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'The URL cannot be parsed.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https URLs are fetched.';
  if (url.username !== '' || url.password !== '') return 'A URL with credentials is not fetched.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isAllowedAddress(host, settings)) {
    return 'The URL names a private, loopback, link-local or otherwise non-public address.';
  }
  return null;
}

export interface FetchedImage {
  readonly bytes: Uint8Array;
  /** The Content-Type the server sent. */
  readonly contentType: string;
  /** The URL the image was finally read from (after redirects). */
  readonly finalUrl: string;
}

type Hop = { kind: 'redirect'; location: string } | { kind: 'image'; image: FetchedImage };

/**
 * Fetches an image for a merchant: http(s) only, public addresses only (unless the operator allows
 * loopback), at most MAX_REDIRECTS redirects each checked again, one deadline for everything, at
 * most 8 MiB read, and a Content-Type of PNG, JPEG or WebP. The bytes still need verifyImage.
 */
export async function fetchImageFromUrl(
  text: string,
  settings: MediaUrlSettings,
): Promise<Result<FetchedImage>> {
  const signal = AbortSignal.timeout(settings.timeoutMs);
  let current = text;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refused = refuseImageUrl(current, settings);
    if (refused) return refusedUrl(refused);
    const answer = await fetchOnce(new URL(current), settings, signal);
    if (!answer.ok) return answer;
    if (answer.value.kind === 'image') return ok(answer.value.image);
    let next: URL;
    try {
      next = new URL(answer.value.location, current);
    } catch {
      return unreachable('The server answered with a redirect to an address that cannot be parsed.');
    }
    current = next.toString();
  }
  return unreachable(`The server redirected more than ${MAX_REDIRECTS} times.`);
}

const ACCEPTED_TYPES = new Set(Object.values(IMAGE_CONTENT_TYPES));

function fetchOnce(url: URL, settings: MediaUrlSettings, signal: AbortSignal): Promise<Result<Hop>> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Result<Hop>) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'GET',
      headers: { accept: [...ACCEPTED_TYPES].join(', '), 'user-agent': 'Cartwright media fetch' },
      lookup: guardedLookup(settings),
      signal,
      agent: false,
    });
    request.on('error', (error: Error & { code?: string }) => {
      if (error instanceof RefusedAddress || error.cause instanceof RefusedAddress) {
        return settle(
          refusedUrl('The URL resolves to a private, loopback, link-local or otherwise non-public address.'),
        );
      }
      if (signal.aborted)
        return settle(unreachable(`The image did not arrive within ${settings.timeoutMs} ms.`));
      const code =
        typeof error.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(error.code) ? ` (${error.code})` : '';
      settle(unreachable(`The image could not be fetched: network error${code}.`));
    });
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        return settle(ok({ kind: 'redirect', location: response.headers.location }));
      }
      if (status !== 200) {
        response.resume();
        return settle(unreachable(`The server answered HTTP ${status}, not an image.`));
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!ACCEPTED_TYPES.has(contentType)) {
        response.destroy();
        return settle(
          fail(
            'IMAGE_UNSUPPORTED_TYPE',
            `The server sent ${contentType === '' ? 'no Content-Type' : `Content-Type ${contentType.slice(0, 100)}`}; only PNG, JPEG and WebP images are accepted.`,
          ),
        );
      }
      const limit = IMAGE_LIMITS.maxBytes;
      const tooLarge = () =>
        fail('IMAGE_TOO_LARGE', `An image may be at most ${limit} bytes; the server sent more.`, {
          extensions: { maxBytes: limit },
        });
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      if (declared > limit) {
        settle(tooLarge());
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limit) {
          settle(tooLarge());
          response.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', () =>
        settle(
          signal.aborted
            ? unreachable(`The image did not arrive within ${settings.timeoutMs} ms.`)
            : unreachable('The connection broke while the image was being read.'),
        ),
      );
      response.on('aborted', () =>
        settle(unreachable('The connection broke while the image was being read.')),
      );
      response.on('end', () => {
        if (!response.complete)
          return settle(unreachable('The connection broke while the image was being read.'));
        const bytes = Buffer.concat(chunks);
        settle(
          ok({
            kind: 'image',
            image: {
              bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
              contentType,
              finalUrl: url.toString(),
            },
          }),
        );
      });
    });
    request.end();
  });
}
