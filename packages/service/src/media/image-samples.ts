import sharp from 'sharp';

// Images for tests and benchmarks (@cartwright/service/testing): real encoders (sharp) for the
// valid ones; the hostile ones no encoder would write (a header that lies, a decompression bomb)
// come from the one hand-built PNG module, the image-provider fixture's.

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

/** A PNG whose header lies, and a whole `side × side` decompression bomb of a few hundred KB. */
export { pngDeclaring, wholePngBomb as pngBomb } from '@cartwright/tooling/image-provider-fixture';

/** The first `fraction` of a file: a PNG cut off in its pixel data. */
export function truncated(bytes: Buffer, fraction = 0.5): Buffer {
  return bytes.subarray(0, Math.floor(bytes.byteLength * fraction));
}
