import { describe, expect, it } from 'vitest';
import readme from '../../README.md?raw';
import { diffManifests } from '../diff.ts';
import { parseManifest } from '../parse.ts';
import type { Manifest } from '../schema.ts';
import { ASSISTANT_IDS, type AssistantId, type AssistantOutput } from './definition.ts';
import { runAssistant } from './index.ts';

const FIELDS = [
  { name: 'headline', type: 'string', label: 'Headline', required: true },
  { name: 'body', type: 'text', label: 'Body' },
  { name: 'size', type: 'choice', label: 'Size', choices: ['small', 'large'] },
];

/** Another optional field, as a merchant adds one by hand. */
const NEW_FIELD = {
  name: 'note',
  type: 'string',
  maxLength: 255,
  required: false,
  label: { en: 'Note' },
} as const;

interface Case {
  readonly answers: Record<string, unknown>;
  /** Only the required answers: the defaults of the rest make a valid app too. */
  readonly minimal: Record<string, unknown>;
  /** The action ids the README promises. */
  readonly actions: readonly string[];
  /** What a merchant edits by hand in the generated manifest before upgrading. */
  readonly edit: (manifest: Manifest) => void;
}

const addEntityField = (manifest: Manifest) => {
  manifest.entities[0]!.fields.push({ ...NEW_FIELD, indexable: false });
};

function addOutputField(id: string) {
  return (manifest: Manifest) => {
    const action = manifest.actions.find((candidate) => candidate.id === id);
    if (action?.kind !== 'service') throw new Error(`no service action ${id}`);
    action.output.push({ name: 'reference', type: 'string', maxLength: 64, required: false });
  };
}

const CASES: Readonly<Record<AssistantId, Case>> = {
  frontend: {
    answers: {
      app_id: 'size-guide',
      name: 'Size guide',
      entity: 'guide',
      fields: FIELDS,
      product_bound: true,
    },
    minimal: { app_id: 'size-guide', name: 'Size guide', fields: FIELDS },
    actions: ['list', 'get', 'create', 'update', 'delete'],
    edit: addEntityField,
  },
  admin: {
    answers: {
      app_id: 'customer-notes',
      name: 'Customer notes',
      fields: FIELDS,
      object: 'customer',
      mounts: ['admin.customer'],
      blocks: ['table', 'card', 'form', 'action'],
    },
    minimal: {
      app_id: 'customer-notes',
      name: 'Customer notes',
      fields: FIELDS,
      mounts: ['admin.product.general'],
    },
    actions: ['list', 'get', 'create', 'update', 'delete', 'run'],
    edit: addEntityField,
  },
  combined: {
    answers: {
      app_id: 'specs',
      name: 'Specifications',
      entity: 'spec',
      fields: FIELDS,
      mounts: ['admin.product.general', 'admin.product.tab'],
      blocks: ['table', 'form', 'action'],
    },
    minimal: { app_id: 'specs', name: 'Specifications', fields: FIELDS },
    actions: ['list', 'get', 'create', 'update', 'delete', 'run'],
    edit: addEntityField,
  },
  payment: {
    answers: { app_id: 'pay-later', name: 'Pay later', method_label: 'Invoice in 30 days' },
    minimal: { app_id: 'pay-later', name: 'Pay later', method_label: 'Invoice in 30 days' },
    actions: ['authorize', 'capture', 'status', 'refund'],
    edit: addOutputField('status'),
  },
  shipping: {
    answers: {
      app_id: 'flat-rate',
      name: 'Flat rate',
      method_label: 'Standard',
      runtime: 'module',
      base: 490,
      per_item: 100,
      free_from: 5000,
      tax_rate_percent: 7,
    },
    minimal: { app_id: 'flat-rate', name: 'Flat rate', method_label: 'Standard', base: 490 },
    actions: ['rate'],
    edit: addOutputField('rate'),
  },
  integration: {
    answers: {
      app_id: 'erp',
      name: 'ERP',
      entity: 'erp_order',
      object: 'order',
      fields: FIELDS,
      cron: '0 30 2 * * *',
      webhook: 'orders',
    },
    minimal: { app_id: 'erp', name: 'ERP' },
    actions: ['list', 'get', 'upsert', 'sync'],
    edit: addEntityField,
  },
  subscriber: {
    answers: { app_id: 'order-feed', name: 'Order feed', events: ['order.placed', 'customer.*'] },
    minimal: { app_id: 'order-feed', name: 'Order feed' },
    actions: [],
    edit: (manifest) => {
      manifest.subscriptions.push('order.cancelled');
    },
  },
  webhook: {
    answers: { app_id: 'crm-inbound', name: 'CRM inbound', webhook: 'contact', fields: FIELDS },
    minimal: { app_id: 'crm-inbound', name: 'CRM inbound', fields: FIELDS },
    actions: ['receive'],
    edit: (manifest) => {
      const action = manifest.actions[0];
      if (action?.kind !== 'service') throw new Error('no receive action');
      action.input.push({ ...NEW_FIELD });
    },
  },
  schedule: {
    answers: { app_id: 'nightly', name: 'Nightly', cron: '0 0 3 * * 1-5' },
    minimal: { app_id: 'nightly', name: 'Nightly' },
    actions: ['tick'],
    edit: addOutputField('tick'),
  },
};

