import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLOW_LIMITS } from './model.ts';
import { validatePipeline } from './validate.ts';

// Random graphs against a plainly written oracle. Every generated action config and condition is
// valid, so a graph is valid exactly when its structure is.

type Edge = string | null;
type GenNode =
  | { id: string; kind: 'condition'; condition: unknown; on_true: Edge; on_false: Edge }
  | { id: string; kind: 'action'; action: string; config: Record<string, unknown>; next: Edge }
  | { id: string; kind: 'delay'; seconds: number; next: Edge }
  | { id: string; kind: 'stop' };
interface GenGraph {
  entry: string;
  nodes: GenNode[];
}

/**
 * The random choices of one graph, drawn from a tape of numbers that fast-check generates (and
 * shrinks towards zeros, i.e. towards the first option of every choice). Drawing through
 * `fc.gen()` per choice would cost more than the validation under test.
 */
interface Gen {
  readonly tape: readonly number[];
  position: number;
}
const TAPE_LENGTH = 1500;
const tapes = fc.array(fc.noBias(fc.nat()), { minLength: TAPE_LENGTH, maxLength: TAPE_LENGTH });

const THIRTY_DAYS = 30 * 24 * 3600;
const ACTIONS: readonly { action: string; config: Record<string, unknown> }[] = [
  { action: 'note', config: { text: 'Checked.' } },
  { action: 'action.add.order.tag', config: { tagIds: ['vip', 'vip'] } },
  { action: 'action.set.order.state', config: { kind: 'delivery', state: 'shipped' } },
  { action: 'action.stop.flow', config: {} },
];
const CONDITIONS: readonly unknown[] = [
  { type: 'alwaysValid' },
  { type: 'ruleReference', ruleId: 'rule-1' },
  { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
];

/** The next choice in `min..max`; the minimum once the tape is used up. */
function int(g: Gen, min: number, max: number): number {
  const drawn = g.tape[g.position];
  g.position += 1;
  return drawn === undefined ? min : min + (drawn % (max - min + 1));
}

function edgesOf(node: GenNode): string[] {
  const edges =
    node.kind === 'condition' ? [node.on_true, node.on_false] : node.kind === 'stop' ? [] : [node.next];
  return edges.filter((edge): edge is string => edge !== null);
}

/** The spec's rule, written independently of the validator. */
function oracle(graph: GenGraph): boolean {
  const ids = graph.nodes.map((node) => node.id);
  if (new Set(ids).size !== ids.length) return false;
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  if (!byId.has(graph.entry)) return false;
  for (const node of graph.nodes) {
    for (const edge of edgesOf(node)) if (!byId.has(edge)) return false;
    if (node.kind === 'delay' && node.seconds > THIRTY_DAYS) return false;
  }
  // Reachable set from the entry (explicit stack).
  const reachable = new Set([graph.entry]);
  const stack = [graph.entry];
  while (stack.length > 0) {
    for (const edge of edgesOf(byId.get(stack.pop()!)!)) {
      if (!reachable.has(edge)) {
        reachable.add(edge);
        stack.push(edge);
      }
    }
  }
  if (reachable.size !== graph.nodes.length) return false;
  if (reachable.size < 1 || reachable.size > 100) return false;
  // Kahn: the graph is acyclic when every node can be removed in topological order.
  const indegree = new Map(ids.map((id) => [id, 0]));
  for (const node of graph.nodes)
    for (const edge of edgesOf(node)) indegree.set(edge, indegree.get(edge)! + 1);
  const ready = ids.filter((id) => indegree.get(id) === 0);
  let removed = 0;
  while (ready.length > 0) {
    const id = ready.pop()!;
    removed += 1;
    for (const edge of edgesOf(byId.get(id)!)) {
      indegree.set(edge, indegree.get(edge)! - 1);
      if (indegree.get(edge) === 0) ready.push(edge);
    }
  }
  return removed === ids.length;
}

function nodeOf(g: Gen, id: string, kind: GenNode['kind'], edges: readonly [Edge, Edge]): GenNode {
  switch (kind) {
    case 'condition':
      return {
        id,
        kind,
        condition: CONDITIONS[int(g, 0, CONDITIONS.length - 1)],
        on_true: edges[0],
        on_false: edges[1],
      };
    case 'action': {
      const { action, config } = ACTIONS[int(g, 0, ACTIONS.length - 1)]!;
      return { id, kind, action, config, next: edges[0] };
    }
    case 'delay':
      return { id, kind, seconds: int(g, 1, THIRTY_DAYS), next: edges[0] };
    case 'stop':
      return { id, kind };
  }
}

const KINDS = ['condition', 'action', 'delay', 'stop'] as const;

/**
 * Anything goes: 0 to 130 nodes, edges to existing ids, absent ids or null, some duplicate ids and
 * over-long delays. Each kind of defect is switched on or off per graph, so graphs with a single
 * kind of defect come up too.
 */
function randomGraph(g: Gen): GenGraph {
  const count = int(g, 0, 130);
  const duplicates = int(g, 0, 1) === 1;
  const absentEdges = int(g, 0, 1) === 1;
  const longDelays = int(g, 0, 1) === 1;
  const ids = Array.from({ length: count }, (_, index) =>
    duplicates && index > 0 && int(g, 0, 19) === 0 ? `n${int(g, 0, index - 1)}` : `n${index}`,
  );
  const target = (): Edge => {
    const roll = int(g, 0, 9);
    if (roll <= 2 || count === 0) return roll === 0 && absentEdges ? `absent${int(g, 0, 3)}` : null;
    if (roll === 9 && absentEdges) return `absent${int(g, 0, 3)}`;
    return ids[int(g, 0, count - 1)]!;
  };
  const nodes = ids.map((id) => {
    const node = nodeOf(g, id, KINDS[int(g, 0, 3)]!, [target(), target()]);
    if (node.kind === 'delay' && longDelays && int(g, 0, 4) === 0)
      node.seconds = THIRTY_DAYS + int(g, 1, 1000);
    return node;
  });
  const entry = count > 0 && int(g, 0, 9) > 0 ? ids[int(g, 0, Math.min(2, count - 1))]! : 'absent-entry';
  return { entry, nodes };
}

/**
 * A DAG whose every node is reachable: node j > 0 hangs below an earlier node (a spanning tree
 * with at most two children per node), and any further edge leads to a later node or ends the
 * graph. Returns the tree parents too, for injecting cycles.
 */
function connectedDag(g: Gen, maxNodes: number, minNodes = 1): { graph: GenGraph; parent: number[] } {
  const count = int(g, minNodes, maxNodes);
  const children: number[][] = Array.from({ length: count }, () => []);
  const parent: number[] = [-1];
  for (let index = 1; index < count; index += 1) {
    let candidate = int(g, 0, index - 1);
    while (children[candidate]!.length >= 2) candidate += 1; // index - 1 has no children yet
    children[candidate]!.push(index);
    parent.push(candidate);
  }
  const id = (index: number) => `node-${index}`;
  const later = (index: number): Edge =>
    index + 1 < count && int(g, 0, 2) === 0 ? id(int(g, index + 1, count - 1)) : null;
  const nodes = children.map((own, index): GenNode => {
    const edges = own.map(id);
    if (edges.length === 2) {
      const swap = int(g, 0, 1) === 1;
      return nodeOf(g, id(index), 'condition', swap ? [edges[1]!, edges[0]!] : [edges[0]!, edges[1]!]);
    }
    if (edges.length === 1) {
      const kind = (['condition', 'action', 'delay'] as const)[int(g, 0, 2)]!;
      if (kind !== 'condition') return nodeOf(g, id(index), kind, [edges[0]!, null]);
      const extra = later(index);
      return nodeOf(g, id(index), kind, int(g, 0, 1) === 0 ? [edges[0]!, extra] : [extra, edges[0]!]);
    }
    return nodeOf(g, id(index), KINDS[int(g, 0, 3)]!, [later(index), later(index)]);
  });
  // Shuffle the listing order: the validator must not rely on it.
  for (let index = nodes.length - 1; index > 0; index -= 1) {
    const other = int(g, 0, index);
    [nodes[index], nodes[other]] = [nodes[other]!, nodes[index]!];
  }
  return { graph: { entry: id(0), nodes }, parent };
}

/** A connected DAG with one edge redirected from a node to itself or one of its tree ancestors. */
function dagWithCycle(g: Gen): { graph: GenGraph; from: string; to: string } {
  const { graph, parent } = connectedDag(g, 100);
  const from = int(g, 0, parent.length - 1);
  const ancestors = [from];
  while (parent[ancestors[ancestors.length - 1]!]! >= 0)
    ancestors.push(parent[ancestors[ancestors.length - 1]!]!);
  const to = ancestors[int(g, 0, ancestors.length - 1)]!;
  const fromId = `node-${from}`;
  const toId = `node-${to}`;
  const position = graph.nodes.findIndex((node) => node.id === fromId);
  const node = graph.nodes[position]!;
  if (node.kind === 'stop') graph.nodes[position] = { id: fromId, kind: 'delay', seconds: 60, next: toId };
  else if (node.kind === 'condition') {
    if (int(g, 0, 1) === 0) node.on_true = toId;
    else node.on_false = toId;
  } else node.next = toId;
  return { graph, from: fromId, to: toId };
}

const DEFECTS = ['duplicate', 'dangling', 'unreachable', 'delay', 'entry', 'size'] as const;
type Defect = (typeof DEFECTS)[number];

/** A connected DAG with exactly one defect of the given sort, and the one issue it must cause. */
function dagWithDefect(
  g: Gen,
  defect: Defect,
): { graph: GenGraph; expected: { code: string; nodeIds: string[] } } {
  // One node fewer than the limit, so a node added below keeps the graph within it.
  const { graph } =
    defect === 'size'
      ? connectedDag(g, 130, FLOW_LIMITS.reachableNodes + 1)
      : connectedDag(g, FLOW_LIMITS.reachableNodes - 1);
  const existing = graph.nodes[int(g, 0, graph.nodes.length - 1)]!.id;
  switch (defect) {
    case 'duplicate':
      graph.nodes.splice(int(g, 0, graph.nodes.length), 0, { id: existing, kind: 'stop' });
      return { graph, expected: { code: 'FLOW_DUPLICATE_NODE', nodeIds: [existing] } };
    case 'dangling':
      graph.nodes.push({
        id: 'fork',
        kind: 'condition',
        condition: { type: 'alwaysValid' },
        on_true: graph.entry,
        on_false: 'nowhere',
      });
      graph.entry = 'fork';
      return { graph, expected: { code: 'FLOW_EDGE_MISSING', nodeIds: ['fork'] } };
    case 'unreachable':
      graph.nodes.splice(int(g, 0, graph.nodes.length), 0, { id: 'orphan', kind: 'stop' });
      return { graph, expected: { code: 'FLOW_UNREACHABLE', nodeIds: ['orphan'] } };
    case 'delay':
      graph.nodes.unshift({
        id: 'slow',
        kind: 'delay',
        seconds: THIRTY_DAYS + int(g, 1, 10 ** 6),
        next: graph.entry,
      });
      graph.entry = 'slow';
      return { graph, expected: { code: 'FLOW_DELAY_TOO_LONG', nodeIds: ['slow'] } };
    case 'entry':
      graph.entry = 'nowhere';
      return { graph, expected: { code: 'FLOW_EDGE_MISSING', nodeIds: [] } };
    case 'size':
      return { graph, expected: { code: 'FLOW_SIZE', nodeIds: [] } };
  }
}

describe('validatePipeline (properties)', () => {
  // Valid DAGs (up to 110 nodes, so some too large) make up about 40% of the runs.
  const SHAPES = fc.oneof(
    { arbitrary: fc.constant('random' as const), weight: 2 },
    { arbitrary: fc.constant('dag' as const), weight: 6 },
    { arbitrary: fc.constant('cycle' as const), weight: 2 },
    { arbitrary: fc.constantFrom(...DEFECTS), weight: 4 },
  );

  it('accepts exactly the graphs the oracle accepts', () => {
    let runs = 0;
    let valid = 0;
    fc.assert(
      fc.property(SHAPES, tapes, (shape, tape) => {
        const g: Gen = { tape, position: 0 };
        const graph =
          shape === 'random'
            ? randomGraph(g)
            : shape === 'dag'
              ? connectedDag(g, 110).graph
              : shape === 'cycle'
                ? dagWithCycle(g).graph
                : dagWithDefect(g, shape).graph;
        const expected = oracle(graph);
        const result = validatePipeline(graph);
        runs += 1;
        if (expected) valid += 1;
        expect(result.ok, JSON.stringify(result.ok ? null : result.issues.slice(0, 3))).toBe(expected);
        if (result.ok) {
          expect(result.pipeline.entry).toBe(graph.entry);
          expect(result.pipeline.nodes.map((node) => node.id)).toEqual(graph.nodes.map((node) => node.id));
        }
      }),
      { numRuns: 500 },
    );
    expect(valid / runs).toBeGreaterThanOrEqual(0.3);
  }, 60_000);

  it('accepts every connected DAG of 1 to 100 nodes', () => {
    fc.assert(
      fc.property(tapes, (tape) => {
        const g: Gen = { tape, position: 0 };
        const { graph } = connectedDag(g, FLOW_LIMITS.reachableNodes);
        const result = validatePipeline(graph);
        expect(result.ok ? [] : result.issues).toEqual([]);
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('refuses a valid DAG with one injected defect, naming exactly that defect', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DEFECTS), tapes, (defect, tape) => {
        const { graph, expected } = dagWithDefect({ tape, position: 0 }, defect);
        expect(oracle(graph)).toBe(false);
        const result = validatePipeline(graph);
        expect(result.ok ? [] : result.issues.map(({ code, nodeIds }) => ({ code, nodeIds }))).toEqual([
          expected,
        ]);
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('reports an injected cycle with the nodes on it', () => {
    fc.assert(
      fc.property(tapes, (tape) => {
        const g: Gen = { tape, position: 0 };
        const { graph, from, to } = dagWithCycle(g);
        const result = validatePipeline(graph);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const cycles = result.issues.filter((issue) => issue.code === 'FLOW_CYCLE');
        expect(cycles).toHaveLength(1);
        expect(cycles[0]!.nodeIds).toContain(from);
        expect(cycles[0]!.nodeIds).toContain(to);
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.array(fc.anything(), { maxLength: 8 }), (entry, nodes) => {
        validatePipeline(entry);
        validatePipeline({ entry, nodes });
      }),
      { numRuns: 300 },
    );
  });
});
