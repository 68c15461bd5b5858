/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { ConfirmedDelete, type FieldProblem, FormField, problemTexts } from '../fields.tsx';
import type { MessageKey, Translator } from '../i18n.ts';
import { CsrfField, Layout, Message, NoticeMessage, type PageContext } from '../layout.tsx';
import { stateLabel } from '../orders/states.ts';
import {
  ADDRESS_FIELDS,
  type AddressRecord,
  addressEntriesOf,
  type CustomerRecord,
  DEFAULT_FIELDS,
  type Entries,
  GROUPS,
  SWITCHES,
  TEXT_FIELDS,
} from './form.ts';

// The customers area's pages (decision 0047): the list with search and cursor pages, the add form,
// and one customer with their fields, addresses, orders, app cards and deletion. Readers see text
// only; no page ever shows a password (only whether the customer has one).

export const BASE = '/admin/customers';

export type Notice = { kind: 'ok' | 'error' | 'warning'; text: string; items?: readonly string[] } | null;

/** An order of the customer as `orders.list` answers it (the fields shown). */
export interface CustomerOrder {
  readonly id: string;
  readonly number: number;
  readonly currency: string;
  readonly state: string;
  readonly price: Record<string, unknown>;
  readonly placedAt: string;
}

/** A country of the shop offered in the address forms, named in the UI language. */
export interface CountryOption {
  readonly code: string;
  readonly name: string;
}

/** A form that failed: which one (`customer` or an address id) with its entries and problems. */
export interface FailedForm {
  readonly form: string;
  readonly entries: Entries;
  readonly problems: readonly FieldProblem[];
}

function nameOf(customer: Pick<CustomerRecord, 'firstName' | 'lastName'>): string {
  return `${customer.firstName} ${customer.lastName}`.trim();
}

function label(t: Translator, name: string): string {
  return t.t(`customers.field.${name}` as MessageKey);
}

