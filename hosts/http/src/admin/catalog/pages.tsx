/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { formatAmount } from '../channel-form.ts';
import { FormField, PinnedProblems, type ProblemText } from '../fields.tsx';
import { ContentLanguageBar, CsrfField, Layout, Message, type PageContext } from '../layout.tsx';
import { reviewsHref } from '../reviews/pages.tsx';
import {
  entriesOf,
  type FieldErrors,
  type FieldProblem,
  type ProductEntries,
  priceField,
  type StoredPrice,
  wasOf,
} from './product-form.ts';

// The catalog area's pages (decision 0047): the product list, a product with its gallery and
// image drafts, and a draft's review. Everything shown was read through the operations.

export interface Price {
  readonly currency: string;
  readonly gross: number;
  readonly net: number;
}

export interface ProductRow {
  readonly id: string;
  readonly sku: string;
  readonly active: boolean | null;
  readonly translations: Record<string, Record<string, string | null>> | null;
  readonly prices: readonly StoredPrice[] | null;
  readonly stockAvailable: number;
  readonly stockReserved: number;
  readonly revision: number;
}

export interface GalleryEntry {
  readonly id: string;
  readonly assetId: string;
  readonly position: number;
  readonly cover: boolean;
  readonly state: 'staged' | 'published';
  readonly altTexts: Record<string, string>;
  readonly alt: string | null;
}

export interface Gallery {
  readonly revision: number;
  readonly language: string;
  readonly entries: readonly GalleryEntry[];
  readonly inherited: { readonly productId: string; readonly entries: readonly GalleryEntry[] } | null;
}

export interface Draft {
  readonly id: string;
  readonly productId: string;
  readonly sourceAssetId: string;
  readonly mode: 'generate' | 'optimize';
  readonly instruction: string;
  readonly productRevision: number;
  readonly status: 'pending' | 'ready' | 'failed' | 'applied';
  readonly image: { readonly width: number; readonly height: number } | null;
  readonly failure: { readonly code: string; readonly message: string } | null;
  readonly createdAt: string;
}

export interface Notice {
  readonly kind: 'ok' | 'error' | 'warning';
  readonly text: string;
}

/** A product's name in `language`, else null (the page says so rather than guessing). */
export function nameIn(product: ProductRow, language: string): string | null {
  return product.translations?.[language]?.name ?? null;
}

function PriceText({ page, prices }: { page: PageContext; prices: readonly Price[] | null }) {
  const { t } = page;
  if (!prices || prices.length === 0) return <span class="meta">{t.t('catalog.product.noPrices')}</span>;
  return (
    <span>
      {prices
        .map((price) => `${t.money(price.gross, price.currency)} / ${t.money(price.net, price.currency)}`)
        .join(', ')}
    </span>
  );
}

function Name({ page, product, language }: { page: PageContext; product: ProductRow; language: string }) {
  const name = nameIn(product, language);
  return name === null ? (
    <span class="meta">{page.t.t('catalog.noName')}</span>
  ) : (
    <span lang={language}>{name}</span>
  );
}

/** A reader's text: the content language's, else the main language's marked as such. */
function TextIn(props: {
  page: PageContext;
  product: ProductRow;
  field: 'name' | 'description';
  language: string;
  mainLanguage: string;
}) {
  const { page, product, field, language, mainLanguage } = props;
  const own = product.translations?.[language]?.[field];
  if (own) return <span lang={language}>{own}</span>;
  const main = product.translations?.[mainLanguage]?.[field];
  if (!main) return field === 'name' ? <span class="meta">{page.t.t('catalog.noName')}</span> : null;
  return (
    <>
      <span class="badge fallback">
        {page.t.t('provenance.fallback', { language: page.t.languageName(mainLanguage) })}
      </span>{' '}
      <span lang={mainLanguage}>{main}</span>
    </>
  );
}

