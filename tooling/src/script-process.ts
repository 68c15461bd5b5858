import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A TypeScript entry point running as a child process, for tests that start the real binaries. */
export interface ScriptProcess {
  readonly child: ChildProcess;
  /** stderr lines so far. */
  readonly lines: string[];
  /** stdout lines so far. */
  readonly stdout: string[];
  /** Resolves with the exit code (null when ended by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves with the first stderr line, seen or still to come, that matches. */
  line(matches: (line: string) => boolean): Promise<string>;
  /** Resolves with the first stdout line, seen or still to come, that matches. */
  output(matches: (line: string) => boolean): Promise<string>;
}

export interface ScriptOptions {
  /** Variables removed from the inherited environment before `env` is applied. */
  readonly unset?: readonly string[];
  /** Own process group, so `process.kill(-pid, 'SIGKILL')` reaches every descendant. */
  readonly detached?: boolean;
  readonly args?: readonly string[];
}

/** Lines (or records) as they arrive, and promises for the first one that matches. */
export function createLineWatcher<T = string>() {
  const lines: T[] = [];
  const waiters: { matches: (line: T) => boolean; resolve: (line: T) => void }[] = [];
  return {
    lines,
    push(line: T) {
      lines.push(line);
      for (const waiter of waiters.splice(0)) {
        if (waiter.matches(line)) waiter.resolve(line);
        else waiters.push(waiter);
      }
    },
    /** The first line, already seen or still to come, that matches. */
    wait(matches: (line: T) => boolean): Promise<T> {
      const seen = lines.find(matches);
      if (seen !== undefined) return Promise.resolve(seen);
      return this.next(matches);
    },
    /** The first line from now on that matches. */
    next(matches: (line: T) => boolean): Promise<T> {
      return new Promise((resolve) => waiters.push({ matches, resolve }));
    },
  };
}

/**
 * Runs `script` with node and tsx as its loader (one process, so signals reach the script itself;
 * the tsx binary would relay them through a second process).
 */
export function spawnScript(
  script: string,
  env: Record<string, string>,
  options: ScriptOptions = {},
): ScriptProcess {
  const unset = new Set(options.unset ?? []);
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !unset.has(key)));
  const child = spawn(process.execPath, ['--import', TSX_LOADER, script, ...(options.args ?? [])], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  const stderr = createLineWatcher();
  const stdout = createLineWatcher();
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    lines: stderr.lines,
    stdout: stdout.lines,
    exited,
    line: (m) => stderr.wait(m),
    output: (m) => stdout.wait(m),
  };
}
