import { ACTIONS } from '@cartwright/rules-engine';
import { describe, expect, it } from 'vitest';
import { ACTION_CONFIG_SCHEMAS, isJsonValue, isKnownAction, normalizeActionConfig } from './actions.ts';

const TAG_ACTIONS = [
  'action.add.customer.tag',
  'action.add.order.tag',
  'action.remove.customer.tag',
  'action.remove.order.tag',
];
const CODE_ACTIONS = [
  'action.add.customer.affiliate.and.campaign.code',
  'action.add.order.affiliate.and.campaign.code',
];
const CUSTOM_FIELD_ACTIONS = [
  'action.set.customer.custom.field',
  'action.set.customer.group.custom.field',
  'action.set.order.custom.field',
];

/** A valid config of every action and its canonical form. */
const HAPPY: Record<string, { given: Record<string, unknown>; canonical: Record<string, unknown> }> = {
  ...Object.fromEntries(
    TAG_ACTIONS.map((name) => [
      name,
      { given: { tagIds: [' vip ', 'vip', 'wholesale'] }, canonical: { tags: ['vip', 'wholesale'] } },
    ]),
  ),
  ...Object.fromEntries(
    CODE_ACTIONS.map((name) => [
      name,
      {
        given: { affiliateCode: ' partner-7 ', campaignCode: null },
        canonical: { affiliateCode: 'partner-7', campaignCode: null },
      },
    ]),
  ),
  ...Object.fromEntries(
    CUSTOM_FIELD_ACTIONS.map((name) => [
      name,
      {
        given: { field: ' loyalty ', value: { level: 3, perks: ['a', null, true] } },
        canonical: { field: 'loyalty', value: { level: 3, perks: ['a', null, true] } },
      },
    ]),
  ),
  'action.change.customer.group': {
    given: { customerGroupId: 'business' },
    canonical: { groupId: 'business' },
  },
  'action.change.customer.status': { given: { active: false }, canonical: { active: false } },
  'action.set.order.state': {
    given: { kind: 'payment', state: ' paid ' },
    canonical: { kind: 'payment', state: 'paid' },
  },
  'action.generate.document': { given: { kind: 'delivery_note' }, canonical: { kind: 'delivery_note' } },
  'action.grant.download.access': { given: { value: true }, canonical: { value: true } },
  'action.mail.send': {
    given: { templateId: 'order_confirmation' },
    canonical: { templateId: 'order_confirmation' },
  },
  'action.stop.flow': { given: {}, canonical: {} },
  note: { given: { text: ' Order received. ' }, canonical: { text: 'Order received.' } },
  // The older form is read as a plan with that summary and no operations.
  ai_proposal: {
    given: { instruction: 'Suggest a follow-up offer.' },
    canonical: { summary: 'Suggest a follow-up offer.', operations: [] },
  },
  app_action: {
    given: { appId: 'erp', action: 'sync-order', input: { order: { $fact: 'order.id' }, mode: 'full' } },
    canonical: { appId: 'erp', action: 'sync-order', input: { order: { $fact: 'order.id' }, mode: 'full' } },
  },
};

function issuesOf(action: string, config: unknown) {
  const result = normalizeActionConfig(action, config);
  if (result.ok) throw new Error(`expected ${action} to refuse ${JSON.stringify(config)}`);
  return result.issues.map(({ code, pointer }) => ({ code, pointer }));
}

describe('the action catalog', () => {
  it('has exactly one config schema per catalog action', () => {
    expect(Object.keys(ACTION_CONFIG_SCHEMAS).sort()).toEqual(ACTIONS.map((action) => action.name).sort());
    expect(ACTIONS).toHaveLength(19);
    for (const action of ACTIONS) expect(isKnownAction(action.name)).toBe(true);
  });

  it('reads the catalog’s config keys and no others', () => {
    for (const action of ACTIONS) {
      const schema = ACTION_CONFIG_SCHEMAS[action.name]! as unknown as {
        entries?: Record<string, unknown>;
        pipe?: readonly { entries?: Record<string, unknown> }[];
      };
      const entries = schema.entries ?? schema.pipe?.[0]?.entries;
      expect(Object.keys(entries ?? {}).sort(), action.name).toEqual(
        action.configKeys.map((key) => key.name).sort(),
      );
    }
  });

  it('knows no action outside the catalog', () => {
    expect(isKnownAction('action.custom.extension')).toBe(false);
    expect(isKnownAction('toString')).toBe(false);
    expect(issuesOf('toString', {})).toEqual([{ code: 'FLOW_UNKNOWN_ACTION', pointer: '' }]);
    expect(issuesOf('swag.extension.action', {})).toEqual([{ code: 'FLOW_UNKNOWN_ACTION', pointer: '' }]);
  });
});

