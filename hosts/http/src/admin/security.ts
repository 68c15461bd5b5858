import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

// The admin UI's browser security (decision 0047): the session cookie, CSRF tokens bound to it,
// the Origin check and the Content-Security-Policy of every admin page.

/** Scripts and styles only from this origin (no inline script, no eval), forms only to it, no framing. */
export const ADMIN_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Holds the session's secret; scoped to /admin so no API route ever receives it. */
export const SESSION_COOKIE = 'cw_admin';
/** Before sign-in: the random value the sign-in form's CSRF token is bound to. */
export const SIGN_IN_COOKIE = 'cw_admin_signin';
/** The chosen interface language (not a secret). */
export const LOCALE_COOKIE = 'cw_admin_locale';
const COOKIE_PATH = '/admin';

export function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
}

export function setAdminCookie(c: Context, name: string, value: string, maxAgeSeconds?: number): void {
  setCookie(c, name, value, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: isHttps(c),
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  });
}

export function clearAdminCookie(c: Context, name: string): void {
  setCookie(c, name, '', {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: isHttps(c),
    maxAge: 0,
  });
}

export function adminCookie(c: Context, name: string): string | undefined {
  return getCookie(c, name);
}

/** A fresh random value for the sign-in cookie. */
export function newSignInNonce(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The synchronizer token of a form: an HMAC keyed by the cookie's secret (the session's, or before
 * sign-in the sign-in cookie's), so only a page this server rendered for that cookie carries it.
 * Nothing is stored; the server recomputes and compares on every post.
 */
export function csrfToken(secret: string, purpose: 'session' | 'sign-in'): string {
  return createHmac('sha256', secret).update(`cartwright-admin-csrf:${purpose}`).digest('base64url');
}

export function csrfValid(
  secret: string | undefined,
  purpose: 'session' | 'sign-in',
  sent: unknown,
): boolean {
  if (!secret || typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, purpose));
  const actual = Buffer.from(sent);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A browser posting from another site names it in Origin (or Sec-Fetch-Site): refuse those. A
 * client sending neither is no browser and still needs the token.
 */
export function sameOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined) {
    const own = new URL(c.req.url);
    const forwarded = c.req.header('x-forwarded-proto');
    const expected = `${forwarded === 'https' ? 'https:' : own.protocol}//${own.host}`;
    return origin === expected;
  }
  const site = c.req.header('sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}
