/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { formatRate } from '../channel-form.ts';
import { type FieldAttributes, FormField } from '../fields.tsx';
import type { MessageKey } from '../i18n.ts';
import { CsrfField, Layout, NoticeMessage, type PageContext } from '../layout.tsx';
import { ChannelRevisionFields, ProvenanceBadge, ResetButton } from '../pages.tsx';
import {
  type BasisTaxRule,
  type CountryRate,
  dateOf,
  percent,
  type RuleLeaf,
  type RuleRow,
  ruleTexts,
  type TaxRule,
} from './tax-form.ts';

/** A country of the shared basis named in the UI language (`lang`: the language the name is in). */
export interface CountryOption {
  readonly code: string;
  readonly name: string;
  readonly lang: string;
  readonly subdivisions: readonly { readonly code: string; readonly name: string; readonly lang: string }[];
}

export interface Choice {
  readonly id: string;
  readonly name: string;
}

export interface SavedRule extends Choice {
  readonly active: boolean;
}

export type Notice =
  | { kind: 'ok' | 'error' | 'warning'; text: string; items?: readonly string[] }
  | undefined;

export interface TaxPageProps {
  readonly page: PageContext;
  readonly channelId: string;
  readonly name: string;
  readonly revision: number;
  readonly baseRevision: number;
  readonly rows: readonly RuleRow[];
  readonly rates: readonly CountryRate[];
  readonly countries: readonly CountryOption[];
  readonly classes: readonly Choice[];
  readonly savedRules: readonly SavedRule[];
  readonly editable: boolean;
  /** The id a rule added by this form gets (made per render, so a resubmitted form adds no second rule). */
  readonly newRuleId: string;
  readonly notice?: Notice;
  /** A refused or stale save: the posted fields, kept in the inputs. */
  readonly entered?: ReadonlyMap<string, string> | undefined;
  /** Messages per field name (`rule:<id>:<input>`, `shop:<id>:<input>`, `rate:…`, `addRate:…`). */
  readonly errors?: ReadonlyMap<string, string> | undefined;
  /** The shop's own rules (`basis.tax_rules.list`): every channel inherits them (decision 0049). */
  readonly basisRules: readonly BasisTaxRule[];
  /** On the main channel's page: the form of the shop's rules, its new rule's id and its message. */
  readonly shop?: { readonly newRuleId: string; readonly notice?: Notice } | undefined;
}

const POSTCODE_KINDS = ['', 'single', 'list', 'prefix', 'range'] as const;
const POSTCODE_LABEL: Record<(typeof POSTCODE_KINDS)[number], MessageKey> = {
  '': 'tax.postcode.none',
  single: 'tax.postcode.single',
  list: 'tax.postcode.list',
  prefix: 'tax.postcode.prefix',
  range: 'tax.postcode.range',
};

const idOf = (name: string) => `f-${name.replace(/[^A-Za-z0-9-]/g, '-')}`;

/** The place a rule covers, in words: "Bavaria, Germany". */
export function placeOf(
  rule: Pick<TaxRule, 'country' | 'state'>,
  countries: readonly CountryOption[],
): string {
  const country = countries.find((item) => item.code === rule.country);
  const state = country?.subdivisions.find((item) => item.code === rule.state);
  const countryName = country?.name ?? rule.country;
  return rule.state ? `${state?.name ?? rule.state}, ${countryName}` : countryName;
}

/** A postcode condition in words. */
function postcodeText(page: PageContext, postcode: TaxRule['postcode']): string {
  const { t } = page;
  if (!postcode) return t.t('tax.postcode.none');
  const what =
    postcode.kind === 'list'
      ? postcode.values.join(', ')
      : postcode.kind === 'range'
        ? `${postcode.from} – ${postcode.to}`
        : postcode.value;
  return `${t.t(POSTCODE_LABEL[postcode.kind])}: ${what}`;
}

