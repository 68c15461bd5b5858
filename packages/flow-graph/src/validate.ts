import { type ConditionTree, type RuleIssueCode, validateCondition } from '@cartwright/rules-engine';
import { clip, echo, normalizeActionConfig, pointerSegment } from './actions.ts';
import { FLOW_LIMITS, type FlowIssueCode, type FlowNode, type FlowPipeline } from './model.ts';

/**
 * One reason a graph cannot be saved. `nodeIds` names the offending nodes (empty when the issue
 * concerns the graph as a whole); `pointer` is the JSON pointer of the offending part of the
 * pipeline, e.g. `/nodes/3/config/tags`.
 */
export interface FlowIssue {
  readonly code: FlowIssueCode | RuleIssueCode;
  readonly message: string;
  readonly nodeIds: string[];
  readonly pointer: string;
}

export type PipelineResult =
  | { readonly ok: true; readonly pipeline: FlowPipeline }
  | { readonly ok: false; readonly issues: FlowIssue[] };

const PIPELINE_KEYS: ReadonlySet<string> = new Set(['entry', 'nodes']);
const NODE_KEYS: Readonly<Record<string, readonly string[]>> = {
  condition: ['id', 'kind', 'condition', 'on_true', 'on_false'],
  action: ['id', 'kind', 'action', 'config', 'next'],
  delay: ['id', 'kind', 'seconds', 'next'],
  stop: ['id', 'kind'],
};
const EDGE_KEYS: Readonly<Record<string, readonly string[]>> = {
  condition: ['on_true', 'on_false'],
  action: ['next'],
  delay: ['next'],
  stop: [],
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A node as far as the graph walks need it: its id and the edges that could be read. */
interface GraphNode {
  readonly index: number;
  readonly id: string;
  readonly edges: { readonly key: string; readonly target: string }[];
  /** False when the kind or an edge could not be read, so the node's successors are unknown. */
  readonly edgesKnown: boolean;
  /** The node to return on success; `null` once any of its fields is invalid. */
  node: FlowNode | null;
}

/**
 * The strict check before a graph is saved. Reports every issue found (shape, duplicate ids,
 * dangling edges, cycles, unreachable nodes, size, delays, actions and their configs, and the
 * condition trees' own issues); on success returns the pipeline with canonical action configs.
 * All graph walks are iterative, and an input with more than `FLOW_LIMITS.nodesInInput` nodes is
 * refused before any walk. Never throws.
 */
export function validatePipeline(input: unknown): PipelineResult {
  const issues: FlowIssue[] = [];
  const issue = (code: FlowIssue['code'], message: string, nodeIds: string[], pointer: string): void => {
    issues.push({ code, message, nodeIds, pointer });
  };
  if (!isPlainObject(input)) {
    issue('FLOW_INVALID_GRAPH', 'The pipeline is an object with `entry` and `nodes`.', [], '');
    return { ok: false, issues };
  }
  for (const key of Object.keys(input)) {
    if (!PIPELINE_KEYS.has(key)) {
      issue('FLOW_INVALID_GRAPH', `The pipeline has no ${clip(key)}.`, [], `/${pointerSegment(key)}`);
    }
  }
  const entry = typeof input.entry === 'string' && input.entry !== '' ? input.entry : null;
  if (entry === null) {
    issue('FLOW_INVALID_GRAPH', '`entry` names the node the graph starts at.', [], '/entry');
  }
  const { nodes } = input;
  if (!Array.isArray(nodes)) {
    issue('FLOW_INVALID_GRAPH', '`nodes` is a list of nodes.', [], '/nodes');
    return { ok: false, issues };
  }
  if (nodes.length > FLOW_LIMITS.nodesInInput) {
    issue(
      'FLOW_SIZE',
      `A graph lists at most ${FLOW_LIMITS.nodesInInput} nodes (and at most ${FLOW_LIMITS.reachableNodes} reachable ones); this one lists ${nodes.length}.`,
      [],
      '/nodes',
    );
    return { ok: false, issues };
  }

  // 1. Each node on its own.
  const parsed: GraphNode[] = [];
  let allEdgesKnown = true;
  nodes.forEach((raw, index) => {
    const node = parseNode(raw, index, issue);
    if (node === null) allEdgesKnown = false;
    else {
      if (!node.edgesKnown) allEdgesKnown = false;
      parsed.push(node);
    }
  });

  // 2. Duplicate ids. The graph walks treat all nodes of one id as a single node with the edges of
  //    them all, so a duplicate causes no unreachable nodes or cycles of its own.
  const byId = new Map<string, GraphNode>();
  const reported = new Set<string>();
  for (const node of parsed) {
    const first = byId.get(node.id);
    if (first === undefined) {
      byId.set(node.id, { ...node, edges: [...node.edges] });
      continue;
    }
    first.edges.push(...node.edges);
    if (!reported.has(node.id)) {
      reported.add(node.id);
      issue(
        'FLOW_DUPLICATE_NODE',
        `More than one node has the id ${echo(node.id)}.`,
        [node.id],
        `/nodes/${node.index}/id`,
      );
    }
  }
  const graph = [...byId.values()];

  // 3. Edges naming no node.
  const entryNode = entry === null ? undefined : byId.get(entry);
  if (entry !== null && entryNode === undefined) {
    issue('FLOW_EDGE_MISSING', `The entry ${echo(entry)} names no node.`, [], '/entry');
  }
  for (const node of parsed) {
    for (const edge of node.edges) {
      if (!byId.has(edge.target)) {
        issue(
          'FLOW_EDGE_MISSING',
          `The edge ${edge.key} of ${echo(node.id)} names no node: ${echo(edge.target)}.`,
          [node.id],
          `/nodes/${node.index}/${edge.key}`,
        );
      }
    }
  }

  // 4. Cycles: every strongly connected component that contains a cycle.
  for (const component of cyclicComponents(graph, byId)) {
    const first = component[0]!;
    issue(
      'FLOW_CYCLE',
      `The graph has a cycle through ${component.map((node) => echo(node.id)).join(', ')}.`,
      component.map((node) => node.id),
      `/nodes/${first.index}`,
    );
  }

  // 5. Reachability and size; skipped when the entry or some node's edges are unknown, since
  //    the reachable set could not be told then.
  if (nodes.length === 0) {
    issue('FLOW_SIZE', 'A graph has at least one node.', [], '/nodes');
  } else if (entryNode !== undefined && allEdgesKnown) {
    const reachable = reachableFrom(entryNode, byId);
    const unreachable = graph.filter((node) => !reachable.has(node.id));
    if (unreachable.length > 0) {
      issue(
        'FLOW_UNREACHABLE',
        `Not reachable from the entry: ${unreachable.map((node) => echo(node.id)).join(', ')}.`,
        unreachable.map((node) => node.id),
        `/nodes/${unreachable[0]!.index}`,
      );
    }
    if (reachable.size > FLOW_LIMITS.reachableNodes) {
      issue(
        'FLOW_SIZE',
        `A graph has at most ${FLOW_LIMITS.reachableNodes} reachable nodes; this one has ${reachable.size}.`,
        [],
        '/nodes',
      );
    }
  }

  if (issues.length > 0) return { ok: false, issues };
  const pipeline: FlowPipeline = { entry: entry!, nodes: parsed.map((node) => node.node!) };
  return { ok: true, pipeline };
}

type Report = (code: FlowIssue['code'], message: string, nodeIds: string[], pointer: string) => void;

/** Checks one node's shape and fields; returns what the graph walks need, or `null` without an id. */
function parseNode(raw: unknown, index: number, issue: Report): GraphNode | null {
  const at = `/nodes/${index}`;
  if (!isPlainObject(raw)) {
    issue('FLOW_INVALID_GRAPH', 'A node is an object with `id` and `kind`.', [], at);
    return null;
  }
  const { id, kind } = raw;
  if (typeof id !== 'string' || id === '') {
    issue('FLOW_INVALID_GRAPH', 'A node has a non-empty text `id`.', [], `${at}/id`);
    return null;
  }
  const ids = [id];
  if (typeof kind !== 'string' || !Object.hasOwn(NODE_KEYS, kind)) {
    issue(
      'FLOW_INVALID_GRAPH',
      `The kind of a node is condition, action, delay or stop, not ${echo(kind)}.`,
      ids,
      `${at}/kind`,
    );
    return { index, id, edges: [], edgesKnown: false, node: null };
  }
  let valid = true;
  const invalid = (code: FlowIssue['code'], message: string, pointer: string): void => {
    valid = false;
    issue(code, message, ids, pointer);
  };
  const allowed = NODE_KEYS[kind]!;
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) {
      invalid('FLOW_INVALID_GRAPH', `A ${kind} node has no ${clip(key)}.`, `${at}/${pointerSegment(key)}`);
    }
  }
  const edges: { key: string; target: string }[] = [];
  const targets: Record<string, string | null> = {};
  let edgesKnown = true;
  for (const key of EDGE_KEYS[kind]!) {
    const target = raw[key];
    if (target === null || typeof target === 'string') {
      targets[key] = target;
      if (target !== null) edges.push({ key, target });
    } else {
      edgesKnown = false;
      invalid(
        'FLOW_INVALID_GRAPH',
        `${key} names the next node, or is null where the graph ends.`,
        `${at}/${key}`,
      );
    }
  }

  let node: FlowNode | null = null;
  switch (kind) {
    case 'stop':
      node = { id, kind };
      break;
    case 'delay': {
      const { seconds } = raw;
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds <= 0) {
        invalid('FLOW_INVALID_GRAPH', '`seconds` is a positive whole number.', `${at}/seconds`);
      } else if (seconds > FLOW_LIMITS.delaySeconds) {
        invalid(
          'FLOW_DELAY_TOO_LONG',
          `A delay lasts at most 30 days (${FLOW_LIMITS.delaySeconds} seconds), not ${seconds}.`,
          `${at}/seconds`,
        );
      } else {
        node = { id, kind, seconds, next: targets.next ?? null };
      }
      break;
    }
    case 'condition': {
      const { condition } = raw;
      if (condition === undefined) {
        invalid('FLOW_INVALID_GRAPH', 'A condition node has a `condition`.', `${at}/condition`);
        break;
      }
      const conditionIssues = validateCondition(condition as ConditionTree);
      for (const found of conditionIssues) {
        invalid(found.code, found.message, `${at}/condition${found.pointer}`);
      }
      if (conditionIssues.length === 0) {
        node = {
          id,
          kind,
          condition: condition as ConditionTree,
          on_true: targets.on_true ?? null,
          on_false: targets.on_false ?? null,
        };
      }
      break;
    }
    case 'action': {
      const { action, config } = raw;
      if (typeof action !== 'string' || action === '') {
        invalid('FLOW_INVALID_GRAPH', 'An action node names its action in `action`.', `${at}/action`);
        break;
      }
      if (config === undefined) {
        invalid('FLOW_INVALID_GRAPH', 'An action node has a `config` object.', `${at}/config`);
        break;
      }
      const result = normalizeActionConfig(action, config);
      if (!result.ok) {
        for (const found of result.issues) {
          const pointer =
            found.code === 'FLOW_UNKNOWN_ACTION' ? `${at}/action` : `${at}/config${found.pointer}`;
          invalid(found.code, found.message, pointer);
        }
        break;
      }
      node = { id, kind, action, config: result.config, next: targets.next ?? null };
      break;
    }
  }
  return { index, id, edges, edgesKnown, node: valid ? node : null };
}

