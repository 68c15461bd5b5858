import * as v from 'valibot';
import { findCondition } from './catalog/catalog.ts';
import type { ConditionDefinition } from './catalog/model.ts';
import { paramSchema } from './catalog/params.ts';
import { COMPOSITE_CONDITIONS } from './engine/compile.ts';
import type { RuleErrorCode } from './errors.ts';
import { type ConditionTree, TREE_LIMITS } from './tree.ts';

export { TREE_LIMITS };

export type RuleIssueCode = Extract<
  RuleErrorCode,
  'RULE_UNKNOWN_CONDITION' | 'RULE_CONDITION_DISABLED' | 'RULE_INVALID_VALUE' | 'RULE_INVALID_TREE'
>;

/** One reason a tree cannot be saved; `pointer` is the JSON pointer of the offending part. */
export interface RuleIssue {
  readonly pointer: string;
  readonly code: RuleIssueCode;
  readonly message: string;
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** How many characters of a caller's string a message repeats. */
const ECHO_LIMIT = 100;

/**
 * A caller's string as a message quotes it: JSON-quoted, cut to its first `ECHO_LIMIT` characters
 * and "…", so a huge input never comes back whole (pointers still name it exactly).
 */
export function echo(text: string): string {
  return JSON.stringify(clip(text));
}

/** `text` cut to its first `ECHO_LIMIT` characters and "…" (never inside a surrogate pair). */
export function clip(text: string): string {
  if (text.length <= ECHO_LIMIT) return text;
  const code = text.charCodeAt(ECHO_LIMIT - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? ECHO_LIMIT - 1 : ECHO_LIMIT;
  return `${text.slice(0, end)}…`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const COMPOSITES: ReadonlySet<string> = new Set(COMPOSITE_CONDITIONS);
const NODE_KEYS: ReadonlySet<string> = new Set(['type', 'value', 'children']);

/**
 * The strict check before a tree is saved: every node names a known, enabled condition, its
 * `value` passes the condition's parameter schema, children sit only on containers and the
 * filtering conditions, `notContainer` has exactly one child, references name a rule, and the tree
 * stays within `TREE_LIMITS`. Returns every issue found (empty when the tree is valid); never throws.
 */
export function validateCondition(tree: ConditionTree): RuleIssue[] {
  const issues: RuleIssue[] = [];
  let nodes = 0;
  let depthReported = false;
  const visit = (node: unknown, pointer: string, depth: number): boolean => {
    nodes += 1;
    if (nodes > TREE_LIMITS.nodes) {
      issues.push({
        pointer: '',
        code: 'RULE_INVALID_TREE',
        message: `A condition tree has at most ${TREE_LIMITS.nodes} nodes.`,
      });
      return false;
    }
    if (depth > TREE_LIMITS.depth) {
      if (!depthReported) {
        depthReported = true;
        issues.push({
          pointer,
          code: 'RULE_INVALID_TREE',
          message: `A condition tree nests at most ${TREE_LIMITS.depth} levels deep.`,
        });
      }
      return true;
    }
    for (const child of checkNode(node, pointer, issues)) {
      if (!visit(child.node, child.pointer, depth + 1)) return false;
    }
    return true;
  };
  visit(tree, '', 1);
  return issues;
}

interface ChildAt {
  readonly node: unknown;
  readonly pointer: string;
}

/** Checks one node; returns the children to visit. */
function checkNode(node: unknown, pointer: string, issues: RuleIssue[]): ChildAt[] {
  const treeIssue = (at: string, message: string): void => {
    issues.push({ pointer: at, code: 'RULE_INVALID_TREE', message });
  };
  if (!isPlainObject(node)) {
    treeIssue(pointer, 'A condition node is an object.');
    return [];
  }
  const { type } = node;
  if (typeof type !== 'string') {
    treeIssue(`${pointer}/type`, 'A condition node names its condition in `type`.');
    return [];
  }
  if (type === 'ruleReference') {
    for (const key of Object.keys(node)) {
      if (key !== 'type' && key !== 'ruleId') {
        treeIssue(`${pointer}/${pointerSegment(key)}`, `A rule reference has no ${clip(key)}.`);
      }
    }
    if (typeof node.ruleId !== 'string' || node.ruleId === '') {
      treeIssue(`${pointer}/ruleId`, 'A rule reference names a saved rule in `ruleId`.');
    }
    return [];
  }
  for (const key of Object.keys(node)) {
    if (key === 'rules') {
      // The catalog's name for a container's children; importCondition reads it, a saved tree does not.
      treeIssue(`${pointer}/rules`, 'A condition node holds its children under `children`, not `rules`.');
    } else if (!NODE_KEYS.has(key)) {
      treeIssue(`${pointer}/${pointerSegment(key)}`, `A condition node has no ${clip(key)}.`);
    }
  }
  const children = childrenOf(node, pointer, treeIssue);
  const definition = findCondition(type);
  if (definition === undefined) {
    issues.push({
      pointer: `${pointer}/type`,
      code: 'RULE_UNKNOWN_CONDITION',
      message: `Unknown condition type ${echo(type)}.`,
    });
    return children;
  }
  if (!definition.enabled) {
    issues.push({
      pointer: `${pointer}/type`,
      code: 'RULE_CONDITION_DISABLED',
      message: `The condition ${type} is disabled: ${definition.disabledReason}.`,
    });
  }
  if (children.length > 0 && !COMPOSITES.has(type)) {
    treeIssue(`${pointer}/children`, `The condition ${type} takes no children.`);
  }
  if (type === 'notContainer' && children.length !== 1) {
    treeIssue(
      children.length === 0 ? pointer : `${pointer}/children`,
      'notContainer takes exactly one child.',
    );
  }
  checkValue(definition, node.value, pointer, issues);
  return children;
}

function childrenOf(
  node: Record<string, unknown>,
  pointer: string,
  treeIssue: (at: string, message: string) => void,
): ChildAt[] {
  const { children } = node;
  if (children === undefined) return [];
  if (!Array.isArray(children)) {
    treeIssue(`${pointer}/children`, '`children` is a list of condition nodes.');
    return [];
  }
  return children.map((child, index) => ({ node: child, pointer: `${pointer}/children/${index}` }));
}

function checkValue(
  definition: ConditionDefinition,
  value: unknown,
  pointer: string,
  issues: RuleIssue[],
): void {
  if (value !== undefined && !isPlainObject(value)) {
    issues.push({
      pointer: `${pointer}/value`,
      code: 'RULE_INVALID_VALUE',
      message: '`value` is an object of the condition’s parameters.',
    });
    return;
  }
  const given = value ?? {};
  for (const issue of valueIssues(definition, given)) {
    issues.push({
      pointer: `${pointer}/value${issue.path}`,
      code: 'RULE_INVALID_VALUE',
      message: issue.message,
    });
  }
}

type Schema = v.GenericSchema<unknown>;
type Issue = v.BaseIssue<unknown>;

/** The issues of `value` against the condition's schema, with paths below `/value`. */
function valueIssues(
  definition: ConditionDefinition,
  value: Record<string, unknown>,
): { path: string; message: string }[] {
  const schema = paramSchema(definition) as Schema & { readonly options?: readonly Schema[] };
  const result = v.safeParse(schema, value);
  if (result.success) return [];
  // `paramSchema` splits conditions whose params relax under `empty` into a union of two objects;
  // report the issues of the branch that takes the given operator, not valibot's bare union issue.
  if (schema.type === 'union' && schema.options !== undefined) {
    const tried = schema.options.map((option) => v.safeParse(option, value).issues ?? []);
    const chosen = tried.find((branch) => !branch.some(isOperatorIssue));
    if (chosen !== undefined) return chosen.map(describe);
    const last = tried[tried.length - 1] ?? [];
    return [
      {
        path: '/operator',
        message: `The operator is one of ${definition.operators.map((operator) => JSON.stringify(operator)).join(', ')}.`,
      },
      ...last.filter((issue) => !isOperatorIssue(issue)).map(describe),
    ];
  }
  return result.issues.map(describe);
}

/** valibot's `received` (`"text"` for a string) cut as `clip` cuts, its quotes kept. */
function clipReceived(received: string): string {
  const quoted = received.length >= 2 && received.startsWith('"') && received.endsWith('"');
  return quoted ? `"${clip(received.slice(1, -1))}"` : clip(received);
}

function isOperatorIssue(issue: Issue): boolean {
  return issue.path?.[0]?.key === 'operator';
}

function describe(issue: Issue): { path: string; message: string } {
  const keys = (issue.path ?? []).map((item) => pointerSegment(String(item.key)));
  const path = keys.map((key) => `/${key}`).join('');
  const name = issue.path?.[issue.path.length - 1]?.key;
  if (issue.type === 'strict_object' && issue.expected === 'never' && name !== undefined) {
    return { path, message: `The property ${clip(String(name))} is not allowed.` };
  }
  if (issue.input === undefined && name !== undefined && issue.path?.length === 1) {
    return { path, message: `The property ${clip(String(name))} is required.` };
  }
  // valibot quotes the received value whole; a message repeats only its start.
  return { path, message: issue.message.replace(issue.received, () => clipReceived(issue.received)) };
}
