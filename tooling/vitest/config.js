// Plain JavaScript: vitest loads package configs through Node, which cannot import TypeScript
// from a workspace dependency.
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Suites that need PostgreSQL itself (sessions running at once, its catalogs) are named
 * `*.postgres.test.ts`. They are collected only with DATABASE_URL (`pnpm test:db`, which CI runs
 * on PostgreSQL), so the README's PGlite run neither skips them nor counts them.
 */
const POSTGRES_ONLY = ['src/**/*.postgres.test.ts', 'test/**/*.postgres.test.ts'];

/**
 * The one vitest configuration every package uses (each package keeps its own config file).
 * @param {{ database?: boolean }} [options] `database`: suites that open a database get longer
 *   hooks, since PGlite start-up costs seconds on 2 cores.
 */
export function definePackageConfig(options = {}) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...(process.env.DATABASE_URL ? [] : POSTGRES_ONLY)],
      hookTimeout: options.database ? 120_000 : 10_000,
      testTimeout: options.database ? 180_000 : 5_000,
      pool: 'forks',
    },
  });
}
