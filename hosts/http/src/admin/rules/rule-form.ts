import type { Locale } from '../i18n.ts';
import type { FormBody } from '../kit.ts';

// The rule editor's state (decision 0047, rules): the condition tree travels in the form as JSON
// (`tree`), each node addressed by its JSON pointer ('' the root, '/children/0' its first child,
// as the rules engine and the API's error pointers name them). Parameter fields are named
// `v:<pointer>:<param>` and are written into the tree on every post; the buttons name an action
// (`op`: add:<pointer>, remove:<pointer>, apply, save, preview). The server validates nothing the
// operations validate: what cannot be parsed is kept as typed, and `automation.save` or
// `automation.preview` answers the pointer it refuses.

export interface TreeNode {
  type: string;
  value?: Record<string, unknown>;
  children?: TreeNode[];
  ruleId?: string;
}

/** A catalog condition as `automation.catalog` answers it (the fields the editor reads). */
export interface CatalogCondition {
  readonly name: string;
  readonly label: string;
  readonly group: string | null;
  readonly isContainer: boolean;
  readonly params: readonly {
    readonly name: string;
    /** The parameter's name in the UI language. */
    readonly label: string;
    readonly type: string;
    readonly required: boolean | 'unlessEmpty';
    readonly choices?: readonly string[];
    /** What an id parameter names in the shop ('category', 'paymentMethod', …): offered as choices. */
    readonly references?: string;
  }[];
  readonly operators: readonly string[];
  readonly enabled: boolean;
  readonly disabledReason: string | null;
}

/** The four logical containers, whose type the editor can switch in place. */
export const LOGICAL_CONTAINERS = ['andContainer', 'orContainer', 'notContainer', 'xorContainer'] as const;

/**
 * Bounds on a tree read from a form, checked before anything walks it recursively: the engine's own
 * (TREE_LIMITS, 1000 nodes, 32 levels), which `automation.save` enforces with its pointers. A form
 * beyond them is refused whole.
 */
const FORM_TREE_BOUNDS = { nodes: 1000, depth: 32 } as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The tree of a form's `tree` field, or null when it is no bounded tree of node objects. */
export function parseTree(text: unknown): TreeNode | null {
  if (typeof text !== 'string' || text.length === 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(parsed)) return null;
  // Iterative: a hostile form cannot exhaust the stack before the bounds are known.
  const stack: { node: unknown; depth: number }[] = [{ node: parsed, depth: 1 }];
  let count = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    count += 1;
    if (count > FORM_TREE_BOUNDS.nodes || depth > FORM_TREE_BOUNDS.depth) return null;
    if (!isObject(node) || typeof node.type !== 'string') return null;
    if (node.value !== undefined && !isObject(node.value)) return null;
    if (node.children !== undefined) {
      if (!Array.isArray(node.children)) return null;
      for (const child of node.children) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return parsed as unknown as TreeNode;
}

/** A fresh copy of a stored condition as editor state (a stored rule's tree is already valid JSON). */
export function treeOf(condition: unknown): TreeNode | null {
  return parseTree(JSON.stringify(condition ?? null));
}

/** The node at `pointer` ('' the root), if the pointer names one through `children`. */
export function nodeAt(root: TreeNode, pointer: string): TreeNode | undefined {
  if (pointer === '') return root;
  const match = /^\/children\/(\d+)((?:\/children\/\d+)*)$/.exec(pointer);
  if (!match) return undefined;
  let node: TreeNode | undefined = root;
  for (const index of pointer.split('/children/').slice(1)) {
    node = node?.children?.[Number(index)];
    if (node === undefined) return undefined;
  }
  return node;
}

/** Whether a node holds children: a container, or a condition with a nested `rules` parameter. */
export function takesChildren(condition: CatalogCondition | undefined): boolean {
  return condition?.params.some((param) => param.type === 'rules') === true;
}

/**
 * The reference kinds the tree's conditions name ('category', 'country', …): the editor loads the
 * shop's choices for these only.
 */
export function referencedKinds(root: TreeNode, catalog: ReadonlyMap<string, CatalogCondition>): Set<string> {
  const kinds = new Set<string>();
  for (const pointer of pointers(root)) {
    for (const param of catalog.get(nodeAt(root, pointer)!.type)?.params ?? []) {
      if (param.references !== undefined) kinds.add(param.references);
    }
  }
  return kinds;
}

/** The ids a reference parameter holds, when it holds a list of ids (else it is edited as text). */
export function idList(value: unknown): readonly string[] | null {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((id) => typeof id === 'string') ? value : null;
}

/** The HTML id of a node (pointers are not convenient ids): 'n', 'n-children-0', … */
export function nodeId(pointer: string): string {
  return `n${pointer.replaceAll('/', '-')}`;
}

function decimalSeparator(locale: Locale): string {
  return (
    new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
  );
}

/** A number typed as the UI language writes it ("4,5" in German), or null. */
export function parseNumber(text: string, locale: Locale): number | null {
  const trimmed = text.trim();
  const separator = decimalSeparator(locale);
  if (!/^-?\d+([.,]\d+)?$/.test(trimmed)) return null;
  if (separator === '.' ? trimmed.includes(',') : trimmed.includes('.')) return null;
  const number = Number(trimmed.replace(',', '.'));
  return Number.isFinite(number) ? number : null;
}

/** A parameter's value as its input shows it. */
export function formatParam(type: string, value: unknown, locale: Locale): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if ((type === 'int' || type === 'float' || type === 'weekday') && typeof value === 'number') {
    return new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 20 }).format(value);
  }
  if ((type === 'uuid[]' || type === 'string[]') && Array.isArray(value)) return value.join('\n');
  if (type === 'bool' && typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A parameter's value from its field: typed as the catalog says, or the text as typed when it does
 * not parse (the operation then refuses it, pointing at the parameter); undefined when left empty.
 */
export function parseParam(type: string, text: string, locale: Locale): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  switch (type) {
    case 'int':
    case 'weekday':
    case 'float':
      return parseNumber(trimmed, locale) ?? trimmed;
    case 'bool':
      return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
    case 'uuid[]':
    case 'string[]':
      return trimmed
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line.length > 0);
    case 'object':
    case 'json':
    case 'dateOrRange':
    case 'datetimeOrRange':
      if (type !== 'json' && type !== 'object' && !trimmed.startsWith('{')) return trimmed;
      try {
        return JSON.parse(trimmed) as unknown;
      } catch {
        return trimmed;
      }
    default:
      return trimmed;
  }
}

