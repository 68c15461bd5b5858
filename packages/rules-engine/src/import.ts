import { findCondition } from './catalog/catalog.ts';
import type { ConditionDefinition } from './catalog/model.ts';
import { attempt, RuleError } from './errors.ts';
import type { RuleResult } from './result.ts';
import type { ConditionTree } from './tree.ts';
import { clip, echo, isPlainObject, pointerSegment, TREE_LIMITS } from './validate.ts';

/**
 * Reading condition trees in the reference's exchange forms (rule-payload-format.md §2) and our
 * own, into the normal native tree:
 *
 * - rows `{id, type, parentId, value, position}` — a list, or a rule object `{conditions: [...]}`;
 * - nested nodes `{type, value, position, children}` — one node, a list, or a rule object (rows
 *   and nested nodes may be mixed: a row's `parentId` may name any node with an `id`);
 * - serialized rules (`Rule::jsonSerialize`): `{_name, ...properties}`, a container's children
 *   under `rules`, a filtering condition's (`filter`) or wrapper's (`container`) under a nested
 *   serialized container;
 * - the native tree `{type, value?, children?}` / `{type: 'ruleReference', ruleId}`; a node may
 *   hold its children under `rules` instead, as the catalog and the serialized form name them.
 *
 * The normal form: siblings in `position` order (stable; a missing position sorts first, as SQL
 * NULLs do in the reference's ascending `ORDER BY position`), row ids, `parentId`, `position` and
 * `_name` dropped, null-valued keys of `value` dropped (as `jsonSerialize` drops null properties),
 * an empty `value` or `children` omitted, and several top-level nodes wrapped in an `andContainer`
 * (the reference wraps a rule's top-level nodes in an `AndRule`; no nodes at all give the empty,
 * always-true `andContainer`). Nothing else is rewritten.
 *
 * Import refuses what cannot form a tree (RULE_INVALID_TREE: a non-object node, a `parentId`
 * naming no row, a parent cycle, a duplicate id, a tree beyond `TREE_LIMITS`) and unknown
 * condition types (RULE_UNKNOWN_CONDITION), with the JSON pointer into the source. Children are
 * never dropped: a node with children under both `children` and `rules`, a reference with
 * children, or a filtering condition's children under its catalog name (`filter`, `container`)
 * outside the serialized form is refused. Messages quote at most 100 characters of a given string.
 * Disabled conditions are known and import; `validateCondition` flags them, and their values,
 * before saving.
 */
export function importCondition(source: unknown): RuleResult<ConditionTree> {
  return attempt((): ConditionTree => {
    const reader = new Reader();
    for (const [item, pointer] of topLevel(source)) reader.top.push(reader.collect(item, pointer, 1, null));
    reader.link();
    const roots = sortByPosition(reader.top.filter((entry) => entry.parentId === null));
    if (roots.length === 1) return reader.build(roots[0]!, 1);
    const builder = { nodes: 1 };
    const children = roots.map((root) => reader.build(root, 2, builder));
    return children.length === 0 ? { type: 'andContainer' } : { type: 'andContainer', children };
  });
}

/**
 * The normal form of a native tree: null-valued and `_name` keys of `value` dropped, empty
 * `value`/`children` omitted, keys other than `type`, `value`, `children` (`ruleId` for a
 * reference) dropped. Structural only: it does not consult the catalog (see `validateCondition`).
 * Idempotent; refuses (RULE_INVALID_TREE) what is no tree or exceeds `TREE_LIMITS`.
 */
export function normalizeCondition(tree: ConditionTree): RuleResult<ConditionTree> {
  let nodes = 0;
  const walk = (node: unknown, pointer: string, depth: number): ConditionTree => {
    nodes += 1;
    checkLimits(nodes, depth, pointer);
    if (!isPlainObject(node)) throw invalid(pointer, 'A condition node is an object.');
    const { type } = node;
    if (typeof type !== 'string') {
      throw invalid(`${pointer}/type`, 'A condition node names its condition in `type`.');
    }
    if (type === 'ruleReference') {
      checkReference(node, pointer);
      return { type, ruleId: node.ruleId as string };
    }
    const value = cleanValue(node.value, `${pointer}/value`);
    const children = nativeChildren(node, pointer).map(([child, at]) => walk(child, at, depth + 1));
    return shape(type, value, children);
  };
  return attempt(() => walk(tree, '', 1));
}

