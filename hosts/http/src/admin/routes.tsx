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
  type BasisCountries,
  type ChannelRead,
  changedFields,
  channelFieldsOf,
  deliveryOf,
  type FormChanges,
  formatRate,
  formChanges,
  formEntries,
  overridesAfter,
  ownSwitchesOf,
  rateFieldsOf,
  renderedValues,
} from './channel-form.ts';
import { type Locale, type MessageKey, pickLocale, translator } from './i18n.ts';
import type { AdminKit, FormBody } from './kit.ts';
import type { PageContext } from './layout.tsx';
import {
  ChannelPage,
  type ChannelSummary,
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

// Channel names are admin labels in the UI languages (decision 0029).
function nameIn(names: Record<string, string>, locale: Locale, fallback: string): string {
  return names[locale] ?? names.en ?? Object.values(names)[0] ?? fallback;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
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
      return render(c, <SettingsPage page={context} channels={channels} />);
    }),
  );

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
    } = {},
  ) => {
    const countries = await basisCountries(context.session!);
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
        rates={rateFieldsOf(read)}
        editable={context.session!.principal.permissions.has('settings.write')}
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
      return channelPage(c, context, read.value, {
        ...(saved && /^\d+$/.test(saved)
          ? { notice: { kind: 'ok' as const, text: context.t.t('saved', { revision: Number(saved) }) } }
          : {}),
      });
    }),
  );

  app.post('/admin/settings/channels/:channelId', async (c) => {
    const checked = await checkedForm(c, false);
    if (checked instanceof Response) return checked;
    const context = checked.page!;
    const session = context.session!;
    const { form } = checked;
    const channelId = c.req.param('channelId') ?? '';
    const language = c.req.query('language');
    if (!UUID.test(channelId) || (language !== undefined && !LANGUAGE.test(language))) {
      return render(c, <ProblemPage page={context} status={404} text={context.t.t('error.notFound')} />, 404);
    }
    const read = await readChannel(session, channelId, language);
    if (!read.ok) return problemOfResult(c, context, read);
    const entries = formEntries(read.value);
    const texts = entries.flatMap((entry) => entry.texts);
    const rates = rateFieldsOf(read.value);
    const changes: FormChanges = formChanges(form, entries, deliveryOf(read.value), context.t.locale, rates);
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
      channel: channelFieldsOf(read.value, changes),
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
      const delivery = deliveryOf(read.value);
      const now = renderedValues(entries, delivery, ownSwitchesOf(read.value), rates);
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
    return channelPage(c, context, read.value, {
      status: 422,
      entered,
      notice: { kind: 'error', text: context.t.t(key, { detail: saved.detail }) },
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