/** What a rule leaf's stored text (`ruleTexts`) means, for readers and for a stale save's list. */
export function leafShown(
  page: PageContext,
  leaf: RuleLeaf,
  value: string,
  lookups: { countries: readonly CountryOption[]; classes: readonly Choice[]; savedRules: readonly Choice[] },
): string {
  const { t } = page;
  switch (leaf) {
    case 'country':
      return lookups.countries.find((country) => country.code === value)?.name ?? value;
    case 'state':
      return value === ''
        ? t.t('tax.state.none')
        : (lookups.countries.flatMap((country) => country.subdivisions).find((item) => item.code === value)
            ?.name ?? value);
    case 'postcode':
      return postcodeText(page, value === '' ? null : (JSON.parse(value) as TaxRule['postcode']));
    case 'validFrom':
    case 'validUntil':
      return value === '' ? t.t('tax.value.open') : t.date(value);
    case 'ruleId':
      return value === ''
        ? t.t('tax.ruleId.none')
        : (lookups.savedRules.find((rule) => rule.id === value)?.name ?? value);
    case 'taxClassId':
      return value === ''
        ? t.t('tax.taxClass.all')
        : (lookups.classes.find((item) => item.id === value)?.name ?? value);
    case 'rate':
      return percent(Number(value), t.locale);
    default:
      return value;
  }
}

export const LEAF_LABEL: Record<RuleLeaf, MessageKey> = {
  country: 'tax.field.country',
  state: 'tax.field.state',
  postcode: 'tax.field.postcodeKind',
  validFrom: 'tax.field.validFrom',
  validUntil: 'tax.field.validUntil',
  priority: 'tax.field.priority',
  ruleId: 'tax.field.ruleId',
  taxClassId: 'tax.field.taxClass',
  rate: 'tax.field.rate',
};

function OriginBadge({ page, origin }: { page: PageContext; origin: RuleRow['origin'] | undefined }) {
  if (origin === 'added') return <span class="badge overridden">{page.t.t('tax.origin.added')}</span>;
  return <ProvenanceBadge page={page} text={{ provenance: origin }} />;
}

/** A tax field: its id from its name (`idOf`), its problem the message `errors` holds for it. */
function Field({
  name,
  label,
  errors,
  hint,
  children,
}: {
  name: string;
  label: string;
  errors: ReadonlyMap<string, string> | undefined;
  hint?: string;
  children: (attributes: FieldAttributes) => Child;
}) {
  const error = errors?.get(name);
  return (
    <FormField
      id={idOf(name)}
      name={name}
      label={label}
      hint={hint}
      problems={error ? [error] : []}
      control={children}
    />
  );
}

/**
 * The inputs of one rule (`<prefix>:<id>:<input>`; `rule` for the channel's rules, `shop` for the
 * shop's), showing what was entered after a refused save.
 */
