import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

// Pure packages take time, ids, randomness and I/O as arguments. This check reads their sources
// with the TypeScript compiler, so a mention inside a comment or a string never counts, and a
// local binding that shadows a global (an injected `fetch` parameter) is not the global.

/** Every rule the check applies; a violation names exactly one. */
export const PURITY_RULES = [
  'forbidden-import',
  'computed-import',
  'process-env',
  'process',
  'date-now',
  'current-date',
  'math-random',
  'performance-now',
  'crypto-random',
  'fetch',
] as const;
export type PurityRule = (typeof PURITY_RULES)[number];

export interface Violation {
  /** Path relative to the package directory, with forward slashes. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly rule: PurityRule;
  /** What was found, e.g. `import 'node:fs'` or `Date.now`. */
  readonly text: string;
}

/** Modules a pure package must not import (besides every Node.js builtin); `/*` covers a scope. */
export const FORBIDDEN_MODULES = [
  'drizzle-orm',
  'postgres',
  '@electric-sql/pglite',
  'hono',
  '@hono/*',
  '@modelcontextprotocol/*',
  '@cartwright/repository',
  '@cartwright/service',
  'jimp',
  'pino',
] as const;

const builtins = new Set(builtinModules);

/** True when a pure package may not import this module specifier. */
export function isForbiddenModule(specifier: string): boolean {
  if (specifier.startsWith('node:') || builtins.has(specifier)) return true;
  return FORBIDDEN_MODULES.some((forbidden) =>
    forbidden.endsWith('/*')
      ? specifier.startsWith(forbidden.slice(0, -1))
      : specifier === forbidden || specifier.startsWith(`${forbidden}/`),
  );
}

const SOURCE_FILE = /\.(ts|mts|cts|tsx)$/;
const TEST_FILE = /\.test\.(ts|mts|cts|tsx)$/;

function sourceFilesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFilesUnder(path);
      return entry.isFile() && SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name) ? [path] : [];
    });
}

// Names through which code reaches the global object: `globalThis.fetch` is `fetch`.
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'self', 'window']);
const WATCHED_GLOBALS = new Set(['process', 'fetch', 'Date', 'Math', 'performance', 'crypto', 'require']);

/** The member name when `node` is the object of `node.name` or `node['name']`. */
function memberNameAfter(node: ts.Node): string | undefined {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return parent.name.text;
  if (ts.isElementAccessExpression(parent) && parent.expression === node) {
    const argument = parent.argumentExpression;
    if (ts.isStringLiteralLike(argument)) return argument.text;
  }
  return undefined;
}

function isPropertyName(identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === identifier) ||
    (ts.isQualifiedName(parent) && parent.right === identifier) ||
    ts.isLabeledStatement(parent) ||
    ts.isBreakOrContinueStatement(parent) ||
    ts.isMetaProperty(parent)
  );
}

/**
 * Lists the purity violations in a package's `src/**` (test files excluded), ordered by file and
 * position. A package without `src` has none.
 */
