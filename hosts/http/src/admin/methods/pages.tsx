/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { type FieldAttributes, type FieldProblem, FormField, problemTexts } from '../fields.tsx';
import type { MessageKey, Translator } from '../i18n.ts';
import { CsrfField, Layout, Message, NoticeMessage, type PageContext } from '../layout.tsx';
import {
  amountExample,
  type Entries,
  type FormShape,
  fieldId,
  fieldLabel,
  HANDLERS,
  type Handler,
  type MethodArea,
  type MethodRecord,
  nameOf,
} from './form.ts';

// The shop's shared shipping and payment methods (decision 0047): the list with activation, the
// add and edit form, and the removal page with what uses a method. Readers see text only.

export type Notice = { kind: 'ok' | 'error' | 'warning'; text: string; items?: readonly string[] } | null;

export interface TaxClassOption {
  readonly id: string;
  readonly name: string;
}

/** A channel's view of a method, as `merchant.commerce.method` answers it. */
export interface MethodChannel {
  readonly id: string;
  readonly key: string | null;
  readonly isMain: boolean;
  readonly active: boolean;
  readonly provenance: 'inherited' | 'overridden';
}

export interface MethodReference {
  readonly kind: string;
  readonly id: string;
  readonly key?: string | null;
}

const BASE = '/admin/settings/methods';

export function methodPath(area: MethodArea, id: string): string {
  return `${BASE}/${area}/${id}`;
}

function handlerText(t: Translator, handler: Handler | string | undefined): string {
  return (HANDLERS as readonly string[]).includes(handler ?? '')
    ? t.t(`methods.handler.${handler}` as MessageKey)
    : String(handler ?? '');
}

/** A method's name in the UI language, or the main language's marked as a fallback. */
function MethodName({
  page,
  record,
  mainLanguage,
}: {
  page: PageContext;
  record: MethodRecord;
  mainLanguage: string;
}) {
  const { t } = page;
  const name = nameOf(record, t.locale, mainLanguage);
  if (!name.fallback) return <>{name.text}</>;
  return (
    <>
      <span lang={name.fallback}>{name.text}</span>{' '}
      <span class="badge fallback">
        {t.t('methods.fallback', { language: t.languageName(name.fallback) })}
      </span>
    </>
  );
}

function MethodRow({
  page,
  area,
  record,
  mainLanguage,
  taxClasses,
  writes,
}: {
  page: PageContext;
  area: MethodArea;
  record: MethodRecord;
  mainLanguage: string;
  taxClasses: readonly TaxClassOption[];
  writes: boolean;
}) {
  const { t, csrf } = page;
  const plain = nameOf(record, t.locale, mainLanguage).text;
  const taxClass = record.taxClassId
    ? (taxClasses.find((item) => item.id === record.taxClassId)?.name ?? record.taxClassId)
    : t.t('methods.field.taxClassNone');
  return (
    <tr data-method={record.id}>
      <th scope="row">
        <a href={methodPath(area, record.id)}>
          <MethodName page={page} record={record} mainLanguage={mainLanguage} />
        </a>
      </th>
      <td>{t.t(record.active ? 'methods.active.yes' : 'methods.active.no')}</td>
      <td class="num">{new Intl.NumberFormat(t.locale).format(record.position)}</td>
      {area === 'shipping' ? (
        <>
          <td>
            {(record.prices ?? []).length === 0
              ? t.t('methods.noPrice')
              : (record.prices ?? []).map((price, index) => (
                  <>
                    {index > 0 ? <br /> : null}
                    {t.t('methods.price', {
                      gross: t.money(price.gross, price.currency),
                      net: t.money(price.net, price.currency),
                    })}
                  </>
                ))}
          </td>
          <td>{taxClass}</td>
        </>
      ) : (
        <td>{handlerText(t, record.handler)}</td>
      )}
      <td>
        {record.appId
          ? area === 'shipping'
            ? t.t('methods.appPriced', { app: record.appId })
            : record.appId
          : ''}
      </td>
      {writes ? (
        <td>
          <form method="post" action={`${methodPath(area, record.id)}/active`}>
            <CsrfField token={csrf} />
            <input type="hidden" name="revision" value={String(record.revision)} />
            <input type="hidden" name="active" value={record.active ? 'off' : 'on'} />
            <button
              type="submit"
              class="secondary"
              aria-label={t.t(record.active ? 'methods.deactivateNamed' : 'methods.activateNamed', {
                name: plain,
              })}
            >
              {t.t(record.active ? 'methods.deactivate' : 'methods.activate')}
            </button>
          </form>
        </td>
      ) : null}
    </tr>
  );
}

