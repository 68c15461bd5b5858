/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AdminSession } from '@cartwright/service';
import type { Context } from 'hono';
import { type ChannelRead, changedFields, channelFieldsOf } from '../channel-form.ts';
import { nameIn } from '../i18n.ts';
import type { AdminArea, AdminKit, FormBody } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  type Choice,
  type CountryOption,
  LEAF_LABEL,
  leafShown,
  type Notice,
  placeOf,
  type SavedRule,
  TaxPage,
} from './pages.tsx';
import {
  type BasisTaxClass,
  type BasisTaxRule,
  type CountryRate,
  countryRatesOf,
  fieldOfPointer,
  percent,
  type RuleLeaf,
  ruleRowsOf,
  shopFieldOfPointer,
  shopRuleChanges,
  taxChanges,
  taxOverridesAfter,
  taxRenderedValues,
} from './tax-form.ts';

// /admin/settings/channels/{id}/tax (issue 20 item 2, decisions 0020, 0022, 0047): a channel's tax
// destination rules and country rates, read with `merchant.commerce.read` and saved with
// `merchant.commerce.save` (the channel's own fields as read, the whole overrides document with
// the form's changes, bound to `revision` and `baseRevision`, as the channel page saves). The main
// channel's page also edits the shop's own rules, which every channel inherits, with
// `basis.tax_rules.save|delete` (decision 0049), as its channel page edits the company identity.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Named = { translations?: Record<string, { name?: string | null } | undefined> };

/** A name in the UI language, else the shop's main language: the text and the language it is in. */
function nameOf(
  item: Named | undefined,
  locale: string,
  mainLanguage: string,
): { name: string; lang: string } | null {
  const own = item?.translations?.[locale]?.name;
  if (own) return { name: own, lang: locale };
  const main = item?.translations?.[mainLanguage]?.name;
  return main ? { name: main, lang: mainLanguage } : null;
}

interface Lookups {
  readonly countries: CountryOption[];
  readonly classes: Choice[];
  readonly basisClasses: BasisTaxClass[];
  readonly savedRules: SavedRule[];
  /** The shop's own rules (`basis.tax_rules.list`). */
  readonly basisRules: BasisTaxRule[];
}