export function ProductListPage(props: {
  page: PageContext;
  items: readonly ProductRow[];
  search: string;
  next: string | null;
  first: boolean;
  language: string;
}) {
  const { page, items, search, next, first, language } = props;
  const { t } = page;
  const query = (after: string | null) => {
    const params = new URLSearchParams();
    if (search) params.set('search', search);
    if (after) params.set('after', after);
    const text = params.toString();
    return text ? `/admin/products?${text}` : '/admin/products';
  };
  return (
    <Layout page={page} title={t.t('catalog.title')}>
      <h1>{t.t('catalog.title')}</h1>
      <search>
        <form method="get" action="/admin/products" class="field-row">
          <label for="product-search">{t.t('catalog.search.label')}</label>
          <input id="product-search" name="search" type="search" value={search} maxlength={200} />
          <button type="submit">{t.t('catalog.search.submit')}</button>
        </form>
      </search>
      {items.length === 0 ? (
        <p>{t.t('catalog.empty')}</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">{t.t('catalog.col.sku')}</th>
              <th scope="col">{t.t('catalog.col.name')}</th>
              <th scope="col">{t.t('catalog.col.price')}</th>
              <th scope="col">{t.t('catalog.col.stock')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((product) => (
              <tr>
                <td>
                  <a href={`/admin/products/${product.id}`}>{product.sku}</a>
                </td>
                <td>
                  <Name page={page} product={product} language={language} />
                </td>
                <td>
                  <PriceText page={page} prices={product.prices} />
                </td>
                <td>
                  {t.t('catalog.product.stock', {
                    available: product.stockAvailable,
                    reserved: product.stockReserved,
                  })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t.t('catalog.title')}>
        {first ? null : <a href={query(null)}>{t.t('catalog.first')}</a>}
        {next ? (
          <a href={query(next)} rel="next">
            {t.t('catalog.next')}
          </a>
        ) : null}
      </nav>
    </Layout>
  );
}

const assetPath = (productId: string, assetId: string) => `/admin/products/${productId}/assets/${assetId}`;

/** One gallery entry with its controls (none for a reader or an inherited entry). */
function EntryCard(props: {
  page: PageContext;
  productId: string;
  gallery: Gallery;
  entry: GalleryEntry;
  index: number;
  count: number;
  editable: boolean;
}) {
  const { page, productId, gallery, entry, index, count, editable } = props;
  const { t, csrf } = page;
  const position = index + 1;
  const language = gallery.language;
  const action = (what: string) => `/admin/products/${productId}/gallery/${what}?language=${language}`;
  const hidden = (
    <>
      <CsrfField token={csrf} />
      <input type="hidden" name="revision" value={String(gallery.revision)} />
      <input type="hidden" name="entryId" value={entry.id} />
    </>
  );
  return (
    <li class="card gallery-entry" data-entry={entry.id} data-state={entry.state}>
      <h3>{t.t('catalog.gallery.image', { position })}</h3>
      <img src={assetPath(productId, entry.assetId)} alt={entry.alt ?? ''} width="160" height="120" />
      <p>
        {entry.cover ? <span class="badge overridden">{t.t('catalog.gallery.cover')}</span> : null}{' '}
        {entry.state === 'staged' ? (
          <span class="badge fallback">{t.t('catalog.gallery.staged')}</span>
        ) : (
          <span class="badge inherited">{t.t('catalog.gallery.published')}</span>
        )}
      </p>
      {editable ? (
        <>
          <div class="field-row">
            {index > 0 ? (
              <form method="post" action={action('move')}>
                {hidden}
                <input type="hidden" name="direction" value="up" />
                <button type="submit" class="secondary">
                  {t.t('catalog.gallery.moveUp', { position })}
                </button>
              </form>
            ) : null}
            {index < count - 1 ? (
              <form method="post" action={action('move')}>
                {hidden}
                <input type="hidden" name="direction" value="down" />
                <button type="submit" class="secondary">
                  {t.t('catalog.gallery.moveDown', { position })}
                </button>
              </form>
            ) : null}
            {!entry.cover && entry.state === 'published' ? (
              <form method="post" action={action('cover')}>
                {hidden}
                <button type="submit" class="secondary">
                  {t.t('catalog.gallery.makeCover', { position })}
                </button>
              </form>
            ) : null}
            <form method="post" action={action('remove')}>
              {hidden}
              <button type="submit" class="secondary">
                {t.t('catalog.gallery.remove', { position })}
              </button>
            </form>
          </div>
          <form method="post" action={action('alt')} class="field">
            {hidden}
            <label for={`alt-${entry.id}`}>
              {t.t('catalog.gallery.alt', { position, language: t.languageName(language) })}
            </label>
            <input
              id={`alt-${entry.id}`}
              name="alt"
              lang={language}
              value={entry.altTexts[language] ?? ''}
              maxlength={500}
            />
            <button type="submit" class="secondary">
              {t.t('catalog.gallery.altSave', { position })}
            </button>
          </form>
        </>
      ) : (
        <p>{entry.alt ?? <span class="meta">{t.t('catalog.gallery.noAlt')}</span>}</p>
      )}
    </li>
  );
}

/** The drafts list; while a draft it watches is pending it asks for itself again every 3 s. */
export function DraftList(props: { page: PageContext; productId: string; drafts: readonly Draft[] }) {
  const { page, productId, drafts } = props;
  const { t } = page;
  const pending = drafts.filter((draft) => draft.status === 'pending');
  const watch = drafts.map((draft) => draft.id).join(',');
  const poll =
    pending.length > 0
      ? {
          'hx-get': `/admin/products/${productId}/drafts?watch=${watch}`,
          'hx-trigger': 'every 3s',
          'hx-swap': 'outerHTML',
        }
      : {};
  return (
    <div id="drafts-list" aria-live="polite" {...poll}>
      {drafts.length === 0 ? (
        <p>{t.t('catalog.drafts.empty')}</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">{t.t('catalog.drafts.col.instruction')}</th>
              <th scope="col">{t.t('catalog.drafts.col.status')}</th>
              <th scope="col">{t.t('catalog.drafts.col.created')}</th>
            </tr>
          </thead>
          <tbody>
            {drafts.map((draft) => (
              <tr data-draft={draft.id} data-status={draft.status}>
                <td>{draft.instruction}</td>
                <td>
                  {t.t(`catalog.drafts.status.${draft.status}`)}
                  {draft.status === 'ready' ? (
                    <>
                      {' '}
                      <a href={`/admin/products/${productId}/drafts/${draft.id}`}>
                        {t.t('catalog.drafts.review')}
                      </a>
                    </>
                  ) : null}
                  {draft.status === 'failed' && draft.failure ? (
                    <span class="meta">
                      {' '}
                      {t.t('catalog.review.failure', { detail: draft.failure.message })}
                    </span>
                  ) : null}
                </td>
                <td>{t.date(draft.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A product problem's text: the catalog's message, or the operation's own (English) text. */
function problemText(page: PageContext, problem: FieldProblem): ProblemText {
  const { t } = page;
  if ('text' in problem) return { text: problem.text, lang: 'en' };
  return problem.key === 'catalog.edit.error.amount'
    ? t.t(problem.key, { example: formatAmount(1190, t.locale, problem.currency) })
    : t.t(problem.key);
}

/** A field's problems, pinned under it (one item each). */
function Problems({
  page,
  id,
  problems,
}: {
  page: PageContext;
  id: string;
  problems: readonly FieldProblem[];
}) {
  return <PinnedProblems id={id} list problems={problems.map((problem) => problemText(page, problem))} />;
}

/** One text input of the product form with its label, hint and pinned problems. */
function Field(props: {
  page: PageContext;
  name: string;
  label: string;
  value: string;
  errors: FieldErrors;
  hint?: Child;
  multiline?: boolean;
  lang?: string;
  inputmode?: 'decimal' | 'numeric';
  placeholder?: string | undefined;
}) {
  const { page, name, value } = props;
  return (
    <FormField
      id={`product-${name.replaceAll('.', '-')}`}
      name={name}
      label={props.label}
      hint={props.hint}
      list
      problems={(props.errors.get(name) ?? []).map((problem) => problemText(page, problem))}
      control={(attributes) =>
        props.multiline ? (
          <textarea
            {...attributes}
            lang={props.lang}
            placeholder={props.placeholder}
            rows={3}
            maxlength={10000}
          >
            {value}
          </textarea>
        ) : (
          <input
            {...attributes}
            lang={props.lang}
            placeholder={props.placeholder}
            value={value}
            inputmode={props.inputmode}
          />
        )
      }
    />
  );
}

/**
 * The product's main fields for a member with catalog.write: name and description in the content
 * language (a missing text marked as the main language's, which shows instead), SKU, a gross and
 * net amount per price currency as the UI language writes amounts, stock and active. The save
 * is `catalog.products.update` at the revision read; it also publishes staged gallery entries.
 */
function ProductForm(props: {
  page: PageContext;
  product: ProductRow;
  language: string;
  mainLanguage: string;
  entries: ProductEntries;
  errors: FieldErrors;
  staged: number;
}) {
  const { page, product, language, mainLanguage, entries, errors, staged } = props;
  const { t, csrf } = page;
  const own = product.translations?.[language] ?? {};
  const main = product.translations?.[mainLanguage] ?? {};
  /** The main language's text, marked, where the content language has none of its own. */
  const fallback = (field: 'name' | 'description') =>
    language !== mainLanguage && !own[field] && main[field] ? (
      <>
        <span class="badge fallback">
          {t.t('provenance.fallback', { language: t.languageName(mainLanguage) })}
        </span>{' '}
        <span lang={mainLanguage}>“{main[field]}”</span>
      </>
    ) : undefined;
  const languageName = t.languageName(language);
  const activeProblems = errors.get('active') ?? [];
  return (
    <section aria-labelledby="product-data">
      <h2 id="product-data">{t.t('catalog.product.data')}</h2>
      <form method="post" action={`/admin/products/${product.id}/save?language=${language}`} class="card">
        <CsrfField token={csrf} />
        <input type="hidden" name="revision" value={String(product.revision)} />
        <input type="hidden" name="was" value={wasOf(entriesOf(product, language, t.locale))} />
        <Field
          page={page}
          name="name"
          label={t.t('catalog.edit.name', { language: languageName })}
          value={entries.name}
          errors={errors}
          lang={language}
          hint={fallback('name')}
          placeholder={own.name ? undefined : (main.name ?? undefined)}
        />
        <Field
          page={page}
          name="description"
          label={t.t('catalog.edit.description', { language: languageName })}
          value={entries.description}
          errors={errors}
          lang={language}
          multiline
          hint={fallback('description')}
          placeholder={own.description ? undefined : (main.description ?? undefined)}
        />
        <Field page={page} name="sku" label={t.t('catalog.col.sku')} value={entries.sku} errors={errors} />
        {(product.prices ?? []).map((price) => (
          <div class="field-row">
            {(['gross', 'net'] as const).map((part) => (
              <Field
                page={page}
                name={priceField(price.currency, part)}
                label={t.t(part === 'gross' ? 'catalog.edit.gross' : 'catalog.edit.net', {
                  currency: price.currency,
                })}
                value={entries.prices[price.currency]?.[part] ?? ''}
                errors={errors}
                inputmode="decimal"
              />
            ))}
          </div>
        ))}
        {product.prices && product.prices.length > 0 ? null : (
          <p class="meta">{t.t('catalog.product.noPrices')}</p>
        )}
        <Field
          page={page}
          name="stock"
          label={t.t('catalog.edit.stock')}
          value={entries.stock}
          errors={errors}
          inputmode="numeric"
          hint={t.t('catalog.edit.stockHint', { reserved: product.stockReserved })}
        />
        <div class="field" data-field="active">
          <label>
            <input
              type="checkbox"
              name="active"
              value="on"
              checked={entries.active}
              aria-invalid={activeProblems.length > 0 ? 'true' : undefined}
            />{' '}
            {t.t('catalog.edit.active')}
          </label>
          <Problems page={page} id="product-active-error" problems={activeProblems} />
        </div>
        <Problems page={page} id="product-other-error" problems={errors.get('') ?? []} />
        <p class="hint" id="save-hint">
          {t.t('catalog.save.hint', { count: staged })}
        </p>
        <button type="submit" aria-describedby="save-hint">
          {t.t('catalog.save.submit')}
        </button>
      </form>
    </section>
  );
}

export function ProductPage(props: {
  page: PageContext;
  product: ProductRow;
  gallery: Gallery;
  languages: readonly string[];
  drafts: readonly Draft[];
  provider: { available: boolean; model: string | null } | null;
  editable: boolean;
  notice?: Notice | undefined;
  /** The shop's main language (the texts a missing translation falls back to). */
  mainLanguage: string;
  /** A refused or stale save: what the member entered, kept, and the problems per field. */
  entries?: ProductEntries | undefined;
  fieldErrors?: FieldErrors | undefined;
  /** The installed apps' data cards on the product mounts. */
  appBlocks: Child;
}) {
  const { page, product, gallery, languages, drafts, provider, editable, notice, appBlocks } = props;
  const { mainLanguage, entries, fieldErrors } = props;
  const { t, csrf } = page;
  const language = gallery.language;
  const staged = gallery.entries.filter((entry) => entry.state === 'staged').length;
  const base = `/admin/products/${product.id}`;
  return (
    <Layout page={page} title={t.t('catalog.product.title', { sku: product.sku })}>
      <p>
        <a href="/admin/products">{t.t('catalog.back')}</a>
      </p>
      <h1>{t.t('catalog.product.title', { sku: product.sku })}</h1>
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      <p>
        <a href={reviewsHref({ status: 'all', productId: product.id })}>{t.t('reviews.productLink')}</a>
      </p>
      <ContentLanguageBar
        page={page}
        action={base}
        languages={languages}
        language={language}
        label={t.t('catalog.product.language')}
        apply={t.t('catalog.product.languageApply')}
      />
      {editable ? (
        <ProductForm
          page={page}
          product={product}
          language={language}
          mainLanguage={mainLanguage}
          entries={entries ?? entriesOf(product, language, t.locale)}
          errors={fieldErrors ?? new Map()}
          staged={staged}
        />
      ) : (
        <section aria-labelledby="product-data">
          <h2 id="product-data">{t.t('catalog.product.data')}</h2>
          <dl class="facts">
            <dt>{t.t('catalog.product.name')}</dt>
            <dd>
              <TextIn
                page={page}
                product={product}
                field="name"
                language={language}
                mainLanguage={mainLanguage}
              />
            </dd>
            <dt>{t.t('catalog.edit.description', { language: t.languageName(language) })}</dt>
            <dd>
              <TextIn
                page={page}
                product={product}
                field="description"
                language={language}
                mainLanguage={mainLanguage}
              />
            </dd>
            <dt>{t.t('catalog.col.sku')}</dt>
            <dd>{product.sku}</dd>
            <dt>{t.t('catalog.product.prices')}</dt>
            <dd>
              <PriceText page={page} prices={product.prices} />
            </dd>
            <dt>{t.t('catalog.col.stock')}</dt>
            <dd>
              {t.t('catalog.product.stock', {
                available: product.stockAvailable,
                reserved: product.stockReserved,
              })}
            </dd>
            <dt>{t.t('catalog.product.active')}</dt>
            <dd>{t.t(product.active === false ? 'catalog.no' : 'catalog.yes')}</dd>
          </dl>
        </section>
      )}
      <section aria-labelledby="gallery">
        <h2 id="gallery">{t.t('catalog.gallery.title')}</h2>
        {gallery.entries.length === 0 && !gallery.inherited ? <p>{t.t('catalog.gallery.empty')}</p> : null}
        {gallery.entries.length > 0 ? (
          <ol class="cards gallery">
            {gallery.entries.map((entry, index) => (
              <EntryCard
                page={page}
                productId={product.id}
                gallery={gallery}
                entry={entry}
                index={index}
                count={gallery.entries.length}
                editable={editable}
              />
            ))}
          </ol>
        ) : null}
        {gallery.inherited ? (
          <>
            <p class="hint">{t.t('catalog.gallery.inherited')}</p>
            <ol class="cards gallery">
              {gallery.inherited.entries.map((entry, index) => (
                <EntryCard
                  page={page}
                  productId={gallery.inherited!.productId}
                  gallery={gallery}
                  entry={entry}
                  index={index}
                  count={0}
                  editable={false}
                />
              ))}
            </ol>
          </>
        ) : null}
        {editable ? (
          <form
            method="post"
            action={`${base}/gallery/upload?language=${language}`}
            enctype="multipart/form-data"
            class="card"
            aria-labelledby="upload-title"
          >
            <h3 id="upload-title">{t.t('catalog.upload.title')}</h3>
            <CsrfField token={csrf} />
            <div class="field">
              <label for="upload-file">{t.t('catalog.upload.file')}</label>
              <input
                id="upload-file"
                name="file"
                type="file"
                accept="image/png,image/jpeg,image/webp"
                required
              />
            </div>
            <div class="field">
              <label for="upload-alt">
                {t.t('catalog.upload.alt', { language: t.languageName(language) })}
              </label>
              <input id="upload-alt" name="alt" lang={language} maxlength={500} />
            </div>
            <button type="submit">{t.t('catalog.upload.submit')}</button>
          </form>
        ) : null}
      </section>
      <section aria-labelledby="drafts-title">
        <h2 id="drafts-title">{t.t('catalog.drafts.title')}</h2>
        {provider && !provider.available ? <p class="hint">{t.t('catalog.drafts.unavailable')}</p> : null}
        {provider?.available && provider.model ? (
          <p class="meta">{t.t('catalog.drafts.model', { model: provider.model })}</p>
        ) : null}
        {editable && provider?.available ? (
          gallery.entries.length === 0 ? (
            <p class="hint">{t.t('catalog.drafts.noImages')}</p>
          ) : (
            <form method="post" action={`${base}/drafts?language=${language}`} class="card">
              <CsrfField token={csrf} />
              <input type="hidden" name="key" value={crypto.randomUUID()} />
              <div class="field">
                <label for="draft-instruction">{t.t('catalog.drafts.instruction')}</label>
                <textarea
                  id="draft-instruction"
                  name="instruction"
                  required
                  maxlength={4000}
                  rows={3}
                ></textarea>
              </div>
              <div class="field">
                <label for="draft-source">{t.t('catalog.drafts.source')}</label>
                <select id="draft-source" name="assetId">
                  {gallery.entries.map((entry, index) => (
                    <option value={entry.assetId}>
                      {t.t('catalog.gallery.image', { position: index + 1 })}
                    </option>
                  ))}
                </select>
              </div>
              <fieldset>
                <legend>{t.t('catalog.drafts.mode')}</legend>
                <label>
                  <input type="radio" name="mode" value="optimize" checked />{' '}
                  {t.t('catalog.drafts.mode.optimize')}
                </label>
                <label>
                  <input type="radio" name="mode" value="generate" /> {t.t('catalog.drafts.mode.generate')}
                </label>
              </fieldset>
              <button type="submit">{t.t('catalog.drafts.create')}</button>
            </form>
          )
        ) : null}
        <DraftList page={page} productId={product.id} drafts={drafts} />
      </section>
      {appBlocks}
    </Layout>
  );
}

export function DraftReviewPage(props: {
  page: PageContext;
  product: ProductRow;
  draft: Draft;
  editable: boolean;
  notice?: Notice | undefined;
}) {
  const { page, product, draft, editable, notice } = props;
  const { t, csrf } = page;
  const base = `/admin/products/${product.id}`;
  return (
    <Layout page={page} title={t.t('catalog.review.title')}>
      <p>
        <a href={base}>{t.t('catalog.review.back')}</a>
      </p>
      <h1>{t.t('catalog.review.title')}</h1>
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      <p>{draft.instruction}</p>
      <p>{t.t('catalog.review.status', { status: t.t(`catalog.drafts.status.${draft.status}`) })}</p>
      {draft.failure ? (
        <Message kind="error">{t.t('catalog.review.failure', { detail: draft.failure.message })}</Message>
      ) : null}
      <div class="side-by-side">
        <figure>
          <img
            src={`${base}/assets/${draft.sourceAssetId}`}
            alt={t.t('catalog.review.sourceAlt')}
            width="320"
            height="240"
          />
          <figcaption>{t.t('catalog.review.source')}</figcaption>
        </figure>
        {draft.image ? (
          <figure>
            <img
              src={`${base}/drafts/${draft.id}/image`}
              alt={t.t('catalog.review.draftAlt', { instruction: draft.instruction })}
              width={String(draft.image.width)}
              height={String(draft.image.height)}
            />
            <figcaption>{t.t('catalog.review.draft')}</figcaption>
          </figure>
        ) : null}
      </div>
      {editable && draft.status === 'ready' ? (
        <form method="post" action={`${base}/drafts/${draft.id}/apply`}>
          <CsrfField token={csrf} />
          <input type="hidden" name="revision" value={String(product.revision)} />
          <p class="hint" id="apply-hint">
            {t.t('catalog.review.applyHint')}
          </p>
          <button type="submit" aria-describedby="apply-hint">
            {t.t('catalog.review.apply')}
          </button>
        </form>
      ) : null}
    </Layout>
  );
}
