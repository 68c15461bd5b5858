import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FactsInput } from '../../test-support/facts.ts';
import { failureOf, successValue } from '../../test-support/results.ts';
import type { Facts } from '../facts.ts';
import { buildFacts } from '../facts-schema.ts';
import type { ConditionTree, SavedRule } from '../tree.ts';
import { compileRule, RULE_LIMITS, type TraceNode } from './compile.ts';

// The engine's algebra over random trees. The leaves are conditions whose evaluators existed when
// this was written (alwaysValid, salesChannel, currency); the laws hold whatever a leaf decides.

const CHANNELS = ['channel-a', 'channel-b', 'channel-c'];
const CURRENCIES = ['EUR', 'USD'];

/** Facts in channel-a with EUR, unless `more` says otherwise. */
function baseFacts(more: Partial<FactsInput> = {}): Facts {
  return buildFacts({
    now: '2024-06-01T12:00:00+00:00',
    context: { channelId: 'channel-a', currencyId: 'EUR' },
    ...more,
  });
}

const factsArb: fc.Arbitrary<Facts> = fc
  .record({
    channelId: fc.option(fc.constantFrom(...CHANNELS), { nil: null }),
    currencyId: fc.option(fc.constantFrom(...CURRENCIES), { nil: null }),
  })
  .map((context) => baseFacts({ context }));

const leafArb: fc.Arbitrary<ConditionTree> = fc.oneof(
  fc.constant<ConditionTree>({ type: 'alwaysValid' }),
  fc
    .record({
      operator: fc.constantFrom('=', '!='),
      salesChannelIds: fc.subarray(CHANNELS),
    })
    .map((value): ConditionTree => ({ type: 'salesChannel', value })),
  fc
    .record({ operator: fc.constantFrom('=', '!='), currencyIds: fc.subarray(CURRENCIES, { minLength: 1 }) })
    .map((value): ConditionTree => ({ type: 'currency', value })),
);

const { tree: treeArb } = fc.letrec<{ tree: ConditionTree }>((tie) => ({
  tree: fc.oneof(
    { maxDepth: 4, depthSize: 'medium', depthIdentifier: 'tree' },
    leafArb,
    fc.record({
      type: fc.constantFrom('andContainer', 'orContainer', 'xorContainer'),
      children: fc.array(tie('tree'), { maxLength: 3, depthIdentifier: 'tree' }),
    }),
    tie('tree').map((child): ConditionTree => ({ type: 'notContainer', children: [child] })),
  ),
}));

const not = (child: ConditionTree): ConditionTree => ({ type: 'notContainer', children: [child] });
const and = (...children: ConditionTree[]): ConditionTree => ({ type: 'andContainer', children });
const or = (...children: ConditionTree[]): ConditionTree => ({ type: 'orContainer', children });
const xor = (...children: ConditionTree[]): ConditionTree => ({ type: 'xorContainer', children });
const compiled = (tree: ConditionTree, rules?: ReadonlyMap<string, SavedRule>) =>
  successValue(compileRule(tree, rules === undefined ? {} : { rules }));
const evaluate = (tree: ConditionTree, facts: Facts, rules?: ReadonlyMap<string, SavedRule>): boolean =>
  successValue(compiled(tree, rules).evaluate(facts));

const saved = (id: string, condition: ConditionTree, active = true): [string, SavedRule] => [
  id,
  { id, condition, active },
];
const reference = (ruleId: string): ConditionTree => ({ type: 'ruleReference', ruleId });

describe('the leaves decide both ways', () => {
  it('salesChannel and currency match and miss', () => {
    const facts = baseFacts();
    const channel = (operator: string, ids: string[]): ConditionTree => ({
      type: 'salesChannel',
      value: { operator, salesChannelIds: ids },
    });
    expect(evaluate(channel('=', ['channel-a']), facts)).toBe(true);
    expect(evaluate(channel('=', ['channel-b']), facts)).toBe(false);
    expect(evaluate(channel('!=', ['channel-b']), facts)).toBe(true);
    expect(evaluate({ type: 'currency', value: { operator: '=', currencyIds: ['USD'] } }, facts)).toBe(false);
    expect(evaluate({ type: 'alwaysValid' }, facts)).toBe(true);
  });
});

