import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  type AppSandbox,
  SANDBOX_LIMITS,
  type SandboxFailureCode,
  type SandboxRequest,
  type SandboxResult,
} from '../../kernel/app-sandbox.ts';

// The app sandbox as a pool of worker threads running `quickjs-worker.mjs`. A sandboxed run
// blocks its thread until it ends, so runs never share the event loop of the process; the pool
// starts no thread before the first call, answers busy instead of queueing without bound, and
// replaces a thread that stops answering (its call answers APP_MODULE_TIMEOUT).

export interface WorkerSandboxOptions {
  /** Threads, each running one call at a time. Default: min(2, available parallelism). */
  readonly size?: number;
  /** Calls that may wait for a free thread; one more answers APP_SANDBOX_BUSY. Default 256. */
  readonly maxQueued?: number;
  /**
   * Added to a call's `cpuMs` for the host-side limit, past which its thread is terminated and
   * replaced. It covers the instance start and a loaded machine. Default 1000.
   */
  readonly hardTimeoutMarginMs?: number;
}

const WASM_PAGE = 65_536;
/** A thread that is not warm by then is broken (a normal start takes well under a second). */
const START_TIMEOUT_MS = 30_000;
/** The worker's own JavaScript heap; sandbox memories are WebAssembly memories outside it. */
const WORKER_HEAP_MB = 64;

interface Call {
  readonly id: number;
  readonly moduleSource: string;
  readonly exportName: string;
  readonly inputJson: string;
  readonly cpuMs: number;
  readonly memoryPages: number;
}

type WorkerAnswer =
  | { readonly ok: true; readonly outputJson: string }
  | { readonly ok: false; readonly code: SandboxFailureCode; readonly message: string };

type WorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'result'; readonly id: number; readonly result: WorkerAnswer };

interface Job {
  readonly call: Call;
  readonly answer: (result: SandboxResult) => void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const failure = (code: SandboxFailureCode, message: string): SandboxResult => ({ ok: false, code, message });

/** A sandbox whose threads start on the first call; `close` stops them. */
export function createWorkerAppSandbox(options: WorkerSandboxOptions = {}): AppSandbox {
  const size = options.size ?? Math.min(2, availableParallelism());
  const maxQueued = options.maxQueued ?? 256;
  const marginMs = options.hardTimeoutMarginMs ?? 1000;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`size must be a positive integer: ${size}`);
  const sparePages = Math.ceil(SANDBOX_LIMITS.defaultMemoryBytes / WASM_PAGE);
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): void {
    const worker = new Worker(new URL('./quickjs-worker.mjs', import.meta.url), {
      workerData: {
        sparePages,
        maxOutputBytes: SANDBOX_LIMITS.maxOutputBytes,
        maxMessageLength: SANDBOX_LIMITS.maxMessageLength,
      },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    slots.add(slot);
    // Until warm the thread keeps the process alive (a waiting call needs it); idle, it does not.
    slot.timer = setTimeout(() => void retire(slot, null), START_TIMEOUT_MS).unref();
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'ready') {
        clearSlotTimer(slot);
        slot.ready = true;
        worker.unref();
        dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.call.id !== message.id) return;
      clearSlotTimer(slot);
      slot.job = null;
      worker.unref();
      job.answer(resultOf(message.result));
      dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      void retire(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'APP_MODULE_OUT_OF_MEMORY' : null);
    });
    worker.on('exit', () => void retire(slot, null));
  }

  function clearSlotTimer(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
  }

  /** Ends a thread that died, hung or failed to start; its call fails, a new thread takes its place. */
  async function retire(slot: Slot, code: SandboxFailureCode | null): Promise<void> {
    if (!slots.delete(slot)) return;
    clearSlotTimer(slot);
    const job = slot.job;
    slot.job = null;
    if (job) {
      job.answer(
        code === 'APP_MODULE_OUT_OF_MEMORY'
          ? failure(code, 'the module exhausted its sandbox thread’s memory')
          : failure('APP_MODULE_TIMEOUT', `the module did not finish within ${job.call.cpuMs} ms`),
      );
    } else if (!slot.ready) {
      // A thread that cannot start would fail every replacement too: answer the waiting calls.
      for (const waiting of queue.splice(0)) {
        waiting.answer(failure('APP_SANDBOX_UNAVAILABLE', 'the sandbox thread could not start'));
      }
    }
    await slot.worker.terminate();
    if (!closed && queue.length > 0 && slots.size < size) spawn();
    dispatch();
  }

  function dispatch(): void {
    for (const slot of [...slots]) {
      if (queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = queue.shift()!;
      slot.job = job;
      // Least recently used first: a thread just answered is still preparing its next instance.
      slots.delete(slot);
      slots.add(slot);
      slot.worker.ref();
      slot.timer = setTimeout(() => void retire(slot, null), job.call.cpuMs + marginMs);
      slot.worker.postMessage(job.call);
    }
  }

  return {
    async run(request: SandboxRequest): Promise<SandboxResult> {
      const call = callOf(request, nextId++);
      if (!call.ok) return call.refused;
      if (closed) return failure('APP_SANDBOX_UNAVAILABLE', 'the sandbox is closed');
      if (queue.length >= maxQueued)
        return failure('APP_SANDBOX_BUSY', `${queue.length} calls are already waiting for the sandbox`);
      return new Promise((answer) => {
        queue.push({ call: call.call, answer });
        while (slots.size < size) spawn();
        dispatch();
      });
    },
    async close() {
      closed = true;
      const gone = failure('APP_SANDBOX_UNAVAILABLE', 'the sandbox closed');
      for (const job of queue.splice(0)) job.answer(gone);
      const stopping = [...slots];
      slots.clear();
      for (const slot of stopping) {
        clearSlotTimer(slot);
        slot.job?.answer(gone);
        slot.job = null;
      }
      await Promise.all(stopping.map((slot) => slot.worker.terminate()));
    },
  };
}

