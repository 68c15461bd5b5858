import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRead } from '../src/admin/channel-form.ts';
import { ruleRowsOf, taxChanges, taxOverridesAfter } from '../src/admin/tax/tax-form.ts';
import { adminSession, formFields } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';
import { BIG_CARTS, destinationRule, readTaxChannel, seedTaxShop } from './tax-fixture.ts';

// The channel tax page without a browser (decision 0047, "Tax settings"; the walk is
// admin-tax.e2e.test.ts): how its form maps to `merchant.commerce.save`, adding, editing, removing
// and resetting destination rules and country rates, the operation's refusals at their fields, a
// stale save, and a reader's replayed post.

let h: Harness;
let mainChannel: string;
const { standardTax, reducedTax } = SELLABLE;
const savedRule = BIG_CARTS;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

function expectOk(response: { status: number; body: Record<string, unknown> }) {
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body;
}

const apiRead = () => readTaxChannel(h, mainChannel);

/** A signed-in admin session (token sign-in) speaking `locale`. */
const session = (token: string, locale: 'en' | 'de' = 'en') => adminSession(h, token, locale);

const taxPath = () => `/admin/settings/channels/${mainChannel}/tax`;

/** What a browser posts from the page's tax form; `action` picks another (the shop's rules: `${taxPath()}/shop`). */
const taxForm = (html: string, action = taxPath()) => formFields(html, `action="${action}"`);

/** The error message pinned to a field (`aria-invalid` and its `-error` paragraph), or null. */
function errorAt(html: string, name: string): string | null {
  const id = `f-${name.replace(/[^A-Za-z0-9-]/g, '-')}`;
  if (!new RegExp(`id="${id}"[^>]*aria-invalid="true"`).test(html)) return null;
  return new RegExp(`id="${id}-error">([^<]*)<`).exec(html)?.[1] ?? '';
}

beforeAll(async () => {
  h = await createHarness();
  mainChannel = await seedTaxShop(h);
});
afterAll(async () => h?.close());

