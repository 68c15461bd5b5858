import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

// The service's `src` is grouped into `kernel/`, one folder per feature and four root files. This
// check reads the sources with the TypeScript compiler (a specifier inside a comment or a string
// never counts), resolves every relative module reference to a file and reports the edges that
// cross the layout's boundaries.

/** Every rule the check applies; a violation names exactly one. */
export const BOUNDARY_RULES = [
  /** A file under `kernel/` imports a file of `src` outside `kernel/`. */
  'kernel-imports-feature',
  /** A file imports an operation module it may not: only the root's list and door, and the same feature's operation modules, may. */
  'imports-operations',
  /** A file under `kernel/` or a feature folder imports a root file. */
  'imports-root',
  /** A relative specifier resolves to no file. */
  'unresolved-import',
  /** A source file directly in `src` that is not one of the root files. */
  'root-file',
] as const;
export type BoundaryRule = (typeof BOUNDARY_RULES)[number];

export interface BoundaryViolation {
  /** Path of the offending file relative to the `src` directory, with forward slashes. */
  readonly file: string;
  /** 1-based; the line of the module specifier (of the file's start for `root-file`). */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly rule: BoundaryRule;
  /** What was found, e.g. `import type '../carts/cart.ts'`, or the file name for `root-file`. */
  readonly text: string;
  /** The imported file relative to `src` (`../…` when outside it); absent when unresolved or for `root-file`. */
  readonly target?: string;
}
export type { BoundaryViolation as Violation };

/** The files directly in `src`; everything else belongs in `kernel/` or a feature folder. */
export const ROOT_FILES = ['index.ts', 'operations.ts', 'testing.ts', 'workers.ts'] as const;
/** The root files that may import any feature's operation modules. */
const OPERATION_IMPORTERS = new Set<string>(['index.ts', 'operations.ts', 'testing.ts']);
const ROOT_FILE_SET = new Set<string>(ROOT_FILES);

const KERNEL = 'kernel';
const SOURCE_FILE = /\.(ts|mts|cts|tsx)$/;
const TEST_FILE = /\.test\.(ts|mts|cts|tsx)$/;
const OPERATION_MODULE = /^(.+\.)?operations\.ts$/;

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

/** Where a file sits in the layout, from its path relative to `src` (forward slashes). */
type Place =
  | { readonly kind: 'outside' }
  | { readonly kind: 'root'; readonly name: string }
  | { readonly kind: 'kernel' }
  | { readonly kind: 'feature'; readonly feature: string; readonly operations: boolean };

function placeOf(path: string): Place {
  if (path === '..' || path.startsWith('../') || isAbsolute(path)) return { kind: 'outside' };
  const segments = path.split('/');
  if (segments.length === 1) return { kind: 'root', name: path };
  const [top] = segments;
  if (top === KERNEL) return { kind: 'kernel' };
  return { kind: 'feature', feature: top!, operations: OPERATION_MODULE.test(segments.at(-1)!) };
}

const isRelativeSpecifier = (specifier: string) => /^\.\.?(\/|$)/.test(specifier);

/** True when `path` names a file, with the exact case of its name (also on case-insensitive disks). */
function isFile(path: string, listings: Map<string, Set<string>>): boolean {
  const directory = dirname(path);
  let names = listings.get(directory);
  if (!names) {
    names = new Set(existsSync(directory) && statSync(directory).isDirectory() ? readdirSync(directory) : []);
    listings.set(directory, names);
  }
  return names.has(basename(path)) && statSync(path).isFile();
}

// A `.js` specifier names the TypeScript source it compiles from; an extensionless one (or a
// folder's index) is resolved too, so that an edge is never hidden behind a style the compiler rejects.
const SOURCE_FOR_OUTPUT: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js'];

/** The file a relative specifier names, or undefined when none exists. */
function resolveRelative(
  importer: string,
  specifier: string,
  listings: Map<string, Set<string>>,
): string | undefined {
  const base = resolve(dirname(importer), specifier);
  const extension = extname(base);
  const stem = base.slice(0, base.length - extension.length);
  const candidates = [
    base,
    ...(SOURCE_FOR_OUTPUT[extension] ?? []).map((source) => stem + source),
    ...EXTENSIONS.map((source) => base + source),
    ...EXTENSIONS.map((source) => join(base, `index${source}`)),
  ];
  return candidates.find((candidate) => isFile(candidate, listings));
}

