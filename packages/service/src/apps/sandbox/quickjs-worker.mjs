// One thread of the app sandbox pool (`worker-pool.ts`): runs app modules in QuickJS compiled to
// WebAssembly, one call at a time, each in a fresh instance on a zeroed `WebAssembly.Memory` that
// is exactly the call's cap (QuickJS's own memory limit does not hold in the WASM build). Decision
// 0034 has the design and the measurements. Plain JavaScript on purpose: on Node 20 a worker thread does not inherit tsx's `--import` hooks, so a .ts entry
// would fail under `pnpm start`; this file runs unchanged under node, tsx and vitest.
//
// Messages in:  { id, moduleSource, exportName, inputJson, cpuMs, memoryPages }
// Messages out: { kind: 'ready' } once warm, then { kind: 'result', id, result } per call, where
//               result is { ok: true, outputJson } or { ok: false, code, message }.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import releaseVariant from '@jitl/quickjs-wasmfile-release-sync';
import { DefaultIntrinsics, newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';

/** @type {{ sparePages: number, maxOutputBytes: number, maxMessageLength: number }} */
const { sparePages, maxOutputBytes, maxMessageLength } = workerData;

/**
 * QuickJS's own recursion limit. It must trip before the thread's native stack (each JS call is
 * several WASM frames there), so deep recursion is a catchable InternalError inside the sandbox.
 */
const STACK_BYTES = 256 * 1024;

const wasmModule = await WebAssembly.compile(
  readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')),
);

/** Runs before the app's module: removes what is not pure and keeps its own JSON functions. */
const BOOTSTRAP = `(() => {
  delete Math.random;
  const parse = JSON.parse, stringify = JSON.stringify, text = String, max = ${maxMessageLength};
  return {
    parse: (json) => parse(json),
    encode: (value) => stringify(value),
    describe: (error) => {
      try {
        let described = error instanceof Error ? text(error.name) + ': ' + text(error.message) : text(error);
        if (error instanceof SyntaxError && typeof error.lineNumber === 'number') described += ' (line ' + error.lineNumber + ')';
        return described.length > max ? described.slice(0, max) + '…' : described;
      } catch {
        return 'a value that cannot be shown';
      }
    },
  };
})()`;

/**
 * The default cap's memory, zeroed and reused: a fresh `WebAssembly.Memory` per call costs an
 * address-space reservation and the garbage collections that free it (several times the run).
 * Zeroed memory and a new instance are as clean as a fresh memory; other caps get fresh ones.
 */
const reusableMemory = new WebAssembly.Memory({ initial: sparePages, maximum: sparePages });

function memoryFor(pages) {
  if (pages !== sparePages) return new WebAssembly.Memory({ initial: pages, maximum: pages });
  new Uint8Array(reusableMemory.buffer).fill(0);
  return reusableMemory;
}

/** A QuickJS instance of its own: the compiled module, instantiated on a memory that cannot grow. */
function instantiate(pages) {
  const quiet = { print() {}, printErr() {} };
  return newQuickJSWASMModuleFromVariant(
    newVariant(releaseVariant, { wasmModule, wasmMemory: memoryFor(pages), emscriptenModule: quiet }),
  );
}

/**
 * The next call's instance, made while the thread is idle (calls at the default cap skip the
 * cost). At most one instance is alive on `reusableMemory`: this one or the running call's.
 */
let spare = null;

function prepareSpare() {
  if (spare) return;
  const engine = instantiate(sparePages);
  engine.catch(() => {});
  spare = { pages: sparePages, engine };
}

function takeEngine(pages) {
  if (spare?.pages === pages) {
    const { engine } = spare;
    spare = null;
    return engine;
  }
  return instantiate(pages);
}

const failure = (code, message) => ({ ok: false, code, message });

/**
 * Runs one call in a fresh instance. The instance is dropped whole afterwards, never freed
 * piecemeal: freeing after an interrupted or out-of-memory run can itself abort.
 */
function runCall(QuickJS, call) {
  const runtime = QuickJS.newRuntime();
  runtime.setMaxStackSize(STACK_BYTES);
  let deadline = Number.POSITIVE_INFINITY;
  let interrupted = false;
  runtime.setInterruptHandler(() => {
    if (performance.now() <= deadline) return false;
    interrupted = true;
    return true;
  });
  const context = runtime.newContext({ intrinsics: { ...DefaultIntrinsics, Date: false } });
  const helpers = context.unwrapResult(context.evalCode(BOOTSTRAP, 'sandbox.js', { type: 'global' }));
  const describeFn = context.getProp(helpers, 'describe');
  const parseFn = context.getProp(helpers, 'parse');
  const encodeFn = context.getProp(helpers, 'encode');

  const timedOut = () => failure('APP_MODULE_TIMEOUT', `the module ran past its ${call.cpuMs} ms deadline`);
  const outOfMemory = () =>
    failure(
      'APP_MODULE_OUT_OF_MEMORY',
      `the module needed more than its ${(call.memoryPages * 65536) / 2 ** 20} MiB of memory`,
    );
  const describe = (error) => {
    const described = context.callFunction(describeFn, context.undefined, error);
    return described.error ? 'an error that cannot be shown' : context.getString(described.value);
  };
  /** What a QuickJS exception means; `phase` says what was running when it was thrown. */
  const failureOf = (error, phase) => {
    // Describing runs the module's own code (a getter, a toString); past the deadline it cannot.
    const message = interrupted ? '' : describe(error);
    if (message === 'InternalError: out of memory') return outOfMemory();
    if (phase === 'module' && message.startsWith('SyntaxError: '))
      return failure('APP_MODULE_INVALID', `the module does not parse: ${message}`);
    if (phase === 'module' && message.startsWith('ReferenceError: could not load module'))
      return failure('APP_MODULE_INVALID', `the module imports something; nothing is importable: ${message}`);
    if (phase === 'output') return failure('APP_MODULE_OUTPUT_INVALID', `the output is not JSON: ${message}`);
    return failure('APP_MODULE_ERROR', message);
  };
  /** The value a promise settles to (running the module's pending jobs), or the value itself. */
  const settle = (handle) => {
    if (context.typeof(handle) !== 'object') return { value: handle };
    let state = context.getPromiseState(handle);
    while (state.type === 'pending') {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) return { error: jobs.error };
      if (jobs.value === 0) return { pending: true };
      state = context.getPromiseState(handle);
    }
    return state.type === 'fulfilled' ? { value: state.value } : { error: state.error };
  };

  const steps = () => {
    deadline = performance.now() + call.cpuMs;
    const evaluated = context.evalCode(call.moduleSource, 'app.js', { type: 'module' });
    if (evaluated.error) return failureOf(evaluated.error, 'module');
    const namespace = settle(evaluated.value);
    if (namespace.error) return failureOf(namespace.error, 'module');
    if (namespace.pending) return failure('APP_MODULE_ERROR', 'the module’s top-level await never settled');
    const fn = context.getProp(namespace.value, call.exportName);
    if (context.typeof(fn) !== 'function')
      return failure('APP_MODULE_INVALID', `the module exports no function named "${call.exportName}"`);

    const input = context.callFunction(parseFn, context.undefined, context.newString(call.inputJson));
    if (input.error) return failureOf(input.error, 'call');
    const returned = context.callFunction(fn, context.undefined, input.value);
    if (returned.error) return failureOf(returned.error, 'call');
    const output = settle(returned.value);
    if (output.error) return failureOf(output.error, 'call');
    if (output.pending) return failure('APP_MODULE_ERROR', 'the returned promise never settled');

    const encoded = context.callFunction(encodeFn, context.undefined, output.value);
    if (encoded.error) return failureOf(encoded.error, 'output');
    if (context.typeof(encoded.value) !== 'string')
      return failure(
        'APP_MODULE_OUTPUT_INVALID',
        'the output is not JSON (undefined, a function or a symbol)',
      );
    const tooLarge = () =>
      failure('APP_MODULE_OUTPUT_INVALID', `the output's JSON is larger than ${maxOutputBytes} bytes`);
    // Characters never outnumber UTF-8 bytes: refuse before copying a huge string out.
    if ((context.getLength(encoded.value) ?? 0) > maxOutputBytes) return tooLarge();
    const outputJson = context.getString(encoded.value);
    if (Buffer.byteLength(outputJson) > maxOutputBytes) return tooLarge();
    return { ok: true, outputJson };
  };

  /** A trap or abort inside the WebAssembly, or the thread's own stack: the instance is unusable. */
  const engineFailure = (error) => {
    const text = error instanceof Error ? error.message : String(error);
    if (error instanceof RangeError && text.includes('call stack'))
      return failure('APP_MODULE_ERROR', 'InternalError: stack overflow');
    if (/out of memory|\bOOM\b|enlarge memory/i.test(text)) return outOfMemory();
    return failure('APP_MODULE_ERROR', 'the module stopped the sandbox engine');
  };

  let outcome;
  try {
    outcome = steps();
  } catch (error) {
    outcome = engineFailure(error);
  }
  // Whatever a run ends with after its deadline passed is a timeout: an interrupted promise job,
  // for one, leaves its promise pending rather than rejected.
  return interrupted ? timedOut() : outcome;
}

async function answer(call) {
  let QuickJS;
  try {
    QuickJS = await takeEngine(call.memoryPages);
  } catch {
    return failure('APP_SANDBOX_UNAVAILABLE', 'the sandbox could not reserve the memory for this call');
  }
  return runCall(QuickJS, call);
}

// Warm-up: the first call after load pays for the engine's own start (tens of milliseconds).
await answer({
  id: 0,
  moduleSource: 'export default (input) => input',
  exportName: 'default',
  inputJson: '{}',
  cpuMs: 1000,
  memoryPages: sparePages,
});
prepareSpare();

parentPort.on('message', async (call) => {
  const result = await answer(call);
  parentPort.postMessage({ kind: 'result', id: call.id, result });
  prepareSpare();
});
parentPort.postMessage({ kind: 'ready' });
