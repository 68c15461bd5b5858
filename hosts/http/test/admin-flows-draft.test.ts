import { describe, expect, it } from 'vitest';
import {
  checkDraft,
  delayParts,
  draftFromForm,
  draftOf,
  issuesOfRefusal,
  newDraft,
  withNode,
  withoutNode,
} from '../src/admin/flows/draft.ts';

// The flow editor's draft (admin/flows/draft.ts): a stored graph survives the form unchanged,
// and every problem is pinned to the node it concerns.

const RULE = '0190f0c8-0000-7000-8000-0000000000e1';
const pipeline = {
  entry: 'big',
  nodes: [
    {
      id: 'big',
      kind: 'condition',
      condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
      on_true: 'vip',
      on_false: null,
    },
    {
      id: 'vip',
      kind: 'condition',
      condition: { type: 'ruleReference', ruleId: RULE },
      on_true: 'wait',
      on_false: 'end',
    },
    { id: 'wait', kind: 'delay', seconds: 7200, next: 'tag' },
    { id: 'tag', kind: 'action', action: 'action.add.order.tag', config: { tags: ['big'] }, next: 'end' },
    { id: 'end', kind: 'stop' },
  ],
};

/** The draft as the editor's form posts it. */
function formOf(draft: ReturnType<typeof newDraft>): Record<string, string> {
  const form: Record<string, string> = {
    revision: String(draft.revision),
    count: String(draft.nodes.length),
    name: draft.name,
    trigger: draft.trigger,
    entry: draft.entry,
    ...(draft.active ? { active: 'on' } : {}),
  };
  draft.nodes.forEach((node, index) => {
    const at = (name: string, value: string) => {
      form[`n-${index}-${name}`] = value;
    };
    at('id', node.id);
    at('kind', node.kind);
    at('mode', node.conditionMode);
    at('rule', node.ruleId);
    at('tree', node.tree);
    at('true', node.onTrue);
    at('false', node.onFalse);
    at('action', node.action);
    at('config', node.config);
    at('amount', node.amount);
    at('unit', node.unit);
    at('next', node.next);
  });
  return form;
}

describe('the flow editor draft', () => {
  it('carries a stored graph through the form unchanged', () => {
    const draft = draftOf(
      { name: { en: 'Big', de: 'Groß' }, trigger: 'order.placed', pipeline },
      3,
      true,
      'de',
    );
    expect(draft).toMatchObject({ revision: 3, name: 'Groß', active: true, entry: 'big' });
    expect(draft.nodes[1]).toMatchObject({ conditionMode: 'rule', ruleId: RULE });
    expect(draft.nodes[2]).toMatchObject({ amount: '2', unit: 'hours' });
    const posted = draftFromForm(formOf(draft));
    expect(posted).toEqual(draft);
    const checked = checkDraft(posted);
    expect(checked.issues).toEqual([]);
    expect(checked.pipeline).toEqual(pipeline);
  });

  it('writes delays in the largest unit that divides them', () => {
    expect(delayParts(1)).toEqual({ amount: '1', unit: 'seconds' });
    expect(delayParts(90)).toEqual({ amount: '90', unit: 'seconds' });
    expect(delayParts(120)).toEqual({ amount: '2', unit: 'minutes' });
    expect(delayParts(30 * 86_400)).toEqual({ amount: '30', unit: 'days' });
  });

  it('pins an edge to nowhere, unreachable nodes, unreadable JSON, a bad delay and a missing rule to their nodes', () => {
    let draft = withNode(newDraft(), 'delay', 'note');
    draft = withNode(draft, 'action', 'note');
    draft = withNode(draft, 'condition', 'note');
    draft = {
      ...draft,
      entry: 'delay-1',
      nodes: draft.nodes.map((node) =>
        node.id === 'delay-1'
          ? { ...node, amount: '0', next: 'nowhere' }
          : node.id === 'action-1'
            ? { ...node, config: '{"text": ', next: 'end' }
            : node.id === 'condition-1'
              ? { ...node, conditionMode: 'rule' as const, ruleId: '' }
              : node,
      ),
    };
    const { issues } = checkDraft(draft);
    const on = (index: number) => issues.filter((issue) => issue.nodes.includes(index));
    expect(on(1).map((issue) => ('key' in issue.text ? issue.text.key : issue.text.raw))).toEqual(
      expect.arrayContaining(['flows.badAmount', expect.stringContaining('nowhere')]),
    );
    expect(on(2).some((issue) => 'key' in issue.text && issue.text.key === 'flows.badJson')).toBe(true);
    expect(on(3).some((issue) => 'key' in issue.text && issue.text.key === 'flows.noRuleChosen')).toBe(true);
    // The stop and the note are reached only through the dangling delay: unreachable.
    expect(on(0).length).toBeGreaterThan(0);
  });

  it('refuses a delay above 30 days on the delay node', () => {
    const draft = draftOf(
      {
        name: { en: 'Long' },
        trigger: 'order.placed',
        pipeline: { entry: 'w', nodes: [{ id: 'w', kind: 'delay', seconds: 60, next: null }] },
      },
      1,
      true,
      'en',
    );
    const long = { ...draft, nodes: [{ ...draft.nodes[0]!, amount: '31', unit: 'days' as const }] };
    const { issues } = checkDraft(long);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.nodes).toEqual([0]);
  });

  it('adds and removes nodes with fresh ids', () => {
    const added = withNode(withNode(newDraft(), 'action', 'note'), 'action', 'note');
    expect(added.nodes.map((node) => node.id)).toEqual(['end', 'action-1', 'action-2']);
    expect(added.nodes[1]).toMatchObject({ action: 'note', config: '{\n  "text": ""\n}' });
    expect(withoutNode(added, 1).nodes.map((node) => node.id)).toEqual(['end', 'action-2']);
  });

  it('pins an operation’s refusal by its pointer', () => {
    const draft = draftOf({ name: { en: 'F' }, trigger: 'order.placed', pipeline }, 1, true, 'en');
    const issues = issuesOfRefusal(draft, {
      detail: 'refused',
      errors: [
        { pointer: '/data/pipeline/nodes/3/config/tags', message: 'bad tag' },
        { pointer: '/data/trigger', message: 'no such event' },
      ],
    });
    expect(issues).toEqual([
      { nodes: [3], text: { raw: 'bad tag' } },
      { nodes: [], text: { raw: '/data/trigger: no such event' } },
    ]);
  });

  it('bounds what a posted form can make it read', () => {
    const posted = draftFromForm({ count: '99999999', 'n-0-kind': 'nonsense', name: 'x'.repeat(200_000) });
    expect(posted.nodes).toEqual([]);
    expect(posted.name.length).toBe(100_000);
  });
});
