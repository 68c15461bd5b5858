import { describe, expect, it } from 'vitest';
import { SHIPPING_CONTRACT } from '../contracts.ts';
import { checkValue } from '../values.ts';
import { runAssistant } from './index.ts';
import { flatRateModule } from './shipping.ts';

interface Cart {
  readonly currency: string;
  readonly quantity: number;
  readonly subtotal: number;
}
type Rate = (cart: Cart) => { gross: number; net: number };

/** Evaluates a generated module as the sandbox would load it (an ES module) and answers `rate`. */
async function loadRate(source: string): Promise<Rate> {
  const url = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
  const loaded = (await import(/* @vite-ignore */ url)) as { rate: Rate };
  return loaded.rate;
}

async function generatedRate(answers: Record<string, unknown>): Promise<Rate> {
  const result = runAssistant('shipping', {
    app_id: 'rates',
    name: 'Rates',
    method_label: 'Standard',
    ...answers,
  });
  if (!result.ok || result.value.module === null) throw new Error('no module');
  return loadRate(result.value.module);
}

const cart = (quantity: number, subtotal: number): Cart => ({ currency: 'EUR', quantity, subtotal });

describe('the generated shipping module', () => {
  it.each([
    ['one item', cart(1, 1000), { gross: 590, net: 496 }],
    ['three items just below free shipping', cart(3, 4999), { gross: 790, net: 664 }],
    ['the subtotal that ships free', cart(2, 5000), { gross: 0, net: 0 }],
    ['above it', cart(40, 100_000), { gross: 0, net: 0 }],
    ['an empty cart', cart(0, 0), { gross: 490, net: 412 }],
  ])('%s', async (_case, input, expected) => {
    const rate = await generatedRate({ base: 490, per_item: 100, free_from: 5000 });
    expect(rate(input)).toEqual(expected);
  });

  it('never ships free without free_from, and a rate of 0 makes net the gross', async () => {
    const rate = await generatedRate({ base: 0, per_item: 250, tax_rate_percent: 0 });
    expect(rate(cart(4, 10_000_000))).toEqual({ gross: 1000, net: 1000 });
  });

  it('answers what the shipping contract declares', async () => {
    const result = runAssistant('shipping', {
      app_id: 'r',
      name: 'R',
      method_label: 'S',
      base: 490,
      per_item: 7,
    });
    if (!result.ok || !result.value.module) throw new Error('no module');
    const action = result.value.manifest.actions[0];
    if (action?.kind !== 'service') throw new Error('no rate action');
    const rate = await loadRate(result.value.module);
    const input = { currency: 'EUR', country: 'DE', quantity: 3, subtotal: 2000 };
    expect(checkValue(action.input, input).ok).toBe(true);
    expect(checkValue(action.output, rate(input))).toEqual({ ok: true, value: { gross: 511, net: 429 } });
    expect(action.output.map((field) => field.name)).toEqual(
      SHIPPING_CONTRACT.output.map((field) => field.name),
    );
  });

  it('embeds only the checked integers, and refuses anything else', () => {
    const source = flatRateModule({ base: 490, perItem: 0, freeFrom: null, taxRatePercent: 19 });
    expect(source).toContain('const BASE = 490;');
    expect(source).toContain('const FREE_FROM = null;');
    expect(() => flatRateModule({ base: 4.9, perItem: 0, freeFrom: null, taxRatePercent: 19 })).toThrow(
      TypeError,
    );
    expect(() =>
      flatRateModule({ base: Number.NaN, perItem: 0, freeFrom: null, taxRatePercent: 19 }),
    ).toThrow(TypeError);
  });
});
