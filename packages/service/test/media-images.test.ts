import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { pngBomb, pngDeclaring, sampleImage, samplePixels, truncated } from '../src/media/image-samples.ts';
import {
  IMAGE_LIMITS,
  inspectImage,
  reencodeAsPng,
  sniffImageFormat,
  verifyImage,
} from '../src/media/images.ts';

async function pixelsOf(png: Uint8Array): Promise<Buffer> {
  return sharp(png).removeAlpha().raw().toBuffer();
}

describe('inspectImage', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('reads a %s header without decoding', async (format) => {
    const bytes = await sampleImage(format, 64, 48);
    const inspected = await inspectImage(bytes);
    expect(inspected).toEqual({
      ok: true,
      value: { format, width: 64, height: 48, byteSize: bytes.byteLength },
    });
  });

  it.each([
    ['lossy WebP (VP8)', (image: Sharp) => image.webp({ quality: 80 }), 'webp'],
    ['extended WebP with alpha (VP8X)', (image: Sharp) => image.ensureAlpha(0.5).webp(), 'webp'],
    ['progressive JPEG', (image: Sharp) => image.jpeg({ progressive: true }), 'jpeg'],
    ['16-bit RGBA PNG', (image: Sharp) => image.ensureAlpha().toColourspace('rgb16').png(), 'png'],
  ] as const)('reads the header of a %s', async (_label, encode, format) => {
    const bytes = await encode(
      sharp(samplePixels(301, 203), { raw: { width: 301, height: 203, channels: 3 } }),
    ).toBuffer();
    expect(await inspectImage(bytes)).toMatchObject({ ok: true, value: { format, width: 301, height: 203 } });
    expect(await reencodeAsPng(bytes)).toMatchObject({ ok: true, value: { width: 301, height: 203 } });
  });

  it('refuses a GIF as an unsupported type, naming it', async () => {
    const gif = await sampleImage('gif');
    expect(sniffImageFormat(gif)).toBe('gif');
    const inspected = await inspectImage(gif);
    expect(inspected.ok).toBe(false);
    if (inspected.ok) return;
    expect(inspected.code).toBe('IMAGE_UNSUPPORTED_TYPE');
    expect(inspected.detail).toContain('GIF');
  });

  it.each([
    ['text', new TextEncoder().encode('hello, this is not an image')],
    ['nothing', new Uint8Array(0)],
    ['an SVG', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ])('refuses %s as an unsupported type', async (_label, bytes) => {
    const inspected = await inspectImage(bytes);
    expect(inspected.ok ? 'ok' : inspected.code).toBe('IMAGE_UNSUPPORTED_TYPE');
  });

  it('refuses more than 8 MiB before looking at the bytes', async () => {
    const big = new Uint8Array(IMAGE_LIMITS.maxBytes + 1);
    const inspected = await inspectImage(big);
    expect(inspected.ok ? 'ok' : inspected.code).toBe('IMAGE_TOO_LARGE');
    expect((await inspectImage(new Uint8Array(IMAGE_LIMITS.maxBytes))).ok).toBe(false); // zeros: not an image
    expect(inspected.ok ? undefined : inspected.extensions).toMatchObject({ maxBytes: 8 * 1024 * 1024 });
  });

  it('refuses a header cut short as invalid', async () => {
    const png = await sampleImage('png');
    for (const length of [8, 12, 20]) {
      const inspected = await inspectImage(png.subarray(0, length));
      expect(inspected.ok ? 'ok' : inspected.code).toBe('IMAGE_INVALID');
    }
    const jpeg = await sampleImage('jpeg');
    const inspected = await inspectImage(jpeg.subarray(0, 4));
    expect(inspected.ok ? 'ok' : inspected.code).toBe('IMAGE_INVALID');
  });

  it.each([
    ['100000 × 100000', 100_000, 100_000],
    ['one side past 8192', 8193, 10],
    ['8000 × 8000 (64 MP, past 40 MP)', 8000, 8000],
  ])('refuses a PNG declaring %s', async (_label, width, height) => {
    const inspected = await inspectImage(pngDeclaring(width, height));
    expect(inspected.ok ? 'ok' : inspected.code).toBe('IMAGE_DIMENSIONS_EXCEEDED');
    expect(inspected.ok ? undefined : inspected.extensions).toMatchObject({ width, height });
  });

  it('accepts the largest allowed declaration (the header alone is checked)', async () => {
    const inspected = await inspectImage(pngDeclaring(8192, 4882));
    expect(inspected.ok).toBe(true);
  });
});

