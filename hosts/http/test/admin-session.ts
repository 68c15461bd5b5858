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
