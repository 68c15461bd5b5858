import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerAppSandbox } from '../src/apps/sandbox/worker-pool.ts';
import {
  type AppSandbox,
  noAppSandbox,
  SANDBOX_LIMITS,
  type SandboxRequest,
  type SandboxResult,
} from '../src/kernel/app-sandbox.ts';

// The app sandbox through its port, with the real worker pool: QuickJS in WebAssembly on worker
// threads. Runaway modules (endless loops, memory bombs, deep recursion, a native loop the
// interrupt handler never sees) must each answer a stable code while the process stays healthy.

const MiB = 2 ** 20;
const MARGIN_MS = 600;
let sandbox: AppSandbox;

beforeAll(async () => {
  sandbox = createWorkerAppSandbox({ size: 2, hardTimeoutMarginMs: MARGIN_MS });
  // Both threads warm before anything is timed.
  await Promise.all([call('export default () => 1'), call('export default () => 2')]);
});
afterAll(async () => sandbox?.close());

function call(
  moduleSource: string,
  input: unknown = null,
  limits?: SandboxRequest['limits'],
  exportName = 'default',
): Promise<SandboxResult> {
  return sandbox.run({ moduleSource, exportName, input, ...(limits ? { limits } : {}) });
}

const failed = (code: string, message?: unknown) => ({
  ok: false,
  code,
  message: message ?? expect.any(String),
});

describe('a pure module', () => {
  it('answers its export’s JSON output for a JSON input', async () => {
    const source = `
      export default (input) => input.a + 1;
      export function quote({ lines }) {
        const total = lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
        return { total, lines: lines.length, note: null, tags: ['a', 'b'] };
      }`;
    expect(await call(source, { a: 41 })).toEqual({ ok: true, output: 42 });
    const lines = [
      { price: 1250, quantity: 2 },
      { price: 99, quantity: 1 },
    ];
    expect(await call(source, { lines }, undefined, 'quote')).toEqual({
      ok: true,
      output: { total: 2599, lines: 2, note: null, tags: ['a', 'b'] },
    });
  });

  it('awaits an async export and a top-level await', async () => {
    expect(await call('export const twice = async (n) => n * 2', 21, undefined, 'twice')).toEqual({
      ok: true,
      output: 42,
    });
    expect(await call('const base = await Promise.resolve(40); export default (n) => base + n', 2)).toEqual({
      ok: true,
      output: 42,
    });
  });

  it('gets a fresh copy of its input every call and keeps nothing between calls', async () => {
    const source =
      'let calls = 0; export default (input) => { input.seen = true; calls += 1; return { input, calls } }';
    const input = { id: 'x' };
    expect(await call(source, input)).toEqual({
      ok: true,
      output: { input: { id: 'x', seen: true }, calls: 1 },
    });
    expect(await call(source, input)).toEqual({
      ok: true,
      output: { input: { id: 'x', seen: true }, calls: 1 },
    });
    expect(input).toEqual({ id: 'x' });
  });
});

describe('what a module cannot reach', () => {
  it('has no clock, no randomness and no host', async () => {
    const source = `export default () => ({
      date: typeof Date,
      random: typeof Math.random,
      fetch: typeof fetch,
      require: typeof require,
      process: typeof process,
      setTimeout: typeof setTimeout,
      webAssembly: typeof WebAssembly,
      console: typeof console,
      viaConstructor: globalThis.constructor.constructor('return [typeof process, typeof require, typeof Date]')(),
      viaFunction: Function('return typeof globalThis.process')(),
    })`;
    expect(await call(source)).toEqual({
      ok: true,
      output: {
        date: 'undefined',
        random: 'undefined',
        fetch: 'undefined',
        require: 'undefined',
        process: 'undefined',
        setTimeout: 'undefined',
        webAssembly: 'undefined',
        console: 'undefined',
        viaConstructor: ['undefined', 'undefined', 'undefined'],
        viaFunction: 'undefined',
      },
    });
  });

  it('cannot import, statically or dynamically', async () => {
    expect(await call("import { readFileSync } from 'node:fs'; export default () => 1")).toEqual(
      failed('APP_MODULE_INVALID', expect.stringContaining("could not load module 'node:fs'")),
    );
    const dynamic =
      "export default async () => { try { await import('node:fs'); return 'escaped' } catch { return 'refused' } }";
    expect(await call(dynamic)).toEqual({ ok: true, output: 'refused' });
  });

  it('answers the same for the same input', async () => {
    const source = `export default ({ seed }) => {
      let h = seed; for (let i = 0; i < 10000; i++) h = (h * 31 + i) % 1000003; return { h, key: Object.keys({ b: 1, a: 2 }) };
    }`;
    const first = await call(source, { seed: 7 });
    expect(first.ok).toBe(true);
    expect(await call(source, { seed: 7 })).toEqual(first);
  });
});

