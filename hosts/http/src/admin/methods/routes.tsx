/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import type { AdminSession, Result } from '@cartwright/service';
import type { Context } from 'hono';
import type { FieldProblem } from '../fields.tsx';
import type { AdminArea, FormBody } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  type Entries,
  entriesFrom,
  entriesOf,
  type FormShape,
  fieldLabel,
  fieldNames,
  fieldOfPointer,
  inputOf,
  METHOD_AREAS,
  type MethodArea,
  type MethodRecord,
  nameOf,
  RESOURCE,
  recordInput,
  shapeOf,
} from './form.ts';
import {
  type MethodChannel,
  MethodPage,
  type MethodReference,
  MethodsListPage,
  methodPath,
  NewMethodPage,
  type Notice,
  RemoveMethodPage,
  type TaxClassOption,
} from './pages.tsx';

// /admin/settings/methods (issue 20, decision 0047): the shop's shared shipping and payment methods
// through `basis.shipping_methods|payment_methods.list|save|delete` (revision-bound) and
// `merchant.commerce.method|dependencies`, with the member's rights (settings.read / settings.write).

const BASE = '/admin/settings/methods';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Failure = Extract<Result<unknown>, { ok: false }>;

/** What every form of the area needs to know about the shop. */
interface ShopContext {
  readonly mainLanguage: string;
  readonly enabledLanguages: readonly string[];
  readonly activeCurrencies: readonly string[];
  readonly taxClasses: readonly TaxClassOption[];
}

function areaOf(value: string | undefined): MethodArea | null {
  return METHOD_AREAS.find((area) => area === value) ?? null;
}

function revisionOf(form: FormBody): number | null {
  const revision = Number(form.revision);
  return typeof form.revision === 'string' && Number.isInteger(revision) && revision >= 0 ? revision : null;
}

function byPosition(mainLanguage: string, locale: string) {
  return (a: MethodRecord, b: MethodRecord) =>
    a.position - b.position ||
    nameOf(a, locale, mainLanguage).text.localeCompare(nameOf(b, locale, mainLanguage).text, locale);
}

