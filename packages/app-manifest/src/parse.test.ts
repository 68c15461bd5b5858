import { describe, expect, it } from 'vitest';
import { type Edit, edited, loyaltyManifest } from '../test/examples.ts';
import { MANIFEST_ISSUE_CODES, type ManifestIssueCode } from './issues.ts';
import { parseManifest } from './parse.ts';

// Indexes into examples/apps/loyalty/manifest.json, which every case edits.
// entities: 0 note (0 customer_id, 1 body, 2 tier, 3 points, 4 follow_up_on), 1 faq (0 question,
// 1 answer, 2 position); actions: 0 list, 1 get_note, 2 add_note, 3 update_note,
// 4 delete_note, 5 list_faq, 6 add_faq, 7 score, 8 digest; blocks: 0 customer_notes (table),
// 1 new_note (form), 2 customer_score (action); schedules: 0 weekly_digest; webhooks: 0 crm_note;
// admin.panels: 0 questions (html, script, style).

interface Case {
  readonly name: string;
  readonly edits: readonly Edit[];
  /** Every issue expected, in order, as `CODE pointer`. */
  readonly issues: readonly `${ManifestIssueCode} ${string}`[];
}

const text = (length: number) => 'x'.repeat(length);
const field = (name: string, type: string, extra: Record<string, unknown> = {}) => ({ name, type, ...extra });
const panel = (id: string) => ({ id, label: { en: id }, html: `<p>${id}</p>` });