describe('a runaway module', () => {
  it('is stopped at its CPU deadline by the interrupt handler', async () => {
    const started = performance.now();
    const result = await call('export default () => { while (true) {} }', null, { cpuMs: 100 });
    const elapsed = performance.now() - started;
    expect(result).toEqual(failed('APP_MODULE_TIMEOUT', 'the module ran past its 100 ms deadline'));
    // The interrupt handler, not the host-side limit (deadline + margin), ended it.
    expect(elapsed).toBeGreaterThanOrEqual(100);
    expect(elapsed).toBeLessThan(100 + MARGIN_MS);
  });

  it('is stopped while its module is still loading, and in a promise job', async () => {
    expect(await call('for (;;) {} export default () => 1', null, { cpuMs: 50 })).toEqual(
      failed('APP_MODULE_TIMEOUT'),
    );
    const jobs = 'export default async () => { for (;;) await null }';
    expect(await call(jobs, null, { cpuMs: 50 })).toEqual(failed('APP_MODULE_TIMEOUT'));
  });

  it('is killed with its thread when a native loop never reaches the interrupt handler', async () => {
    // `includes` over a sparse array of 2^32-1 slots runs inside one engine built-in for minutes.
    const started = performance.now();
    const result = await call('export default () => new Array(2 ** 32 - 1).includes(1)', null, { cpuMs: 50 });
    expect(result).toEqual(failed('APP_MODULE_TIMEOUT', 'the module did not finish within 50 ms'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(50 + MARGIN_MS);
    // The thread was replaced: the pool still answers, on both threads.
    const after = await Promise.all([call('export default () => "a"'), call('export default () => "b"')]);
    expect(after).toEqual([
      { ok: true, output: 'a' },
      { ok: true, output: 'b' },
    ]);
  });

  it('is refused a 1 GiB allocation and stopped growing without the host’s memory growing', async () => {
    const before = process.memoryUsage().rss;
    expect(await call('export default () => new ArrayBuffer(2 ** 30).byteLength')).toEqual(
      failed('APP_MODULE_OUT_OF_MEMORY', 'the module needed more than its 32 MiB of memory'),
    );
    const growing = `export default () => {
      const kept = []; for (;;) kept.push('x'.repeat(1024) + kept.length);
    }`;
    expect(await call(growing, null, { cpuMs: 5000 })).toEqual(failed('APP_MODULE_OUT_OF_MEMORY'));
    const doubling = 'export default () => { let a = [1]; for (;;) a = a.concat(a); }';
    expect(await call(doubling, null, { cpuMs: 5000 })).toEqual(failed('APP_MODULE_OUT_OF_MEMORY'));
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * MiB);
  });

  it('gets the memory cap of its call', async () => {
    const twentyMiB = `export default () => new Uint8Array(${20 * MiB}).length`;
    expect(await call(twentyMiB, null, { memoryBytes: 16 * MiB })).toEqual(
      failed('APP_MODULE_OUT_OF_MEMORY'),
    );
    expect(await call(twentyMiB, null, { memoryBytes: 64 * MiB })).toEqual({ ok: true, output: 20 * MiB });
  });

  it('overflows its stack into a catchable error', async () => {
    const deep = 'const down = (n) => down(n + 1) + 1; export default () => down(0)';
    expect(await call(deep)).toEqual(failed('APP_MODULE_ERROR', 'InternalError: stack overflow'));
    const caught = `const down = (n) => down(n + 1) + 1;
      export default () => { try { return down(0) } catch (error) { return String(error) } }`;
    expect(await call(caught)).toEqual({ ok: true, output: 'InternalError: stack overflow' });
  });
});

describe('a failing module', () => {
  it('answers its error’s name and message, truncated, without a stack', async () => {
    expect(await call('export default () => { throw new TypeError("no price for SKU-1") }')).toEqual(
      failed('APP_MODULE_ERROR', 'TypeError: no price for SKU-1'),
    );
    expect(await call('export default async () => { throw new Error("later") }')).toEqual(
      failed('APP_MODULE_ERROR', 'Error: later'),
    );
    expect(await call('throw new RangeError("at load")')).toEqual(
      failed('APP_MODULE_ERROR', 'RangeError: at load'),
    );
    const long = await call('export default () => { throw "x".repeat(5000) }');
    expect(long).toEqual(failed('APP_MODULE_ERROR', `${'x'.repeat(SANDBOX_LIMITS.maxMessageLength)}…`));
    expect(await call('export default () => new Promise(() => {})')).toEqual(
      failed('APP_MODULE_ERROR', 'the returned promise never settled'),
    );
  });

  it('is invalid when it does not parse, is too large or lacks the function', async () => {
    expect(await call('export default (')).toEqual(
      failed(
        'APP_MODULE_INVALID',
        expect.stringMatching(/^the module does not parse: SyntaxError: .* \(line 1\)$/),
      ),
    );
    expect(await call('export const rate = 19', null, undefined, 'rate')).toEqual(
      failed('APP_MODULE_INVALID', 'the module exports no function named "rate"'),
    );
    expect(await call('export const rate = () => 19', null, undefined, 'quote')).toEqual(
      failed('APP_MODULE_INVALID', 'the module exports no function named "quote"'),
    );
    const large = `export default () => 1; // ${'x'.repeat(SANDBOX_LIMITS.maxModuleSourceBytes)}`;
    expect(await call(large)).toEqual(
      failed('APP_MODULE_INVALID', 'the module source is larger than 262144 bytes'),
    );
  });

  it('answers output invalid for what JSON cannot carry or too much of it', async () => {
    const outputs = [
      'undefined',
      '() => 1',
      '10n',
      '(() => { const o = {}; o.self = o; return o })()',
      '"x".repeat(300 * 1024)',
      '"é".repeat(200 * 1024)',
    ];
    for (const output of outputs) {
      expect(await call(`export default () => ${output}`), output).toEqual(
        failed('APP_MODULE_OUTPUT_INVALID'),
      );
    }
  });
});

describe('the pool', () => {
  it('answers 100 concurrent calls, some runaway, and stays healthy', async () => {
    const calls = Array.from({ length: 100 }, (_, i) => {
      if (i % 10 === 3) return call('export default () => { for (;;) {} }', null, { cpuMs: 30 });
      if (i === 50)
        return call('export default () => new Array(2 ** 32 - 1).includes(1)', null, { cpuMs: 30 });
      if (i % 10 === 7) return call('export default () => new ArrayBuffer(2 ** 30)');
      return call('export default ({ i }) => ({ i, square: i * i })', { i });
    });
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      if (i % 10 === 3 || i === 50) expect(result, `call ${i}`).toEqual(failed('APP_MODULE_TIMEOUT'));
      else if (i % 10 === 7) expect(result, `call ${i}`).toEqual(failed('APP_MODULE_OUT_OF_MEMORY'));
      else expect(result, `call ${i}`).toEqual({ ok: true, output: { i, square: i * i } });
    });
    expect(await call('export default () => "still here"')).toEqual({ ok: true, output: 'still here' });
  });

  it('keeps the event loop free while a module runs away', async () => {
    let timerFiredAt = Number.POSITIVE_INFINITY;
    let answeredAt = 0;
    const runaway = call('export default () => { for (;;) {} }', null, { cpuMs: 400 }).then((result) => {
      answeredAt = performance.now();
      return result;
    });
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        timerFiredAt = performance.now();
        resolve();
      }, 20),
    );
    expect(await runaway).toEqual(failed('APP_MODULE_TIMEOUT'));
    expect(timerFiredAt).toBeLessThan(answeredAt);
  });

  it('answers busy instead of queueing past its bound, and unavailable once closed', async () => {
    const small = createWorkerAppSandbox({ size: 1, maxQueued: 1 });
    const first = small.run({ moduleSource: 'export default () => 1', exportName: 'default', input: null });
    const second = small.run({ moduleSource: 'export default () => 2', exportName: 'default', input: null });
    expect(await second).toEqual(failed('APP_SANDBOX_BUSY'));
    expect(await first).toEqual({ ok: true, output: 1 });
    await small.close();
    expect(
      await small.run({ moduleSource: 'export default () => 1', exportName: 'default', input: null }),
    ).toEqual(failed('APP_SANDBOX_UNAVAILABLE', 'the sandbox is closed'));
  });

  it('answers input too large without running the module', async () => {
    const input = 'x'.repeat(SANDBOX_LIMITS.maxInputBytes);
    expect(await call('export default (text) => text.length', input)).toEqual(
      failed('APP_SANDBOX_INPUT_TOO_LARGE', "the input's JSON is larger than 4194304 bytes"),
    );
    // The largest input fits the smallest memory as text; parsing it there is an answer too.
    const largest = 'x'.repeat(SANDBOX_LIMITS.maxInputBytes - 2);
    expect(await call('export default (text) => text.length', largest, { memoryBytes: 16 * MiB })).toEqual(
      failed('APP_MODULE_OUT_OF_MEMORY'),
    );
    expect(await call('export default (text) => text.length', largest)).toEqual({
      ok: true,
      output: SANDBOX_LIMITS.maxInputBytes - 2,
    });
  });

  it('rejects a caller’s bug: limits out of bounds or an input that is not JSON', async () => {
    const request = { moduleSource: 'export default () => 1', exportName: 'default', input: null };
    await expect(sandbox.run({ ...request, limits: { cpuMs: 0 } })).rejects.toThrow(RangeError);
    await expect(sandbox.run({ ...request, limits: { cpuMs: SANDBOX_LIMITS.maxCpuMs + 1 } })).rejects.toThrow(
      RangeError,
    );
    await expect(sandbox.run({ ...request, limits: { memoryBytes: 8 * MiB } })).rejects.toThrow(RangeError);
    await expect(sandbox.run({ ...request, input: undefined })).rejects.toThrow(TypeError);
    await expect(sandbox.run({ ...request, input: { n: 1n } })).rejects.toThrow(TypeError);
  });

  it('is absent by default: the kernel’s stand-in answers unavailable', async () => {
    expect(
      await noAppSandbox.run({ moduleSource: 'export default () => 1', exportName: 'default', input: null }),
    ).toEqual(failed('APP_SANDBOX_UNAVAILABLE'));
  });
});
