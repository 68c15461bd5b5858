import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

// The fixture's images: a small PNG encoder (8-bit RGBA, no filtering) so the fixture needs no image
// library, deterministic pictures a test can compare pixel by pixel, and two decompression bombs.
// This encodes only; the service decodes with its own checked module.

/** An image as the fixture drew it: straight RGBA, row by row. */
export interface FixtureImage {
  readonly width: number;
  readonly height: number;
  /** `width * height * 4` bytes, RGBA. */
  readonly rgba: Uint8Array;
  /** The same picture as a PNG file. */
  readonly png: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function header(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return chunk('IHDR', ihdr);
}

/** Encodes RGBA pixels as a PNG (filter 0 on every row). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    Buffer.from(rgba.buffer, rgba.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  }
  return Buffer.concat([
    SIGNATURE,
    header(width, height),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What decides a picture: the same inputs always draw the same pixels. */
export interface ImageSeed {
  readonly model: string;
  readonly prompt: string;
  /** The SHA-256 (hex) of the image sent to `edits`; absent for `generations`. */
  readonly sourceSha256?: string | undefined;
}

/** Draws the fixture's deterministic picture for a request. */
export function renderFixtureImage(seed: ImageSeed, width: number, height: number): FixtureImage {
  const hash = createHash('sha256')
    .update(`${seed.model}\n${seed.prompt}\n${seed.sourceSha256 ?? ''}`)
    .digest();
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      rgba[at] = (hash[0]! + x * 3) & 255;
      rgba[at + 1] = (hash[1]! + y * 5) & 255;
      rgba[at + 2] = (hash[2]! + ((x * y) >> 2)) & 255;
      rgba[at + 3] = 255;
    }
  }
  return { width, height, rgba, png: encodePng(width, height, rgba) };
}

/**
 * A decompression bomb: a valid PNG header declaring `width × height` RGBA pixels, followed by a
 * zlib stream of zeros (at most `inflatedBytes` of them, compressed about a thousandfold). A
 * decoder that trusts the header allocates `width * height * 4` bytes before it notices anything.
 */
export function pngBomb(width: number, height: number, inflatedBytes: number = 32 * 1024 * 1024): Buffer {
  const zeros = Buffer.alloc(Math.min(inflatedBytes, width * height * 4 + height));
  return Buffer.concat([
    SIGNATURE,
    header(width, height),
    chunk('IDAT', deflateSync(zeros, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