function regionName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function CustomerListPage(props: {
  page: PageContext;
  items: readonly CustomerRecord[];
  next: string | null;
  first: boolean;
  search: string;
  writes: boolean;
  notice: Notice;
}) {
  const { page, items, next, search } = props;
  const { t } = page;
  const query = search ? `search=${encodeURIComponent(search)}&` : '';
  return (
    <Layout page={page} title={t.t('customers.title')}>
      <h1>{t.t('customers.title')}</h1>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      <form method="get" action={BASE} class="language-bar">
        <div>
          <label for="customer-search">{t.t('customers.search')}</label>
          <input
            type="search"
            id="customer-search"
            name="search"
            value={search}
            maxlength={200}
            aria-describedby="customer-search-hint"
          />
          <p class="hint" id="customer-search-hint">
            {t.t('customers.search.hint')}
          </p>
        </div>
        <button type="submit" class="secondary">
          {t.t('customers.search.submit')}
        </button>
      </form>
      {props.writes ? (
        <p>
          <a href={`${BASE}/new`}>{t.t('customers.add')}</a>
        </p>
      ) : null}
      {items.length === 0 ? (
        <p>{t.t(search ? 'customers.empty.search' : 'customers.empty')}</p>
      ) : (
        <table class="data" id="customers">
          <thead>
            <tr>
              <th scope="col">{t.t('customers.col.name')}</th>
              <th scope="col">{t.t('customers.field.email')}</th>
              <th scope="col">{t.t('customers.field.group')}</th>
              <th scope="col">{t.t('customers.col.status')}</th>
              <th scope="col">{t.t('customers.col.created')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((customer) => (
              <tr data-customer={customer.id}>
                <th scope="row">
                  <a href={`${BASE}/${customer.id}`}>{nameOf(customer) || customer.email}</a>
                </th>
                <td>{customer.email}</td>
                <td>{t.t(`customers.group.${customer.group}`)}</td>
                <td>
                  {t.t(customer.active ? 'customers.status.active' : 'customers.status.inactive')}
                  {customer.guest ? ` · ${t.t('customers.guest')}` : ''}
                </td>
                <td>{t.date(customer.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t.t('customers.pages')}>
        {props.first ? null : (
          <a href={search ? `${BASE}?search=${encodeURIComponent(search)}` : BASE}>
            {t.t('customers.first')}
          </a>
        )}
        {next !== null ? (
          <a href={`${BASE}?${query}after=${next}`} rel="next">
            {t.t('customers.next')}
          </a>
        ) : null}
      </nav>
    </Layout>
  );
}

function Switch(props: { prefix: string; name: string; label: string; entries: Entries }) {
  const id = `${props.prefix}-${props.name}`;
  return (
    <div class="field field-row" data-field={props.name}>
      <input
        type="checkbox"
        id={id}
        name={props.name}
        value="on"
        checked={props.entries[props.name] === 'on'}
      />
      <label for={id}>{props.label}</label>
    </div>
  );
}

/** The problems above a form, each a link to its field. */
function ProblemSummary(props: {
  page: PageContext;
  prefix: string;
  problems: readonly FieldProblem[];
  labelOf: (name: string) => string;
}) {
  const { t } = props.page;
  if (props.problems.length === 0) return null;
  return (
    <Message kind="error">
      <p>{t.t('customers.error.summary', { count: props.problems.length })}</p>
      <ul>
        {props.problems.map((problem) =>
          problem.field ? (
            <li>
              <a href={`#${props.prefix}-${problem.field}`}>
                {props.labelOf(problem.field)}: {problem.text}
              </a>
            </li>
          ) : (
            <li>{problem.text}</li>
          ),
        )}
      </ul>
    </Message>
  );
}

const HINTS: Partial<Record<string, MessageKey>> = {
  tags: 'customers.field.tagsHint',
  birthday: 'customers.field.birthdayHint',
  company: 'customers.field.companyHint',
};

/** The add or edit form of a customer. */
function CustomerForm(props: {
  page: PageContext;
  entries: Entries;
  problems: readonly FieldProblem[];
  action: string;
  /** The revision the form was opened at (edit only). */
  revision?: number | undefined;
  /** The customer's addresses to pick defaults from (edit only). */
  addresses?: readonly { id: string; address: AddressRecord }[] | undefined;
  /** Whether the customer is a guest (no password) or new (may become one). */
  guest: boolean | 'new';
  hasPassword?: boolean | undefined;
  submit: string;
}) {
  const { page, entries, problems } = props;
  const { t, csrf } = page;
  const prefix = 'f';
  const text = (name: string, type = 'text') =>
    function control(attributes: Record<string, unknown>) {
      return (
        <input
          type={type}
          {...attributes}
          value={entries[name] ?? ''}
          autocomplete="off"
          spellcheck={name === 'email' ? false : undefined}
        />
      );
    };
  return (
    <form method="post" action={props.action} class="customer-form" novalidate>
      <CsrfField token={csrf} />
      {props.revision !== undefined ? (
        <input type="hidden" name="revision" value={String(props.revision)} />
      ) : null}
      {TEXT_FIELDS.map((name) => (
        <>
          <FormField
            id={`${prefix}-${name}`}
            name={name}
            label={label(t, name)}
            problems={problemTexts(problems, name)}
            hint={HINTS[name] ? t.t(HINTS[name]) : undefined}
            control={text(name, name === 'email' ? 'email' : name === 'birthday' ? 'date' : 'text')}
          />
          {name === 'lastName' ? (
            <FormField
              id={`${prefix}-group`}
              name="group"
              label={label(t, 'group')}
              problems={problemTexts(problems, 'group')}
              control={(attributes) => (
                <select {...attributes}>
                  {GROUPS.map((group) => (
                    <option value={group} selected={entries.group === group}>
                      {t.t(`customers.group.${group}`)}
                    </option>
                  ))}
                </select>
              )}
            />
          ) : null}
        </>
      ))}
      {SWITCHES.map((name) => (
        <Switch prefix={prefix} name={name} label={label(t, name)} entries={entries} />
      ))}
      {props.guest === 'new' ? (
        <Switch prefix={prefix} name="guest" label={label(t, 'guest')} entries={entries} />
      ) : null}
      {props.addresses && props.addresses.length > 0
        ? DEFAULT_FIELDS.map((name) => (
            <FormField
              id={`${prefix}-${name}`}
              name={name}
              label={label(t, name)}
              problems={problemTexts(problems, name)}
              control={(attributes) => (
                <select {...attributes}>
                  <option value="" selected={entries[name] === ''}>
                    {t.t('customers.address.none')}
                  </option>
                  {(props.addresses ?? []).map(({ id, address }) => (
                    <option value={id} selected={entries[name] === id}>
                      {addressLine(t, address)}
                    </option>
                  ))}
                </select>
              )}
            />
          ))
        : null}
      {props.guest === true ? null : (
        <FormField
          id={`${prefix}-password`}
          name="password"
          label={t.t(props.guest === 'new' ? 'customers.field.password' : 'customers.field.newPassword')}
          problems={problemTexts(problems, 'password')}
          hint={t.t(
            props.guest === 'new'
              ? 'customers.field.passwordHint'
              : props.hasPassword
                ? 'customers.field.newPasswordHint'
                : 'customers.field.noPasswordHint',
          )}
          control={(attributes) => (
            <input type="password" {...attributes} value="" autocomplete="new-password" />
          )}
        />
      )}
      <button type="submit">{props.submit}</button>
    </form>
  );
}

function addressLine(t: Translator, address: AddressRecord): string {
  return [
    `${address.firstName} ${address.lastName}`,
    address.street,
    `${address.zipcode} ${address.city}`,
    regionName(t.locale, address.country),
  ].join(', ');
}

/** An address as text lines. */
function AddressText({ t, address }: { t: Translator; address: AddressRecord }) {
  const lines = [
    [address.salutation, address.firstName, address.lastName].filter(Boolean).join(' '),
    address.company,
    address.street,
    address.additionalLine,
    `${address.zipcode} ${address.city}`,
    [regionName(t.locale, address.country), address.subdivision].filter(Boolean).join(', '),
    address.phone,
  ].filter((line): line is string => Boolean(line));
  return (
    <address>
      {lines.map((line, index) => (
        <>
          {index > 0 ? <br /> : null}
          {line}
        </>
      ))}
    </address>
  );
}

/** An address's form: save (`customers.addresses.save` with the id the form carries). */
function AddressForm(props: {
  page: PageContext;
  customerId: string;
  addressId: string;
  entries: Entries;
  problems: readonly FieldProblem[];
  countries: readonly CountryOption[] | null;
  submit: string;
}) {
  const { page, entries, problems } = props;
  const { t, csrf } = page;
  const prefix = `a-${props.addressId}`;
  const required = new Set(['firstName', 'lastName', 'street', 'zipcode', 'city', 'country']);
  return (
    <form
      method="post"
      action={`${BASE}/${props.customerId}/addresses/${props.addressId}`}
      class="address-form"
      data-address={props.addressId}
      novalidate
    >
      <CsrfField token={csrf} />
      <ProblemSummary
        page={page}
        prefix={prefix}
        problems={problems}
        labelOf={(name) => t.t(`customers.address.${name}` as MessageKey)}
      />
      {ADDRESS_FIELDS.map((name) => (
        <FormField
          id={`${prefix}-${name}`}
          name={name}
          label={t.t(`customers.address.${name}` as MessageKey)}
          problems={problemTexts(problems, name)}
          hint={name === 'subdivision' ? t.t('customers.address.subdivisionHint') : undefined}
          control={(attributes) =>
            name === 'country' && props.countries ? (
              <select {...attributes}>
                {entries.country === '' ? <option value="" selected /> : null}
                {props.countries.map((country) => (
                  <option value={country.code} selected={entries.country === country.code}>
                    {country.name}
                  </option>
                ))}
              </select>
            ) : (
              <input
                type="text"
                {...attributes}
                value={entries[name] ?? ''}
                aria-required={required.has(name) ? 'true' : undefined}
              />
            )
          }
        />
      ))}
      <Switch
        prefix={prefix}
        name="defaultBilling"
        label={t.t('customers.address.defaultBilling')}
        entries={entries}
      />
      <Switch
        prefix={prefix}
        name="defaultShipping"
        label={t.t('customers.address.defaultShipping')}
        entries={entries}
      />
      <button type="submit">{props.submit}</button>
    </form>
  );
}

export function NewCustomerPage(props: {
  page: PageContext;
  entries: Entries;
  problems: readonly FieldProblem[];
}) {
  const { page } = props;
  const { t } = page;
  return (
    <Layout page={page} title={t.t('customers.new')}>
      <p>
        <a href={BASE}>{t.t('customers.back')}</a>
      </p>
      <h1>{t.t('customers.new')}</h1>
      <ProblemSummary page={page} prefix="f" problems={props.problems} labelOf={(name) => label(t, name)} />
      <CustomerForm
        page={page}
        entries={props.entries}
        problems={props.problems}
        action={`${BASE}/new`}
        guest="new"
        submit={t.t('customers.create')}
      />
    </Layout>
  );
}

/** A stored customer as text (what a reader sees). */
function CustomerFacts({ t, customer }: { t: Translator; customer: CustomerRecord }) {
  const empty = t.t('empty.text');
  const addressOf = (id: string | null) => {
    const found = customer.addresses?.find((entry) => entry.id === id);
    return found ? addressLine(t, found.address) : empty;
  };
  return (
    <dl class="facts">
      {TEXT_FIELDS.map((name) => (
        <>
          <dt>{label(t, name)}</dt>
          <dd>{name === 'tags' ? customer.tags.join(', ') || empty : customer[name] || empty}</dd>
        </>
      ))}
      <dt>{label(t, 'group')}</dt>
      <dd>{t.t(`customers.group.${customer.group}`)}</dd>
      <dt>{label(t, 'active')}</dt>
      <dd>{t.t(customer.active ? 'value.yes' : 'value.no')}</dd>
      <dt>{label(t, 'newsletter')}</dt>
      <dd>{t.t(customer.newsletter ? 'value.yes' : 'value.no')}</dd>
      <dt>{label(t, 'defaultBillingAddressId')}</dt>
      <dd>{addressOf(customer.defaultBillingAddressId)}</dd>
      <dt>{label(t, 'defaultShippingAddressId')}</dt>
      <dd>{addressOf(customer.defaultShippingAddressId)}</dd>
    </dl>
  );
}

function orderTotal(order: CustomerOrder): number | null {
  const total = order.price.total as { gross?: unknown } | undefined;
  return typeof total?.gross === 'number' ? total.gross : null;
}

export function CustomerPage(props: {
  page: PageContext;
  customer: CustomerRecord;
  /** The edit form's entries, problems and revision (a refused save keeps what was entered). */
  entries: Entries;
  problems: readonly FieldProblem[];
  revision: number;
  /** An address form that failed, kept with its entries and problems. */
  failedAddress: FailedForm | null;
  newAddressId: string;
  countries: readonly CountryOption[] | null;
  /** The customer's orders, or null when the member may not read orders. */
  orders: readonly CustomerOrder[] | null;
  moreOrders: boolean;
  writes: boolean;
  notice: Notice;
  appBlocks: Child;
}) {
  const { page, customer } = props;
  const { t, csrf } = page;
  const path = `${BASE}/${customer.id}`;
  const title = nameOf(customer) || customer.email;
  const addresses = customer.addresses ?? [];
  const history = customer.history;
  const failed = (id: string) => (props.failedAddress?.form === id ? props.failedAddress : null);
  const newFailed = failed(props.newAddressId);
  return (
    <Layout page={page} title={title}>
      <p>
        <a href={BASE}>{t.t('customers.back')}</a>
      </p>
      <h1>{title}</h1>
      <p class="meta">
        {customer.email} · {t.t(`customers.group.${customer.group}`)} ·{' '}
        {t.t(customer.active ? 'customers.status.active' : 'customers.status.inactive')}
        {customer.guest ? ` · ${t.t('customers.guest')}` : ''} ·{' '}
        {t.t('customers.revision', { revision: customer.revision, date: t.date(customer.updatedAt) })}
      </p>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      <dl class="facts" id="customer-summary">
        <dt>{t.t('customers.col.created')}</dt>
        <dd>{t.date(customer.createdAt)}</dd>
        <dt>{t.t('customers.lastLogin')}</dt>
        <dd>{customer.lastLoginAt ? t.date(customer.lastLoginAt) : t.t('customers.never')}</dd>
        <dt>{t.t('customers.password')}</dt>
        <dd>{t.t(customer.hasPassword ? 'customers.password.set' : 'customers.password.none')}</dd>
        {history ? (
          <>
            <dt>{t.t('customers.orderCount')}</dt>
            <dd>{new Intl.NumberFormat(t.locale).format(history.orderCount)}</dd>
            <dt>{t.t('customers.totalSpent')}</dt>
            <dd>
              {Object.entries(history.totalSpent)
                .map(([currency, amount]) => t.money(amount, currency))
                .join(' · ') || t.t('empty.text')}
            </dd>
          </>
        ) : null}
      </dl>
      <section aria-labelledby="customer-fields">
        <h2 id="customer-fields">{t.t('customers.fields')}</h2>
        {props.writes ? (
          <>
            <ProblemSummary
              page={page}
              prefix="f"
              problems={props.problems}
              labelOf={(name) => label(t, name)}
            />
            <CustomerForm
              page={page}
              entries={props.entries}
              problems={props.problems}
              action={path}
              revision={props.revision}
              addresses={addresses}
              guest={customer.guest}
              hasPassword={customer.hasPassword}
              submit={t.t('customers.save')}
            />
          </>
        ) : (
          <>
            <p>{t.t('customers.readOnly')}</p>
            <CustomerFacts t={t} customer={customer} />
          </>
        )}
      </section>
      <section aria-labelledby="customer-addresses">
        <h2 id="customer-addresses">{t.t('customers.addresses')}</h2>
        {addresses.length === 0 ? <p>{t.t('customers.addresses.none')}</p> : null}
        <ul class="cards" id="addresses">
          {addresses.map(({ id, address }) => {
            const billing = customer.defaultBillingAddressId === id;
            const shipping = customer.defaultShippingAddressId === id;
            const kept = failed(id);
            return (
              <li class="card" data-address={id}>
                <AddressText t={t} address={address} />
                {billing ? <span class="badge">{t.t('customers.address.defaultBilling')}</span> : null}{' '}
                {shipping ? <span class="badge">{t.t('customers.address.defaultShipping')}</span> : null}
                {props.writes ? (
                  <>
                    <details open={kept !== null}>
                      <summary>{t.t('customers.address.edit')}</summary>
                      <AddressForm
                        page={page}
                        customerId={customer.id}
                        addressId={id}
                        entries={
                          kept?.entries ??
                          addressEntriesOf(address, { defaultBilling: billing, defaultShipping: shipping })
                        }
                        problems={kept?.problems ?? []}
                        countries={props.countries}
                        submit={t.t('customers.address.save')}
                      />
                    </details>
                    <form method="post" action={`${path}/addresses/${id}/remove`}>
                      <CsrfField token={csrf} />
                      <button
                        type="submit"
                        class="secondary"
                        aria-label={t.t('customers.address.removeNamed', {
                          address: addressLine(t, address),
                        })}
                      >
                        {t.t('customers.address.remove')}
                      </button>
                    </form>
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
        {props.writes ? (
          <details open={newFailed !== null} id="new-address">
            <summary>{t.t('customers.address.add')}</summary>
            <AddressForm
              page={page}
              customerId={customer.id}
              addressId={props.newAddressId}
              entries={newFailed?.entries ?? { country: props.countries?.[0]?.code ?? '' }}
              problems={newFailed?.problems ?? []}
              countries={props.countries}
              submit={t.t('customers.address.add')}
            />
          </details>
        ) : null}
      </section>
      {props.orders ? (
        <section aria-labelledby="customer-orders">
          <h2 id="customer-orders">{t.t('customers.orders')}</h2>
          {props.orders.length === 0 ? (
            <p>{t.t('customers.orders.none')}</p>
          ) : (
            <table class="data" id="orders">
              <thead>
                <tr>
                  <th scope="col">{t.t('customers.orders.number')}</th>
                  <th scope="col">{t.t('customers.orders.placed')}</th>
                  <th scope="col">{t.t('customers.orders.total')}</th>
                  <th scope="col">{t.t('customers.orders.state')}</th>
                </tr>
              </thead>
              <tbody>
                {props.orders.map((order) => {
                  const total = orderTotal(order);
                  return (
                    <tr>
                      <td>
                        <a href={`/admin/orders/${order.id}`}>
                          {t.t('customers.orders.title', { number: order.number })}
                        </a>
                      </td>
                      <td>{t.date(order.placedAt)}</td>
                      <td class="num">{total === null ? '' : t.money(total, order.currency)}</td>
                      <td>{stateLabel('order', order.state, t.locale)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          {props.moreOrders ? <p class="hint">{t.t('customers.orders.more')}</p> : null}
        </section>
      ) : null}
      {props.appBlocks}
      {props.writes ? (
        <ConfirmedDelete
          id="customer-delete"
          heading={t.t('customers.delete')}
          action={`${path}/delete`}
          csrf={csrf}
          revision={customer.revision}
          hint={t.t('customers.delete.hint')}
          confirm={t.t('customers.delete.confirm', { name: title })}
        />
      ) : null}
    </Layout>
  );
}