function generate(id: AssistantId, answers: unknown, previous?: Manifest): AssistantOutput {
  const result = runAssistant(id, answers, previous);
  if (!result.ok) throw new Error(`${id} refused: ${JSON.stringify(result.issues)}`);
  return result.value;
}

describe.each(ASSISTANT_IDS)('the %s assistant', (id) => {
  const sample = CASES[id];

  it('generates a manifest parseManifest answers unchanged, with the documented actions', () => {
    const { manifest } = generate(id, sample.answers);
    expect(parseManifest(manifest)).toEqual({ ok: true, value: manifest });
    expect(manifest.version).toBe('1.0.0');
    expect(manifest.id).toBe(sample.answers.app_id);
    expect(manifest.name).toEqual({ en: sample.answers.name });
    expect(manifest.actions.map((action) => action.id)).toEqual(sample.actions);
    expect(manifest.actions.every((action) => action.mcp === false)).toBe(true);
  });

  it('generates from the required answers alone', () => {
    const { manifest } = generate(id, sample.minimal);
    expect(parseManifest(manifest).ok).toBe(true);
  });

  it('survives a JSON round trip and gives the same bytes for the same answers', () => {
    const output = generate(id, sample.answers);
    // toEqual: parseManifest answers absent optional sections as undefined members, which JSON drops.
    expect(JSON.parse(JSON.stringify(output))).toEqual(output);
    expect(JSON.stringify(generate(id, structuredClone(sample.answers)))).toBe(JSON.stringify(output));
  });

  it('is an ordinary manifest: a merchant edits it and upgrades compatibly', () => {
    const { manifest } = generate(id, sample.answers);
    const next = structuredClone(manifest);
    sample.edit(next);
    next.version = '1.0.1';
    const parsed = parseManifest(next);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(diffManifests(manifest, parsed.value)).toEqual({
      compatible: true,
      unchanged: false,
      reasons: [],
    });
  });

  it('regenerates as the next minor version, a compatible upgrade of the installed one', () => {
    const installed = generate(id, sample.answers).manifest;
    const next = generate(id, sample.answers, installed);
    expect(next.manifest.version).toBe('1.1.0');
    expect(parseManifest(next.manifest)).toEqual({ ok: true, value: next.manifest });
    expect(diffManifests(installed, next.manifest).compatible).toBe(true);
    expect({ ...next.manifest, version: '1.0.0' }).toEqual(installed);
  });
});