/** The message for a thread, or the answer when the request cannot run at all. */
function callOf(
  request: SandboxRequest,
  id: number,
): { ok: true; call: Call } | { ok: false; refused: SandboxResult } {
  const cpuMs = request.limits?.cpuMs ?? SANDBOX_LIMITS.defaultCpuMs;
  const memoryBytes = request.limits?.memoryBytes ?? SANDBOX_LIMITS.defaultMemoryBytes;
  if (!Number.isInteger(cpuMs) || cpuMs < 1 || cpuMs > SANDBOX_LIMITS.maxCpuMs)
    throw new RangeError(`cpuMs must be an integer from 1 to ${SANDBOX_LIMITS.maxCpuMs}: ${cpuMs}`);
  if (
    !Number.isInteger(memoryBytes) ||
    memoryBytes < SANDBOX_LIMITS.minMemoryBytes ||
    memoryBytes > SANDBOX_LIMITS.maxMemoryBytes
  )
    throw new RangeError(
      `memoryBytes must be from ${SANDBOX_LIMITS.minMemoryBytes} to ${SANDBOX_LIMITS.maxMemoryBytes}: ${memoryBytes}`,
    );
  const inputJson = JSON.stringify(request.input);
  if (typeof inputJson !== 'string') throw new TypeError('the sandbox input is not a JSON value');
  if (Buffer.byteLength(inputJson) > SANDBOX_LIMITS.maxInputBytes)
    return {
      ok: false,
      refused: failure(
        'APP_SANDBOX_INPUT_TOO_LARGE',
        `the input's JSON is larger than ${SANDBOX_LIMITS.maxInputBytes} bytes`,
      ),
    };
  if (Buffer.byteLength(request.moduleSource) > SANDBOX_LIMITS.maxModuleSourceBytes)
    return {
      ok: false,
      refused: failure(
        'APP_MODULE_INVALID',
        `the module source is larger than ${SANDBOX_LIMITS.maxModuleSourceBytes} bytes`,
      ),
    };
  const memoryPages = Math.ceil(memoryBytes / WASM_PAGE);
  return {
    ok: true,
    call: {
      id,
      moduleSource: request.moduleSource,
      exportName: request.exportName,
      inputJson,
      cpuMs,
      memoryPages,
    },
  };
}

function resultOf(answer: WorkerAnswer): SandboxResult {
  if (!answer.ok) return answer;
  return { ok: true, output: JSON.parse(answer.outputJson) };
}