describe('the container laws, over random trees and facts', () => {
  it('NOT(NOT x) = x', () => {
    fc.assert(
      fc.property(treeArb, factsArb, (x, facts) => {
        expect(evaluate(not(not(x)), facts)).toBe(evaluate(x, facts));
        expect(evaluate(not(x), facts)).toBe(!evaluate(x, facts));
      }),
    );
  });

  it('NOT(AND(a, b)) = OR(NOT a, NOT b), and NOT(OR(a, b)) = AND(NOT a, NOT b)', () => {
    fc.assert(
      fc.property(treeArb, treeArb, factsArb, (a, b, facts) => {
        expect(evaluate(not(and(a, b)), facts)).toBe(evaluate(or(not(a), not(b)), facts));
        expect(evaluate(not(or(a, b)), facts)).toBe(evaluate(and(not(a), not(b)), facts));
      }),
    );
  });

  it('XOR(a, b) = (a ≠ b), XOR(a) = a, and XOR holds for exactly one match', () => {
    fc.assert(
      fc.property(treeArb, treeArb, fc.array(treeArb, { maxLength: 4 }), factsArb, (a, b, many, facts) => {
        expect(evaluate(xor(a, b), facts)).toBe(evaluate(a, facts) !== evaluate(b, facts));
        expect(evaluate(xor(a), facts)).toBe(evaluate(a, facts));
        const matches = many.filter((child) => evaluate(child, facts)).length;
        expect(evaluate(xor(...many), facts)).toBe(matches === 1);
      }),
    );
  });

  it('AND and OR agree with every and some', () => {
    fc.assert(
      fc.property(fc.array(treeArb, { maxLength: 4 }), factsArb, (children, facts) => {
        const results = children.map((child) => evaluate(child, facts));
        expect(evaluate(and(...children), facts)).toBe(results.every(Boolean));
        expect(evaluate(or(...children), facts)).toBe(results.some(Boolean));
      }),
    );
  });

  it('AND() is true, OR() and XOR() are false', () => {
    const facts = baseFacts();
    expect(evaluate(and(), facts)).toBe(true);
    expect(evaluate({ type: 'andContainer' }, facts)).toBe(true);
    expect(evaluate(or(), facts)).toBe(false);
    expect(evaluate({ type: 'orContainer' }, facts)).toBe(false);
    expect(evaluate(xor(), facts)).toBe(false);
  });

  it('explain(x).result = evaluate(x), at every node of the trace', () => {
    fc.assert(
      fc.property(treeArb, factsArb, (x, facts) => {
        const rule = compiled(x);
        const trace = successValue(rule.explain(facts));
        expect(trace.result).toBe(successValue(rule.evaluate(facts)));
        expect(trace.pointer).toBe('');
        // Every traced node decided what that subtree decides on its own.
        const check = (node: TraceNode, subtree: ConditionTree): void => {
          expect(node.type).toBe(subtree.type);
          expect(node.result).toBe(evaluate(subtree, facts));
          const children = 'children' in subtree ? (subtree.children ?? []) : [];
          expect(node.children ?? []).toHaveLength(children.length);
          children.forEach((child, index) => {
            expect(node.children![index]!.pointer).toBe(`${node.pointer}/children/${index}`);
            check(node.children![index]!, child);
          });
        };
        check(trace, x);
      }),
    );
  });

  it('a reference decides what the referenced rule decides', () => {
    fc.assert(
      fc.property(treeArb, factsArb, (x, facts) => {
        const rules = new Map([saved('r', x)]);
        expect(evaluate(reference('r'), facts, rules)).toBe(evaluate(x, facts));
        expect(evaluate(not(reference('r')), facts, rules)).toBe(!evaluate(x, facts));
        expect(compiled(and(reference('r'), reference('r')), rules).referencedRuleIds).toEqual(['r']);
      }),
    );
  });
});

