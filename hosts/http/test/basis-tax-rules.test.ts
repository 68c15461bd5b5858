import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The shop's tax destination rules (decision 0049): `basis.tax_rules.*` under /api/basis/tax-rules,
// revision-bound, each write moving the basis revision; refusals that change nothing; references
// that keep a named tax class, saved rule or country from going; and every channel inheriting the
// rules, the main channel's orders taxed by them, a channel that removed one not.

let h: Harness;
let productId: string;
let mainChannel: string;
const SECOND = '0190f0c8-0000-7000-8000-0000000d0001';
const MUNICH = '0190f0c8-0000-7000-8000-0000000d0101';
const OTHER = '0190f0c8-0000-7000-8000-0000000d0102';
const SAVED_RULE = '0190f0c8-0000-7000-8000-0000000d0201';
const FOREIGN_RULE = '0190f0c8-0000-7000-8000-0000000d0202';

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
const read = (id: string) => staff('GET', `/api/merchant/commerce/channels/${id}`);
const list = async () => (expectOk(await staff('GET', '/api/basis/tax-rules')).items as Rule[]).map(fields);
const baseRevision = async () => expectOk(await read(mainChannel)).baseRevision as number;
const pointerOf = (body: Record<string, unknown>) => (body.errors as { pointer: string }[])[0]!.pointer;

interface Rule {
  readonly id: string;
  readonly revision: number;
  readonly [field: string]: unknown;
}
/** A rule as the list shows it, without its timestamps. */
const fields = ({ createdAt: _, updatedAt: __, ...rule }: Rule) => rule;

/** Bavaria, postcodes 80000–81999, the standard class at 7 %, unless `changes` say otherwise. */
const munich = (changes: Record<string, unknown> = {}) => ({
  country: 'DE',
  state: 'DE-BY',
  postcode: { kind: 'range', from: '80000', to: '81999' },
  validFrom: '2020-01-01T00:00:00Z',
  validUntil: null,
  priority: 5,
  ruleId: null,
  taxClassId: SELLABLE.standardTax,
  rate: 700,
  ...changes,
});

const CHANNEL = {
  name: { en: 'Wholesale' },
  mode: 'headless',
  paused: false,
  private: false,
  languages: ['en'],
  domains: [],
};

beforeAll(async () => {
  h = await createHarness();
  ({ productId } = await h.sellableTea({ gross: 1190, net: 1000, taxClassId: SELLABLE.standardTax }));
  const automation = expectOk(await staff('GET', '/api/automation'));
  mainChannel = (automation.channels as { id: string; isMain: boolean }[]).find((c) => c.isMain)!.id;
  expectOk(
    await staff('PUT', '/api/basis/countries/DE', {
      revision: 1,
      translations: { en: { name: 'Germany' } },
      subdivisions: [{ code: 'DE-BY', translations: { en: { name: 'Bavaria' } } }],
    }),
  );
  expectOk(
    await staff('PUT', '/api/basis/countries/AT', { revision: 0, translations: { en: { name: 'Austria' } } }),
  );
  for (const [token, id] of [
    [h.shopA.token, SAVED_RULE],
    [h.shopB.token, FOREIGN_RULE],
  ] as const) {
    expectOk(
      await h.call('PUT', `/api/automation/rules/${id}`, {
        token,
        body: {
          revision: 0,
          data: {
            name: { en: 'Big carts' },
            condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 30 } },
          },
        },
      }),
    );
  }
});
afterAll(async () => h?.close());

/** Places an order of `quantity` teas to Bavaria, `zipcode`, through the channel; answers its line rate. */
async function orderedRate(accessKey: string, zipcode: string, quantity = 1): Promise<number> {
  const token = await h.visitorWithCart(accessKey, [{ productId, quantity }], {
    ...SELLABLE.address,
    zipcode,
    subdivision: 'DE-BY',
  });
  const placed = expectOk(
    await h.call('POST', '/store-api/checkout', {
      headers: { 'x-channel-key': accessKey, 'x-context-token': token },
    }),
    201,
  );
  const orderId = ((placed.order ?? placed) as { id: string }).id;
  const order = expectOk(await staff('GET', `/api/orders/${orderId}`)).order as {
    lines: { taxRate: number }[];
  };
  return order.lines[0]!.taxRate;
}

