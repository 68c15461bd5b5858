/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import {
  ADMIN_SESSION_TTL_MS,
  type AdminSession,
  type AnyOperation,
  invokeOperation,
  openAdminSession,
  operations,
  type Result,
  type Services,
  signInWithPassword,
  signInWithToken,
  signOutAdmin,
  switchAdminShop,
} from '@cartwright/service';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { JSX } from 'hono/jsx/jsx-runtime';
import { ADMIN_AREAS } from './areas.ts';
import { ADMIN_ASSETS, ASSET_CACHE } from './assets.ts';
import {
  type BasisCompanyValue,
  type BasisCountries,
  basisCompanyAfter,
  type CategoryRecord,
  type ChannelRead,
  COMPANY_FIELDS,
  categoriesText,
  categoryOptions,
  changedFields,
  channelFieldsOf,
  companyFieldsOf,
  deliveryOf,
  domainsText,
  type FormChanges,
  formatRate,
  formChanges,
  formEntries,
  MODES,
  overridesAfter,
  ownFieldsOf,
  ownSwitchesOf,
  postedCompanyValue,
  postedDomains,
  rateFieldsOf,
  renderedValues,
} from './channel-form.ts';
import { type Locale, type MessageKey, nameIn, pickLocale, translator } from './i18n.ts';
import type { AdminKit, FormBody } from './kit.ts';
import type { PageContext } from './layout.tsx';
import {
  type ChannelCreation,
  ChannelPage,
  type ChannelSummary,
  type CompanyBasis,
  HomePage,
  ProblemPage,
  SettingsPage,
  SignInPage,
} from './pages.tsx';
import {
  ADMIN_POLICY,
  adminCookie,
  clearAdminCookie,
  csrfToken,
  csrfValid,
  LOCALE_COOKIE,
  newSignInNonce,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  sameOrigin,
  setAdminCookie,
} from './security.ts';

// The admin UI (decision 0047): server-rendered pages at /admin that act only through the
// registry's operations with the signed-in member's principal, exactly as the HTTP API would.

const byName = new Map<string, AnyOperation>(operations.map((operation) => [operation.name, operation]));

/** Calls an operation as the session's member (the one door the API uses too). */
function act(services: Services, session: AdminSession, name: string, input: Record<string, unknown>) {
  const operation = byName.get(name);
  if (!operation) throw new Error(`no operation ${name}`);
  return invokeOperation(services, operation, session.principal, input) as Promise<Result<unknown>>;
}

function render(c: Context, node: JSX.Element, status = 200) {
  return c.html(`<!doctype html>${node.toString()}`, status as 200);
}

function localeOf(c: Context): Locale {
  return pickLocale(adminCookie(c, LOCALE_COOKIE), c.req.header('accept-language'));
}

function redirect(c: Context, to: string) {
  c.header('cache-control', 'no-store');
  return c.redirect(to, 303);
}