interface ModuleReference {
  /** The string literal naming the module. */
  readonly specifier: ts.StringLiteralLike;
  /** How the module is referenced, e.g. `import type` or `export from`. */
  readonly form: string;
}

/**
 * Every module reference of a source file: static and type-only imports, `export … from`,
 * `import x = require('…')`, `import('…')` calls and types, and `declare module '…'` augmentations.
 * References by computed expression (`import(name)`) name no module and are left out.
 */
export function moduleReferencesOf(source: ts.SourceFile): ModuleReference[] {
  const references: ModuleReference[] = [];
  const add = (specifier: ts.Node | undefined, form: string) => {
    if (specifier && ts.isStringLiteralLike(specifier)) references.push({ specifier, form });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ? 'import type' : 'import');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly ? 'export type from' : 'export from');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, 'import = require');
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(argument.literal, 'import() type');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], 'import()');
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      add(node.name, 'declare module');
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return references;
}

const toPosix = (path: string) => path.split(sep).join('/');

function scriptKindOf(path: string): ts.ScriptKind {
  return path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

/** The rules an import from `from` to `to` breaks (places and paths relative to `src`). */
function edgeRules(from: Place, to: Place): BoundaryRule[] {
  const rules: BoundaryRule[] = [];
  if (from.kind === 'kernel' && to.kind !== 'kernel' && to.kind !== 'outside') {
    rules.push('kernel-imports-feature');
  }
  if (to.kind === 'feature' && to.operations) {
    const allowed =
      (from.kind === 'root' && OPERATION_IMPORTERS.has(from.name)) ||
      (from.kind === 'feature' && from.operations && from.feature === to.feature);
    if (!allowed) rules.push('imports-operations');
  }
  if (
    (from.kind === 'kernel' || from.kind === 'feature') &&
    to.kind === 'root' &&
    ROOT_FILE_SET.has(to.name)
  ) {
    rules.push('imports-root');
  }
  return rules;
}

/**
 * Lists the boundary violations of a service `src` directory (test files excluded), ordered by
 * file, position and rule. Non-relative specifiers (packages) are not checked. An import can break
 * more than one rule (a kernel file importing `src/index.ts` breaks `kernel-imports-feature` and
 * `imports-root`); each is reported.
 */
export function findBoundaryViolations(srcDir: string): BoundaryViolation[] {
  const root = resolve(srcDir);
  const listings = new Map<string, Set<string>>();
  const violations: BoundaryViolation[] = [];

  for (const path of sourceFilesUnder(root)) {
    const file = toPosix(relative(root, path));
    const from = placeOf(file);
    if (from.kind === 'root' && !ROOT_FILE_SET.has(from.name)) {
      violations.push({ file, line: 1, column: 1, rule: 'root-file', text: file });
    }
    const source = ts.createSourceFile(
      path,
      readFileSync(path, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      scriptKindOf(path),
    );
    for (const { specifier, form } of moduleReferencesOf(source)) {
      if (!isRelativeSpecifier(specifier.text)) continue;
      const position = source.getLineAndCharacterOfPosition(specifier.getStart(source));
      const at = { file, line: position.line + 1, column: position.character + 1 };
      const text = `${form} '${specifier.text}'`;
      const resolved = resolveRelative(path, specifier.text, listings);
      if (!resolved) {
        violations.push({ ...at, rule: 'unresolved-import', text });
        continue;
      }
      const target = toPosix(relative(root, resolved));
      for (const rule of edgeRules(from, placeOf(target))) violations.push({ ...at, rule, text, target });
    }
  }
  return violations.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      a.rule.localeCompare(b.rule),
  );
}

/** One line per violation, `file:line:column  rule  text → target`, for test failures and scripts. */
export function formatBoundaryViolations(violations: readonly BoundaryViolation[]): string {
  return violations
    .map(
      ({ file, line, column, rule, text, target }) =>
        `${file}:${line}:${column}  ${rule}  ${text}${target === undefined ? '' : ` → ${target}`}`,
    )
    .join('\n');
}