describe('the shop’s tax destination rules', () => {
  it('saves, lists and deletes a rule at its revision, each write moving the basis revision', async () => {
    const before = await baseRevision();
    const saved = expectOk(await staff('PUT', `/api/basis/tax-rules/${OTHER}`, { revision: 0, ...munich() }));
    expect(saved).toMatchObject({ id: OTHER, revision: 1, ...munich() });
    expect(await baseRevision()).toBe(before + 1);
    const list1 = await list();
    expect(list1).toEqual([{ id: OTHER, revision: 1, ...munich() }]);

    const stale = await staff('PUT', `/api/basis/tax-rules/${OTHER}`, {
      revision: 0,
      ...munich({ rate: 0 }),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STALE_REVISION');
    const replaced = expectOk(
      await staff('PUT', `/api/basis/tax-rules/${OTHER}`, {
        revision: 1,
        ...munich({ postcode: { kind: 'list', values: ['80331', '80333'] }, rate: 0 }),
      }),
    );
    expect(replaced).toMatchObject({ revision: 2, postcode: { kind: 'list', values: ['80331', '80333'] } });
    expect(await baseRevision()).toBe(before + 2);

    const staleDelete = await staff('DELETE', `/api/basis/tax-rules/${OTHER}`, { revision: 1 });
    expect(staleDelete.status).toBe(409);
    expect(expectOk(await staff('DELETE', `/api/basis/tax-rules/${OTHER}`, { revision: 2 }))).toEqual({
      id: OTHER,
      deleted: true,
    });
    expect(await list()).toEqual([]);
    expect(await baseRevision()).toBe(before + 3);
    const gone = await staff('DELETE', `/api/basis/tax-rules/${OTHER}`, { revision: 3 });
    expect(gone.status).toBe(404);
  });

  it('refuses a state of another country or not of the country, bad postcodes and windows, an unknown or another shop’s saved rule or tax class, changing nothing', async () => {
    const before = await baseRevision();
    const attempt = (changes: Record<string, unknown>) =>
      staff('PUT', `/api/basis/tax-rules/${OTHER}`, { revision: 0, ...munich(changes) });
    const refusals: [Record<string, unknown>, string][] = [
      [{ state: 'AT-9' }, '/state'],
      [{ state: 'DE-BE' }, '/state'],
      [{ country: 'FR', state: null }, '/country'],
      [{ postcode: { kind: 'range', from: '89999', to: '80000' } }, '/postcode/to'],
      [{ postcode: { kind: 'list', values: [] } }, '/postcode/values'],
      [{ validFrom: '2026-01-01T00:00:00Z', validUntil: '2025-01-01T00:00:00Z' }, '/validUntil'],
      [{ rate: 10_001 }, '/rate'],
      [{ ruleId: '0190f0c8-0000-7000-8000-0000000d0999' }, '/ruleId'],
      [{ ruleId: FOREIGN_RULE }, '/ruleId'],
      [{ taxClassId: '0190f0c8-0000-7000-8000-0000000d0998' }, '/taxClassId'],
    ];
    for (const [changes, pointer] of refusals) {
      const refused = await attempt(changes);
      expect(refused.status, JSON.stringify(changes)).toBe(422);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(pointerOf(refused.body), JSON.stringify(changes)).toBe(pointer);
    }
    expect(await list()).toEqual([]);
    expect(await baseRevision()).toBe(before);
  });

  it('is another shop’s business only in its own shop', async () => {
    expectOk(
      await staff('PUT', `/api/basis/tax-rules/${OTHER}`, { revision: 0, ...munich({ taxClassId: null }) }),
    );
    const foreign = await h.call('GET', '/api/basis/tax-rules', { token: h.shopB.token });
    expect(expectOk(foreign).items).toEqual([]);
    const foreignDelete = await h.call('DELETE', `/api/basis/tax-rules/${OTHER}`, {
      token: h.shopB.token,
      body: { revision: 1 },
    });
    expect(foreignDelete.status).toBe(404);
    expectOk(await staff('DELETE', `/api/basis/tax-rules/${OTHER}`, { revision: 1 }));
  });

  it('keeps the saved rule, tax class and country (and its subdivision) it names from going, listing the rule', async () => {
    expectOk(
      await staff('PUT', `/api/basis/tax-rules/${OTHER}`, { revision: 0, ...munich({ ruleId: SAVED_RULE }) }),
    );
    const ruleDelete = await staff('DELETE', `/api/automation/rules/${SAVED_RULE}`, { revision: 1 });
    expect(ruleDelete.status).toBe(409);
    expect(ruleDelete.body.code).toBe('REFERENCED');
    expect(ruleDelete.body.references).toEqual([{ kind: 'tax_rule', id: OTHER }]);

    const taxClasses = expectOk(await staff('GET', '/api/basis/tax-classes')).items as Rule[];
    const standard = taxClasses.find((taxClass) => taxClass.id === SELLABLE.standardTax)!;
    const classDelete = await staff('DELETE', `/api/basis/tax-classes/${SELLABLE.standardTax}`, {
      revision: standard.revision,
    });
    expect(classDelete.status).toBe(409);
    expect(classDelete.body.references).toContainEqual({ kind: 'tax_rule', id: OTHER });

    const countries = expectOk(await staff('GET', '/api/basis/countries')).items as (Rule & {
      code: string;
    })[];
    const germany = countries.find((country) => country.code === 'DE')!;
    const countryDelete = await staff('DELETE', '/api/basis/countries/DE', { revision: germany.revision });
    expect(countryDelete.status).toBe(409);
    expect(countryDelete.body.references).toContainEqual({ kind: 'tax_rule', id: OTHER });
    const withoutBavaria = await staff('PUT', '/api/basis/countries/DE', {
      revision: germany.revision,
      translations: { en: { name: 'Germany' } },
      subdivisions: [],
    });
    expect(withoutBavaria.status).toBe(409);
    expect(withoutBavaria.body.references).toEqual([{ kind: 'tax_rule', id: OTHER, key: 'DE-BY' }]);

    expectOk(await staff('DELETE', `/api/basis/tax-rules/${OTHER}`, { revision: 1 }));
  });
});

describe('channels inherit the shop’s rules', () => {
  it('taxes the main channel’s order by an inherited rule; a channel that removed it taxes at the class rate; reset inherits again', async () => {
    expectOk(await staff('PUT', `/api/basis/tax-rules/${MUNICH}`, { revision: 0, ...munich() }));
    const main = expectOk(await read(mainChannel));
    expect((main.effective as { taxRules: Record<string, unknown> }).taxRules[MUNICH]).toEqual(munich());
    expect((main.provenance as Record<string, string>)[`/taxRules/${MUNICH}`]).toBe('inherited');
    expect(main.overrides).toEqual({});

    const created = expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: 0,
        baseRevision: main.baseRevision,
        channel: CHANNEL,
        overrides: { taxRules: { [MUNICH]: null } },
      }),
    );
    expect((created.effective as { taxRules: Record<string, unknown> }).taxRules).toEqual({});
    expect((created.provenance as Record<string, string>)[`/taxRules/${MUNICH}`]).toBe('removed');

    expect(await orderedRate(main.accessKey as string, '80331')).toBe(700);
    expect(await orderedRate(main.accessKey as string, '10115')).toBe(1900);
    expect(await orderedRate(created.accessKey as string, '80331')).toBe(1900);

    // An override of one field: the rest stays the shop's.
    const overridden = expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: created.revision,
        baseRevision: created.baseRevision,
        channel: CHANNEL,
        overrides: { taxRules: { [MUNICH]: { rate: 500 } } },
      }),
    );
    expect((overridden.effective as { taxRules: Record<string, unknown> }).taxRules[MUNICH]).toEqual(
      munich({ rate: 500 }),
    );
    expect((overridden.provenance as Record<string, string>)[`/taxRules/${MUNICH}`]).toBe('overridden');
    expect(await orderedRate(created.accessKey as string, '80331')).toBe(500);

    // Reset: no override, inherited again; a later basis change reaches it.
    const reset = expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: overridden.revision,
        baseRevision: overridden.baseRevision,
        channel: CHANNEL,
        overrides: {},
      }),
    );
    expect((reset.provenance as Record<string, string>)[`/taxRules/${MUNICH}`]).toBe('inherited');
    expectOk(await staff('PUT', `/api/basis/tax-rules/${MUNICH}`, { revision: 1, ...munich({ rate: 0 }) }));
    expect(await orderedRate(created.accessKey as string, '80331')).toBe(0);
    expect(await orderedRate(main.accessKey as string, '80331')).toBe(0);
  });

  it('applies an inherited rule’s saved rule condition per cart, and a channel cannot name an unknown saved rule', async () => {
    expectOk(
      await staff('PUT', `/api/basis/tax-rules/${MUNICH}`, {
        revision: 2,
        ...munich({ ruleId: SAVED_RULE, rate: 500 }),
      }),
    );
    const main = expectOk(await read(mainChannel));
    expect(await orderedRate(main.accessKey as string, '80331', 1)).toBe(1900);
    expect(await orderedRate(main.accessKey as string, '80331', 3)).toBe(500);

    const second = expectOk(await read(SECOND));
    const refused = await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
      revision: second.revision,
      baseRevision: second.baseRevision,
      channel: CHANNEL,
      overrides: { taxRules: { [MUNICH]: { ruleId: FOREIGN_RULE } } },
    });
    expect(refused.status).toBe(422);
    expect(pointerOf(refused.body)).toBe(`/overrides/taxRules/${MUNICH}/ruleId`);
    expect(expectOk(await read(SECOND)).revision).toBe(second.revision);
  });

  it('answers the same over MCP', async () => {
    const call = await h.mcp(h.shopA.token);
    const http = expectOk(await staff('GET', '/api/basis/tax-rules'));
    const viaMcp = await call('basis.tax_rules.list', {});
    expect(viaMcp.isError).toBeFalsy();
    expect(viaMcp.structuredContent).toEqual(http);
    const refused = await call('basis.tax_rules.save', {
      id: OTHER,
      revision: 0,
      ...munich({ state: 'AT-9' }),
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).toContain('VALIDATION_FAILED');
  });
});