export function findPurityViolations(packageDir: string): Violation[] {
  const files = sourceFilesUnder(join(packageDir, 'src'));
  if (files.length === 0) return [];
  // No lib and no module resolution: a name the checker cannot resolve inside the package is a global.
  const program = ts.createProgram({
    rootNames: files,
    options: {
      noLib: true,
      noResolve: true,
      types: [],
      noEmit: true,
      allowJs: false,
      target: ts.ScriptTarget.ES2022,
    },
  });
  const checker = program.getTypeChecker();
  const violations: Violation[] = [];

  for (const path of files) {
    const source = program.getSourceFile(path);
    if (!source) continue;
    const file = relative(packageDir, path).split(sep).join('/');
    const report = (node: ts.Node, rule: PurityRule, text: string) => {
      const position = source.getLineAndCharacterOfPosition(node.getStart(source));
      violations.push({ file, line: position.line + 1, column: position.character + 1, rule, text });
    };
    const checkSpecifier = (node: ts.Node, specifier: ts.Expression | undefined, form: string) => {
      if (specifier && ts.isStringLiteralLike(specifier)) {
        if (isForbiddenModule(specifier.text))
          report(node, 'forbidden-import', `${form} '${specifier.text}'`);
      } else {
        report(node, 'computed-import', `${form}(…)`);
      }
    };
    const isGlobal = (identifier: ts.Identifier) => {
      const symbol = ts.isShorthandPropertyAssignment(identifier.parent)
        ? checker.getShorthandAssignmentValueSymbol(identifier.parent)
        : checker.getSymbolAtLocation(identifier);
      const declarations = symbol?.declarations ?? [];
      // The name of a declaration (`declare const process` in a .d.ts) is not a use of it.
      if (declarations.some((declaration) => declaration === identifier.parent)) return false;
      return declarations.every((declaration) => declaration.getSourceFile().isDeclarationFile);
    };

    const checkGlobalReference = (identifier: ts.Identifier) => {
      let name = identifier.text;
      let target: ts.Node = identifier;
      if (GLOBAL_OBJECTS.has(name)) {
        const member = memberNameAfter(identifier);
        if (!member) return;
        name = member;
        target = identifier.parent;
      }
      if (!WATCHED_GLOBALS.has(name)) return;
      const member = memberNameAfter(target);
      const parent = target.parent;
      switch (name) {
        case 'process':
          if (member === 'env') report(identifier, 'process-env', 'process.env');
          else report(identifier, 'process', member ? `process.${member}` : 'process');
          return;
        case 'fetch':
          report(identifier, 'fetch', 'fetch');
          return;
        case 'Date':
          if (member === 'now') report(identifier, 'date-now', 'Date.now');
          else if (ts.isNewExpression(parent) && parent.expression === target && !parent.arguments?.length) {
            report(parent, 'current-date', 'new Date()');
          } else if (ts.isCallExpression(parent) && parent.expression === target) {
            report(parent, 'current-date', 'Date()');
          }
          return;
        case 'Math':
          if (member === 'random') report(identifier, 'math-random', 'Math.random');
          return;
        case 'performance':
          if (member === 'now') report(identifier, 'performance-now', 'performance.now');
          return;
        case 'crypto':
          if (member === 'randomUUID' || member === 'getRandomValues') {
            report(identifier, 'crypto-random', `crypto.${member}`);
          }
          return;
        case 'require':
          if (ts.isCallExpression(parent) && parent.expression === target) {
            checkSpecifier(parent, parent.arguments[0], 'require');
          }
          return;
      }
    };

    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        checkSpecifier(node, node.moduleSpecifier, 'import');
        return;
      }
      if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        checkSpecifier(node, node.moduleSpecifier, 'export from');
        return;
      }
      if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
        checkSpecifier(node, node.moduleReference.expression, 'import =');
        return;
      }
      if (ts.isImportTypeNode(node)) {
        const argument = node.argument;
        const literal = ts.isLiteralTypeNode(argument) ? argument.literal : undefined;
        checkSpecifier(node, literal && ts.isStringLiteral(literal) ? literal : undefined, 'import type');
        return;
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        checkSpecifier(node, node.arguments[0], 'import');
      }
      // Types are erased: `typeof fetch` in a type is how a pure package declares an injected fetch.
      if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) {
        ts.forEachChild(node, visitTypes);
        return;
      }
      if (
        ts.isIdentifier(node) &&
        (WATCHED_GLOBALS.has(node.text) || GLOBAL_OBJECTS.has(node.text)) &&
        !isPropertyName(node) &&
        isGlobal(node)
      ) {
        checkGlobalReference(node);
      }
      ts.forEachChild(node, visit);
    };
    // Inside types only `import('…')` types can reach a module.
    const visitTypes = (node: ts.Node): void => {
      if (ts.isImportTypeNode(node)) visit(node);
      else ts.forEachChild(node, visitTypes);
    };
    ts.forEachChild(source, visit);
  }
  return violations;
}

/** Reads the package globs of `pnpm-workspace.yaml` (its `packages:` list). */
function workspaceGlobs(root: string): string[] | undefined {
  const path = join(root, 'pnpm-workspace.yaml');
  if (!existsSync(path)) return undefined;
  const globs: string[] = [];
  let inPackages = false;
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    if (/^\S/.test(line)) inPackages = /^packages:\s*$/.test(line);
    else if (inPackages) {
      const item = /^\s+-\s*['"]?([^'"#\s]+)['"]?/.exec(line);
      if (item) globs.push(item[1]!);
    }
  }
  return globs;
}

function childDirectories(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(directory, entry.name));
}

/** The directories a workspace glob names; only `dir`, `dir/*` and `*` occur in this repository. */
function directoriesOf(root: string, glob: string): string[] {
  if (glob.startsWith('!')) return [];
  if (glob === '*') return childDirectories(root);
  const base = glob.endsWith('/*') ? glob.slice(0, -2) : glob;
  if (base.includes('*')) throw new Error(`unsupported workspace glob ${glob}: use 'dir/*' or 'dir'`);
  return glob.endsWith('/*') ? childDirectories(join(root, base)) : [join(root, base)];
}

function isMarkedPure(packageDir: string): boolean {
  const manifestPath = join(packageDir, 'package.json');
  if (!existsSync(manifestPath)) return false;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { cartwright?: { pure?: unknown } };
  return manifest.cartwright?.pure === true;
}

/**
 * The directories of the pure packages (`"cartwright": { "pure": true }` in package.json), sorted.
 * At a workspace root the packages are those of `pnpm-workspace.yaml`; elsewhere, the directories
 * directly under `root`.
 */
export function listPurePackages(root: string): string[] {
  const globs = workspaceGlobs(root) ?? ['*'];
  const candidates = globs.flatMap((glob) => directoriesOf(root, glob));
  return [...new Set(candidates)].filter(isMarkedPure).sort();
}