describe('normalizeActionConfig happy paths', () => {
  it.each(Object.entries(HAPPY))('%s', (action, { given, canonical }) => {
    expect(normalizeActionConfig(action, given)).toEqual({ ok: true, config: canonical });
  });

  it('covers every action', () => {
    expect(Object.keys(HAPPY).sort()).toEqual(ACTIONS.map((action) => action.name).sort());
  });

  it('accepts the note text per language, as the starter flows give it', () => {
    const text = {
      en: 'Order received.',
      de: 'Bestellung eingegangen.',
      'de-CH': ' Bestellung eingegangen. ',
    };
    expect(normalizeActionConfig('note', { text })).toEqual({
      ok: true,
      config: { text: { ...text, 'de-CH': 'Bestellung eingegangen.' } },
    });
  });

  it('accepts an ai_proposal plan of the three operation kinds, trimmed, in order', () => {
    const operations = [
      {
        kind: 'intelligence.publish_pair',
        hypothesisId: '0190f0c8-0000-7000-8000-0000000000a1',
        revision: 2,
      },
      {
        kind: 'automation.save_rule',
        ruleId: '0190f0c8-0000-7000-8000-0000000000a2',
        revision: 0,
        data: { name: { en: 'Big carts' }, condition: { type: 'alwaysValid' } },
      },
      {
        kind: 'apps.record.set',
        appId: 'loyalty',
        appVersion: '1.0.0',
        appRevision: 1,
        entity: 'note',
        recordId: '0190f0c8-0000-7000-8000-0000000000a3',
        revision: 3,
        data: { body: 'Call back' },
      },
    ];
    expect(
      normalizeActionConfig('ai_proposal', {
        summary: ' Bundle tea ',
        reason: 'Bought together',
        operations,
      }),
    ).toEqual({ ok: true, config: { summary: 'Bundle tea', reason: 'Bought together', operations } });
  });
});

