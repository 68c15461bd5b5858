import { constants, crc32, createDeflate, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Images for tests and benchmarks (@cartwright/service/testing): real encoders (sharp) for the
// valid ones, hand-built PNG chunks for the hostile ones (a header that lies, a decompression bomb)
// no encoder would write.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function grayHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  return chunk('IHDR', ihdr);
}

/** A picture with structure (gradients), so a re-encode that loses pixels shows. */
export function samplePixels(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      raw[at] = (x * 7) & 255;
      raw[at + 1] = (y * 5) & 255;
      raw[at + 2] = (x ^ y) & 255;
    }
  }
  return raw;
}

export type SampleFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/** A real image of the format, encoded by libvips. */
export async function sampleImage(format: SampleFormat, width = 64, height = 48): Promise<Buffer> {
  const image = sharp(samplePixels(width, height), { raw: { width, height, channels: 3 } });
  if (format === 'png') return image.png().toBuffer();
  if (format === 'jpeg') return image.jpeg().toBuffer();
  if (format === 'webp') return image.webp({ lossless: true }).toBuffer();
  return image.gif().toBuffer();
}

/** A valid-looking PNG whose header declares `width × height` with a one-row body (it lies). */
export function pngDeclaring(width: number, height: number): Buffer {
  return Buffer.concat([
    SIGNATURE,
    grayHeader(width, height),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A real decompression bomb: a `side × side` 8-bit grayscale PNG whose whole body is zeros,
 * compressed at level 9 (20000² → about 400 MB of pixels in a few hundred KB). The body is
 * streamed through the compressor a slice at a time, so making one costs little memory.
 */
export async function pngBomb(side = 20_000): Promise<Buffer> {
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
  return Buffer.concat([
    SIGNATURE,
    grayHeader(side, side),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The first `fraction` of a file: a PNG cut off in its pixel data. */
export function truncated(bytes: Buffer, fraction = 0.5): Buffer {
  return bytes.subarray(0, Math.floor(bytes.byteLength * fraction));
}
