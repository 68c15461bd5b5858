import { insertDefinition } from '@cartwright/repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
const TAX = '0190f0c8-0000-7000-8000-00000000c001';
const SHIPPING = '0190f0c8-0000-7000-8000-00000000c002';

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const put = (path: string, body: unknown) => h.call('PUT', path, { token: h.shopA.token, body });
const get = (path: string) => h.call('GET', path, { token: h.shopA.token });
const del = (path: string, body: unknown) => h.call('DELETE', path, { token: h.shopA.token, body });

describe('the shared basis', () => {
  it('starts with the main language and EUR', async () => {
    const languages = await get('/api/basis/languages');
    expect((languages.body.items as { code: string }[]).map((item) => item.code)).toEqual(['en']);
    const currencies = await get('/api/basis/currencies');
    expect(currencies.body.items).toEqual([
      expect.objectContaining({ code: 'EUR', precision: 2, symbol: '€', active: true, revision: 1 }),
    ]);
  });

  it('creates at revision 0, replaces at the stored revision, and rejects a stale one without change', async () => {
    const created = await put('/api/basis/languages/de-CH', { revision: 0, name: 'Deutsch (Schweiz)' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ code: 'de-CH', revision: 1, active: true });
    const again = await put('/api/basis/languages/de-CH', { revision: 0, name: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'STALE_REVISION', expected: 0, actual: 1 });
    const replaced = await put('/api/basis/languages/de-CH', {
      revision: 1,
      name: 'Schweizerdeutsch',
      active: false,
    });
    expect(replaced.body).toMatchObject({ revision: 2, name: 'Schweizerdeutsch', active: false });
    const listed = await get('/api/basis/languages');
    expect(
      (listed.body.items as { code: string; name: string }[]).find((item) => item.code === 'de-CH')?.name,
    ).toBe('Schweizerdeutsch');
  });

  it('validates codes, translations and tax rates with pointers', async () => {
    const badCode = await put('/api/basis/currencies/euro', { revision: 0, precision: 2, symbol: '€' });
    expect(badCode.status).toBe(422);
    expect((badCode.body.errors as { pointer: string }[]).map((error) => error.pointer)).toContain('/code');
    const noDefault = await put(`/api/basis/tax-classes/${TAX}`, {
      revision: 0,
      translations: { en: { name: 'Standard' } },
      rates: [{ country: 'DE', rate: 1900 }],
    });
    expect(noDefault.status).toBe(422);
    expect((noDefault.body.errors as { pointer: string }[])[0]?.pointer).toBe('/rates');
    const unknownField = await put('/api/basis/countries/DE', {
      revision: 0,
      translations: { en: { nom: 'x' } },
    });
    expect(unknownField.status).toBe(422);
  });

  it('keeps a currency precision immutable', async () => {
    const changed = await put('/api/basis/currencies/EUR', { revision: 1, precision: 3, symbol: '€' });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('CONFLICT');
  });

  it('refuses shipping prices in a currency the shop does not have', async () => {
    const response = await put(`/api/basis/shipping-methods/${SHIPPING}`, {
      revision: 0,
      translations: { en: { name: 'Standard' } },
      prices: [{ currency: 'USD', gross: 499, net: 419 }],
    });
    expect(response.status).toBe(422);
    expect((response.body.errors as { pointer: string }[])[0]?.pointer).toBe('/prices/0/currency');
  });

  it('answers 409 CONFLICT, not a 500, when a second shipping or payment method takes a key in use', async () => {
    for (const kind of ['shipping-methods', 'payment-methods'] as const) {
      const first = `0190f0c8-0000-7000-8000-00000000d${kind === 'shipping-methods' ? '101' : '201'}`;
      const second = `0190f0c8-0000-7000-8000-00000000d${kind === 'shipping-methods' ? '102' : '202'}`;
      const body = {
        revision: 0,
        key: 'express',
        translations: { en: { name: 'Express' } },
        ...(kind === 'payment-methods' ? { handler: 'invoice' } : {}),
      };
      expect((await put(`/api/basis/${kind}/${first}`, body)).status).toBe(200);
      const taken = await put(`/api/basis/${kind}/${second}`, body);
      expect(taken.status).toBe(409);
      expect(taken.type).toContain('application/problem+json');
      expect(taken.body).toMatchObject({ code: 'CONFLICT' });
      const listed = (await get(`/api/basis/${kind}`)).body.items as { id: string; key: string | null }[];
      expect(listed.filter((item) => item.key === 'express').map((item) => item.id)).toEqual([first]);
      await del(`/api/basis/${kind}/${first}`, { revision: 1 });
    }
  });

  it('blocks deleting the main language and anything a rule or flow names, and deletes at the revision', async () => {
    const main = await del('/api/basis/languages/en', { revision: 1 });
    expect(main.status).toBe(409);

    // German texts need German enabled (decision 0029); de-CH alone, inactive now, does not do.
    expect((await put('/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(200);
    const tax = await put(`/api/basis/tax-classes/${TAX}`, {
      revision: 0,
      translations: { en: { name: 'Standard', label: 'VAT' }, de: { name: 'Standard', label: 'MwSt.' } },
      rates: [
        { country: null, rate: 1900 },
        { country: 'AT', rate: 2000 },
      ],
    });
    expect(tax.status).toBe(200);
    const shipping = await put(`/api/basis/shipping-methods/${SHIPPING}`, {
      revision: 0,
      translations: { en: { name: 'Standard', description: '' } },
      prices: [{ currency: 'EUR', gross: 499, net: 419 }],
      taxClassId: TAX,
    });
    expect(shipping.status).toBe(200);
    // A rule naming the shipping method's id, anywhere in its JSON, blocks the delete.
    await insertDefinition(h.database.db, {
      tenantId: h.shopA.tenantId,
      kind: 'rule',
      id: '0190f0c8-0000-7000-8000-00000000c0ff',
      data: {
        condition: { type: 'cartShippingMethod', value: { operator: '=', shippingMethodIds: [SHIPPING] } },
      },
    });
    const blocked = await del(`/api/basis/shipping-methods/${SHIPPING}`, { revision: 1 });
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('REFERENCED');
    expect(blocked.body.references).toEqual([expect.objectContaining({ kind: 'rule' })]);

    const stale = await del('/api/basis/languages/de-CH', { revision: 1 });
    expect(stale.status).toBe(409);
    const deleted = await del('/api/basis/languages/de-CH', { revision: 2 });
    expect(deleted.status).toBe(200);
    expect((await del('/api/basis/languages/de-CH', { revision: 2 })).status).toBe(404);
  });
});
