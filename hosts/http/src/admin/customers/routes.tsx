/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import type { AdminSession } from '@cartwright/service';
import type { Context } from 'hono';
import { AppBlocks, appBlocksFor } from '../apps/blocks.tsx';
import type { FieldProblem } from '../fields.tsx';
import type { AdminArea } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  ADDRESS_FIELDS,
  addressEntriesFrom,
  addressInput,
  CREATE_FIELDS,
  type CustomerRecord,
  changesOf,
  createInput,
  type Entries,
  entriesFrom,
  entriesOf,
  NEW_CUSTOMER,
  problemsOf,
  UPDATE_FIELDS,
} from './form.ts';
import {
  BASE,
  type CountryOption,
  CustomerListPage,
  type CustomerOrder,
  CustomerPage,
  type FailedForm,
  NewCustomerPage,
  type Notice,
} from './pages.tsx';

// The customers area (issue 20, decision 0047): /admin/customers lists the shop's customers 25 a
// page in the operation's order with a search by name or e-mail (customers.list, `after`);
// /admin/customers/new adds one (customers.create); /admin/customers/{id} edits one at the
// revision it was read (customers.update), its addresses (customers.addresses.save|delete), lists
// its orders (orders.list by customerId), shows the app cards of `admin.customer` and deletes it
// behind a confirmation box (customers.delete, refused while orders reference the customer).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_SIZE = 25;

const DONE = {
  created: 'customers.created',
  saved: 'customers.saved',
  unchanged: 'customers.unchanged',
  address: 'customers.address.saved',
  removed: 'customers.address.removed',
} as const;

