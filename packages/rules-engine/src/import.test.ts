import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureOf, successValue } from '../test-support/results.ts';
import { importCondition, normalizeCondition } from './import.ts';
import type { RuleFailure } from './result.ts';
import { type ConditionTree, isReference } from './tree.ts';

/** The tree imported; a refusal fails the test. */
const imported = (source: unknown): ConditionTree => successValue(importCondition(source));
/** The tree normalized; a refusal fails the test. */
const normalized = (tree: ConditionTree): ConditionTree => successValue(normalizeCondition(tree));

function rejects(source: unknown, code: string, pointer: string): RuleFailure {
  const error = failureOf(importCondition(source));
  expect({ code: error.code, pointer: error.pointer }).toEqual({ code, pointer });
  return error;
}

// rule-payload-format.md §2a: tests/e2e/cypress/fixtures/rule-simple-condition.json, verbatim.
const FLAT_FIXTURE = {
  name: 'Ruler with simple condition',
  priority: 0,
  description: 'This rule as a valid condition',
  conditions: [
    { type: 'orContainer', parentId: null, id: 'aa63eedc25144ae095252ceb824a17ca' },
    {
      type: 'andContainer',
      parentId: 'aa63eedc25144ae095252ceb824a17ca',
      id: '4182ff99234e4b238033a3d16ade88eb',
    },
    {
      type: 'customerIsGuest',
      parentId: '4182ff99234e4b238033a3d16ade88eb',
      value: { isGuest: true },
      id: 'acf32b2197fe40819b2e635193b81c61',
    },
  ],
};

// rule-payload-format.md §2b: tests/e2e/cypress/fixtures/rule-builder-shipping-payment.json, verbatim.
const NESTED_FIXTURE = {
  name: 'Foobar',
  priority: 0,
  description: 'asdasdsadas',
  moduleTypes: { types: ['shipping'] },
  conditions: [
    {
      type: 'orContainer',
      position: 0,
      children: [
        {
          type: 'andContainer',
          position: 0,
          children: [{ type: 'paymentMethod', position: 0, value: { operator: '=', paymentMethodIds: [] } }],
        },
      ],
    },
  ],
};

/** The admin's usual shape: an or-container of and-containers holding `leaf`. */
const orAnd = (leaf: ConditionTree): ConditionTree => ({
  type: 'orContainer',
  children: [{ type: 'andContainer', children: [leaf] }],
});

describe('importCondition: the reference fixtures', () => {
  it('reads the flat fixture (§2a)', () => {
    expect(imported(FLAT_FIXTURE)).toEqual(orAnd({ type: 'customerIsGuest', value: { isGuest: true } }));
  });

  it('reads the nested fixture (§2b)', () => {
    expect(imported(NESTED_FIXTURE)).toEqual(
      orAnd({ type: 'paymentMethod', value: { operator: '=', paymentMethodIds: [] } }),
    );
  });

  it('reads each fixture the same in the other form', () => {
    // The two fixtures hold different leaves; each one rewritten in the other form reads the same.
    const flatAsNested = {
      conditions: [
        {
          type: 'orContainer',
          children: [
            { type: 'andContainer', children: [{ type: 'customerIsGuest', value: { isGuest: true } }] },
          ],
        },
      ],
    };
    const nestedAsFlat = {
      conditions: [
        {
          type: 'paymentMethod',
          parentId: 'and',
          id: 'leaf',
          position: 0,
          value: { operator: '=', paymentMethodIds: [] },
        },
        { type: 'andContainer', parentId: 'or', id: 'and', position: 0 },
        { type: 'orContainer', parentId: null, id: 'or', position: 0 },
      ],
    };
    expect(imported(flatAsNested)).toEqual(imported(FLAT_FIXTURE));
    expect(imported(nestedAsFlat)).toEqual(imported(NESTED_FIXTURE));
    // The bare list and the single node read as the rule object does.
    expect(imported(FLAT_FIXTURE.conditions)).toEqual(imported(FLAT_FIXTURE));
    expect(imported(NESTED_FIXTURE.conditions[0])).toEqual(imported(NESTED_FIXTURE));
    expect(imported(NESTED_FIXTURE.conditions)).toEqual(imported(NESTED_FIXTURE));
  });

  it('reads the CheckoutControllerTest shape (flat, the salesChannel leaf)', () => {
    const conditions = [
      {
        id: 'leaf',
        type: 'salesChannel',
        parentId: 'and',
        value: { operator: '!=', salesChannelIds: ['sc'] },
      },
      { id: 'or', type: 'orContainer', ruleId: 'rule-1' },
      { id: 'and', type: 'andContainer', parentId: 'or', ruleId: 'rule-1' },
    ];
    expect(imported({ conditions })).toEqual(
      orAnd({ type: 'salesChannel', value: { operator: '!=', salesChannelIds: ['sc'] } }),
    );
  });
});