function RuleInputs({
  props,
  prefix = 'rule',
  id,
  rule,
}: {
  props: TaxPageProps;
  prefix?: 'rule' | 'shop';
  id: string;
  rule: TaxRule | null;
}) {
  const { page, entered, errors, countries, classes, savedRules } = props;
  const { t } = page;
  const name = (input: string) => `${prefix}:${id}:${input}`;
  const value = (input: string, stored: string) => entered?.get(name(input)) ?? stored;
  const country = value('country', rule?.country ?? '');
  const postcode = rule?.postcode ?? null;
  const kind = value('postcodeKind', postcode?.kind ?? '');
  // Without script the choices cannot follow the country select: every country's subdivisions,
  // grouped by country, the rule's country first (the operation refuses one of another country).
  const stateChoices = [
    ...countries.filter((item) => item.code === country),
    ...countries.filter((item) => item.code !== country),
  ];
  const state = value('state', rule?.state ?? '');
  const ruleId = value('ruleId', rule?.ruleId ?? '');
  const taxClassId = value('taxClassId', rule?.taxClassId ?? '');
  return (
    <>
      <div class="field-row">
        <Field name={name('country')} label={t.t('tax.field.country')} errors={errors}>
          {(attributes) => (
            <select {...attributes}>
              {id === 'new' ? <option value="">{t.t('tax.country.choose')}</option> : null}
              {countries.map((item) => (
                <option value={item.code} lang={item.lang} selected={item.code === country}>
                  {item.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field name={name('state')} label={t.t('tax.field.state')} errors={errors}>
          {(attributes) => (
            <select {...attributes}>
              <option value="">{t.t('tax.state.none')}</option>
              {stateChoices
                .filter((item) => item.subdivisions.length > 0)
                .map((item) => (
                  <optgroup label={item.name}>
                    {item.subdivisions.map((subdivision) => (
                      <option
                        value={subdivision.code}
                        lang={subdivision.lang}
                        selected={subdivision.code === state}
                      >
                        {subdivision.name}
                      </option>
                    ))}
                  </optgroup>
                ))}
            </select>
          )}
        </Field>
      </div>
      <div class="field-row">
        <Field name={name('postcodeKind')} label={t.t('tax.field.postcodeKind')} errors={errors}>
          {(attributes) => (
            <select {...attributes}>
              {POSTCODE_KINDS.map((option) => (
                <option value={option} selected={option === kind}>
                  {t.t(POSTCODE_LABEL[option])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          name={name('postcode')}
          label={t.t('tax.field.postcode')}
          errors={errors}
          hint={t.t('tax.field.postcodeHint')}
        >
          {(attributes) => (
            <input
              {...attributes}
              type="text"
              value={value(
                'postcode',
                postcode?.kind === 'list'
                  ? postcode.values.join(', ')
                  : postcode?.kind === 'single' || postcode?.kind === 'prefix'
                    ? postcode.value
                    : '',
              )}
            />
          )}
        </Field>
        <Field name={name('postcodeFrom')} label={t.t('tax.field.postcodeFrom')} errors={errors}>
          {(attributes) => (
            <input
              {...attributes}
              type="text"
              value={value('postcodeFrom', postcode?.kind === 'range' ? postcode.from : '')}
            />
          )}
        </Field>
        <Field name={name('postcodeTo')} label={t.t('tax.field.postcodeTo')} errors={errors}>
          {(attributes) => (
            <input
              {...attributes}
              type="text"
              value={value('postcodeTo', postcode?.kind === 'range' ? postcode.to : '')}
            />
          )}
        </Field>
      </div>
      <div class="field-row">
        <Field name={name('validFrom')} label={t.t('tax.field.validFrom')} errors={errors}>
          {(attributes) => (
            <input {...attributes} type="date" value={value('validFrom', dateOf(rule?.validFrom ?? null))} />
          )}
        </Field>
        <Field name={name('validUntil')} label={t.t('tax.field.validUntil')} errors={errors}>
          {(attributes) => (
            <input
              {...attributes}
              type="date"
              value={value('validUntil', dateOf(rule?.validUntil ?? null))}
            />
          )}
        </Field>
        <Field name={name('priority')} label={t.t('tax.field.priority')} errors={errors}>
          {(attributes) => (
            <input
              {...attributes}
              type="text"
              inputmode="numeric"
              value={value('priority', String(rule?.priority ?? 0))}
            />
          )}
        </Field>
      </div>
      <div class="field-row">
        <Field name={name('ruleId')} label={t.t('tax.field.ruleId')} errors={errors}>
          {(attributes) => (
            <select {...attributes}>
              <option value="">{t.t('tax.ruleId.none')}</option>
              {savedRules.map((saved) => (
                <option value={saved.id} selected={saved.id === ruleId}>
                  {saved.active ? saved.name : t.t('tax.ruleId.inactive', { name: saved.name })}
                </option>
              ))}
              {ruleId !== '' && !savedRules.some((saved) => saved.id === ruleId) ? (
                <option value={ruleId} selected>
                  {ruleId}
                </option>
              ) : null}
            </select>
          )}
        </Field>
        <Field name={name('taxClassId')} label={t.t('tax.field.taxClass')} errors={errors}>
          {(attributes) => (
            <select {...attributes}>
              <option value="">{t.t('tax.taxClass.all')}</option>
              {classes.map((item) => (
                <option value={item.id} selected={item.id === taxClassId}>
                  {item.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field name={name('rate')} label={t.t('tax.field.rate')} errors={errors}>
          {(attributes) => (
            <input
              {...attributes}
              type="text"
              inputmode="decimal"
              value={value('rate', rule ? formatRate(rule.rate, t.locale) : '')}
            />
          )}
        </Field>
      </div>
      {rule
        ? Object.entries(ruleTexts(rule)).map(([leaf, text]) => (
            <input type="hidden" name={`was:${prefix}:${id}:${leaf}`} value={text} />
          ))
        : null}
    </>
  );
}

/** A rule as text, for readers: each leaf with its label. */
function RuleFacts({ props, rule }: { props: TaxPageProps; rule: TaxRule }) {
  const { page } = props;
  const lookups = { countries: props.countries, classes: props.classes, savedRules: props.savedRules };
  const texts = ruleTexts(rule);
  return (
    <dl class="facts">
      {(Object.keys(texts) as RuleLeaf[]).map((leaf) => (
        <>
          <dt>{page.t.t(LEAF_LABEL[leaf])}</dt>
          <dd data-leaf={leaf}>{leafShown(page, leaf, texts[leaf], lookups)}</dd>
        </>
      ))}
    </dl>
  );
}

function RuleRows({ props }: { props: TaxPageProps }) {
  const { page, rows, editable, countries } = props;
  const { t } = page;
  return (
    <>
      {rows.length === 0 ? <p>{t.t('tax.rules.none')}</p> : null}
      {rows.map((row) => {
        if (!row.rule) {
          // Named by the place of the shop's rule it removes.
          const basis = props.basisRules.find((rule) => rule.id === row.id);
          const text = t.t('tax.rule.removed', { id: basis ? placeOf(basis, countries) : row.id });
          return (
            <div class="card" data-rule={row.id}>
              <p>
                {text}
                <OriginBadge page={page} origin={row.origin} />
              </p>
              {editable ? <ResetButton page={page} field={`rule:${row.id}`} label={text} /> : null}
            </div>
          );
        }
        const legend = t.t('tax.rule.legend', { place: placeOf(row.rule, countries) });
        if (!editable) {
          return (
            <section class="card" data-rule={row.id} aria-label={legend}>
              <h3>
                {legend}
                <OriginBadge page={page} origin={row.origin} />
              </h3>
              <RuleFacts props={props} rule={row.rule} />
            </section>
          );
        }
        return (
          <fieldset class="card" data-rule={row.id}>
            <legend>
              {legend}
              <OriginBadge page={page} origin={row.origin} />
            </legend>
            <RuleInputs props={props} id={row.id} rule={row.rule} />
            <div class="row-actions">
              <ResetButton
                page={page}
                field={`rule:${row.id}`}
                label={legend}
                name="remove"
                text={page.t.t('tax.action.remove')}
              />
              {row.origin === 'overridden' ? (
                <ResetButton page={page} field={`rule:${row.id}`} label={legend} />
              ) : null}
            </div>
          </fieldset>
        );
      })}
      {editable ? (
        <fieldset class="card" data-rule="new">
          <legend>{t.t('tax.rule.new')}</legend>
          <p class="hint">{t.t('tax.rule.newHint')}</p>
          <input type="hidden" name="newRuleId" value={props.newRuleId} />
          <RuleInputs props={props} id="new" rule={null} />
        </fieldset>
      ) : null}
    </>
  );
}

/**
 * The main channel's form of the shop's own rules (decision 0049): saved one by one with
 * `basis.tax_rules.save` at the revision each was rendered with, removed with
 * `basis.tax_rules.delete`; every channel inherits them. Readers see them as text.
 */
function ShopRules({ props, action }: { props: TaxPageProps; action: string }) {
  const { page, editable, countries, basisRules, shop } = props;
  const { t } = page;
  const shopAction = `${action}/shop`;
  const rules = basisRules.map((rule) => ({
    rule,
    legend: t.t('tax.rule.legend', { place: placeOf(rule, countries) }),
  }));
  return (
    <section aria-labelledby="area-shopRules">
      <h2 id="area-shopRules">{t.t('tax.shop')}</h2>
      <p class="meta">{t.t('tax.shop.intro')}</p>
      {shop?.notice ? <NoticeMessage {...shop.notice} /> : null}
      {rules.length === 0 ? <p>{t.t('tax.shop.none')}</p> : null}
      {!editable ? (
        rules.map(({ rule, legend }) => (
          <section class="card" data-shop-rule={rule.id} aria-label={legend}>
            <h3>{legend}</h3>
            <RuleFacts props={props} rule={rule} />
          </section>
        ))
      ) : (
        <>
          <form method="post" action={shopAction}>
            <CsrfField token={page.csrf} />
            {rules.map(({ rule, legend }) => (
              <fieldset class="card" data-shop-rule={rule.id}>
                <legend>{legend}</legend>
                <RuleInputs props={props} prefix="shop" id={rule.id} rule={rule} />
                <input type="hidden" name={`shop:${rule.id}:revision`} value={String(rule.revision)} />
                <div class="row-actions">
                  <button
                    type="submit"
                    form="shop-remove-form"
                    class="secondary"
                    name="remove"
                    value={`${rule.id}:${rule.revision}`}
                    aria-label={`${t.t('tax.shop.delete')}: ${legend}`}
                  >
                    {t.t('tax.shop.delete')}
                  </button>
                </div>
              </fieldset>
            ))}
            <fieldset class="card" data-shop-rule="new">
              <legend>{t.t('tax.shop.new')}</legend>
              <p class="hint">{t.t('tax.rule.newHint')}</p>
              <input type="hidden" name="newShopRuleId" value={shop?.newRuleId ?? ''} />
              <RuleInputs props={props} prefix="shop" id="new" rule={null} />
            </fieldset>
            <button type="submit">{t.t('tax.shop.save')}</button>
          </form>
          <form id="shop-remove-form" method="post" action={shopAction}>
            <CsrfField token={page.csrf} />
          </form>
        </>
      )}
    </section>
  );
}

function RateRows({ props }: { props: TaxPageProps }) {
  const { page, rates, editable, countries, entered, errors } = props;
  const { t } = page;
  const countryName = (code: string) => countries.find((country) => country.code === code)?.name ?? code;
  return (
    <>
      {rates.length === 0 ? <p>{t.t('tax.rates.none')}</p> : null}
      {rates.map((rate) => {
        const label = t.t('tax.rate.label', { taxClass: rate.title, country: countryName(rate.place) });
        const removed = rate.value === null;
        if (!editable) {
          return (
            <p data-field={rate.key}>
              {label}: {removed ? t.t('tax.rate.removedNote') : percent(rate.value!, t.locale)}
              <OriginBadge
                page={page}
                origin={removed ? 'removed' : rate.inBasis ? rate.provenance : 'added'}
              />
            </p>
          );
        }
        if (removed) {
          return (
            <div class="field" data-field={rate.key}>
              <p>
                {label}: {t.t('tax.rate.removedNote')}
                <ProvenanceBadge page={page} text={{ provenance: 'removed' }} />
              </p>
              <input type="hidden" name={`was:${rate.key}`} value="null" />
              <input type="hidden" name={`rate:${rate.key}`} value="" />
              <ResetButton page={page} field={rate.key} label={label} />
            </div>
          );
        }
        const name = `rate:${rate.key}`;
        return (
          <div class="field-row" data-rate={rate.key}>
            <Field name={name} label={label} errors={errors}>
              {(attributes) => (
                <input
                  {...attributes}
                  type="text"
                  inputmode="decimal"
                  value={entered?.get(name) ?? formatRate(rate.value!, t.locale)}
                />
              )}
            </Field>
            <OriginBadge page={page} origin={rate.inBasis ? rate.provenance : 'added'} />
            <input type="hidden" name={`was:${rate.key}`} value={String(rate.value)} />
            <ResetButton
              page={page}
              field={rate.key}
              label={label}
              name="remove"
              text={page.t.t('tax.action.remove')}
            />
            {rate.inBasis && rate.provenance === 'overridden' ? (
              <ResetButton page={page} field={rate.key} label={label} />
            ) : null}
          </div>
        );
      })}
      {editable ? (
        <fieldset class="card" data-rate="new">
          <legend>{t.t('tax.addRate')}</legend>
          <div class="field-row">
            <Field name="addRate:class" label={t.t('tax.field.taxClass')} errors={errors}>
              {(attributes) => (
                <select {...attributes}>
                  {props.classes.map((item) => (
                    <option value={item.id} selected={item.id === entered?.get('addRate:class')}>
                      {item.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field name="addRate:country" label={t.t('tax.field.country')} errors={errors}>
              {(attributes) => (
                <select {...attributes}>
                  <option value="">{t.t('tax.country.choose')}</option>
                  {countries.map((item) => (
                    <option
                      value={item.code}
                      lang={item.lang}
                      selected={item.code === entered?.get('addRate:country')}
                    >
                      {item.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field name="addRate:rate" label={t.t('tax.field.rate')} errors={errors}>
              {(attributes) => (
                <input
                  {...attributes}
                  type="text"
                  inputmode="decimal"
                  value={entered?.get('addRate:rate') ?? ''}
                />
              )}
            </Field>
          </div>
        </fieldset>
      ) : null}
    </>
  );
}

export function TaxPage(props: TaxPageProps) {
  const { page, editable } = props;
  const { t } = page;
  const action = `/admin/settings/channels/${props.channelId}/tax`;
  const title = t.t('tax.title', { name: props.name });
  const body = (
    <>
      <section aria-labelledby="area-taxRules">
        <h2 id="area-taxRules">{t.t('tax.rules')}</h2>
        <p class="meta">{t.t('tax.rules.basis')}</p>
        <RuleRows props={props} />
      </section>
      <section aria-labelledby="area-countryRates">
        <h2 id="area-countryRates">{t.t('tax.rates')}</h2>
        <RateRows props={props} />
      </section>
    </>
  );
  return (
    <Layout page={page} title={title}>
      <h1>{title}</h1>
      <p>
        <a href={`/admin/settings/channels/${props.channelId}`}>{t.t('tax.back')}</a>
      </p>
      <p>{t.t('tax.intro')}</p>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      {props.shop ? <ShopRules props={props} action={action} /> : null}
      <p class="meta">
        {t.t('channel.revision', { revision: props.revision, baseRevision: props.baseRevision })}
      </p>
      {editable ? (
        <>
          <form method="post" action={action}>
            <ChannelRevisionFields page={page} revision={props.revision} baseRevision={props.baseRevision} />
            {body}
            <button type="submit">{t.t('action.save')}</button>
          </form>
          <form id="reset-form" method="post" action={action}>
            <ChannelRevisionFields page={page} revision={props.revision} baseRevision={props.baseRevision} />
          </form>
        </>
      ) : (
        <>
          <p>{t.t('channel.readOnly')}</p>
          {body}
        </>
      )}
    </Layout>
  );
}
