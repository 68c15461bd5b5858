import { findOperation } from '@cartwright/service';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogAction,
  checkDraft,
  configFieldName,
  configFields,
  type DraftIssue,
  delayParts,
  draftFromForm,
  draftOf,
  fieldText,
  issuesOfRefusal,
  newDraft,
  withNode,
  withoutNode,
} from '../src/admin/flows/draft.ts';
import { issueText } from '../src/admin/flows/pages.tsx';
import { type Locale, translator } from '../src/admin/i18n.ts';
import type { FormBody } from '../src/admin/kit.ts';
import type { PageContext } from '../src/admin/layout.tsx';

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
    expect(on(1).map((issue) => issue.text.key)).toEqual(
      expect.arrayContaining(['flows.badAmount', 'flows.issue.edgeMissing']),
    );
    expect(on(2).some((issue) => issue.text.key === 'flows.badJson')).toBe(true);
    expect(on(3).some((issue) => issue.text.key === 'flows.noRuleChosen')).toBe(true);
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
    expect(added.nodes[1]).toMatchObject({ action: 'note', config: '{}' });
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
    // Two errors and no code: each error gets the general lead, its message kept as the detail.
    expect(issues).toEqual([
      { nodes: [3], key: 'tags', text: { key: 'flows.issue.other', detail: 'bad tag' } },
      { nodes: [], text: { key: 'flows.issue.other', detail: '/data/trigger: no such event' } },
    ]);
  });

  it('bounds what a posted form can make it read', () => {
    const posted = draftFromForm({ count: '99999999', 'n-0-kind': 'nonsense', name: 'x'.repeat(200_000) });
    expect(posted.nodes).toEqual([]);
    expect(posted.name.length).toBe(100_000);
  });
});

