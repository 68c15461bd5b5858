// Plain JavaScript: vitest loads package configs through Node, which cannot import TypeScript
// from a workspace dependency.
import { defineConfig } from 'vitest/config';

/**
 * The one vitest configuration every package uses (each package keeps its own config file).
 * @param {{ database?: boolean }} [options] `database`: suites that open a database get longer
 *   hooks, since PGlite start-up costs seconds on 2 cores.
 */
export function definePackageConfig(options = {}) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      hookTimeout: options.database ? 120_000 : 10_000,
      testTimeout: options.database ? 180_000 : 5_000,
      pool: 'forks',
    },
  });
}