export const customersArea: AdminArea = (app, kit) => {
  type Permission = Parameters<AdminSession['principal']['permissions']['has']>[0];
  const has = (session: AdminSession, permission: Permission) =>
    session.principal.permissions.has(permission);

  app.get(
    BASE,
    kit.page(async (c, page, session) => {
      if (!has(session, 'customers.read')) return kit.notFound(c, page);
      const search = (c.req.query('search') ?? '').trim().slice(0, 200);
      const after = c.req.query('after') ?? '';
      const listed = await kit.act(session, 'customers.list', {
        limit: PAGE_SIZE,
        ...(search ? { search } : {}),
        ...(UUID.test(after) ? { after: after.toLowerCase() } : {}),
      });
      if (!listed.ok) return kit.problem(c, page, listed);
      const { items, next } = listed.value as { items: CustomerRecord[]; next: string | null };
      return kit.render(
        c,
        <CustomerListPage
          page={page}
          items={items}
          next={next}
          first={!UUID.test(after)}
          search={search}
          writes={has(session, 'customers.write')}
          notice={c.req.query('deleted') === '1' ? { kind: 'ok', text: page.t.t('customers.deleted') } : null}
        />,
      );
    }),
  );

  app.get(
    `${BASE}/new`,
    kit.page(async (c, page, session) => {
      if (!has(session, 'customers.read')) return kit.notFound(c, page);
      if (!has(session, 'customers.write')) return kit.problem(c, page, { code: 'FORBIDDEN', detail: '' });
      return kit.render(c, <NewCustomerPage page={page} entries={NEW_CUSTOMER} problems={[]} />);
    }),
  );

  app.post(`${BASE}/new`, async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const entries = entriesFrom(form, CREATE_FIELDS);
    const created = await kit.act(session, 'customers.create', createInput(entries));
    if (created.ok) return kit.redirect(c, `${BASE}/${(created.value as CustomerRecord).id}?done=created`);
    if (created.code === 'FORBIDDEN') return kit.problem(c, page, created);
    const refused = page.t.t('customers.error.refused', { detail: created.detail });
    return kit.render(
      c,
      <NewCustomerPage
        page={page}
        entries={{ ...entries, password: '' }}
        problems={problemsOf(created, CREATE_FIELDS, refused)}
      />,
      422,
    );
  });

  /** The countries of the shop for the address forms (null: typed as a code). */
  const countriesOf = async (session: AdminSession, locale: string): Promise<CountryOption[] | null> => {
    const listed = await kit.act(session, 'basis.countries.list', {});
    if (!listed.ok) return null;
    const regions = new Intl.DisplayNames([locale], { type: 'region' });
    return (listed.value as { items: { code: string }[] }).items
      .map(({ code }) => ({ code, name: regions.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, locale));
  };

  const customerPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    id: string,
    extra: {
      entries?: Entries;
      problems?: FieldProblem[];
      revision?: number;
      failedAddress?: FailedForm;
      notice?: (customer: CustomerRecord) => Notice;
      status?: number;
    } = {},
  ): Promise<Response> => {
    const read = await kit.act(session, 'customers.get', { id });
    if (!read.ok) return kit.problem(c, page, read);
    const customer = read.value as CustomerRecord;
    const writes = has(session, 'customers.write');
    const [orders, countries, blocks] = await Promise.all([
      has(session, 'orders.read')
        ? kit.act(session, 'orders.list', { limit: PAGE_SIZE, customerId: customer.id })
        : null,
      writes ? countriesOf(session, page.t.locale) : null,
      appBlocksFor(kit, session, ['admin.customer'], { customerId: customer.id }),
    ]);
    const listed = orders?.ok ? (orders.value as { items: CustomerOrder[]; next: number | null }) : null;
    return kit.render(
      c,
      <CustomerPage
        page={page}
        customer={customer}
        entries={extra.entries ?? entriesOf(customer)}
        problems={extra.problems ?? []}
        // A refused save keeps the revision the form was opened at, so saving again is still checked.
        revision={extra.revision ?? customer.revision}
        failedAddress={extra.failedAddress ?? null}
        newAddressId={
          extra.failedAddress && !customer.addresses?.some((entry) => entry.id === extra.failedAddress?.form)
            ? extra.failedAddress.form
            : randomUUID()
        }
        countries={countries}
        orders={listed?.items ?? null}
        moreOrders={listed?.next != null}
        writes={writes}
        notice={extra.notice ? extra.notice(customer) : null}
        appBlocks={
          <AppBlocks page={page} blocks={blocks} writes={has(session, 'apps.write')} back={c.req.path} />
        }
      />,
      extra.status ?? 200,
    );
  };

  app.get(
    `${BASE}/:id`,
    kit.page(async (c, page, session) => {
      const id = c.req.param('id') ?? '';
      if (!UUID.test(id) || !has(session, 'customers.read')) return kit.notFound(c, page);
      const done = DONE[(c.req.query('done') ?? '') as keyof typeof DONE];
      return customerPage(c, page, session, id.toLowerCase(), {
        notice: (customer) =>
          done ? { kind: 'ok', text: page.t.t(done, { revision: customer.revision }) } : null,
      });
    }),
  );

  /** A checked post on `/admin/customers/:id…` with the customer id (404 when it is no UUID). */
  const customerPost = async (c: Context) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const id = c.req.param('id') ?? '';
    if (!UUID.test(id)) return kit.notFound(c, checked.page);
    return { ...checked, id: id.toLowerCase() };
  };

  app.post(`${BASE}/:id`, async (c) => {
    const posted = await customerPost(c);
    if (posted instanceof Response) return posted;
    const { form, page, session, id } = posted;
    const { t } = page;
    const read = await kit.act(session, 'customers.get', { id });
    if (!read.ok) return kit.problem(c, page, read);
    const current = read.value as CustomerRecord;
    const entries = entriesFrom(form, UPDATE_FIELDS);
    const revision = Number(form.revision);
    const at = typeof form.revision === 'string' && Number.isSafeInteger(revision) ? revision : -1;
    const changes = changesOf(entries, current);
    const stale = () =>
      customerPage(c, page, session, id, {
        status: 409,
        notice: (customer) => {
          // The current values replace the entries; what was entered and differs is listed.
          const now = entriesOf(customer);
          const shown = (name: string, value: string) =>
            name === 'active' || name === 'newsletter'
              ? t.t(value === 'on' ? 'value.yes' : 'value.no')
              : value || t.t('empty.text');
          const items = UPDATE_FIELDS.filter(
            (name) => name !== 'password' && (entries[name] ?? '').trim() !== (now[name] ?? '').trim(),
          ).map((name) =>
            t.t('customers.stale.entry', {
              field: t.t(`customers.field.${name}`),
              yours: shown(name, entries[name] ?? ''),
              now: shown(name, now[name] ?? ''),
            }),
          );
          return { kind: 'warning', text: t.t('customers.stale', { revision: customer.revision }), items };
        },
      });
    if (Object.keys(changes).length === 0) {
      // Nothing to write: still only a member who may write is told it was saved.
      if (!has(session, 'customers.write')) return kit.problem(c, page, { code: 'FORBIDDEN', detail: '' });
      return at === current.revision ? kit.redirect(c, `${BASE}/${id}?done=unchanged`) : stale();
    }
    const saved = await kit.act(session, 'customers.update', { id, revision: at, ...changes });
    if (saved.ok) return kit.redirect(c, `${BASE}/${id}?done=saved`);
    if (saved.code === 'FORBIDDEN' || saved.code === 'NOT_FOUND') return kit.problem(c, page, saved);
    if (saved.code === 'STALE_REVISION') return stale();
    return customerPage(c, page, session, id, {
      entries: { ...entries, password: '' },
      problems: problemsOf(saved, UPDATE_FIELDS, t.t('customers.error.refused', { detail: saved.detail })),
      revision: at,
      status: 422,
    });
  });

  // An address saved under the id its form carries: an existing one is replaced, a new form's id
  // (made when the page was rendered) adds it, so a repeated post changes nothing more.
  app.post(`${BASE}/:id/addresses/:addressId`, async (c) => {
    const posted = await customerPost(c);
    if (posted instanceof Response) return posted;
    const { form, page, session, id } = posted;
    const addressId = c.req.param('addressId') ?? '';
    if (!UUID.test(addressId)) return kit.notFound(c, page);
    const entries = addressEntriesFrom(form);
    const saved = await kit.act(session, 'customers.addresses.save', {
      id,
      addressId: addressId.toLowerCase(),
      ...addressInput(entries),
    });
    if (saved.ok) return kit.redirect(c, `${BASE}/${id}?done=address`);
    if (saved.code === 'FORBIDDEN' || saved.code === 'NOT_FOUND') return kit.problem(c, page, saved);
    const refused = page.t.t('customers.error.refused', { detail: saved.detail });
    return customerPage(c, page, session, id, {
      failedAddress: {
        form: addressId.toLowerCase(),
        entries,
        problems: problemsOf(saved, ADDRESS_FIELDS, refused, '/address'),
      },
      status: 422,
    });
  });

  app.post(`${BASE}/:id/addresses/:addressId/remove`, async (c) => {
    const posted = await customerPost(c);
    if (posted instanceof Response) return posted;
    const { page, session, id } = posted;
    const addressId = c.req.param('addressId') ?? '';
    if (!UUID.test(addressId)) return kit.notFound(c, page);
    const removed = await kit.act(session, 'customers.addresses.delete', {
      id,
      addressId: addressId.toLowerCase(),
    });
    if (removed.ok) return kit.redirect(c, `${BASE}/${id}?done=removed`);
    if (removed.code === 'FORBIDDEN' || removed.code === 'NOT_FOUND') return kit.problem(c, page, removed);
    return customerPage(c, page, session, id, {
      status: 409,
      notice: () => ({
        kind: 'error',
        text: page.t.t('customers.address.removeRefused', { detail: removed.detail }),
      }),
    });
  });

  // Deletion behind a confirmation box at the revision shown; the operation's refusal (orders
  // reference the customer) is shown with the orders it names.
  app.post(`${BASE}/:id/delete`, async (c) => {
    const posted = await customerPost(c);
    if (posted instanceof Response) return posted;
    const { form, page, session, id } = posted;
    const { t } = page;
    if (form.confirm !== 'on') {
      return customerPage(c, page, session, id, {
        status: 422,
        notice: () => ({ kind: 'error', text: t.t('error.confirm') }),
      });
    }
    const revision = Number(form.revision);
    const deleted = await kit.act(session, 'customers.delete', {
      id,
      revision: Number.isSafeInteger(revision) ? revision : -1,
    });
    if (deleted.ok) return kit.redirect(c, `${BASE}?deleted=1`);
    if (deleted.code === 'FORBIDDEN' || deleted.code === 'NOT_FOUND') return kit.problem(c, page, deleted);
    const references = (deleted.extensions?.references ?? []) as { kind: string; number?: number }[];
    return customerPage(c, page, session, id, {
      status: 409,
      notice: () =>
        deleted.code === 'STALE_REVISION'
          ? { kind: 'warning', text: t.t('customers.delete.stale') }
          : {
              kind: 'error',
              text: t.t('customers.delete.refused', { detail: deleted.detail }),
              items: references.flatMap((reference) =>
                reference.kind === 'order' && typeof reference.number === 'number'
                  ? [t.t('customers.orders.title', { number: reference.number })]
                  : [],
              ),
            },
    });
  });
};