/** The ids reachable from `start` over edges that name a node (breadth first, iterative). */
function reachableFrom(start: GraphNode, byId: ReadonlyMap<string, GraphNode>): Set<string> {
  const seen = new Set<string>([start.id]);
  const queue: GraphNode[] = [start];
  for (let head = 0; head < queue.length; head += 1) {
    for (const edge of queue[head]!.edges) {
      const next = byId.get(edge.target);
      if (next !== undefined && !seen.has(next.id)) {
        seen.add(next.id);
        queue.push(next);
      }
    }
  }
  return seen;
}

/**
 * The strongly connected components that contain a cycle (more than one node, or one node with an
 * edge to itself), each in input order, found with an iterative Tarjan walk. A node lies on some
 * cycle exactly when it belongs to one of them.
 */
function cyclicComponents(graph: readonly GraphNode[], byId: ReadonlyMap<string, GraphNode>): GraphNode[][] {
  const successors = (node: GraphNode): GraphNode[] =>
    node.edges.flatMap((edge) => {
      const next = byId.get(edge.target);
      return next === undefined ? [] : [next];
    });
  const order = new Map<GraphNode, number>();
  const low = new Map<GraphNode, number>();
  const onStack = new Set<GraphNode>();
  const stack: GraphNode[] = [];
  const components: GraphNode[][] = [];
  let counter = 0;

  for (const root of graph) {
    if (order.has(root)) continue;
    const frames: { node: GraphNode; next: GraphNode[]; position: number }[] = [];
    const enter = (node: GraphNode): void => {
      order.set(node, counter);
      low.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      frames.push({ node, next: successors(node), position: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.position < frame.next.length) {
        const next = frame.next[frame.position]!;
        frame.position += 1;
        if (!order.has(next)) enter(next);
        else if (onStack.has(next)) low.set(frame.node, Math.min(low.get(frame.node)!, order.get(next)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) {
        low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== order.get(frame.node)) continue;
      const component: GraphNode[] = [];
      let member: GraphNode;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfLoop = component.length === 1 && frame.next.includes(frame.node);
      if (component.length > 1 || selfLoop) {
        components.push(component.sort((a, b) => a.index - b.index));
      }
    }
  }
  return components.sort((a, b) => a[0]!.index - b[0]!.index);
}