describe('typed action configs', () => {
  let actions: CatalogAction[];
  let german: CatalogAction[];
  beforeAll(async () => {
    // The catalog as `automation.catalog` answers it (its handler reads nothing of the context).
    const read = async (language: string) => {
      const answer = await findOperation('automation.catalog')!.handler({} as never, { language });
      if (!answer.ok) throw new Error(answer.detail);
      return (answer.value as { actions: CatalogAction[] }).actions;
    };
    actions = await read('en');
    german = await read('de');
  });

  const typed = {
    entry: 'note',
    nodes: [
      { id: 'note', kind: 'action', action: 'note', config: { text: 'Hello\nworld' }, next: 'tag' },
      {
        id: 'tag',
        kind: 'action',
        action: 'action.add.order.tag',
        config: { tags: ['a', 'b'] },
        next: 'state',
      },
      {
        id: 'state',
        kind: 'action',
        action: 'action.set.order.state',
        config: { kind: 'payment', state: 'paid' },
        next: 'status',
      },
      {
        id: 'status',
        kind: 'action',
        action: 'action.change.customer.status',
        config: { active: false },
        next: 'app',
      },
      {
        id: 'app',
        kind: 'action',
        action: 'app_action',
        config: { appId: 'crm', action: 'score', input: { order: { $fact: 'order.id' }, weight: 2 } },
        next: 'codes',
      },
      {
        id: 'codes',
        kind: 'action',
        action: 'action.add.order.affiliate.and.campaign.code',
        // null clears a code: no plain text input can show it, so it is shown (and kept) as JSON.
        config: { affiliateCode: null, campaignCode: 'spring' },
        next: 'multi',
      },
      {
        id: 'multi',
        kind: 'action',
        action: 'note',
        config: { text: { en: 'Thanks', de: 'Danke' } },
        next: null,
      },
    ],
  };

  /** The form the editor renders for a draft: every typed input with the text it shows. */
  function renderedForm(
    draft: ReturnType<typeof newDraft>,
    locale: 'en' | 'de' = 'en',
  ): Record<string, string> {
    const form = formOf(draft);
    draft.nodes.forEach((node, index) => {
      if (node.kind !== 'action') return;
      form[`n-${index}-for`] = node.action;
      const action = actions.find((candidate) => candidate.name === node.action)!;
      for (const field of configFields(action, JSON.parse(node.config))) {
        form[configFieldName(index, field.key)] = fieldText(field, locale);
      }
    });
    return form;
  }

  it('types each config key from the catalog, labelled in the UI language', () => {
    const kinds = (name: string, list = actions) =>
      list.find((action) => action.name === name)!.configKeys.map((key) => [key.name, key.input, key.label]);
    expect(kinds('action.set.order.state')).toEqual([
      ['kind', 'choice', 'Which state'],
      ['state', 'string', 'New state'],
    ]);
    expect(kinds('action.change.customer.status', german)).toEqual([['active', 'boolean', 'Aktiv']]);
    expect(kinds('action.add.order.tag')).toEqual([['tags', 'list', 'Tags']]);
    const draft = draftOf({ name: { en: 'T' }, trigger: 'order.placed', pipeline: typed }, 1, true, 'en');
    const fields = (index: number) =>
      configFields(
        actions.find((action) => action.name === draft.nodes[index]!.action)!,
        JSON.parse(draft.nodes[index]!.config),
      ).map((field) => [field.key, field.mode]);
    expect(fields(4)).toEqual([
      ['appId', 'reference'],
      ['action', 'reference'],
      ['input', 'json'],
    ]);
    // Values no simple input can show fall back to JSON for that key only.
    expect(fields(5)).toEqual([
      ['affiliateCode', 'json'],
      ['campaignCode', 'string'],
    ]);
    expect(fields(6)).toEqual([['text', 'json']]);
  });

  it('carries untouched typed configs through the form exactly', () => {
    for (const locale of ['en', 'de'] as const) {
      const draft = draftOf({ name: { en: 'T' }, trigger: 'order.placed', pipeline: typed }, 1, true, locale);
      const posted = draftFromForm(renderedForm(draft, locale), actions, locale);
      expect(posted).toEqual(draft);
      const checked = checkDraft(posted);
      expect(checked.issues).toEqual([]);
      expect(checked.pipeline).toEqual(typed);
    }
  });

  it('writes edited inputs into the config as the catalog types them', () => {
    const draft = draftOf({ name: { en: 'T' }, trigger: 'order.placed', pipeline: typed }, 1, true, 'en');
    const form = renderedForm(draft);
    form[configFieldName(0, 'text')] = '  Paid in full  ';
    form[configFieldName(1, 'tags')] = 'vip\n\n big \nvip';
    form[configFieldName(2, 'kind')] = 'delivery';
    form[configFieldName(3, 'active')] = 'true';
    form[configFieldName(4, 'input')] = '{"order": {"$fact": "order.number"}}';
    form[configFieldName(5, 'affiliateCode')] = '';
    const checked = checkDraft(draftFromForm(form, actions, 'en'));
    expect(checked.issues).toEqual([]);
    const configs = (checked.pipeline as typeof typed).nodes.map((node) => node.config);
    expect(configs).toEqual([
      { text: 'Paid in full' },
      { tags: ['vip', 'big'] },
      { kind: 'delivery', state: 'paid' },
      { active: true },
      { appId: 'crm', action: 'score', input: { order: { $fact: 'order.number' } } },
      { campaignCode: 'spring' },
      { text: { en: 'Thanks', de: 'Danke' } },
    ]);
  });

  it('pins a refused config value to its key, and an operation’s refusal too', () => {
    const draft = draftOf({ name: { en: 'T' }, trigger: 'order.placed', pipeline: typed }, 1, true, 'en');
    const form = renderedForm(draft);
    form[configFieldName(0, 'text')] = '';
    form[configFieldName(2, 'kind')] = 'refund';
    form[configFieldName(4, 'input')] = '[1, 2]';
    const posted = draftFromForm(form, actions, 'en');
    const { issues } = checkDraft(posted);
    const at = (node: number) =>
      issues.filter((issue) => issue.nodes.length === 1 && issue.nodes[0] === node);
    expect(at(0).map((issue) => issue.key)).toEqual(['text']);
    expect(at(2).map((issue) => issue.key)).toEqual(['kind']);
    expect(at(4).map((issue) => issue.key)).toEqual(['input']);
    expect(issues.every((issue) => issue.key !== undefined)).toBe(true);
    // The text as typed stays in the draft, so the form shows it again.
    expect(JSON.parse(posted.nodes[2]!.config)).toEqual({ kind: 'refund', state: 'paid' });
    expect(
      issuesOfRefusal(
        posted,
        {
          code: 'FLOW_INVALID_ACTION_CONFIG',
          detail: 'refused',
          errors: [{ pointer: '/data/pipeline/nodes/1/config/tags/0', message: 'at most 100 characters' }],
        },
        actions,
      ),
    ).toEqual([
      {
        nodes: [1],
        key: 'tags',
        text: { key: 'flows.issue.nested', values: { label: 'Tags' }, detail: 'at most 100 characters' },
      },
    ]);
  });

  it('reads numbers as the UI language writes them and keeps keys the action does not know', () => {
    const counted: CatalogAction = {
      name: 'note',
      label: 'Note',
      configKeys: [{ name: 'text', label: 'Note', required: true, input: 'integer' }],
    };
    const draft = draftOf(
      {
        name: { en: 'T' },
        trigger: 'order.placed',
        pipeline: {
          entry: 'n',
          nodes: [{ id: 'n', kind: 'action', action: 'note', config: { text: 3, extra: 'x' }, next: null }],
        },
      },
      1,
      true,
      'de',
    );
    const form: FormBody = { ...formOf(draft), 'n-0-for': 'note', [configFieldName(0, 'text')]: '12' };
    expect(JSON.parse(draftFromForm(form, [counted], 'de').nodes[0]!.config)).toEqual({
      text: 12,
      extra: 'x',
    });
    // An emptied unknown key is removed; the known one typed as German writes it.
    form[configFieldName(0, 'extra')] = '';
    form[configFieldName(0, 'text')] = '1,5';
    expect(JSON.parse(draftFromForm(form, [counted], 'de').nodes[0]!.config)).toEqual({ text: 1.5 });
    // Inputs rendered for another action are not read: choosing another action starts its config empty.
    form['n-0-action'] = 'action.stop.flow';
    expect(draftFromForm(form, [...actions], 'de').nodes[0]!.config).toBe('{}');
  });
});

