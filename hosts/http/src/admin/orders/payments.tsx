/** @jsxRuntime automatic @jsxImportSource hono/jsx */

import { ATTEMPT_STATUSES } from '@cartwright/service';
import { Layout, type PageContext } from '../layout.tsx';
import type { Attempt } from './pages.tsx';

// The shop's payments (decision 0047): provider payment attempts a page at a time
// (`payments.list`, most recently changed first), those that need a look by default or those in
// one status, each with its order, provider, amount, status in the UI language, captured and
// refunded amounts.

export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** A listed attempt: the order's ledger entry plus the order it belongs to. */
export interface PaymentRow extends Attempt {
  readonly orderId: string;
  readonly status: AttemptStatus;
  readonly updatedAt: string;
}

/** An attempt's status in the UI language (every status has a key: a new one fails tsc). */
export function attemptStatusLabel(page: PageContext, status: string): string {
  return (ATTEMPT_STATUSES as readonly string[]).includes(status)
    ? page.t.t(`orders.paymentList.status.${status as AttemptStatus}`)
    : status;
}

/** The payments page's address for a status (none: the attempts that need a look) and cursor. */
export function paymentsHref(status: AttemptStatus | null, before?: string): string {
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  if (before) query.set('before', before);
  const text = query.toString();
  return text ? `/admin/payments?${text}` : '/admin/payments';
}

export function PaymentListPage(props: {
  page: PageContext;
  items: readonly PaymentRow[];
  /** Order numbers by order id. */
  numbers: ReadonlyMap<string, number>;
  status: AttemptStatus | null;
  next: string | null;
  first: boolean;
  unresolved: { readonly uncertain: number; readonly failed: number };
}) {
  const { page, items, numbers, status, next, first, unresolved } = props;
  const { t } = page;
  return (
    <Layout page={page} title={t.t('orders.paymentList.title')}>
      <h1>{t.t('orders.paymentList.title')}</h1>
      <p class="hint" data-unresolved>
        {t.t('orders.paymentList.unresolved', unresolved)}
      </p>
      <form method="get" action="/admin/payments" class="language-bar">
        <div>
          <label for="payment-status">{t.t('orders.paymentList.filter')}</label>
          <select id="payment-status" name="status">
            <option value="" selected={status === null}>
              {t.t('orders.paymentList.attention')}
            </option>
            {ATTEMPT_STATUSES.map((code) => (
              <option value={code} selected={code === status}>
                {t.t(`orders.paymentList.status.${code}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="secondary">
          {t.t('orders.paymentList.apply')}
        </button>
      </form>
      {items.length === 0 ? (
        <p>{t.t('orders.paymentList.empty')}</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">{t.t('orders.col.number')}</th>
              <th scope="col">{t.t('orders.paymentList.provider')}</th>
              <th scope="col">{t.t('orders.payments.amount')}</th>
              <th scope="col">{t.t('orders.paymentList.status')}</th>
              <th scope="col">{t.t('orders.payments.captured')}</th>
              <th scope="col">{t.t('orders.paymentList.refunded')}</th>
              <th scope="col">{t.t('orders.paymentList.changed')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((attempt) => {
              const number = numbers.get(attempt.orderId);
              const captured = attempt.balance?.captured ?? (attempt.paid ? attempt.capture?.amount : null);
              return (
                <tr data-attempt={attempt.id}>
                  <td>
                    <a href={`/admin/orders/${attempt.orderId}`}>
                      {number === undefined ? attempt.orderId : t.t('orders.order.title', { number })}
                    </a>
                  </td>
                  <td>
                    {attempt.provider}{' '}
                    <span class="meta">
                      {t.t(
                        attempt.environment === 'live'
                          ? 'orders.paymentList.live'
                          : 'orders.paymentList.sandbox',
                      )}
                    </span>
                  </td>
                  <td class="num">{t.money(attempt.amount, attempt.currency)}</td>
                  <td data-status={attempt.status}>{attemptStatusLabel(page, attempt.status)}</td>
                  <td class="num">{captured == null ? '' : t.money(captured, attempt.currency)}</td>
                  <td class="num">
                    {attempt.balance ? t.money(attempt.balance.confirmed, attempt.currency) : ''}
                  </td>
                  <td>
                    <time datetime={attempt.updatedAt}>{t.date(attempt.updatedAt)}</time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t.t('orders.paymentList.title')}>
        {first ? null : <a href={paymentsHref(status)}>{t.t('orders.paymentList.first')}</a>}
        {next !== null ? (
          <a href={paymentsHref(status, next)} rel="next">
            {t.t('orders.paymentList.next')}
          </a>
        ) : null}
      </nav>
    </Layout>
  );
}