const refusals: readonly Case[] = [
  // MANIFEST_INVALID: the schema (shape, types, bounds, unknown and missing keys)
  { name: 'an unknown top-level key', edits: [['set', '/extra', 1]], issues: ['MANIFEST_INVALID /extra'] },
  {
    name: 'another API version',
    edits: [['set', '/apiVersion', 2]],
    issues: ['MANIFEST_INVALID /apiVersion'],
  },
  { name: 'an app id with capitals', edits: [['set', '/id', 'Loyalty']], issues: ['MANIFEST_INVALID /id'] },
  { name: 'an app id of 41 characters', edits: [['set', '/id', text(41)]], issues: ['MANIFEST_INVALID /id'] },
  { name: 'a two-part version', edits: [['set', '/version', '1.0']], issues: ['MANIFEST_INVALID /version'] },
  {
    name: 'a version with build metadata',
    edits: [['set', '/version', '1.0.0+build.1']],
    issues: ['MANIFEST_INVALID /version'],
  },
  {
    name: 'a version with a leading zero',
    edits: [['set', '/version', '1.01.0']],
    issues: ['MANIFEST_INVALID /version'],
  },
  { name: 'no name', edits: [['remove', '/name']], issues: ['MANIFEST_INVALID /name'] },
  {
    name: 'a name without English',
    edits: [['set', '/name', { de: 'Treue' }]],
    issues: ['MANIFEST_INVALID /name/en'],
  },
  {
    name: 'a name of 101 characters',
    edits: [['set', '/name/fr', text(101)]],
    issues: ['MANIFEST_INVALID /name/fr'],
  },
  {
    name: 'a label in Italian',
    edits: [['set', '/name/it', 'Fedeltà']],
    issues: ['MANIFEST_INVALID /name/it'],
  },
  {
    name: 'an unknown key on a field',
    edits: [['set', '/entities/0/fields/3/colour', 'red']],
    issues: ['MANIFEST_INVALID /entities/0/fields/3/colour'],
  },
  {
    name: 'an unknown field type',
    edits: [['set', '/entities/0/fields/3/type', 'json']],
    issues: ['MANIFEST_INVALID /entities/0/fields/3/type'],
  },
  {
    name: 'a string longer than 1000 characters',
    edits: [['set', '/entities/0/fields/0/maxLength', 1001]],
    issues: ['MANIFEST_INVALID /entities/0/fields/0/maxLength'],
  },
  {
    name: 'an indexable text',
    edits: [['set', '/entities/0/fields/1/indexable', true]],
    issues: ['MANIFEST_INVALID /entities/0/fields/1/indexable'],
  },
  {
    name: 'indexable in a service input',
    edits: [['set', '/actions/7/input/1/indexable', true]],
    issues: ['MANIFEST_INVALID /actions/7/input/1/indexable'],
  },
  {
    name: 'a core reference on an integer',
    edits: [['set', '/entities/0/fields/3/coreReference', 'customer']],
    issues: ['MANIFEST_INVALID /entities/0/fields/3/coreReference'],
  },
  {
    name: 'a core reference to a cart',
    edits: [['set', '/entities/0/fields/0/coreReference', 'cart']],
    issues: ['MANIFEST_INVALID /entities/0/fields/0/coreReference'],
  },
  {
    name: 'min above max',
    edits: [
      ['set', '/entities/0/fields/3/min', 10],
      ['set', '/entities/0/fields/3/max', 5],
    ],
    issues: ['MANIFEST_INVALID /entities/0/fields/3/max'],
  },
  {
    name: 'a choice field without choices',
    edits: [['set', '/entities/0/fields/2/choices', []]],
    issues: ['MANIFEST_INVALID /entities/0/fields/2/choices'],
  },
  {
    name: 'an entity without fields',
    edits: [['set', '/entities/1/fields', []]],
    issues: ['MANIFEST_INVALID /entities/1/fields'],
  },
  {
    name: 'a list of lists',
    edits: [['set', '/entities/1/fields/3', field('tags', 'list', { items: { type: 'list' } })]],
    issues: ['MANIFEST_INVALID /entities/1/fields/3/items/type'],
  },
  {
    name: 'a module action without its export',
    edits: [['remove', '/actions/7/export']],
    issues: ['MANIFEST_INVALID /actions/7/export'],
  },
  {
    name: 'an export on an external action',
    edits: [['set', '/actions/8/runtime', 'external']],
    issues: ['MANIFEST_INVALID /actions/8/export'],
  },
  {
    name: 'a declared input on a list action',
    edits: [['set', '/actions/0/input', []]],
    issues: ['MANIFEST_INVALID /actions/0/input'],
  },
  {
    name: 'an unknown action kind',
    edits: [['set', '/actions/1/kind', 'search']],
    issues: ['MANIFEST_INVALID /actions/1/kind'],
  },
  {
    name: 'a fifth block kind',
    edits: [['set', '/blocks/0/kind', 'chart']],
    issues: ['MANIFEST_INVALID /blocks/0/kind'],
  },
  {
    name: 'fields on an action block',
    edits: [['set', '/blocks/2/fields', ['customer_id']]],
    issues: ['MANIFEST_INVALID /blocks/2/fields'],
  },
  {
    name: 'an unknown mount',
    edits: [['set', '/blocks/0/mount', 'admin.cart']],
    issues: ['MANIFEST_INVALID /blocks/0/mount'],
  },
  {
    name: 'an unknown context key',
    edits: [['set', '/blocks/0/contextBinding/key', 'cartId']],
    issues: ['MANIFEST_INVALID /blocks/0/contextBinding/key'],
  },
  {
    name: 'nine schedules',
    edits: [
      [
        'set',
        '/schedules',
        Array.from({ length: 9 }, (_, index) => ({
          id: `s${index}`,
          cron: '0 0 6 * * 1',
          action: 'digest',
          input: { days: 7 },
        })),
      ],
    ],
    issues: ['MANIFEST_INVALID /schedules'],
  },
  {
    name: 'an unknown permission',
    edits: [['set', '/permissions/1', 'orders.write']],
    issues: ['MANIFEST_INVALID /permissions/1'],
  },

  // MANIFEST_DUPLICATE_ID
  {
    name: 'an entity declared twice',
    edits: [['set', '/entities/2', { id: 'faq', fields: [field('question', 'string')] }]],
    issues: ['MANIFEST_DUPLICATE_ID /entities/2/id'],
  },
  {
    name: 'a field declared twice',
    edits: [['set', '/entities/1/fields/3', field('question', 'text')]],
    issues: ['MANIFEST_DUPLICATE_ID /entities/1/fields/3/name'],
  },
  {
    name: 'an action declared twice',
    edits: [['set', '/actions/9', { id: 'score', kind: 'get', entity: 'note' }]],
    issues: ['MANIFEST_DUPLICATE_ID /actions/9/id'],
  },
  {
    name: 'a choice value twice',
    edits: [['set', '/entities/0/fields/2/choices/3', { value: 'gold', label: { en: 'Gold again' } }]],
    issues: ['MANIFEST_DUPLICATE_ID /entities/0/fields/2/choices/3/value'],
  },
  {
    name: 'a block declared twice, a block field twice',
    edits: [
      ['set', '/blocks/3', { id: 'new_note', kind: 'card', mount: 'admin.customer', action: 'list' }],
      ['set', '/blocks/0/fields/3', 'tier'],
    ],
    issues: ['MANIFEST_DUPLICATE_ID /blocks/3/id', 'MANIFEST_DUPLICATE_ID /blocks/0/fields/3'],
  },
  {
    name: 'a schedule, webhook, permission and tool twice',
    edits: [
      [
        'set',
        '/schedules/1',
        { id: 'weekly_digest', cron: '0 0 7 * * 1', action: 'digest', input: { days: 1 } },
      ],
      ['set', '/webhooks/1', { id: 'crm_note', action: 'add_note' }],
      ['set', '/permissions/1', 'customers.read'],
      ['set', '/intelligence/tools/2', 'score'],
    ],
    issues: [
      'MANIFEST_DUPLICATE_ID /permissions/1',
      'MANIFEST_DUPLICATE_ID /intelligence/tools/2',
      'MANIFEST_DUPLICATE_ID /schedules/1/id',
      'MANIFEST_DUPLICATE_ID /webhooks/1/id',
    ],
  },

  // MANIFEST_RESERVED_NAME
  {
    name: 'entity fields named as the service’s columns',
    edits: [
      ['set', '/entities/1/fields/3', field('id', 'string')],
      ['set', '/entities/1/fields/4', field('updated_at', 'datetime')],
    ],
    issues: [
      'MANIFEST_RESERVED_NAME /entities/1/fields/3/name',
      'MANIFEST_RESERVED_NAME /entities/1/fields/4/name',
    ],
  },

  // MANIFEST_UNKNOWN_REFERENCE
  {
    name: 'an action of an unknown entity',
    edits: [['set', '/actions/1/entity', 'notes']],
    issues: ['MANIFEST_UNKNOWN_REFERENCE /actions/1/entity'],
  },
  {
    name: 'a reference to an unknown entity, in a field and in list items',
    edits: [
      ['set', '/entities/1/fields/3', field('related', 'reference', { entity: 'article' })],
      [
        'set',
        '/actions/8/output/1',
        field('notes', 'list', { items: { type: 'reference', entity: 'notes' } }),
      ],
    ],
    issues: [
      'MANIFEST_UNKNOWN_REFERENCE /entities/1/fields/3/entity',
      'MANIFEST_UNKNOWN_REFERENCE /actions/8/output/1/items/entity',
    ],
  },
  {
    name: 'a block of an unknown action',
    edits: [['set', '/blocks/0/action', 'list_all']],
    issues: ['MANIFEST_UNKNOWN_REFERENCE /blocks/0/action'],
  },
  {
    name: 'a block column the entity lacks',
    edits: [['set', '/blocks/0/fields/1', 'level']],
    issues: ['MANIFEST_UNKNOWN_REFERENCE /blocks/0/fields/1'],
  },
  {
    name: 'a binding to a field the entity lacks',
    edits: [['set', '/blocks/1/contextBinding/field', 'client_id']],
    issues: ['MANIFEST_UNKNOWN_REFERENCE /blocks/1/contextBinding/field'],
  },
  {
    name: 'a binding to a field the service input lacks',
    edits: [['set', '/blocks/2/contextBinding/field', 'client_id']],
    issues: ['MANIFEST_UNKNOWN_REFERENCE /blocks/2/contextBinding/field'],
  },
  {
    name: 'a tool that is no action',
    edits: [['set', '/intelligence/tools/1', 'forecast']],
    issues: ['MANIFEST_UNKNOWN_REFERENCE /intelligence/tools/1'],
  },
  {
    name: 'a schedule and a webhook of unknown actions',
    edits: [
      ['set', '/schedules/0/action', 'remind'],
      ['set', '/webhooks/0/action', 'import_note'],
    ],
    issues: [
      'MANIFEST_UNKNOWN_REFERENCE /schedules/0/action',
      'MANIFEST_UNKNOWN_REFERENCE /webhooks/0/action',
    ],
  },

  // MANIFEST_SECRET_FIELD
  {
    name: 'credential-like names in an entity, an input and an output',
    edits: [
      ['set', '/entities/0/fields/5', field('api_key', 'string')],
      ['set', '/actions/7/input/3', field('webhook_secret', 'string')],
      ['set', '/actions/7/output/2', field('access_token', 'string')],
    ],
    issues: [
      'MANIFEST_SECRET_FIELD /entities/0/fields/5/name',
      'MANIFEST_SECRET_FIELD /actions/7/input/3/name',
      'MANIFEST_SECRET_FIELD /actions/7/output/2/name',
    ],
  },
  {
    name: 'an entity named for credentials',
    edits: [['set', '/entities/2', { id: 'stored_credentials', fields: [field('value', 'string')] }]],
    issues: ['MANIFEST_SECRET_FIELD /entities/2/id'],
  },

  // MANIFEST_CORE_REFERENCE_FIELD and MANIFEST_PERMISSION_MISSING
  {
    name: 'an optional, unindexed order reference without orders.read',
    edits: [['set', '/entities/0/fields/5', field('order_id', 'string', { coreReference: 'order' })]],
    issues: [
      'MANIFEST_CORE_REFERENCE_FIELD /entities/0/fields/5/coreReference',
      'MANIFEST_PERMISSION_MISSING /entities/0/fields/5/coreReference',
    ],
  },
  {
    name: 'an optional, unindexed order reference with orders.read',
    edits: [
      ['set', '/entities/0/fields/5', field('order_id', 'string', { coreReference: 'order' })],
      ['set', '/permissions/1', 'orders.read'],
    ],
    issues: ['MANIFEST_CORE_REFERENCE_FIELD /entities/0/fields/5/coreReference'],
  },
  {
    name: 'customer references and customer mounts without customers.read',
    edits: [['set', '/permissions', []]],
    issues: [
      'MANIFEST_PERMISSION_MISSING /entities/0/fields/0/coreReference',
      'MANIFEST_PERMISSION_MISSING /actions/7/input/0/coreReference',
      'MANIFEST_PERMISSION_MISSING /blocks/0/mount',
      'MANIFEST_PERMISSION_MISSING /blocks/1/mount',
      'MANIFEST_PERMISSION_MISSING /blocks/2/mount',
    ],
  },

  {
    name: 'a core reference too short for an id',
    edits: [['set', '/entities/0/fields/0/maxLength', 35]],
    issues: ['MANIFEST_CORE_REFERENCE_FIELD /entities/0/fields/0/maxLength'],
  },

  // MANIFEST_PUBLIC_REFERENCE
  {
    name: 'a customer reference in a publicRead entity',
    edits: [
      [
        'set',
        '/entities/1/fields/3',
        field('customer_id', 'string', { coreReference: 'customer', indexable: true }),
      ],
    ],
    issues: ['MANIFEST_PUBLIC_REFERENCE /entities/1/fields/3/coreReference'],
  },
  {
    name: 'a public service action taking a customer id',
    edits: [['set', '/actions/7/public', true]],
    issues: ['MANIFEST_PUBLIC_REFERENCE /actions/7/input/0/coreReference'],
  },

  // MANIFEST_PUBLIC_ACTION
  {
    name: 'a public list of private data',
    edits: [['set', '/actions/0/public', true]],
    issues: ['MANIFEST_PUBLIC_ACTION /actions/0/public'],
  },
  {
    name: 'public writes, even to publicRead data',
    edits: [
      ['set', '/actions/6/public', true],
      ['set', '/actions/4/public', true],
    ],
    issues: ['MANIFEST_PUBLIC_ACTION /actions/4/public', 'MANIFEST_PUBLIC_ACTION /actions/6/public'],
  },

  // MANIFEST_EMITS_NOT_ALLOWED
  {
    name: 'a list or get that emits',
    edits: [
      ['set', '/actions/0/emits', true],
      ['set', '/actions/1/emits', true],
    ],
    issues: ['MANIFEST_EMITS_NOT_ALLOWED /actions/0/emits', 'MANIFEST_EMITS_NOT_ALLOWED /actions/1/emits'],
  },

  // MANIFEST_ACTION_KIND
  {
    name: 'a table of a create action, an action block of a list',
    edits: [
      ['set', '/blocks/0/action', 'add_note'],
      ['set', '/blocks/2/action', 'list'],
    ],
    issues: ['MANIFEST_ACTION_KIND /blocks/0/action', 'MANIFEST_ACTION_KIND /blocks/2/action'],
  },
  {
    name: 'a form of a delete action',
    edits: [['set', '/blocks/1/action', 'delete_note']],
    issues: ['MANIFEST_ACTION_KIND /blocks/1/action'],
  },
  {
    name: 'a schedule of a list, a webhook of an update',
    edits: [
      ['set', '/schedules/0/action', 'list'],
      ['set', '/webhooks/0/action', 'update_note'],
    ],
    issues: ['MANIFEST_ACTION_KIND /schedules/0/action', 'MANIFEST_ACTION_KIND /webhooks/0/action'],
  },

  // MANIFEST_ACTION_NOT_EMITTING
  {
    name: 'a schedule and a webhook of actions that do not emit',
    edits: [
      ['set', '/actions/8/emits', false],
      ['set', '/webhooks/0/action', 'add_faq'],
    ],
    issues: [
      'MANIFEST_ACTION_NOT_EMITTING /schedules/0/action',
      'MANIFEST_ACTION_NOT_EMITTING /webhooks/0/action',
    ],
  },

  // MANIFEST_BINDING_MISMATCH
  {
    name: 'a key the mount does not hand out (and a field that holds another object)',
    edits: [['set', '/blocks/0/contextBinding/key', 'orderId']],
    issues: [
      'MANIFEST_BINDING_MISMATCH /blocks/0/contextBinding/key',
      'MANIFEST_BINDING_MISMATCH /blocks/0/contextBinding/field',
    ],
  },
  {
    name: 'a customer binding on a product mount',
    edits: [
      ['set', '/blocks/0/mount', 'admin.product.tab'],
      ['set', '/permissions/1', 'catalog.read'],
    ],
    issues: ['MANIFEST_BINDING_MISMATCH /blocks/0/contextBinding/key'],
  },
  {
    name: 'a binding to a field without a core reference',
    edits: [['set', '/blocks/1/contextBinding/field', 'body']],
    issues: ['MANIFEST_BINDING_MISMATCH /blocks/1/contextBinding/field'],
  },
  {
    name: 'a table bound to a field it cannot filter by (a form may)',
    edits: [['set', '/entities/0/fields/0/indexable', false]],
    issues: ['MANIFEST_BINDING_MISMATCH /blocks/0/contextBinding/field'],
  },

  // MANIFEST_FORM_INCOMPLETE
  {
    name: 'a create form that leaves a required field out',
    edits: [['set', '/blocks/1/fields', ['tier', 'points']]],
    issues: ['MANIFEST_FORM_INCOMPLETE /blocks/1/fields'],
  },

  // MANIFEST_CRON_INVALID
  ...(
    [
      ['five fields', '0 */5 * * *'],
      ['seconds as a step', '*/10 * * * * *'],
      ['seconds as a list', '0,30 * * * * *'],
      ['a date that never occurs', '0 0 0 31 2 *'],
      ['both day fields (strict)', '0 0 0 1 * 1'],
      ['a hashed minute', '0 H 6 * * *'],
      ['an alias', '@daily'],
      ['? for the unused day field (strict mode wants *)', '0 0 12 ? * THU'],
      ['a minute out of range', '0 60 * * * *'],
    ] as const
  ).map(
    ([name, cron]): Case => ({
      name: `a cron with ${name}`,
      edits: [['set', '/schedules/0/cron', cron]],
      issues: ['MANIFEST_CRON_INVALID /schedules/0/cron'],
    }),
  ),

  // MANIFEST_SCHEDULE_INPUT
  {
    name: 'schedule input out of range, missing, undeclared',
    edits: [['set', '/schedules/0/input', { days: 40 }]],
    issues: ['MANIFEST_SCHEDULE_INPUT /schedules/0/input/days'],
  },
  {
    name: 'schedule input without its required member and with an undeclared one',
    edits: [['set', '/schedules/0/input', { weeks: 1 }]],
    issues: [
      'MANIFEST_SCHEDULE_INPUT /schedules/0/input/weeks',
      'MANIFEST_SCHEDULE_INPUT /schedules/0/input/days',
    ],
  },
  {
    name: 'a schedule of a create action checks the entity’s fields',
    edits: [
      ['set', '/schedules/0/action', 'add_note'],
      ['set', '/schedules/0/input', { body: 'weekly check' }],
    ],
    issues: ['MANIFEST_SCHEDULE_INPUT /schedules/0/input/customer_id'],
  },

  // MANIFEST_CONTRACT_MISMATCH (and the kinds of action a payment or shipping role may name)
  {
    name: 'a shipping rate whose action lacks the rate contract',
    edits: [['set', '/shipping', { label: { en: 'Rate' }, rate: 'score' }]],
    issues: [
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
      'MANIFEST_CONTRACT_MISMATCH /shipping/rate',
    ],
  },
  {
    name: 'payment roles naming a module action and an unknown one',
    edits: [
      [
        'set',
        '/payment',
        { label: { en: 'Pay' }, authorize: 'score', capture: 'score', refund: 'add_note', status: 'nothing' },
      ],
    ],
    issues: [
      'MANIFEST_ACTION_KIND /payment/authorize',
      'MANIFEST_ACTION_KIND /payment/capture',
      'MANIFEST_UNKNOWN_REFERENCE /payment/status',
      'MANIFEST_ACTION_KIND /payment/refund',
    ],
  },
  {
    name: 'a storefront block running a private action',
    edits: [['set', '/blocks/0/mount', 'storefront.product']],
    issues: [
      'MANIFEST_BINDING_MISMATCH /blocks/0/contextBinding/key',
      'MANIFEST_PUBLIC_ACTION /blocks/0/action',
    ],
  },

  // Admin panels: bounded, each id once, script and style only where the admin allows them
  {
    name: 'six panels',
    edits: [['set', '/admin/panels', Array.from({ length: 6 }, (_, index) => panel(`p${index}`))]],
    issues: ['MANIFEST_INVALID /admin/panels'],
  },
  {
    name: 'panel markup over 64 KiB',
    edits: [['set', '/admin/panels/0/html', text(65_537)]],
    issues: ['MANIFEST_INVALID /admin/panels/0/html'],
  },
  {
    name: 'a panel script over 64 KiB and a style over 16 KiB',
    edits: [
      ['set', '/admin/panels/0/script', text(65_537)],
      ['set', '/admin/panels/0/style', text(16_385)],
    ],
    issues: ['MANIFEST_INVALID /admin/panels/0/script', 'MANIFEST_INVALID /admin/panels/0/style'],
  },
  {
    name: 'a panel without markup or label, and an unknown panel key',
    edits: [
      ['set', '/admin/panels/0/html', ''],
      ['remove', '/admin/panels/0/label'],
      ['set', '/admin/panels/0/url', 'https://example.com/panel'],
    ],
    issues: [
      'MANIFEST_INVALID /admin/panels/0/label',
      'MANIFEST_INVALID /admin/panels/0/html',
      'MANIFEST_INVALID /admin/panels/0/url',
    ],
  },
  {
    name: 'an unknown key beside panels',
    edits: [['set', '/admin/pages', []]],
    issues: ['MANIFEST_INVALID /admin/pages'],
  },
  {
    name: 'a panel id twice',
    edits: [['set', '/admin/panels/1', panel('questions')]],
    issues: ['MANIFEST_DUPLICATE_ID /admin/panels/1/id'],
  },
  {
    name: 'script and style inside the markup, and closing tags inside the script and style',
    edits: [
      ['set', '/admin/panels/0/html', '<p>Hi</p><SCRIPT>alert(1)</SCRIPT><style>p{}</style>'],
      ['set', '/admin/panels/0/script', 'document.write("</script><script>alert(1)")'],
      ['set', '/admin/panels/0/style', 'p{}</STYLE><p>'],
    ],
    issues: [
      'MANIFEST_PANEL_CONTENT /admin/panels/0/html',
      'MANIFEST_PANEL_CONTENT /admin/panels/0/html',
      'MANIFEST_PANEL_CONTENT /admin/panels/0/script',
      'MANIFEST_PANEL_CONTENT /admin/panels/0/style',
    ],
  },

  // Sections are checked on their own: a broken one hides nothing in the others.
  {
    name: 'a schema problem in blocks and a secret in entities',
    edits: [
      ['set', '/blocks/0/kind', 'chart'],
      ['set', '/entities/0/fields/5', field('password', 'string')],
    ],
    issues: ['MANIFEST_INVALID /blocks/0/kind', 'MANIFEST_SECRET_FIELD /entities/0/fields/5/name'],
  },
];