describe('what the assistants generate', () => {
  it('frontend: a publicRead table bound to the product, read on the storefront', () => {
    const { manifest } = generate('frontend', CASES.frontend.answers);
    expect(manifest.permissions).toEqual(['catalog.read']);
    expect(manifest.entities[0]).toMatchObject({ id: 'guide', publicRead: true });
    expect(manifest.entities[0]!.fields[0]).toMatchObject({
      name: 'product_id',
      type: 'string',
      maxLength: 36,
      required: true,
      indexable: true,
      coreReference: 'product',
    });
    expect(manifest.actions.filter((action) => action.public).map((action) => action.id)).toEqual([
      'list',
      'get',
    ]);
    expect(manifest.blocks).toEqual([
      {
        id: 'storefront',
        kind: 'table',
        mount: 'storefront.product',
        action: 'list',
        title: { en: 'Size guide' },
        contextBinding: { field: 'product_id', key: 'productId' },
      },
    ]);
  });

  it('frontend without a product: every product shows all entries, no permission asked', () => {
    const { manifest } = generate('frontend', { ...CASES.frontend.answers, product_bound: false });
    expect(manifest.permissions).toEqual([]);
    expect(manifest.entities[0]!.fields.map((field) => field.name)).toEqual(['headline', 'body', 'size']);
    expect(manifest.blocks[0]?.contextBinding).toBeUndefined();
  });

  it('admin: one block per mount and kind, bound to the object, the button running "run"', () => {
    const { manifest } = generate('admin', {
      ...CASES.admin.answers,
      object: 'order',
      mounts: ['admin.order', 'admin.order.general'],
      blocks: ['table', 'action'],
    });
    expect(manifest.permissions).toEqual(['orders.read']);
    expect(manifest.entities[0]).toMatchObject({ id: 'entry', publicRead: false });
    expect(manifest.entities[0]!.fields[0]).toMatchObject({ name: 'order_id', coreReference: 'order' });
    const blocks = manifest.blocks.map(({ id, mount, action, contextBinding }) => [
      id,
      mount,
      action,
      contextBinding,
    ]);
    const binding = { field: 'order_id', key: 'orderId' };
    expect(blocks).toEqual([
      ['table_1', 'admin.order', 'list', binding],
      ['action_1', 'admin.order', 'run', binding],
      ['table_2', 'admin.order.general', 'list', binding],
      ['action_2', 'admin.order.general', 'run', binding],
    ]);
    const run = manifest.actions.find((action) => action.id === 'run');
    expect(run).toMatchObject({
      kind: 'service',
      runtime: 'external',
      input: [{ name: 'order_id', type: 'string', required: true, coreReference: 'order' }],
      output: [{ name: 'message', type: 'string' }],
    });
  });

  it('admin without a button declares no "run"', () => {
    const { manifest } = generate('admin', { ...CASES.admin.answers, blocks: ['form'] });
    expect(manifest.actions.map((action) => action.id)).toEqual([
      'list',
      'get',
      'create',
      'update',
      'delete',
    ]);
    expect(manifest.blocks.map((block) => [block.id, block.action])).toEqual([['form_1', 'create']]);
  });

  it('combined: one publicRead product table on the storefront and the product page', () => {
    const { manifest } = generate('combined', CASES.combined.answers);
    expect(manifest.permissions).toEqual(['catalog.read']);
    expect(manifest.entities[0]).toMatchObject({ id: 'spec', publicRead: true });
    expect(manifest.blocks.map((block) => [block.id, block.mount])).toEqual([
      ['storefront', 'storefront.product'],
      ['table_1', 'admin.product.general'],
      ['form_1', 'admin.product.general'],
      ['action_1', 'admin.product.general'],
      ['table_2', 'admin.product.tab'],
      ['form_2', 'admin.product.tab'],
      ['action_2', 'admin.product.tab'],
    ]);
  });

  it('payment: external actions with exactly the contract, named by the payment role', () => {
    const { manifest } = generate('payment', CASES.payment.answers);
    expect(manifest.payment).toEqual({
      label: { en: 'Invoice in 30 days' },
      authorize: 'authorize',
      capture: 'capture',
      refund: 'refund',
      status: 'status',
    });
    const authorize = manifest.actions[0];
    expect(authorize).toMatchObject({ kind: 'service', runtime: 'external', public: false });
    if (authorize?.kind !== 'service') return;
    expect(authorize.input.map((field) => [field.name, field.type, field.required])).toEqual([
      ['request_id', 'string', true],
      ['attempt_id', 'string', true],
      ['amount', 'string', true],
      ['currency', 'string', true],
      ['invoice_id', 'string', true],
      ['return_url', 'string', true],
      ['cancel_url', 'string', true],
    ]);
  });

  it('shipping: a module rate, or one served by the app’s service', () => {
    const module = generate('shipping', CASES.shipping.answers);
    expect(module.manifest.actions[0]).toMatchObject({ id: 'rate', runtime: 'module', export: 'rate' });
    expect(module.manifest.shipping).toEqual({ label: { en: 'Standard' }, rate: 'rate' });
    expect(module.module).toContain('export function rate(input)');
    const external = generate('shipping', {
      app_id: 'rates',
      name: 'Rates',
      method_label: 'Express',
      runtime: 'external',
    });
    expect(external.manifest.actions[0]).toMatchObject({ id: 'rate', runtime: 'external' });
    expect(external.module).toBeNull();
  });

  it('integration: a mapping filled by a webhook, synced on a schedule', () => {
    const { manifest } = generate('integration', CASES.integration.answers);
    expect(manifest.permissions).toEqual(['orders.read']);
    expect(manifest.entities[0]!.fields.slice(0, 2)).toMatchObject([
      { name: 'external_id', required: true, indexable: true },
      { name: 'order_id', coreReference: 'order', indexable: true },
    ]);
    expect(manifest.actions.find((action) => action.id === 'upsert')).toMatchObject({
      kind: 'create',
      emits: true,
    });
    expect(manifest.actions.find((action) => action.id === 'sync')).toMatchObject({
      kind: 'service',
      runtime: 'external',
      emits: true,
      output: [{ name: 'synced', type: 'integer', required: true }],
    });
    expect(manifest.schedules).toEqual([
      expect.objectContaining({ id: 'sync', cron: '0 30 2 * * *', action: 'sync', input: {}, enabled: true }),
    ]);
    expect(manifest.webhooks).toEqual([expect.objectContaining({ id: 'orders', action: 'upsert' })]);
  });

  it('subscriber: only subscriptions, order.placed when not answered', () => {
    expect(generate('subscriber', CASES.subscriber.answers).manifest.subscriptions).toEqual([
      'order.placed',
      'customer.*',
    ]);
    const { manifest } = generate('subscriber', CASES.subscriber.minimal);
    expect(manifest.subscriptions).toEqual(['order.placed']);
    expect(manifest.actions).toEqual([]);
  });

  it('webhook: the body’s fields as the input of an emitting external action', () => {
    const { manifest } = generate('webhook', CASES.webhook.answers);
    expect(manifest.webhooks).toEqual([{ id: 'contact', label: { en: 'CRM inbound' }, action: 'receive' }]);
    expect(manifest.actions[0]).toMatchObject({ runtime: 'external', emits: true, output: [] });
    if (manifest.actions[0]?.kind !== 'service') return;
    expect(manifest.actions[0].input.map((field) => field.name)).toEqual(['headline', 'body', 'size']);
    expect(generate('webhook', CASES.webhook.minimal).manifest.webhooks[0]?.id).toBe('inbound');
  });

  it('schedule: an emitting module action on the cron, with its module', () => {
    const output = generate('schedule', CASES.schedule.minimal);
    expect(output.manifest.schedules).toEqual([
      { id: 'tick', label: { en: 'Nightly' }, cron: '0 0 6 * * *', action: 'tick', input: {}, enabled: true },
    ]);
    expect(output.manifest.actions[0]).toMatchObject({ runtime: 'module', export: 'tick', emits: true });
    expect(output.module).toContain('export function tick()');
  });

  it('the README names every assistant with its actions, in order', () => {
    const lines = readme.split('\n');
    const start = lines.indexOf('## Assistants');
    expect(start).toBeGreaterThan(0);
    const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
    const rows = lines
      .slice(start, end)
      .filter((line) => /^\| `[a-z]+` /.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map((cells) => cells[1])).toEqual(ASSISTANT_IDS.map((id) => `\`${id}\``));
    for (const cells of rows) {
      const id = cells[1]!.slice(1, -1) as AssistantId;
      for (const action of CASES[id].actions) expect(cells.at(-2)).toContain(`\`${action}\``);
    }
  });
});
