/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AdminSession } from '@cartwright/service';
import type { Child } from 'hono/jsx';
import { ADMIN_ASSETS } from './assets.ts';
import { LOCALES, type Translator } from './i18n.ts';

/** What every admin page is rendered with. */
export interface PageContext {
  readonly t: Translator;
  /** The signed-in session (absent on the sign-in page). */
  readonly session?: AdminSession | undefined;
  /** The CSRF token every form of this page carries. */
  readonly csrf: string;
  /** The request's path (marks the current navigation entry). */
  readonly path: string;
}

// htmx: no inline indicator styles (the CSP refuses them), no eval; 4xx answers (a refused or
// stale save re-rendered with its message) are swapped like 2xx.
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
  // No page snapshots in the tab's storage (they would hold CSRF tokens, a new token's secret,
  // customer data): going back loads the page again from the server.
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '4..', swap: true, error: false },
    { code: '...', swap: false, error: true },
  ],
});

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="csrf" value={token} />;
}

function NavLink({ href, path, children }: { href: string; path: string; children: Child }) {
  const current = href === '/admin' ? path === '/admin' : path.startsWith(href);
  return (
    <li>
      <a href={href} aria-current={current ? 'page' : undefined}>
        {children}
      </a>
    </li>
  );
}

function Header({ page }: { page: PageContext }) {
  const { t, session, csrf } = page;
  const current = session?.principal.tenantId;
  return (
    <header class="top">
      <p class="brand">{t.t('appName')}</p>
      {session ? (
        <a href="/admin/sign-in" class="meta">
          {t.t('shop.add')}
        </a>
      ) : null}
      {session && session.shops.length > 1 ? (
        <form method="post" action="/admin/shop">
          <CsrfField token={csrf} />
          <label for="shop-switch">{t.t('shop.label')}</label>
          <select id="shop-switch" name="tenantId">
            {session.shops.map((shop) => (
              <option value={shop.tenantId} selected={shop.tenantId === current}>
                {shop.name}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            {t.t('shop.switch')}
          </button>
        </form>
      ) : session ? (
        <p>
          {t.t('shop.label')}: {session.shops.find((shop) => shop.tenantId === current)?.name}
        </p>
      ) : null}
      <form method="post" action="/admin/locale">
        <CsrfField token={csrf} />
        <label for="ui-locale">{t.t('uiLanguage.label')}</label>
        <select id="ui-locale" name="locale">
          {LOCALES.map((locale) => (
            <option value={locale} selected={locale === t.locale} lang={locale}>
              {new Intl.DisplayNames([locale], { type: 'language' }).of(locale)}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">
          {t.t('uiLanguage.apply')}
        </button>
      </form>
      {session ? (
        <form method="post" action="/admin/sign-out">
          <CsrfField token={csrf} />
          <span class="meta">{t.t('session.who', { role: session.principal.role })}</span>{' '}
          <button type="submit" class="secondary">
            {t.t('signOut')}
          </button>
        </form>
      ) : null}
    </header>
  );
}

/** The page shell: landmarks (banner, navigation, main), a skip link, one stylesheet and two scripts. */
export function Layout({ page, title, children }: { page: PageContext; title: string; children: Child }) {
  const { t, session, path } = page;
  const reads = session?.principal.permissions;
  return (
    <html lang={t.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content={HTMX_CONFIG} />
        <title>{`${title} · ${t.t('appName')}`}</title>
        <link rel="stylesheet" href={ADMIN_ASSETS.style.path} />
        <script src={ADMIN_ASSETS.htmx.path} defer></script>
        <script src={ADMIN_ASSETS.script.path} defer></script>
      </head>
      <body hx-boost="true">
        <a class="skip" href="#content">
          {t.t('skipToContent')}
        </a>
        <Header page={page} />
        {session ? (
          <nav class="main" aria-label={t.t('nav.label')}>
            <ul>
              <NavLink href="/admin" path={path}>
                {t.t('nav.home')}
              </NavLink>
              {reads?.has('settings.read') ? (
                <NavLink href="/admin/settings" path={path}>
                  {t.t('nav.settings')}
                </NavLink>
              ) : null}
              {reads?.has('settings.read') ? (
                <NavLink href="/admin/rules" path={path}>
                  {t.t('rules.nav')}
                </NavLink>
              ) : null}
              {reads?.has('settings.read') ? (
                <NavLink href="/admin/flows" path={path}>
                  {t.t('flows.nav')}
                </NavLink>
              ) : null}
              {reads?.has('catalog.read') ? (
                <NavLink href="/admin/products" path={path}>
                  {t.t('catalog.nav')}
                </NavLink>
              ) : null}
              {reads?.has('catalog.read') ? (
                <NavLink href="/admin/reviews" path={path}>
                  {t.t('reviews.nav')}
                </NavLink>
              ) : null}
              {reads?.has('orders.read') ? (
                <NavLink href="/admin/orders" path={path}>
                  {t.t('orders.nav')}
                </NavLink>
              ) : null}
              {reads?.has('customers.read') ? (
                <NavLink href="/admin/customers" path={path}>
                  {t.t('customers.nav')}
                </NavLink>
              ) : null}
              {reads?.has('orders.read') ? (
                <NavLink href="/admin/payments" path={path}>
                  {t.t('orders.nav.payments')}
                </NavLink>
              ) : null}
              {reads?.has('settings.read') ? (
                <NavLink href="/admin/intelligence" path={path}>
                  {t.t('intelligence.nav')}
                </NavLink>
              ) : null}
              {reads?.has('apps.read') ? (
                <NavLink href="/admin/apps" path={path}>
                  {t.t('apps.nav')}
                </NavLink>
              ) : null}
              {reads?.has('settings.read') ? (
                <NavLink href="/admin/events" path={path}>
                  {t.t('events.nav')}
                </NavLink>
              ) : null}
              {reads?.has('members.manage') ? (
                <NavLink href="/admin/team" path={path}>
                  {t.t('team.nav')}
                </NavLink>
              ) : null}
              <li>
                <a href="/docs" hx-boost="false">
                  {t.t('nav.apiDocs')}
                </a>
              </li>
            </ul>
          </nav>
        ) : null}
        <main id="content">{children}</main>
      </body>
    </html>
  );
}

/**
 * The content language chosen once above a form (a GET to `action` with `?language=`): names and
 * descriptions below follow it.
 */
export function ContentLanguageBar(props: {
  page: PageContext;
  action: string;
  languages: readonly string[];
  language: string;
  label: string;
  apply: string;
  hint?: string | undefined;
}) {
  const { t } = props.page;
  return (
    <form method="get" action={props.action} class="language-bar">
      <div>
        <label for="content-language">{props.label}</label>
        <select
          id="content-language"
          name="language"
          aria-describedby={props.hint ? 'content-language-hint' : undefined}
        >
          {props.languages.map((code) => (
            <option value={code} selected={code === props.language}>
              {t.languageName(code)}
            </option>
          ))}
        </select>
        {props.hint ? (
          <p class="hint" id="content-language-hint">
            {props.hint}
          </p>
        ) : null}
      </div>
      <button type="submit" class="secondary">
        {props.apply}
      </button>
    </form>
  );
}

/** A message to the reader: `status` (polite) for success, `alert` for errors and conflicts. */
export function Message({ kind, children }: { kind: 'ok' | 'error' | 'warning'; children: Child }) {
  return (
    <div
      class={kind === 'ok' ? 'message' : `message ${kind}`}
      role={kind === 'ok' ? 'status' : 'alert'}
      data-focus
    >
      {children}
    </div>
  );
}

/** A notice as a `Message`: its text and, when there are any, the items it lists (problems, reasons). */
export function NoticeMessage({
  kind,
  text,
  items,
}: {
  kind: 'ok' | 'error' | 'warning';
  text: string;
  items?: readonly string[] | undefined;
}) {
  return (
    <Message kind={kind}>
      <p>{text}</p>
      {items && items.length > 0 ? (
        <ul>
          {items.map((item) => (
            <li>{item}</li>
          ))}
        </ul>
      ) : null}
    </Message>
  );
}