const accepted: readonly { name: string; edits: readonly Edit[] }[] = [
  { name: 'the example as committed', edits: [] },
  {
    name: 'a product reference in a publicRead entity',
    edits: [
      [
        'set',
        '/entities/1/fields/3',
        field('product_id', 'string', { coreReference: 'product', indexable: true }),
      ],
      ['set', '/permissions/1', 'catalog.read'],
    ],
  },
  {
    name: 'a public service action without customer or order data',
    edits: [['set', '/actions/8/public', true]],
  },
  {
    name: 'a service input named id (only rows reserve it)',
    edits: [['set', '/actions/8/input/1', field('id', 'string')]],
  },
  { name: 'a form bound to a required, unindexed reference', edits: [['remove', '/blocks/0']] },
  {
    name: 'a create form showing the required fields it does not bind',
    edits: [['set', '/blocks/1/fields', ['body', 'tier']]],
  },
  {
    name: 'an update form showing some fields',
    edits: [
      ['set', '/blocks/1/action', 'update_note'],
      ['set', '/blocks/1/fields', ['tier']],
    ],
  },
  {
    name: 'no schedules, webhooks or blocks',
    edits: [
      ['set', '/schedules', []],
      ['set', '/webhooks', []],
      ['set', '/blocks', []],
    ],
  },
  {
    name: 'a cron with month names and a last day',
    edits: [['set', '/schedules/0/cron', '30 15 4 L JAN,JUL *']],
  },
  { name: 'a cron with a weekday name', edits: [['set', '/schedules/0/cron', '0 0 12 * * THU']] },
  {
    name: 'an external service action',
    edits: [
      ['remove', '/actions/7/export'],
      ['set', '/actions/7/runtime', 'external'],
    ],
  },
  { name: 'a pre-release version', edits: [['set', '/version', '2.0.0-rc.1']] },
  {
    name: 'five panels at their bounds, markup only or with a script and style',
    edits: [
      [
        'set',
        '/admin/panels',
        [
          { ...panel('big'), html: text(65_536), script: text(65_536), style: text(16_384) },
          ...['b', 'c', 'd', 'e'].map(panel),
        ],
      ],
    ],
  },
  { name: 'an admin section without panels', edits: [['set', '/admin', {}]] },
  { name: 'no admin section', edits: [['remove', '/admin']] },
];

