import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { successValue } from '../test-support/results.ts';
import { CONDITIONS } from './catalog/conditions/index.ts';
import { COMPOSITE_CONDITIONS, compileRule } from './engine/compile.ts';
import { importCondition } from './import.ts';
import type { ConditionTree } from './tree.ts';
import { TREE_LIMITS, validateCondition } from './validate.ts';

const UUID_A = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const UUID_B = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

const channel = (operator = '=', ids: unknown = [UUID_A]): ConditionTree => ({
  type: 'salesChannel',
  value: { operator, salesChannelIds: ids },
});

/** The issues as `[pointer, code]`, for compact assertions. */
const found = (tree: unknown) =>
  validateCondition(tree as ConditionTree).map((issue) => [issue.pointer, issue.code]);

describe('validateCondition', () => {
  it('accepts a valid tree', () => {
    const tree: ConditionTree = {
      type: 'orContainer',
      children: [
        {
          type: 'andContainer',
          children: [
            channel(),
            { type: 'notContainer', children: [channel('!=', [UUID_A, UUID_B])] },
            { type: 'cartCartAmount', value: { operator: '>=', amount: 10.5 } },
            { type: 'cartLineItemOfManufacturer', value: { operator: 'empty' } },
            { type: 'ruleReference', ruleId: 'rule-1' },
          ],
        },
        {
          type: 'cartGoodsCount',
          value: { operator: '>', count: 1 },
          children: [
            { type: 'cartLineItemOfManufacturer', value: { operator: '=', manufacturerIds: [UUID_B] } },
          ],
        },
        { type: 'xorContainer' },
        { type: 'alwaysValid' },
      ],
    };
    expect(validateCondition(tree)).toEqual([]);
  });

  it('flags unknown conditions at their type', () => {
    expect(found({ type: 'andContainer', children: [{ type: 'nope' }] })).toEqual([
      ['/children/0/type', 'RULE_UNKNOWN_CONDITION'],
    ]);
    expect(found({ type: 5 })).toEqual([['/type', 'RULE_INVALID_TREE']]);
  });

  it('flags disabled conditions, naming the reason', () => {
    const issues = validateCondition({
      type: 'notContainer',
      children: [{ type: 'scriptRule', value: { script: 'return true;', values: {} } }],
    });
    expect(issues).toEqual([
      {
        pointer: '/children/0/type',
        code: 'RULE_CONDITION_DISABLED',
        message: expect.stringContaining('no bounded compatible script runtime'),
      },
    ]);
    // Imported, but not savable.
    const imported = successValue(importCondition({ _name: 'unknown_condition' }));
    expect(found(imported)).toEqual([['/type', 'RULE_CONDITION_DISABLED']]);
  });

  it('flags values the parameter schema refuses, at /value/<key>', () => {
    expect(found(channel('=', [5]))).toEqual([['/value/salesChannelIds/0', 'RULE_INVALID_VALUE']]);
    expect(found(channel('>'))).toEqual([['/value/operator', 'RULE_INVALID_VALUE']]);
    expect(found({ type: 'salesChannel', value: { operator: '=' } })).toEqual([
      ['/value/salesChannelIds', 'RULE_INVALID_VALUE'],
    ]);
    expect(found({ type: 'salesChannel' })).toEqual([
      ['/value/salesChannelIds', 'RULE_INVALID_VALUE'],
      ['/value/operator', 'RULE_INVALID_VALUE'],
    ]);
    expect(found({ type: 'alwaysValid', value: { extra: 1 } })).toEqual([
      ['/value/extra', 'RULE_INVALID_VALUE'],
    ]);
    expect(found({ type: 'alwaysValid', value: [] })).toEqual([['/value', 'RULE_INVALID_VALUE']]);
    const parsed = JSON.parse('{"type":"alwaysValid","value":{"__proto__":{"x":1}}}');
    expect(found(parsed)).toEqual([['/value/__proto__', 'RULE_INVALID_VALUE']]);
    const [issue] = validateCondition({ type: 'alwaysValid', value: { 'a/b': 1 } });
    expect(issue).toEqual({
      pointer: '/value/a~1b',
      code: 'RULE_INVALID_VALUE',
      message: 'The property a/b is not allowed.',
    });
  });

  it('checks the branch of the given operator where `empty` relaxes the params', () => {
    const maker = (value: Record<string, unknown>) => ({ type: 'cartLineItemOfManufacturer', value });
    expect(found(maker({ operator: 'empty' }))).toEqual([]);
    expect(found(maker({ operator: '=', manufacturerIds: [UUID_A] }))).toEqual([]);
    expect(validateCondition(maker({ operator: '=' }))).toEqual([
      {
        pointer: '/value/manufacturerIds',
        code: 'RULE_INVALID_VALUE',
        message: 'The property manufacturerIds is required.',
      },
    ]);
    expect(found(maker({ operator: '=', manufacturerIds: [5] }))).toEqual([
      ['/value/manufacturerIds/0', 'RULE_INVALID_VALUE'],
    ]);
    const [operatorIssue] = validateCondition(maker({ operator: '>', manufacturerIds: [UUID_A] }));
    expect(operatorIssue).toEqual({
      pointer: '/value/operator',
      code: 'RULE_INVALID_VALUE',
      message: 'The operator is one of "=", "!=", "empty".',
    });
  });

  it('allows children only on containers and the filtering conditions', () => {
    expect([...COMPOSITE_CONDITIONS].sort()).toEqual(
      [
        'allLineItemsContainer',
        'andContainer',
        'cartGoodsCount',
        'cartGoodsPrice',
        'cartLineItemGoodsTotal',
        'cartLineItemWrapper',
        'notContainer',
        'orContainer',
        'promotionValue',
        'xorContainer',
      ].sort(),
    );
    const child = { type: 'alwaysValid' };
    for (const condition of CONDITIONS) {
      const issues = found({ type: condition.name, children: [child] }).filter(
        ([pointer]) => pointer === '/children',
      );
      expect(issues, condition.name).toEqual(
        COMPOSITE_CONDITIONS.includes(condition.name) ? [] : [['/children', 'RULE_INVALID_TREE']],
      );
    }
    expect(found({ type: 'andContainer', children: {} })).toEqual([['/children', 'RULE_INVALID_TREE']]);
    expect(found({ type: 'andContainer', children: [null] })).toEqual([['/children/0', 'RULE_INVALID_TREE']]);
  });

  it('requires exactly one child of notContainer', () => {
    const not = (count: number) => ({
      type: 'notContainer',
      children: Array.from({ length: count }, () => ({ type: 'alwaysValid' })),
    });
    expect(found(not(1))).toEqual([]);
    expect(found(not(0))).toEqual([['', 'RULE_INVALID_TREE']]);
    expect(found({ type: 'notContainer' })).toEqual([['', 'RULE_INVALID_TREE']]);
    expect(found(not(2))).toEqual([['/children', 'RULE_INVALID_TREE']]);
  });

  it('requires a reference to name a rule and carry nothing else', () => {
    expect(found({ type: 'ruleReference', ruleId: 'r' })).toEqual([]);
    expect(found({ type: 'ruleReference', ruleId: '' })).toEqual([['/ruleId', 'RULE_INVALID_TREE']]);
    expect(found({ type: 'ruleReference', ruleId: 3 })).toEqual([['/ruleId', 'RULE_INVALID_TREE']]);
    expect(found({ type: 'ruleReference', ruleId: 'r', value: {}, children: [] })).toEqual([
      ['/value', 'RULE_INVALID_TREE'],
      ['/children', 'RULE_INVALID_TREE'],
    ]);
  });

  it('flags foreign node keys and non-object nodes', () => {
    expect(found({ type: 'alwaysValid', id: 'x', position: 0 })).toEqual([
      ['/id', 'RULE_INVALID_TREE'],
      ['/position', 'RULE_INVALID_TREE'],
    ]);
    for (const bad of [null, 1, 'andContainer', []]) expect(found(bad)).toEqual([['', 'RULE_INVALID_TREE']]);
  });

  it('bounds the tree at 1000 nodes and 32 levels', () => {
    expect(TREE_LIMITS).toEqual({ nodes: 1000, depth: 32 });
    const wide = (count: number) => ({
      type: 'andContainer',
      children: Array.from({ length: count - 1 }, () => ({ type: 'alwaysValid' })),
    });
    expect(found(wide(1000))).toEqual([]);
    expect(found(wide(1001))).toEqual([['', 'RULE_INVALID_TREE']]);
    const chain = (depth: number) => {
      let node: ConditionTree = { type: 'alwaysValid' };
      for (let level = 1; level < depth; level += 1) node = { type: 'notContainer', children: [node] };
      return node;
    };
    expect(found(chain(32))).toEqual([]);
    expect(found(chain(33))).toEqual([['/children/0'.repeat(32), 'RULE_INVALID_TREE']]);
    // Far deeper than the stack would allow a naive walk.
    expect(found(chain(200_000))).toEqual([['/children/0'.repeat(32), 'RULE_INVALID_TREE']]);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (anything) => {
        expect(Array.isArray(validateCondition(anything as ConditionTree))).toBe(true);
      }),
    );
  });

  it('passes only trees the compiler accepts', () => {
    const valueArb = fc.oneof(
      fc.record({
        operator: fc.constantFrom('=', '!='),
        salesChannelIds: fc.array(fc.constantFrom(UUID_A, UUID_B)),
      }),
      fc.record({ operator: fc.constantFrom('=', '!=', '>'), salesChannelIds: fc.constant([UUID_A]) }),
      fc.record({ operator: fc.constant('=') }),
    );
    const { tree } = fc.letrec<{ tree: ConditionTree }>((tie) => ({
      tree: fc.oneof(
        { maxDepth: 4 },
        fc.constant<ConditionTree>({ type: 'alwaysValid' }),
        valueArb.map((value): ConditionTree => ({ type: 'salesChannel', value })),
        fc.record({
          type: fc.constantFrom('andContainer', 'orContainer', 'xorContainer', 'notContainer'),
          children: fc.array(tie('tree'), { maxLength: 3 }),
        }),
      ),
    }));
    fc.assert(
      fc.property(tree, (candidate) => {
        if (validateCondition(candidate).length === 0) expect(compileRule(candidate).ok).toBe(true);
      }),
    );
  });
});
