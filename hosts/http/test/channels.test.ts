import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { destinationRule, seedGermany } from './tax-fixture.ts';

// Sales channels over HTTP and MCP: effective settings from the shared basis plus sparse
// overrides with per-field provenance, revision- and basis-revision-bound saves, basis-only
// fields refused, content language on reads and writes (reading creates nothing), and deletes
// blocked for the main channel and for channels still in use.

let h: Harness;
let mainChannel: string;
const SECOND = '0190f0c8-0000-7000-8000-0000000c0001';
const THIRD = '0190f0c8-0000-7000-8000-0000000c0002';
const RULE = '0190f0c8-0000-7000-8000-0000000c0101';
const MUNICH = '0190f0c8-0000-7000-8000-0000000c0102';
const NUREMBERG = '0190f0c8-0000-7000-8000-0000000c0103';
const BIG_CARTS = '0190f0c8-0000-7000-8000-0000000c0104';
const SAVED_BIG_CARTS = '0190f0c8-0000-7000-8000-0000000c0105';
let productId: string;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
const read = (id: string, language?: string) =>
  staff('GET', `/api/merchant/commerce/channels/${id}${language ? `?language=${language}` : ''}`);

const CHANNEL = {
  name: { en: 'Wholesale', de: 'Großhandel' },
  mode: 'headless',
  paused: false,
  private: true,
  languages: ['en', 'de'],
  domains: [{ url: 'https://b2b.example', language: 'de', currency: 'EUR' }],
};

