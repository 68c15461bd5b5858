import { describe, expect, it } from 'vitest';
import { type Edit, edited, loyaltyManifest } from '../test/examples.ts';
import { DIFF_CODES, type DiffCode, diffManifests } from './diff.ts';
import { parseManifest } from './parse.ts';
import type { Manifest } from './schema.ts';

// Indexes as in parse.test.ts: entities 0 note (0 customer_id, 1 body, 2 tier, 3 points,
// 4 follow_up_on), 1 faq; actions 7 score, 8 digest; webhooks 0 crm_note.

function manifest(edits: readonly Edit[] = []): Manifest {
  const result = parseManifest(edited(loyaltyManifest(), edits));
  if (!result.ok) throw new Error(`the test's manifest is invalid: ${JSON.stringify(result.issues)}`);
  return result.value;
}

const bump: Edit = ['set', '/version', '1.1.0'];
const faqFields = (loyaltyManifest().entities as { fields: unknown[] }[])[1]!.fields;
const field = (name: string, type: string, extra: Record<string, unknown> = {}) => ({ name, type, ...extra });

interface Case {
  readonly name: string;
  readonly edits: readonly Edit[];
  readonly reasons: readonly `${DiffCode} ${string}`[];
}

const refused: readonly Case[] = [
  { name: 'a downgrade', edits: [['set', '/version', '0.9.0']], reasons: ['VERSION_DOWNGRADE /version'] },
  {
    name: 'a pre-release of the installed version',
    edits: [['set', '/version', '1.0.0-rc.1']],
    reasons: ['VERSION_DOWNGRADE /version'],
  },
  {
    name: 'the same version with other content',
    edits: [['set', '/name/en', 'Loyalty']],
    reasons: ['VERSION_NOT_GREATER /version'],
  },
  {
    name: 'a removed entity (with its actions and blocks)',
    edits: [bump, ['remove', '/actions/6'], ['remove', '/actions/5'], ['remove', '/entities/1']],
    reasons: ['ENTITY_REMOVED /entities', 'ACTION_REMOVED /actions', 'ACTION_REMOVED /actions'],
  },
  {
    name: 'a removed field',
    edits: [bump, ['remove', '/entities/0/fields/4'], ['remove', '/blocks/0/fields/2']],
    reasons: ['FIELD_REMOVED /entities/0/fields'],
  },
  {
    name: 'a changed type, core reference and reference target',
    edits: [
      bump,
      ['set', '/entities/0/fields/3/type', 'number'],
      ['set', '/entities/0/fields/0/coreReference', 'order'],
      ['set', '/permissions/1', 'orders.read'],
      ['set', '/entities/1/fields/3', field('related', 'reference', { entity: 'faq' })],
      ['set', '/blocks', []],
    ],
    reasons: [
      'FIELD_TYPE_CHANGED /entities/0/fields/0/coreReference',
      'FIELD_TYPE_CHANGED /entities/0/fields/3/type',
    ],
  },
  {
    name: 'a field that became required, a new required field',
    edits: [
      bump,
      ['set', '/entities/0/fields/3/required', true],
      ['set', '/entities/1/fields/3', field('category', 'string', { required: true })],
    ],
    reasons: ['FIELD_REQUIRED /entities/0/fields/3/required', 'FIELD_REQUIRED /entities/1/fields/3/required'],
  },
  {
    name: 'narrowed choices, length, range and index',
    edits: [
      bump,
      ['remove', '/entities/0/fields/2/choices/0'],
      ['set', '/entities/0/fields/1/maxLength', 1000],
      ['set', '/entities/0/fields/3/max', 999],
      ['set', '/entities/1/fields/2/min', 1],
      ['set', '/entities/1/fields/2/indexable', false],
    ],
    reasons: [
      'FIELD_NARROWED /entities/0/fields/1/maxLength',
      'FIELD_NARROWED /entities/0/fields/2/choices',
      'FIELD_NARROWED /entities/0/fields/3/max',
      'FIELD_NARROWED /entities/1/fields/2/min',
      'FIELD_NARROWED /entities/1/fields/2/indexable',
    ],
  },
  {
    name: 'a removed action (and what named it)',
    edits: [bump, ['remove', '/actions/1']],
    reasons: ['ACTION_REMOVED /actions'],
  },
  {
    name: 'a changed action kind and entity',
    edits: [
      bump,
      ['set', '/actions/1/kind', 'list'],
      ['set', '/actions/5/entity', 'note'],
      ['set', '/actions/5/public', false],
    ],
    reasons: ['ACTION_CHANGED /actions/1/kind', 'ACTION_CHANGED /actions/5/entity'],
  },
  {
    name: 'an event no longer emitted',
    edits: [bump, ['set', '/actions/2/emits', false], ['set', '/webhooks', []]],
    reasons: ['EVENT_REMOVED /actions/2/emits', 'WEBHOOK_REMOVED /webhooks'],
  },
  {
    name: 'service input: removed, retyped, required, narrowed',
    edits: [
      bump,
      ['remove', '/actions/7/input/2'],
      ['set', '/actions/7/input/1/max', 10],
      ['set', '/actions/7/input/2', field('since', 'date', { required: true })],
      ['set', '/actions/8/input/0', field('days', 'string', { required: true })],
      ['remove', '/schedules/0'],
    ],
    reasons: [
      'FIELD_NARROWED /actions/7/input/1/max',
      'FIELD_REMOVED /actions/7/input',
      'FIELD_REQUIRED /actions/7/input/2/required',
      'FIELD_TYPE_CHANGED /actions/8/input/0/type',
    ],
  },
  {
    name: 'service output: removed, no longer always answered',
    edits: [bump, ['remove', '/actions/7/output/1'], ['set', '/actions/7/output/0/required', false]],
    reasons: ['FIELD_OPTIONAL /actions/7/output/0/required', 'FIELD_REMOVED /actions/7/output'],
  },
  {
    name: 'a webhook that starts another action',
    edits: [bump, ['set', '/actions/6/emits', true], ['set', '/webhooks/0/action', 'add_faq']],
    reasons: ['WEBHOOK_CHANGED /webhooks/0/action'],
  },
];

