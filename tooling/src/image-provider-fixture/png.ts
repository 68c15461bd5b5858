import { createHash } from 'node:crypto';
import { constants, crc32, createDeflate, deflateSync } from 'node:zlib';

// The one place PNG files are built by hand: a small encoder (8-bit RGBA, no filtering) so the
// fixture needs no image library, deterministic pictures a test can compare pixel by pixel, and the
// hostile files no encoder would write (a header that lies, decompression bombs), which the
// service's tests use too. This encodes only; the service decodes with its own checked module.

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

const RGBA = 6;
const GRAY = 0;

function header(width: number, height: number, colorType = RGBA): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = colorType;
  return chunk('IHDR', ihdr);
}

function pngOf(ihdr: Buffer, idat: Buffer): Buffer {
  return Buffer.concat([SIGNATURE, ihdr, chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** Encodes RGBA pixels as a PNG (filter 0 on every row). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    Buffer.from(rgba.buffer, rgba.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  }
  return pngOf(header(width, height), deflateSync(raw));
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
  return pngOf(header(width, height), deflateSync(zeros, { level: 9 }));
}

/** A valid-looking PNG whose header declares `width × height` with a one-row body (it lies). */
export function pngDeclaring(width: number, height: number): Buffer {
  return pngOf(header(width, height, GRAY), deflateSync(Buffer.alloc(64)));
}

/**
 * A whole decompression bomb: a `side × side` 8-bit grayscale PNG whose entire body is zeros,
 * compressed at level 9 (20000² → about 400 MB of pixels in a few hundred KB). The body is
 * streamed through the compressor a slice at a time, so making one costs little memory.
 */
export async function wholePngBomb(side = 20_000): Promise<Buffer> {
  const rowBytes = side + 1;
  const rowsPerSlice = Math.max(1, Math.floor((4 * 1024 * 1024) / rowBytes));
  const slice = Buffer.alloc(rowBytes * rowsPerSlice);
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  for (let row = 0; row < side; row += rowsPerSlice) {
    const rows = Math.min(rowsPerSlice, side - row);
    const written = deflate.write(rows === rowsPerSlice ? slice : slice.subarray(0, rows * rowBytes));
    if (!written) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return pngOf(header(side, side, GRAY), Buffer.concat(parts));
}