describe('importCondition: rows and nesting', () => {
  it('orders siblings by position, stably, a missing position first', () => {
    const rows = [
      { id: 'root', type: 'orContainer' },
      { id: 'c', type: 'salesChannel', parentId: 'root', position: 2, value: { operator: '=', n: 'c' } },
      { id: 'a', type: 'salesChannel', parentId: 'root', position: 1, value: { operator: '=', n: 'a' } },
      { id: 'b', type: 'salesChannel', parentId: 'root', position: 1, value: { operator: '=', n: 'b' } },
      { id: 'z', type: 'salesChannel', parentId: 'root', value: { operator: '=', n: 'z' } },
    ];
    const tree = imported(rows) as unknown as { children: { value: { n: string } }[] };
    expect(tree.children.map((child) => child.value.n)).toEqual(['z', 'a', 'b', 'c']);
    const nested = imported({
      type: 'andContainer',
      children: [
        { type: 'alwaysValid', position: 5 },
        { type: 'salesChannel', position: -1, value: { operator: '=' } },
        { type: 'currency', position: 5 },
      ],
    });
    expect(nested).toEqual({
      type: 'andContainer',
      children: [
        { type: 'salesChannel', value: { operator: '=' } },
        { type: 'alwaysValid' },
        { type: 'currency' },
      ],
    });
  });

  it('wraps several top-level nodes in an andContainer, and none in an empty one', () => {
    const rows = [
      { id: 'b', type: 'currency', position: 1, value: { operator: '=' } },
      { id: 'a', type: 'alwaysValid', position: 0 },
    ];
    expect(imported({ conditions: rows })).toEqual({
      type: 'andContainer',
      children: [{ type: 'alwaysValid' }, { type: 'currency', value: { operator: '=' } }],
    });
    expect(imported({ conditions: [] })).toEqual({ type: 'andContainer' });
    expect(imported([])).toEqual({ type: 'andContainer' });
    // A single top-level node is the tree itself.
    expect(imported([{ type: 'alwaysValid' }])).toEqual({ type: 'alwaysValid' });
  });

  it('drops ids, positions and null-valued keys; omits an empty value and empty children', () => {
    expect(
      imported({
        id: 'x',
        parentId: null,
        position: 3,
        ruleId: 'owning-rule',
        createdAt: '2024-01-01',
        type: 'andContainer',
        value: {},
        children: [
          {
            type: 'cartCartAmount',
            value: { operator: 'empty', amount: null, _name: 'cartCartAmount', nested: [null] },
            children: [],
          },
          { type: 'alwaysValid', value: null, children: null },
        ],
      }),
    ).toEqual({
      type: 'andContainer',
      children: [
        { type: 'cartCartAmount', value: { operator: 'empty', nested: [null] } },
        { type: 'alwaysValid' },
      ],
    });
  });

  it('keeps a `__proto__` key of a parsed value as a key', () => {
    const source = JSON.parse('{"type":"alwaysValid","value":{"__proto__":{"polluted":true}}}');
    const tree = imported(source) as { value: Record<string, unknown> };
    expect(Object.keys(tree.value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(tree.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('lets rows name nested nodes as parents, and nested children repeat their parent id', () => {
    const source = [
      { id: 'or', type: 'orContainer', children: [{ id: 'and', type: 'andContainer', parentId: 'or' }] },
      { id: 'leaf', type: 'alwaysValid', parentId: 'and' },
    ];
    expect(imported(source)).toEqual(orAnd({ type: 'alwaysValid' }));
  });

  it('reads rule references in every form', () => {
    const reference = { type: 'ruleReference', ruleId: 'r-1' };
    expect(imported(reference)).toEqual(reference);
    expect(imported([{ id: 'a', type: 'ruleReference', ruleId: 'r-1', value: {} }])).toEqual(reference);
    expect(imported({ _name: 'ruleReference', ruleId: 'r-1' })).toEqual(reference);
    expect(imported({ type: 'notContainer', children: [reference] })).toEqual({
      type: 'notContainer',
      children: [reference],
    });
  });

  it('imports disabled conditions (validation flags them)', () => {
    expect(imported({ type: 'scriptRule', value: { script: 'x' } })).toEqual({
      type: 'scriptRule',
      value: { script: 'x' },
    });
    expect(imported({ _name: 'unknown_condition' })).toEqual({ type: 'unknown_condition' });
  });
});

describe('importCondition: the serialized form', () => {
  it('reads the FieldSerializerTest example', () => {
    expect(imported({ _name: 'andContainer', rules: [] })).toEqual({ type: 'andContainer' });
  });

  it('reads children under rules, drops _name, _class, extensions and nulls', () => {
    const source = {
      _name: 'orContainer',
      extensions: [],
      rules: [
        {
          _name: 'cartLineItemOfType',
          _class: 'Shopware\\Core\\Checkout\\Cart\\Rule\\LineItemOfTypeRule',
          extensions: [],
          lineItemType: 'product',
          operator: '=',
        },
        { _name: 'notContainer', rules: [{ _name: 'customerIsGuest', isGuest: true, unused: null }] },
      ],
    };
    expect(imported(source)).toEqual({
      type: 'orContainer',
      children: [
        { type: 'cartLineItemOfType', value: { lineItemType: 'product', operator: '=' } },
        { type: 'notContainer', children: [{ type: 'customerIsGuest', value: { isGuest: true } }] },
      ],
    });
  });

  it('keeps properties named like node keys (`type`, `id`) as values', () => {
    expect(imported({ _name: 'cartLineItemPurchasePrice', operator: '>', type: 'gross', amount: 5 })).toEqual(
      { type: 'cartLineItemPurchasePrice', value: { operator: '>', type: 'gross', amount: 5 } },
    );
    expect(imported({ _name: 'cartLineItemWithQuantity', id: 'p', operator: '=', quantity: 2 })).toEqual({
      type: 'cartLineItemWithQuantity',
      value: { id: 'p', operator: '=', quantity: 2 },
    });
  });

  it('reads a filtering condition’s `filter` and the wrapper’s `container` as children', () => {
    const leaf = { _name: 'cartLineItemOfType', lineItemType: 'product', operator: '=' };
    const native = { type: 'cartLineItemOfType', value: { lineItemType: 'product', operator: '=' } };
    expect(
      imported({
        _name: 'cartGoodsCount',
        operator: '>=',
        count: 2,
        filter: { _name: 'andContainer', rules: [leaf, leaf] },
      }),
    ).toEqual({ type: 'cartGoodsCount', value: { operator: '>=', count: 2 }, children: [native, native] });
    expect(
      imported({ _name: 'cartLineItemWrapper', container: { _name: 'orContainer', rules: [leaf] } }),
    ).toEqual({ type: 'cartLineItemWrapper', children: [{ type: 'orContainer', children: [native] }] });
    expect(imported({ _name: 'cartGoodsPrice', operator: '<', amount: 3, filter: null })).toEqual({
      type: 'cartGoodsPrice',
      value: { operator: '<', amount: 3 },
    });
  });
});

describe('importCondition: rejections', () => {
  it('rejects unknown condition types with the pointer of the type', () => {
    rejects({ type: 'nope' }, 'RULE_UNKNOWN_CONDITION', '/type');
    rejects([{ type: 'alwaysValid' }, { type: 'nope' }], 'RULE_UNKNOWN_CONDITION', '/1/type');
    rejects(
      { conditions: [{ type: 'orContainer', children: [{ type: 'alwaysValid' }, { type: 'nope' }] }] },
      'RULE_UNKNOWN_CONDITION',
      '/conditions/0/children/1/type',
    );
    rejects(
      { _name: 'andContainer', rules: [{ _name: 'unknownThing' }] },
      'RULE_UNKNOWN_CONDITION',
      '/rules/0/_name',
    );
    const error = rejects(
      { _name: 'cartGoodsCount', filter: { _name: 'andContainer', rules: [{ _name: 'x' }] } },
      'RULE_UNKNOWN_CONDITION',
      '/filter/rules/0/_name',
    );
    expect(error.details).toEqual({ type: 'x' });
    // Type names are case-sensitive, as the reference's registry is.
    rejects({ type: 'AndContainer' }, 'RULE_UNKNOWN_CONDITION', '/type');
  });

  it('rejects a parentId naming no row', () => {
    rejects(
      {
        conditions: [
          { id: 'a', type: 'orContainer' },
          { id: 'b', type: 'alwaysValid', parentId: 'zz' },
        ],
      },
      'RULE_INVALID_TREE',
      '/conditions/1/parentId',
    );
    rejects({ type: 'alwaysValid', parentId: 'elsewhere' }, 'RULE_INVALID_TREE', '/parentId');
  });

  it('rejects a nested node whose parentId contradicts its nesting', () => {
    rejects(
      [
        { id: 'a', type: 'andContainer', children: [{ type: 'alwaysValid', parentId: 'b' }] },
        { id: 'b', type: 'orContainer' },
      ],
      'RULE_INVALID_TREE',
      '/0/children/0/parentId',
    );
  });

  it('rejects parent cycles of rows, without looping', () => {
    rejects([{ id: 'a', type: 'andContainer', parentId: 'a' }], 'RULE_INVALID_TREE', '/0/parentId');
    const error = rejects(
      [
        { id: 'root', type: 'orContainer' },
        { id: 'a', type: 'andContainer', parentId: 'c' },
        { id: 'b', type: 'andContainer', parentId: 'a' },
        { id: 'c', type: 'andContainer', parentId: 'b' },
        { id: 'd', type: 'alwaysValid', parentId: 'c' },
      ],
      'RULE_INVALID_TREE',
      '/1/parentId',
    );
    expect(error.detail).toContain('cycle');
    expect([...(error.details.ids as string[])].sort()).toEqual(['a', 'b', 'c']);
    // Through a nested node: row b hangs below a's nested child n, and a below b.
    rejects(
      [
        { id: 'a', type: 'andContainer', parentId: 'b', children: [{ id: 'n', type: 'orContainer' }] },
        { id: 'b', type: 'andContainer', parentId: 'n' },
      ],
      'RULE_INVALID_TREE',
      '/0/parentId',
    );
  });

  it('rejects cycles of any length among rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 59 }), (length, turn) => {
        const rows = Array.from({ length }, (_, index) => ({
          id: `r${index}`,
          type: 'andContainer',
          parentId: `r${(index + 1) % length}`,
        }));
        const rotated = [...rows.slice(turn % length), ...rows.slice(0, turn % length)];
        const error = failureOf(importCondition([{ type: 'alwaysValid' }, ...rotated]));
        expect(error.code).toBe('RULE_INVALID_TREE');
        expect(error.pointer).toBe('/1/parentId');
        expect(error.details.ids as string[]).toHaveLength(length);
      }),
    );
  });

  it('rejects duplicate ids at the second use', () => {
    rejects(
      [
        { id: 'a', type: 'orContainer' },
        { id: 'a', type: 'alwaysValid', parentId: 'a' },
      ],
      'RULE_INVALID_TREE',
      '/1/id',
    );
    rejects(
      { id: 'a', type: 'orContainer', children: [{ id: 'a', type: 'alwaysValid' }] },
      'RULE_INVALID_TREE',
      '/children/0/id',
    );
  });

  it('rejects non-object nodes wherever they sit', () => {
    for (const bad of [null, 7, 'andContainer', true, [{ type: 'alwaysValid' }]]) {
      rejects([{ type: 'alwaysValid' }, bad], 'RULE_INVALID_TREE', '/1');
      rejects({ type: 'andContainer', children: [bad] }, 'RULE_INVALID_TREE', '/children/0');
      rejects({ conditions: [bad] }, 'RULE_INVALID_TREE', '/conditions/0');
      rejects({ _name: 'orContainer', rules: [bad] }, 'RULE_INVALID_TREE', '/rules/0');
    }
    for (const bad of [null, undefined, 7, 'x', {}, { name: 'rule without conditions' }]) {
      rejects(bad, 'RULE_INVALID_TREE', '');
    }
  });

  it('rejects malformed node members', () => {
    rejects({ conditions: {} }, 'RULE_INVALID_TREE', '/conditions');
    rejects({ type: 5 }, 'RULE_INVALID_TREE', '/type');
    rejects([{ value: { operator: '=' } }], 'RULE_INVALID_TREE', '/0/type');
    rejects({ _name: 5 }, 'RULE_INVALID_TREE', '/_name');
    rejects({ type: 'andContainer', children: {} }, 'RULE_INVALID_TREE', '/children');
    rejects({ _name: 'andContainer', rules: 'x' }, 'RULE_INVALID_TREE', '/rules');
    rejects({ type: 'salesChannel', value: ['='] }, 'RULE_INVALID_TREE', '/value');
    rejects({ type: 'salesChannel', value: 'x' }, 'RULE_INVALID_TREE', '/value');
    rejects({ type: 'alwaysValid', position: '1' }, 'RULE_INVALID_TREE', '/position');
    rejects({ type: 'alwaysValid', id: 3 }, 'RULE_INVALID_TREE', '/id');
    rejects({ type: 'alwaysValid', parentId: 3 }, 'RULE_INVALID_TREE', '/parentId');
    rejects({ type: 'ruleReference' }, 'RULE_INVALID_TREE', '/ruleId');
    rejects({ type: 'ruleReference', ruleId: '' }, 'RULE_INVALID_TREE', '/ruleId');
    rejects({ type: 'ruleReference', ruleId: 'r', value: { a: 1 } }, 'RULE_INVALID_TREE', '/value');
    rejects(
      { type: 'ruleReference', ruleId: 'r', children: [{ type: 'alwaysValid' }] },
      'RULE_INVALID_TREE',
      '/children',
    );
    rejects(
      { _name: 'ruleReference', ruleId: 'r', rules: [{ _name: 'alwaysValid' }] },
      'RULE_INVALID_TREE',
      '/rules',
    );
  });

  it('rejects trees beyond the size bounds, without overflowing the stack', () => {
    const chain = (depth: number): unknown => {
      let node: unknown = { type: 'alwaysValid' };
      for (let level = 1; level < depth; level += 1) node = { type: 'notContainer', children: [node] };
      return node;
    };
    expect(importCondition(chain(32)).ok).toBe(true);
    rejects(chain(33), 'RULE_INVALID_TREE', `${'/children/0'.repeat(32)}`);
    expect(failureOf(importCondition(chain(100_000))).code).toBe('RULE_INVALID_TREE');
    // Rows: a chain of parentIds as deep, and two roots of depth 32 (wrapped: 33).
    const rows = (depth: number, prefix: string) =>
      Array.from({ length: depth }, (_, index) => ({
        id: `${prefix}${index}`,
        type: index === depth - 1 ? 'alwaysValid' : 'andContainer',
        parentId: index === 0 ? null : `${prefix}${index - 1}`,
      }));
    expect(importCondition(rows(32, 'a')).ok).toBe(true);
    rejects(rows(33, 'a'), 'RULE_INVALID_TREE', '/32');
    expect(failureOf(importCondition([...rows(32, 'a'), ...rows(32, 'b')])).pointer).toBe('/31');
    const wide = (count: number) => ({
      type: 'andContainer',
      children: Array.from({ length: count - 1 }, () => ({ type: 'alwaysValid' })),
    });
    expect(importCondition(wide(1000)).ok).toBe(true);
    rejects(wide(1001), 'RULE_INVALID_TREE', '/children/999');
  });
});

// Generated trees: a few leaves and composites, values with nulls, references.

const VALUE_KEYS = ['operator', 'amount', 'salesChannelIds', 'isGuest', 'count', 'x y', 'a/b', 'id', 'type'];
const valueArb = fc.option(
  fc.dictionary(fc.constantFrom(...VALUE_KEYS), fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })), {
    maxKeys: 4,
  }),
  { nil: undefined },
);
const LEAVES = ['alwaysValid', 'salesChannel', 'customerIsGuest', 'cartCartAmount', 'scriptRule'];
const CONTAINERS = ['andContainer', 'orContainer', 'xorContainer', 'notContainer', 'allLineItemsContainer'];
const FILTERS = ['cartGoodsCount', 'cartGoodsPrice', 'cartLineItemGoodsTotal', 'promotionValue'];

