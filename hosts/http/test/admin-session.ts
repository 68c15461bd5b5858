import type { Harness } from './harness.ts';

/** A signed-in admin session in process (cookies kept by hand), for tests without a browser. */
export interface AdminSessionClient {
  get(path: string): Promise<{ status: number; html: string; location: string | null }>;
  post(
    path: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; html: string; location: string | null }>;
  readonly csrf: string;
  /** The session's cookies (its session and UI language), for requests made by hand. */
  readonly cookie: string;
}

/** Signs `token` (any member) in to the admin by the sign-in form: the session's cookie. */
export async function adminCookie(h: Harness, token: string): Promise<string> {
  const signInPage = await h.app.request('/admin/sign-in');
  const preCookie = signInPage.headers.getSetCookie()[0]!.split(';')[0]!;
  const signInCsrf = /name="csrf" value="([^"]+)"/.exec(await signInPage.text())![1]!;
  const signed = await h.app.request('/admin/sign-in', {
    method: 'POST',
    headers: { cookie: preCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: signInCsrf, token }).toString(),
  });
  return signed.headers.getSetCookie()[0]!.split(';')[0]!;
}

/** Signs `token` in to the admin with UI language `locale`. */
export async function adminSession(
  h: Harness,
  token: string,
  locale: 'en' | 'de',
): Promise<AdminSessionClient> {
  const cookie = `${await adminCookie(h, token)}; cw_admin_locale=${locale}`;
  const answer = async (response: Response) => ({
    status: response.status,
    html: await response.text(),
    location: response.headers.get('location'),
  });
  const home = await answer(await h.app.request('/admin', { headers: { cookie } }));
  const csrf = /name="csrf" value="([^"]+)"/.exec(home.html)![1]!;
  return {
    csrf,
    cookie,
    async get(path) {
      return answer(await h.app.request(path, { headers: { cookie } }));
    },
    async post(path, fields) {
      return answer(
        await h.app.request(path, {
          method: 'POST',
          headers: {
            cookie,
            'content-type': 'application/x-www-form-urlencoded',
            origin: 'http://localhost',
          },
          body: new URLSearchParams({ csrf, ...fields }).toString(),
        }),
      );
    },
  };
}

/** An attribute's text as the browser reads it (entities decoded). */
function decoded(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

function attributeOf(tag: string, name: string): string | undefined {
  const found = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return found === undefined ? undefined : decoded(found);
}

/**
 * The fields a browser would post from a page's form: inputs (a checkbox or radio only when
 * checked, as its value or `on`), textareas, and each select's selected option (else its first).
 * `opening` picks the form whose opening tag contains it (e.g. `class="rule-editor"` or
 * `action="/admin/…"`); without it every field of the page counts.
 */
export function formFields(html: string, opening?: string): Record<string, string> {
  let form = html;
  if (opening !== undefined) {
    const start = [...html.matchAll(/<form\b[^>]*>/g)].find(([tag]) => tag.includes(opening))?.index;
    if (start === undefined) throw new Error(`no form with ${opening} on the page`);
    form = html.slice(start, html.indexOf('</form>', start));
  }
  const fields: Record<string, string> = {};
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attributeOf(tag, 'name');
    if (name === undefined) continue;
    const type = attributeOf(tag, 'type') ?? 'text';
    if (type === 'checkbox' || type === 'radio') {
      if (/\schecked(="[^"]*")?/.test(tag)) fields[name] = attributeOf(tag, 'value') ?? 'on';
    } else fields[name] = attributeOf(tag, 'value') ?? '';
  }
  for (const [, open, body] of form.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const name = attributeOf(open!, 'name');
    if (name !== undefined) fields[name] = decoded(body!);
  }
  for (const [, open, body] of form.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const name = attributeOf(open!, 'name');
    const options = [...body!.matchAll(/<option\b([^>]*)>/g)].map(([, tag]) => tag!);
    const chosen = options.find((tag) => /\sselected(="[^"]*")?/.test(tag)) ?? options[0];
    if (name !== undefined && chosen !== undefined) fields[name] = attributeOf(chosen, 'value') ?? '';
  }
  return fields;
}