describe('reencodeAsPng', () => {
  it('re-encodes PNG and lossless WebP pixel for pixel', async () => {
    for (const format of ['png', 'webp'] as const) {
      const encoded = await reencodeAsPng(await sampleImage(format, 40, 30));
      expect(encoded.ok).toBe(true);
      if (!encoded.ok) return;
      expect(sniffImageFormat(encoded.value.png)).toBe('png');
      expect([encoded.value.width, encoded.value.height]).toEqual([40, 30]);
      expect((await pixelsOf(encoded.value.png)).equals(samplePixels(40, 30))).toBe(true);
    }
  });

  it('re-encodes a JPEG as a PNG of the same size', async () => {
    const encoded = await reencodeAsPng(await sampleImage('jpeg', 64, 48));
    expect(encoded.ok).toBe(true);
    if (!encoded.ok) return;
    expect(sniffImageFormat(encoded.value.png)).toBe('png');
    expect(encoded.value.source.format).toBe('jpeg');
    const metadata = await sharp(encoded.value.png).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 64, 48]);
  });

  it('refuses a PNG truncated in its pixel data (the header alone passes)', async () => {
    const cut = truncated(await sampleImage('png', 256, 256));
    expect((await inspectImage(cut)).ok).toBe(true);
    const encoded = await reencodeAsPng(cut);
    expect(encoded.ok ? 'ok' : encoded.code).toBe('IMAGE_INVALID');
  });

  it('refuses a truncated JPEG and a PNG with a damaged body', async () => {
    const jpeg = await sampleImage('jpeg', 256, 256);
    const encodedJpeg = await reencodeAsPng(jpeg.subarray(0, jpeg.byteLength - 200));
    expect(encodedJpeg.ok ? 'ok' : encodedJpeg.code).toBe('IMAGE_INVALID');
    const png = Buffer.from(await sampleImage('png', 64, 64));
    png.fill(0x41, 60, 120); // inside IDAT: CRC and zlib stream broken
    const encodedPng = await reencodeAsPng(png);
    expect(encodedPng.ok ? 'ok' : encodedPng.code).toBe('IMAGE_INVALID');
  });

  it('refuses the GIF and the lying header without decoding', async () => {
    expect(await reencodeAsPng(await sampleImage('gif'))).toMatchObject({
      ok: false,
      code: 'IMAGE_UNSUPPORTED_TYPE',
    });
    expect(await reencodeAsPng(pngDeclaring(100_000, 100_000))).toMatchObject({
      ok: false,
      code: 'IMAGE_DIMENSIONS_EXCEEDED',
    });
  });

  it('refuses a real 20000 × 20000 decompression bomb with memory bounded', async () => {
    const bomb = await pngBomb(20_000);
    // 400 MB of pixels (1.6 GB as RGBA) compressed into a few hundred KB.
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const encoded = await reencodeAsPng(bomb);
    const rssAfter = process.memoryUsage().rss;
    expect(encoded).toMatchObject({ ok: false, code: 'IMAGE_DIMENSIONS_EXCEEDED' });
    // A decoder that ran would have taken hundreds of MB; the header check takes none.
    expect(rssAfter - rssBefore).toBeLessThan(64 * 1024 * 1024);
    console.info(
      `bomb: ${bomb.byteLength} bytes declaring 20000 × 20000; RSS ${Math.round(rssBefore / 1048576)} → ${Math.round(rssAfter / 1048576)} MiB; process peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`,
    );
  });

  it('holds libvips to the pixel limit too when a caller widens the header check', async () => {
    // With the header limits opened up, the decoder's own limitInputPixels still stops the bomb.
    const bomb = await pngBomb(20_000);
    const encoded = await reencodeAsPng(bomb, {
      maxBytes: IMAGE_LIMITS.maxBytes,
      maxSide: 20_000,
      maxPixels: 40_000_000,
    });
    expect(encoded.ok ? 'ok' : encoded.code).toBe('IMAGE_DIMENSIONS_EXCEEDED');
  });
});

describe('verifyImage', () => {
  it.each(['png', 'jpeg', 'webp'] as const)(
    'accepts a whole %s and keeps its bytes as sent',
    async (format) => {
      const bytes = await sampleImage(format, 64, 48);
      const verified = await verifyImage(bytes);
      expect(verified).toMatchObject({
        ok: true,
        value: { format, width: 64, height: 48, byteSize: bytes.byteLength },
      });
      expect(verified.ok && verified.value.bytes).toBe(bytes);
    },
  );

  it('decodes every row: a truncated PNG or JPEG is refused', async () => {
    const png = truncated(await sampleImage('png', 256, 256), 0.7);
    expect(await verifyImage(png)).toMatchObject({ ok: false, code: 'IMAGE_INVALID' });
    const jpeg = await sampleImage('jpeg', 256, 256);
    expect(await verifyImage(jpeg.subarray(0, jpeg.byteLength - 300))).toMatchObject({
      ok: false,
      code: 'IMAGE_INVALID',
    });
  });

  it('refuses the bomb and the lying header before decoding', async () => {
    expect(await verifyImage(await pngBomb(20_000))).toMatchObject({
      ok: false,
      code: 'IMAGE_DIMENSIONS_EXCEEDED',
    });
    expect(await verifyImage(pngDeclaring(100_000, 100_000))).toMatchObject({
      ok: false,
      code: 'IMAGE_DIMENSIONS_EXCEEDED',
    });
  });
});
