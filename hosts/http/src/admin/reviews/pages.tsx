/** @jsxRuntime automatic @jsxImportSource hono/jsx */

import { CsrfField, Layout, Message, type PageContext } from '../layout.tsx';

// The reviews area's page (decision 0047): the shop's product reviews a page at a time, filtered
// by moderation status (pending first) and optionally by product, with approve and reject buttons
// for members who may write the catalog.

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** A review as `catalog.reviews.list` answers it (no e-mail: the operation has none). */
export interface ReviewRow {
  readonly id: string;
  readonly productId: string;
  readonly authorName: string;
  readonly rating: number;
  readonly title: string;
  readonly content: string;
  readonly language: string;
  readonly status: ReviewStatus;
  readonly revision: number;
  readonly createdAt: string;
}

/** The list's filter: a status (or every one) and optionally one product. */
export interface ReviewFilter {
  readonly status: ReviewStatus | 'all';
  readonly productId: string | null;
}

/** The list's address for `filter`, optionally from cursor `after` or with a `done` notice. */
export function reviewsHref(filter: ReviewFilter, extra: { after?: string; done?: string } = {}): string {
  const query = new URLSearchParams({ status: filter.status });
  if (filter.productId) query.set('productId', filter.productId);
  if (extra.after) query.set('after', extra.after);
  if (extra.done) query.set('done', extra.done);
  return `/admin/reviews?${query}`;
}

export interface Notice {
  readonly kind: 'ok' | 'error' | 'warning';
  readonly text: string;
}

/** The rating as five stars for the eye and "4 of 5 stars" for everyone else. */
function Stars({ page, rating }: { page: PageContext; rating: number }) {
  const label = page.t.t('reviews.rating', { rating });
  return (
    <span class="stars" role="img" aria-label={label} title={label} data-rating={String(rating)}>
      {'★'.repeat(rating)}
      {'☆'.repeat(Math.max(0, 5 - rating))}
    </span>
  );
}

function Moderation(props: { page: PageContext; review: ReviewRow; filter: ReviewFilter }) {
  const { page, review, filter } = props;
  const { t, csrf } = page;
  // Moderation moves forward only: pending → approved or rejected, approved → rejected.
  const moves: ReviewStatus[] =
    review.status === 'pending' ? ['approved', 'rejected'] : review.status === 'approved' ? ['rejected'] : [];
  if (moves.length === 0) return null;
  return (
    <div class="row-actions">
      {moves.map((status) => (
        <form method="post" action={`/admin/reviews/${review.id}`}>
          <CsrfField token={csrf} />
          <input type="hidden" name="status" value={status} />
          <input type="hidden" name="revision" value={String(review.revision)} />
          <input type="hidden" name="filterStatus" value={filter.status} />
          {filter.productId ? <input type="hidden" name="filterProductId" value={filter.productId} /> : null}
          <button
            type="submit"
            class={status === 'approved' ? undefined : 'secondary'}
            data-moderate={status}
            aria-label={t.t(status === 'approved' ? 'reviews.approveNamed' : 'reviews.rejectNamed', {
              title: review.title,
            })}
          >
            {t.t(status === 'approved' ? 'reviews.approve' : 'reviews.reject')}
          </button>
        </form>
      ))}
    </div>
  );
}

export function ReviewListPage(props: {
  page: PageContext;
  items: readonly ReviewRow[];
  /** Product names by id (the shop's main language, else the SKU). */
  names: ReadonlyMap<string, { name: string; lang: string | undefined }>;
  filter: ReviewFilter;
  next: string | null;
  first: boolean;
  mayWrite: boolean;
  notice?: Notice | undefined;
}) {
  const { page, items, names, filter, next, first, mayWrite, notice } = props;
  const { t } = page;
  const product = filter.productId ? names.get(filter.productId) : undefined;
  return (
    <Layout page={page} title={t.t('reviews.title')}>
      <h1>{t.t('reviews.title')}</h1>
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      {filter.productId ? (
        <p>
          {product ? <strong>{t.t('reviews.ofProduct', { name: product.name })}</strong> : null}{' '}
          <a href={reviewsHref({ status: filter.status, productId: null })}>{t.t('reviews.allProducts')}</a>
        </p>
      ) : null}
      <form method="get" action="/admin/reviews" class="language-bar">
        <div>
          <label for="review-status">{t.t('reviews.filter.status')}</label>
          <select id="review-status" name="status">
            {[...REVIEW_STATUSES, 'all' as const].map((status) => (
              <option value={status} selected={status === filter.status}>
                {t.t(status === 'all' ? 'reviews.filter.all' : `reviews.status.${status}`)}
              </option>
            ))}
          </select>
        </div>
        {filter.productId ? <input type="hidden" name="productId" value={filter.productId} /> : null}
        <button type="submit" class="secondary">
          {t.t('reviews.filter.apply')}
        </button>
      </form>
      {items.length === 0 ? (
        <p>{t.t('reviews.empty')}</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">{t.t('reviews.col.product')}</th>
              <th scope="col">{t.t('reviews.col.rating')}</th>
              <th scope="col">{t.t('reviews.col.review')}</th>
              <th scope="col">{t.t('reviews.col.author')}</th>
              <th scope="col">{t.t('reviews.col.date')}</th>
              <th scope="col">{t.t('reviews.col.status')}</th>
              {mayWrite ? <th scope="col">{t.t('reviews.col.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {items.map((review) => {
              const named = names.get(review.productId);
              return (
                <tr data-review={review.id}>
                  <td>
                    <a href={`/admin/products/${review.productId}`} lang={named?.lang}>
                      {named?.name ?? review.productId}
                    </a>
                  </td>
                  <td>
                    <Stars page={page} rating={review.rating} />
                  </td>
                  <td lang={review.language}>
                    <strong>{review.title}</strong>
                    <p>{review.content}</p>
                  </td>
                  <td>{review.authorName}</td>
                  <td>
                    <time datetime={review.createdAt}>{t.date(review.createdAt)}</time>
                  </td>
                  <td data-status={review.status}>{t.t(`reviews.status.${review.status}`)}</td>
                  {mayWrite ? (
                    <td>
                      <Moderation page={page} review={review} filter={filter} />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t.t('reviews.title')}>
        {first ? null : <a href={reviewsHref(filter)}>{t.t('reviews.first')}</a>}
        {next !== null ? (
          <a href={reviewsHref(filter, { after: next })} rel="next">
            {t.t('reviews.next')}
          </a>
        ) : null}
      </nav>
    </Layout>
  );
}
