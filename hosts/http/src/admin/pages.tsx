/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import {
  ADDRESS_PARTS,
  BASIS_COMPANY_FIELDS,
  type BasisCompanyValue,
  basisCompanyText,
  COMPANY_GROUPS,
  type CompanyField,
  type CompanyKind,
  categoriesText,
  type DeliveryChoice,
  type Domain,
  domainsText,
  type FormEntry,
  type FormText,
  formatAmount,
  formatRate,
  MODES,
  OWN_SWITCHES,
  type OwnFields as OwnFieldsData,
  type OwnSwitch,
  type Provenance,
  pricesText,
  type RateField,
} from './channel-form.ts';
import { ConfirmedDelete } from './fields.tsx';
import type { MessageKey } from './i18n.ts';
import {
  ContentLanguageBar,
  CsrfField,
  Layout,
  Message,
  NoticeMessage,
  type PageContext,
} from './layout.tsx';

export function SignInPage({ page, error }: { page: PageContext; error?: string | undefined }) {
  const { t, session } = page;
  return (
    <Layout page={page} title={t.t('signIn.title')}>
      <h1>{session ? t.t('signIn.addShop') : t.t('signIn.title')}</h1>
      {error ? <Message kind="error">{t.t('signIn.failed', { detail: error })}</Message> : null}
      <div class="sign-in">
        <form method="post" action="/admin/sign-in" class="card" aria-labelledby="sign-in-token">
          <h2 id="sign-in-token">{t.t('signIn.tokenHeading')}</h2>
          <CsrfField token={page.csrf} />
          <div class="field">
            <label for="token">{t.t('signIn.tokenLabel')}</label>
            <input
              id="token"
              name="token"
              type="password"
              autocomplete="off"
              spellcheck={false}
              required
              aria-describedby="token-hint"
            />
            <p class="hint" id="token-hint">
              {t.t('signIn.tokenHint')}
            </p>
          </div>
          <button type="submit">{t.t('signIn.tokenSubmit')}</button>
        </form>
        {session ? null : (
          <form method="post" action="/admin/sign-in" class="card" aria-labelledby="sign-in-password">
            <h2 id="sign-in-password">{t.t('signIn.passwordHeading')}</h2>
            <CsrfField token={page.csrf} />
            <div class="field">
              <label for="email">{t.t('signIn.email')}</label>
              <input id="email" name="email" type="email" autocomplete="username" required />
            </div>
            <div class="field">
              <label for="password">{t.t('signIn.password')}</label>
              <input
                id="password"
                name="password"
                type="password"
                autocomplete="current-password"
                required
                aria-describedby="password-hint"
              />
              <p class="hint" id="password-hint">
                {t.t('signIn.passwordHint')}
              </p>
            </div>
            <button type="submit">{t.t('signIn.passwordSubmit')}</button>
          </form>
        )}
      </div>
    </Layout>
  );
}

export interface ChannelSummary {
  readonly id: string;
  readonly isMain: boolean;
  readonly name: string;
  readonly updatedAt: string;
}

export function HomePage({
  page,
  channels,
}: {
  page: PageContext;
  channels: readonly ChannelSummary[] | null;
}) {
  const { t } = page;
  return (
    <Layout page={page} title={t.t('home.title')}>
      <h1>{t.t('home.title')}</h1>
      {channels === null ? (
        <p>{t.t('home.nothing')}</p>
      ) : (
        <ul class="cards">
          <li class="card">
            <h2>
              <a href="/admin/settings">{t.t('nav.settings')}</a>
            </h2>
            <p>{t.t('home.settingsCard')}</p>
            <p class="meta">{t.t('home.channels', { count: channels.length })}</p>
          </li>
        </ul>
      )}
    </Layout>
  );
}

/** What the settings page's "new sales channel" form needs, and what a refused creation kept. */
export interface ChannelCreation {
  /** The shop's enabled languages a new channel may choose among. */
  readonly languages: readonly string[];
  readonly entered?: { name: string; mode: string; languages: readonly string[] } | undefined;
  readonly errors?: ReadonlyMap<string, string> | undefined;
}

export function SettingsPage({
  page,
  channels,
  create,
  notice,
}: {
  page: PageContext;
  channels: readonly ChannelSummary[];
  /** Present when the member may create channels (`settings.write`). */
  create?: ChannelCreation | undefined;
  notice?: { kind: 'ok' | 'error'; text: string } | undefined;
}) {
  const { t } = page;
  return (
    <Layout page={page} title={t.t('settings.title')}>
      <h1>{t.t('settings.title')}</h1>
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      <h2>{t.t('settings.channels')}</h2>
      <ul class="cards">
        {channels.map((channel) => (
          <li class="card">
            <h3>
              <a
                href={`/admin/settings/channels/${channel.id}`}
                aria-label={t.t('settings.open', { name: channel.name })}
              >
                {channel.name}
              </a>
              {channel.isMain ? <span class="badge inherited">{t.t('settings.main')}</span> : null}
            </h3>
            <p class="meta">{t.t('settings.updated', { date: t.date(channel.updatedAt) })}</p>
          </li>
        ))}
      </ul>
      <h2>
        <a href="/admin/settings/methods">{t.t('methods.settingsLink')}</a>
      </h2>
      <p class="hint">{t.t('methods.settingsHint')}</p>
      {create ? <CreateChannelForm page={page} create={create} /> : null}
    </Layout>
  );
}

/** A field's refusal, shown at the field (its id is the field's `aria-describedby`). */
function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text === undefined ? null : (
    <p class="field-error" id={id}>
      {text}
    </p>
  );
}

/** The id of a field's error text, when it has one (for `aria-describedby`). */
function errorIdOf(errors: ReadonlyMap<string, string> | undefined, key: string): string | undefined {
  return errors?.has(key) ? `e-${key.replace(/[^A-Za-z0-9-]/g, '-')}` : undefined;
}