beforeAll(async () => {
  h = await createHarness();
  ({ productId } = await h.sellableTea({ gross: 1190, net: 1000, taxClassId: SELLABLE.standardTax }));
  const automation = expectOk(await staff('GET', '/api/automation'));
  mainChannel = (automation.channels as { id: string; isMain: boolean }[]).find(
    (channel) => channel.isMain,
  )!.id;
  expectOk(await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch', active: true }));
  await seedGermany(h);
  expectOk(
    await staff('PUT', '/api/company', { revision: 0, data: { name: 'Cartwright GmbH', vatId: 'DE123' } }),
  );
});
afterAll(async () => h?.close());

/** A new registered visitor of the channel with `accessKey` whose cart holds `quantity` teas. */
const cartWith = (accessKey: string, zipcode: string, quantity = 1) =>
  h.visitorWithCart(accessKey, [{ productId, quantity }], {
    ...SELLABLE.address,
    zipcode,
    subdivision: 'DE-BY',
  });

/** Places an order through the channel's storefront; answers the order as staff read it. */
async function placeOrder(
  accessKey: string,
  zipcode: string,
  quantity = 1,
): Promise<Record<string, unknown>> {
  const token = await cartWith(accessKey, zipcode, quantity);
  const placed = expectOk(
    await h.call('POST', '/store-api/checkout', {
      headers: { 'x-channel-key': accessKey, 'x-context-token': token },
    }),
    201,
  );
  const orderId = ((placed.order ?? placed) as { id: string }).id;
  return readOrder(orderId);
}

const readOrder = async (orderId: string) =>
  expectOk(await staff('GET', `/api/orders/${orderId}`)).order as Record<string, unknown>;
const lineRate = (order: Record<string, unknown>) => (order.lines as { taxRate: number }[])[0]!.taxRate;

describe('reading a channel', () => {
  it('answers the effective settings of the main channel, all inherited, in the content language, creating nothing', async () => {
    const before = await h.digest();
    const en = expectOk(await read(mainChannel));
    const de = expectOk(await read(mainChannel, 'de'));
    const swiss = expectOk(await read(mainChannel, 'de-CH'));
    expect(await h.digest()).toBe(before);

    expect(en).toMatchObject({
      id: mainChannel,
      isMain: true,
      language: 'en',
      mainLanguage: 'en',
      overrides: {},
    });
    expect((en.channel as { languages: string[] }).languages).toEqual(['de', 'en']);
    const provenance = en.provenance as Record<string, string>;
    expect(Object.values(provenance).every((value) => value === 'inherited')).toBe(true);
    expect(provenance['/company/legal/vatId']).toBe('inherited');
    const effective = en.effective as Record<string, Record<string, Record<string, unknown>>>;
    expect(effective.company).toMatchObject({ name: 'Cartwright GmbH', legal: { vatId: 'DE123' } });
    expect(effective.shippingMethods![SELLABLE.parcel]).toMatchObject({ name: 'Parcel', active: true });
    // German country names follow the content language; a missing translation falls back to English.
    expect((de.effective as typeof effective).countries!.DE).toMatchObject({
      name: 'Deutschland',
      subdivisions: [{ code: 'DE-BY', name: 'Bayern' }],
    });
    expect((de.effective as typeof effective).shippingMethods![SELLABLE.parcel]!.name).toBe('Parcel');
    // A regional form of an enabled language reads its base language (decision 0029).
    expect((swiss.effective as typeof effective).countries!.DE!.name).toBe('Deutschland');
  });

  it('answers 404 for an unknown channel and for another shop’s channel', async () => {
    expect((await read(SECOND)).status).toBe(404);
    const foreign = await h.call('GET', `/api/merchant/commerce/channels/${mainChannel}`, {
      token: h.shopB.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
  });
});

describe('saving a channel', () => {
  it('creates an additional channel whose sparse overrides show as overridden, the rest inherited', async () => {
    const base = expectOk(await read(mainChannel)).baseRevision as number;
    const saved = expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: 0,
        baseRevision: base,
        language: 'de',
        channel: CHANNEL,
        overrides: {
          company: { legal: { vatId: null } },
          shippingMethods: {
            [SELLABLE.parcel]: {
              prices: [{ currency: 'EUR', gross: 990, net: 832 }],
              texts: { name: 'Spedition', description: '' },
            },
          },
          paymentMethods: { [SELLABLE.invoice]: { active: false } },
          taxRates: { [SELLABLE.reducedTax]: { rates: { DE: 500 } } },
          taxRules: {
            [RULE]: destinationRule({
              state: 'DE-BY',
              postcode: { kind: 'range', from: '80000', to: '87999' },
              priority: 10,
              taxClassId: SELLABLE.standardTax,
              rate: 1600,
            }),
          },
        },
      }),
    );
    expect(saved).toMatchObject({
      id: SECOND,
      isMain: false,
      revision: 1,
      baseRevision: base,
      language: 'de',
    });
    const provenance = saved.provenance as Record<string, string>;
    expect(provenance['/company/legal/vatId']).toBe('overridden');
    expect(provenance['/company/name']).toBe('inherited');
    expect(provenance[`/shippingMethods/${SELLABLE.parcel}/prices`]).toBe('overridden');
    expect(provenance[`/shippingMethods/${SELLABLE.parcel}/taxClassId`]).toBe('inherited');
    expect(provenance[`/paymentMethods/${SELLABLE.invoice}/active`]).toBe('overridden');
    expect(provenance[`/taxRates/${SELLABLE.reducedTax}/rates/DE`]).toBe('overridden');
    expect(provenance[`/taxRates/${SELLABLE.reducedTax}/rates/default`]).toBe('inherited');
    expect(provenance[`/taxRules/${RULE}`]).toBe('overridden');

    const effective = saved.effective as Record<string, Record<string, Record<string, unknown>>>;
    // Explicit null overrides the inherited VAT id; the company name still inherits.
    expect(effective.company).toMatchObject({ name: 'Cartwright GmbH', legal: { vatId: null } });
    // The German texts were written in the content language: an explicit empty description stays blank.
    expect(effective.shippingMethods![SELLABLE.parcel]).toMatchObject({ name: 'Spedition', description: '' });
    expect((saved.overrides as Record<string, Record<string, unknown>>).shippingMethods).toEqual({
      [SELLABLE.parcel]: {
        prices: [{ currency: 'EUR', gross: 990, net: 832 }],
        translations: { de: { name: 'Spedition', description: '' } },
      },
    });
    // English still reads the basis name: the override is German only.
    const en = expectOk(await read(SECOND, 'en'));
    expect((en.effective as typeof effective).shippingMethods![SELLABLE.parcel]!.name).toBe('Parcel');
    // The main channel is untouched.
    expect(expectOk(await read(mainChannel)).overrides).toEqual({});
  });

  it('shows per channel whether a method is offered, inherited or overridden', async () => {
    const detail = expectOk(
      await staff('GET', `/api/merchant/commerce/methods/payments/${SELLABLE.invoice}?language=de`),
    );
    expect(detail).toMatchObject({ area: 'payments', language: 'de' });
    expect(detail.method).toMatchObject({ id: SELLABLE.invoice, active: true });
    const channels = detail.channels as { id: string; active: boolean; provenance: string }[];
    expect(channels.find((channel) => channel.id === mainChannel)).toMatchObject({
      active: true,
      provenance: 'inherited',
    });
    expect(channels.find((channel) => channel.id === SECOND)).toMatchObject({
      active: false,
      provenance: 'overridden',
    });
    const foreign = await h.call('GET', `/api/merchant/commerce/methods/payments/${SELLABLE.invoice}`, {
      token: h.shopB.token,
    });
    expect(foreign.status).toBe(404);
  });

  it('refuses a stale channel revision and a stale basis revision, naming which, and changes nothing', async () => {
    const current = expectOk(await read(SECOND));
    const body = (revision: number, baseRevision: number) => ({
      revision,
      baseRevision,
      channel: CHANNEL,
      overrides: current.overrides,
    });
    const staleChannel = await staff(
      'PUT',
      `/api/merchant/commerce/channels/${SECOND}`,
      body(0, current.baseRevision as number),
    );
    expect(staleChannel.status).toBe(409);
    expect(staleChannel.body).toMatchObject({
      code: 'STALE_REVISION',
      field: 'revision',
      expected: 0,
      actual: 1,
    });

    // A basis write (the company identity) moves the basis revision.
    expectOk(
      await staff('PUT', '/api/company', { revision: 1, data: { name: 'Cartwright GmbH', vatId: 'DE999' } }),
    );
    const staleBase = await staff(
      'PUT',
      `/api/merchant/commerce/channels/${SECOND}`,
      body(1, current.baseRevision as number),
    );
    expect(staleBase.status).toBe(409);
    expect(staleBase.body).toMatchObject({
      code: 'STALE_REVISION',
      field: 'baseRevision',
      expected: current.baseRevision,
      actual: (current.baseRevision as number) + 1,
    });
    const after = expectOk(await read(SECOND));
    expect(after.revision).toBe(1);
    expect(after.baseRevision).toBe((current.baseRevision as number) + 1);
    expect(after.savedAgainstBaseRevision).toBe(current.baseRevision);
  });

  it('refuses an override of a shared-basis-only field, an unknown method id and an ill-typed value', async () => {
    const current = expectOk(await read(SECOND));
    const attempt = (overrides: unknown) =>
      staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: current.revision,
        baseRevision: current.baseRevision,
        channel: CHANNEL,
        overrides,
      });
    const basisOnly = await attempt({ languages: { de: { name: 'Deutsch (B2B)' } } });
    expect(basisOnly.status).toBe(422);
    expect(basisOnly.type).toContain('application/problem+json');
    expect(basisOnly.body).toMatchObject({ code: 'SETTING_BASIS_ONLY' });
    expect((basisOnly.body.errors as { pointer: string }[])[0]!.pointer).toBe('/overrides/languages');
    const taxClass = await attempt({ taxClasses: { [SELLABLE.standardTax]: { key: 'x' } } });
    expect(taxClass.body.code).toBe('SETTING_BASIS_ONLY');

    const unknown = await attempt({
      shippingMethods: { '0190f0c8-0000-7000-8000-0000000c0999': { active: false } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    const typed = await attempt({ taxRates: { [SELLABLE.standardTax]: { rates: { DE: 'nineteen' } } } });
    expect(typed.status).toBe(422);
    expect((typed.body.errors as { pointer: string }[])[0]!.pointer).toBe(
      `/overrides/taxRates/${SELLABLE.standardTax}/rates/DE`,
    );
    const badState = await attempt({
      taxRules: {
        [RULE]: destinationRule({ state: 'DE-XX', priority: 1 }),
      },
    });
    expect(badState.status).toBe(422);
    expect((badState.body.errors as { pointer: string }[])[0]!.pointer).toBe(
      `/overrides/taxRules/${RULE}/state`,
    );
    const reversed = await attempt({
      taxRules: {
        [RULE]: destinationRule({ postcode: { kind: 'range', from: '89999', to: '80000' }, priority: 1 }),
      },
    });
    expect(reversed.status).toBe(422);
    expect((reversed.body.errors as { pointer: string }[])[0]!.pointer).toMatch(
      new RegExp(`^/overrides/taxRules/${RULE}/postcode`),
    );
    expect(expectOk(await read(SECOND)).revision).toBe(current.revision);
  });

  it('keeps the main channel on the shop’s languages', async () => {
    const current = expectOk(await read(mainChannel));
    const refused = await staff('PUT', `/api/merchant/commerce/channels/${mainChannel}`, {
      revision: current.revision,
      baseRevision: current.baseRevision,
      channel: { ...CHANNEL, mode: 'storefront' },
    });
    expect(refused.status).toBe(422);
    expect((refused.body.errors as { pointer: string }[])[0]!.pointer).toBe('/channel/languages');
  });
});

describe('deleting a channel', () => {
  it('never deletes the main channel, refuses a channel with overrides with the list, deletes an unused one', async () => {
    const main = expectOk(await read(mainChannel));
    const refusedMain = await staff('DELETE', `/api/merchant/commerce/channels/${mainChannel}`, {
      revision: main.revision,
    });
    expect(refusedMain.status).toBe(409);
    expect(refusedMain.body.code).toBe('MAIN_CHANNEL');

    const second = expectOk(await read(SECOND));
    const refused = await staff('DELETE', `/api/merchant/commerce/channels/${SECOND}`, {
      revision: second.revision,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CHANNEL_IN_USE');
    expect(refused.body.blockers).toEqual([
      {
        kind: 'overrides',
        count: 5,
        fields: ['company', 'paymentMethods', 'shippingMethods', 'taxRates', 'taxRules'],
      },
    ]);

    const third = expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${THIRD}`, {
        revision: 0,
        baseRevision: second.baseRevision,
        channel: CHANNEL,
      }),
    );
    const stale = await staff('DELETE', `/api/merchant/commerce/channels/${THIRD}`, { revision: 7 });
    expect(stale.body.code).toBe('STALE_REVISION');
    expect(
      expectOk(
        await staff('DELETE', `/api/merchant/commerce/channels/${THIRD}`, { revision: third.revision }),
      ),
    ).toEqual({ channelId: THIRD, deleted: true });
    expect((await read(THIRD)).status).toBe(404);
  });
});

describe('checkout under a channel’s settings', () => {
  /** Saves the main channel with these overrides at its current revisions; answers its key. */
  const saveMain = async (overrides: Record<string, unknown>) => {
    const main = expectOk(await read(mainChannel));
    expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${mainChannel}`, {
        revision: main.revision,
        baseRevision: main.baseRevision,
        channel: { name: { en: 'Storefront' }, mode: 'storefront', paused: false, private: false },
        overrides,
      }),
    );
    return main.accessKey as string;
  };

  it('taxes by the highest-priority matching destination rule: postcode range, prefix, none; the order keeps its settings', async () => {
    const accessKey = await saveMain({
      taxRules: {
        [MUNICH]: destinationRule({
          state: 'DE-BY',
          postcode: { kind: 'range', from: '80000', to: '81999' },
          priority: 10,
          taxClassId: SELLABLE.standardTax,
          rate: 700,
        }),
        [NUREMBERG]: destinationRule({
          postcode: { kind: 'prefix', value: '90' },
          priority: 5,
          rate: 1000,
        }),
      },
    });
    const inRange = await placeOrder(accessKey, '81675');
    const byPrefix = await placeOrder(accessKey, '90403');
    const outside = await placeOrder(accessKey, '82000');
    expect(lineRate(inRange)).toBe(700);
    expect(lineRate(byPrefix)).toBe(1000);
    expect(lineRate(outside)).toBe(1900);
    // 11.90 gross at 7 % is 11.12 net; at 19 % it is 10.00.
    expect((inRange.price as { subtotal: { net: number } }).subtotal.net).toBe(1112);
    expect((outside.price as { subtotal: { net: number } }).subtotal.net).toBe(1000);

    const snapshot = (order: Record<string, unknown>) =>
      (order.settingsSnapshot as { effective: { taxRules: Record<string, unknown> } }).effective;
    expect(Object.keys(snapshot(inRange).taxRules).sort()).toEqual([MUNICH, NUREMBERG].sort());

    // Later setting changes never alter a placed order.
    await saveMain({});
    const reread = await readOrder(inRange.id as string);
    expect(reread.settingsSnapshot).toEqual(inRange.settingsSnapshot);
    expect(lineRate(reread)).toBe(700);
    expect(lineRate(await placeOrder(accessKey, '81675'))).toBe(1900);
  });

  it('applies a destination rule with a saved rule condition only to carts the rule matches', async () => {
    expectOk(
      await staff('PUT', `/api/automation/rules/${SAVED_BIG_CARTS}`, {
        revision: 0,
        data: {
          name: { en: 'Big carts' },
          condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 30 } },
        },
      }),
    );
    const accessKey = await saveMain({
      taxRules: { [BIG_CARTS]: destinationRule({ ruleId: SAVED_BIG_CARTS, priority: 1, rate: 500 }) },
    });
    expect(lineRate(await placeOrder(accessKey, '10115', 1))).toBe(1900);
    expect(lineRate(await placeOrder(accessKey, '10115', 3))).toBe(500);
    await saveMain({});
  });

  it('refuses checkout to a country the channel does not deliver to', async () => {
    expectOk(
      await staff('PUT', '/api/basis/countries/AT', {
        revision: 0,
        translations: { en: { name: 'Austria' } },
      }),
    );
    const accessKey = await saveMain({ deliveryCountries: ['AT'] });
    const token = await cartWith(accessKey, '10115');
    const cart = expectOk(
      await h.call('GET', '/store-api/cart', {
        headers: { 'x-channel-key': accessKey, 'x-context-token': token },
      }),
    );
    expect(cart.problems).toEqual([
      expect.objectContaining({ code: 'DELIVERY_COUNTRY_UNAVAILABLE', lineId: null }),
    ]);
    const refused = await h.call('POST', '/store-api/checkout', {
      headers: { 'x-channel-key': accessKey, 'x-context-token': token },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CART_INVALID');
    await saveMain({});
    expectOk(
      await h.call('POST', '/store-api/checkout', {
        headers: { 'x-channel-key': accessKey, 'x-context-token': token },
      }),
      201,
    );
  });

  it('refuses to delete a channel with an open cart (and its customer), listing them', async () => {
    const base = expectOk(await read(mainChannel)).baseRevision as number;
    const created = expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${THIRD}`, {
        revision: 0,
        baseRevision: base,
        // Public: a private channel's store API needs a bearer token (decision 0030).
        channel: { ...CHANNEL, private: false },
      }),
    );
    await cartWith(created.accessKey as string, '10115');
    const refused = await staff('DELETE', `/api/merchant/commerce/channels/${THIRD}`, {
      revision: created.revision,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CHANNEL_IN_USE');
    expect(refused.body.blockers).toEqual([
      { kind: 'customers', count: 1 },
      { kind: 'carts', count: 1 },
    ]);
  });

  it('refuses to delete a channel a rule or flow names anywhere in its JSON, listing them, and deletes it once they are gone', async () => {
    const base = expectOk(await read(mainChannel)).baseRevision as number;
    const FOURTH = '0190f0c8-0000-7000-8000-0000000c0004';
    const NAMING_RULE = '0190f0c8-0000-7000-8000-0000000c01f5';
    const created = expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${FOURTH}`, {
        revision: 0,
        baseRevision: base,
        channel: CHANNEL,
      }),
    );
    const rule = expectOk(
      await staff('PUT', `/api/automation/rules/${NAMING_RULE}`, {
        revision: 0,
        data: {
          name: { en: 'Only the fourth channel' },
          condition: { type: 'salesChannel', value: { operator: '=', salesChannelIds: [FOURTH] } },
        },
      }),
    );
    const refused = await staff('DELETE', `/api/merchant/commerce/channels/${FOURTH}`, {
      revision: created.revision,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CHANNEL_IN_USE');
    expect(refused.body.blockers).toEqual([
      { kind: 'definitions', count: 1, references: [{ kind: 'rule', id: NAMING_RULE, key: null }] },
    ]);
    expectOk(await staff('DELETE', `/api/automation/rules/${NAMING_RULE}`, { revision: rule.revision }));
    expectOk(
      await staff('DELETE', `/api/merchant/commerce/channels/${FOURTH}`, { revision: created.revision }),
    );
  });
});

describe('MCP parity', () => {
  it('reads and saves through the same handlers, errors with the same codes', async () => {
    const call = await h.mcp(h.shopA.token);
    const http = expectOk(await read(SECOND, 'de'));
    const viaMcp = await call('merchant.commerce.read', { channelId: SECOND, language: 'de' });
    expect(viaMcp.isError).toBeFalsy();
    expect(viaMcp.structuredContent).toEqual(http);
    const stale = await call('merchant.commerce.save', {
      channelId: SECOND,
      revision: 0,
      baseRevision: http.baseRevision,
      channel: CHANNEL,
    });
    expect(stale.isError).toBe(true);
    expect(JSON.stringify(stale)).toContain('STALE_REVISION');
    const basisOnly = await call('merchant.commerce.save', {
      channelId: SECOND,
      revision: http.revision,
      baseRevision: http.baseRevision,
      channel: CHANNEL,
      overrides: { countries: { DE: { active: false } } },
    });
    expect(basisOnly.isError).toBe(true);
    expect(JSON.stringify(basisOnly)).toContain('SETTING_BASIS_ONLY');
    const main = expectOk(await read(mainChannel));
    const refusedMain = await call('merchant.commerce.delete', {
      channelId: mainChannel,
      revision: main.revision,
    });
    expect(refusedMain.isError).toBe(true);
    expect(refusedMain.structuredContent?.code).toBe('MAIN_CHANNEL');
    const foreign = await (await h.mcp(h.shopB.token))('merchant.commerce.read', { channelId: SECOND });
    expect(foreign.isError).toBe(true);
    expect(JSON.stringify(foreign)).toContain('NOT_FOUND');
  });
});

describe('company identity, field by field', () => {
  it('inherits every structured legal field and the logos from the shop, and holds a channel list to its limits', async () => {
    const stored = expectOk(await staff('GET', '/api/company'));
    const company = expectOk(
      await staff('PUT', '/api/company', {
        revision: stored.revision,
        data: {
          ...(stored.data as Record<string, unknown>),
          companyName: 'Cartwright Handels GmbH',
          legalForm: 'GmbH',
          registrationNumber: 'HRB 12345',
          registrationCourt: 'Amtsgericht München',
          managingDirectors: ['Ada Lovelace', 'Grace Hopper'],
          logoLight: 'https://cdn.example/logo-light.svg',
        },
      }),
    );
    expect(company.data).toMatchObject({ managingDirectors: ['Ada Lovelace', 'Grace Hopper'] });
    const second = expectOk(await read(SECOND));
    const effective = second.effective as { company: Record<string, Record<string, unknown>> };
    expect(effective.company.legal).toMatchObject({
      companyName: 'Cartwright Handels GmbH',
      legalForm: 'GmbH',
      registrationNumber: 'HRB 12345',
      registrationCourt: 'Amtsgericht München',
      managingDirectors: ['Ada Lovelace', 'Grace Hopper'],
    });
    expect(effective.company.logos).toEqual({ light: 'https://cdn.example/logo-light.svg' });
    const provenance = second.provenance as Record<string, string>;
    expect(provenance['/company/legal/managingDirectors']).toBe('inherited');
    expect(provenance['/company/logos/light']).toBe('inherited');

    // A channel's list of managing directors is held to the same limits as the shop's.
    const before = await h.digest();
    for (const managingDirectors of [
      ['x'.repeat(201)],
      Array.from({ length: 21 }, (_, i) => `Director ${i}`),
    ]) {
      const refused = await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: second.revision,
        baseRevision: second.baseRevision,
        channel: second.channel,
        overrides: { ...(second.overrides as object), company: { legal: { managingDirectors } } },
      });
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toContain('managingDirectors');
    }
    const badLogo = await staff('PUT', '/api/company', {
      revision: company.revision,
      data: { ...(company.data as object), logoDark: 'not a url' },
    });
    expect(badLogo.status).toBe(422);
    expect(await h.digest()).toBe(before);
  });
});