describe('references', () => {
  it('rejects a reference cycle of any length, wherever it closes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.nat(),
        fc.boolean(),
        treeArb,
        (length, closeAt, wrap, filler) => {
          // r0 → r1 → … → r(length-1) → r(closeAt mod length): a cycle, possibly after a lead-in.
          const target = closeAt % length;
          const rules = new Map(
            Array.from({ length }, (_, index) => {
              const next = reference(`r${index + 1 < length ? index + 1 : target}`);
              return saved(`r${index}`, wrap ? or(filler, and(not(next))) : next);
            }),
          );
          const error = failureOf(compileRule(reference('r0'), { rules }));
          expect(['RULE_REFERENCE_CYCLE', 'RULE_REFERENCE_DEPTH']).toContain(error.code);
          // Within the depth limit a cycle is reported as one.
          if (length <= RULE_LIMITS.referenceDepth) expect(error.code).toBe('RULE_REFERENCE_CYCLE');
          expect(error.pointer).toBe('');
        },
      ),
    );
  });

  it('rejects a rule that references itself', () => {
    const rules = new Map([saved('self', and({ type: 'alwaysValid' }, not(reference('self'))))]);
    expect(failureOf(compileRule(reference('self'), { rules })).code).toBe('RULE_REFERENCE_CYCLE');
  });

  const chain = (depth: number): Map<string, SavedRule> =>
    new Map(
      Array.from({ length: depth }, (_, index) =>
        saved(`c${index + 1}`, index + 1 < depth ? reference(`c${index + 2}`) : { type: 'alwaysValid' }),
      ),
    );

  it('compiles a chain of 8 nested references and refuses 9', () => {
    expect(RULE_LIMITS.referenceDepth).toBe(8);
    const eight = compiled(reference('c1'), chain(8));
    expect(eight.evaluate(baseFacts())).toEqual({ ok: true, value: true });
    expect(eight.referencedRuleIds).toHaveLength(8);
    const error = failureOf(compileRule(reference('c1'), { rules: chain(9) }));
    expect(error.code).toBe('RULE_REFERENCE_DEPTH');
  });

  it('compiles 100 distinct referenced rules and refuses 101', () => {
    expect(RULE_LIMITS.referencedRules).toBe(100);
    const rules = (count: number) =>
      new Map(Array.from({ length: count }, (_, index) => saved(`s${index}`, { type: 'alwaysValid' })));
    const tree = (count: number) =>
      and(...Array.from({ length: count }, (_, index) => reference(`s${index}`)));
    const hundred = compiled(tree(100), rules(100));
    expect(hundred.evaluate(baseFacts())).toEqual({ ok: true, value: true });
    expect(hundred.referencedRuleIds).toHaveLength(100);
    // Referencing the same rules again does not count twice.
    expect(compileRule(and(tree(100), tree(100)), { rules: rules(100) }).ok).toBe(true);
    const error = failureOf(compileRule(tree(101), { rules: rules(101) }));
    expect(error.code).toBe('RULE_REFERENCE_LIMIT');
    expect(error.pointer).toBe('/children/100');
  });

  it('rejects a missing reference and an inactive one', () => {
    const missing = failureOf(compileRule(or({ type: 'alwaysValid' }, reference('gone'))));
    expect({ code: missing.code, pointer: missing.pointer }).toEqual({
      code: 'RULE_REFERENCE_MISSING',
      pointer: '/children/1',
    });
    const rules = new Map([saved('off', { type: 'alwaysValid' }, false), saved('on', reference('off'))]);
    expect(failureOf(compileRule(reference('off'), { rules })).code).toBe('RULE_REFERENCE_DISABLED');
    // Through another rule too, reported at the reference written in the tree.
    const nested = failureOf(compileRule(not(reference('on')), { rules }));
    expect({ code: nested.code, pointer: nested.pointer }).toEqual({
      code: 'RULE_REFERENCE_DISABLED',
      pointer: '/children/0',
    });
  });
});

describe('scopes', () => {
  const goodsBeneathNot = not({ type: 'cartGoodsCount', value: { operator: '>=', count: 1 } });

  it('a scope-needing condition beneath NOT needs its scope', () => {
    const rule = compiled(goodsBeneathNot);
    const error = failureOf(rule.evaluate(baseFacts()));
    expect({ code: error.code, pointer: error.pointer }).toEqual({
      code: 'RULE_SCOPE_MISSING',
      pointer: '/children/0',
    });
    expect(failureOf(rule.explain(baseFacts())).code).toBe('RULE_SCOPE_MISSING');
    // With a cart it decides: not (at least one good).
    expect(successValue(rule.evaluate(baseFacts({ cart: { lineItems: [] } })))).toBe(true);
    expect(
      successValue(rule.evaluate(baseFacts({ cart: { lineItems: [{ type: 'product', good: true }] } }))),
    ).toBe(false);
  });

  it('a scope need found through a reference counts too', () => {
    const rules = new Map([saved('goods', goodsBeneathNot)]);
    const rule = compiled(or({ type: 'alwaysValid' }, reference('goods')), rules);
    // OR short-circuits, yet the missing scope is a failure, not a silent true.
    expect(failureOf(rule.evaluate(baseFacts())).code).toBe('RULE_SCOPE_MISSING');
  });
});
