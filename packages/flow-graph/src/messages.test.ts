import { describe, expect, it } from 'vitest';
import { normalizeActionConfig } from './actions.ts';
import { validatePipeline } from './validate.ts';

// Issue messages quote at most the first 100 characters of a string the caller sent (pointers and
// node ids still name it exactly), so a huge input never comes back whole in a problem body.

const huge = 'x'.repeat(100_000);
const quoted = `"${'x'.repeat(100)}…"`;

function messagesOf(input: unknown): string[] {
  const result = validatePipeline(input);
  if (result.ok) throw new Error('the pipeline was accepted');
  return result.issues.map((issue) => issue.message);
}

describe('messages quoting input', () => {
  it('cut an unknown action name', () => {
    const result = normalizeActionConfig(huge, {});
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          code: 'FLOW_UNKNOWN_ACTION',
          message: `Unknown action ${quoted}; only the catalog's actions are supported (extension action sets are not).`,
          pointer: '',
        },
      ],
    });
  });

  it('quote short input whole', () => {
    expect(normalizeActionConfig('action.nope', {})).toMatchObject({
      issues: [{ message: expect.stringMatching(/^Unknown action "action\.nope";/) }],
    });
  });

  it('cut node ids, edge targets, kinds and unknown keys', () => {
    const messages = messagesOf({
      entry: huge,
      [huge]: 1,
      nodes: [
        { id: huge, kind: 'stop' },
        { id: huge, kind: 'stop' },
        { id: 'a', kind: 'action', action: 'note', config: { text: 'hi' }, next: `${huge}2` },
        { id: 'b', kind: huge },
        { id: 'c', kind: 'stop', [huge]: 1 },
      ],
    });
    expect(messages.length).toBeGreaterThanOrEqual(5);
    for (const message of messages) expect(message.length).toBeLessThan(400);
    expect(messages).toContain(`More than one node has the id ${quoted}.`);
  });

  it('cut unknown config keys and received values', () => {
    const result = normalizeActionConfig('action.add.order.tag', { tags: [huge], [huge]: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    for (const issue of result.issues) expect(issue.message.length).toBeLessThan(400);
  });
});