type RawNode = {
  type: string;
  value?: Record<string, unknown> | null;
  children?: RawNode[];
  ruleId?: string;
};

const { tree: treeArb } = fc.letrec<{ tree: RawNode; leaf: RawNode; branch: RawNode }>((tie) => ({
  tree: fc.oneof({ maxDepth: 5, depthSize: 'medium', depthIdentifier: 'tree' }, tie('leaf'), tie('branch')),
  leaf: fc.oneof(
    fc.record(
      { type: fc.constantFrom(...LEAVES), value: fc.oneof(valueArb, fc.constant(null)) },
      {
        requiredKeys: ['type'],
      },
    ),
    fc.record({ type: fc.constant('ruleReference'), ruleId: fc.string({ minLength: 1, maxLength: 4 }) }),
  ),
  branch: fc.record(
    {
      type: fc.constantFrom(...CONTAINERS, ...FILTERS, 'cartLineItemWrapper'),
      value: valueArb,
      children: fc.array(tie('tree'), { maxLength: 4, depthIdentifier: 'tree' }),
    },
    { requiredKeys: ['type'] },
  ),
}));

/** A deterministic permutation from a seed (a small LCG). */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  let state = seed >>> 0;
  for (let index = result.length - 1; index > 0; index -= 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const other = state % (index + 1);
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

/** The tree as DAL rows: ids, parentIds, positions (with gaps), in a shuffled order. */
function toRows(tree: RawNode, seed: number): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const visit = (node: RawNode, parentId: string | null, position: number): void => {
    const id = `n${rows.length}`;
    const { children, ...rest } = node;
    rows.push({ ...rest, id, parentId, position });
    (children ?? []).forEach((child, index) => {
      visit(child, id, index * 10 + (seed % 7));
    });
  };
  visit(tree, null, 0);
  return shuffle(rows, seed);
}

