import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findPurityViolations,
  isForbiddenModule,
  listPurePackages,
  PURITY_RULES,
  type Violation,
} from '../src/purity.ts';

const fixtures = resolve(import.meta.dirname, 'fixtures');
const impurePackage = join(fixtures, 'impure-package');
const cleanPackage = join(fixtures, 'clean-package');
const repositoryRoot = resolve(import.meta.dirname, '../..');

/** Files of a fixture's `src`, relative to the fixture, with forward slashes. */
function fixtureFiles(packageDir: string): string[] {
  return readdirSync(join(packageDir, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(packageDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** What the fixture's `// expect: rule, rule` line markers announce, one entry per rule. */
function markedViolations(packageDir: string): Pick<Violation, 'file' | 'line' | 'rule'>[] {
  return fixtureFiles(packageDir).flatMap((file) =>
    readFileSync(join(packageDir, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        const marker = /\/\/ expect: ([a-z, -]+)$/.exec(text);
        if (!marker) return [];
        return marker[1]!
          .split(',')
          .map((rule) => ({ file, line: index + 1, rule: rule.trim() as Violation['rule'] }));
      }),
  );
}

const byPosition = (
  a: Pick<Violation, 'file' | 'line' | 'rule'>,
  b: Pick<Violation, 'file' | 'line' | 'rule'>,
) => a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule);

describe('findPurityViolations', () => {
  it('flags every marked violation of the impure fixture and nothing else', () => {
    const expected = markedViolations(impurePackage).sort(byPosition);
    expect(new Set(expected.map((violation) => violation.rule))).toEqual(new Set(PURITY_RULES));
    const found = findPurityViolations(impurePackage)
      .map(({ file, line, rule }) => ({ file, line, rule }))
      .sort(byPosition);
    expect(found).toEqual(expected);
  });

  it('describes what it found and where', () => {
    const found = findPurityViolations(impurePackage);
    expect(found).toContainEqual({
      file: 'src/nested/deep.ts',
      line: 2,
      column: 1,
      rule: 'forbidden-import',
      text: "import 'os'",
    });
    expect(
      found.filter((violation) => violation.rule === 'date-now').map((violation) => violation.text),
    ).toEqual(['Date.now', 'Date.now', 'Date.now']);
  });

  it('ignores mentions in comments, strings and templates', () => {
    const source = readFileSync(join(impurePackage, 'src/globals.ts'), 'utf8').split('\n');
    const mentions = source
      .map((text, index) => ({ text, line: index + 1 }))
      .filter(({ text }) => text.includes('do not count'));
    expect(mentions.map(({ text }) => text).join('\n')).toMatch(
      /\/\/ Date\.now\(\)[\s\S]*'Date\.now\(\)[\s\S]*`Math/,
    );
    const flaggedLines = findPurityViolations(impurePackage)
      .filter((violation) => violation.file === 'src/globals.ts')
      .map((violation) => violation.line);
    for (const { line } of mentions) expect(flaggedLines).not.toContain(line);
  });

  it('passes a clean package that shadows globals, mentions them in text and takes time as an argument', () => {
    const clock = readFileSync(join(cleanPackage, 'src/clock.ts'), 'utf8');
    expect(clock).toContain('Date.now()');
    expect(clock).toContain('typeof fetch');
    expect(clock).toMatch(/load\(fetch: Fetch/);
    expect(findPurityViolations(cleanPackage)).toEqual([]);
  });

  describe('in a package written for the test', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'cartwright-purity-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('skips test files, reads nested folders and accepts a package without src', () => {
      mkdirSync(join(scratch, 'src/deep/er'), { recursive: true });
      writeFileSync(join(scratch, 'src/clock.test.ts'), 'export const now = Date.now();\n');
      writeFileSync(join(scratch, 'src/deep/er/clock.ts'), 'export const now = Date.now();\n');
      expect(findPurityViolations(scratch).map(({ file, rule }) => [file, rule])).toEqual([
        ['src/deep/er/clock.ts', 'date-now'],
      ]);
      expect(findPurityViolations(join(scratch, 'src/deep'))).toEqual([]);
    });
  });
});

describe('isForbiddenModule', () => {
  it.each([
    ['node:fs', true],
    ['fs', true],
    ['fs/promises', true],
    ['worker_threads', true],
    ['crypto', true],
    ['drizzle-orm', true],
    ['drizzle-orm/pg-core', true],
    ['postgres', true],
    ['@electric-sql/pglite', true],
    ['hono', true],
    ['hono/http-exception', true],
    ['@hono/node-server', true],
    ['@modelcontextprotocol/sdk/server/mcp.js', true],
    ['@cartwright/repository', true],
    ['@cartwright/service', true],
    ['jimp', true],
    ['pino', true],
    ['postgres-array', false],
    ['honox', false],
    ['pinot', false],
    ['@cartwright/rules-engine', false],
    ['valibot', false],
    ['./clock.ts', false],
  ])('%s → %s', (specifier, forbidden) => {
    expect(isForbiddenModule(specifier)).toBe(forbidden);
  });
});

describe('listPurePackages', () => {
  it('finds the packages marked pure among the fixtures', () => {
    expect(listPurePackages(fixtures)).toEqual([cleanPackage, impurePackage]);
  });

  it('reads a workspace root’s pnpm-workspace.yaml and looks only where it points', () => {
    const root = mkdtempSync(join(tmpdir(), 'cartwright-workspace-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      const pure = JSON.stringify({ cartwright: { pure: true } });
      write(
        'pnpm-workspace.yaml',
        "packages:\n  - packages/*\n  - 'tools'\n\nonlyBuiltDependencies:\n  - elsewhere\n",
      );
      write('packages/ledger/package.json', pure);
      write('packages/host/package.json', JSON.stringify({ name: 'host' }));
      write('packages/notes/README.md', 'no package here');
      write('tools/package.json', pure);
      write('elsewhere/package.json', pure);
      write('fixtures/sample/package.json', pure);
      expect(listPurePackages(root)).toEqual([join(root, 'packages/ledger'), join(root, 'tools')]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('finds every package the style guide names as pure, once it exists', () => {
    const named = [
      'rules-engine',
      'flow-graph',
      'settings-inheritance',
      'app-manifest',
      'payment-ledger',
      'commerce',
      'intelligence',
    ];
    const packages = readdirSync(join(repositoryRoot, 'packages'));
    const found = listPurePackages(repositoryRoot);
    for (const name of named.filter((candidate) => packages.includes(candidate))) {
      expect(found).toContain(join(repositoryRoot, 'packages', name));
    }
  });
});

describe('the repository', () => {
  it('has no purity violations in any pure package', () => {
    const violations = listPurePackages(repositoryRoot).flatMap((packageDir) =>
      findPurityViolations(packageDir).map((violation) => ({
        package: relative(repositoryRoot, packageDir),
        ...violation,
      })),
    );
    expect(violations).toEqual([]);
  });
});
