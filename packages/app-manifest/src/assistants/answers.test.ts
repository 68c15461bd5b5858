import { describe, expect, it } from 'vitest';
import type { AssistantId } from './definition.ts';
import { runAssistant } from './index.ts';

const FIELD = { name: 'body', type: 'text', label: 'Note' };
const fields = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ ...FIELD, name: `field_${index}` }));

const admin = {
  app_id: 'notes',
  name: 'Notes',
  fields: [FIELD],
  object: 'order',
  mounts: ['admin.order'],
  blocks: ['table'],
};
const shipping = { app_id: 'rates', name: 'Rates', method_label: 'Standard' };

/** The pointers of a refusal's issues (and that it is one). */
function refusedAt(id: AssistantId, answers: unknown): string[] {
  const result = runAssistant(id, answers);
  expect(result).toMatchObject({ ok: false, code: 'ASSISTANT_ANSWERS_INVALID' });
  return result.ok ? [] : result.issues.map((issue) => issue.pointer);
}

describe('refused answers', () => {
  it.each<[string, AssistantId, unknown, string[]]>([
    ['not an object', 'schedule', 'nightly', ['']],
    ['a missing app_id', 'schedule', { name: 'Nightly' }, ['/app_id']],
    ['an app_id that is no id', 'schedule', { app_id: 'Nightly!', name: 'Nightly' }, ['/app_id']],
    ['an empty name', 'schedule', { app_id: 'nightly', name: '' }, ['/name']],
    ['a name past 100 characters', 'schedule', { app_id: 'nightly', name: 'n'.repeat(101) }, ['/name']],
    ['an unknown key', 'schedule', { app_id: 'nightly', name: 'Nightly', colour: 'red' }, ['/colour']],
    ['a cron with five fields', 'schedule', { app_id: 'nightly', name: 'N', cron: '0 6 * * *' }, ['/cron']],
    [
      'a date that never occurs',
      'integration',
      { app_id: 'erp', name: 'E', cron: '0 0 0 31 2 *' },
      ['/cron'],
    ],
    ['a hashed cron', 'schedule', { app_id: 'nightly', name: 'N', cron: '0 H * * * *' }, ['/cron']],
    [
      'an unknown field type',
      'webhook',
      { app_id: 'hook', name: 'Hook', fields: [{ ...FIELD, type: 'json' }] },
      ['/fields/0/type'],
    ],
    ['no fields', 'frontend', { app_id: 'faq', name: 'FAQ', fields: [] }, ['/fields']],
    ['21 fields', 'frontend', { app_id: 'faq', name: 'FAQ', fields: fields(21) }, ['/fields']],
    ['21 extra fields', 'integration', { app_id: 'erp', name: 'ERP', fields: fields(21) }, ['/fields']],
    [
      'choices on a text field',
      'frontend',
      { app_id: 'faq', name: 'FAQ', fields: [{ ...FIELD, choices: ['a'] }] },
      ['/fields/0/choices'],
    ],
    [
      'a choice field without choices',
      'frontend',
      { app_id: 'faq', name: 'FAQ', fields: [{ ...FIELD, type: 'choice' }] },
      ['/fields/0/choices'],
    ],
    [
      'a choice listed twice',
      'frontend',
      { app_id: 'faq', name: 'FAQ', fields: [{ ...FIELD, type: 'choice', choices: ['a', 'b', 'a'] }] },
      ['/fields/0/choices/2'],
    ],
    [
      'a field answered twice',
      'webhook',
      { app_id: 'hook', name: 'Hook', fields: [FIELD, FIELD] },
      ['/fields/1/name'],
    ],
    [
      'a credential-like field',
      'webhook',
      { app_id: 'hook', name: 'Hook', fields: [{ ...FIELD, name: 'api_key' }] },
      ['/fields/0/name'],
    ],
    [
      'a column the service keeps',
      'frontend',
      { app_id: 'faq', name: 'FAQ', fields: [{ ...FIELD, name: 'created_at' }] },
      ['/fields/0/name'],
    ],
    [
      'the field the assistant declares',
      'frontend',
      { app_id: 'faq', name: 'FAQ', fields: [{ ...FIELD, name: 'product_id' }] },
      ['/fields/0/name'],
    ],
    ['a credential-like table', 'admin', { ...admin, entity: 'secret_notes' }, ['/entity']],
    ['a mount beside another object', 'admin', { ...admin, mounts: ['admin.customer'] }, ['/mounts/0']],
    [
      'the legacy product mount',
      'admin',
      { ...admin, object: 'product', mounts: ['admin.product'] },
      ['/mounts/0'],
    ],
    ['a mount twice', 'admin', { ...admin, mounts: ['admin.order', 'admin.order'] }, ['/mounts/1']],
    ['no mounts', 'admin', { ...admin, mounts: [] }, ['/mounts']],
    ['an unknown block kind', 'admin', { ...admin, blocks: ['chart'] }, ['/blocks/0']],
    ['a block kind twice', 'admin', { ...admin, blocks: ['form', 'form'] }, ['/blocks/1']],
    [
      'a customer page for the combined app',
      'combined',
      { app_id: 'specs', name: 'Specs', fields: [FIELD], mounts: ['admin.customer'] },
      ['/mounts/0'],
    ],
    [
      'an object for the combined app',
      'combined',
      { app_id: 'specs', name: 'S', fields: [FIELD], object: 'order' },
      ['/object'],
    ],
    ['a bad event name', 'subscriber', { app_id: 's', name: 'S', events: ['Order Placed'] }, ['/events/0']],
    [
      'an event twice',
      'subscriber',
      { app_id: 's', name: 'S', events: ['order.*', 'order.*'] },
      ['/events/1'],
    ],
    ['no events', 'subscriber', { app_id: 's', name: 'S', events: [] }, ['/events']],
    ['a module rate without a base rate', 'shipping', shipping, ['/base']],
    ['a negative base rate', 'shipping', { ...shipping, base: -1 }, ['/base']],
    ['a fractional amount', 'shipping', { ...shipping, base: 4.9 }, ['/base']],
    [
      'a tax rate above 100',
      'shipping',
      { ...shipping, base: 0, tax_rate_percent: 101 },
      ['/tax_rate_percent'],
    ],
    [
      'module amounts for an external rate',
      'shipping',
      { ...shipping, runtime: 'external', base: 490, tax_rate_percent: 19 },
      ['/base', '/tax_rate_percent'],
    ],
    ['a bad webhook id', 'integration', { app_id: 'erp', name: 'E', webhook: 'Push' }, ['/webhook']],
  ])('%s', (_case, id, answers, pointers) => {
    expect(refusedAt(id, answers)).toEqual(pointers);
  });

  it('reports every problem at once, the first in code and detail', () => {
    const result = runAssistant('admin', { ...admin, app_id: undefined, fields: fields(21), mounts: ['x'] });
    expect(result).toMatchObject({
      ok: false,
      code: 'ASSISTANT_ANSWERS_INVALID',
      detail: '/app_id: missing required key "app_id"',
    });
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.pointer)).toEqual(['/app_id', '/fields', '/mounts/0']);
  });

  it('explains the rules between answers in words', () => {
    const result = runAssistant('admin', { ...admin, mounts: ['admin.customer'] });
    expect(result.ok ? null : result.issues[0]?.message).toBe(
      'admin.customer is not on the order page; use admin.order or admin.order.general',
    );
  });
});
