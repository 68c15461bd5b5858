import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// Input the automation and channel operations must refuse rather than store or echo: the native
// tree with the catalog's `rules` for its children (never dropped), unbounded names and texts, a
// priority beyond a 32-bit integer, a flow trigger no event carries, a content language the shop
// has not set up, and huge strings echoed back in problem messages.

let h: Harness;
let mainChannel: string;
const RULE = (n: number) => `0190f0c8-0000-7000-8000-0000000e01${String(n).padStart(2, '0')}`;
const FLOW = (n: number) => `0190f0c8-0000-7000-8000-0000000e02${String(n).padStart(2, '0')}`;
const CHANNEL = '0190f0c8-0000-7000-8000-0000000e0301';

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
/** The refusal's code and the pointers of its field errors. */
function refusal(response: { status: number; body: Record<string, unknown> }) {
  return {
    status: response.status,
    code: response.body.code,
    pointers: ((response.body.errors ?? []) as { pointer: string }[]).map((error) => error.pointer),
  };
}

const leaf = { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } };
const importCondition = (condition: unknown) =>
  staff('POST', '/api/automation/import-condition', { condition });
const saveRule = (id: string, data: Record<string, unknown>) =>
  staff('PUT', `/api/automation/rules/${id}`, {
    revision: 0,
    data: { name: { en: 'Rule' }, condition: leaf, ...data },
  });
const stop = { entry: 'end', nodes: [{ id: 'end', kind: 'stop' }] };
const saveFlow = (id: string, data: Record<string, unknown>) =>
  staff('PUT', `/api/automation/flows/${id}`, {
    revision: 0,
    data: { name: { en: 'Flow' }, trigger: 'order.placed', pipeline: stop, ...data },
  });

beforeAll(async () => {
  h = await createHarness();
  const automation = expectOk(await staff('GET', '/api/automation'));
  mainChannel = (automation.channels as { id: string; isMain: boolean }[]).find(
    (channel) => channel.isMain,
  )!.id;
});
afterAll(async () => h?.close());

describe('importing a native tree whose container holds its children under `rules`', () => {
  it('reads `rules` as the children, as the catalog names the parameter', async () => {
    const imported = expectOk(
      await importCondition({
        type: 'orContainer',
        rules: [
          leaf,
          { type: 'andContainer', rules: [{ type: 'customerIsGuest', value: { isGuest: true } }] },
        ],
      }),
    );
    expect(imported.condition).toEqual({
      type: 'orContainer',
      children: [
        leaf,
        { type: 'andContainer', children: [{ type: 'customerIsGuest', value: { isGuest: true } }] },
      ],
    });
    expect(imported.issues).toEqual([]);
  });

  it('reads notContainer’s one child under `rules`, so it has no issue', async () => {
    const imported = expectOk(await importCondition({ type: 'notContainer', rules: [leaf] }));
    expect(imported).toEqual({ condition: { type: 'notContainer', children: [leaf] }, issues: [] });
  });

  it('refuses children given under both `children` and `rules`', async () => {
    const both = await importCondition({ type: 'andContainer', children: [leaf], rules: [leaf] });
    expect(refusal(both)).toEqual({ status: 422, code: 'RULE_INVALID_TREE', pointers: ['/condition/rules'] });
  });

  it('refuses a filtering condition’s children under the catalog name `filter`', async () => {
    const filtered = await importCondition({
      type: 'cartGoodsCount',
      value: { operator: '>=', count: 1 },
      filter: [leaf],
    });
    expect(refusal(filtered)).toEqual({
      status: 422,
      code: 'RULE_INVALID_TREE',
      pointers: ['/condition/filter'],
    });
  });

  it('refuses a rule reference with `rules`', async () => {
    const reference = await importCondition({ type: 'ruleReference', ruleId: RULE(1), rules: [leaf] });
    expect(refusal(reference)).toEqual({
      status: 422,
      code: 'RULE_INVALID_TREE',
      pointers: ['/condition/rules'],
    });
  });
});

describe('bounded rule fields', () => {
  it('refuses a name of 1,000,000 characters and takes one of 255', async () => {
    const huge = await saveRule(RULE(10), { name: { en: 'x'.repeat(1_000_000) } });
    expect(refusal(huge)).toEqual({ status: 422, code: 'VALIDATION_FAILED', pointers: ['/data/name/en'] });
    expect(JSON.stringify(huge.body).length).toBeLessThan(2000);
    expectOk(await saveRule(RULE(10), { name: { en: 'x'.repeat(255) } }));
    const long = await saveRule(RULE(11), { name: { en: 'x'.repeat(256) } });
    expect(refusal(long).pointers).toEqual(['/data/name/en']);
  });

  it('refuses a description beyond 10,000 characters', async () => {
    const huge = await saveRule(RULE(12), { description: { de: 'x'.repeat(10_001) } });
    expect(refusal(huge)).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      pointers: ['/data/description/de'],
    });
    expectOk(await saveRule(RULE(12), { description: { de: 'x'.repeat(10_000) } }));
  });

  it('refuses a priority beyond a 32-bit integer and takes its bounds', async () => {
    for (const priority of [1e20, 2 ** 31, -(2 ** 31) - 1]) {
      expect(refusal(await saveRule(RULE(13), { priority }))).toEqual({
        status: 422,
        code: 'VALIDATION_FAILED',
        pointers: ['/data/priority'],
      });
    }
    expect(refusal(await saveRule(RULE(13), { campaign: { priority: 1e20 } })).pointers).toEqual([
      '/data/campaign/priority',
    ]);
    expectOk(await saveRule(RULE(13), { priority: 2 ** 31 - 1 }));
    expectOk(await saveRule(RULE(14), { priority: -(2 ** 31), campaign: { priority: 2 ** 31 - 1 } }));
  });
});