const allowed: readonly { name: string; edits: readonly Edit[] }[] = [
  {
    name: 'a patch with new labels',
    edits: [
      ['set', '/version', '1.0.1'],
      ['set', '/name/en', 'Loyalty'],
    ],
  },
  {
    name: 'new nullable fields, entities and actions',
    edits: [
      bump,
      ['set', '/entities/0/fields/5', field('source', 'string')],
      ['set', '/entities/2', { id: 'reward', fields: [field('title', 'string', { required: true })] }],
      ['set', '/actions/9', { id: 'list_rewards', kind: 'list', entity: 'reward' }],
    ],
  },
  {
    name: 'widened choices, length, range; a new index; relaxed required',
    edits: [
      bump,
      ['set', '/entities/0/fields/2/choices/3', { value: 'platinum', label: { en: 'Platinum' } }],
      ['set', '/entities/0/fields/1/maxLength', 3000],
      ['remove', '/entities/0/fields/3/max'],
      ['set', '/entities/0/fields/4/indexable', true],
      ['set', '/entities/1/fields/1/required', false],
    ],
  },
  {
    name: 'service output that grows: new required field, new choice, narrower range',
    edits: [
      bump,
      ['set', '/actions/7/output/2', field('explanation', 'text', { required: true })],
      ['set', '/actions/7/output/1/choices/3', { value: 'platinum', label: { en: 'Platinum' } }],
      ['set', '/actions/7/output/0/max', 10],
    ],
  },
  {
    name: 'access settings, blocks, schedules, permissions and runtime',
    edits: [
      bump,
      ['set', '/actions/0/mcp', false],
      ['set', '/actions/5/public', false],
      ['set', '/entities/1/publicRead', false],
      ['set', '/intelligence/tools', []],
      ['set', '/blocks', []],
      ['set', '/schedules', []],
      ['set', '/permissions/1', 'orders.read'],
      ['remove', '/actions/7/export'],
      ['set', '/actions/7/runtime', 'external'],
    ],
  },
  { name: 'reordered fields', edits: [bump, ['set', '/entities/1/fields', [...faqFields].reverse()]] },
  { name: 'a changed admin panel', edits: [bump, ['set', '/admin/panels/0/html', '<p>New</p>']] },
  { name: 'removed admin panels', edits: [bump, ['remove', '/admin']] },
];

const summary = (reasons: readonly { code: string; pointer: string }[]) =>
  reasons.map((r) => `${r.code} ${r.pointer}`);

describe('diffManifests', () => {
  const installed = manifest();

  it.each(refused)('refuses $name', ({ edits, reasons }) => {
    const diff = diffManifests(installed, manifest(edits));
    expect(summary(diff.reasons)).toEqual(reasons);
    expect(diff).toMatchObject({ compatible: false, unchanged: false });
  });

  it.each(allowed)('allows $name', ({ edits }) => {
    expect(diffManifests(installed, manifest(edits))).toEqual({
      compatible: true,
      unchanged: false,
      reasons: [],
    });
  });

  it('has a case for every reason', () => {
    const covered = new Set([
      ...refused.flatMap((row) => row.reasons.map((reason) => reason.split(' ')[0])),
      'APP_ID_CHANGED',
    ]);
    expect(DIFF_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });

  it('answers the same version with the same content as unchanged', () => {
    expect(diffManifests(installed, manifest())).toEqual({ compatible: true, unchanged: true, reasons: [] });
  });

  it('compares another app not at all', () => {
    const other = manifest([
      ['set', '/id', 'points'],
      ['set', '/version', '0.1.0'],
    ]);
    expect(diffManifests(installed, other)).toEqual({
      compatible: false,
      unchanged: false,
      reasons: [
        {
          code: 'APP_ID_CHANGED',
          pointer: '/id',
          message: 'this is app "points", not the installed "loyalty"',
        },
      ],
    });
  });

  it('refuses a changed panel under the same version, and compares a manifest stored before panels', () => {
    const sameVersion = diffManifests(installed, manifest([['set', '/admin/panels/0/style', 'p{}']]));
    expect(summary(sameVersion.reasons)).toEqual(['VERSION_NOT_GREATER /version']);
    const beforePanels = manifest([['remove', '/admin']]);
    expect(diffManifests(beforePanels, manifest([['remove', '/admin']])).unchanged).toBe(true);
    expect(diffManifests(beforePanels, manifest([bump])).compatible).toBe(true);
  });

  it('counts a bound added where there was none as narrowing', () => {
    const unbounded = manifest([['remove', '/entities/0/fields/3/max']]);
    const diff = diffManifests(unbounded, manifest([bump]));
    expect(summary(diff.reasons)).toEqual(['FIELD_NARROWED /entities/0/fields/3/max']);
    expect(diff.reasons[0]!.message).toBe('"points": max 1000000 added');
  });

  it('lists every reason at once, downgrade included', () => {
    const diff = diffManifests(
      installed,
      manifest([
        ['set', '/version', '0.1.0'],
        ['remove', '/entities/0/fields/4'],
        ['remove', '/blocks/0/fields/2'],
      ]),
    );
    expect(summary(diff.reasons)).toEqual(['VERSION_DOWNGRADE /version', 'FIELD_REMOVED /entities/0/fields']);
    expect(diff.reasons[1]!.message).toBe('field "follow_up_on" was removed');
  });
});