describe('aliases and tags', () => {
  it('resolves tagIds to tags and groupId keeps its own name', () => {
    expect(normalizeActionConfig('action.add.order.tag', { tags: ['a'] })).toEqual({
      ok: true,
      config: { tags: ['a'] },
    });
    expect(normalizeActionConfig('action.change.customer.group', { groupId: 'consumer' })).toEqual({
      ok: true,
      config: { groupId: 'consumer' },
    });
  });

  it('refuses a key given together with its alias', () => {
    expect(issuesOf('action.add.order.tag', { tags: ['a'], tagIds: ['b'] })).toEqual([
      { code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/tagIds' },
    ]);
    expect(
      issuesOf('action.change.customer.group', { groupId: 'consumer', customerGroupId: 'business' }),
    ).toEqual([{ code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/customerGroupId' }]);
  });

  it('trims, drops duplicates in order, and refuses empty tags and empty lists', () => {
    expect(normalizeActionConfig('action.add.customer.tag', { tags: ['b', ' a', 'b ', 'a', 'c'] })).toEqual({
      ok: true,
      config: { tags: ['b', 'a', 'c'] },
    });
    expect(issuesOf('action.add.customer.tag', { tagIds: ['ok', '  ', 3] })).toEqual([
      { code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/tagIds/1' },
      { code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/tagIds/2' },
    ]);
    expect(issuesOf('action.add.customer.tag', { tags: [] })).toEqual([
      { code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/tags' },
    ]);
    expect(issuesOf('action.add.customer.tag', {})).toEqual([
      { code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/tags' },
    ]);
    // The reference's map form {tagId: tagName} is not the native list.
    expect(issuesOf('action.add.customer.tag', { tagIds: { a: 'A' } })).toEqual([
      { code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/tagIds' },
    ]);
  });
});

describe('unsupported options', () => {
  it.each([
    ['action.set.order.state', { kind: 'order', state: 'done', force_transition: true }, '/force_transition'],
    ['action.set.order.state', { kind: 'order', state: 'done', forceTransition: false }, '/forceTransition'],
    ['action.set.order.state', { kind: 'order', state: ['done', 'cancelled'] }, '/state'],
    [
      'action.change.customer.group',
      { customerGroupId: '01900000-0000-7000-8000-000000000002' },
      '/customerGroupId',
    ],
    ['action.change.customer.group', { groupId: 'wholesale' }, '/groupId'],
    ['action.generate.document', { kind: 'invoice', renderer: 'fancy' }, '/renderer'],
    ['action.generate.document', { kind: 'invoice', documentRenderer: 'fancy' }, '/documentRenderer'],
    ['action.generate.document', { kind: 'credit_note' }, '/kind'],
    ['action.mail.send', { templateId: 'newsletter' }, '/templateId'],
    ['action.mail.send', { templateId: 'order_confirmation', recipient: 'a@b.example' }, '/recipient'],
    ['action.mail.send', { templateId: 'order_confirmation', attachments: ['invoice'] }, '/attachments'],
  ])('%s refuses %j as unsupported', (action, config, pointer) => {
    expect(issuesOf(action, config)).toEqual([{ code: 'FLOW_UNSUPPORTED_OPTION', pointer }]);
  });

  it('reports unsupported options next to plain mistakes', () => {
    expect(
      issuesOf('action.set.order.state', { kind: 'shipment', state: ['a'], force_transition: 1 }),
    ).toEqual([
      { code: 'FLOW_UNSUPPORTED_OPTION', pointer: '/force_transition' },
      { code: 'FLOW_UNSUPPORTED_OPTION', pointer: '/state' },
      { code: 'FLOW_INVALID_ACTION_CONFIG', pointer: '/kind' },
    ]);
  });
});

describe('invalid configs', () => {
  it.each([
    ['note', null, ''],
    ['note', ['text'], ''],
    ['note', { text: '' }, '/text'],
    ['note', { text: 'x'.repeat(2001) }, '/text'],
    ['note', { text: {} }, '/text'],
    ['note', { text: 'ok', extra: 1 }, '/extra'],
    ['ai_proposal', { instruction: '   ' }, '/instruction'],
    ['ai_proposal', { instruction: 'x'.repeat(2001) }, '/instruction'],
    ['ai_proposal', { instruction: 'Old', summary: 'New', operations: [] }, ''],
    ['ai_proposal', { operations: [] }, ''],
    ['ai_proposal', { summary: 'S', operations: [{ kind: 'orders.delete', id: 'x' }] }, '/operations/0/kind'],
    [
      'ai_proposal',
      {
        summary: 'S',
        operations: [{ kind: 'automation.save_rule', ruleId: 'no-uuid', revision: 0, data: {} }],
      },
      '/operations/0/ruleId',
    ],
    [
      'ai_proposal',
      {
        summary: 'S',
        operations: [
          {
            kind: 'apps.record.set',
            appId: 'loyalty',
            appVersion: '1.0.0',
            appRevision: 1,
            entity: 'note',
            recordId: '0190f0c8-0000-7000-8000-0000000000a1',
            revision: 0,
            data: { body: 'x' },
          },
        ],
      },
      '/operations/0/revision',
    ],
    ['app_action', { appId: 'erp' }, '/action'],
    ['app_action', { appId: '', action: 'x' }, '/appId'],
    ['app_action', { appId: 'erp', action: 'x', input: { id: { $fact: 'order.secret' } } }, '/input/id'],
    ['app_action', { appId: 'erp', action: 'x', input: { id: { $fact: 'order.id', x: 1 } } }, '/input/id'],
    ['app_action', { appId: 'erp', action: 'x', input: [] }, '/input'],
    ['action.stop.flow', { reason: 'done' }, '/reason'],
    ['action.change.customer.status', { active: 'yes' }, '/active'],
    ['action.grant.download.access', { value: 1 }, '/value'],
    ['action.change.customer.group', { groupId: 2 }, '/groupId'],
    ['action.set.order.state', { kind: 'order', state: '' }, '/state'],
    ['action.set.order.state', { kind: 'invoice', state: 'open' }, '/kind'],
    ['action.generate.document', { kind: 7 }, '/kind'],
    ['action.generate.document', {}, '/kind'],
    ['action.mail.send', { mailTemplateId: 'order_confirmation' }, '/templateId'],
    ['action.set.order.custom.field', { field: 'x' }, '/value'],
    ['action.set.order.custom.field', { field: '', value: 1 }, '/field'],
    ['action.set.order.custom.field', { field: 'x', value: Number.NaN }, '/value'],
    ['action.set.order.custom.field', { field: 'x', value: 1, option: 'upsert' }, '/option'],
    ['action.add.order.affiliate.and.campaign.code', {}, ''],
    [
      'action.add.order.affiliate.and.campaign.code',
      { affiliateCode: { value: 'x', upsert: true } },
      '/affiliateCode',
    ],
    ['action.add.order.affiliate.and.campaign.code', { campaignCode: ' ' }, '/campaignCode'],
  ])('%s refuses %j', (action, config, pointer) => {
    const issues = issuesOf(action, config);
    expect(issues.every((issue) => issue.code === 'FLOW_INVALID_ACTION_CONFIG')).toBe(true);
    expect(issues.map((issue) => issue.pointer)).toContain(pointer);
  });

  it('clears a code with null', () => {
    expect(
      normalizeActionConfig('action.add.customer.affiliate.and.campaign.code', { campaignCode: null }),
    ).toEqual({ ok: true, config: { campaignCode: null } });
  });

  it('accepts any JSON custom field value, null included, and nothing else', () => {
    for (const value of [null, 0, 'x', false, [], {}, [[{ a: [1] }]]]) {
      expect(normalizeActionConfig('action.set.order.custom.field', { field: 'f', value }).ok).toBe(true);
    }
    let deep: unknown = 1;
    for (let level = 0; level < 100; level += 1) deep = [deep];
    expect(isJsonValue(deep)).toBe(false);
    expect(isJsonValue(new Date(0))).toBe(false);
    expect(isJsonValue({ a: undefined })).toBe(false);
    expect(isJsonValue(Number.POSITIVE_INFINITY)).toBe(false);
  });
});
