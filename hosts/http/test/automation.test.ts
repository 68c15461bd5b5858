import { makeSellable, SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The rules engine over HTTP and MCP: the catalog, revision-bound saves with reference checks,
// dependencies and blocked deletes, preview against a real storefront cart (Boolean only, no
// writes), explain with a trace, and import of the reference's exchange forms.

let h: Harness;
let channelKey: string;
let contextToken: string;
const PRODUCT = '0190f0c8-0000-7000-8000-0000000a0702';
const CATEGORY = '0190f0c8-0000-7000-8000-0000000a0703';
const rule = (n: number) => `0190f0c8-0000-7000-8000-0000000a08${String(n).padStart(2, '0')}`;

const staff = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  h.call(method, path, { token: h.shopA.token, body, ...(headers ? { headers } : {}) });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
const amountAtLeast = (amount: number) => ({ type: 'cartCartAmount', value: { operator: '>=', amount } });
const saveRule = (id: string, revision: number, condition: unknown, extra: Record<string, unknown> = {}) =>
  staff('PUT', `/api/automation/rules/${id}`, {
    revision,
    data: { name: { en: 'Rule' }, condition },
    ...extra,
  });
const preview = (condition: unknown, token: string | null = contextToken) =>
  staff('POST', '/api/automation/rules/preview', { condition }, token ? { 'x-context-token': token } : {});

beforeAll(async () => {
  h = await createHarness();
  const automation = expectOk(await staff('GET', '/api/automation'));
  channelKey = (automation.channels as { accessKey: string }[])[0]!.accessKey;
  await makeSellable(h.services, h.shopA.tenantId);
  expectOk(
    await staff('PUT', `/api/catalog/categories/${CATEGORY}`, {
      revision: 0,
      translations: { en: { name: 'Tea' } },
    }),
  );
  expectOk(
    await staff('POST', '/api/catalog/products', {
      id: PRODUCT,
      sku: 'TEA',
      translations: { en: { name: 'Tea' } },
      taxClassId: SELLABLE.standardTax,
      categoryIds: [CATEGORY],
      prices: [{ currency: 'EUR', gross: 2500, net: 2101 }],
      stockAvailable: 50,
    }),
    201,
  );
  const context = expectOk(
    await h.call('POST', '/store-api/context', { headers: { 'x-channel-key': channelKey } }),
    201,
  );
  contextToken = context.contextToken as string;
  expectOk(
    await h.call('POST', '/store-api/cart/lines', {
      headers: { 'x-channel-key': channelKey, 'x-context-token': contextToken },
      body: { productId: PRODUCT, quantity: 3 },
    }),
  );
});
afterAll(async () => h?.close());

describe('the catalog', () => {
  it('lists 114 conditions (108 enabled, 6 disabled with reasons) and 19 actions, labels in four languages', async () => {
    const catalog = expectOk(await staff('GET', '/api/automation/catalog?language=de'));
    const conditions = catalog.conditions as {
      name: string;
      enabled: boolean;
      disabledReason: string | null;
      behavioralParity: boolean;
      label: string;
      labels: Record<string, string>;
    }[];
    expect(catalog.isComplete).toBe(false);
    expect(conditions).toHaveLength(114);
    expect(conditions.filter((c) => c.enabled)).toHaveLength(108);
    const disabled = conditions.filter((c) => !c.enabled);
    expect(disabled.map((c) => c.name).sort()).toEqual(
      [
        'cartLineItemInGroup',
        'promotionCodeOfType',
        'promotionLineItem',
        'scriptRule',
        'simple',
        'unknown_condition',
      ].sort(),
    );
    for (const c of disabled) expect(c.disabledReason!.length).toBeGreaterThan(20);
    expect(conditions.every((c) => c.behavioralParity === false)).toBe(true);
    expect(conditions.every((c) => ['en', 'de', 'es', 'fr'].every((l) => c.labels[l]!.length > 0))).toBe(
      true,
    );
    expect(conditions.find((c) => c.name === 'cartCartAmount')!.label).toBe(
      conditions.find((c) => c.name === 'cartCartAmount')!.labels.de,
    );
    expect(catalog.actions).toHaveLength(19);
  });
});

describe('saving rules', () => {
  it('creates at revision 0, replaces at the stored revision and refuses a stale one', async () => {
    const created = expectOk(await saveRule(rule(1), 0, amountAtLeast(50)));
    expect(created).toMatchObject({ id: rule(1), revision: 1, active: true });
    expect(expectOk(await saveRule(rule(1), 1, amountAtLeast(60))).revision).toBe(2);
    const stale = await saveRule(rule(1), 1, amountAtLeast(70));
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STALE_REVISION');
    const listed = expectOk(await staff('GET', '/api/automation'));
    const stored = (listed.rules as { id: string; data: { condition: unknown } }[]).find(
      (r) => r.id === rule(1),
    );
    expect(stored!.data.condition).toEqual(amountAtLeast(60));
  });

  it('refuses unknown, disabled and mistyped conditions with their codes and pointers, storing nothing', async () => {
    const unknown = await saveRule(rule(2), 0, { type: 'andContainer', children: [{ type: 'cartMagic' }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('RULE_UNKNOWN_CONDITION');
    expect(JSON.stringify(unknown.body.errors)).toContain('/data/condition/children/0');
    const disabled = await saveRule(rule(2), 0, { type: 'scriptRule', value: {} });
    expect(disabled.body.code).toBe('RULE_CONDITION_DISABLED');
    expect(disabled.body.detail).toContain('no bounded compatible script runtime');
    const mistyped = await saveRule(rule(2), 0, {
      type: 'cartCartAmount',
      value: { operator: '>=', amount: '50' },
    });
    expect(mistyped.status).toBe(422);
    expect(JSON.stringify(mistyped.body.errors)).toContain('/data/condition/value/amount');
    const nameless = await staff('PUT', `/api/automation/rules/${rule(2)}`, {
      revision: 0,
      data: { condition: { type: 'alwaysValid' } },
    });
    expect(nameless.body.code).toBe('VALIDATION_FAILED');
    const deps = await staff('GET', `/api/automation/rules/${rule(2)}/dependencies`);
    expect(deps.status).toBe(404);
  });

  it('resolves saved-rule references: missing, inactive and cyclic ones are refused', async () => {
    const missing = await saveRule(rule(3), 0, { type: 'ruleReference', ruleId: rule(99) });
    expect(missing.body.code).toBe('RULE_REFERENCE_MISSING');
    expectOk(await saveRule(rule(4), 0, amountAtLeast(10), { active: false }));
    const inactive = await saveRule(rule(3), 0, { type: 'ruleReference', ruleId: rule(4) });
    expect(inactive.body.code).toBe('RULE_REFERENCE_DISABLED');
    expectOk(await saveRule(rule(4), 1, amountAtLeast(10), { active: true }));
    expectOk(await saveRule(rule(3), 0, { type: 'ruleReference', ruleId: rule(4) }));
    // 4 → 3 → 4 would loop: refused, and rule 4 keeps its condition.
    const cycle = await saveRule(rule(4), 2, { type: 'ruleReference', ruleId: rule(3) });
    expect(cycle.status).toBe(422);
    expect(cycle.body.code).toBe('RULE_REFERENCE_CYCLE');
    const self = await saveRule(rule(5), 0, {
      type: 'notContainer',
      children: [{ type: 'ruleReference', ruleId: rule(5) }],
    });
    expect(self.body.code).toBe('RULE_REFERENCE_CYCLE');
  });

  it('refuses a reference chain deeper than 8', async () => {
    expectOk(await saveRule(rule(20), 0, { type: 'alwaysValid' }));
    for (let n = 21; n <= 28; n += 1)
      expectOk(await saveRule(rule(n), 0, { type: 'ruleReference', ruleId: rule(n - 1) }));
    const tooDeep = await saveRule(rule(29), 0, { type: 'ruleReference', ruleId: rule(28) });
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.code).toBe('RULE_REFERENCE_DEPTH');
  });
});

describe('dependencies and deletes', () => {
  it('lists what references a rule and blocks its delete until the reference is gone', async () => {
    expectOk(await saveRule(rule(10), 0, amountAtLeast(1)));
    expectOk(
      await saveRule(rule(11), 0, {
        type: 'orContainer',
        children: [{ type: 'ruleReference', ruleId: rule(10) }],
      }),
    );
    const deps = expectOk(await staff('GET', `/api/automation/rules/${rule(10)}/dependencies`));
    expect(deps.blockers).toEqual([{ kind: 'rule', id: rule(11), key: null }]);
    expect(expectOk(await staff('GET', `/api/automation/rules/${rule(11)}/dependencies`)).references).toEqual(
      [rule(10)],
    );
    const blocked = await staff('DELETE', `/api/automation/rules/${rule(10)}`, { revision: 1 });
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('REFERENCED');
    expect(blocked.body.references).toEqual([{ kind: 'rule', id: rule(11), key: null }]);
    const stale = await staff('DELETE', `/api/automation/rules/${rule(11)}`, { revision: 7 });
    expect(stale.body.code).toBe('STALE_REVISION');
    expectOk(await staff('DELETE', `/api/automation/rules/${rule(11)}`, { revision: 1 }));
    expectOk(await staff('DELETE', `/api/automation/rules/${rule(10)}`, { revision: 1 }));
    expect((await staff('GET', `/api/automation/rules/${rule(10)}/dependencies`)).status).toBe(404);
  });
});

describe('preview', () => {
  it('evaluates against the stored cart (3 × 25.00) and answers only the Boolean', async () => {
    const yes = expectOk(await preview(amountAtLeast(75)));
    expect(yes).toEqual({ result: true });
    expect(expectOk(await preview(amountAtLeast(75.01)))).toEqual({ result: false });
    const inCategory = { type: 'cartLineItemInCategory', value: { operator: '=', categoryIds: [CATEGORY] } };
    expect(expectOk(await preview(inCategory))).toEqual({ result: true });
    expectOk(await saveRule(rule(30), 0, amountAtLeast(100)));
    expect(
      expectOk(
        await preview({ type: 'notContainer', children: [{ type: 'ruleReference', ruleId: rule(30) }] }),
      ),
    ).toEqual({
      result: true,
    });
  });

  it('with explain: true also answers the decision of every node, without the facts it compared', async () => {
    const condition = {
      type: 'orContainer',
      children: [amountAtLeast(100), { type: 'notContainer', children: [amountAtLeast(100)] }],
    };
    const explained = expectOk(
      await staff(
        'POST',
        '/api/automation/rules/preview',
        { condition, explain: true },
        { 'x-context-token': contextToken },
      ),
    );
    expect(explained).toMatchObject({
      result: true,
      trace: {
        pointer: '',
        type: 'orContainer',
        result: true,
        children: [
          { pointer: '/children/0', type: 'cartCartAmount', result: false },
          {
            pointer: '/children/1',
            result: true,
            children: [{ pointer: '/children/1/children/0', result: false }],
          },
        ],
      },
    });
    expect(JSON.stringify(explained)).not.toContain('actual');
  });

  it('reads facts the merchant keeps as rule metadata (product streams)', async () => {
    const inStream = { type: 'cartLineItemInProductStream', value: { operator: '=', streamIds: ['summer'] } };
    expect(expectOk(await preview(inStream))).toEqual({ result: false });
    expectOk(
      await staff('PUT', `/api/automation/entities/products/${PRODUCT}`, {
        revision: 1,
        data: { streamIds: ['summer'] },
      }),
    );
    expect(expectOk(await preview(inStream))).toEqual({ result: true });
  });

  it('writes nothing, in any table', async () => {
    const before = await h.digest();
    expectOk(
      await preview({
        type: 'andContainer',
        children: [amountAtLeast(1), { type: 'customerLoggedIn', value: { isLoggedIn: false } }],
      }),
    );
    expect((await preview(amountAtLeast(1), null)).status).toBe(400);
    expect(await h.digest()).toBe(before);
  });

  it('rejects a missing, unknown or foreign context token', async () => {
    const missing = await preview(amountAtLeast(1), null);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('CONTEXT_REQUIRED');
    const unknown = await preview(amountAtLeast(1), `${contextToken.slice(0, -4)}abcd`);
    expect(unknown.status).toBe(404);
    const foreign = await h.call('POST', '/api/automation/rules/preview', {
      token: h.shopB.token,
      body: { condition: amountAtLeast(1) },
      headers: { 'x-context-token': contextToken },
    });
    expect(foreign.status).toBe(404);
  });

  it('fails an order-source rule in cart-only preview, also beneath NOT', async () => {
    const order = { type: 'orderTag', value: { operator: '=', identifiers: ['vip'] } };
    const direct = await preview(order);
    expect(direct.status).toBe(422);
    expect(direct.body.code).toBe('RULE_SCOPE_MISSING');
    const negated = await preview({
      type: 'orContainer',
      children: [{ type: 'alwaysValid' }, { type: 'notContainer', children: [order] }],
    });
    expect(negated.body.code).toBe('RULE_SCOPE_MISSING');
  });
});

describe('explain', () => {
  it('returns each node’s decision and the fact it compared, for facts the caller gives', async () => {
    const explained = expectOk(
      await staff('POST', '/api/automation/rules/explain', {
        condition: {
          type: 'andContainer',
          children: [
            amountAtLeast(100),
            { type: 'customerTag', value: { operator: '=', identifiers: ['vip'] } },
          ],
        },
        facts: { now: '2026-11-22T10:00:00Z', cart: { amount: 80 }, customer: { tagIds: ['vip'] } },
      }),
    );
    expect(explained.result).toBe(false);
    expect(explained.trace).toMatchObject({
      type: 'andContainer',
      result: false,
      children: [
        { pointer: '/children/0', type: 'cartCartAmount', result: false, actual: 80 },
        { pointer: '/children/1', type: 'customerTag', result: true },
      ],
    });
    const misspelt = await staff('POST', '/api/automation/rules/explain', {
      condition: { type: 'alwaysValid' },
      facts: { now: '2026-11-22T10:00:00Z', cart: { amout: 80 } },
    });
    expect(misspelt.status).toBe(422);
  });
});

describe('import', () => {
  const flat = [
    { type: 'orContainer', parentId: null, id: 'aa63eedc25144ae095252ceb824a17ca' },
    {
      type: 'andContainer',
      parentId: 'aa63eedc25144ae095252ceb824a17ca',
      id: '4182ff99234e4b238033a3d16ade88eb',
    },
    {
      type: 'customerIsGuest',
      parentId: '4182ff99234e4b238033a3d16ade88eb',
      value: { isGuest: true },
      id: 'acf32b',
    },
  ];
  const nested = {
    type: 'orContainer',
    position: 0,
    children: [
      {
        type: 'andContainer',
        position: 0,
        children: [{ type: 'customerIsGuest', position: 0, value: { isGuest: true } }],
      },
    ],
  };

  it('normalizes the flat parentId list and the nested children form into the same native tree', async () => {
    const fromFlat = expectOk(await staff('POST', '/api/automation/import-condition', { condition: flat }));
    const fromNested = expectOk(
      await staff('POST', '/api/automation/import-condition', { condition: nested }),
    );
    expect(fromFlat.condition).toEqual({
      type: 'orContainer',
      children: [{ type: 'andContainer', children: [{ type: 'customerIsGuest', value: { isGuest: true } }] }],
    });
    expect(fromNested.condition).toEqual(fromFlat.condition);
    expect(fromFlat.issues).toEqual([]);
  });

  it('rejects unknown source conditions', async () => {
    const refused = await staff('POST', '/api/automation/import-condition', {
      condition: [{ id: 'a', type: 'swagCustomRule', parentId: null }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('RULE_UNKNOWN_CONDITION');
  });
});

describe('MCP parity', () => {
  it('saves, previews and imports through the same handlers', async () => {
    const call = await h.mcp(h.shopA.token);
    const saved = await call('automation.save', {
      kind: 'rules',
      id: rule(40),
      revision: 0,
      data: { name: { en: 'MCP' }, condition: amountAtLeast(5) },
    });
    expect(saved.isError).toBeFalsy();
    const previewed = await call('automation.preview', {
      condition: { type: 'ruleReference', ruleId: rule(40) },
      contextToken,
    });
    expect(JSON.stringify(previewed.structuredContent ?? previewed.content)).toContain('"result":true');
    const stale = await call('automation.delete', { kind: 'rules', id: rule(40), revision: 5 });
    expect(stale.isError).toBe(true);
    expect(JSON.stringify(stale.content)).toContain('STALE_REVISION');
  });
});