describe('a channel’s catalog and navigation', () => {
  it('names only categories of this shop: an unknown one or another shop’s is refused at its place', async () => {
    const own = '0190f0c8-0000-7000-8000-0000000ca701';
    const foreign = '0190f0c8-0000-7000-8000-0000000ca702';
    expectOk(
      await staff('PUT', `/api/catalog/categories/${own}`, {
        revision: 0,
        translations: { en: { name: 'Tea' } },
      }),
    );
    expect(
      (
        await h.call('PUT', `/api/catalog/categories/${foreign}`, {
          token: h.shopB.token,
          body: { revision: 0, translations: { en: { name: 'Theirs' } } },
        })
      ).status,
    ).toBe(200);
    const second = expectOk(await read(SECOND));
    const save = (channel: Record<string, unknown>) =>
      staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: second.revision,
        baseRevision: second.baseRevision,
        channel: { ...(second.channel as object), ...channel },
        overrides: second.overrides,
      });
    const before = await h.digest();
    const refused = await save({
      catalog: { categoryIds: [own, foreign] },
      navigation: { rootCategoryId: '0190f0c8-0000-7000-8000-0000000ca7ff' },
    });
    expect(refused.status).toBe(422);
    expect((refused.body as { errors: { pointer: string }[] }).errors.map((error) => error.pointer)).toEqual([
      '/channel/catalog/categoryIds/1',
      '/channel/navigation/rootCategoryId',
    ]);
    expect(await h.digest()).toBe(before);
    const saved = expectOk(
      await save({ catalog: { categoryIds: [own] }, navigation: { rootCategoryId: own } }),
    );
    expect(saved.channel).toMatchObject({
      catalog: { categoryIds: [own] },
      navigation: { rootCategoryId: own },
    });
    // The category is now in use: deleting it is refused, naming the channel.
    const deleted = await staff('DELETE', `/api/catalog/categories/${own}?revision=1`);
    expect(deleted.status).toBe(409);
    expect(JSON.stringify(deleted.body)).toContain(SECOND);
  });
});
