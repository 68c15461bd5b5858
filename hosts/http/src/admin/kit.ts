import type { AdminSession, Result, Services } from '@cartwright/service';
import type { Context, Hono } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { PageContext } from './layout.tsx';

/** A submitted form's fields (urlencoded or multipart). */
export type FormBody = Record<string, unknown>;

/**
 * What an area of the admin (rules, flows, catalog, …) gets to build its pages with: the same
 * session, operation door, rendering and form checks the core pages use (decision 0047).
 */
export interface AdminKit {
  readonly services: Services;
  /** Calls an operation as the session's member: the one door the HTTP API uses too. */
  act(session: AdminSession, name: string, input: Record<string, unknown>): Promise<Result<unknown>>;
  /** A full HTML page (doctype included). */
  render(c: Context, node: JSX.Element, status?: number): Response | Promise<Response>;
  /** A 303 to `to`, never cached. */
  redirect(c: Context, to: string): Response;
  /** A GET handler that needs a session: without one it redirects to sign-in. */
  page(
    handler: (c: Context, page: PageContext, session: AdminSession) => Promise<Response>,
  ): (c: Context) => Promise<Response>;
  /** A POST's form after the Origin and CSRF checks, or the 403 page to answer. */
  checkedForm(c: Context): Promise<{ form: FormBody; page: PageContext; session: AdminSession } | Response>;
  /** The page for an operation's refusal (404, 403 or 422 with its detail). */
  problem(
    c: Context,
    page: PageContext,
    failure: { code: string; detail: string },
  ): Response | Promise<Response>;
  /** The 404 page. */
  notFound(c: Context, page: PageContext): Response | Promise<Response>;
  /**
   * Gives one admin path (a route pattern such as `/admin/products/:id/gallery/upload`) its own
   * request body limit instead of the server's default; a larger body gets the 413 page unread.
   */
  limitBody(path: string, bytes: number): void;
}

/** Registers an area's routes under /admin/<area>. */
export type AdminArea = (app: Hono, kit: AdminKit) => void;
