import { describe, expect, it } from 'vitest';
import { decisionOf, failureOf, successValue } from '../../test-support/results.ts';
import type { Facts } from '../facts.ts';
import { buildFacts } from '../facts-schema.ts';
import type { ConditionTree, SavedRule } from '../tree.ts';
import { compileRule, compileRuleSet, RULE_LIMITS } from './compile.ts';

function facts(channelId: string, cart = false): Facts {
  return buildFacts({
    now: '2026-11-22T10:00:00Z',
    context: { channelId },
    ...(cart ? { cart: { amount: 120 } } : {}),
  });
}

const inChannel = (id: string): ConditionTree => ({
  type: 'salesChannel',
  value: { operator: '=', salesChannelIds: [id] },
});
const ref = (ruleId: string): ConditionTree => ({ type: 'ruleReference', ruleId });
const rule = (id: string, condition: ConditionTree, active = true): SavedRule => ({ id, condition, active });

describe('a compiled rule set', () => {
  it('evaluates every rule once per pass, sharing referenced rules, and answers per rule', () => {
    const set = compileRuleSet([
      rule('base', inChannel('web')),
      rule('a', ref('base')),
      rule('b', { type: 'notContainer', children: [ref('base')] }),
      rule('c', { type: 'andContainer', children: [ref('a'), ref('base')] }),
    ]);
    const decisions = (given: Facts) =>
      Object.fromEntries([...set.evaluateAll(given)].map(([id, result]) => [id, decisionOf(result)]));
    expect(decisions(facts('web'))).toEqual({
      base: true,
      a: true,
      b: false,
      c: true,
    });
    // A new pass sees new facts: remembered results never leak between passes.
    expect(decisions(facts('pos'))).toEqual({
      base: false,
      a: false,
      b: true,
      c: false,
    });
  });

  it('keeps a broken rule from breaking the others, and reports scope needs per rule', () => {
    const set = compileRuleSet([
      rule('ok', inChannel('web')),
      rule('cycle', ref('cycle')),
      rule('missing', ref('nowhere')),
      rule('cart', { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } }),
    ]);
    const results = set.evaluateAll(facts('web'));
    expect(results.get('ok')).toEqual({ ok: true, value: true });
    expect(failureOf(results.get('cycle')!).code).toBe('RULE_REFERENCE_CYCLE');
    expect(failureOf(results.get('missing')!).code).toBe('RULE_REFERENCE_MISSING');
    expect(failureOf(results.get('cart')!).code).toBe('RULE_SCOPE_MISSING');
    expect(set.evaluateAll(facts('web', true)).get('cart')).toEqual({ ok: true, value: true });
  });

  it('counts the reference limit per rule, not across the set', () => {
    const leaves = Array.from({ length: RULE_LIMITS.referencedRules }, (_, n) =>
      rule(`leaf${n}`, inChannel('web')),
    );
    const wide = (id: string, from: number) =>
      rule(id, { type: 'orContainer', children: leaves.slice(from, from + 60).map((leaf) => ref(leaf.id)) });
    const set = compileRuleSet([...leaves, wide('first', 0), wide('second', 40)]);
    expect(set.rules.get('first')?.ok).toBe(true);
    expect(set.rules.get('second')?.ok).toBe(true);
    const all = rule('all', { type: 'orContainer', children: [ref('first'), ref('second')] });
    const tooMany = compileRuleSet([...leaves, wide('first', 0), wide('second', 40), all]);
    expect(failureOf(tooMany.rules.get('all')!).code).toBe('RULE_REFERENCE_LIMIT');
  });

  it('lets a set’s own rule reference the full depth below it, like a standalone tree', () => {
    const chain = [rule('r0', inChannel('web'))];
    for (let n = 1; n <= RULE_LIMITS.referenceDepth + 1; n += 1) chain.push(rule(`r${n}`, ref(`r${n - 1}`)));
    const set = compileRuleSet(chain);
    expect(set.rules.get(`r${RULE_LIMITS.referenceDepth}`)?.ok).toBe(true);
    expect(failureOf(set.rules.get(`r${RULE_LIMITS.referenceDepth + 1}`)!).code).toBe('RULE_REFERENCE_DEPTH');
    const rules = new Map(chain.map((saved) => [saved.id, saved]));
    expect(compileRule(ref(`r${RULE_LIMITS.referenceDepth - 1}`), { rules }).ok).toBe(true);
    expect(failureOf(compileRule(ref(`r${RULE_LIMITS.referenceDepth}`), { rules })).detail).toMatch(
      /deeper than 8/,
    );
  });

  it('runs a referenced rule once per evaluation even when a tree names it many times', () => {
    let reads = 0;
    const counted: Facts = facts('web');
    const spy = new Proxy(counted.context, {
      get(target, key) {
        if (key === 'channelId') reads += 1;
        return Reflect.get(target, key);
      },
    });
    const compiled = successValue(
      compileRule(
        {
          type: 'andContainer',
          children: [ref('base'), ref('base'), { type: 'notContainer', children: [ref('base')] }],
        },
        { rules: new Map([['base', rule('base', inChannel('web'))]]) },
      ),
    );
    expect(successValue(compiled.evaluate({ ...counted, context: spy }))).toBe(false);
    expect(reads).toBe(1);
    expect(successValue(compiled.evaluate({ ...counted, context: spy }))).toBe(false);
    expect(reads).toBe(2);
  });
});
