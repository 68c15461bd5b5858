import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BOUNDARY_RULES,
  type BoundaryViolation,
  findBoundaryViolations,
  formatBoundaryViolations,
} from '../src/boundaries.ts';

const fixtures = resolve(import.meta.dirname, 'fixtures/boundaries');
const violatingSrc = join(fixtures, 'violating/src');
const cleanSrc = join(fixtures, 'clean/src');
const serviceSrc = resolve(import.meta.dirname, '../../packages/service/src');

type Marked = Pick<BoundaryViolation, 'file' | 'line' | 'rule'>;

/** Files under a fixture's `src`, relative to it, with forward slashes. */
function fixtureFiles(srcDir: string): string[] {
  return readdirSync(srcDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(srcDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** What the fixture's `// expect: rule, rule` line markers announce, one entry per rule. */
function markedViolations(srcDir: string): Marked[] {
  return fixtureFiles(srcDir).flatMap((file) =>
    readFileSync(join(srcDir, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        const marker = /\/\/ expect: ([a-z, -]+)$/.exec(text);
        if (!marker) return [];
        return marker[1]!
          .split(',')
          .map((rule) => ({ file, line: index + 1, rule: rule.trim() as BoundaryViolation['rule'] }));
      }),
  );
}

const byPosition = (a: Marked, b: Marked) =>
  a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule);

const positions = (violations: readonly BoundaryViolation[]): Marked[] =>
  violations.map(({ file, line, rule }) => ({ file, line, rule })).sort(byPosition);

describe('findBoundaryViolations', () => {
  it('flags every marked violation of the violating fixture and nothing else', () => {
    const expected = markedViolations(violatingSrc).sort(byPosition);
    expect(new Set(expected.map((violation) => violation.rule))).toEqual(new Set(BOUNDARY_RULES));
    expect(positions(findBoundaryViolations(violatingSrc))).toEqual(expected);
  });

  it('describes what it found, where, and the file it resolved to', () => {
    const found = findBoundaryViolations(violatingSrc);
    expect(found).toContainEqual({
      file: 'catalog/product-view.ts',
      line: 8,
      column: 8,
      rule: 'imports-operations',
      text: "import './categories.operations.ts'",
      target: 'catalog/categories.operations.ts',
    });
    expect(found).toContainEqual({
      file: 'carts/cart.ts',
      line: 3,
      column: 25,
      rule: 'unresolved-import',
      text: "import './missing.ts'",
    });
    expect(found).toContainEqual({
      file: 'helpers.ts',
      line: 1,
      column: 1,
      rule: 'root-file',
      text: 'helpers.ts',
    });
    const texts = (file: string) =>
      found.filter((violation) => violation.file === file).map(({ rule, text }) => `${rule}: ${text}`);
    expect(texts('kernel/nested/deep.ts')).toEqual([
      "kernel-imports-feature: import = require '../../catalog/product-view.ts'",
      "imports-operations: import type '../../catalog/operations.ts'",
      "kernel-imports-feature: import type '../../catalog/operations.ts'",
      "kernel-imports-feature: declare module '../../orders/order.ts'",
    ]);
    expect(texts('kernel/registry.ts')).toEqual([
      "kernel-imports-feature: import type '../carts/cart.ts'",
      "kernel-imports-feature: export from '../helpers.ts'",
      "imports-root: import() '../index.ts'",
      "kernel-imports-feature: import() '../index.ts'",
    ]);
    expect(texts('catalog/product-view.ts')).toContain("imports-root: import() type '../workers.ts'");
    expect(texts('carts/operations.ts')).toContain(
      "imports-operations: export type from '../catalog/categories.operations.ts'",
    );
  });

  it('lets the root list, the door, the fixtures and a feature’s own operation modules import operation modules', () => {
    const found = findBoundaryViolations(violatingSrc);
    const from = (file: string) => found.filter((violation) => violation.file === file);
    expect(from('index.ts')).toEqual([]);
    expect(from('testing.ts')).toEqual([]);
    expect(from('operations.ts').map((violation) => violation.rule)).toEqual(['unresolved-import']);
    expect(from('catalog/categories.operations.ts')).toEqual([]);
    expect(from('catalog/admin/operations.ts')).toEqual([]);
    expect(from('catalog/operations.ts').map(({ rule, target }) => [rule, target])).toEqual([
      ['imports-operations', 'carts/operations.ts'],
      ['imports-root', 'operations.ts'],
    ]);
  });

  it('ignores mentions in comments and strings, package imports and computed imports', () => {
    const registry = readFileSync(join(violatingSrc, 'kernel/registry.ts'), 'utf8').split('\n');
    expect(registry[0]).toContain("from '../carts/cart.ts'");
    expect(registry[8]).toContain("import '../index.ts' in a string");
    const flaggedLines = findBoundaryViolations(violatingSrc)
      .filter((violation) => violation.file === 'kernel/registry.ts')
      .map((violation) => violation.line);
    expect(flaggedLines).not.toContain(1);
    expect(flaggedLines).not.toContain(9);
    const cart = findBoundaryViolations(violatingSrc).filter(
      (violation) => violation.file === 'carts/cart.ts',
    );
    expect(cart.map((violation) => violation.line)).not.toContain(12);
  });

  it('passes a clean tree that mentions forbidden edges only in text and uses .js and extensionless specifiers', () => {
    const registry = readFileSync(join(cleanSrc, 'kernel/registry.ts'), 'utf8');
    expect(registry).toContain("'../index.ts'");
    expect(registry).toContain("from './errors.js'");
    expect(findBoundaryViolations(cleanSrc)).toEqual([]);
  });

  it('formats one readable line per violation', () => {
    const found = findBoundaryViolations(violatingSrc).filter((violation) => violation.file === 'workers.ts');
    expect(formatBoundaryViolations(found)).toBe(
      "workers.ts:2:35  imports-operations  import './catalog/operations.ts' → catalog/operations.ts",
    );
    expect(formatBoundaryViolations([])).toBe('');
  });

  describe('in a tree written for the test', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'cartwright-boundaries-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(join(scratch, path, '..'), { recursive: true });
      writeFileSync(join(scratch, path), text);
    };

    it('skips test files, reads folder indexes and leaves files outside src to other checks', () => {
      write('src/kernel/registry.test.ts', "import '../carts/operations.ts';\nimport './nope.ts';\n");
      write('src/root.test.ts', 'export {};\n');
      write('src/carts/operations.ts', "import '../kernel';\nimport '../../common/util.ts';\n");
      write('src/kernel/index.ts', "import '../../common/util.ts';\n");
      write('common/util.ts', 'export {};\n');
      write('src/kernel/events.ts', "import '../carts/Operations.ts';\n");
      expect(formatBoundaryViolations(findBoundaryViolations(join(scratch, 'src')))).toBe(
        "kernel/events.ts:1:8  unresolved-import  import '../carts/Operations.ts'",
      );
    });

    it('finds nothing in a missing directory', () => {
      expect(findBoundaryViolations(join(scratch, 'absent'))).toEqual([]);
    });
  });
});

describe('the service', () => {
  it('keeps kernel, features and root files within their boundaries', () => {
    const violations = findBoundaryViolations(serviceSrc);
    expect(
      violations,
      `boundary violations in packages/service/src:\n${formatBoundaryViolations(violations)}\n`,
    ).toEqual([]);
  });
});