/** Every pointer of the tree, parents first. */
function pointers(root: TreeNode): string[] {
  const found: string[] = [];
  const stack: { node: TreeNode; pointer: string }[] = [{ node: root, pointer: '' }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    found.push(pointer);
    (node.children ?? []).forEach((child, index) => {
      stack.push({ node: child, pointer: `${pointer}/children/${index}` });
    });
  }
  return found;
}

/**
 * Writes the posted parameter fields and container types into the tree. Only fields the page
 * rendered for a node of the same type are read (`t:<pointer>` carries the type it was rendered
 * with), so a stale or forged field cannot write into another node.
 */
export function applyFields(
  root: TreeNode,
  form: FormBody,
  catalog: ReadonlyMap<string, CatalogCondition>,
  locale: Locale,
): void {
  for (const pointer of pointers(root)) {
    const node = nodeAt(root, pointer)!;
    if (form[`t:${pointer}`] !== node.type) continue;
    const kind = form[`k:${pointer}`];
    if (
      typeof kind === 'string' &&
      (LOGICAL_CONTAINERS as readonly string[]).includes(node.type) &&
      (LOGICAL_CONTAINERS as readonly string[]).includes(kind)
    ) {
      node.type = kind;
    }
    const condition = catalog.get(node.type);
    if (!condition || node.type === 'ruleReference') continue;
    const value: Record<string, unknown> = { ...(node.value ?? {}) };
    for (const param of condition.params) {
      if (param.type === 'rules') continue;
      if (param.type === 'string[]' && param.choices && param.choices.length > 0) {
        if (form[`m:${pointer}:${param.name}`] === undefined) continue;
        const chosen = param.choices.filter(
          (choice) => form[`m:${pointer}:${param.name}:${choice}`] === 'on',
        );
        if (chosen.length > 0) value[param.name] = chosen;
        else delete value[param.name];
        continue;
      }
      if (param.references !== undefined && form[`m:${pointer}:${param.name}`] !== undefined) {
        // The shop's choices as checkboxes (`m:<pointer>:<param>:<id>`): the ids kept stay in their
        // order, newly chosen ones follow in the page's order, so an untouched list round-trips.
        const prefix = `m:${pointer}:${param.name}:`;
        const checked = Object.keys(form)
          .filter((key) => key.startsWith(prefix) && form[key] === 'on')
          .map((key) => key.slice(prefix.length));
        const before = idList(value[param.name]) ?? [];
        const chosen = [
          ...before.filter((id) => checked.includes(id)),
          ...checked.filter((id) => !before.includes(id)),
        ];
        if (chosen.length > 0) value[param.name] = chosen;
        else delete value[param.name];
        continue;
      }
      const field = form[`v:${pointer}:${param.name}`];
      if (typeof field !== 'string') continue;
      const parsed =
        param.choices && param.choices.length > 0
          ? field || undefined
          : parseParam(param.type, field, locale);
      if (parsed === undefined) delete value[param.name];
      else value[param.name] = parsed;
    }
    if (Object.keys(value).length > 0 || node.value !== undefined) node.value = value;
  }
}