/** The tree as nested nodes listing children in reverse, their positions giving the order. */
function toNested(tree: RawNode): unknown {
  const { children, ...rest } = tree;
  if (children === undefined) return rest;
  return {
    ...rest,
    children: children.map((child, index) => ({ ...(toNested(child) as object), position: index })).reverse(),
  };
}

/** The tree as `Rule::jsonSerialize` would write it. */
function toSerialized(tree: RawNode): unknown {
  if (tree.type === 'ruleReference') return { _name: 'ruleReference', ruleId: tree.ruleId };
  const rules = (tree.children ?? []).map(toSerialized);
  const properties = { _name: tree.type, ...(tree.value ?? {}) };
  if (FILTERS.includes(tree.type)) return { ...properties, filter: { _name: 'andContainer', rules } };
  if (tree.type === 'cartLineItemWrapper')
    return { ...properties, container: { _name: 'andContainer', rules } };
  return { ...properties, rules };
}

describe('importCondition: generated trees', () => {
  it('reads the rows, nested and serialized forms of a tree as its normal form', () => {
    fc.assert(
      fc.property(treeArb, fc.nat(), (tree, seed) => {
        const normal = normalized(tree as ConditionTree);
        expect(imported(tree)).toEqual(normal);
        expect(imported(toRows(tree, seed))).toEqual(normal);
        expect(imported({ conditions: toRows(tree, seed) })).toEqual(normal);
        expect(imported(toNested(tree))).toEqual(normal);
        expect(imported(toSerialized(tree))).toEqual(normal);
      }),
    );
  });

  it('normalize(import(x)) is import(x), and normalize is idempotent', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const once = imported(tree);
        expect(normalized(once)).toEqual(once);
        const normal = normalized(tree as ConditionTree);
        expect(normalized(normal)).toEqual(normal);
      }),
    );
  });

  it('normalizes to no null values, no empty value or children, no foreign keys', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const visit = (node: ConditionTree): void => {
          const keys = Object.keys(node);
          if (isReference(node)) {
            expect(keys.sort()).toEqual(['ruleId', 'type']);
            return;
          }
          expect(keys.every((key) => ['type', 'value', 'children'].includes(key))).toBe(true);
          if ('value' in node) {
            expect(Object.keys(node.value!).length).toBeGreaterThan(0);
            expect(Object.values(node.value!).includes(null)).toBe(false);
          }
          if ('children' in node) expect(node.children!.length).toBeGreaterThan(0);
          for (const child of node.children ?? []) visit(child);
        };
        visit(imported(tree));
      }),
    );
  });

  it('reads several generated top-level trees as their andContainer', () => {
    fc.assert(
      fc.property(fc.array(treeArb, { minLength: 2, maxLength: 4 }), fc.nat(), (trees, seed) => {
        const rows = trees.flatMap((tree, index) =>
          toRows(tree, seed).map((row) => ({
            ...row,
            id: `t${index}-${row.id as string}`,
            parentId: row.parentId === null ? null : `t${index}-${row.parentId as string}`,
            ...(row.parentId === null ? { position: index } : {}),
          })),
        );
        const expected = {
          type: 'andContainer',
          children: trees.map((tree) => normalized(tree as ConditionTree)),
        };
        expect(imported(shuffle(rows, seed + 1))).toEqual(expected);
        expect(imported(trees)).toEqual(expected);
      }),
    );
  });
});

describe('normalizeCondition', () => {
  it('leaves the catalog to validation but rejects what is no tree', () => {
    expect(normalized({ type: 'notInTheCatalog', value: { a: null } })).toEqual({
      type: 'notInTheCatalog',
    });
    expect(failureOf(normalizeCondition(null as unknown as ConditionTree)).code).toBe('RULE_INVALID_TREE');
    expect(
      failureOf(normalizeCondition({ type: 'andContainer', children: [5 as unknown as ConditionTree] }))
        .pointer,
    ).toBe('/children/0');
    expect(failureOf(normalizeCondition({ type: 'ruleReference', ruleId: '' })).pointer).toBe('/ruleId');
  });
});