/** The basis countries and tax classes and the shop's saved rules, named in the UI language. */
async function lookupsOf(kit: AdminKit, session: AdminSession, page: PageContext, read: ChannelRead) {
  const locale = page.t.locale;
  const [countries, classes, automation, basisRules] = await Promise.all([
    kit.act(session, 'basis.countries.list', {}),
    kit.act(session, 'basis.tax_classes.list', {}),
    kit.act(session, 'automation.list', {}),
    kit.act(session, 'basis.tax_rules.list', {}),
  ]);
  const regions = new Intl.DisplayNames([locale], { type: 'region' });
  const countryItems = countries.ok
    ? (
        countries.value as {
          items: (Named & { code: string; subdivisions?: (Named & { code: string })[] })[];
        }
      ).items
    : [];
  const classItems = classes.ok
    ? (classes.value as { items: (BasisTaxClass & { key?: string | null })[] }).items
    : [];
  const rules = automation.ok
    ? (
        automation.value as {
          rules: { id: string; active: boolean; data: { name?: Record<string, string> } }[];
        }
      ).rules
    : [];
  const lookups: Lookups = {
    countries: countryItems
      .map((item) => {
        const named = nameOf(item, locale, read.mainLanguage);
        return {
          code: item.code,
          name: named?.name ?? regions.of(item.code) ?? item.code,
          lang: named?.lang ?? locale,
          subdivisions: (item.subdivisions ?? []).map((subdivision) => {
            const found = nameOf(subdivision, locale, read.mainLanguage);
            return {
              code: subdivision.code,
              name: found?.name ?? subdivision.code,
              lang: found?.lang ?? locale,
            };
          }),
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name, locale)),
    classes: classItems.map((item) => ({
      id: item.id,
      name: nameOf(item, locale, read.mainLanguage)?.name ?? item.key ?? item.id,
    })),
    basisClasses: classItems,
    savedRules: rules
      .map((rule) => ({
        id: rule.id,
        active: rule.active,
        name: nameIn(rule.data.name ?? {}, locale, rule.id),
      }))
      .sort((a, b) => a.name.localeCompare(b.name, locale)),
    basisRules: basisRules.ok ? (basisRules.value as { items: BasisTaxRule[] }).items : [],
  };
  return lookups;
}

const basisIdsOf = (lookups: Lookups) => new Set(lookups.basisRules.map((rule) => rule.id));

/** Country rates titled with the tax class's name in the UI language. */
function ratesOf(read: ChannelRead, lookups: Lookups): CountryRate[] {
  return countryRatesOf(read, lookups.basisClasses).map((rate) => ({
    ...rate,
    title: lookups.classes.find((item) => item.id === rate.classId)?.name ?? rate.title,
  }));
}

async function renderTax(
  kit: AdminKit,
  c: Context,
  page: PageContext,
  read: ChannelRead,
  lookups: Lookups,
  extra: {
    status?: number;
    notice?: Notice;
    entered?: ReadonlyMap<string, string>;
    errors?: ReadonlyMap<string, string>;
    /** The message of the shop's rules form (the main channel's page). */
    shopNotice?: Notice;
  } = {},
): Promise<Response> {
  const names = (read.channel.name ?? {}) as Record<string, string>;
  const locale = page.t.locale;
  const newId = (name: string) => {
    const entered = extra.entered?.get(name);
    return entered && UUID.test(entered) ? entered : crypto.randomUUID();
  };
  return kit.render(
    c,
    <TaxPage
      page={page}
      channelId={read.id}
      name={nameIn(names, locale, read.id)}
      revision={read.revision}
      baseRevision={read.baseRevision}
      rows={ruleRowsOf(read, basisIdsOf(lookups))}
      rates={ratesOf(read, lookups)}
      countries={lookups.countries}
      classes={lookups.classes}
      savedRules={lookups.savedRules}
      editable={page.session!.principal.permissions.has('settings.write')}
      newRuleId={newId('newRuleId')}
      basisRules={lookups.basisRules}
      shop={read.isMain ? { newRuleId: newId('newShopRuleId'), notice: extra.shopNotice } : undefined}
      notice={extra.notice}
      entered={extra.entered}
      errors={extra.errors}
    />,
    extra.status ?? 200,
  );
}

/** What a stale save lists: each rule field and rate whose stored value changed since the form was rendered. */
function staleItems(page: PageContext, form: FormBody, read: ChannelRead, lookups: Lookups): string[] {
  const { t } = page;
  const rows = ruleRowsOf(read);
  const rates = ratesOf(read, lookups);
  const now = taxRenderedValues(rows, rates);
  const before = new Map<string, string>();
  for (const key of now.keys()) {
    const was = form[`was:${key}`];
    if (typeof was === 'string') before.set(key, was);
  }
  const empty = (text: string) => (text === '' ? t.t('empty.text') : text);
  const changed = changedFields(before, now).map((item) => {
    const rule = /^rule:([^:]+):([A-Za-z]+)$/.exec(item.key);
    if (rule) {
      const row = rows.find((candidate) => candidate.id === rule[1]);
      const leaf = rule[2] as RuleLeaf;
      const place = row?.rule ? placeOf(row.rule, lookups.countries) : rule[1]!;
      return t.t('stale.field', {
        field: `${t.t('tax.rule.legend', { place })}: ${t.t(LEAF_LABEL[leaf])}`,
        now: empty(leafShown(page, leaf, item.now, lookups)),
        before: empty(leafShown(page, leaf, item.before, lookups)),
      });
    }
    const rate = rates.find((candidate) => candidate.key === item.key);
    const country =
      lookups.countries.find((candidate) => candidate.code === rate?.place)?.name ?? rate?.place;
    const shown = (value: string) =>
      value === 'null' ? t.t('tax.rate.removedNote') : percent(Number(value), t.locale);
    return t.t('stale.field', {
      field: t.t('tax.rate.label', { taxClass: rate?.title ?? item.key, country: country ?? '' }),
      now: shown(item.now),
      before: shown(item.before),
    });
  });
  return [...(changed.length === 0 ? [t.t('stale.none')] : changed), t.t('stale.retry')];
}

export const taxArea: AdminArea = (app, kit) => {
  const readChannel = async (session: AdminSession, channelId: string) =>
    kit.act(session, 'merchant.commerce.read', { channelId }) as Promise<
      { ok: true; value: ChannelRead } | { ok: false; code: string; detail: string }
    >;
  /** A post to channel `:channelId`'s tax page past the Origin and CSRF checks, with the channel as read; else the answer. */
  const postedTaxForm = async (c: Context) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const channelId = c.req.param('channelId') ?? '';
    if (!UUID.test(channelId)) return kit.notFound(c, checked.page);
    const read = await readChannel(checked.session, channelId);
    if (!read.ok) return kit.problem(c, checked.page, read);
    return { ...checked, channelId, read };
  };

  app.get(
    '/admin/settings/channels/:channelId/tax',
    kit.page(async (c, page, session) => {
      const channelId = c.req.param('channelId') ?? '';
      if (!UUID.test(channelId) || !session.principal.permissions.has('settings.read')) {
        return kit.notFound(c, page);
      }
      const read = await readChannel(session, channelId);
      if (!read.ok) return kit.problem(c, page, read);
      const saved = c.req.query('saved');
      return renderTax(kit, c, page, read.value, await lookupsOf(kit, session, page, read.value), {
        ...(saved && /^\d+$/.test(saved)
          ? { notice: { kind: 'ok' as const, text: page.t.t('saved', { revision: Number(saved) }) } }
          : {}),
        ...(c.req.query('shopSaved') === '1'
          ? { shopNotice: { kind: 'ok' as const, text: page.t.t('tax.shop.saved') } }
          : {}),
      });
    }),
  );

  app.post('/admin/settings/channels/:channelId/tax', async (c) => {
    const posted = await postedTaxForm(c);
    if (posted instanceof Response) return posted;
    const { form, page, session, channelId, read } = posted;
    const { t } = page;
    const lookups = await lookupsOf(kit, session, page, read.value);
    const rates = ratesOf(read.value, lookups);
    const changes = taxChanges(form, read.value, rates, t.locale);
    // What was typed, kept in the fields when the save is refused or stale (not the `was:` values).
    const entered = new Map<string, string>();
    for (const [name, value] of Object.entries(form)) {
      if (typeof value === 'string' && !name.startsWith('was:') && name !== 'csrf') entered.set(name, value);
    }
    const errors = new Map<string, string>();
    for (const name of changes.invalid) errors.set(name, t.t('tax.error.entry'));
    if (changes.addRate) {
      const existing = rates.find(
        (rate) => rate.classId === changes.addRate!.classId && rate.place === changes.addRate!.country,
      );
      if (existing && existing.value !== null) {
        const country =
          lookups.countries.find((item) => item.code === existing.place)?.name ?? existing.place;
        errors.set('addRate:country', t.t('tax.addRate.exists', { taxClass: existing.title, country }));
      }
    }
    if (errors.size > 0) {
      return renderTax(kit, c, page, read.value, lookups, {
        status: 422,
        entered,
        errors,
        notice: { kind: 'error', text: t.t('tax.error.entries', { count: errors.size }) },
      });
    }
    const revision = Number(form.revision);
    const baseRevision = Number(form.baseRevision);
    const saved = await kit.act(session, 'merchant.commerce.save', {
      channelId,
      revision: Number.isInteger(revision) ? revision : -1,
      baseRevision: Number.isInteger(baseRevision) ? baseRevision : -1,
      language: read.value.language,
      channel: channelFieldsOf(read.value),
      overrides: taxOverridesAfter(read.value, changes, rates, basisIdsOf(lookups)),
    });
    if (saved.ok) {
      const { revision: now } = saved.value as { revision: number };
      return kit.redirect(c, `/admin/settings/channels/${channelId}/tax?saved=${now}`);
    }
    if (saved.code === 'FORBIDDEN') return kit.problem(c, page, saved);
    if (saved.code === 'STALE_REVISION') {
      return renderTax(kit, c, page, read.value, lookups, {
        status: 409,
        entered,
        notice: {
          kind: 'warning',
          text: `${t.t('stale.title')}. ${t.t('stale.body')}`,
          items: staleItems(page, form, read.value, lookups),
        },
      });
    }
    // The operation's refusals pinned to their fields (its pointers name rules by id, rates by class and country).
    const added = changes.added?.id ?? null;
    for (const error of saved.errors ?? []) {
      let field = fieldOfPointer(error.pointer, added);
      const addRate = changes.addRate;
      if (addRate && field === `rate:taxRates.${addRate.classId}.${addRate.country}`) field = 'addRate:rate';
      if (field) errors.set(field, t.t('tax.error.field', { detail: error.message }));
    }
    return renderTax(kit, c, page, read.value, lookups, {
      status: 422,
      entered,
      errors,
      notice: { kind: 'error', text: t.t('error.refused', { detail: saved.detail }) },
    });
  });
  // The shop's own rules, on the main channel's page only: each edited rule saved whole at the
  // revision it was rendered with, a new one at revision 0, one deleted; every write moves the
  // basis revision, so the channel form below is rendered again at the new one.
  app.post('/admin/settings/channels/:channelId/tax/shop', async (c) => {
    const posted = await postedTaxForm(c);
    if (posted instanceof Response) return posted;
    const { form, page, session, channelId, read } = posted;
    const { t } = page;
    if (!read.value.isMain) return kit.notFound(c, page);
    const lookups = await lookupsOf(kit, session, page, read.value);
    const changes = shopRuleChanges(form, lookups.basisRules, t.locale);
    const entered = new Map<string, string>();
    for (const [name, value] of Object.entries(form)) {
      if (typeof value === 'string' && name.startsWith('shop:')) entered.set(name, value);
    }
    const newShopRuleId = form.newShopRuleId;
    if (typeof newShopRuleId === 'string') entered.set('newShopRuleId', newShopRuleId);
    /** The page again with the shop's rules as stored now (an earlier save of this post may have succeeded). */
    const again = async (status: number, shopNotice: Notice, errors?: ReadonlyMap<string, string>) => {
      const now = await readChannel(session, channelId);
      if (!now.ok) return kit.problem(c, page, now);
      const lookupsNow = await lookupsOf(kit, session, page, now.value);
      return renderTax(kit, c, page, now.value, lookupsNow, { status, entered, errors, shopNotice });
    };
    if (changes.invalid.length > 0) {
      const errors = new Map(changes.invalid.map((name) => [name, t.t('tax.error.entry')]));
      return again(422, { kind: 'error', text: t.t('tax.error.entries', { count: errors.size }) }, errors);
    }
    const writes = changes.remove
      ? [{ id: changes.remove.id, result: await kit.act(session, 'basis.tax_rules.delete', changes.remove) }]
      : [];
    for (const save of changes.saves) {
      const result = await kit.act(session, 'basis.tax_rules.save', {
        id: save.id,
        revision: save.revision,
        ...save.rule,
      });
      writes.push({ id: save.id, result });
      if (!result.ok) break;
    }
    const failed = writes.find((write) => !write.result.ok);
    const back = `/admin/settings/channels/${channelId}/tax`;
    if (!failed || failed.result.ok) return kit.redirect(c, writes.length > 0 ? `${back}?shopSaved=1` : back);
    const failure = failed.result;
    if (failure.code === 'FORBIDDEN') return kit.problem(c, page, failure);
    if (failure.code === 'STALE_REVISION')
      return again(409, { kind: 'warning', text: t.t('tax.shop.stale') });
    if (failure.code === 'REFERENCED') {
      const references = (failure.extensions?.references ?? []) as { id: string; key?: string | null }[];
      return again(409, {
        kind: 'error',
        text: t.t('tax.shop.referenced'),
        items: references.map((reference) => reference.key ?? reference.id),
      });
    }
    const errors = new Map<string, string>();
    for (const error of failure.errors ?? []) {
      const field = shopFieldOfPointer(error.pointer, failed.id, changes.addedId);
      if (field) errors.set(field, t.t('tax.error.field', { detail: error.message }));
    }
    return again(422, { kind: 'error', text: t.t('error.refused', { detail: failure.detail }) }, errors);
  });
};