async function formOf(c: Context): Promise<FormBody | null> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return null;
  try {
    return (await c.req.parseBody()) as FormBody;
  } catch {
    return null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The form field an operation's field error points at: the channel's own fields (`/channel/…`),
 * a domain row's part, a company field of the overrides (`/overrides/company/…`) or of the shop's
 * identity (`/data/<name>`); undefined when the form has no such field.
 */
function fieldOfPointer(pointer: string): string | undefined {
  const domain = /^\/channel\/domains\/(\d+)\/(url|language|currency)$/.exec(pointer);
  if (domain) return `domain:${domain[1]}.${domain[2]}`;
  const own = /^\/channel\/(name|mode|languages|domains|catalog|navigation)(\/|$)/.exec(pointer);
  if (own) return `channel.${own[1]}`;
  if (pointer.startsWith('/overrides/company/')) {
    const key = `company.${pointer.slice('/overrides/company/'.length).replaceAll('/', '.')}`;
    return COMPANY_FIELDS.find((field) => key === field.key || key.startsWith(`${field.key}.`))?.key;
  }
  const basis = /^\/data\/([A-Za-z]+)(?:\/|$)/.exec(pointer);
  return basis ? `basis.${basis[1]}` : undefined;
}

/** A JSON array as the form renders domains and addresses, or null when the text is none. */
function jsonRows(text: string): unknown[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** An operation's field errors at the form's fields; the ones no field shows, as lines of the notice. */
function fieldErrorsOf(failure: { errors?: readonly { pointer: string; message: string }[] }) {
  const errors = new Map<string, string>();
  const unplaced: string[] = [];
  for (const error of failure.errors ?? []) {
    const field = fieldOfPointer(error.pointer);
    if (field && !errors.has(field)) errors.set(field, error.message);
    else if (!field) unplaced.push(`${error.pointer}: ${error.message}`);
  }
  return { errors, unplaced };
}
const LANGUAGE = /^[a-z]{2,3}(-[A-Z]{2})?$/;

/**
 * Registers the admin UI's routes on the HTTP app: /, /admin/*, /docs. Posts under /admin/ are
 * held to `bodyLimitBytes` (the server's default) unless an area gives its path another limit
 * (`kit.limitBody`); a larger body is answered with the 413 page before it is read.
 */
export function mountAdmin(
  app: Hono,
  services: Services,
  apiReferencePath: string,
  bodyLimitBytes = 1024 * 1024,
): void {
  app.get('/', (c) => c.redirect('/admin', 302));
  app.get('/docs', (c) => c.redirect(apiReferencePath, 302));

  for (const asset of Object.values(ADMIN_ASSETS)) {
    app.get(asset.path, (c) =>
      c.body(asset.body, 200, {
        'content-type': asset.contentType,
        'cache-control': ASSET_CACHE,
        'x-content-type-options': 'nosniff',
      }),
    );
  }

  app.use('/admin/*', async (c, next) => {
    await next();
    // A page may bring a stricter or framing policy of its own (the apps area's panel, decision 0047).
    if (!c.res.headers.has('content-security-policy'))
      c.res.headers.set('content-security-policy', ADMIN_POLICY);
    c.res.headers.set('x-content-type-options', 'nosniff');
    if (!c.res.headers.has('x-frame-options')) c.res.headers.set('x-frame-options', 'DENY');
    c.res.headers.set('referrer-policy', 'same-origin');
    if (!c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-store');
  });
  app.use('/admin', async (c, next) => {
    await next();
    c.res.headers.set('content-security-policy', ADMIN_POLICY);
    c.res.headers.set('cache-control', 'no-store');
  });

  // The body limit of /admin/ requests: the host leaves these to the admin so that a refusal is
  // a page in the UI language (413), not the API's problem JSON.
  const bodyLimits: { readonly pattern: RegExp; readonly bytes: number }[] = [];
  const limiters = new Map<number, MiddlewareHandler>();
  const limiterOf = (maxSize: number) => {
    let limiter = limiters.get(maxSize);
    if (!limiter) {
      limiter = bodyLimit({
        maxSize,
        onError: async (c) => {
          const context = (await signedIn(c)) ?? anonymous(c);
          const size = Math.floor((maxSize / (1024 * 1024)) * 10) / 10;
          return render(
            c,
            <ProblemPage page={context} status={413} text={context.t.t('error.tooLarge', { size })} />,
            413,
          );
        },
      });
      limiters.set(maxSize, limiter);
    }
    return limiter;
  };
  app.use('/admin/*', (c, next) => {
    const bytes = bodyLimits.find((limit) => limit.pattern.test(c.req.path))?.bytes ?? bodyLimitBytes;
    return limiterOf(bytes)(c, next);
  });

  /** The page context of a signed-in request, or null when it is not signed in. */
  const signedIn = async (c: Context): Promise<PageContext | null> => {
    const secret = adminCookie(c, SESSION_COOKIE);
    const session = await openAdminSession(services, secret);
    if (!session.ok) return null;
    return {
      t: translator(localeOf(c)),
      session: session.value,
      csrf: csrfToken(secret!, 'session'),
      path: c.req.path,
    };
  };

  /** The sign-in page's context: a sign-in nonce cookie binds its CSRF token. */
  const anonymous = (c: Context): PageContext => {
    let nonce = adminCookie(c, SIGN_IN_COOKIE);
    if (!nonce || !/^[A-Za-z0-9_-]{43}$/.test(nonce)) {
      nonce = newSignInNonce();
      setAdminCookie(c, SIGN_IN_COOKIE, nonce, 60 * 60);
    }
    return { t: translator(localeOf(c)), csrf: csrfToken(nonce, 'sign-in'), path: c.req.path };
  };

  /**
   * The form of a post, after the Origin and CSRF checks: the token must be the session's (or,
   * with `signInAllowed` and no session, the sign-in cookie's). A refusal is a 403 page.
   */
  const checkedForm = async (
    c: Context,
    signInAllowed: boolean,
  ): Promise<{ form: FormBody; page: PageContext | null } | Response> => {
    const page = await signedIn(c);
    const form = await formOf(c);
    const secret = page ? adminCookie(c, SESSION_COOKIE) : adminCookie(c, SIGN_IN_COOKIE);
    const purpose = page ? 'session' : 'sign-in';
    const valid =
      sameOrigin(c) &&
      form !== null &&
      (page !== null || signInAllowed) &&
      csrfValid(secret, purpose, form.csrf);
    if (!valid) {
      const context = page ?? anonymous(c);
      return render(c, <ProblemPage page={context} status={403} text={context.t.t('error.csrf')} />, 403);
    }
    return { form, page };
  };

  app.get('/admin/sign-in', (c) => {
    return signedIn(c).then((page) => render(c, <SignInPage page={page ?? anonymous(c)} />));
  });

  app.post('/admin/sign-in', async (c) => {
    const checked = await checkedForm(c, true);
    if (checked instanceof Response) return checked;
    const { form, page } = checked;
    const current = adminCookie(c, SESSION_COOKIE);
    const token = typeof form.token === 'string' ? form.token : '';
    const result =
      token !== ''
        ? await signInWithToken(services, token, current)
        : await signInWithPassword(
            services,
            typeof form.email === 'string' ? form.email : '',
            typeof form.password === 'string' ? form.password : '',
            current,
          );
    if (!result.ok) {
      return render(c, <SignInPage page={page ?? anonymous(c)} error={result.detail} />, 401);
    }
    setAdminCookie(c, SESSION_COOKIE, result.value.secret, Math.floor(ADMIN_SESSION_TTL_MS / 1000));
    clearAdminCookie(c, SIGN_IN_COOKIE);
    return redirect(c, '/admin');
  });

  app.post('/admin/sign-out', async (c) => {
    const checked = await checkedForm(c, false);
    if (checked instanceof Response) return checked;
    await signOutAdmin(services, adminCookie(c, SESSION_COOKIE));
    clearAdminCookie(c, SESSION_COOKIE);
    return redirect(c, '/admin/sign-in');
  });

  app.post('/admin/locale', async (c) => {
    const checked = await checkedForm(c, true);
    if (checked instanceof Response) return checked;
    const locale = pickLocale(String(checked.form.locale ?? ''), undefined);
    setAdminCookie(c, LOCALE_COOKIE, locale, 365 * 24 * 60 * 60);
    const back = c.req.header('referer');
    const path = back ? new URL(back, c.req.url).pathname : '/admin';
    return redirect(c, path.startsWith('/admin') ? path : '/admin');
  });

  app.post('/admin/shop', async (c) => {
    const checked = await checkedForm(c, false);
    if (checked instanceof Response) return checked;
    const { form, page } = checked;
    const tenantId = String(form.tenantId ?? '');
    const switched = UUID.test(tenantId)
      ? await switchAdminShop(services, page!.session!, tenantId)
      : ({ ok: false } as const);
    if (!switched.ok) {
      return render(c, <ProblemPage page={page!} status={404} text={page!.t.t('error.notFound')} />, 404);
    }
    return redirect(c, '/admin');
  });

  /** Pages that need a session: redirect to sign-in without one. */
  const page =
    (handler: (c: Context, page: PageContext, session: AdminSession) => Promise<Response>) =>
    async (c: Context) => {
      const context = await signedIn(c);
      if (!context) return redirect(c, '/admin/sign-in');
      return handler(c, context, context.session!);
    };

  /** The channels the member may read, named in the UI language (null: no settings.read). */
  const channelsOf = async (session: AdminSession, locale: Locale): Promise<ChannelSummary[] | null> => {
    if (!session.principal.permissions.has('settings.read')) return null;
    const listed = await act(services, session, 'automation.list', {});
    if (!listed.ok) return null;
    const { channels } = listed.value as {
      channels: { id: string; isMain: boolean; data: { name?: Record<string, string> }; updatedAt: string }[];
    };
    return channels.map((channel) => ({
      id: channel.id,
      isMain: channel.isMain,
      name: nameIn(channel.data.name ?? {}, locale, channel.id),
      updatedAt: channel.updatedAt,
    }));
  };

  app.get(
    '/admin',
    page(async (c, context, session) =>
      render(c, <HomePage page={context} channels={await channelsOf(session, context.t.locale)} />),
    ),
  );

  app.get(
    '/admin/settings',
    page(async (c, context, session) => {
      const channels = await channelsOf(session, context.t.locale);
      if (channels === null) {
        return render(
          c,
          <ProblemPage page={context} status={404} text={context.t.t('error.notFound')} />,
          404,
        );
      }
      return render(
        c,
        <SettingsPage
          page={context}
          channels={channels}
          create={await creationOf(session)}
          notice={
            c.req.query('deleted') === '1' ? { kind: 'ok', text: context.t.t('settings.deleted') } : undefined
          }
        />,
      );
    }),
  );

  /** The "new sales channel" form's languages (the shop's enabled ones), when the member may create. */
  const creationOf = async (session: AdminSession): Promise<ChannelCreation | undefined> => {
    if (!session.principal.permissions.has('settings.write')) return undefined;
    return { languages: await shopLanguages(session) };
  };

  /** The sorted codes of the active items a basis list names (none when it is refused). */
  const activeCodes = async (
    session: AdminSession,
    operation: 'basis.languages.list' | 'basis.currencies.list',
  ): Promise<string[]> => {
    const listed = await act(services, session, operation, {});
    if (!listed.ok) return [];
    const { items } = listed.value as { items: { code: string; active: boolean }[] };
    return items
      .filter((item) => item.active)
      .map((item) => item.code)
      .sort();
  };

  /** The shop's enabled languages (`basis.languages.list`). */
  const shopLanguages = (session: AdminSession) => activeCodes(session, 'basis.languages.list');

  /**
   * The shop's categories for a channel's catalog and navigation (`catalog.categories.list`); none
   * when the member may not read the catalog (the channel's own choices then show by id).
   */
  const shopCategories = async (session: AdminSession, locale: string, mainLanguage: string) => {
    if (!session.principal.permissions.has('catalog.read')) return [];
    const listed = await act(services, session, 'catalog.categories.list', {});
    if (!listed.ok) return [];
    return categoryOptions((listed.value as { items: CategoryRecord[] }).items, locale, mainLanguage);
  };

  /** The shop's active currencies (`basis.currencies.list`): a domain's currency is one of them. */
  const shopCurrencies = (session: AdminSession) => activeCodes(session, 'basis.currencies.list');

  // A new sales channel: its name in the UI language, mode and languages, saved at revision 0
  // under a new id against the basis revision the main channel reads.
  app.post('/admin/settings/channels', async (c) => {
    const checked = await checkedForm(c, false);
    if (checked instanceof Response) return checked;
    const context = checked.page!;
    const session = context.session!;
    const { form } = checked;
    const channels = await channelsOf(session, context.t.locale);
    const create = await creationOf(session);
    if (channels === null || !create) return problemOfResult(c, context, { code: 'FORBIDDEN', detail: '' });
    const name = (typeof form['text:channel.name'] === 'string' ? form['text:channel.name'] : '')
      .trim()
      .slice(0, 200);
    const mode = MODES.find((candidate) => candidate === form['choice:channel.mode']) ?? 'storefront';
    const languages = create.languages.filter((code) => form[`language:${code}`] === 'on');
    const refused = (status: number, errors: Map<string, string>, text?: string) =>
      render(
        c,
        <SettingsPage
          page={context}
          channels={channels}
          create={{ ...create, entered: { name, mode, languages }, errors }}
          notice={{ kind: 'error', text: text ?? context.t.t('error.fields', { count: errors.size }) }}
        />,
        status,
      );
    if (name === '') {
      return refused(422, new Map([['channel.name', context.t.t('error.nameRequired')]]));
    }
    const main = channels.find((channel) => channel.isMain);
    const basis = main ? await readChannel(session, main.id, undefined) : undefined;
    if (!basis?.ok) return problemOfResult(c, context, basis ?? { code: 'NOT_FOUND', detail: '' });
    const channelId = crypto.randomUUID();
    const saved = await act(services, session, 'merchant.commerce.save', {
      channelId,
      revision: 0,
      baseRevision: basis.value.baseRevision,
      channel: {
        name: { [context.t.locale]: name },
        mode,
        paused: false,
        private: false,
        languages,
        domains: [],
      },
      overrides: {},
    });
    if (saved.ok) return redirect(c, `/admin/settings/channels/${channelId}?saved=1`);
    if (saved.code === 'FORBIDDEN') return problemOfResult(c, context, saved);
    const { errors, unplaced } = fieldErrorsOf(saved);
    return refused(
      422,
      errors,
      [context.t.t('error.refused', { detail: saved.detail }), ...unplaced].join(' '),
    );
  });

  /**
   * A checked post on `/admin/settings/channels/:channelId…`: its form, page, session and channel id
   * (404 for an id that is no UUID).
   */
  const channelPost = async (c: Context) => {
    const checked = await checkedForm(c, false);
    if (checked instanceof Response) return checked;
    const context = checked.page!;
    const channelId = c.req.param('channelId') ?? '';
    if (!UUID.test(channelId)) return notFound(c, context);
    return { form: checked.form, context, session: context.session!, channelId };
  };

  // Deletes a non-main channel at its revision; the operation's refusal (a channel in use) is shown
  // on the channel's page with what keeps it.
  app.post('/admin/settings/channels/:channelId/delete', async (c) => {
    const posted = await channelPost(c);
    if (posted instanceof Response) return posted;
    const { form, context, session, channelId } = posted;
    const read = await readChannel(session, channelId, undefined);
    if (!read.ok) return problemOfResult(c, context, read);
    const t = context.t;
    if (form.confirm !== 'on') {
      return channelPage(c, context, read.value, {
        status: 422,
        notice: { kind: 'error', text: t.t('error.confirm') },
      });
    }
    const revision = Number(form.revision);
    const deleted = await act(services, session, 'merchant.commerce.delete', {
      channelId,
      revision: Number.isInteger(revision) ? revision : -1,
    });
    if (deleted.ok) return redirect(c, '/admin/settings?deleted=1');
    if (deleted.code === 'FORBIDDEN') return problemOfResult(c, context, deleted);
    const blockers = (deleted.extensions?.blockers ?? []) as { kind: string; count: number }[];
    return channelPage(c, context, read.value, {
      status: deleted.code === 'STALE_REVISION' ? 409 : 422,
      notice: {
        kind: 'error',
        text: t.t('channel.deleteRefused', { detail: deleted.detail }),
        items: blockers.map((blocker) =>
          t.t('channel.blocker', { kind: blocker.kind, count: blocker.count }),
        ),
      },
    });
  });

  // The shop's company identity (the basis every channel inherits field by field), edited on the
  // main channel's page: only the fields changed since the form was rendered are written.
  app.post('/admin/settings/channels/:channelId/company', async (c) => {
    const posted = await channelPost(c);
    if (posted instanceof Response) return posted;
    const { form, context, session, channelId } = posted;
    const read = await readChannel(session, channelId, undefined);
    if (!read.ok) return problemOfResult(c, context, read);
    if (!read.value.isMain) return notFound(c, context);
    const stored = await act(services, session, 'company.get', {});
    if (!stored.ok) return problemOfResult(c, context, stored);
    const { data } = stored.value as { data: Record<string, BasisCompanyValue> | null };
    const revision = Number(form.companyRevision);
    const after = basisCompanyAfter(data, form);
    const back = `/admin/settings/channels/${channelId}`;
    if (after.changed.length === 0) return redirect(c, back);
    const entered = new Map<string, string>();
    for (const [name, value] of Object.entries(form)) {
      if (name.startsWith('basis:') && typeof value === 'string')
        entered.set(`basis.${name.slice(6)}`, value);
    }
    const saved = await act(services, session, 'company.save', {
      revision: Number.isInteger(revision) ? revision : -1,
      data: after.data,
    });
    if (saved.ok) {
      const { revision: now } = saved.value as { revision: number };
      return redirect(c, `${back}?companySaved=${now}`);
    }
    if (saved.code === 'FORBIDDEN') return problemOfResult(c, context, saved);
    const { errors, unplaced } = fieldErrorsOf(saved);
    const t = context.t;
    return channelPage(c, context, read.value, {
      status: saved.code === 'STALE_REVISION' ? 409 : 422,
      company: {
        entered,
        errors,
        notice:
          saved.code === 'STALE_REVISION'
            ? { kind: 'warning', text: t.t('company.stale') }
            : {
                kind: 'error',
                text: [t.t('error.refused', { detail: saved.detail }), ...unplaced].join(' '),
              },
      },
    });
  });

  /** Reads a channel in a content language through `merchant.commerce.read`. */
  const readChannel = async (session: AdminSession, channelId: string, language: string | undefined) => {
    const read = await act(services, session, 'merchant.commerce.read', {
      channelId,
      ...(language ? { language } : {}),
    });
    return read as Result<ChannelRead>;
  };

  const problemOfResult = (
    c: Context,
    context: PageContext,
    failure: { code: string; detail: string },
  ): Response => {
    const status = failure.code === 'NOT_FOUND' ? 404 : failure.code === 'FORBIDDEN' ? 403 : 422;
    const text =
      failure.code === 'FORBIDDEN'
        ? context.t.t('error.forbidden')
        : context.t.t('error.refused', { detail: failure.detail });
    return render(c, <ProblemPage page={context} status={status} text={text} />, status);
  };

  /** The shared basis's countries with their translations (marks names the content language lacks). */
  const basisCountries = async (session: AdminSession): Promise<BasisCountries> => {
    const listed = await act(services, session, 'basis.countries.list', {});
    if (!listed.ok) return {};
    const { items } = listed.value as { items: ({ code: string } & BasisCountries[string])[] };
    return Object.fromEntries(items.map((item) => [item.code, item]));
  };

  const channelPage = async (
    c: Context,
    context: PageContext,
    read: ChannelRead,
    extra: {
      status?: number;
      notice?: { kind: 'ok' | 'error' | 'warning'; text: string; items?: readonly string[] };
      entered?: ReadonlyMap<string, string>;
      errors?: ReadonlyMap<string, string>;
      /** The main channel's company form after a refused save: entries, field errors, its message. */
      company?: Pick<CompanyBasis, 'entered' | 'errors' | 'notice'>;
    } = {},
  ) => {
    const session = context.session!;
    const editable = session.principal.permissions.has('settings.write');
    const [countries, currencies, company, categories] = await Promise.all([
      basisCountries(session),
      editable ? shopCurrencies(session) : Promise.resolve([]),
      read.isMain ? act(services, session, 'company.get', {}) : Promise.resolve(undefined),
      shopCategories(session, context.t.locale, read.mainLanguage),
    ]);
    const languages = Array.isArray(read.channel.languages)
      ? (read.channel.languages as string[])
      : [read.mainLanguage];
    const names = (read.channel.name ?? {}) as Record<string, string>;
    return render(
      c,
      <ChannelPage
        page={context}
        channelId={read.id}
        name={nameIn(names, context.t.locale, read.id)}
        language={read.language}
        mainLanguage={read.mainLanguage}
        languages={languages.includes(read.language) ? languages : [read.language, ...languages]}
        revision={read.revision}
        baseRevision={read.baseRevision}
        entries={formEntries(read)}
        delivery={deliveryOf(read, countries)}
        own={ownSwitchesOf(read)}
        isMain={read.isMain}
        fields={ownFieldsOf(read, context.t.locale, categories)}
        currencies={currencies}
        company={companyFieldsOf(read)}
        companyBasis={
          company?.ok
            ? {
                ...(company.value as { data: Record<string, BasisCompanyValue> | null; revision: number }),
                editable,
                ...extra.company,
              }
            : undefined
        }
        errors={extra.errors}
        rates={rateFieldsOf(read)}
        editable={editable}
        notice={extra.notice}
        entered={extra.entered}
      />,
      extra.status ?? 200,
    );
  };

  app.get(
    '/admin/settings/channels/:channelId',
    page(async (c, context, session) => {
      const channelId = c.req.param('channelId') ?? '';
      const language = c.req.query('language');
      if (!UUID.test(channelId) || (language !== undefined && !LANGUAGE.test(language))) {
        return render(
          c,
          <ProblemPage page={context} status={404} text={context.t.t('error.notFound')} />,
          404,
        );
      }
      const read = await readChannel(session, channelId, language);
      if (!read.ok) return problemOfResult(c, context, read);
      const saved = c.req.query('saved');
      const companySaved = c.req.query('companySaved');
      return channelPage(c, context, read.value, {
        ...(saved && /^\d+$/.test(saved)
          ? { notice: { kind: 'ok' as const, text: context.t.t('saved', { revision: Number(saved) }) } }
          : {}),
        ...(companySaved && /^\d+$/.test(companySaved)
          ? {
              company: {
                notice: {
                  kind: 'ok' as const,
                  text: context.t.t('company.saved', { revision: Number(companySaved) }),
                },
              },
            }
          : {}),
      });
    }),
  );

  app.post('/admin/settings/channels/:channelId', async (c) => {
    const posted = await channelPost(c);
    if (posted instanceof Response) return posted;
    const { form, context, session, channelId } = posted;
    const language = c.req.query('language');
    if (language !== undefined && !LANGUAGE.test(language)) return notFound(c, context);
    const read = await readChannel(session, channelId, language);
    if (!read.ok) return problemOfResult(c, context, read);
    const entries = formEntries(read.value);
    const texts = entries.flatMap((entry) => entry.texts);
    const rates = rateFieldsOf(read.value);
    const fields = ownFieldsOf(read.value, context.t.locale);
    const company = companyFieldsOf(read.value);
    const changes: FormChanges = formChanges(form, entries, deliveryOf(read.value), context.t.locale, rates, {
      fields,
      isMain: read.value.isMain,
    });
    const revision = Number(form.revision);
    const baseRevision = Number(form.baseRevision);
    const entered = new Map<string, string>();
    for (const text of texts) {
      const value = form[`text:${text.key}`];
      if (typeof value === 'string') entered.set(text.key, value);
    }
    for (const [name, value] of Object.entries(form)) {
      if ((name.startsWith('amount:') || name.startsWith('rate:')) && typeof value === 'string') {
        entered.set(name, value);
      }
    }
    // The own fields and company fields as entered (the form's text of each), kept on a refusal.
    if (typeof form['text:channel.name'] === 'string') entered.set('channel.name', form['text:channel.name']);
    if (typeof form['choice:channel.mode'] === 'string')
      entered.set('channel.mode', form['choice:channel.mode']);
    if (typeof form['was:channel.languages'] === 'string') {
      entered.set(
        'channel.languages',
        fields.shopLanguages.filter((code) => form[`language:${code}`] === 'on').join(','),
      );
    }
    if (typeof form['was:channel.domains'] === 'string')
      entered.set('channel.domains', domainsText(postedDomains(form)));
    if (changes.own.catalog !== undefined)
      entered.set('channel.catalog', categoriesText(changes.own.catalog?.categoryIds ?? []));
    if (typeof form['choice:channel.navigation'] === 'string')
      entered.set('channel.navigation', form['choice:channel.navigation']);
    for (const field of company) {
      const posted = postedCompanyValue(form, field.key, field.kind);
      if (posted) entered.set(field.key, posted.text);
    }
    const names = { ...fields.names };
    if (changes.own.name === '') delete names[context.t.locale];
    if (changes.own.name !== undefined && Object.keys(names).length === 0) {
      return channelPage(c, context, read.value, {
        status: 422,
        entered,
        errors: new Map([['channel.name', context.t.t('error.nameRequired')]]),
        notice: { kind: 'error', text: context.t.t('error.fields', { count: 1 }) },
      });
    }
    if (changes.invalid.length > 0) {
      return channelPage(c, context, read.value, {
        status: 422,
        entered,
        notice: { kind: 'error', text: context.t.t('error.amount', { count: changes.invalid.length }) },
      });
    }
    const saved = await act(services, session, 'merchant.commerce.save', {
      channelId,
      revision: Number.isInteger(revision) ? revision : -1,
      baseRevision: Number.isInteger(baseRevision) ? baseRevision : -1,
      language: read.value.language,
      channel: channelFieldsOf(read.value, changes, context.t.locale),
      overrides: overridesAfter(read.value, changes),
    });
    if (saved.ok) {
      const { revision: now } = saved.value as { revision: number };
      return redirect(
        c,
        `/admin/settings/channels/${channelId}?language=${encodeURIComponent(read.value.language)}&saved=${now}`,
      );
    }
    if (saved.code === 'STALE_REVISION') {
      // What changed since the form was rendered: the values it was rendered with (`was:`) against now.
      const categories = await shopCategories(session, context.t.locale, read.value.mainLanguage);
      const delivery = deliveryOf(read.value);
      const now = renderedValues(entries, delivery, ownSwitchesOf(read.value), rates, {
        fields,
        isMain: read.value.isMain,
        company,
      });
      const before = new Map<string, string>();
      for (const key of now.keys()) {
        const was = form[`was:${key}`];
        if (typeof was === 'string') before.set(key, was);
      }
      const changed = changedFields(before, now);
      const t = context.t;
      const entryOf = (key: string) =>
        entries.find((candidate) => key.startsWith(`${candidate.area}.${candidate.id}.`));
      const labelOf = (key: string) => {
        if (key === delivery.key) return t.t('channel.delivery');
        if (key.startsWith('taxRates.')) {
          const field = rates.find((candidate) => candidate.key === key);
          return t.t('field.rateOf', { taxClass: field?.title ?? key, place: placeName(field?.place ?? '') });
        }
        if (key === 'channel.paused') return t.t('field.paused');
        if (key === 'channel.private') return t.t('field.private');
        if (key === 'channel.name') return t.t('field.channelName', { language: t.languageName(t.locale) });
        if (key === 'channel.mode') return t.t('field.mode');
        if (key === 'channel.languages') return t.t('field.languages');
        if (key === 'channel.domains') return t.t('field.domains');
        if (key === 'channel.catalog') return t.t('field.catalog');
        if (key === 'channel.navigation') return t.t('field.navigation');
        if (key.startsWith('company.')) return t.t('company.field', { field: key.split('.').at(-1)! });
        const title = entryOf(key)?.title ?? key;
        const field = key.split('.')[2];
        if (field === 'active') return t.t('field.active', { method: title });
        if (field === 'prices') return t.t('field.pricesOf', { method: title });
        if (field === 'label') return t.t('field.labelOf', { label: title });
        return field === 'description'
          ? t.t('field.descriptionOf', { method: title })
          : t.t('field.nameOf', { method: title });
      };
      const shown = (key: string, value: string) => {
        if (key === 'channel.name') return value;
        const categoryName = (id: string) => categories.find((category) => category.id === id)?.name ?? id;
        if (key === 'channel.catalog')
          return value === '' ? t.t('catalog.whole') : value.split(',').map(categoryName).join(', ');
        if (key === 'channel.navigation') return value === '' ? t.t('navigation.none') : categoryName(value);
        if (key === 'channel.mode') return t.t('mode.label', { mode: value });
        if (key === 'channel.languages') {
          return value
            .split(',')
            .filter((code) => code !== '')
            .map((code) => t.languageName(code))
            .join(', ');
        }
        // `before` comes from the posted form: anything that is not the rendered JSON shows as sent.
        const rows = key === 'channel.domains' || key === 'company.contact.address' ? jsonRows(value) : null;
        if (key === 'channel.domains' && rows) {
          return rows.map((row) => (Array.isArray(row) ? `${row[0]} (${row[1]}, ${row[2]})` : '')).join(', ');
        }
        if (key === 'company.contact.address' && rows) {
          return rows.filter((part) => typeof part === 'string' && part !== '').join(', ');
        }
        if (key.startsWith('company.')) return value.split('\n').join(', ');
        if (key.endsWith('.active') || key.startsWith('channel.')) {
          return t.t(value === 'true' ? 'value.yes' : 'value.no');
        }
        if (key.startsWith('taxRates.')) {
          return value === 'null' ? t.t('empty.text') : `${formatRate(Number(value), t.locale)} %`;
        }
        if (key.endsWith('.prices')) {
          return value
            .split('|')
            .filter((row) => row !== '')
            .map((row) => {
              const [currency = '', gross = '0', net = '0'] = row.split(':');
              return `${t.money(Number(gross), currency)} / ${t.money(Number(net), currency)}`;
            })
            .join(', ');
        }
        if (key === delivery.key) {
          const names = new Map(delivery.countries.map((country) => [country.code, country.name]));
          return value === ''
            ? t.t('empty.text')
            : value
                .split(',')
                .map((code) => names.get(code) ?? code)
                .join(', ');
        }
        return value;
      };
      const placeName = (place: string) =>
        place === 'default'
          ? t.t('place.all')
          : (delivery.countries.find((country) => country.code === place)?.name ?? place);
      const empty = (text: string) => (text === '' ? t.t('empty.text') : text);
      return channelPage(c, context, read.value, {
        status: 409,
        entered,
        notice: {
          kind: 'warning',
          text: `${t.t('stale.title')}. ${t.t('stale.body')}`,
          items: [
            ...(changed.length === 0
              ? [t.t('stale.none')]
              : changed.map((item) =>
                  t.t('stale.field', {
                    field: labelOf(item.key),
                    now: empty(shown(item.key, item.now)),
                    before: empty(shown(item.key, item.before)),
                  }),
                )),
            t.t('stale.retry'),
          ],
        },
      });
    }
    if (saved.code === 'FORBIDDEN') return problemOfResult(c, context, saved);
    const key: MessageKey = 'error.refused';
    const { errors, unplaced } = fieldErrorsOf(saved);
    return channelPage(c, context, read.value, {
      status: 422,
      entered,
      errors,
      notice: {
        kind: 'error',
        text: context.t.t(key, { detail: saved.detail }),
        items: [
          ...(errors.size > 0 ? [context.t.t('error.fields', { count: errors.size })] : []),
          ...unplaced,
        ],
      },
    });
  });

  const notFound = (c: Context, context: PageContext) =>
    render(c, <ProblemPage page={context} status={404} text={context.t.t('error.notFound')} />, 404);
  const kit: AdminKit = {
    services,
    act: (session, name, input) => act(services, session, name, input),
    render: (c, node, status) => render(c, node, status),
    redirect,
    page,
    async checkedForm(c) {
      const checked = await checkedForm(c, false);
      if (checked instanceof Response) return checked;
      return { form: checked.form, page: checked.page!, session: checked.page!.session! };
    },
    problem: problemOfResult,
    notFound,
    limitBody(path, bytes) {
      const source = path
        .split('/')
        .map((segment) =>
          segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/');
      bodyLimits.push({ pattern: new RegExp(`^${source}$`), bytes });
    },
  };
  for (const mountArea of ADMIN_AREAS) mountArea(app, kit);

  app.all('/admin/*', async (c) => {
    const context = (await signedIn(c)) ?? anonymous(c);
    return render(c, <ProblemPage page={context} status={404} text={context.t.t('error.notFound')} />, 404);
  });
}