describe('flow triggers and texts', () => {
  it('refuses a trigger no event carries, with the pointer of the trigger', async () => {
    const refused = await saveFlow(FLOW(1), { trigger: 'nope.event' });
    expect(refusal(refused)).toEqual({ status: 422, code: 'VALIDATION_FAILED', pointers: ['/data/trigger'] });
    expect(refused.body.detail).toContain('nope.event');
    expect(refused.body.triggers).toEqual(expect.arrayContaining(['order.placed', 'payment.captured']));
  });

  it('takes the triggers the shop’s events carry: placement, capture, state transitions', async () => {
    for (const [index, trigger] of [
      'order.placed',
      'payment.captured',
      'order.cancelled',
      'order_payment.paid',
      'order_delivery.shipped',
    ].entries()) {
      expectOk(await saveFlow(FLOW(10 + index), { trigger }));
    }
  });

  it('refuses a flow name beyond 255 characters and an instruction beyond 10,000', async () => {
    expect(refusal(await saveFlow(FLOW(2), { name: { en: 'x'.repeat(256) } })).pointers).toEqual([
      '/data/name/en',
    ]);
    expect(refusal(await saveFlow(FLOW(2), { instruction: { en: 'x'.repeat(10_001) } })).pointers).toEqual([
      '/data/instruction/en',
    ]);
  });
});

describe('channels', () => {
  it('refuses to read in a language the shop has not enabled, a platform language included (decision 0029)', async () => {
    for (const language of ['xx', 'xx-XX', 'fr']) {
      const refused = await staff(
        'GET',
        `/api/merchant/commerce/channels/${mainChannel}?language=${language}`,
      );
      expect(refusal(refused)).toEqual({
        status: 422,
        code: 'LANGUAGE_NOT_ENABLED',
        pointers: ['/language'],
      });
    }
    expect(
      expectOk(await staff('GET', `/api/merchant/commerce/channels/${mainChannel}?language=en`)),
    ).toMatchObject({ language: 'en' });
  });

  it('refuses to save in a language the shop has not set up, and a name beyond 255 characters', async () => {
    const main = expectOk(await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`));
    const channel = {
      name: { en: 'Wholesale' },
      mode: 'headless',
      paused: false,
      private: true,
      languages: ['en'],
    };
    const save = (body: Record<string, unknown>) =>
      staff('PUT', `/api/merchant/commerce/channels/${CHANNEL}`, {
        revision: 0,
        baseRevision: main.baseRevision,
        channel,
        ...body,
      });
    expect(refusal(await save({ language: 'xx' }))).toEqual({
      status: 422,
      code: 'LANGUAGE_NOT_ENABLED',
      pointers: ['/language'],
    });
    expect(refusal(await save({ channel: { ...channel, name: { en: 'x'.repeat(256) } } })).pointers).toEqual([
      '/channel/name/en',
    ]);
    expectOk(await save({ language: 'en' }));
  });
});

describe('echoed input', () => {
  const type = `custom${'x'.repeat(100_000)}`;
  const echoed = `"${type.slice(0, 100)}…"`;

  it('cuts a 100 KB unknown condition type to its first 100 characters on import', async () => {
    const refused = await importCondition({ type });
    expect(refusal(refused)).toEqual({
      status: 422,
      code: 'RULE_UNKNOWN_CONDITION',
      pointers: ['/condition/type'],
    });
    expect(refused.body.detail).toBe(`Unknown condition type ${echoed}.`);
    expect(JSON.stringify(refused.body).length).toBeLessThan(2000);
  });

  it('cuts it on save, in the detail and in every field error', async () => {
    const refused = await saveRule(RULE(20), { condition: { type: 'orContainer', children: [{ type }] } });
    expect(refusal(refused)).toEqual({
      status: 422,
      code: 'RULE_UNKNOWN_CONDITION',
      pointers: ['/data/condition/children/0/type'],
    });
    expect(refused.body.detail).toBe(`Unknown condition type ${echoed}.`);
    expect(JSON.stringify(refused.body).length).toBeLessThan(2000);
  });

  it('cuts a huge operator value and a huge unknown value key', async () => {
    const operator = await saveRule(RULE(21), {
      condition: { type: 'cartCartAmount', value: { operator: 'x'.repeat(100_000), amount: 1 } },
    });
    expect(operator.status).toBe(422);
    expect(JSON.stringify(operator.body).length).toBeLessThan(3000);
    const key = await saveRule(RULE(21), {
      condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 1, ['k'.repeat(100_000)]: 1 } },
    });
    expect(key.status).toBe(422);
    // The pointer names the key exactly; the message need not repeat it whole.
    expect(JSON.stringify(key.body).length).toBeLessThan(100_000 + 3000);
  });

  it('cuts a huge unknown action name in a flow', async () => {
    const refused = await saveFlow(FLOW(3), {
      pipeline: {
        entry: 'a',
        nodes: [{ id: 'a', kind: 'action', action: 'x'.repeat(100_000), config: {}, next: null }],
      },
    });
    expect(refused.body.code).toBe('FLOW_UNKNOWN_ACTION');
    expect(JSON.stringify(refused.body).length).toBeLessThan(3000);
  });
});