/** A new node of catalog condition `type` (an operator chosen when it takes one), or a reference. */
function newNode(choice: string, catalog: ReadonlyMap<string, CatalogCondition>): TreeNode | null {
  if (choice.startsWith('ruleReference:')) {
    const ruleId = choice.slice('ruleReference:'.length);
    return /^[0-9a-f-]{36}$/i.test(ruleId) ? { type: 'ruleReference', ruleId } : null;
  }
  const condition = catalog.get(choice);
  if (!condition?.enabled) return null;
  const node: TreeNode = { type: choice };
  const [operator] = condition.operators;
  if (operator !== undefined && condition.params.some((param) => param.name === 'operator')) {
    node.value = { operator };
  }
  if (takesChildren(condition)) node.children = [];
  return node;
}

/** Applies an editor action (add a child to a node, remove a node); false when it names nothing. */
export function applyAction(
  root: TreeNode,
  op: string,
  form: FormBody,
  catalog: ReadonlyMap<string, CatalogCondition>,
): boolean {
  if (op.startsWith('add:')) {
    const pointer = op.slice('add:'.length);
    const parent = nodeAt(root, pointer);
    const choice = form[`new:${pointer}`];
    if (!parent || typeof choice !== 'string' || !takesChildren(catalog.get(parent.type))) return false;
    const child = newNode(choice, catalog);
    if (!child) return false;
    parent.children = [...(parent.children ?? []), child];
    return true;
  }
  if (op.startsWith('remove:')) {
    const pointer = op.slice('remove:'.length);
    const cut = pointer.lastIndexOf('/children/');
    if (cut < 0) return false;
    const parent = nodeAt(root, pointer.slice(0, cut));
    const index = Number(pointer.slice(cut + '/children/'.length));
    if (!parent?.children || !Number.isInteger(index) || index >= parent.children.length) return false;
    parent.children = parent.children.filter((_, at) => at !== index);
    return true;
  }
  return false;
}

/** An operation's error pinned to the node (and parameter) its pointer names. */
export interface NodeError {
  readonly param?: string;
  readonly message: string;
}

/**
 * Pins an operation's field errors to the tree's nodes: `prefix` is where the condition sits in
 * the operation's input ('/data/condition' for a save, '/condition' for a preview); the longest
 * node pointer the error's pointer starts with wins, the rest names a parameter (`/value/<name>`).
 * Errors outside the tree are answered under the key `null`.
 */
export function errorsByNode(
  root: TreeNode,
  errors: readonly { pointer: string; message: string }[],
  prefix: string,
): Map<string | null, NodeError[]> {
  const pinned = new Map<string | null, NodeError[]>();
  const add = (key: string | null, error: NodeError) => pinned.set(key, [...(pinned.get(key) ?? []), error]);
  for (const error of errors) {
    if (error.pointer !== prefix && !error.pointer.startsWith(`${prefix}/`)) {
      add(null, { message: error.message });
      continue;
    }
    let rest = error.pointer.slice(prefix.length);
    let at = '';
    for (;;) {
      const match = /^\/children\/(\d+)/.exec(rest);
      if (!match || nodeAt(root, `${at}${match[0]}`) === undefined) break;
      at = `${at}${match[0]}`;
      rest = rest.slice(match[0].length);
    }
    const param = /^\/value\/([^/]+)/.exec(rest)?.[1];
    add(at, param ? { param, message: error.message } : { message: error.message });
  }
  return pinned;
}

/** One node's decision in a preview's trace. */
export interface TraceMark {
  readonly result: boolean;
}

/**
 * The trace of `automation.preview` by node pointer. A rule reference's own decision is kept; the
 * nodes inside the referenced rule carry that rule's pointers and are not drawn on this tree.
 */
export function traceByPointer(trace: unknown): Map<string, TraceMark> {
  const marks = new Map<string, TraceMark>();
  const stack: unknown[] = [trace];
  while (stack.length > 0 && marks.size <= FORM_TREE_BOUNDS.nodes) {
    const node = stack.pop();
    if (!isObject(node) || typeof node.pointer !== 'string' || typeof node.result !== 'boolean') continue;
    if (!marks.has(node.pointer)) marks.set(node.pointer, { result: node.result });
    if (node.type !== 'ruleReference' && Array.isArray(node.children)) stack.push(...node.children);
  }
  return marks;
}