const summary = (issues: readonly { code: string; pointer: string }[]) =>
  issues.map((issue) => `${issue.code} ${issue.pointer}`);

describe('parseManifest', () => {
  it.each(refusals)('refuses $name', ({ edits, issues }) => {
    const result = parseManifest(edited(loyaltyManifest(), edits));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(summary(result.issues)).toEqual(issues);
    expect(result.code).toBe(result.issues[0]!.code);
    expect(result.detail).toBe(`${result.issues[0]!.pointer}: ${result.issues[0]!.message}`);
  });

  it.each(accepted)('accepts $name', ({ edits }) => {
    const result = parseManifest(edited(loyaltyManifest(), edits));
    expect(result.ok ? [] : summary(result.issues)).toEqual([]);
  });

  it('has a refusal case for every code', () => {
    const covered = new Set(refusals.flatMap((row) => row.issues.map((issue) => issue.split(' ')[0])));
    expect(MANIFEST_ISSUE_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });

  it.each([null, [], 'manifest', 1])('refuses %j as a whole', (input) => {
    expect(parseManifest(input)).toEqual({
      ok: false,
      code: 'MANIFEST_INVALID',
      detail: '/: a manifest is a JSON object',
      issues: [{ code: 'MANIFEST_INVALID', pointer: '', message: 'a manifest is a JSON object' }],
    });
  });

  it('says plainly what is missing or unknown', () => {
    const result = parseManifest(
      edited(loyaltyManifest(), [
        ['remove', '/actions/7/export'],
        ['set', '/blocks/0/colour', 'red'],
      ]),
    );
    expect(result.ok ? [] : result.issues).toEqual([
      { code: 'MANIFEST_INVALID', pointer: '/actions/7/export', message: 'missing required key "export"' },
      { code: 'MANIFEST_INVALID', pointer: '/blocks/0/colour', message: 'unknown key "colour"' },
    ]);
  });

  it('escapes pointers (RFC 6901)', () => {
    const result = parseManifest({ ...loyaltyManifest(), 'a/b~c': true });
    expect(result.ok ? [] : summary(result.issues)).toEqual(['MANIFEST_INVALID /a~1b~0c']);
  });

  it('answers a minimal manifest with every default filled in', () => {
    const result = parseManifest({ apiVersion: 1, id: 'tiny', version: '0.1.0', name: { en: 'Tiny' } });
    expect(result).toEqual({
      ok: true,
      value: {
        apiVersion: 1,
        id: 'tiny',
        version: '0.1.0',
        name: { en: 'Tiny' },
        permissions: [],
        entities: [],
        actions: [],
        blocks: [],
        intelligence: { tools: [] },
        schedules: [],
        webhooks: [],
        subscriptions: [],
      },
    });
    // No admin panels filled in: a manifest stored before panels existed is the same value today.
    expect(result.ok && result.value.admin).toBeUndefined();
    const empty = parseManifest({
      apiVersion: 1,
      id: 'tiny',
      version: '0.1.0',
      name: { en: 'Tiny' },
      admin: {},
    });
    expect(empty.ok && empty.value.admin).toEqual({ panels: [] });
  });

  it('fills field, action and schedule defaults, and keeps an omitted mcp flag omitted', () => {
    const result = parseManifest(
      edited(loyaltyManifest(), [
        ['remove', '/actions/1/mcp'],
        ['remove', '/schedules/0/enabled'],
      ]),
    );
    if (!result.ok) throw new Error(result.detail);
    const [note, faq] = result.value.entities;
    expect(note!.publicRead).toBe(false);
    expect(faq!.fields[0]).toEqual({
      name: 'question',
      type: 'string',
      maxLength: 200,
      required: true,
      indexable: false,
    });
    expect(note!.fields[3]).toEqual({
      name: 'points',
      type: 'integer',
      min: 0,
      max: 1000000,
      required: false,
      indexable: false,
    });
    expect(result.value.actions[1]).toEqual({
      id: 'get_note',
      kind: 'get',
      entity: 'note',
      public: false,
      emits: false,
    });
    expect('mcp' in result.value.actions[1]!).toBe(false);
    expect(result.value.schedules[0]!.enabled).toBe(true);
  });

  it('answers a value that shares nothing with the input', () => {
    const input = loyaltyManifest();
    const result = parseManifest(input);
    if (!result.ok) throw new Error(result.detail);
    (input.entities as { id: string }[])[0]!.id = 'changed';
    expect(result.value.entities[0]!.id).toBe('note');
  });
});
