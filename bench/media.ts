// The image draft pipeline (decision 0044) on one 2048 × 2048 image: what the media worker does
// with a provider's answer once it arrived (the base64 text decoded, then `reencodeAsPng`: the
// header check, the full decode under libvips' pixel limit, EXIF orientation, the PNG written),
// against the named baseline: the bare decode + PNG encode of the same bytes with the same library
// (sharp, `sharp(bytes).png().toBuffer()`), no checks. Each phase runs in a fresh process so its
// peak RSS is its own: drafts/s, p50, and the peak RSS over the process's RSS before the first
// image (`maxRSS`), with the pipeline's ratio to the baseline. The pipeline's output must decode
// to the source's pixels (a PNG source: lossless), or the run fails.
//
//   corepack pnpm bench:media
//   BENCH_ITERATIONS=20 corepack pnpm bench:media
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROVIDER_IMAGE_LIMITS, reencodeAsPng } from '@cartwright/service';
import sharp from 'sharp';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 8);
const SIDE = 2048;
type PhaseName = 'pipeline' | 'baseline';

/** A repeatable photo-like picture: gradients with deterministic noise (compresses like a photo, not a flat fill). */
async function sourceImage(format: 'png' | 'jpeg'): Promise<Buffer> {
  const raw = Buffer.alloc(SIDE * SIDE * 3);
  let seed = 0x2545f491;
  for (let y = 0; y < SIDE; y += 1) {
    for (let x = 0; x < SIDE; x += 1) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      const noise = (seed >>> 27) & 15;
      const at = (y * SIDE + x) * 3;
      raw[at] = ((x >> 3) + noise) & 255;
      raw[at + 1] = ((y >> 3) + noise) & 255;
      raw[at + 2] = (((x + y) >> 4) + noise) & 255;
    }
  }
  const image = sharp(raw, { raw: { width: SIDE, height: SIDE, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

interface Phase {
  readonly perSecond: number;
  readonly p50Ms: number;
  /** Peak RSS of the phase's process over its RSS before the first image, in MiB. */
  readonly peakRssMiB: number;
}

/** One phase in this (child) process: a checked first run, then ITERATIONS timed runs. */
async function runPhase(phase: PhaseName, file: string, format: string): Promise<Phase> {
  const bytes = readFileSync(file);
  // What arrives from the provider: the image as base64 in its JSON answer.
  const answer = bytes.toString('base64');
  const before = process.memoryUsage.rss();
  const work =
    phase === 'pipeline'
      ? async () => {
          const result = await reencodeAsPng(Buffer.from(answer, 'base64'), PROVIDER_IMAGE_LIMITS);
          if (!result.ok) throw new Error(`the pipeline refused the image: ${result.code} ${result.detail}`);
          return result.value.png;
        }
      : async () => sharp(bytes).png().toBuffer();
  const first = await work();
  if (phase === 'pipeline' && format === 'png') {
    const pixels = (image: Uint8Array) => sharp(image).ensureAlpha().raw().toBuffer();
    if (!(await pixels(first)).equals(await pixels(bytes)))
      throw new Error('the pipeline changed the pixels');
  }
  const times: number[] = [];
  const started = performance.now();
  for (let index = 0; index < ITERATIONS; index += 1) {
    const at = performance.now();
    await work();
    times.push(performance.now() - at);
  }
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    perSecond: ITERATIONS / (elapsed / 1000),
    p50Ms: times[Math.floor(times.length / 2)]!,
    peakRssMiB: (process.resourceUsage().maxRSS * 1024 - before) / (1024 * 1024),
  };
}

function phaseInChild(phase: PhaseName, file: string, format: string): Phase {
  const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, phase, file, format], {
    encoding: 'utf8',
    env: process.env,
  });
  if (child.status !== 0) throw new Error(`${phase} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Phase;
}

async function main(): Promise<void> {
  const [phase, file, format] = process.argv.slice(2);
  if (phase === 'pipeline' || phase === 'baseline') {
    console.log(JSON.stringify(await runPhase(phase, file!, format!)));
    return;
  }
  console.log(
    `image draft pipeline, ${SIDE} × ${SIDE}, ${ITERATIONS} iterations per phase (sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips})`,
  );
  const directory = mkdtempSync(join(tmpdir(), 'bench-media-'));
  const rows: string[][] = [];
  try {
    for (const kind of ['png', 'jpeg'] as const) {
      const bytes = await sourceImage(kind);
      const path = join(directory, `source.${kind}`);
      writeFileSync(path, bytes);
      const baseline = phaseInChild('baseline', path, kind);
      const pipeline = phaseInChild('pipeline', path, kind);
      rows.push([
        `${kind.toUpperCase()} ${(bytes.length / 1024 / 1024).toFixed(1)} MiB`,
        baseline.perSecond.toFixed(2),
        pipeline.perSecond.toFixed(2),
        (pipeline.perSecond / baseline.perSecond).toFixed(2),
        `${baseline.p50Ms.toFixed(0)} / ${pipeline.p50Ms.toFixed(0)}`,
        `${baseline.peakRssMiB.toFixed(0)} / ${pipeline.peakRssMiB.toFixed(0)}`,
        (pipeline.peakRssMiB / baseline.peakRssMiB).toFixed(2),
      ]);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  const header = [
    'source',
    'baseline/s',
    'pipeline/s',
    '× baseline',
    'p50 ms (base / pipe)',
    'peak RSS MiB (base / pipe)',
    'RSS ×',
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

await main();