function invalid(pointer: string, message: string, details: Record<string, unknown> = {}): RuleError {
  return new RuleError('RULE_INVALID_TREE', message, pointer, details);
}

function checkLimits(nodes: number, depth: number, pointer: string): void {
  if (nodes > TREE_LIMITS.nodes) {
    throw invalid(pointer, `A condition tree has at most ${TREE_LIMITS.nodes} nodes.`, {
      limit: TREE_LIMITS.nodes,
    });
  }
  if (depth > TREE_LIMITS.depth) {
    throw invalid(pointer, `A condition tree nests at most ${TREE_LIMITS.depth} levels deep.`, {
      limit: TREE_LIMITS.depth,
    });
  }
}

function shape(type: string, value: Record<string, unknown> | undefined, children: ConditionTree[]) {
  return {
    type,
    ...(value === undefined ? {} : { value }),
    ...(children.length === 0 ? {} : { children }),
  };
}

/** `value` without null-valued (and `_name`) keys; undefined when nothing remains. */
function cleanValue(value: unknown, pointer: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw invalid(pointer, '`value` is an object of the condition’s parameters.');
  const kept = Object.entries(value).filter(
    ([key, given]) => given !== null && given !== undefined && key !== '_name',
  );
  // `fromEntries` defines own properties, so a `__proto__` key stays a key (validation refuses it).
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** A reference names a rule and carries nothing else the tree could lose. */
function checkReference(node: Record<string, unknown>, pointer: string): void {
  if (typeof node.ruleId !== 'string' || node.ruleId === '') {
    throw invalid(`${pointer}/ruleId`, 'A rule reference names a saved rule in `ruleId`.');
  }
  if (cleanValue(node.value, `${pointer}/value`) !== undefined) {
    throw invalid(`${pointer}/value`, 'A rule reference has no value.');
  }
  for (const key of CHILD_KEYS) {
    if (holdsChildren(node[key])) throw invalid(`${pointer}/${key}`, 'A rule reference has no children.');
  }
}

/** Where a node may hold its children: the native key, and the catalog's and serialized form's. */
const CHILD_KEYS = ['children', 'rules'] as const;

/** Whether a child list is given: an empty list or null holds none (anything else is judged). */
function holdsChildren(list: unknown): boolean {
  return list !== undefined && list !== null && !(Array.isArray(list) && list.length === 0);
}

/**
 * A native node's children with their pointers: under `children`, or under `rules` (the catalog
 * calls a container's children so), never under both.
 */
function nativeChildren(node: Record<string, unknown>, pointer: string): [unknown, string][] {
  if (CHILD_KEYS.every((key) => holdsChildren(node[key]))) {
    throw invalid(
      `${pointer}/rules`,
      'A condition node holds its children under `children` or under `rules`, not both.',
    );
  }
  const key = holdsChildren(node.rules) ? 'rules' : 'children';
  const list = node[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw invalid(`${pointer}/${key}`, `\`${key}\` is a list of condition nodes.`);
  return list.map((child, index) => [child, `${pointer}/${key}/${index}`]);
}

/**
 * The filtering conditions' child slots other than `rules` (`filter`, `container`) are members of
 * the serialized form only; a native node names its children `children`, so one given there would
 * be lost.
 */
function checkChildSlots(node: Record<string, unknown>, definition: ConditionDefinition, pointer: string) {
  for (const param of definition.params) {
    if (param.type !== 'rules' || param.name === 'rules' || !holdsChildren(node[param.name])) continue;
    throw invalid(
      `${pointer}/${pointerSegment(param.name)}`,
      `${definition.name} holds its ${param.name} conditions in \`children\` (\`${param.name}\` is their name only in the serialized form with \`_name\`).`,
    );
  }
}

/** A cycle of ids as a message shows it: `"a" → "b" → "a"`, at most 10 of them quoted. */
function cycleText(ids: readonly string[]): string {
  const shown = ids.length <= 10 ? [...ids, ids[0]!] : ids.slice(0, 10);
  const text = shown.map(echo).join(' → ');
  return ids.length <= 10 ? text : `${text} → … (${ids.length} conditions)`;
}

function unknownCondition(type: string, pointer: string): RuleError {
  return new RuleError('RULE_UNKNOWN_CONDITION', `Unknown condition type ${echo(type)}.`, pointer, {
    type: clip(type),
  });
}

/** The top-level items of the source, with their pointers. */
function topLevel(source: unknown): [unknown, string][] {
  if (Array.isArray(source)) return source.map((item, index) => [item, `/${index}`]);
  if (isPlainObject(source)) {
    if ('type' in source || '_name' in source) return [[source, '']];
    if ('conditions' in source) {
      const { conditions } = source;
      if (!Array.isArray(conditions)) {
        throw invalid('/conditions', '`conditions` is a list of condition nodes.');
      }
      return conditions.map((item, index) => [item, `/conditions/${index}`]);
    }
  }
  throw invalid(
    '',
    'Expected a condition node, a list of condition rows or nodes, or a rule with `conditions`.',
  );
}

/** A source node read, before its place in the tree is settled. */
interface Entry {
  readonly pointer: string;
  /** Source order, for reporting the first of several faults. */
  readonly order: number;
  readonly id: string | null;
  readonly parentId: string | null;
  readonly position: number | null;
  /** The node it is nested in, if any. */
  readonly enclosing: Entry | null;
  readonly type: string;
  readonly ruleId?: string;
  readonly value?: Record<string, unknown> | undefined;
  /** Nested children first, then rows naming it as their parent. */
  readonly children: Entry[];
}

function sortByPosition(entries: Entry[]): Entry[] {
  // Array#sort is stable; a missing position sorts first.
  return [...entries].sort(
    (a, b) => (a.position ?? Number.NEGATIVE_INFINITY) - (b.position ?? Number.NEGATIVE_INFINITY) || 0,
  );
}

// Serialized nodes: keys that are never condition properties.
const SERIALIZED_RESERVED: ReadonlySet<string> = new Set(['_name', '_class', 'extensions', 'rules']);

class Reader {
  readonly top: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private count = 0;

  collect(item: unknown, pointer: string, depth: number, enclosing: Entry | null): Entry {
    // A filtering condition's serialized `filter` adds a level the tree drops, so the source may
    // nest up to twice as deep as the tree; `build` applies the exact bound.
    if (depth > 2 * TREE_LIMITS.depth + 1) checkLimits(0, depth, pointer);
    if (!isPlainObject(item)) throw invalid(pointer, 'A condition node is an object.');
    // A serialized rule's properties may include `type` or `id`; its `_name` decides.
    if ('_name' in item) {
      if (typeof item._name !== 'string') {
        throw invalid(`${pointer}/_name`, '`_name` names the condition of a serialized rule.');
      }
      return this.collectSerialized(item, pointer, depth, enclosing);
    }
    const { type } = item;
    if (typeof type !== 'string') {
      throw invalid(`${pointer}/type`, 'A condition node names its condition in `type` (or `_name`).');
    }
    const id = this.optionalString(item, 'id', pointer);
    const parentId = this.optionalString(item, 'parentId', pointer);
    const { position } = item;
    if (
      position !== undefined &&
      position !== null &&
      !(typeof position === 'number' && Number.isFinite(position))
    ) {
      throw invalid(`${pointer}/position`, '`position` is a number.');
    }
    if (enclosing !== null && parentId !== null && parentId !== enclosing.id) {
      throw invalid(
        `${pointer}/parentId`,
        `The nested node's parentId ${echo(parentId)} does not name the node it is nested in.`,
        { parentId: clip(parentId) },
      );
    }
    const common = {
      pointer,
      order: this.count++,
      id,
      parentId: enclosing === null ? parentId : null,
      position: (position as number | null | undefined) ?? null,
      enclosing,
      children: [] as Entry[],
    };
    if (id !== null) {
      if (this.byId.has(id)) {
        throw invalid(`${pointer}/id`, `The id ${echo(id)} is used by more than one condition.`, {
          id: clip(id),
        });
      }
    }
    if (type === 'ruleReference') {
      checkReference(item, pointer);
      const entry: Entry = { ...common, type, ruleId: item.ruleId as string };
      if (id !== null) this.byId.set(id, entry);
      return entry;
    }
    const definition = findCondition(type);
    if (definition === undefined) throw unknownCondition(type, `${pointer}/type`);
    checkChildSlots(item, definition, pointer);
    const entry: Entry = { ...common, type, value: cleanValue(item.value, `${pointer}/value`) };
    if (id !== null) this.byId.set(id, entry);
    for (const [child, at] of nativeChildren(item, pointer)) {
      entry.children.push(this.collect(child, at, depth + 1, entry));
    }
    return entry;
  }

  private optionalString(item: Record<string, unknown>, key: string, pointer: string): string | null {
    const given = item[key];
    if (given === undefined || given === null) return null;
    if (typeof given !== 'string' || given === '') {
      throw invalid(`${pointer}/${key}`, `\`${key}\` is a non-empty string.`);
    }
    return given;
  }

  private collectSerialized(
    item: Record<string, unknown>,
    pointer: string,
    depth: number,
    enclosing: Entry | null,
  ): Entry {
    const type = item._name as string;
    const common = {
      pointer,
      order: this.count++,
      id: null,
      parentId: null,
      position: null,
      enclosing,
      children: [] as Entry[],
    };
    if (type === 'ruleReference') {
      checkReference(item, pointer);
      return { ...common, type, ruleId: item.ruleId as string };
    }
    const definition = findCondition(type);
    if (definition === undefined) throw unknownCondition(type, `${pointer}/_name`);
    // The filtering conditions hold their children in a container property (`filter`,
    // `container`); the rest of the properties form the value.
    const nested = new Set(
      definition.params
        .filter((param) => param.type === 'rules' && param.name !== 'rules')
        .map((param) => param.name),
    );
    const properties: Record<string, unknown> = {};
    for (const [key, given] of Object.entries(item)) {
      if (!SERIALIZED_RESERVED.has(key) && !(nested.has(key) && isPlainObject(given)))
        properties[key] = given;
    }
    const entry: Entry = { ...common, type, value: cleanValue(properties, pointer) };
    const { rules } = item;
    if (rules !== undefined && rules !== null) {
      if (!Array.isArray(rules)) throw invalid(`${pointer}/rules`, '`rules` is a list of serialized rules.');
      rules.forEach((child, index) => {
        entry.children.push(this.collect(child, `${pointer}/rules/${index}`, depth + 1, entry));
      });
    }
    for (const key of nested) {
      const container = item[key];
      if (!isPlainObject(container)) continue;
      const child = this.collect(container, `${pointer}/${pointerSegment(key)}`, depth + 1, entry);
      // `FilterRule::addRule` collects children in an AndRule; the native node holds them directly.
      if (child.type === 'andContainer' && child.value === undefined) {
        for (const grandchild of child.children) entry.children.push(grandchild);
      } else entry.children.push(child);
    }
    return entry;
  }

  /** Attaches rows to the nodes their `parentId` names; rejects dangling parents and cycles. */
  link(): void {
    for (const entry of this.top) {
      if (entry.parentId === null) continue;
      const parent = this.byId.get(entry.parentId);
      if (parent === undefined) {
        throw invalid(
          `${entry.pointer}/parentId`,
          `The parentId ${echo(entry.parentId)} names no condition.`,
          { parentId: clip(entry.parentId) },
        );
      }
      parent.children.push(entry);
    }
    const reached = new Set<Entry>();
    const pending = this.top.filter((entry) => entry.parentId === null);
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      reached.add(next);
      for (const child of next.children) pending.push(child);
    }
    const stranded = this.top.find((entry) => !reached.has(entry));
    if (stranded === undefined) return;
    // Every parent exists, so a row the roots do not reach hangs below a cycle: walk up to it.
    const seen = new Set<Entry>();
    let at: Entry = stranded;
    while (!seen.has(at)) {
      seen.add(at);
      at = at.enclosing ?? this.byId.get(at.parentId!)!;
    }
    const cycle: Entry[] = [];
    let member = at;
    do {
      cycle.push(member);
      member = member.enclosing ?? this.byId.get(member.parentId!)!;
    } while (member !== at);
    const first = cycle.filter((entry) => entry.parentId !== null).sort((a, b) => a.order - b.order)[0]!;
    // Each one's parent (by parentId or by nesting) is the next.
    const ids = cycle.map((entry) => entry.id).filter((id) => id !== null);
    throw invalid(`${first.pointer}/parentId`, `The conditions' parentIds form a cycle: ${cycleText(ids)}.`, {
      ids: ids.map(clip),
    });
  }

  build(entry: Entry, depth: number, counter = { nodes: 0 }): ConditionTree {
    counter.nodes += 1;
    checkLimits(counter.nodes, depth, entry.pointer);
    if (entry.ruleId !== undefined) return { type: 'ruleReference', ruleId: entry.ruleId };
    const children = sortByPosition(entry.children).map((child) => this.build(child, depth + 1, counter));
    return shape(entry.type, entry.value, children);
  }
}
