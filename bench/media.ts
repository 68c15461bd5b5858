// The image draft pipeline (decision 0044) on one 2048 × 2048 image: what the media worker does
// with a provider's answer once it arrived (the base64 text decoded, then `reencodeAsPng`: the
// header check, the full decode under libvips' pixel limit, EXIF orientation, the PNG written),
// against the named baseline: the bare decode + PNG encode of the same bytes with the same library
// (sharp, `sharp(bytes).png().toBuffer()`), no checks. Throughput: both phases interleaved in one
// process (medians, so load elsewhere falls on both alike); peak RSS: each phase alone in a fresh
// process (its `maxRSS` over its RSS before the first image). The pipeline's output must decode
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

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 6);
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

/** The work of one phase on the source's bytes; answers the PNG written. */
function phaseWork(phase: PhaseName, bytes: Buffer): () => Promise<Uint8Array> {
  // What arrives from the provider: the image as base64 in its JSON answer.
  const answer = bytes.toString('base64');
  return phase === 'pipeline'
    ? async () => {
        const result = await reencodeAsPng(Buffer.from(answer, 'base64'), PROVIDER_IMAGE_LIMITS);
        if (!result.ok) throw new Error(`the pipeline refused the image: ${result.code} ${result.detail}`);
        return result.value.png;
      }
    : async () => sharp(bytes).png().toBuffer();
}

interface Timing {
  /** Median milliseconds per image of each phase, measured interleaved. */
  readonly pipelineMs: number;
  readonly baselineMs: number;
}

/**
 * Throughput in one process: ITERATIONS rounds, each running both phases (alternating which goes
 * first), so load from elsewhere on the machine falls on both alike; medians per phase.
 */
async function runTiming(file: string, format: string): Promise<Timing> {
  const bytes = readFileSync(file);
  const pipeline = phaseWork('pipeline', bytes);
  const baseline = phaseWork('baseline', bytes);
  const first = await pipeline();
  await baseline();
  if (format === 'png') {
    const pixels = (image: Uint8Array) => sharp(image).ensureAlpha().raw().toBuffer();
    if (!(await pixels(first)).equals(await pixels(bytes)))
      throw new Error('the pipeline changed the pixels');
  }
  const times = { pipeline: [] as number[], baseline: [] as number[] };
  for (let index = 0; index < ITERATIONS; index += 1) {
    const order: PhaseName[] = index % 2 === 0 ? ['pipeline', 'baseline'] : ['baseline', 'pipeline'];
    for (const phase of order) {
      const at = performance.now();
      await (phase === 'pipeline' ? pipeline : baseline)();
      times[phase].push(performance.now() - at);
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { pipelineMs: median(times.pipeline), baselineMs: median(times.baseline) };
}

/** Peak RSS of one phase in a fresh process over its RSS before the first image, in MiB. */
async function runMemory(phase: PhaseName, file: string): Promise<number> {
  const bytes = readFileSync(file);
  const work = phaseWork(phase, bytes);
  const before = process.memoryUsage.rss();
  for (let index = 0; index < 3; index += 1) await work();
  return (process.resourceUsage().maxRSS * 1024 - before) / (1024 * 1024);
}

function inChild<T>(args: string[]): T {
  const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, ...args], {
    encoding: 'utf8',
    env: process.env,
  });
  if (child.status !== 0) throw new Error(`${args[0]} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as T;
}

async function main(): Promise<void> {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode === 'timing') {
    console.log(JSON.stringify(await runTiming(rest[0]!, rest[1]!)));
    return;
  }
  if (mode === 'memory') {
    console.log(JSON.stringify(await runMemory(rest[0] as PhaseName, rest[1]!)));
    return;
  }
  console.log(
    `image draft pipeline, ${SIDE} × ${SIDE}, ${ITERATIONS} interleaved iterations (sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips})`,
  );
  const directory = mkdtempSync(join(tmpdir(), 'bench-media-'));
  const rows: string[][] = [];
  try {
    for (const kind of ['png', 'jpeg'] as const) {
      const bytes = await sourceImage(kind);
      const path = join(directory, `source.${kind}`);
      writeFileSync(path, bytes);
      const timing = inChild<Timing>(['timing', path, kind]);
      const baselineRss = inChild<number>(['memory', 'baseline', path]);
      const pipelineRss = inChild<number>(['memory', 'pipeline', path]);
      rows.push([
        `${kind.toUpperCase()} ${(bytes.length / 1024 / 1024).toFixed(1)} MiB`,
        (1000 / timing.baselineMs).toFixed(2),
        (1000 / timing.pipelineMs).toFixed(2),
        (timing.baselineMs / timing.pipelineMs).toFixed(2),
        `${timing.baselineMs.toFixed(0)} / ${timing.pipelineMs.toFixed(0)}`,
        `${baselineRss.toFixed(0)} / ${pipelineRss.toFixed(0)}`,
        (pipelineRss / baselineRss).toFixed(2),
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
    'median ms (base / pipe)',
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