describe('the channel tax page', () => {
  it('is linked from the channel page and shows the inherited country rate and no rules', async () => {
    const owner = await session(h.shopA.token);
    const channel = await owner.get(`/admin/settings/channels/${mainChannel}`);
    expect(channel.html).toContain(`href="${taxPath()}"`);
    const page = await owner.get(taxPath());
    expect(page.status).toBe(200);
    expect(page.html).toContain('Tax destination rules');
    expect(page.html).toContain('No destination rules');
    expect(page.html).toContain('The shop has no destination rules of its own.');
    expect(page.html).toMatch(/Standard in Germany[\s\S]*?badge inherited/);
    // The country select names the basis countries in the UI language; states are that country's.
    expect(page.html).toContain('<option value="DE-BY" lang="en">Bavaria</option>');
    expect(page.html).toContain('>Big carts</option>');
  });

  it('adds a rule (German entries), edits one leaf, writes nothing for an untouched save, removes it', async () => {
    const owner = await session(h.shopA.token, 'de');
    const page = await owner.get(taxPath());
    expect(page.html).toContain('Steuer-Zielregeln');
    const fields = taxForm(page.html);
    const newId = fields.newRuleId!;
    const added = await owner.post(taxPath(), {
      ...fields,
      'rule:new:country': 'DE',
      'rule:new:state': 'DE-BY',
      'rule:new:postcodeKind': 'prefix',
      'rule:new:postcode': '80',
      'rule:new:validFrom': '2026-01-01',
      'rule:new:priority': '5',
      'rule:new:ruleId': savedRule,
      'rule:new:taxClassId': reducedTax,
      'rule:new:rate': '7,5',
    });
    expect(added.status, added.html).toBe(303);
    const read = await apiRead();
    expect(read.overrides.taxRules).toEqual({
      [newId]: {
        country: 'DE',
        state: 'DE-BY',
        postcode: { kind: 'prefix', value: '80' },
        validFrom: '2026-01-01T00:00:00.000Z',
        validUntil: null,
        priority: 5,
        ruleId: savedRule,
        taxClassId: reducedTax,
        rate: 750,
      },
    });
    expect(read.provenance[`/taxRules/${newId}`]).toBe('overridden');
    // Nothing else of the overrides was written.
    expect(Object.keys(read.overrides)).toEqual(['taxRules']);

    const shown = await owner.get(added.location!);
    expect(shown.html).toContain('Gespeichert');
    expect(shown.html).toContain('Regel für Bayern, Deutschland');
    expect(shown.html).toContain('in diesem Kanal hinzugefügt');
    expect(shown.html).toContain(`value="7,5"`);

    // An untouched save changes no override.
    const untouched = await owner.post(taxPath(), taxForm(shown.html));
    expect(untouched.status).toBe(303);
    expect((await apiRead()).overrides).toEqual(read.overrides);

    // One leaf edited: only it changes.
    const again = taxForm((await owner.get(taxPath())).html);
    const edited = await owner.post(taxPath(), { ...again, [`rule:${newId}:priority`]: '9' });
    expect(edited.status).toBe(303);
    expect((await apiRead()).overrides.taxRules?.[newId]).toEqual({
      ...read.overrides.taxRules![newId],
      priority: 9,
    });

    // Removing a rule the channel added deletes it (nothing to inherit).
    const current = taxForm((await owner.get(taxPath())).html);
    const removed = await owner.post(taxPath(), {
      csrf: current.csrf!,
      revision: current.revision!,
      baseRevision: current.baseRevision!,
      remove: `rule:${newId}`,
    });
    expect(removed.status).toBe(303);
    expect((await apiRead()).overrides.taxRules).toBeUndefined();
  });

  it('shows the refusals at their fields with 422, keeps the entries and saves nothing', async () => {
    const owner = await session(h.shopA.token);
    const before = await apiRead();
    const fields = taxForm((await owner.get(taxPath())).html);
    // A state of another country: the operation refuses it at /overrides/taxRules/<id>/state.
    const wrongState = await owner.post(taxPath(), {
      ...fields,
      'rule:new:country': 'AT',
      'rule:new:state': 'DE-BY',
      'rule:new:postcode': '',
      'rule:new:rate': '10',
    });
    expect(wrongState.status).toBe(422);
    expect(errorAt(wrongState.html, 'rule:new:state')).toContain('DE-BY is not a subdivision of AT');
    expect(wrongState.html).toContain('<option value="AT" lang="en" selected="">Austria</option>');
    // A reversed postcode range, at the postcode.
    const reversed = await owner.post(taxPath(), {
      ...fields,
      'rule:new:country': 'DE',
      'rule:new:postcodeKind': 'range',
      'rule:new:postcodeFrom': '99999',
      'rule:new:postcodeTo': '10000',
      'rule:new:rate': '10',
    });
    expect(reversed.status).toBe(422);
    expect(errorAt(reversed.html, 'rule:new:postcodeKind')).not.toBeNull();
    expect(reversed.html).toContain('value="99999"');
    // A rate above 100 %: the operation's bound.
    const tooHigh = await owner.post(taxPath(), {
      ...fields,
      'rule:new:country': 'DE',
      'rule:new:rate': '150',
    });
    expect(tooHigh.status).toBe(422);
    expect(errorAt(tooHigh.html, 'rule:new:rate')).not.toBeNull();
    // Entries that are no number or date are refused before anything is sent.
    const unparsed = await owner.post(taxPath(), {
      ...fields,
      'rule:new:country': 'DE',
      'rule:new:rate': 'ten',
      'rule:new:priority': '1.5',
      'addRate:country': 'AT',
      'addRate:rate': '',
    });
    expect(unparsed.status).toBe(422);
    expect(errorAt(unparsed.html, 'rule:new:rate')).toBe('This entry is not valid.');
    expect(errorAt(unparsed.html, 'rule:new:priority')).toBe('This entry is not valid.');
    expect(errorAt(unparsed.html, 'addRate:rate')).toBe('This entry is not valid.');
    expect(unparsed.html).toContain('value="ten"');
    const after = await apiRead();
    expect(after.revision).toBe(before.revision);
    expect(after.overrides).toEqual(before.overrides);
  });

  it('removes an inherited country rate (null: the default applies), resets it, adds and removes a rate', async () => {
    const owner = await session(h.shopA.token);
    const key = `taxRates.${standardTax}.DE`;
    const post = async (extra: Record<string, string>) => {
      const fields = taxForm((await owner.get(taxPath())).html);
      return owner.post(taxPath(), {
        csrf: fields.csrf!,
        revision: fields.revision!,
        baseRevision: fields.baseRevision!,
        ...extra,
      });
    };
    expect((await post({ remove: key })).status).toBe(303);
    let read = await apiRead();
    expect(read.overrides.taxRates).toEqual({ [standardTax]: { rates: { DE: null } } });
    const removedPage = await owner.get(taxPath());
    expect(removedPage.html).toMatch(/Standard in Germany: removed: the default rate applies/);
    expect((await post({ reset: key })).status).toBe(303);
    read = await apiRead();
    expect(read.overrides.taxRates).toBeUndefined();
    expect(read.provenance[`/taxRates/${standardTax}/rates/DE`]).toBe('inherited');

    const fields = taxForm((await owner.get(taxPath())).html);
    const added = await owner.post(taxPath(), {
      ...fields,
      'addRate:class': reducedTax,
      'addRate:country': 'AT',
      'addRate:rate': '10',
    });
    expect(added.status).toBe(303);
    read = await apiRead();
    expect(read.overrides.taxRates).toEqual({ [reducedTax]: { rates: { AT: 1000 } } });
    const twice = await owner.post(taxPath(), {
      ...taxForm((await owner.get(taxPath())).html),
      'addRate:class': reducedTax,
      'addRate:country': 'AT',
      'addRate:rate': '12',
    });
    expect(twice.status).toBe(422);
    expect(errorAt(twice.html, 'addRate:country')).toContain('already has a rate for Austria');
    // Editing the added rate through its field, then removing it: deleted, not null (the basis has none).
    const edited = await owner.post(taxPath(), {
      ...taxForm((await owner.get(taxPath())).html),
      [`rate:taxRates.${reducedTax}.AT`]: '13',
    });
    expect(edited.status).toBe(303);
    expect((await apiRead()).overrides.taxRates).toEqual({ [reducedTax]: { rates: { AT: 1300 } } });
    expect((await post({ remove: `taxRates.${reducedTax}.AT` })).status).toBe(303);
    expect((await apiRead()).overrides.taxRates).toBeUndefined();
  });

  it('answers a stale save with 409, what changed, and the entries kept', async () => {
    const owner = await session(h.shopA.token);
    const fields = taxForm((await owner.get(taxPath())).html);
    // Someone else changes the German standard rate in the channel meanwhile.
    const current = await apiRead();
    const { languages: _, ...channel } = (
      await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`)
    ).body.channel as Record<string, unknown>;
    expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${mainChannel}`, {
        revision: current.revision,
        baseRevision: (await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`)).body
          .baseRevision,
        channel,
        overrides: { taxRates: { [standardTax]: { rates: { DE: 2000 } } } },
      }),
    );
    const stale = await owner.post(taxPath(), { ...fields, 'rule:new:country': 'DE', 'rule:new:rate': '5' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('Someone else saved first');
    expect(stale.html).toContain('Standard in Germany: now “20 %”, before “19 %”');
    expect(stale.html).toContain('value="5"');
    expect(stale.html).toContain(`name="revision" value="${current.revision + 1}"`);
    expect((await apiRead()).overrides.taxRules).toBeUndefined();
  });

  it('shows a reader text only, and refuses the reader’s replayed post (403, nothing changed)', async () => {
    const owner = await session(h.shopA.token);
    const ownerForm = taxForm((await owner.get(taxPath())).html);
    const reader = await session(await h.readerToken('tax-reader@a.test'));
    const page = await reader.get(taxPath());
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('name="rule:');
    expect(page.html).not.toContain('name="rate:');
    expect(page.html).not.toContain('name="remove"');
    expect(page.html).not.toContain(`<form method="post" action="${taxPath()}"`);
    const before = await apiRead();
    const readerCsrf = /name="csrf" value="([^"]+)"/.exec(page.html)![1]!;
    const replayed = await reader.post(taxPath(), {
      ...ownerForm,
      csrf: readerCsrf,
      'rule:new:country': 'DE',
      'rule:new:rate': '5',
    });
    expect(replayed.status).toBe(403);
    expect(await apiRead()).toEqual(before);
  });
});

describe('rules of the shared basis (pure mapping, without the basis ids)', () => {
  // The page passes the shop's rule ids (`basis.tax_rules.list`); without them the mapping still
  // tells a basis rule from the channel's own by its overrides, as the inheritance shape allows.
  const rule = destinationRule({ rate: 700 });
  const read = (
    overrides: Record<string, unknown>,
    effective: Record<string, unknown>,
    provenance: Record<string, string>,
  ) =>
    ({
      id: 'c',
      isMain: true,
      revision: 3,
      baseRevision: 2,
      language: 'en',
      mainLanguage: 'en',
      channel: {},
      overrides,
      effective: { taxRules: effective, taxRates: {} },
      provenance,
      updatedAt: '',
    }) as unknown as ChannelRead;
  const body = { revision: '3', baseRevision: '2' };

  it('removes an inherited rule with null and resets an overridden or removed one', () => {
    const inherited = read({}, { basis: rule }, { '/taxRules/basis': 'inherited' });
    expect(ruleRowsOf(inherited)[0]!.origin).toBe('inherited');
    const remove = taxChanges({ ...body, remove: 'rule:basis' }, inherited, [], 'en');
    expect(taxOverridesAfter(inherited, remove, [])).toEqual({ taxRules: { basis: null } });

    const removed = read({ taxRules: { basis: null } }, {}, { '/taxRules/basis': 'removed' });
    expect(ruleRowsOf(removed)).toEqual([{ id: 'basis', rule: null, origin: 'removed' }]);
    const reset = taxChanges({ ...body, reset: 'rule:basis' }, removed, [], 'en');
    expect(taxOverridesAfter(removed, reset, [])).toEqual({});

    const overridden = read(
      { taxRules: { basis: { rate: 500 } } },
      { basis: { ...rule, rate: 500 } },
      { '/taxRules/basis': 'overridden', '/taxRules/basis/rate': 'overridden' },
    );
    expect(ruleRowsOf(overridden)[0]!.origin).toBe('overridden');
    expect(
      taxOverridesAfter(overridden, taxChanges({ ...body, reset: 'rule:basis' }, overridden, [], 'en'), []),
    ).toEqual({});
    // Editing an inherited rule overrides only the edited leaf.
    const fields = {
      ...body,
      ...Object.fromEntries(
        Object.entries({
          country: 'DE',
          state: '',
          postcode: '',
          validFrom: '',
          validUntil: '',
          priority: '0',
          ruleId: '',
          taxClassId: '',
          rate: '700',
        }).map(([leaf, value]) => [`was:rule:basis:${leaf}`, value]),
      ),
      'rule:basis:country': 'DE',
      'rule:basis:rate': '8',
      'rule:basis:priority': '0',
    };
    expect(taxOverridesAfter(inherited, taxChanges(fields, inherited, [], 'en'), [])).toEqual({
      taxRules: { basis: { rate: 800 } },
    });
  });
});

describe('the shop’s rules on the main channel’s page (decision 0049)', () => {
  const SECOND = '0190f0c8-0000-7000-8000-00000000ab11';
  const shopPath = () => `${taxPath()}/shop`;
  const secondPath = `/admin/settings/channels/${SECOND}/tax`;
  const basisRules = async () =>
    (
      expectOk(await staff('GET', '/api/basis/tax-rules')).items as ({
        id: string;
        revision: number;
      } & Record<string, unknown>)[]
    ).map(({ createdAt: _, updatedAt: __, ...rule }) => rule);
  const secondRead = () => readTaxChannel(h, SECOND);
  let shopRule: string;

  beforeAll(async () => {
    const main = expectOk(await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`));
    expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: 0,
        baseRevision: main.baseRevision,
        channel: {
          name: { en: 'Wholesale' },
          mode: 'headless',
          paused: false,
          private: true,
          languages: ['en'],
        },
      }),
    );
  });

  it('adds a rule for every channel (German entries): the basis holds it, the channels inherit it', async () => {
    const owner = await session(h.shopA.token, 'de');
    const page = await owner.get(taxPath());
    expect(page.html).toContain('Steuer-Zielregeln des Shops');
    const fields = taxForm(page.html, shopPath());
    shopRule = fields.newShopRuleId!;
    const added = await owner.post(shopPath(), {
      ...fields,
      'shop:new:country': 'DE',
      'shop:new:state': 'DE-BY',
      'shop:new:postcodeKind': 'range',
      'shop:new:postcodeFrom': '80000',
      'shop:new:postcodeTo': '81999',
      'shop:new:priority': '3',
      'shop:new:taxClassId': reducedTax,
      'shop:new:rate': '5,5',
    });
    expect(added.status, added.html).toBe(303);
    expect(added.location).toBe(`${taxPath()}?shopSaved=1`);
    expect(await basisRules()).toEqual([
      {
        id: shopRule,
        revision: 1,
        country: 'DE',
        state: 'DE-BY',
        postcode: { kind: 'range', from: '80000', to: '81999' },
        validFrom: null,
        validUntil: null,
        priority: 3,
        ruleId: null,
        taxClassId: reducedTax,
        rate: 550,
      },
    ]);
    // The main channel inherits it: no override written.
    const read = await apiRead();
    expect(read.provenance[`/taxRules/${shopRule}`]).toBe('inherited');
    expect(read.overrides.taxRules).toBeUndefined();

    const shown = await owner.get(added.location!);
    expect(shown.html).toContain('Gespeichert: Alle Kanäle übernehmen die Regeln des Shops');
    // In the shop's form with its revision, and among the channel's rules as inherited.
    expect(shown.html).toContain(`name="shop:${shopRule}:revision" value="1"`);
    expect(shown.html).toMatch(
      new RegExp(`data-rule="${shopRule}"[\\s\\S]*?Regel für Bayern, Deutschland[\\s\\S]*?badge inherited`),
    );
    expect(shown.html).toContain(`name="remove" value="rule:${shopRule}"`);
    expect(shown.html).not.toContain(`name="reset" value="rule:${shopRule}"`);
    // An untouched save of the shop's form writes nothing.
    const untouched = await owner.post(shopPath(), taxForm(shown.html, shopPath()));
    expect(untouched.status).toBe(303);
    expect(untouched.location).toBe(taxPath());
    expect((await basisRules())[0]!.revision).toBe(1);
  });

  it('edits one field of the shop’s rule, saving it whole at its revision', async () => {
    const owner = await session(h.shopA.token);
    const fields = taxForm((await owner.get(taxPath())).html, shopPath());
    const edited = await owner.post(shopPath(), { ...fields, [`shop:${shopRule}:rate`]: '6' });
    expect(edited.status, edited.html).toBe(303);
    const [rule] = await basisRules();
    expect(rule).toMatchObject({ revision: 2, rate: 600, priority: 3, state: 'DE-BY' });
  });

  it('another channel removes the inherited rule (null), resets it, overrides one field', async () => {
    const owner = await session(h.shopA.token);
    const page = await owner.get(secondPath);
    expect(page.status).toBe(200);
    // Only the main channel's page edits the shop's rules.
    expect(page.html).not.toContain(`action="${secondPath}/shop"`);
    expect((await owner.post(`${secondPath}/shop`, taxForm(page.html, secondPath))).status).toBe(404);
    const fields = taxForm(page.html, secondPath);
    const post = (extra: Record<string, string>) =>
      owner.post(secondPath, {
        csrf: fields.csrf!,
        revision: fields.revision!,
        baseRevision: fields.baseRevision!,
        ...extra,
      });
    expect((await post({ remove: `rule:${shopRule}` })).status).toBe(303);
    let read = await secondRead();
    expect(read.overrides.taxRules).toEqual({ [shopRule]: null });
    expect(read.provenance[`/taxRules/${shopRule}`]).toBe('removed');
    const removed = await owner.get(secondPath);
    expect(removed.html).toContain(
      'A rule of the shared settings (Bavaria, Germany) is removed in this channel.',
    );
    expect(removed.html).toContain(`name="reset" value="rule:${shopRule}"`);

    const resetFields = taxForm(removed.html, secondPath);
    const reset = await owner.post(secondPath, {
      csrf: resetFields.csrf!,
      revision: resetFields.revision!,
      baseRevision: resetFields.baseRevision!,
      reset: `rule:${shopRule}`,
    });
    expect(reset.status).toBe(303);
    read = await secondRead();
    expect(read.overrides.taxRules).toBeUndefined();
    expect(read.provenance[`/taxRules/${shopRule}`]).toBe('inherited');

    const again = taxForm((await owner.get(secondPath)).html, secondPath);
    const overridden = await owner.post(secondPath, { ...again, [`rule:${shopRule}:priority`]: '8' });
    expect(overridden.status, overridden.html).toBe(303);
    read = await secondRead();
    expect(read.overrides.taxRules).toEqual({ [shopRule]: { priority: 8 } });
    const shown = await owner.get(secondPath);
    expect(shown.html).toMatch(new RegExp(`data-rule="${shopRule}"[\\s\\S]*?badge overridden`));
    expect(shown.html).toContain(`name="reset" value="rule:${shopRule}"`);
  });

  it('refuses a state of another country at its field, a stale save, and a delete while a channel overrides the rule', async () => {
    const owner = await session(h.shopA.token);
    const before = await basisRules();
    const fields = taxForm((await owner.get(taxPath())).html, shopPath());
    const wrongState = await owner.post(shopPath(), {
      ...fields,
      'shop:new:country': 'AT',
      'shop:new:state': 'DE-BY',
      'shop:new:rate': '10',
    });
    expect(wrongState.status).toBe(422);
    expect(errorAt(wrongState.html, 'shop:new:state')).toContain('DE-BY is not a subdivision of AT');
    expect(wrongState.html).toContain(`name="newShopRuleId" value="${fields.newShopRuleId}"`);
    const unparsed = await owner.post(shopPath(), { ...fields, [`shop:${shopRule}:rate`]: 'six' });
    expect(unparsed.status).toBe(422);
    expect(errorAt(unparsed.html, `shop:${shopRule}:rate`)).toBe('This entry is not valid.');
    expect(await basisRules()).toEqual(before);

    // Someone else saves the rule meanwhile: the form's revision is stale.
    expectOk(
      await staff('PUT', `/api/basis/tax-rules/${shopRule}`, {
        ...before[0],
        revision: before[0]!.revision,
        rate: 650,
      }),
    );
    const stale = await owner.post(shopPath(), { ...fields, [`shop:${shopRule}:priority`]: '4' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('Someone else saved this rule of the shop first');
    expect(stale.html).toContain(`name="shop:${shopRule}:revision" value="${before[0]!.revision + 1}"`);
    expect(stale.html).toMatch(new RegExp(`name="shop:${shopRule}:priority"[^>]*value="4"`));
    expect((await basisRules())[0]).toMatchObject({ rate: 650, priority: 3 });

    // The second channel still overrides it: the delete is refused, naming the channel.
    const current = taxForm((await owner.get(taxPath())).html, shopPath());
    const rule = (await basisRules())[0]!;
    const refused = await owner.post(shopPath(), {
      csrf: current.csrf!,
      remove: `${shopRule}:${rule.revision}`,
    });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('Channels still change or remove this rule');
    expect(refused.html).toContain(`<li>${SECOND}</li>`);
    expect(await basisRules()).toHaveLength(1);
  });

  it('shows a reader the shop’s rules as text and refuses the reader’s replayed post (403)', async () => {
    const owner = await session(h.shopA.token);
    const ownerForm = taxForm((await owner.get(taxPath())).html, shopPath());
    const reader = await session(await h.readerToken('tax-shop-reader@a.test'));
    const page = await reader.get(taxPath());
    expect(page.status).toBe(200);
    expect(page.html).toMatch(
      new RegExp(`data-shop-rule="${shopRule}"[^>]*aria-label="Rule for Bavaria, Germany"`),
    );
    expect(page.html).not.toContain('name="shop:');
    expect(page.html).not.toContain(`action="${shopPath()}"`);
    const before = await basisRules();
    const readerCsrf = /name="csrf" value="([^"]+)"/.exec(page.html)![1]!;
    const replayed = await reader.post(shopPath(), {
      ...ownerForm,
      csrf: readerCsrf,
      [`shop:${shopRule}:rate`]: '1',
    });
    expect(replayed.status).toBe(403);
    expect(await basisRules()).toEqual(before);
  });

  it('deletes the shop’s rule once no channel overrides it', async () => {
    const second = await secondRead();
    const { languages, ...channel } = second.channel as Record<string, unknown>;
    expectOk(
      await staff('PUT', `/api/merchant/commerce/channels/${SECOND}`, {
        revision: second.revision,
        baseRevision: second.baseRevision,
        channel: { ...channel, languages },
        overrides: {},
      }),
    );
    const owner = await session(h.shopA.token);
    const fields = taxForm((await owner.get(taxPath())).html, shopPath());
    const rule = (await basisRules())[0]!;
    const deleted = await owner.post(shopPath(), {
      csrf: fields.csrf!,
      remove: `${shopRule}:${rule.revision}`,
    });
    expect(deleted.status, deleted.html).toBe(303);
    expect(await basisRules()).toEqual([]);
    expect((await apiRead()).effective.taxRules[shopRule]).toBeUndefined();
  });
});
