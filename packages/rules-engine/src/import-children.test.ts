import { describe, expect, it } from 'vitest';
import { importCondition, normalizeCondition } from './import.ts';
import type { RuleFailure } from './result.ts';
import type { ConditionTree } from './tree.ts';
import { validateCondition } from './validate.ts';

// Children are never dropped on import: the catalog's name for a container's children (`rules`)
// reads as `children`; children where the native tree keeps none are refused. Messages quote at
// most 100 characters of what the caller sent.

const leaf = { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } };
const guest = { type: 'customerIsGuest', value: { isGuest: true } };

function imported(source: unknown): ConditionTree {
  const result = importCondition(source);
  if (!result.ok) throw new Error(`${result.code} at ${result.pointer}: ${result.detail}`);
  return result.value;
}
function refused(source: unknown): Pick<RuleFailure, 'code' | 'pointer'> & { detail: string } {
  const result = importCondition(source);
  if (result.ok) throw new Error(`imported: ${JSON.stringify(result.value)}`);
  return { code: result.code, pointer: result.pointer, detail: result.detail };
}

describe('a native node with its children under `rules`', () => {
  it.each([
    ['andContainer', [leaf, guest]],
    ['orContainer', [leaf, guest]],
    ['xorContainer', [leaf, guest]],
    ['notContainer', [leaf]],
    ['allLineItemsContainer', [{ type: 'cartLineItemStock', value: { operator: '>', stock: 1 } }]],
  ])('reads %s’s `rules` as its children', (type, children) => {
    const tree = imported({ type, rules: children });
    expect(tree).toEqual({ type, children });
    expect(validateCondition(tree)).toEqual([]);
  });

  it('reads `rules` at every depth, in rows, nested and in lists', () => {
    expect(
      imported({ type: 'orContainer', rules: [{ type: 'andContainer', rules: [leaf] }, guest] }),
    ).toEqual({
      type: 'orContainer',
      children: [{ type: 'andContainer', children: [leaf] }, guest],
    });
    expect(
      imported([
        { id: 'a', type: 'orContainer', rules: [{ type: 'andContainer', rules: [leaf], position: 1 }] },
        { id: 'b', parentId: 'a', type: 'customerIsGuest', value: { isGuest: true }, position: 0 },
      ]),
    ).toEqual({ type: 'orContainer', children: [guest, { type: 'andContainer', children: [leaf] }] });
  });

  it('takes an empty list under one key beside the children under the other', () => {
    expect(imported({ type: 'andContainer', children: [], rules: [leaf] })).toEqual({
      type: 'andContainer',
      children: [leaf],
    });
    expect(imported({ type: 'andContainer', children: [leaf], rules: null })).toEqual({
      type: 'andContainer',
      children: [leaf],
    });
  });

  it('refuses children under both keys, a `rules` that is no list, and a reference with rules', () => {
    expect(refused({ type: 'andContainer', children: [leaf], rules: [guest] })).toMatchObject({
      code: 'RULE_INVALID_TREE',
      pointer: '/rules',
    });
    expect(refused({ type: 'andContainer', rules: leaf })).toMatchObject({
      code: 'RULE_INVALID_TREE',
      pointer: '/rules',
    });
    expect(refused({ type: 'ruleReference', ruleId: 'r', rules: [leaf] })).toMatchObject({
      code: 'RULE_INVALID_TREE',
      pointer: '/rules',
    });
    expect(refused({ _name: 'ruleReference', ruleId: 'r', children: [leaf] })).toMatchObject({
      code: 'RULE_INVALID_TREE',
      pointer: '/children',
    });
  });

  it('refuses a filtering condition’s children under `filter` or `container` outside the serialized form', () => {
    expect(
      refused({ type: 'cartGoodsCount', value: { operator: '>=', count: 1 }, filter: [leaf] }),
    ).toMatchObject({ code: 'RULE_INVALID_TREE', pointer: '/filter' });
    expect(
      refused({ type: 'cartLineItemWrapper', container: { type: 'andContainer', children: [leaf] } }),
    ).toMatchObject({ code: 'RULE_INVALID_TREE', pointer: '/container' });
    // The serialized form keeps reading them.
    expect(
      imported({
        _name: 'cartGoodsCount',
        operator: '>=',
        count: 1,
        filter: { _name: 'andContainer', rules: [{ _name: 'customerIsGuest', isGuest: true }] },
      }),
    ).toEqual({ type: 'cartGoodsCount', value: { operator: '>=', count: 1 }, children: [guest] });
  });

  it('is refused by validation, which checks trees as they are saved, with a pointer to `rules`', () => {
    expect(validateCondition({ type: 'andContainer', rules: [leaf] } as unknown as ConditionTree)).toEqual([
      {
        pointer: '/rules',
        code: 'RULE_INVALID_TREE',
        message: 'A condition node holds its children under `children`, not `rules`.',
      },
    ]);
  });

  it('normalizes `rules` as children too', () => {
    const normalized = normalizeCondition({
      type: 'andContainer',
      rules: [leaf],
    } as unknown as ConditionTree);
    expect(normalized).toEqual({ ok: true, value: { type: 'andContainer', children: [leaf] } });
  });
});