function describedBy(...ids: (string | undefined)[]): string | undefined {
  const found = ids.filter((id) => id !== undefined);
  return found.length > 0 ? found.join(' ') : undefined;
}

/** The mode choice (storefront / headless), shared by the creation form and the channel form. */
function ModeField({ page, value, id }: { page: PageContext; value: string; id: string }) {
  const { t } = page;
  return (
    <div class="field" data-field="channel.mode">
      <label for={id}>{t.t('field.mode')}</label>
      <select id={id} name="choice:channel.mode">
        {MODES.map((mode) => (
          <option value={mode} selected={mode === value}>
            {t.t('mode.label', { mode })}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Checkboxes of the shop's enabled languages (a non-main channel chooses its own among them). */
function LanguageChoice({
  page,
  languages,
  chosen,
  errors,
}: {
  page: PageContext;
  languages: readonly string[];
  chosen: readonly string[];
  errors: ReadonlyMap<string, string> | undefined;
}) {
  const { t } = page;
  const errorId = errorIdOf(errors, 'channel.languages');
  return (
    <fieldset class="field" data-field="channel.languages" aria-describedby={errorId}>
      <legend>{t.t('field.languages')}</legend>
      {languages.map((code) => (
        <div class="field-row">
          <input
            type="checkbox"
            id={`f-language-${code}`}
            name={`language:${code}`}
            checked={chosen.includes(code)}
          />
          <label for={`f-language-${code}`}>
            {t.languageName(code)} ({code})
          </label>
        </div>
      ))}
      {errorId ? <FieldError id={errorId} text={errors?.get('channel.languages')} /> : null}
    </fieldset>
  );
}

function CreateChannelForm({ page, create }: { page: PageContext; create: ChannelCreation }) {
  const { t } = page;
  const nameError = errorIdOf(create.errors, 'channel.name');
  return (
    <section aria-labelledby="create-channel">
      <h2 id="create-channel">{t.t('settings.create')}</h2>
      <form method="post" action="/admin/settings/channels" class="card">
        <CsrfField token={page.csrf} />
        <div class="field" data-field="channel.name">
          <label for="new-channel-name">
            {t.t('field.channelName', { language: t.languageName(t.locale) })}
          </label>
          <input
            id="new-channel-name"
            type="text"
            name="text:channel.name"
            lang={t.locale}
            value={create.entered?.name ?? ''}
            maxlength={200}
            aria-invalid={nameError ? 'true' : undefined}
            aria-describedby={nameError}
          />
          {nameError ? <FieldError id={nameError} text={create.errors?.get('channel.name')} /> : null}
        </div>
        <ModeField page={page} value={create.entered?.mode ?? 'storefront'} id="new-channel-mode" />
        <LanguageChoice
          page={page}
          languages={create.languages}
          chosen={create.entered?.languages ?? create.languages.slice(0, 1)}
          errors={create.errors}
        />
        <button type="submit">{t.t('settings.createSubmit')}</button>
      </form>
    </section>
  );
}

const AREA_TITLE: Record<FormEntry['area'], MessageKey> = {
  shippingMethods: 'channel.shipping',
  paymentMethods: 'channel.payment',
  taxLabels: 'channel.taxLabels',
};

export function ProvenanceBadge({
  page,
  text,
}: {
  page: PageContext;
  text: { provenance: Provenance | undefined };
}) {
  const { t } = page;
  if (text.provenance === 'overridden')
    return <span class="badge overridden">{t.t('provenance.overridden')}</span>;
  if (text.provenance === 'removed') return <span class="badge removed">{t.t('provenance.removed')}</span>;
  if (text.provenance === 'inherited')
    return <span class="badge inherited">{t.t('provenance.inherited')}</span>;
  return null;
}

/** The hidden fields a channel's settings form and its reset form post: CSRF token, revision and basis revision. */
export function ChannelRevisionFields({
  page,
  revision,
  baseRevision,
}: {
  page: PageContext;
  revision: number;
  baseRevision: number;
}) {
  return (
    <>
      <CsrfField token={page.csrf} />
      <input type="hidden" name="revision" value={String(revision)} />
      <input type="hidden" name="baseRevision" value={String(baseRevision)} />
    </>
  );
}

/**
 * "Reset to inherited" for a field the channel overrides: a submit button of the separate reset
 * form (`form="reset-form"`), so Enter in a field of the settings form still saves (the implicit
 * submission takes the form's first own submit button). Works without script. With `name`
 * "remove" and its `text` it is the same form's button that removes an entry (the tax page).
 */
export function ResetButton({
  page,
  field,
  label,
  name = 'reset',
  text = page.t.t('action.reset'),
}: {
  page: PageContext;
  field: string;
  label: string;
  name?: 'reset' | 'remove';
  text?: string;
}) {
  return (
    <button
      type="submit"
      form="reset-form"
      class="secondary"
      name={name}
      value={field}
      aria-label={`${text}: ${label}`}
    >
      {text}
    </button>
  );
}

function ActiveField({ page, entry, editable }: { page: PageContext; entry: FormEntry; editable: boolean }) {
  const active = entry.active;
  if (!active) return null;
  const label = page.t.t('field.active', { method: entry.title });
  const id = `f-${active.key.replaceAll('.', '-')}`;
  if (!editable) {
    return (
      <p data-field={active.key}>
        {page.t.t(active.value ? 'field.active' : 'field.inactive', { method: entry.title })}
        <ProvenanceBadge page={page} text={active} />
      </p>
    );
  }
  return (
    <div class="field field-row" data-field={active.key}>
      <input type="checkbox" id={id} name={`on:${active.key}`} checked={active.value} disabled={!editable} />
      <label for={id}>
        {label}
        <ProvenanceBadge page={page} text={active} />
      </label>
      {editable ? <input type="hidden" name={`was:${active.key}`} value={String(active.value)} /> : null}
      {editable && (active.provenance === 'overridden' || active.provenance === 'removed') ? (
        <ResetButton page={page} field={active.key} label={label} />
      ) : null}
    </div>
  );
}

/** Marks a text shown in the main language because the content language lacks it. */
function FallbackBadge({ page, mainLanguage }: { page: PageContext; mainLanguage: string }) {
  return (
    <span class="badge fallback">
      {page.t.t('provenance.fallback', { language: page.t.languageName(mainLanguage) })}
    </span>
  );
}

/** A country's subdivisions in the content language, each one the language lacks marked as a fallback. */
function Subdivisions({
  page,
  country,
  language,
  mainLanguage,
}: {
  page: PageContext;
  country: DeliveryChoice['countries'][number];
  language: string;
  mainLanguage: string;
}) {
  if (country.subdivisions.length === 0) return null;
  return (
    <details>
      <summary>{page.t.t('delivery.subdivisions', { count: country.subdivisions.length })}</summary>
      <ul class="subdivisions">
        {country.subdivisions.map((subdivision) => (
          <li data-subdivision={subdivision.code}>
            <span lang={subdivision.translated ? language : mainLanguage}>{subdivision.name}</span>
            {subdivision.translated ? null : <FallbackBadge page={page} mainLanguage={mainLanguage} />}
          </li>
        ))}
      </ul>
    </details>
  );
}

function DeliveryFields({
  page,
  delivery,
  language,
  mainLanguage,
  editable,
}: {
  page: PageContext;
  delivery: DeliveryChoice;
  language: string;
  mainLanguage: string;
  editable: boolean;
}) {
  const { t } = page;
  return (
    <section aria-labelledby="area-delivery">
      <h2 id="area-delivery">
        {t.t('channel.delivery')}
        <ProvenanceBadge page={page} text={delivery} />
      </h2>
      <fieldset class="card" data-field={delivery.key}>
        <legend>{t.t('channel.delivery')}</legend>
        {delivery.all ? <p class="meta">{t.t('delivery.all')}</p> : null}
        {(editable ? delivery.countries : delivery.countries.filter((country) => country.chosen)).map(
          (country) =>
            editable ? (
              <div class="field">
                <div class="field-row">
                  <input
                    type="checkbox"
                    id={`f-country-${country.code}`}
                    name={`country:${country.code}`}
                    checked={country.chosen}
                    disabled={!editable}
                  />
                  <label
                    for={`f-country-${country.code}`}
                    lang={country.translated ? language : mainLanguage}
                  >
                    {country.name} ({country.code})
                  </label>
                  {country.translated ? null : <FallbackBadge page={page} mainLanguage={mainLanguage} />}
                </div>
                <Subdivisions page={page} country={country} language={language} mainLanguage={mainLanguage} />
              </div>
            ) : (
              <div>
                <p lang={country.translated ? language : mainLanguage}>
                  {country.name} ({country.code})
                  {country.translated ? null : <FallbackBadge page={page} mainLanguage={mainLanguage} />}
                </p>
                <Subdivisions page={page} country={country} language={language} mainLanguage={mainLanguage} />
              </div>
            ),
        )}
        {editable ? (
          <input
            type="hidden"
            name={`was:${delivery.key}`}
            value={delivery.countries
              .filter((country) => country.chosen)
              .map((country) => country.code)
              .join(',')}
          />
        ) : null}
        {editable && delivery.provenance === 'overridden' ? (
          <ResetButton page={page} field={delivery.key} label={t.t('channel.delivery')} />
        ) : null}
      </fieldset>
    </section>
  );
}

function TextField({
  page,
  entry,
  text,
  language,
  mainLanguage,
  editable,
  entered,
  was,
}: {
  page: PageContext;
  entry: FormEntry;
  text: FormText;
  language: string;
  mainLanguage: string;
  editable: boolean;
  entered: string | undefined;
  was: string | undefined;
}) {
  const { t } = page;
  const id = `f-${text.key.replaceAll('.', '-')}`;
  const label =
    text.field === 'description'
      ? t.t('field.descriptionOf', { method: entry.title })
      : text.field === 'label'
        ? t.t('field.labelOf', { label: entry.title })
        : t.t('field.nameOf', { method: entry.title });
  const hintId = `${id}-hint`;
  const fallback =
    !text.present && text.fallback !== null ? (
      <p class="hint" id={hintId}>
        <span class="badge fallback">
          {t.t('provenance.fallback', { language: t.languageName(mainLanguage) })}
        </span>{' '}
        <span lang={mainLanguage}>“{text.fallback}”</span>
      </p>
    ) : null;
  if (!editable) {
    return (
      <div class="field" data-field={text.key}>
        <p>
          <strong>{label}</strong>
          <ProvenanceBadge page={page} text={text} />
        </p>
        {text.present ? <p lang={language}>{text.value === '' ? t.t('empty.text') : text.value}</p> : null}
        {fallback}
      </div>
    );
  }
  const value = entered ?? text.value;
  const Input = text.field === 'description' ? 'textarea' : 'input';
  return (
    <div class="field" data-field={text.key}>
      <label for={id}>
        {label}
        <ProvenanceBadge page={page} text={text} />
      </label>
      <div class="field-row">
        {Input === 'textarea' ? (
          <textarea
            id={id}
            name={`text:${text.key}`}
            rows={2}
            lang={language}
            placeholder={text.present ? undefined : (text.fallback ?? undefined)}
            aria-describedby={fallback ? hintId : undefined}
          >
            {value}
          </textarea>
        ) : (
          <input
            id={id}
            type="text"
            name={`text:${text.key}`}
            value={value}
            lang={language}
            placeholder={text.present ? undefined : (text.fallback ?? undefined)}
            aria-describedby={fallback ? hintId : undefined}
          />
        )}
        <input type="hidden" name={`was:${text.key}`} value={was ?? text.value} />
        {text.provenance === 'overridden' || text.provenance === 'removed' ? (
          <ResetButton page={page} field={text.key} label={label} />
        ) : null}
      </div>
      {fallback}
    </div>
  );
}

/** What a refused save kept of the channel's own fields (as `renderedValues` writes them). */
function enteredDomains(entered: ReadonlyMap<string, string> | undefined): Domain[] | undefined {
  const text = entered?.get('channel.domains');
  if (text === undefined) return undefined;
  return (JSON.parse(text) as [string, string, string][]).map(([url, language, currency]) => ({
    url,
    language,
    currency,
  }));
}

/**
 * The channel's own fields (not inherited, so no provenance): its name in the UI language, mode,
 * paused and private, languages (the main channel's are the shop's, read only) and domains (rows
 * of URL, language and currency: a blank row adds one, "remove" drops one).
 */
function OwnFields({
  page,
  own,
  fields,
  isMain,
  currencies,
  editable,
  entered,
  errors,
}: {
  page: PageContext;
  own: Record<OwnSwitch, boolean>;
  fields: OwnFieldsData;
  isMain: boolean;
  currencies: readonly string[];
  editable: boolean;
  entered: ReadonlyMap<string, string> | undefined;
  errors: ReadonlyMap<string, string> | undefined;
}) {
  const { t } = page;
  const label = (name: OwnSwitch) => t.t(name === 'paused' ? 'field.paused' : 'field.private');
  const nameLabel = t.t('field.channelName', { language: t.languageName(t.locale) });
  const languageNames = fields.languages.map((code) => t.languageName(code)).join(', ');
  if (!editable) {
    return (
      <section aria-labelledby="area-own">
        <h2 id="area-own">{t.t('channel.own')}</h2>
        <div class="card">
          <p data-field="channel.name">
            {nameLabel}: <span lang={t.locale}>{fields.name === '' ? t.t('empty.text') : fields.name}</span>
          </p>
          <p data-field="channel.mode">
            {t.t('field.mode')}: {t.t('mode.label', { mode: fields.mode })}
          </p>
          {OWN_SWITCHES.map((name) => (
            <p data-field={`channel.${name}`}>
              {label(name)}: {t.t(own[name] ? 'value.yes' : 'value.no')}
            </p>
          ))}
          <p data-field="channel.languages">
            {t.t(isMain ? 'field.languagesMain' : 'field.languagesOf', { languages: languageNames })}
          </p>
          <p>{t.t('field.domains')}</p>
          {fields.domains.length === 0 ? (
            <p class="meta">{t.t('domain.none')}</p>
          ) : (
            <ul data-field="channel.domains">
              {fields.domains.map((domain) => (
                <li>
                  {domain.url} ({t.languageName(domain.language)}, {domain.currency})
                </li>
              ))}
            </ul>
          )}
          <CatalogFields page={page} fields={fields} editable={false} />
        </div>
      </section>
    );
  }
  const nameError = errorIdOf(errors, 'channel.name');
  const enteredLanguages = entered?.get('channel.languages');
  const rows = enteredDomains(entered) ?? fields.domains;
  const domainLanguages = [...new Set([...fields.shopLanguages, ...rows.map((row) => row.language)])];
  const domainCurrencies = [...new Set([...currencies, ...rows.map((row) => row.currency)])].filter(
    (code) => code !== '',
  );
  const domainsError = errorIdOf(errors, 'channel.domains');
  return (
    <section aria-labelledby="area-own">
      <h2 id="area-own">{t.t('channel.own')}</h2>
      <fieldset class="card">
        <legend>{t.t('channel.own')}</legend>
        <div class="field" data-field="channel.name">
          <label for="f-channel-name">{nameLabel}</label>
          <input
            id="f-channel-name"
            type="text"
            name="text:channel.name"
            lang={t.locale}
            maxlength={200}
            value={entered?.get('channel.name') ?? fields.name}
            aria-invalid={nameError ? 'true' : undefined}
            aria-describedby={nameError}
          />
          <input type="hidden" name="was:channel.name" value={fields.name} />
          {nameError ? <FieldError id={nameError} text={errors?.get('channel.name')} /> : null}
        </div>
        <ModeField page={page} value={entered?.get('channel.mode') ?? fields.mode} id="f-channel-mode" />
        <input type="hidden" name="was:channel.mode" value={fields.mode} />
        {OWN_SWITCHES.map((name) => (
          <div class="field field-row" data-field={`channel.${name}`}>
            <input type="checkbox" id={`f-channel-${name}`} name={`on:channel.${name}`} checked={own[name]} />
            <label for={`f-channel-${name}`}>{label(name)}</label>
            <input type="hidden" name={`was:channel.${name}`} value={String(own[name])} />
          </div>
        ))}
        {isMain ? (
          <p data-field="channel.languages">{t.t('field.languagesMain', { languages: languageNames })}</p>
        ) : (
          <>
            <LanguageChoice
              page={page}
              languages={fields.shopLanguages}
              chosen={enteredLanguages === undefined ? fields.languages : enteredLanguages.split(',')}
              errors={errors}
            />
            <input type="hidden" name="was:channel.languages" value={fields.languages.join(',')} />
          </>
        )}
        <fieldset class="field" data-field="channel.domains" aria-describedby={domainsError}>
          <legend>{t.t('field.domains')}</legend>
          {domainsError ? <FieldError id={domainsError} text={errors?.get('channel.domains')} /> : null}
          {[...rows, { url: '', language: '', currency: '' }].map((row, index) => {
            const isNew = index === rows.length;
            const id = (part: string) => `f-domain-${index}-${part}`;
            const fieldError = (part: string) => errorIdOf(errors, `domain:${index}.${part}`);
            // The row's language or currency: a select of `options` ([value, text]), its error pinned.
            const select = (part: 'language' | 'currency', label: string, options: [string, string][]) => (
              <div>
                <label for={id(part)}>{label}</label>
                <select
                  id={id(part)}
                  name={`domain:${index}.${part}`}
                  aria-invalid={fieldError(part) ? 'true' : undefined}
                  aria-describedby={fieldError(part)}
                >
                  {options.map(([value, text]) => (
                    <option value={value} selected={value === row[part]}>
                      {text}
                    </option>
                  ))}
                </select>
              </div>
            );
            return (
              <fieldset class="domain-row" data-domain={isNew ? 'new' : String(index)}>
                <legend>{isNew ? t.t('domain.new') : t.t('domain.row', { number: index + 1 })}</legend>
                {isNew ? (
                  <p class="hint" id={`f-domain-new-hint`}>
                    {t.t('domain.newHint')}
                  </p>
                ) : null}
                <div class="field-row">
                  <div>
                    <label for={id('url')}>{t.t('domain.url')}</label>
                    <input
                      id={id('url')}
                      type="url"
                      name={`domain:${index}.url`}
                      value={row.url}
                      maxlength={2000}
                      placeholder="https://shop.example"
                      aria-invalid={fieldError('url') ? 'true' : undefined}
                      aria-describedby={describedBy(
                        isNew ? 'f-domain-new-hint' : undefined,
                        fieldError('url'),
                      )}
                    />
                  </div>
                  {select(
                    'language',
                    t.t('domain.language'),
                    domainLanguages.map((code) => [code, `${t.languageName(code)} (${code})`]),
                  )}
                  {select(
                    'currency',
                    t.t('domain.currency'),
                    domainCurrencies.map((code) => [code, code]),
                  )}
                  {isNew ? null : (
                    <div class="field-row">
                      <input type="checkbox" id={id('remove')} name={`domain:${index}.remove`} />
                      <label for={id('remove')}>{t.t('domain.remove')}</label>
                    </div>
                  )}
                </div>
                {(['url', 'language', 'currency'] as const).map((part) => {
                  const errorId = fieldError(part);
                  return errorId ? (
                    <FieldError id={errorId} text={errors?.get(`domain:${index}.${part}`)} />
                  ) : null;
                })}
              </fieldset>
            );
          })}
          <input type="hidden" name="was:channel.domains" value={domainsText(fields.domains)} />
        </fieldset>
        <CatalogFields page={page} fields={fields} editable entered={entered} errors={errors} />
      </fieldset>
    </section>
  );
}

/**
 * The channel's catalog (the categories it sells; none ticked: the whole catalog) and the category
 * its navigation starts at, from the shop's category tree in the UI language.
 */
function CatalogFields({
  page,
  fields,
  editable,
  entered,
  errors,
}: {
  page: PageContext;
  fields: OwnFieldsData;
  editable: boolean;
  entered?: ReadonlyMap<string, string> | undefined;
  errors?: ReadonlyMap<string, string> | undefined;
}) {
  const { t } = page;
  const nameOf = (id: string) => fields.categories.find((category) => category.id === id)?.name ?? id;
  if (!editable) {
    return (
      <>
        <p data-field="channel.catalog">
          {t.t('field.catalog')}:{' '}
          {fields.categoryIds.length === 0 ? t.t('catalog.whole') : fields.categoryIds.map(nameOf).join(', ')}
        </p>
        <p data-field="channel.navigation">
          {t.t('field.navigation')}:{' '}
          {fields.navigationRoot === null ? t.t('navigation.none') : nameOf(fields.navigationRoot)}
        </p>
      </>
    );
  }
  const chosen = new Set(entered?.get('channel.catalog')?.split(',') ?? fields.categoryIds);
  const root = entered?.get('channel.navigation') ?? fields.navigationRoot ?? '';
  const catalogError = errorIdOf(errors, 'channel.catalog');
  const navigationError = errorIdOf(errors, 'channel.navigation');
  return (
    <>
      <fieldset
        class="field"
        data-field="channel.catalog"
        aria-describedby={describedBy('f-catalog-hint', catalogError)}
      >
        <legend>{t.t('field.catalog')}</legend>
        <p class="hint" id="f-catalog-hint">
          {t.t(fields.categories.length === 0 ? 'catalog.noCategories' : 'catalog.hint')}
        </p>
        {catalogError ? <FieldError id={catalogError} text={errors?.get('channel.catalog')} /> : null}
        {fields.categories.length === 0 ? null : (
          <ul class="choices">
            {fields.categories.map((category) => (
              <li class={`depth-${Math.min(category.depth, 4)}`}>
                <input
                  type="checkbox"
                  id={`f-category-${category.id}`}
                  name={`category:${category.id}`}
                  checked={chosen.has(category.id)}
                />
                <label for={`f-category-${category.id}`}>{category.name}</label>
              </li>
            ))}
          </ul>
        )}
        <input type="hidden" name="was:channel.catalog" value={categoriesText(fields.categoryIds)} />
      </fieldset>
      <div class="field" data-field="channel.navigation">
        <label for="f-channel-navigation">{t.t('field.navigation')}</label>
        <select
          id="f-channel-navigation"
          name="choice:channel.navigation"
          aria-invalid={navigationError ? 'true' : undefined}
          aria-describedby={navigationError}
        >
          <option value="">{t.t('navigation.none')}</option>
          {fields.categories.map((category) => (
            <option value={category.id} selected={category.id === root}>
              {`${'– '.repeat(Math.min(category.depth, 4))}${category.name}`}
            </option>
          ))}
        </select>
        <input type="hidden" name="was:channel.navigation" value={fields.navigationRoot ?? ''} />
        {navigationError ? (
          <FieldError id={navigationError} text={errors?.get('channel.navigation')} />
        ) : null}
      </div>
    </>
  );
}

/** A company field's label: the field's name (its last key). */
function companyLabel(page: PageContext, key: string): string {
  return page.t.t('company.field', { field: key.split('.').at(-1)! });
}

/** The input of one company value, fitted to its type (a list one entry per line, long text a textarea). */
function CompanyInput({
  id,
  name,
  kind,
  value,
  describedby,
  invalid,
  placeholder,
}: {
  id: string;
  name: string;
  kind: CompanyKind;
  value: string;
  describedby: string | undefined;
  invalid: boolean;
  placeholder?: string | undefined;
}) {
  const common = {
    id,
    name,
    'aria-describedby': describedby,
    'aria-invalid': invalid ? 'true' : undefined,
    placeholder,
  };
  if (kind === 'long' || kind === 'list') {
    return (
      <textarea {...common} rows={kind === 'list' ? 3 : 4}>
        {value}
      </textarea>
    );
  }
  const type = kind === 'email' ? 'email' : kind === 'tel' ? 'tel' : 'text';
  return (
    <input
      {...common}
      type={type}
      inputmode={kind === 'url' ? 'url' : undefined}
      autocomplete="off"
      value={value}
    />
  );
}

/** A company value as a reader sees it. */
function companyShown(page: PageContext, field: CompanyField): string {
  if (field.kind === 'address') {
    const parts = ADDRESS_PARTS.map((part) => field.parts[part]).filter((part) => part !== '');
    return parts.length === 0 ? page.t.t('company.notSet') : parts.join(', ');
  }
  return field.text === '' ? page.t.t('company.notSet') : field.text.split('\n').join(', ');
}

/**
 * The channel's company identity, field by field: each shows the effective value with its
 * provenance and, when overridden, "Reset to inherited"; only changed fields are written (`was:`).
 */
function CompanyOverrides({
  page,
  fields,
  editable,
  entered,
  errors,
}: {
  page: PageContext;
  fields: readonly CompanyField[];
  editable: boolean;
  entered: ReadonlyMap<string, string> | undefined;
  errors: ReadonlyMap<string, string> | undefined;
}) {
  const { t } = page;
  return (
    <section aria-labelledby="area-company">
      <h2 id="area-company">{t.t('channel.company')}</h2>
      <p class="hint">{t.t('company.overridesHint')}</p>
      {COMPANY_GROUPS.map((group) => (
        <fieldset class="card" data-entry={`company.${group}`}>
          <legend>{t.t('company.group', { group })}</legend>
          {fields
            .filter((field) => field.group === group)
            .map((field) => {
              const label = companyLabel(page, field.key);
              const id = `f-${field.key.replaceAll('.', '-')}`;
              const errorId = errorIdOf(errors, field.key);
              if (!editable) {
                return (
                  <p data-field={field.key}>
                    {label}: {companyShown(page, field)}
                    <ProvenanceBadge page={page} text={field} />
                  </p>
                );
              }
              const reset =
                field.provenance === 'overridden' || field.provenance === 'removed' ? (
                  <ResetButton page={page} field={field.key} label={label} />
                ) : null;
              const was = <input type="hidden" name={`was:${field.key}`} value={field.text} />;
              if (field.kind === 'address') {
                const kept = entered?.get(field.key);
                const parts = kept === undefined ? field.parts : (JSON.parse(kept) as string[]);
                return (
                  <fieldset class="field" data-field={field.key} aria-describedby={errorId}>
                    <legend>
                      {label}
                      <ProvenanceBadge page={page} text={field} />
                    </legend>
                    <div class="field-row">
                      {ADDRESS_PARTS.map((part, index) => (
                        <div>
                          <label for={`${id}-${part}`}>{companyLabel(page, part)}</label>
                          <input
                            id={`${id}-${part}`}
                            type="text"
                            name={`company:${field.key}.${part}`}
                            value={Array.isArray(parts) ? (parts[index] ?? '') : parts[part]}
                            maxlength={part === 'country' ? 2 : 200}
                          />
                        </div>
                      ))}
                      {was}
                      {reset}
                    </div>
                    {errorId ? <FieldError id={errorId} text={errors?.get(field.key)} /> : null}
                  </fieldset>
                );
              }
              const hintId = field.kind === 'list' ? `${id}-hint` : undefined;
              return (
                <div class="field" data-field={field.key}>
                  <label for={id}>
                    {label}
                    <ProvenanceBadge page={page} text={field} />
                  </label>
                  <div class="field-row">
                    <CompanyInput
                      id={id}
                      name={`company:${field.key}`}
                      kind={field.kind}
                      value={entered?.get(field.key) ?? field.text}
                      describedby={describedBy(hintId, errorId)}
                      invalid={errorId !== undefined}
                    />
                    {was}
                    {reset}
                  </div>
                  {hintId ? (
                    <p class="hint" id={hintId}>
                      {t.t('company.listHint')}
                    </p>
                  ) : null}
                  {errorId ? <FieldError id={errorId} text={errors?.get(field.key)} /> : null}
                </div>
              );
            })}
        </fieldset>
      ))}
    </section>
  );
}

/** The shop's company identity (`company.get`), the basis every channel inherits; edited on the main channel. */
export interface CompanyBasis {
  readonly data: Readonly<Record<string, BasisCompanyValue>> | null;
  readonly revision: number;
  readonly editable: boolean;
  readonly entered?: ReadonlyMap<string, string> | undefined;
  readonly errors?: ReadonlyMap<string, string> | undefined;
  readonly notice?: { kind: 'ok' | 'error' | 'warning'; text: string } | undefined;
}

/** The main channel's company section: the shop's identity, saved on its own through `company.save`. */
function CompanyBasisForm({
  page,
  channelId,
  company,
}: {
  page: PageContext;
  channelId: string;
  company: CompanyBasis;
}) {
  const { t } = page;
  const fields = BASIS_COMPANY_FIELDS.map((field) => {
    const errorId = errorIdOf(company.errors, `basis.${field.name}`);
    const id = `f-basis-${field.name}`;
    const stored = basisCompanyText(company.data?.[field.name]);
    const label = companyLabel(page, field.name);
    if (!company.editable) {
      return (
        <p data-field={`basis.${field.name}`}>
          {label}: {stored === '' ? t.t('company.notSet') : stored}
        </p>
      );
    }
    return (
      <div class="field" data-field={`basis.${field.name}`}>
        <label for={id}>{label}</label>
        <CompanyInput
          id={id}
          name={`basis:${field.name}`}
          kind={field.kind}
          value={company.entered?.get(`basis.${field.name}`) ?? stored}
          describedby={errorId}
          invalid={errorId !== undefined}
        />
        <input type="hidden" name={`was:basis.${field.name}`} value={stored} />
        {errorId ? <FieldError id={errorId} text={company.errors?.get(`basis.${field.name}`)} /> : null}
      </div>
    );
  });
  return (
    <section aria-labelledby="area-company">
      <h2 id="area-company">{t.t('channel.company')}</h2>
      {company.notice ? <Message kind={company.notice.kind}>{company.notice.text}</Message> : null}
      <p class="hint">{t.t('company.basisHint')}</p>
      {company.editable ? (
        <form method="post" action={`/admin/settings/channels/${channelId}/company`} class="card">
          <CsrfField token={page.csrf} />
          <input type="hidden" name="companyRevision" value={String(company.revision)} />
          {fields}
          <button type="submit">{t.t('company.save')}</button>
        </form>
      ) : (
        <div class="card">{fields}</div>
      )}
    </section>
  );
}

/** Deleting a non-main channel: a confirmation box, then `merchant.commerce.delete` at its revision. */
function DeleteChannelForm({
  page,
  channelId,
  name,
  revision,
}: {
  page: PageContext;
  channelId: string;
  name: string;
  revision: number;
}) {
  const { t } = page;
  return (
    <ConfirmedDelete
      id="area-delete"
      heading={t.t('channel.delete')}
      action={`/admin/settings/channels/${channelId}/delete`}
      csrf={page.csrf}
      revision={revision}
      hint={t.t('channel.deleteHint')}
      confirm={t.t('channel.deleteConfirm', { name })}
    />
  );
}

/** A shipping method's prices in the channel: gross and net per currency, typed as the UI language writes amounts. */
function PriceFields({
  page,
  entry,
  editable,
  entered,
}: {
  page: PageContext;
  entry: FormEntry;
  editable: boolean;
  entered: ReadonlyMap<string, string> | undefined;
}) {
  const field = entry.priceField;
  if (!field || !editable || entry.prices.length === 0) return null;
  const { t } = page;
  const label = t.t('field.pricesOf', { method: entry.title });
  return (
    <fieldset class="field" data-field={field.key}>
      <legend>
        {label}
        <ProvenanceBadge page={page} text={field} />
      </legend>
      <div class="field-row">
        {entry.prices.flatMap((price) =>
          (['gross', 'net'] as const).map((kind) => {
            const name = `amount:${field.key}.${price.currency}.${kind}`;
            const id = `f-${field.key.replaceAll('.', '-')}-${price.currency}-${kind}`;
            return (
              <div>
                <label for={id}>
                  {t.t(kind === 'gross' ? 'field.gross' : 'field.net', { currency: price.currency })}
                </label>
                <input
                  id={id}
                  type="text"
                  inputmode="decimal"
                  name={name}
                  value={entered?.get(name) ?? formatAmount(price[kind], t.locale, price.currency)}
                />
              </div>
            );
          }),
        )}
      </div>
      <input type="hidden" name={`was:${field.key}`} value={pricesText(entry.prices)} />
      {field.provenance === 'overridden' ? <ResetButton page={page} field={field.key} label={label} /> : null}
    </fieldset>
  );
}

/** The channel's tax rates per tax class: all countries (`default`) or one country, in percent. */
function RateFields({
  page,
  rates,
  countries,
  editable,
  entered,
}: {
  page: PageContext;
  rates: readonly RateField[];
  countries: DeliveryChoice['countries'];
  editable: boolean;
  entered: ReadonlyMap<string, string> | undefined;
}) {
  if (rates.length === 0) return null;
  const { t } = page;
  const placeOf = (place: string) =>
    place === 'default'
      ? t.t('place.all')
      : (countries.find((country) => country.code === place)?.name ?? place);
  const classes = [...new Set(rates.map((rate) => rate.classId))];
  return (
    <section aria-labelledby="area-taxRates">
      <h2 id="area-taxRates">{t.t('channel.taxRates')}</h2>
      {classes.map((classId) => {
        const ofClass = rates.filter((rate) => rate.classId === classId);
        return (
          <fieldset class="card" data-entry={classId}>
            <legend>{ofClass[0]!.title}</legend>
            {ofClass.map((rate) => {
              const label = t.t('field.rateOf', { taxClass: rate.title, place: placeOf(rate.place) });
              const id = `f-${rate.key.replaceAll('.', '-')}`;
              const shown = rate.value === null ? '' : formatRate(rate.value, t.locale);
              return editable ? (
                <div class="field" data-field={rate.key}>
                  <label for={id}>
                    {label}
                    <ProvenanceBadge page={page} text={rate} />
                  </label>
                  <div class="field-row">
                    <input
                      id={id}
                      type="text"
                      inputmode="decimal"
                      name={`rate:${rate.key}`}
                      value={entered?.get(`rate:${rate.key}`) ?? shown}
                    />
                    <input type="hidden" name={`was:${rate.key}`} value={String(rate.value)} />
                    {rate.provenance === 'overridden' || rate.provenance === 'removed' ? (
                      <ResetButton page={page} field={rate.key} label={label} />
                    ) : null}
                  </div>
                </div>
              ) : (
                <p data-field={rate.key}>
                  {label}: {rate.value === null ? t.t('empty.text') : `${shown} %`}
                  <ProvenanceBadge page={page} text={rate} />
                </p>
              );
            })}
          </fieldset>
        );
      })}
    </section>
  );
}

export interface ChannelPageProps {
  readonly page: PageContext;
  readonly channelId: string;
  readonly name: string;
  readonly language: string;
  readonly mainLanguage: string;
  readonly languages: readonly string[];
  readonly revision: number;
  readonly baseRevision: number;
  readonly entries: readonly FormEntry[];
  readonly delivery: DeliveryChoice;
  readonly own: Record<OwnSwitch, boolean>;
  readonly isMain: boolean;
  /** The channel's own fields (name, mode, languages, domains). */
  readonly fields: OwnFieldsData;
  /** The shop's active currencies (a domain's currency). */
  readonly currencies: readonly string[];
  /** Non-main channels: the company identity as the channel overrides it, field by field. */
  readonly company: readonly CompanyField[];
  /** The main channel: the shop's company identity (`company.get`), edited on its own form. */
  readonly companyBasis?: CompanyBasis | undefined;
  /** Field refusals of a save (field key → message), shown at the field. */
  readonly errors?: ReadonlyMap<string, string> | undefined;
  readonly rates: readonly RateField[];
  readonly editable: boolean;
  /** After a save: the message to show. */
  readonly notice?: { kind: 'ok' | 'error' | 'warning'; text: string; items?: readonly string[] } | undefined;
  /** A refused or stale save: what the person entered, kept in the fields. */
  readonly entered?: ReadonlyMap<string, string> | undefined;
}

export function ChannelPage(props: ChannelPageProps) {
  const { page, entries, language, editable } = props;
  const { t } = page;
  const areas = ['shippingMethods', 'paymentMethods', 'taxLabels'] as const;
  const sections = areas.map((area) => {
    const ofArea = entries.filter((entry) => entry.area === area);
    if (ofArea.length === 0) return null;
    return (
      <section aria-labelledby={`area-${area}`}>
        <h2 id={`area-${area}`}>{t.t(AREA_TITLE[area])}</h2>
        {ofArea.map((entry) => (
          <fieldset class="card" data-entry={entry.id}>
            <legend>
              {entry.title}
              {entry.provenance === 'removed' ? (
                <span class="badge removed">{t.t('provenance.removed')}</span>
              ) : null}
            </legend>
            {entry.prices.length > 0 ? (
              <p class="meta">
                {t.t('field.price', {
                  count: entry.prices.length,
                  prices: entry.prices.map((price) => t.money(price.gross, price.currency)).join(', '),
                })}
              </p>
            ) : null}
            {entry.provenance === 'removed' ? null : (
              <PriceFields page={page} entry={entry} editable={editable} entered={props.entered} />
            )}
            {entry.provenance === 'removed' ? null : (
              <ActiveField page={page} entry={entry} editable={editable} />
            )}
            {entry.provenance === 'removed'
              ? null
              : entry.texts.map((text) => (
                  <TextField
                    page={page}
                    entry={entry}
                    text={text}
                    language={language}
                    mainLanguage={props.mainLanguage}
                    editable={editable}
                    entered={props.entered?.get(text.key)}
                    was={undefined}
                  />
                ))}
          </fieldset>
        ))}
      </section>
    );
  });
  const body = (
    <>
      <OwnFields
        page={page}
        own={props.own}
        fields={props.fields}
        isMain={props.isMain}
        currencies={props.currencies}
        editable={editable}
        entered={props.entered}
        errors={props.errors}
      />
      {props.isMain ? null : (
        <CompanyOverrides
          page={page}
          fields={props.company}
          editable={editable}
          entered={props.entered}
          errors={props.errors}
        />
      )}
      {sections}
      <RateFields
        page={page}
        rates={props.rates}
        countries={props.delivery.countries}
        editable={editable}
        entered={props.entered}
      />
      <DeliveryFields
        page={page}
        delivery={props.delivery}
        language={language}
        mainLanguage={props.mainLanguage}
        editable={editable}
      />
    </>
  );
  return (
    <Layout page={page} title={t.t('channel.title', { name: props.name })}>
      <h1>{t.t('channel.title', { name: props.name })}</h1>
      <p>
        <a href={`/admin/settings/channels/${props.channelId}/tax`}>{t.t('tax.link')}</a>
      </p>
      <ContentLanguageBar
        page={page}
        action={`/admin/settings/channels/${props.channelId}`}
        languages={props.languages}
        language={language}
        label={t.t('channel.contentLanguage')}
        apply={t.t('channel.showLanguage')}
        hint={t.t('channel.contentLanguageHint')}
      />
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      <p class="meta">
        {t.t('channel.revision', { revision: props.revision, baseRevision: props.baseRevision })}
      </p>
      {editable ? (
        <form
          method="post"
          action={`/admin/settings/channels/${props.channelId}?language=${encodeURIComponent(language)}`}
        >
          <ChannelRevisionFields page={page} revision={props.revision} baseRevision={props.baseRevision} />
          {body}
          <button type="submit">{t.t('action.save')}</button>
        </form>
      ) : null}
      {editable ? (
        <form
          id="reset-form"
          method="post"
          action={`/admin/settings/channels/${props.channelId}?language=${encodeURIComponent(language)}`}
        >
          <ChannelRevisionFields page={page} revision={props.revision} baseRevision={props.baseRevision} />
        </form>
      ) : (
        <>
          <p>{t.t('channel.readOnly')}</p>
          {body}
        </>
      )}
      {props.isMain && props.companyBasis ? (
        <CompanyBasisForm page={page} channelId={props.channelId} company={props.companyBasis} />
      ) : null}
      {editable && !props.isMain ? (
        <DeleteChannelForm
          page={page}
          channelId={props.channelId}
          name={props.name}
          revision={props.revision}
        />
      ) : null}
    </Layout>
  );
}

export function ProblemPage({ page, status, text }: { page: PageContext; status: number; text: string }) {
  return (
    <Layout page={page} title={String(status)}>
      <h1>{status === 404 ? page.t.t('error.notFound') : text}</h1>
      {status === 404 ? null : <Message kind="error">{text}</Message>}
    </Layout>
  );
}
