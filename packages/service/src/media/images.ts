import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { fail, ok, type Result } from '../kernel/errors.ts';

/**
 * The one place the service looks inside image bytes (uploads, URL fetches, provider output).
 * A header check comes first (our own bounds-checked readers of the PNG IHDR, the JPEG frame
 * header and the WebP chunk header) and refuses by size, magic bytes and declared dimensions
 * without decoding anything; only then does libvips (sharp) decode, with its own pixel limit as a second
 * guard. Decision 0043 has the measurements behind the choice of library and limits.
 */

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ImageLimits {
  /** Largest accepted file, in bytes (the spec's 8 MiB). */
  readonly maxBytes: number;
  /** Largest accepted width and height, each. */
  readonly maxSide: number;
  /** Largest accepted width × height. */
  readonly maxPixels: number;
}

/** The limits every image the service accepts is held to (decision 0043). */
export const IMAGE_LIMITS: ImageLimits = {
  maxBytes: 8 * 1024 * 1024,
  maxSide: 8192,
  maxPixels: 40_000_000,
};

export interface ImageInfo {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  readonly byteSize: number;
}

export interface PngImage {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
}

export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.byteLength < at + prefix.length) return false;
  return prefix.every((value, index) => bytes[at + index] === value);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];
const GIF = [0x47, 0x49, 0x46, 0x38];

