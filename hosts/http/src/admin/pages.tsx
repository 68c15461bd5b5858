/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import {
  type DeliveryChoice,
  type FormEntry,
  type FormText,
  formatAmount,
  formatRate,
  OWN_SWITCHES,
  type OwnSwitch,
  type Provenance,
  pricesText,
  type RateField,
} from './channel-form.ts';
import type { MessageKey } from './i18n.ts';
import { ContentLanguageBar, CsrfField, Layout, Message, type PageContext } from './layout.tsx';

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

export function SettingsPage({ page, channels }: { page: PageContext; channels: readonly ChannelSummary[] }) {
  const { t } = page;
  return (
    <Layout page={page} title={t.t('settings.title')}>
      <h1>{t.t('settings.title')}</h1>
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
    </Layout>
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

/**
 * "Reset to inherited" for a field the channel overrides: a submit button of the separate reset
 * form (`form="reset-form"`), so Enter in a field of the settings form still saves (the implicit
 * submission takes the form's first own submit button). Works without script.
 */
export function ResetButton({ page, field, label }: { page: PageContext; field: string; label: string }) {
  return (
    <button
      type="submit"
      form="reset-form"
      class="secondary"
      name="reset"
      value={field}
      aria-label={`${page.t.t('action.reset')}: ${label}`}
    >
      {page.t.t('action.reset')}
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
                {country.subdivisions.length > 0 ? (
                  <details>
                    <summary>{t.t('delivery.subdivisions', { count: country.subdivisions.length })}</summary>
                    <ul class="subdivisions">
                      {country.subdivisions.map((subdivision) => (
                        <li lang={subdivision.translated ? language : mainLanguage}>{subdivision.name}</li>
                      ))}
                    </ul>
                    {country.subdivisions.some((subdivision) => !subdivision.translated) ? (
                      <FallbackBadge page={page} mainLanguage={mainLanguage} />
                    ) : null}
                  </details>
                ) : null}
              </div>
            ) : (
              <p lang={country.translated ? language : mainLanguage}>
                {country.name} ({country.code})
                {country.translated ? null : <FallbackBadge page={page} mainLanguage={mainLanguage} />}
              </p>
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

/** The channel's own switches (paused, private): its own fields, not inherited, so no provenance. */
function OwnFields({
  page,
  own,
  editable,
}: {
  page: PageContext;
  own: Record<OwnSwitch, boolean>;
  editable: boolean;
}) {
  const { t } = page;
  const label = (name: OwnSwitch) => t.t(name === 'paused' ? 'field.paused' : 'field.private');
  return (
    <section aria-labelledby="area-own">
      <h2 id="area-own">{t.t('channel.own')}</h2>
      <fieldset class="card">
        <legend>{t.t('channel.own')}</legend>
        {OWN_SWITCHES.map((name) =>
          editable ? (
            <div class="field field-row" data-field={`channel.${name}`}>
              <input
                type="checkbox"
                id={`f-channel-${name}`}
                name={`on:channel.${name}`}
                checked={own[name]}
              />
              <label for={`f-channel-${name}`}>{label(name)}</label>
              <input type="hidden" name={`was:channel.${name}`} value={String(own[name])} />
            </div>
          ) : (
            <p data-field={`channel.${name}`}>
              {label(name)}: {t.t(own[name] ? 'value.yes' : 'value.no')}
            </p>
          ),
        )}
      </fieldset>
    </section>
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
      <OwnFields page={page} own={props.own} editable={editable} />
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
      {props.notice ? (
        <Message kind={props.notice.kind}>
          <p>{props.notice.text}</p>
          {props.notice.items && props.notice.items.length > 0 ? (
            <ul>
              {props.notice.items.map((item) => (
                <li>{item}</li>
              ))}
            </ul>
          ) : null}
        </Message>
      ) : null}
      <p class="meta">
        {t.t('channel.revision', { revision: props.revision, baseRevision: props.baseRevision })}
      </p>
      {editable ? (
        <form
          method="post"
          action={`/admin/settings/channels/${props.channelId}?language=${encodeURIComponent(language)}`}
        >
          <CsrfField token={page.csrf} />
          <input type="hidden" name="revision" value={String(props.revision)} />
          <input type="hidden" name="baseRevision" value={String(props.baseRevision)} />
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
          <CsrfField token={page.csrf} />
          <input type="hidden" name="revision" value={String(props.revision)} />
          <input type="hidden" name="baseRevision" value={String(props.baseRevision)} />
        </form>
      ) : (
        <>
          <p>{t.t('channel.readOnly')}</p>
          {body}
        </>
      )}
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
