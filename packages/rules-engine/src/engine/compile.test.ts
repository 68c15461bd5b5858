import { describe, expect, it } from 'vitest';
import { compiled } from '../../test-support/results.ts';
import { buildFacts } from '../facts-schema.ts';
import type { ConditionTree } from '../tree.ts';

const facts = buildFacts({ now: '2024-06-01T12:00:00+00:00', context: { channelId: 'web' } });
const channel = (operator: string): ConditionTree => ({
  type: 'salesChannel',
  value: { operator, salesChannelIds: ['web'] },
});

describe('evaluating a compiled rule', () => {
  it('answers every decision with one of two shared results, allocating none', () => {
    const matches = compiled(channel('='));
    const differs = compiled(channel('!='));
    expect(matches.evaluate(facts)).toEqual({ ok: true, value: true });
    expect(matches.evaluate(facts)).toBe(compiled(channel('=')).evaluate(facts));
    expect(differs.evaluate(facts)).toEqual({ ok: true, value: false });
    expect(differs.evaluate(facts)).toBe(differs.evaluate(facts));
  });

  it('refuses an operator a condition does not support where evaluation reaches it', () => {
    const refusal = {
      ok: false,
      code: 'RULE_INVALID_VALUE',
      detail: 'The operator ">" is not supported here.',
      pointer: '',
      details: {},
    };
    expect(compiled(channel('>')).evaluate(facts)).toEqual(refusal);
    expect(compiled(channel('>')).explain(facts)).toEqual(refusal);
    // Compilation does not check operators, and a short-circuit never reaches this one.
    const skipped = compiled({ type: 'orContainer', children: [{ type: 'alwaysValid' }, channel('>')] });
    expect(skipped.evaluate(facts)).toEqual({ ok: true, value: true });
    expect(skipped.explain(facts)).toEqual(refusal);
  });
});