describe('input quoted in messages', () => {
  const huge = `custom${'x'.repeat(100_000)}`;
  const quoted = `"${huge.slice(0, 100)}…"`;

  it('quotes an unknown type’s first 100 characters, on import and in validation', () => {
    const failure = importCondition({ type: 'orContainer', children: [{ type: huge }] });
    expect(failure).toEqual({
      ok: false,
      code: 'RULE_UNKNOWN_CONDITION',
      detail: `Unknown condition type ${quoted}.`,
      pointer: '/children/0/type',
      details: { type: `${huge.slice(0, 100)}…` },
    });
    expect(validateCondition({ type: huge })).toEqual([
      { pointer: '/type', code: 'RULE_UNKNOWN_CONDITION', message: `Unknown condition type ${quoted}.` },
    ]);
  });

  it('quotes short input whole', () => {
    expect(refused({ type: 'swagCustomRule' }).detail).toBe('Unknown condition type "swagCustomRule".');
    expect(refused({ type: 'x'.repeat(100) }).detail).toBe(`Unknown condition type "${'x'.repeat(100)}".`);
  });

  it('never cuts inside a surrogate pair', () => {
    const detail = refused({ type: `${'x'.repeat(99)}😀${'x'.repeat(10)}` }).detail;
    expect(detail).toBe(`Unknown condition type "${'x'.repeat(99)}…".`);
  });

  it('cuts ids and parent ids of rows', () => {
    const id = 'i'.repeat(10_000);
    expect(refused([{ id: 'a', type: 'andContainer', parentId: id }]).detail.length).toBeLessThan(200);
    expect(
      refused([
        { id, type: 'andContainer' },
        { id, type: 'andContainer' },
      ]).detail.length,
    ).toBeLessThan(200);
    const cycle = refused([
      { id, type: 'andContainer', parentId: `${id}2` },
      { id: `${id}2`, type: 'andContainer', parentId: id },
    ]);
    expect(cycle.code).toBe('RULE_INVALID_TREE');
    expect(cycle.detail.length).toBeLessThan(400);
  });

  it('cuts unknown node keys, value keys and received values in validation messages', () => {
    const key = 'k'.repeat(10_000);
    const issues = validateCondition({
      type: 'cartCartAmount',
      value: { operator: 'o'.repeat(10_000), amount: 1, [key]: 1 },
      [key]: 1,
    } as unknown as ConditionTree);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(issue.message.length).toBeLessThan(400);
    // The pointer still names the key exactly.
    expect(issues.map((issue) => issue.pointer)).toContain(`/${key}`);
  });
});