function MethodTable(props: {
  page: PageContext;
  area: MethodArea;
  methods: readonly MethodRecord[];
  mainLanguage: string;
  taxClasses: readonly TaxClassOption[];
  writes: boolean;
}) {
  const { t } = props.page;
  const { area } = props;
  const heading = `methods-${area}`;
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{t.t(area === 'shipping' ? 'methods.shipping' : 'methods.payments')}</h2>
      {props.writes ? (
        <p>
          <a href={`${BASE}/${area}/new`}>
            {t.t(area === 'shipping' ? 'methods.add.shipping' : 'methods.add.payments')}
          </a>
        </p>
      ) : null}
      {props.methods.length === 0 ? (
        <p>{t.t(area === 'shipping' ? 'methods.none.shipping' : 'methods.none.payments')}</p>
      ) : (
        <table class="data" id={`${area}-methods`}>
          <thead>
            <tr>
              <th scope="col">{t.t('methods.col.name')}</th>
              <th scope="col">{t.t('methods.col.active')}</th>
              <th scope="col">{t.t('methods.col.position')}</th>
              {area === 'shipping' ? (
                <>
                  <th scope="col">{t.t('methods.col.prices')}</th>
                  <th scope="col">{t.t('methods.col.taxClass')}</th>
                </>
              ) : (
                <th scope="col">{t.t('methods.col.handler')}</th>
              )}
              <th scope="col">{t.t('methods.col.app')}</th>
              {props.writes ? <th scope="col">{t.t('methods.col.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {props.methods.map((record) => (
              <MethodRow
                page={props.page}
                area={area}
                record={record}
                mainLanguage={props.mainLanguage}
                taxClasses={props.taxClasses}
                writes={props.writes}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function MethodsListPage(props: {
  page: PageContext;
  shipping: readonly MethodRecord[];
  payments: readonly MethodRecord[];
  mainLanguage: string;
  taxClasses: readonly TaxClassOption[];
  writes: boolean;
  notice: Notice;
}) {
  const { t } = props.page;
  return (
    <Layout page={props.page} title={t.t('methods.title')}>
      <p>
        <a href="/admin/settings">{t.t('settings.title')}</a>
      </p>
      <h1>{t.t('methods.title')}</h1>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      <p class="hint">{t.t('methods.settingsHint')}</p>
      {props.writes ? null : <p>{t.t('methods.readOnly')}</p>}
      {(['shipping', 'payments'] as const).map((area) => (
        <MethodTable
          page={props.page}
          area={area}
          methods={area === 'shipping' ? props.shipping : props.payments}
          mainLanguage={props.mainLanguage}
          taxClasses={props.taxClasses}
          writes={props.writes}
        />
      ))}
    </Layout>
  );
}

/** A method's field: its id and label come from its name (`fieldId`, `fieldLabel`). */
function Field(props: {
  page: PageContext;
  name: string;
  problems: readonly FieldProblem[];
  hint?: string | undefined;
  control: (attributes: FieldAttributes) => Child;
}) {
  return (
    <FormField
      id={fieldId(props.name)}
      name={props.name}
      label={fieldLabel(props.page.t, props.name)}
      hint={props.hint}
      problems={problemTexts(props.problems, props.name)}
      control={props.control}
    />
  );
}

/** The add or edit form of a method: every field typed as text, problems pinned to their field. */
function MethodForm(props: {
  page: PageContext;
  shape: FormShape;
  entries: Entries;
  problems: readonly FieldProblem[];
  taxClasses: readonly TaxClassOption[];
  action: string;
  revision: number;
  /** A new method's id, made when the add form was first rendered. */
  id?: string | undefined;
  submit: string;
}) {
  const { page, shape, entries, problems } = props;
  const { t, csrf } = page;
  const text = (name: string, extra: { lang?: string; inputmode?: 'decimal' | 'numeric' } = {}) =>
    function control(attributes: Record<string, unknown>) {
      return (
        <input
          type="text"
          {...attributes}
          value={entries[name] ?? ''}
          lang={extra.lang}
          inputmode={extra.inputmode}
          spellcheck={extra.lang ? undefined : false}
        />
      );
    };
  const example = amountExample(t.locale, shape.currencies[0] ?? 'EUR');
  return (
    <form method="post" action={props.action} class="method-form" novalidate>
      <CsrfField token={csrf} />
      <input type="hidden" name="revision" value={String(props.revision)} />
      {props.id ? <input type="hidden" name="id" value={props.id} /> : null}
      <fieldset>
        <legend>{t.t('methods.texts')}</legend>
        {shape.languages.includes(t.locale) ? null : (
          <p class="hint">{t.t('methods.field.uiLanguageOff', { language: t.languageName(t.locale) })}</p>
        )}
        {shape.languages.map((language) => (
          <>
            <Field
              page={page}
              name={`name.${language}`}
              problems={problems}
              hint={language === shape.mainLanguage ? t.t('methods.field.mainHint') : undefined}
              control={text(`name.${language}`, { lang: language })}
            />
            <Field
              page={page}
              name={`description.${language}`}
              problems={problems}
              control={(attributes) => (
                <textarea {...attributes} rows={2} lang={language}>
                  {entries[`description.${language}`] ?? ''}
                </textarea>
              )}
            />
          </>
        ))}
      </fieldset>
      {shape.area === 'shipping' ? (
        <fieldset aria-describedby="prices-hint">
          <legend>{t.t('methods.field.prices')}</legend>
          <p class="hint" id="prices-hint">
            {t.t('methods.field.pricesHint', { example })}
          </p>
          {shape.currencies.map((currency) => (
            <div class="field-row">
              {(['gross', 'net'] as const).map((side) => (
                <Field
                  page={page}
                  name={`price.${currency}.${side}`}
                  problems={problems}
                  control={text(`price.${currency}.${side}`, { inputmode: 'decimal' })}
                />
              ))}
            </div>
          ))}
        </fieldset>
      ) : null}
      <div class="field field-row" data-field="active">
        <input
          type="checkbox"
          id={fieldId('active')}
          name="active"
          value="on"
          checked={entries.active === 'on'}
        />
        <label for={fieldId('active')}>{fieldLabel(t, 'active')}</label>
      </div>
      <Field
        page={page}
        name="position"
        problems={problems}
        hint={t.t('methods.field.positionHint')}
        control={text('position', { inputmode: 'numeric' })}
      />
      {shape.area === 'shipping' ? (
        <Field
          page={page}
          name="taxClassId"
          problems={problems}
          control={(attributes) => (
            <select {...attributes}>
              <option value="" selected={entries.taxClassId === ''}>
                {t.t('methods.field.taxClassNone')}
              </option>
              {props.taxClasses.map((taxClass) => (
                <option value={taxClass.id} selected={entries.taxClassId === taxClass.id}>
                  {taxClass.name}
                </option>
              ))}
            </select>
          )}
        />
      ) : (
        <Field
          page={page}
          name="handler"
          problems={problems}
          control={(attributes) => (
            <select {...attributes}>
              {HANDLERS.map((handler) => (
                <option value={handler} selected={entries.handler === handler}>
                  {handlerText(t, handler)}
                </option>
              ))}
            </select>
          )}
        />
      )}
      <Field
        page={page}
        name="appId"
        problems={problems}
        hint={t.t(
          shape.area === 'shipping' ? 'methods.field.appHint.shipping' : 'methods.field.appHint.payments',
        )}
        control={text('appId')}
      />
      <Field
        page={page}
        name="key"
        problems={problems}
        hint={t.t('methods.field.keyHint')}
        control={text('key')}
      />
      <button type="submit">{props.submit}</button>
    </form>
  );
}

/** The problems above the form, each a link to its field. */
function ProblemSummary({ page, problems }: { page: PageContext; problems: readonly FieldProblem[] }) {
  const { t } = page;
  if (problems.length === 0) return null;
  return (
    <Message kind="error">
      <p>{t.t('methods.error.summary', { count: problems.length })}</p>
      <ul>
        {problems.map((problem) =>
          problem.field ? (
            <li>
              <a href={`#${fieldId(problem.field)}`}>
                {fieldLabel(t, problem.field)}: {problem.text}
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

/** A stored method as text (what a reader sees). */
function MethodFacts({
  page,
  shape,
  record,
  taxClasses,
}: {
  page: PageContext;
  shape: FormShape;
  record: MethodRecord;
  taxClasses: readonly TaxClassOption[];
}) {
  const { t } = page;
  const empty = t.t('empty.text');
  return (
    <dl class="facts">
      {shape.languages.flatMap((language) => [
        <dt>{fieldLabel(t, `name.${language}`)}</dt>,
        <dd lang={language}>{record.translations[language]?.name || empty}</dd>,
        <dt>{fieldLabel(t, `description.${language}`)}</dt>,
        <dd lang={language}>{record.translations[language]?.description || empty}</dd>,
      ])}
      <dt>{t.t('methods.col.active')}</dt>
      <dd>{t.t(record.active ? 'methods.active.yes' : 'methods.active.no')}</dd>
      <dt>{t.t('methods.col.position')}</dt>
      <dd>{new Intl.NumberFormat(t.locale).format(record.position)}</dd>
      {shape.area === 'shipping' ? (
        <>
          <dt>{t.t('methods.col.prices')}</dt>
          <dd>
            {(record.prices ?? []).length === 0
              ? t.t('methods.noPrice')
              : (record.prices ?? [])
                  .map((price) =>
                    t.t('methods.price', {
                      gross: t.money(price.gross, price.currency),
                      net: t.money(price.net, price.currency),
                    }),
                  )
                  .join(' · ')}
          </dd>
          <dt>{t.t('methods.col.taxClass')}</dt>
          <dd>
            {record.taxClassId
              ? (taxClasses.find((item) => item.id === record.taxClassId)?.name ?? record.taxClassId)
              : t.t('methods.field.taxClassNone')}
          </dd>
        </>
      ) : (
        <>
          <dt>{t.t('methods.col.handler')}</dt>
          <dd>{handlerText(t, record.handler)}</dd>
        </>
      )}
      <dt>{t.t('methods.col.app')}</dt>
      <dd>{record.appId ?? empty}</dd>
      <dt>{t.t('methods.field.key')}</dt>
      <dd>{record.key ?? empty}</dd>
    </dl>
  );
}

export function NewMethodPage(props: {
  page: PageContext;
  shape: FormShape;
  entries: Entries;
  problems: readonly FieldProblem[];
  taxClasses: readonly TaxClassOption[];
  id: string;
}) {
  const { t } = props.page;
  const { area } = props.shape;
  const title = t.t(area === 'shipping' ? 'methods.new.shipping' : 'methods.new.payments');
  return (
    <Layout page={props.page} title={title}>
      <p>
        <a href={BASE}>{t.t('methods.back')}</a>
      </p>
      <h1>{title}</h1>
      <ProblemSummary page={props.page} problems={props.problems} />
      <MethodForm
        page={props.page}
        shape={props.shape}
        entries={props.entries}
        problems={props.problems}
        taxClasses={props.taxClasses}
        action={`${BASE}/${area}/new`}
        revision={0}
        id={props.id}
        submit={t.t('methods.create')}
      />
    </Layout>
  );
}

export function MethodPage(props: {
  page: PageContext;
  shape: FormShape;
  record: MethodRecord;
  entries: Entries;
  problems: readonly FieldProblem[];
  taxClasses: readonly TaxClassOption[];
  channels: readonly MethodChannel[];
  writes: boolean;
  notice: Notice;
}) {
  const { page, shape, record } = props;
  const { t } = page;
  const name = nameOf(record, t.locale, shape.mainLanguage).text;
  const path = methodPath(shape.area, record.id);
  return (
    <Layout page={page} title={name}>
      <p>
        <a href={BASE}>{t.t('methods.back')}</a>
      </p>
      <h1>
        <MethodName page={page} record={record} mainLanguage={shape.mainLanguage} />
      </h1>
      <p class="meta">
        {t.t(shape.area === 'shipping' ? 'methods.kind.shipping' : 'methods.kind.payments')} ·{' '}
        {t.t('methods.revision', { revision: record.revision, date: t.date(record.updatedAt) })}
      </p>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      <ProblemSummary page={page} problems={props.problems} />
      {props.writes ? (
        <MethodForm
          page={page}
          shape={shape}
          entries={props.entries}
          problems={props.problems}
          taxClasses={props.taxClasses}
          action={path}
          revision={record.revision}
          submit={t.t('methods.save')}
        />
      ) : (
        <>
          <p>{t.t('methods.readOnly')}</p>
          <MethodFacts page={page} shape={shape} record={record} taxClasses={props.taxClasses} />
        </>
      )}
      <section aria-labelledby="method-channels">
        <h2 id="method-channels">{t.t('methods.channels')}</h2>
        <p class="hint">{t.t('methods.channels.hint')}</p>
        <ul>
          {props.channels.map((channel) => (
            <li data-channel={channel.id}>
              <a href={`/admin/settings/channels/${channel.id}`}>{channel.key ?? channel.id}</a>
              {channel.isMain ? <span class="badge inherited">{t.t('methods.channel.main')}</span> : null}
              {': '}
              {t.t(channel.active ? 'methods.channel.offered' : 'methods.channel.notOffered')} (
              {t.t(
                channel.provenance === 'inherited'
                  ? 'methods.channel.inherited'
                  : 'methods.channel.overridden',
              )}
              )
            </li>
          ))}
        </ul>
      </section>
      {props.writes ? (
        <p>
          <a href={`${path}/remove`}>{t.t('methods.remove')}</a>
        </p>
      ) : null}
    </Layout>
  );
}

const REFERENCE_KINDS: readonly string[] = [
  'rule',
  'flow',
  'promotion',
  'channel',
  'product',
  'shipping_method',
  'order',
  'cart',
  'promotion_redemption',
];

function referenceHref(reference: MethodReference): string | null {
  switch (reference.kind) {
    case 'rule':
      return `/admin/rules/${reference.id}`;
    case 'flow':
      return `/admin/flows/${reference.id}`;
    case 'channel':
      return `/admin/settings/channels/${reference.id}`;
    case 'product':
      return `/admin/products/${reference.id}`;
    case 'order':
      return `/admin/orders/${reference.id}`;
    case 'shipping_method':
      return methodPath('shipping', reference.id);
    default:
      return null;
  }
}

export function RemoveMethodPage(props: {
  page: PageContext;
  area: MethodArea;
  record: MethodRecord;
  mainLanguage: string;
  references: readonly MethodReference[];
  writes: boolean;
  notice: Notice;
}) {
  const { page, area, record } = props;
  const { t, csrf } = page;
  const name = nameOf(record, t.locale, props.mainLanguage).text;
  const path = methodPath(area, record.id);
  return (
    <Layout page={page} title={t.t('methods.remove.title', { name })}>
      <p>
        <a href={path}>{name}</a>
      </p>
      <h1>{t.t('methods.remove.title', { name })}</h1>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      {props.references.length === 0 ? (
        <p>{t.t('methods.remove.free')}</p>
      ) : (
        <>
          <p>{t.t('methods.remove.blocked')}</p>
          <ul id="method-references">
            {props.references.map((reference) => {
              const ref = reference.key ?? reference.id;
              const label = REFERENCE_KINDS.includes(reference.kind)
                ? t.t(`methods.ref.${reference.kind}` as MessageKey, { ref })
                : `${reference.kind} ${ref}`;
              const href = referenceHref(reference);
              return <li>{href ? <a href={href}>{label}</a> : label}</li>;
            })}
          </ul>
        </>
      )}
      {props.writes && props.references.length === 0 ? (
        <form method="post" action={`${path}/remove`}>
          <CsrfField token={csrf} />
          <input type="hidden" name="revision" value={String(record.revision)} />
          <button type="submit">{t.t('methods.remove.confirm', { name })}</button>
        </form>
      ) : null}
    </Layout>
  );
}