describe('issues in the UI language', () => {
  let german: CatalogAction[];
  beforeAll(async () => {
    const answer = await findOperation('automation.catalog')!.handler({} as never, { language: 'de' });
    if (!answer.ok) throw new Error(answer.detail);
    german = (answer.value as { actions: CatalogAction[] }).actions;
  });

  /** An issue as the editor renders it (issueText only reads the page's translator). */
  const said = (issue: DraftIssue, locale: Locale = 'de'): string =>
    String(issueText({ t: translator(locale) } as unknown as PageContext, issue));
  const draftWith = (nodes: unknown[], entry = 'start') =>
    draftOf({ name: { de: 'F' }, trigger: 'order.placed', pipeline: { entry, nodes } }, 1, true, 'de');
  /** The checked draft's issues, each as the German page says it, with the nodes it is pinned to. */
  const checked = (nodes: unknown[], entry = 'start') =>
    checkDraft(draftWith(nodes, entry), german).issues.map((issue) => ({
      nodes: issue.nodes,
      key: issue.key,
      text: said(issue),
      code: issue.text.key,
    }));
  const action = (id: string, name: string, config: unknown, next: string | null = null) => ({
    id,
    kind: 'action',
    action: name,
    config,
    next,
  });
  const label = (name: string, key: string) =>
    german.find((entry) => entry.name === name)!.configKeys.find((entry) => entry.name === key)!.label;

  it('names the edge, its node and the missing target, read from the draft', () => {
    expect(checked([{ id: 'start', kind: 'delay', seconds: 60, next: 'nirgendwo' }])).toEqual([
      {
        nodes: [0],
        key: undefined,
        code: 'flows.issue.edgeMissing',
        text: '„Danach“ von Knoten start führt zu Knoten nirgendwo, den es nicht gibt.',
      },
    ]);
    const branches = checked([
      { id: 'start', kind: 'condition', condition: { type: 'alwaysValid' }, on_true: 'ja', on_false: null },
    ]);
    expect(branches.map((issue) => issue.text)).toEqual([
      '„Wenn wahr“ von Knoten start führt zu Knoten ja, den es nicht gibt.',
    ]);
    expect(checked([{ id: 'end', kind: 'stop' }], 'anfang').map((issue) => issue.text)).toEqual([
      'Den Startknoten anfang gibt es nicht.',
    ]);
  });

  it('lists unreachable nodes and the nodes of a cycle as German lists them', () => {
    const unreachable = checked([
      { id: 'start', kind: 'stop' },
      { id: 'a', kind: 'delay', seconds: 60, next: 'b' },
      { id: 'b', kind: 'stop' },
    ]);
    expect(unreachable).toEqual([
      {
        nodes: [1, 2],
        key: undefined,
        code: 'flows.issue.unreachable',
        text: 'Die Knoten a und b sind vom Startknoten aus nicht erreichbar.',
      },
    ]);
    const cycle = checked([
      { id: 'start', kind: 'delay', seconds: 60, next: 'a' },
      { id: 'a', kind: 'delay', seconds: 60, next: 'start' },
    ]);
    expect(cycle.map((issue) => [issue.nodes, issue.text])).toEqual([
      [[0, 1], 'Die Knoten start und a bilden einen Kreis: Ein Flow darf keine Schleife enthalten.'],
    ]);
    const self = checked([{ id: 'start', kind: 'delay', seconds: 60, next: 'start' }]);
    expect(self.map((issue) => issue.text)).toEqual([
      'Knoten start führt zu sich selbst zurück: Ein Flow darf keine Schleife enthalten.',
    ]);
  });

  it('names a duplicate id, a delay too long with the limit, and an unknown action', () => {
    const duplicate = checked([
      { id: 'start', kind: 'delay', seconds: 60, next: 'start-2' },
      { id: 'start-2', kind: 'stop' },
      { id: 'start-2', kind: 'stop' },
    ]);
    expect(duplicate.map((issue) => [issue.nodes, issue.text])).toEqual([
      [[1, 2], 'Mehr als ein Knoten hat die ID start-2.'],
    ]);
    const long = checked([{ id: 'start', kind: 'delay', seconds: 31 * 86_400, next: null }]);
    expect(long.map((issue) => [issue.nodes, issue.text])).toEqual([
      [[0], 'Eine Verzögerung dauert höchstens 30 Tage, nicht 31 Tage.'],
    ]);
    const hours = checked([{ id: 'start', kind: 'delay', seconds: 1000 * 3600, next: null }]);
    expect(hours.map((issue) => issue.text)).toEqual([
      'Eine Verzögerung dauert höchstens 30 Tage, nicht 1.000 Stunden.',
    ]);
    const unknown = checked([action('start', 'action.fly.to.moon', {})]);
    expect(unknown.map((issue) => issue.text)).toEqual(['action.fly.to.moon ist keine Aktion des Katalogs.']);
  });

  it('names a config key by its catalog label in German and says what input it expects', () => {
    const note = checked([action('start', 'note', {})]);
    expect(note).toEqual([
      {
        nodes: [0],
        key: 'text',
        code: 'flows.issue.required',
        text: `„${label('note', 'text')}“ ist ein Pflichtfeld.`,
      },
    ]);
    expect(label('note', 'text')).toBe('Notiz');
    // A wrong kind of value: the lead says what the input expects, valibot's words follow as detail.
    const status = checked([action('start', 'action.change.customer.status', { active: 'yes' })]);
    expect(status.map((issue) => [issue.key, issue.text])).toEqual([
      [
        'active',
        `„${label('action.change.customer.status', 'active')}“ erwartet Ja oder Nein. <span class="issue-detail">Technisches Detail: <code lang="en">active: expected true or false</code></span>`,
      ],
    ]);
    const group = checked([action('start', 'action.set.order.state', { kind: 'refund', state: 'paid' })]);
    expect(group.map((issue) => issue.text)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^„${label('action.set.order.state', 'kind')}“ erwartet eine der angebotenen Möglichkeiten\\. `,
        ),
      ),
    ]);
    const notKey = checked([action('start', 'action.add.order.tag', { tags: ['a'], colour: 'red' })]);
    expect(notKey.map((issue) => [issue.key, issue.text])).toEqual([
      ['colour', 'colour ist keine Einstellung dieser Aktion.'],
    ]);
    const both = checked([action('start', 'action.add.order.tag', { tags: ['a'], tagIds: ['b'] })]);
    expect(both.map((issue) => [issue.key, issue.text])).toEqual([
      ['tagIds', 'tagIds ist ein anderer Name für „Tags“: Geben Sie die Einstellung nur einmal an.'],
    ]);
  });

  it('says an unsupported option and a nested value in German, keeping the check’s words as marked detail', () => {
    const mail = checked([
      action('start', 'action.mail.send', { templateId: 'order_confirmation', recipients: ['a@b.c'] }),
    ]);
    expect(mail.map((issue) => [issue.key, issue.code])).toEqual([['recipients', 'flows.issue.unsupported']]);
    expect(mail[0]!.text).toBe(
      '„recipients“: Diese Option wird nicht unterstützt. <span class="issue-detail">Technisches Detail: <code lang="en">recipients is not supported: the mail goes to the order’s customer, without attachments.</code></span>',
    );
    const app = checked([
      action('start', 'app_action', {
        appId: 'crm',
        action: 'sync',
        input: { who: { $fact: 'order.nope' } },
      }),
    ]);
    expect(app.map((issue) => [issue.key, issue.code])).toEqual([['input', 'flows.issue.nested']]);
    // (the label itself quotes {"$fact": Name}, escaped in HTML)
    expect(label('app_action', 'input')).toMatch(/^Eingabe /);
    expect(app[0]!.text).toMatch(
      /^Ein Wert in „Eingabe .*“ ist ungültig\. <span class="issue-detail">Technisches Detail: <code lang="en">who: a binding is .*<\/code><\/span>$/,
    );
  });

  it('falls back to a German lead with the English detail marked lang="en" where the code cannot say more', () => {
    // A check across keys (valibot's message for the config as a whole).
    const codes = checked([action('start', 'action.add.order.affiliate.and.campaign.code', {})]);
    expect(codes.map((issue) => [issue.key, issue.text])).toEqual([
      [
        undefined,
        'Die Einstellungen dieser Aktion sind ungültig. <span class="issue-detail">Technisches Detail: <code lang="en">set affiliateCode, campaignCode or both</code></span>',
      ],
    ]);
    // A condition tree's own issue.
    const tree = checked([
      {
        id: 'start',
        kind: 'condition',
        condition: { type: 'noSuchCondition' },
        on_true: null,
        on_false: null,
      },
    ]);
    expect(tree).toHaveLength(1);
    expect(tree[0]!.text).toMatch(
      /^Die Bedingung von Knoten start ist ungültig\. <span class="issue-detail">Technisches Detail: <code lang="en">.+<\/code><\/span>$/,
    );
    // English pages say the same in English; nothing of the check's English shows outside the detail.
    expect(said(checkDraft(draftWith([action('start', 'note', {})]), german).issues[0]!, 'en')).toBe(
      '“Notiz” is required.',
    );
  });

  it('words the save’s refusals by their code and pointer, like the graph’s own issues', () => {
    const draft = draftWith([
      { id: 'start', kind: 'delay', seconds: 60, next: 'weg' },
      action('tag', 'action.add.order.tag', {}, null),
    ]);
    const single = issuesOfRefusal(
      draft,
      {
        code: 'FLOW_EDGE_MISSING',
        detail: 'The edge next of "start" names no node: "weg".',
        errors: [
          {
            pointer: '/data/pipeline/nodes/0/next',
            message: 'The edge next of "start" names no node: "weg".',
          },
        ],
        extensions: { codes: ['FLOW_EDGE_MISSING'], nodeIds: ['start'] },
      },
      german,
    );
    expect(single.map((issue) => [issue.nodes, said(issue)])).toEqual([
      [[0], '„Danach“ von Knoten start führt zu Knoten weg, den es nicht gibt.'],
    ]);
    const required = issuesOfRefusal(
      draft,
      {
        code: 'FLOW_INVALID_ACTION_CONFIG',
        detail: 'The key tags is required.',
        errors: [{ pointer: '/data/pipeline/nodes/1/config/tags', message: 'The key tags is required.' }],
        extensions: { codes: ['FLOW_INVALID_ACTION_CONFIG'], nodeIds: ['tag'] },
      },
      german,
    );
    expect(required.map((issue) => [issue.nodes, issue.key, said(issue)])).toEqual([
      [[1], 'tags', '„Tags“ ist ein Pflichtfeld.'],
    ]);
    // Two codes for two errors: which is whose is not said, so each keeps its message as detail.
    const mixed = issuesOfRefusal(
      draft,
      {
        code: 'FLOW_EDGE_MISSING',
        detail: 'x',
        errors: [
          { pointer: '/data/pipeline/nodes/0/next', message: 'edge message' },
          { pointer: '/data/pipeline/nodes/1/config/tags', message: 'tags message' },
        ],
        extensions: { codes: ['FLOW_EDGE_MISSING', 'FLOW_INVALID_ACTION_CONFIG'] },
      },
      german,
    );
    expect(mixed.map((issue) => [issue.nodes, said(issue)])).toEqual([
      [
        [0],
        'Dieser Teil des Flows wird nicht angenommen. <span class="issue-detail">Technisches Detail: <code lang="en">edge message</code></span>',
      ],
      [
        [1],
        'Dieser Teil des Flows wird nicht angenommen. <span class="issue-detail">Technisches Detail: <code lang="en">tags message</code></span>',
      ],
    ]);
  });
});
