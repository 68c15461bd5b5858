import { describe, expect, it } from 'vitest';
import { FLOW_LIMITS } from './model.ts';
import { type FlowIssue, validatePipeline } from './validate.ts';
import { nextNodeId, nodeById, ruleIdsOf } from './walk.ts';

const note = (id: string, next: string | null) => ({
  id,
  kind: 'action',
  action: 'note',
  config: { text: `at ${id}` },
  next,
});
const stop = (id: string) => ({ id, kind: 'stop' });

function issuesOf(input: unknown): Pick<FlowIssue, 'code' | 'nodeIds' | 'pointer'>[] {
  const result = validatePipeline(input);
  if (result.ok) throw new Error('expected the pipeline to be refused');
  return result.issues.map(({ code, nodeIds, pointer }) => ({ code, nodeIds, pointer }));
}

/** A chain a → b → … of `count` note actions ending in a stop node. */
function chain(count: number): { id: string; kind: string }[] {
  const nodes: { id: string; kind: string }[] = [];
  for (let index = 0; index < count - 1; index += 1) nodes.push(note(`n${index}`, `n${index + 1}`));
  nodes.push(stop(`n${count - 1}`));
  return nodes;
}

describe('validatePipeline accepts', () => {
  it('the starter flows', async () => {
    // Loaded by URL: the service is no dependency of this package, its starter flows are only data here.
    const url = new URL('../../service/src/shop/starter-definitions.ts', import.meta.url).href;
    const { STARTER_DEFINITIONS } = (await import(/* @vite-ignore */ url)) as {
      STARTER_DEFINITIONS: readonly { kind: string; key: string; data: { pipeline?: unknown } }[];
    };
    const flows = STARTER_DEFINITIONS.filter((definition) => definition.kind === 'flow');
    expect(flows.map((flow) => flow.key)).toEqual(['default_order_received', 'default_payment_received']);
    for (const flow of flows) {
      const result = validatePipeline(flow.data.pipeline);
      expect(result, flow.key).toMatchObject({ ok: true });
    }
  });

  it('a graph with every node kind, returning canonical configs', () => {
    const result = validatePipeline({
      entry: 'check',
      nodes: [
        {
          id: 'check',
          kind: 'condition',
          condition: { type: 'ruleReference', ruleId: 'rule-1' },
          on_true: 'tag',
          on_false: null,
        },
        {
          id: 'tag',
          kind: 'action',
          action: 'action.add.order.tag',
          config: { tagIds: ['vip', ' vip'] },
          next: 'wait',
        },
        { id: 'wait', kind: 'delay', seconds: FLOW_LIMITS.delaySeconds, next: 'again' },
        {
          id: 'again',
          kind: 'condition',
          condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
          on_true: 'end',
          on_false: 'end',
        },
        stop('end'),
      ],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const byId = nodeById(result.pipeline);
    expect(byId.get('tag')).toEqual({
      id: 'tag',
      kind: 'action',
      action: 'action.add.order.tag',
      config: { tags: ['vip'] },
      next: 'wait',
    });
    expect(ruleIdsOf(result.pipeline)).toEqual(['rule-1']);
    expect(nextNodeId(byId.get('check')!, true)).toBe('tag');
    expect(nextNodeId(byId.get('check')!, false)).toBeNull();
    expect(() => nextNodeId(byId.get('check')!)).toThrow(TypeError);
    expect(nextNodeId(byId.get('wait')!)).toBe('again');
    expect(nextNodeId(byId.get('end')!)).toBeNull();
  });

  it('exactly 100 reachable nodes', () => {
    expect(validatePipeline({ entry: 'n0', nodes: chain(100) }).ok).toBe(true);
  });

  it('a diamond (two edges into one node is no cycle)', () => {
    const result = validatePipeline({
      entry: 'c',
      nodes: [
        { id: 'c', kind: 'condition', condition: { type: 'alwaysValid' }, on_true: 'a', on_false: 'b' },
        note('a', 'd'),
        note('b', 'd'),
        stop('d'),
      ],
    });
    expect(result.ok).toBe(true);
  });
});

describe('validatePipeline refuses', () => {
  it.each([
    [null, ''],
    [[], ''],
    ['graph', ''],
  ])('a pipeline that is no object: %j', (input, pointer) => {
    expect(issuesOf(input)).toEqual([{ code: 'FLOW_INVALID_GRAPH', nodeIds: [], pointer }]);
  });

  it('a missing entry, a non-list nodes and unknown top-level keys', () => {
    expect(issuesOf({ nodes: [stop('a')] })).toEqual([
      { code: 'FLOW_INVALID_GRAPH', nodeIds: [], pointer: '/entry' },
    ]);
    expect(issuesOf({ entry: 'a', nodes: { a: stop('a') }, layout: {} })).toEqual([
      { code: 'FLOW_INVALID_GRAPH', nodeIds: [], pointer: '/layout' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: [], pointer: '/nodes' },
    ]);
  });

  it('malformed nodes, each with its own pointer', () => {
    expect(
      issuesOf({
        entry: 'a',
        nodes: [
          'a',
          { kind: 'stop' },
          { id: 'b', kind: 'loop' },
          { id: 'c', kind: 'delay', seconds: 1.5, next: null },
          { id: 'd', kind: 'delay', seconds: 0, next: null },
          { id: 'e', kind: 'action', action: 'note', next: null },
          { id: 'f', kind: 'action', config: {}, next: null },
          { id: 'g', kind: 'condition', on_true: null, on_false: null },
          { id: 'h', kind: 'stop', next: null },
          { id: 'i', kind: 'delay', seconds: 60, next: 3 },
          { id: 'j', kind: 'condition', condition: { type: 'alwaysValid' }, on_true: null },
        ],
      }),
    ).toEqual([
      { code: 'FLOW_INVALID_GRAPH', nodeIds: [], pointer: '/nodes/0' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: [], pointer: '/nodes/1/id' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['b'], pointer: '/nodes/2/kind' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['c'], pointer: '/nodes/3/seconds' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['d'], pointer: '/nodes/4/seconds' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['e'], pointer: '/nodes/5/config' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['f'], pointer: '/nodes/6/action' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['g'], pointer: '/nodes/7/condition' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['h'], pointer: '/nodes/8/next' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['i'], pointer: '/nodes/9/next' },
      { code: 'FLOW_INVALID_GRAPH', nodeIds: ['j'], pointer: '/nodes/10/on_false' },
      // `a` is the entry, but the node meant to carry that id has none.
      { code: 'FLOW_EDGE_MISSING', nodeIds: [], pointer: '/entry' },
    ]);
  });

  it('a duplicate node id', () => {
    expect(issuesOf({ entry: 'a', nodes: [note('a', 'b'), stop('b'), stop('b'), stop('b')] })).toEqual([
      { code: 'FLOW_DUPLICATE_NODE', nodeIds: ['b'], pointer: '/nodes/2/id' },
    ]);
  });

  it('an entry or an edge naming no node', () => {
    expect(issuesOf({ entry: 'x', nodes: [stop('a')] })).toEqual([
      { code: 'FLOW_EDGE_MISSING', nodeIds: [], pointer: '/entry' },
    ]);
    expect(
      issuesOf({
        entry: 'c',
        nodes: [
          { id: 'c', kind: 'condition', condition: { type: 'alwaysValid' }, on_true: 'gone', on_false: 'w' },
          { id: 'w', kind: 'delay', seconds: 60, next: 'also-gone' },
        ],
      }),
    ).toEqual([
      { code: 'FLOW_EDGE_MISSING', nodeIds: ['c'], pointer: '/nodes/0/on_true' },
      { code: 'FLOW_EDGE_MISSING', nodeIds: ['w'], pointer: '/nodes/1/next' },
    ]);
  });

  it('a cycle, naming the nodes on it and not those before or after', () => {
    expect(
      issuesOf({
        entry: 'start',
        nodes: [
          note('start', 'a'),
          note('a', 'b'),
          { id: 'b', kind: 'condition', condition: { type: 'alwaysValid' }, on_true: 'c', on_false: 'out' },
          { id: 'c', kind: 'delay', seconds: 3600, next: 'a' },
          stop('out'),
        ],
      }),
    ).toEqual([{ code: 'FLOW_CYCLE', nodeIds: ['a', 'b', 'c'], pointer: '/nodes/1' }]);
  });

  it('a self-loop and two separate cycles', () => {
    expect(
      issuesOf({
        entry: 'a',
        nodes: [
          { id: 'a', kind: 'condition', condition: { type: 'alwaysValid' }, on_true: 'a', on_false: 'b' },
          note('b', 'c'),
          note('c', 'b'),
        ],
      }),
    ).toEqual([
      { code: 'FLOW_CYCLE', nodeIds: ['a'], pointer: '/nodes/0' },
      { code: 'FLOW_CYCLE', nodeIds: ['b', 'c'], pointer: '/nodes/1' },
    ]);
  });

  it('unreachable nodes, all of them in one issue', () => {
    expect(issuesOf({ entry: 'a', nodes: [note('a', null), stop('lost'), note('island', 'lost')] })).toEqual([
      { code: 'FLOW_UNREACHABLE', nodeIds: ['lost', 'island'], pointer: '/nodes/1' },
    ]);
  });

  it('no nodes, and more than 100 reachable nodes', () => {
    expect(issuesOf({ entry: 'a', nodes: [] })).toEqual([
      { code: 'FLOW_EDGE_MISSING', nodeIds: [], pointer: '/entry' },
      { code: 'FLOW_SIZE', nodeIds: [], pointer: '/nodes' },
    ]);
    expect(issuesOf({ entry: 'n0', nodes: chain(101) })).toEqual([
      { code: 'FLOW_SIZE', nodeIds: [], pointer: '/nodes' },
    ]);
  });

  it('more than 1000 listed nodes at once, before any walk', () => {
    const nodes = Array.from({ length: 100_000 }, (_, index) => note(`n${index}`, `n${index + 1}`));
    expect(issuesOf({ entry: 'n0', nodes })).toEqual([{ code: 'FLOW_SIZE', nodeIds: [], pointer: '/nodes' }]);
  });

  it('long chains and long cycles without overflowing the stack', () => {
    expect(issuesOf({ entry: 'n0', nodes: chain(1000) })).toEqual([
      { code: 'FLOW_SIZE', nodeIds: [], pointer: '/nodes' },
    ]);
    const ring = Array.from({ length: 1000 }, (_, index) => note(`n${index}`, `n${(index + 1) % 1000}`));
    const issues = issuesOf({ entry: 'n0', nodes: ring });
    expect(issues.map((issue) => issue.code)).toEqual(['FLOW_CYCLE', 'FLOW_SIZE']);
    expect(issues[0]!.nodeIds).toHaveLength(1000);
  });

  it('a delay over 30 days', () => {
    expect(
      issuesOf({
        entry: 'w',
        nodes: [{ id: 'w', kind: 'delay', seconds: FLOW_LIMITS.delaySeconds + 1, next: null }],
      }),
    ).toEqual([{ code: 'FLOW_DELAY_TOO_LONG', nodeIds: ['w'], pointer: '/nodes/0/seconds' }]);
  });

  it('an unknown action', () => {
    expect(
      issuesOf({
        entry: 'x',
        nodes: [{ id: 'x', kind: 'action', action: 'extension.action', config: {}, next: null }],
      }),
    ).toEqual([{ code: 'FLOW_UNKNOWN_ACTION', nodeIds: ['x'], pointer: '/nodes/0/action' }]);
  });

  it('an invalid action config, pointing into the config as given', () => {
    expect(
      issuesOf({
        entry: 'x',
        nodes: [
          {
            id: 'x',
            kind: 'action',
            action: 'action.add.order.tag',
            config: { tagIds: ['a', ''] },
            next: 'y',
          },
          { id: 'y', kind: 'action', action: 'note', config: 'hello', next: null },
        ],
      }),
    ).toEqual([
      { code: 'FLOW_INVALID_ACTION_CONFIG', nodeIds: ['x'], pointer: '/nodes/0/config/tagIds/1' },
      { code: 'FLOW_INVALID_ACTION_CONFIG', nodeIds: ['y'], pointer: '/nodes/1/config' },
    ]);
  });

  it('unsupported options', () => {
    expect(
      issuesOf({
        entry: 's',
        nodes: [
          {
            id: 's',
            kind: 'action',
            action: 'action.set.order.state',
            config: { kind: 'order', state: ['done'], force_transition: true },
            next: 'g',
          },
          {
            id: 'g',
            kind: 'action',
            action: 'action.change.customer.group',
            config: { customerGroupId: '01900000-0000-7000-8000-000000000002' },
            next: 'd',
          },
          {
            id: 'd',
            kind: 'action',
            action: 'action.generate.document',
            config: { kind: 'invoice', renderer: 'custom' },
            next: null,
          },
        ],
      }),
    ).toEqual([
      { code: 'FLOW_UNSUPPORTED_OPTION', nodeIds: ['s'], pointer: '/nodes/0/config/force_transition' },
      { code: 'FLOW_UNSUPPORTED_OPTION', nodeIds: ['s'], pointer: '/nodes/0/config/state' },
      { code: 'FLOW_UNSUPPORTED_OPTION', nodeIds: ['g'], pointer: '/nodes/1/config/customerGroupId' },
      { code: 'FLOW_UNSUPPORTED_OPTION', nodeIds: ['d'], pointer: '/nodes/2/config/renderer' },
    ]);
  });

  it('condition trees with the rule engine’s own issues', () => {
    expect(
      issuesOf({
        entry: 'c',
        nodes: [
          {
            id: 'c',
            kind: 'condition',
            condition: { type: 'noSuchCondition' },
            on_true: 'r',
            on_false: null,
          },
          { id: 'r', kind: 'condition', condition: { type: 'ruleReference' }, on_true: null, on_false: null },
          {
            id: 'v',
            kind: 'condition',
            condition: {
              type: 'andContainer',
              children: [{ type: 'cartCartAmount', value: { amount: 'x' } }],
            },
            on_true: null,
            on_false: null,
          },
        ],
      }).filter((issue) => issue.code !== 'FLOW_UNREACHABLE'),
    ).toEqual([
      { code: 'RULE_UNKNOWN_CONDITION', nodeIds: ['c'], pointer: '/nodes/0/condition/type' },
      { code: 'RULE_INVALID_TREE', nodeIds: ['r'], pointer: '/nodes/1/condition/ruleId' },
      expect.objectContaining({
        code: 'RULE_INVALID_VALUE',
        nodeIds: ['v'],
        pointer: expect.stringMatching(/^\/nodes\/2\/condition\/children\/0\/value/),
      }),
      expect.objectContaining({ code: 'RULE_INVALID_VALUE', nodeIds: ['v'] }),
    ]);
  });

  it('everything at once: every issue is reported, not just the first', () => {
    const codes = issuesOf({
      entry: 'a',
      nodes: [
        note('a', 'b'),
        note('b', 'a'),
        stop('b'),
        stop('lost'),
        { id: 'w', kind: 'delay', seconds: 10 ** 9, next: 'gone' },
        { id: 'x', kind: 'action', action: 'nope', config: {}, next: null },
      ],
    }).map((issue) => issue.code);
    expect(new Set(codes)).toEqual(
      new Set([
        'FLOW_DUPLICATE_NODE',
        'FLOW_EDGE_MISSING',
        'FLOW_CYCLE',
        'FLOW_UNREACHABLE',
        'FLOW_DELAY_TOO_LONG',
        'FLOW_UNKNOWN_ACTION',
      ]),
    );
  });
});
