import sharp, { type Sharp } from 'sharp';
import { fail, ok, type Result } from '../kernel/errors.ts';

/**
 * The one place the service looks inside image bytes (uploads, URL fetches, provider output).
 * A header check comes first (libvips reads the declared dimensions without decoding) and
 * refuses by size, magic bytes and declared dimensions; only then does libvips (sharp) decode,
 * with its own pixel limit as a second guard. Decision 0043 has the measurements behind the choice of library and limits.
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

/**
 * The dimensions the header declares, read by libvips without decoding a pixel (so a bomb costs
 * what its header costs); undefined when the header cannot be read.
 */
async function declaredDimensions(bytes: Uint8Array): Promise<Dimensions | undefined> {
  try {
    const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks an image without decoding its pixels: at most `maxBytes`, PNG, JPEG or WebP by magic
 * bytes, a readable header, and declared dimensions within the limits. Cost: well under a
 * millisecond, whatever the header declares.
 */
export async function inspectImage(
  bytes: Uint8Array,
  limits: ImageLimits = IMAGE_LIMITS,
): Promise<Result<ImageInfo>> {
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
  const declared = await declaredDimensions(bytes);
  if (declared === undefined) {
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
  const inspected = await inspectImage(bytes, limits);
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
  const inspected = await inspectImage(bytes, limits);
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