export const methodsArea: AdminArea = (app, kit) => {
  const mayRead = (session: AdminSession) => session.principal.permissions.has('settings.read');
  const mayWrite = (session: AdminSession) => session.principal.permissions.has('settings.write');

  const shopContext = async (session: AdminSession, locale: string): Promise<Result<ShopContext>> => {
    const [shop, languages, currencies, taxClasses] = await Promise.all([
      kit.act(session, 'shop.get', {}),
      kit.act(session, 'basis.languages.list', {}),
      kit.act(session, 'basis.currencies.list', {}),
      kit.act(session, 'basis.tax_classes.list', {}),
    ]);
    for (const result of [shop, languages, currencies, taxClasses]) if (!result.ok) return result;
    const mainLanguage = (shop as { value: { shop: { mainLanguage: string } } }).value.shop.mainLanguage;
    const items = <T,>(result: Result<unknown>) => (result as { value: { items: T[] } }).value.items;
    const enabledLanguages = [
      ...new Set([
        mainLanguage,
        ...items<{ code: string; active: boolean }>(languages)
          .filter((language) => language.active)
          .map((language) => language.code),
      ]),
    ];
    const activeCurrencies = items<{ code: string; active: boolean }>(currencies)
      .filter((currency) => currency.active)
      .map((currency) => currency.code);
    const classes = items<Pick<MethodRecord, 'id' | 'key' | 'translations'>>(taxClasses).map((taxClass) => ({
      id: taxClass.id,
      name: nameOf(taxClass, locale, mainLanguage).text,
    }));
    return { ok: true, value: { mainLanguage, enabledLanguages, activeCurrencies, taxClasses: classes } };
  };

  const shape = (area: MethodArea, page: PageContext, shop: ShopContext, record?: MethodRecord): FormShape =>
    shapeOf({
      area,
      locale: page.t.locale,
      mainLanguage: shop.mainLanguage,
      enabledLanguages: shop.enabledLanguages,
      activeCurrencies: shop.activeCurrencies,
      record,
    });

  /** The method with its channels (`merchant.commerce.method`). */
  const readMethod = async (session: AdminSession, area: MethodArea, id: string) => {
    const read = await kit.act(session, 'merchant.commerce.method', { area, methodId: id });
    if (!read.ok) return read;
    const value = read.value as { method: MethodRecord; channels: MethodChannel[] };
    return { ok: true as const, value };
  };

  /** A checked post on `/:area/:id…` with the method it names and the form's revision (404 when one is off). */
  const methodPost = async (c: Context) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const area = areaOf(c.req.param('area'));
    const id = c.req.param('id') ?? '';
    const revision = revisionOf(checked.form);
    if (!area || !UUID.test(id) || revision === null) return kit.notFound(c, checked.page);
    return { ...checked, area, id, revision };
  };

  /** An operation's refusal as problems pinned to the form's fields (the rest to the form). */
  const problemsOf = (
    page: PageContext,
    formShape: FormShape,
    input: Record<string, unknown>,
    failure: Failure,
  ): FieldProblem[] => {
    const pinned = (failure.errors ?? []).map((error) => {
      const field = fieldOfPointer(formShape, input, error.pointer);
      return field
        ? { field, text: error.message }
        : { field: null, text: `${error.pointer}: ${error.message}` };
    });
    return pinned.some((problem) => problem.field !== null)
      ? pinned
      : [{ field: null, text: page.t.t('methods.error.refused', { detail: failure.detail }) }, ...pinned];
  };

  const renderList = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    notice: Notice | ((methods: MethodRecord[], shop: ShopContext) => Notice),
    status = 200,
  ) => {
    const shop = await shopContext(session, page.t.locale);
    if (!shop.ok) return kit.problem(c, page, shop);
    const [shipping, payments] = await Promise.all(
      METHOD_AREAS.map((area) => kit.act(session, `${RESOURCE[area]}.list`, {})),
    );
    if (!shipping!.ok) return kit.problem(c, page, shipping!);
    if (!payments!.ok) return kit.problem(c, page, payments!);
    const order = byPosition(shop.value.mainLanguage, page.t.locale);
    const shippingMethods = (shipping!.value as { items: MethodRecord[] }).items.sort(order);
    const paymentMethods = (payments!.value as { items: MethodRecord[] }).items.sort(order);
    return kit.render(
      c,
      <MethodsListPage
        page={page}
        shipping={shippingMethods}
        payments={paymentMethods}
        mainLanguage={shop.value.mainLanguage}
        taxClasses={shop.value.taxClasses}
        writes={mayWrite(session)}
        notice={
          typeof notice === 'function' ? notice([...shippingMethods, ...paymentMethods], shop.value) : notice
        }
      />,
      status,
    );
  };

  app.get(
    BASE,
    kit.page(async (c, page, session) => {
      if (!mayRead(session)) return kit.notFound(c, page);
      const { t } = page;
      const changed = c.req.query('activated') ?? c.req.query('deactivated');
      const removed = c.req.query('removed') === '1';
      return renderList(c, page, session, (methods, shop) => {
        if (removed) return { kind: 'ok', text: t.t('methods.removed') };
        const method = changed ? methods.find((item) => item.id === changed) : undefined;
        if (!method) return null;
        const name = nameOf(method, t.locale, shop.mainLanguage).text;
        return {
          kind: 'ok',
          text: t.t(method.active ? 'methods.activated' : 'methods.deactivated', { name }),
        };
      });
    }),
  );

  const renderNew = (
    c: Context,
    page: PageContext,
    formShape: FormShape,
    shop: ShopContext,
    entries: Entries,
    problems: FieldProblem[],
    id: string,
    status = 200,
  ) =>
    kit.render(
      c,
      <NewMethodPage
        page={page}
        shape={formShape}
        entries={entries}
        problems={problems}
        taxClasses={shop.taxClasses}
        id={id}
      />,
      status,
    );

  app.get(
    `${BASE}/:area/new`,
    kit.page(async (c, page, session) => {
      const area = areaOf(c.req.param('area'));
      if (!area || !mayRead(session)) return kit.notFound(c, page);
      if (!mayWrite(session)) return kit.problem(c, page, { code: 'FORBIDDEN', detail: '' });
      const shop = await shopContext(session, page.t.locale);
      if (!shop.ok) return kit.problem(c, page, shop);
      const formShape = shape(area, page, shop.value);
      return renderNew(c, page, formShape, shop.value, entriesOf(formShape, undefined), [], randomUUID());
    }),
  );

  app.post(`${BASE}/:area/new`, async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const area = areaOf(c.req.param('area'));
    if (!area) return kit.notFound(c, page);
    const id = typeof form.id === 'string' && UUID.test(form.id) ? form.id.toLowerCase() : randomUUID();
    const shop = await shopContext(session, page.t.locale);
    if (!shop.ok) return kit.problem(c, page, shop);
    const formShape = shape(area, page, shop.value);
    const entries = entriesFrom(formShape, form);
    const parsed = inputOf(page.t, formShape, entries, id, 0);
    if ('problems' in parsed)
      return renderNew(c, page, formShape, shop.value, entries, parsed.problems, id, 422);
    const saved = await kit.act(session, `${RESOURCE[area]}.save`, parsed.input);
    if (saved.ok) return kit.redirect(c, `${methodPath(area, id)}?created=1`);
    if (saved.code === 'FORBIDDEN') return kit.problem(c, page, saved);
    // The form's id is taken (the form was sent twice): the method as it is now.
    if (saved.code === 'STALE_REVISION') return kit.redirect(c, methodPath(area, id));
    const problems = problemsOf(page, formShape, parsed.input, saved);
    return renderNew(c, page, formShape, shop.value, entries, problems, id, 422);
  });

  const renderMethod = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    area: MethodArea,
    id: string,
    extra: {
      entries?: (formShape: FormShape, record: MethodRecord) => Entries;
      problems?: FieldProblem[];
      notice?: (record: MethodRecord, formShape: FormShape) => Notice;
      revision?: number;
      status?: number;
    } = {},
  ) => {
    const [shop, read] = await Promise.all([
      shopContext(session, page.t.locale),
      readMethod(session, area, id),
    ]);
    if (!shop.ok) return kit.problem(c, page, shop);
    if (!read.ok) return kit.problem(c, page, read);
    const { method, channels } = read.value;
    const formShape = shape(area, page, shop.value, method);
    // A refused save keeps the revision the form was opened at, so saving again is still checked.
    const record = extra.revision === undefined ? method : { ...method, revision: extra.revision };
    return kit.render(
      c,
      <MethodPage
        page={page}
        shape={formShape}
        record={record}
        entries={extra.entries ? extra.entries(formShape, method) : entriesOf(formShape, method)}
        problems={extra.problems ?? []}
        taxClasses={shop.value.taxClasses}
        channels={channels}
        writes={mayWrite(session)}
        notice={extra.notice ? extra.notice(method, formShape) : null}
      />,
      extra.status ?? 200,
    );
  };

  app.get(
    `${BASE}/:area/:id`,
    kit.page(async (c, page, session) => {
      const area = areaOf(c.req.param('area'));
      const id = c.req.param('id') ?? '';
      if (!area || !UUID.test(id) || !mayRead(session)) return kit.notFound(c, page);
      const { t } = page;
      const created = c.req.query('created') === '1';
      const saved = c.req.query('saved') === '1';
      return renderMethod(c, page, session, area, id, {
        notice: (record) =>
          created
            ? { kind: 'ok', text: t.t('methods.created') }
            : saved
              ? { kind: 'ok', text: t.t('methods.saved', { revision: record.revision }) }
              : null,
      });
    }),
  );

  app.post(`${BASE}/:area/:id`, async (c) => {
    const posted = await methodPost(c);
    if (posted instanceof Response) return posted;
    const { form, page, session, area, id, revision } = posted;
    const { t } = page;
    const [shop, read] = await Promise.all([shopContext(session, t.locale), readMethod(session, area, id)]);
    if (!shop.ok) return kit.problem(c, page, shop);
    if (!read.ok) return kit.problem(c, page, read);
    const formShape = shape(area, page, shop.value, read.value.method);
    const entries = entriesFrom(formShape, form);
    const parsed = inputOf(t, formShape, entries, id, revision);
    if ('problems' in parsed) {
      return renderMethod(c, page, session, area, id, {
        entries: () => entries,
        problems: parsed.problems,
        revision,
        status: 422,
      });
    }
    const saved = await kit.act(session, `${RESOURCE[area]}.save`, parsed.input);
    if (saved.ok) return kit.redirect(c, `${methodPath(area, id)}?saved=1`);
    if (saved.code === 'FORBIDDEN' || saved.code === 'NOT_FOUND') return kit.problem(c, page, saved);
    if (saved.code === 'STALE_REVISION') {
      // The current values replace the entries; what was entered and differs is listed.
      const shown = (name: string, value: string) =>
        name === 'active' ? t.t(value === 'on' ? 'value.yes' : 'value.no') : value || t.t('empty.text');
      return renderMethod(c, page, session, area, id, {
        notice: (record, currentShape) => {
          const current = entriesOf(currentShape, record);
          const items = fieldNames(currentShape)
            .filter((name) => (entries[name] ?? '').trim() !== (current[name] ?? '').trim())
            .map((name) =>
              t.t('methods.stale.entry', {
                field: fieldLabel(t, name),
                yours: shown(name, entries[name] ?? ''),
                now: shown(name, current[name] ?? ''),
              }),
            );
          return { kind: 'warning', text: t.t('methods.stale', { revision: record.revision }), items };
        },
        status: 409,
      });
    }
    return renderMethod(c, page, session, area, id, {
      entries: () => entries,
      problems: problemsOf(page, formShape, parsed.input, saved),
      revision,
      status: 422,
    });
  });

  app.post(`${BASE}/:area/:id/active`, async (c) => {
    const posted = await methodPost(c);
    if (posted instanceof Response) return posted;
    const { form, page, session, area, id, revision } = posted;
    const { t } = page;
    const active = form.active === 'on' ? true : form.active === 'off' ? false : null;
    if (active === null) return kit.notFound(c, page);
    const read = await readMethod(session, area, id);
    if (!read.ok) return kit.problem(c, page, read);
    const stale = () =>
      renderList(c, page, session, { kind: 'warning', text: t.t('methods.stale.toggle') }, 409);
    if (read.value.method.revision !== revision) return stale();
    const saved = await kit.act(
      session,
      `${RESOURCE[area]}.save`,
      recordInput(area, read.value.method, { active }),
    );
    if (saved.ok) return kit.redirect(c, `${BASE}?${active ? 'activated' : 'deactivated'}=${id}`);
    if (saved.code === 'STALE_REVISION') return stale();
    if (saved.code === 'FORBIDDEN' || saved.code === 'NOT_FOUND') return kit.problem(c, page, saved);
    return renderList(
      c,
      page,
      session,
      { kind: 'error', text: t.t('methods.error.refused', { detail: saved.detail }) },
      422,
    );
  });

  const renderRemove = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    area: MethodArea,
    id: string,
    notice: Notice,
    status = 200,
    refused?: readonly MethodReference[],
  ) => {
    const [shop, read, dependencies] = await Promise.all([
      shopContext(session, page.t.locale),
      readMethod(session, area, id),
      kit.act(session, 'merchant.commerce.dependencies', { area, methodId: id }),
    ]);
    if (!shop.ok) return kit.problem(c, page, shop);
    if (!read.ok) return kit.problem(c, page, read);
    if (!dependencies.ok) return kit.problem(c, page, dependencies);
    const listed = (dependencies.value as { references: MethodReference[] }).references;
    return kit.render(
      c,
      <RemoveMethodPage
        page={page}
        area={area}
        record={read.value.method}
        mainLanguage={shop.value.mainLanguage}
        references={refused && refused.length > listed.length ? refused : listed}
        writes={mayWrite(session)}
        notice={notice}
      />,
      status,
    );
  };

  app.get(
    `${BASE}/:area/:id/remove`,
    kit.page(async (c, page, session) => {
      const area = areaOf(c.req.param('area'));
      const id = c.req.param('id') ?? '';
      if (!area || !UUID.test(id) || !mayRead(session)) return kit.notFound(c, page);
      return renderRemove(c, page, session, area, id, null);
    }),
  );

  app.post(`${BASE}/:area/:id/remove`, async (c) => {
    const posted = await methodPost(c);
    if (posted instanceof Response) return posted;
    const { page, session, area, id, revision } = posted;
    const { t } = page;
    const removed = await kit.act(session, `${RESOURCE[area]}.delete`, { id, revision });
    if (removed.ok) return kit.redirect(c, `${BASE}?removed=1`);
    if (removed.code === 'STALE_REVISION') {
      return renderRemove(
        c,
        page,
        session,
        area,
        id,
        { kind: 'warning', text: t.t('methods.remove.stale') },
        409,
      );
    }
    if (removed.code === 'REFERENCED') {
      const references = (removed.extensions?.references ?? []) as MethodReference[];
      return renderRemove(
        c,
        page,
        session,
        area,
        id,
        { kind: 'error', text: t.t('methods.remove.refused', { detail: removed.detail }) },
        409,
        references,
      );
    }
    return kit.problem(c, page, removed);
  });
};
