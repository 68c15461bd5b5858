import { operations } from '@cartwright/service';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  applyFields,
  type CatalogCondition,
  errorsByNode,
  nodeAt,
  parseNumber,
  parseTree,
  traceByPointer,
} from '../src/admin/rules/rule-form.ts';

// The rule editor's form state (admin/rules/rule-form.ts): the tree read from a form within
// bounds, fields written only into the node they were rendered for, add and remove by pointer,
// the API's error pointers pinned to nodes, a preview trace by pointer.

// The catalog as `automation.catalog` answers it (its handler reads nothing but its input).
const catalogOperation = operations.find((operation) => operation.name === 'automation.catalog')!;
const answered = (await catalogOperation.handler({} as never, { language: 'de' } as never)) as {
  ok: true;
  value: { conditions: CatalogCondition[] };
};
const catalog = new Map(answered.value.conditions.map((condition) => [condition.name, condition]));

describe('the rule form', () => {
  it('reads only bounded trees of node objects', () => {
    expect(parseTree('{"type":"andContainer","children":[]}')).toEqual({
      type: 'andContainer',
      children: [],
    });
    expect(parseTree('not json')).toBeNull();
    expect(parseTree('[]')).toBeNull();
    expect(parseTree('{"type":"x","children":{}}')).toBeNull();
    expect(parseTree('{"type":"x","value":[1]}')).toBeNull();
    let deep = '{"type":"alwaysValid"}';
    for (let level = 0; level < 40; level += 1) deep = `{"type":"notContainer","children":[${deep}]}`;
    expect(parseTree(deep)).toBeNull();
    const wide = JSON.stringify({
      type: 'orContainer',
      children: Array.from({ length: 1000 }, () => ({ type: 'alwaysValid' })),
    });
    expect(parseTree(wide)).toBeNull();
    // Far deeper than any stack: refused without recursion.
    expect(parseTree(`${'{"type":"n","children":['.repeat(5000)}${']}'.repeat(5000)}`)).toBeNull();
  });

  it('parses numbers as the UI language writes them', () => {
    expect(parseNumber('20,5', 'de')).toBe(20.5);
    expect(parseNumber('20.5', 'en')).toBe(20.5);
    expect(parseNumber('20.5', 'de')).toBeNull();
    expect(parseNumber('1,000', 'en')).toBeNull();
    expect(parseNumber('abc', 'en')).toBeNull();
  });

  it('adds and removes by pointer, writes typed fields only into the node they were rendered for', () => {
    const tree = parseTree('{"type":"andContainer","children":[]}')!;
    expect(applyAction(tree, 'add:', { 'new:': 'orContainer' }, catalog)).toBe(true);
    expect(applyAction(tree, 'add:/children/0', { 'new:/children/0': 'cartCartAmount' }, catalog)).toBe(true);
    // Disabled conditions and leaves that take no children are refused.
    expect(applyAction(tree, 'add:/children/0', { 'new:/children/0': 'scriptRule' }, catalog)).toBe(false);
    expect(
      applyAction(
        tree,
        'add:/children/0/children/0',
        { 'new:/children/0/children/0': 'alwaysValid' },
        catalog,
      ),
    ).toBe(false);
    const ref = '0190f0c8-0000-7000-8000-0000000000a6';
    expect(applyAction(tree, 'add:/children/0', { 'new:/children/0': `ruleReference:${ref}` }, catalog)).toBe(
      true,
    );
    applyFields(
      tree,
      {
        't:/children/0': 'orContainer',
        'k:/children/0': 'xorContainer',
        't:/children/0/children/0': 'cartCartAmount',
        'v:/children/0/children/0:amount': '12,5',
        'v:/children/0/children/0:operator': '>=',
        // Rendered for another type: ignored.
        't:/children/0/children/1': 'cartCartAmount',
        'v:/children/0/children/1:amount': '1',
      },
      catalog,
      'de',
    );
    expect(tree).toEqual({
      type: 'andContainer',
      children: [
        {
          type: 'xorContainer',
          children: [
            { type: 'cartCartAmount', value: { operator: '>=', amount: 12.5 } },
            { type: 'ruleReference', ruleId: ref },
          ],
        },
      ],
    });
    expect(applyAction(tree, 'remove:/children/0/children/0', {}, catalog)).toBe(true);
    expect(nodeAt(tree, '/children/0/children/0')).toEqual({ type: 'ruleReference', ruleId: ref });
    expect(applyAction(tree, 'remove:', {}, catalog)).toBe(false);
    expect(applyAction(tree, 'remove:/children/7', {}, catalog)).toBe(false);
  });

  it('pins error pointers to the deepest node and its parameter', () => {
    const tree = parseTree(
      '{"type":"andContainer","children":[{"type":"orContainer","children":[{"type":"cartCartAmount","value":{}}]}]}',
    )!;
    const pinned = errorsByNode(
      tree,
      [
        { pointer: '/data/condition/children/0/children/0/value/amount', message: 'expected a number' },
        { pointer: '/data/condition/children/0/children/5', message: 'no such node' },
        { pointer: '/data/name', message: 'give the rule a name' },
      ],
      '/data/condition',
    );
    expect(pinned.get('/children/0/children/0')).toEqual([{ param: 'amount', message: 'expected a number' }]);
    expect(pinned.get('/children/0')).toEqual([{ message: 'no such node' }]);
    expect(pinned.get(null)).toEqual([{ message: 'give the rule a name' }]);
  });

  it('reads a trace by pointer without descending into referenced rules', () => {
    const marks = traceByPointer({
      pointer: '',
      type: 'orContainer',
      result: true,
      children: [
        { pointer: '/children/0', type: 'cartCartAmount', result: true, actual: 30 },
        {
          pointer: '/children/1',
          type: 'ruleReference',
          result: false,
          children: [{ pointer: '', type: 'alwaysValid', result: true }],
        },
      ],
    });
    expect(marks.get('')).toEqual({ result: true });
    expect(marks.get('/children/0')).toEqual({ result: true });
    expect(marks.get('/children/1')).toEqual({ result: false });
  });
});
