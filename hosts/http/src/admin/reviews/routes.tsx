/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AdminSession } from '@cartwright/service';
import type { Context } from 'hono';
import { nameIn, type ProductRow } from '../catalog/pages.tsx';
import type { AdminArea } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  type Notice,
  REVIEW_STATUSES,
  type ReviewFilter,
  ReviewListPage,
  type ReviewRow,
  type ReviewStatus,
  reviewsHref,
} from './pages.tsx';

// The reviews area (decision 0047): /admin/reviews lists the shop's product reviews a page at a
// time (catalog.reviews.list, `after`), pending ones first by default, filtered by status and
// product; members with catalog.write approve or reject one (catalog.reviews.moderate at the
// revision the page showed), and the operation's refusals are shown with their detail.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_SIZE = 20;

/** The filter from a query or a posted form; an unknown status falls back to pending. */
function filterOf(status: unknown, productId: unknown): ReviewFilter {
  const known = (REVIEW_STATUSES as readonly unknown[]).includes(status) || status === 'all';
  return {
    status: known ? (status as ReviewStatus | 'all') : 'pending',
    productId: typeof productId === 'string' && UUID.test(productId) ? productId : null,
  };
}

export const reviewsArea: AdminArea = (app, kit) => {
  const mayRead = (session: AdminSession) => session.principal.permissions.has('catalog.read');
  const mayWrite = (session: AdminSession) => session.principal.permissions.has('catalog.write');

  /** The reviewed products' names in the shop's main language (else their SKU), by id. */
  const productNames = async (session: AdminSession, ids: readonly string[]) => {
    const shop = await kit.act(session, 'shop.get', {});
    const main = shop.ok ? (shop.value as { shop: { mainLanguage: string } }).shop.mainLanguage : 'en';
    const names = new Map<string, { name: string; lang: string | undefined }>();
    await Promise.all(
      [...new Set(ids)].map(async (id) => {
        const read = await kit.act(session, 'catalog.products.get', { id });
        if (!read.ok) return;
        const { product } = read.value as { product: ProductRow };
        const name = nameIn(product, main);
        names.set(id, name === null ? { name: product.sku, lang: undefined } : { name, lang: main });
      }),
    );
    return names;
  };

  const listPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    filter: ReviewFilter,
    after: string | undefined,
    extra: { notice?: Notice; status?: number } = {},
  ): Promise<Response> => {
    const listed = await kit.act(session, 'catalog.reviews.list', {
      limit: PAGE_SIZE,
      ...(filter.status === 'all' ? {} : { status: filter.status }),
      ...(filter.productId ? { productId: filter.productId } : {}),
      ...(after ? { after } : {}),
    });
    if (!listed.ok) return kit.problem(c, page, listed);
    const { items, next } = listed.value as { items: ReviewRow[]; next: string | null };
    const names = await productNames(session, [
      ...items.map((review) => review.productId),
      ...(filter.productId ? [filter.productId] : []),
    ]);
    return kit.render(
      c,
      <ReviewListPage
        page={page}
        items={items}
        names={names}
        filter={filter}
        next={next}
        first={!after}
        mayWrite={mayWrite(session)}
        notice={extra.notice}
      />,
      extra.status ?? 200,
    );
  };

  app.get(
    '/admin/reviews',
    kit.page(async (c, page, session) => {
      if (!mayRead(session)) return kit.notFound(c, page);
      const filter = filterOf(c.req.query('status'), c.req.query('productId'));
      const after = c.req.query('after');
      const done = c.req.query('done');
      return listPage(
        c,
        page,
        session,
        filter,
        after && UUID.test(after) ? after : undefined,
        done === 'approved' || done === 'rejected'
          ? { notice: { kind: 'ok', text: page.t.t(`reviews.done.${done}`) } }
          : {},
      );
    }),
  );

  // One moderation: the status asked for and the review revision the page showed. A stale
  // revision or a rejected review asked to be approved is refused by the operation and the list is
  // shown again as it is now, with the refusal.
  app.post('/admin/reviews/:id', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const id = c.req.param('id') ?? '';
    if (!UUID.test(id)) return kit.notFound(c, page);
    const filter = filterOf(form.filterStatus, form.filterProductId);
    const revision = Number(form.revision);
    const moderated = await kit.act(session, 'catalog.reviews.moderate', {
      id,
      revision: Number.isSafeInteger(revision) ? revision : -1,
      status: form.status === 'approved' || form.status === 'rejected' ? form.status : '',
    });
    if (moderated.ok) {
      const { status } = moderated.value as { status: ReviewStatus };
      return kit.redirect(c, reviewsHref(filter, { done: status }));
    }
    if (moderated.code === 'FORBIDDEN' || moderated.code === 'NOT_FOUND') {
      return kit.problem(c, page, moderated);
    }
    const stale = moderated.code === 'STALE_REVISION';
    return listPage(c, page, session, filter, undefined, {
      status: stale || moderated.code === 'CONFLICT' ? 409 : 422,
      notice: stale
        ? { kind: 'warning', text: page.t.t('reviews.stale', { detail: moderated.detail }) }
        : { kind: 'error', text: page.t.t('error.refused', { detail: moderated.detail }) },
    });
  });
};
