import { SELLABLE } from '@cartwright/service/testing';
import { expect } from 'vitest';
import type { Harness } from './harness.ts';

// The shop the channel tax page's tests start from (admin-tax.test.ts in process, the walk
// admin-tax.e2e.test.ts in chromium), a channel read as they look at it, and Germany and a tax
// destination rule as channels.test.ts uses them too.

/** The saved rule condition "Big carts" (always valid) a destination rule may name. */
export const BIG_CARTS = '0190f0c8-0000-7000-8000-00000000ab01';

/** `merchant.commerce.read` of a channel, as far as the tax tests look at it. */
export interface TaxChannelRead {
  revision: number;
  baseRevision: number;
  channel: Record<string, unknown>;
  overrides: {
    taxRules?: Record<string, Record<string, unknown> | null>;
    taxRates?: Record<string, { rates: Record<string, number | null> }>;
  };
  effective: { taxRules: Record<string, Record<string, unknown>> };
  provenance: Record<string, string>;
}

const owner = (h: Harness, method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

/** Channel `id` of shop A as its owner reads it over the API (200, else the answer is shown). */
export async function readTaxChannel(h: Harness, id: string): Promise<TaxChannelRead> {
  const read = await owner(h, 'GET', `/api/merchant/commerce/channels/${id}`);
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return read.body as unknown as TaxChannelRead;
}

/** A complete tax destination rule: Germany, any postcode, rate 0, with `overrides`. */
export const destinationRule = (overrides: Record<string, unknown>) => ({
  country: 'DE',
  state: null,
  postcode: null,
  validFrom: null,
  validUntil: null,
  priority: 0,
  ruleId: null,
  taxClassId: null,
  rate: 0,
  ...overrides,
});

/** Names shop A's Germany (as `sellableTea` made it) in English and German, with Bavaria. */
export async function seedGermany(h: Harness): Promise<void> {
  const saved = await owner(h, 'PUT', '/api/basis/countries/DE', {
    revision: 1,
    translations: { en: { name: 'Germany' }, de: { name: 'Deutschland' } },
    subdivisions: [{ code: 'DE-BY', translations: { en: { name: 'Bavaria' }, de: { name: 'Bayern' } } }],
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/**
 * Shop A for the tax page: the sellable tea, German as a shop language, Germany (with Bavaria) and
 * Austria named in English and German, the standard class's own basis rate for Germany (the
 * channels inherit it) and the saved rule "Big carts". Answers the main channel's id.
 */
export async function seedTaxShop(h: Harness): Promise<string> {
  const ok = (response: { status: number; body: unknown }) =>
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  await h.sellableTea();
  ok(await owner(h, 'PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' }));
  await seedGermany(h);
  ok(
    await owner(h, 'PUT', '/api/basis/countries/AT', {
      revision: 0,
      translations: { en: { name: 'Austria' }, de: { name: 'Österreich' } },
    }),
  );
  ok(
    await owner(h, 'PUT', `/api/basis/tax-classes/${SELLABLE.standardTax}`, {
      revision: 1,
      translations: { en: { name: 'Standard' }, de: { name: 'Normal' } },
      rates: [
        { country: null, rate: 1900 },
        { country: 'DE', rate: 1900 },
      ],
    }),
  );
  ok(
    await owner(h, 'PUT', `/api/automation/rules/${BIG_CARTS}`, {
      revision: 0,
      active: true,
      data: { name: { en: 'Big carts', de: 'Große Warenkörbe' }, condition: { type: 'alwaysValid' } },
    }),
  );
  const channels = (await owner(h, 'GET', '/api/automation')).body.channels as {
    id: string;
    isMain: boolean;
  }[];
  return channels.find((channel) => channel.isMain)!.id;
}
