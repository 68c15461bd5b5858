// The app sandbox port. An app may ship one JavaScript module whose exported functions implement
// its service actions; the service runs them only through this interface. A run sees nothing
// but its JSON input: no I/O, no clock, no randomness, no imports. It is stopped at its CPU
// deadline and refused memory beyond its cap, and every way it can go wrong is an answer with a
// stable code, never an exception: a runaway module must leave the process healthy. JSON in and
// out is all the port promises; checking the output against the action's declared types is the
// caller's job. The adapter (`apps/sandbox/`) runs QuickJS compiled to WebAssembly in worker
// threads; decision 0034 has the design and the measured costs.

/** Bounds of a run's limits, and the defaults a request without limits gets. */
export const SANDBOX_LIMITS = {
  defaultCpuMs: 100,
  maxCpuMs: 10_000,
  /** The WebAssembly build's own minimum (its data, stack and heap start at 16 MiB). */
  minMemoryBytes: 16 * 1024 * 1024,
  defaultMemoryBytes: 32 * 1024 * 1024,
  maxMemoryBytes: 256 * 1024 * 1024,
  /** UTF-8 bytes of the module source; a larger source answers `APP_MODULE_INVALID`. */
  maxModuleSourceBytes: 256 * 1024,
  /**
   * UTF-8 bytes of the input's JSON text; a larger input answers `APP_SANDBOX_INPUT_TOO_LARGE`.
   * It fits the smallest memory; parsing it may still run out of memory (an answer, too).
   */
  maxInputBytes: 4 * 1024 * 1024,
  /** UTF-8 bytes of the output's JSON text; a larger output answers `APP_MODULE_OUTPUT_INVALID`. */
  maxOutputBytes: 256 * 1024,
  /** Characters of an error message passed back from the module. */
  maxMessageLength: 1000,
} as const;

export interface SandboxLimits {
  /**
   * Milliseconds the module may compute, from the start of its evaluation to its JSON output
   * (whole milliseconds, 1 to `maxCpuMs`). Measured on the run's own thread.
   */
  readonly cpuMs: number;
  /**
   * The sandbox's whole memory (engine, module, input, output), from `minMemoryBytes` to
   * `maxMemoryBytes`; rounded up to the 64 KiB WebAssembly page.
   */
  readonly memoryBytes: number;
}

export interface SandboxRequest {
  /** The app's module: an ES module without imports. */
  readonly moduleSource: string;
  /** The export to call with the input, e.g. `'default'` or `'quote'`. */
  readonly exportName: string;
  /** A JSON value; it reaches the module as a fresh copy (JSON text parsed inside the sandbox). */
  readonly input: unknown;
  /** Defaults: `SANDBOX_LIMITS.defaultCpuMs` and `defaultMemoryBytes`. */
  readonly limits?: Partial<SandboxLimits>;
}

export type SandboxFailureCode =
  /** The CPU deadline passed (also when the sandbox stopped answering and was replaced). */
  | 'APP_MODULE_TIMEOUT'
  /** The module needed more memory than its cap. */
  | 'APP_MODULE_OUT_OF_MEMORY'
  /** The module threw (or rejected, or overflowed its stack); `message` is its error's text. */
  | 'APP_MODULE_ERROR'
  /** The source does not parse, imports something, is too large, or the export is not a function. */
  | 'APP_MODULE_INVALID'
  /** The result is not JSON-serializable (undefined, a function, a cycle, a BigInt) or too large. */
  | 'APP_MODULE_OUTPUT_INVALID'
  /** The input's JSON text is larger than `maxInputBytes`; nothing ran. */
  | 'APP_SANDBOX_INPUT_TOO_LARGE'
  /** Too many calls are waiting for a sandbox; nothing ran. */
  | 'APP_SANDBOX_BUSY'
  /** This process runs no sandbox, or it was closed; nothing ran. */
  | 'APP_SANDBOX_UNAVAILABLE';

export type SandboxResult =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly code: SandboxFailureCode; readonly message: string };

export interface AppSandbox {
  /**
   * Calls `exportName` of the module with the input and answers its JSON output or why not.
   * Rejects only for a caller's bug: limits out of bounds, or an input that is not JSON.
   */
  run(request: SandboxRequest): Promise<SandboxResult>;
  /** Stops the sandbox's threads; calls still waiting or running answer `APP_SANDBOX_UNAVAILABLE`. */
  close(): Promise<void>;
}

/** The default for processes that run no apps: every call answers `APP_SANDBOX_UNAVAILABLE`. */
export const noAppSandbox: AppSandbox = {
  run: async () => ({
    ok: false,
    code: 'APP_SANDBOX_UNAVAILABLE',
    message: 'this process runs no app sandbox',
  }),
  close: async () => {},
};