/** The format the magic bytes name: one of ours, `gif` (named so the refusal can say so) or undefined. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | 'gif' | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'jpeg';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  if (startsWith(bytes, GIF)) return 'gif';
  return undefined;
}

interface Dimensions {
  readonly width: number;
  readonly height: number;
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!);
}

const IHDR = [0x49, 0x48, 0x44, 0x52];

/** PNG: the first chunk must be a whole IHDR (13 bytes) with a matching CRC. */
function pngDimensions(bytes: Uint8Array): Dimensions | undefined {
  if (bytes.byteLength < 33 || u32be(bytes, 8) !== 13 || !startsWith(bytes, IHDR, 12)) return undefined;
  if (crc32(bytes.subarray(12, 29)) >>> 0 !== u32be(bytes, 29)) return undefined;
  return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

// Start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are not frames.
const JPEG_FRAMES = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG: walks the marker segments up to the first start-of-frame, bounds-checked at every step. */
function jpegDimensions(bytes: Uint8Array): Dimensions | undefined {
  let at = 2;
  while (at + 4 <= bytes.byteLength) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // a marker without a segment
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image or scan before any frame
    const length = u16be(bytes, at + 2);
    if (length < 2) return undefined;
    if (JPEG_FRAMES.has(marker)) {
      if (length < 7 || at + 9 > bytes.byteLength) return undefined;
      return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** WebP: the first chunk of the RIFF container is the lossy (VP8), lossless (VP8L) or extended (VP8X) header. */
function webpDimensions(bytes: Uint8Array): Dimensions | undefined {
  if (bytes.byteLength < 30) return undefined;
  const chunk = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const b1 = bytes[21]!;
    const b2 = bytes[22]!;
    const b3 = bytes[23]!;
    const b4 = bytes[24]!;
    return {
      width: 1 + (b1 | ((b2 & 0x3f) << 8)),
      height: 1 + ((b2 >> 6) | (b3 << 2) | ((b4 & 0x0f) << 10)),
    };
  }
  if (chunk === 'VP8X') return { width: 1 + u24le(bytes, 24), height: 1 + u24le(bytes, 27) };
  return undefined;
}

const dimensionsOf: Readonly<Record<ImageFormat, (bytes: Uint8Array) => Dimensions | undefined>> = {
  png: pngDimensions,
  jpeg: jpegDimensions,
  webp: webpDimensions,
};

/**
 * Checks an image without decoding its pixels: at most `maxBytes`, PNG, JPEG or WebP by magic
 * bytes, a readable header, and declared dimensions within the limits. Cost: microseconds,
 * whatever the header declares.
 */
export function inspectImage(bytes: Uint8Array, limits: ImageLimits = IMAGE_LIMITS): Result<ImageInfo> {
  if (bytes.byteLength > limits.maxBytes) {
    return fail(
      'IMAGE_TOO_LARGE',
      `An image may be at most ${limits.maxBytes} bytes; this one has ${bytes.byteLength}.`,
      {
        extensions: { maxBytes: limits.maxBytes, byteSize: bytes.byteLength },
      },
    );
  }
  const format = sniffImageFormat(bytes);
  if (format === undefined || format === 'gif') {
    return fail(
      'IMAGE_UNSUPPORTED_TYPE',
      `Only PNG, JPEG and WebP images are accepted${format === 'gif' ? '; this is a GIF' : '; these bytes are none of them'}.`,
      { extensions: { accepted: Object.values(IMAGE_CONTENT_TYPES) } },
    );
  }
  const declared = dimensionsOf[format](bytes);
  if (declared === undefined || declared.width < 1 || declared.height < 1) {
    return fail(
      'IMAGE_INVALID',
      `The ${format.toUpperCase()} header cannot be read; the file is damaged or truncated.`,
    );
  }
  const { width, height } = declared;
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    return fail(
      'IMAGE_DIMENSIONS_EXCEEDED',
      `The image declares ${width} × ${height} pixels; each side may be at most ${limits.maxSide} and the area at most ${limits.maxPixels} pixels.`,
      { extensions: { width, height, maxSide: limits.maxSide, maxPixels: limits.maxPixels } },
    );
  }
  return ok({ format, width, height, byteSize: bytes.byteLength });
}

// One decode at a time per libvips thread is plenty here; no cache of decoded images between calls.
sharp.cache(false);

/** Bytes that passed verifyImage: a whole, decodable image within the limits. */
export interface CheckedImage extends ImageInfo {
  readonly bytes: Uint8Array;
}

function decoderOf(bytes: Uint8Array, limits: ImageLimits): Sharp {
  return sharp(bytes, {
    limitInputPixels: limits.maxPixels,
    failOn: 'warning',
    sequentialRead: true,
    animated: false,
  });
}

function undecodable(info: ImageInfo) {
  // libvips' messages name internals (and are not stable): say what it means for the caller.
  return fail(
    'IMAGE_INVALID',
    `The ${info.format.toUpperCase()} image cannot be decoded; the file is damaged or truncated.`,
  );
}

/**
 * Checks the header (inspectImage), then decodes every pixel without keeping them (libvips
 * streams the rows through a statistics pass), so a truncated or corrupt body is refused. The
 * bytes are kept as sent. Runs on libuv's thread pool: call it outside a transaction.
 */
export async function verifyImage(
  bytes: Uint8Array,
  limits: ImageLimits = IMAGE_LIMITS,
): Promise<Result<CheckedImage>> {
  const inspected = inspectImage(bytes, limits);
  if (!inspected.ok) return inspected;
  try {
    await decoderOf(bytes, limits).stats();
  } catch {
    return undecodable(inspected.value);
  }
  return ok({ ...inspected.value, bytes });
}

/**
 * Checks the header (inspectImage), decodes every pixel (a truncated or corrupt body is refused
 * here) under libvips' own pixel limit, applies the EXIF orientation and writes a PNG without
 * metadata. The decode runs on libuv's thread pool, not the event loop.
 */
export async function reencodeAsPng(
  bytes: Uint8Array,
  limits: ImageLimits = IMAGE_LIMITS,
): Promise<Result<PngImage & { readonly source: ImageInfo }>> {
  const inspected = inspectImage(bytes, limits);
  if (!inspected.ok) return inspected;
  try {
    const { data, info } = await decoderOf(bytes, limits)
      .rotate()
      .png()
      .toBuffer({ resolveWithObject: true });
    return ok({
      png: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      source: inspected.value,
    });
  } catch {
    return undecodable(inspected.value);
  }
}
