/** @jsxRuntime automatic @jsxImportSource hono/jsx */

import type { Child } from 'hono/jsx';
import { formatAmount } from '../channel-form.ts';
import { CsrfField, Layout, Message, type PageContext } from '../layout.tsx';
import { attemptStatusLabel } from './payments.tsx';
import { MACHINES, offeredMoves, snapshotOf, stateLabel } from './states.ts';

// The orders area's pages (decision 0047): the list and one order with its states (labelled in
// the UI language, with the moves the machines allow), timeline, documents, payments ledger and
// refund form.

export interface OrderRow {
  readonly id: string;
  readonly number: number;
  readonly currency: string;
  readonly state: string;
  readonly paymentState: string;
  readonly deliveryState: string;
  readonly price: Record<string, unknown>;
  readonly lines: readonly Record<string, unknown>[];
  readonly customer: Record<string, unknown>;
  readonly revision: number;
  readonly placedAt: string;
}

export interface Activity {
  readonly id: string;
  readonly kind: string;
  readonly author: Record<string, unknown>;
  readonly text: string | null;
  readonly data: Record<string, unknown>;
  readonly createdAt: string;
}

export interface OrderDocument {
  readonly id: string;
  readonly type: 'invoice' | 'delivery_note';
  readonly number: number;
  readonly fileName: string;
}

export interface Balance {
  readonly captured: number;
  readonly confirmed: number;
  readonly pending: number;
  readonly remaining: number;
}

export interface Attempt {
  readonly id: string;
  readonly status: string;
  readonly provider: string;
  readonly environment: string;
  readonly amount: number;
  readonly currency: string;
  readonly capture: { readonly id: string; readonly status: string; readonly amount: number | null } | null;
  readonly paid: boolean;
  readonly refunds: readonly { readonly id: string; readonly amount: number; readonly status: string }[];
  readonly balance: Balance | null;
}

/** What is left to refund: the ledger's balance once refunds began, else a paid attempt's capture. */
export function remainingOf(attempt: Attempt): number {
  if (attempt.balance) return attempt.balance.remaining;
  return attempt.paid && attempt.capture?.amount != null ? attempt.capture.amount : 0;
}

export interface Notice {
  readonly kind: 'ok' | 'error' | 'warning';
  readonly text: string;
}

/** The order's gross total (minor units) from its price snapshot, or null. */
function totalOf(order: OrderRow): number | null {
  const total = order.price.total as { gross?: unknown } | undefined;
  return typeof total?.gross === 'number' ? total.gross : null;
}

function customerOf(order: OrderRow): string {
  const { firstName, lastName, email } = order.customer as Record<string, string | undefined>;
  const name = [firstName, lastName].filter(Boolean).join(' ');
  return name || email || '';
}

export function OrderListPage(props: {
  page: PageContext;
  items: readonly OrderRow[];
  next: number | null;
  first: boolean;
}) {
  const { page, items, next, first } = props;
  const { t } = page;
  return (
    <Layout page={page} title={t.t('orders.title')}>
      <h1>{t.t('orders.title')}</h1>
      {items.length === 0 ? (
        <p>{t.t('orders.empty')}</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">{t.t('orders.col.number')}</th>
              <th scope="col">{t.t('orders.col.placed')}</th>
              <th scope="col">{t.t('orders.col.customer')}</th>
              <th scope="col">{t.t('orders.col.total')}</th>
              <th scope="col">{t.t('orders.col.state')}</th>
              <th scope="col">{t.t('orders.col.payment')}</th>
              <th scope="col">{t.t('orders.col.delivery')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((order) => {
              const total = totalOf(order);
              return (
                <tr>
                  <td>
                    <a href={`/admin/orders/${order.id}`}>
                      {t.t('orders.order.title', { number: order.number })}
                    </a>
                  </td>
                  <td>{t.date(order.placedAt)}</td>
                  <td>{customerOf(order)}</td>
                  <td class="num">{total === null ? '' : t.money(total, order.currency)}</td>
                  <td data-state={order.state}>{stateLabel('order', order.state, t.locale)}</td>
                  <td data-state={order.paymentState}>
                    {stateLabel('payment', order.paymentState, t.locale)}
                  </td>
                  <td data-state={order.deliveryState}>
                    {stateLabel('delivery', order.deliveryState, t.locale)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t.t('orders.title')}>
        {first ? null : <a href="/admin/orders">{t.t('orders.first')}</a>}
        {next !== null ? (
          <a href={`/admin/orders?before=${next}`} rel="next">
            {t.t('orders.next')}
          </a>
        ) : null}
      </nav>
    </Layout>
  );
}

const MACHINE_TITLES = {
  order: 'orders.col.state',
  payment: 'orders.col.payment',
  delivery: 'orders.col.delivery',
} as const;

/** A timeline entry's text: a state change in the UI language, else its kind and text. */
function ActivityText({ page, activity }: { page: PageContext; activity: Activity }) {
  const { t } = page;
  const { machine, from, to } = activity.data as { machine?: unknown; from?: unknown; to?: unknown };
  if (
    activity.kind === 'transition' &&
    (machine === 'order' || machine === 'payment' || machine === 'delivery') &&
    typeof from === 'string' &&
    typeof to === 'string'
  ) {
    return (
      <span>
        {t.t('orders.timeline.transition', {
          machine: t.t(MACHINE_TITLES[machine]),
          from: stateLabel(machine, from, t.locale),
          to: stateLabel(machine, to, t.locale),
        })}
      </span>
    );
  }
  return (
    <>
      <code>{activity.kind}</code> {activity.text ?? ''}
    </>
  );
}

/**
 * The moves the machines allow from the order's current states, one button each, every form
 * carrying the order revision the page was rendered with (a stale one is refused, 409).
 */
function Transitions({ page, order }: { page: PageContext; order: OrderRow }) {
  const { t, csrf } = page;
  const snapshot = snapshotOf(order);
  if (!snapshot) return null;
  return (
    <section aria-labelledby="order-transitions" class="card">
      <h3 id="order-transitions">{t.t('orders.transition.title')}</h3>
      {MACHINES.map((machine) => {
        const moves = offeredMoves(snapshot, machine);
        return (
          <fieldset class="field-row" data-machine={machine}>
            <legend>
              {t.t(MACHINE_TITLES[machine])}:{' '}
              <strong>{stateLabel(machine, snapshot[machine], t.locale)}</strong>
            </legend>
            {moves.length === 0 ? <span class="meta">{t.t('orders.transition.none')}</span> : null}
            {moves.map((to) => (
              <form method="post" action={`/admin/orders/${order.id}/transitions`}>
                <CsrfField token={csrf} />
                <input type="hidden" name="machine" value={machine} />
                <input type="hidden" name="to" value={to} />
                <input type="hidden" name="revision" value={String(order.revision)} />
                <button type="submit" class="secondary" data-to={to}>
                  {t.t('orders.transition.to', { state: stateLabel(machine, to, t.locale) })}
                </button>
              </form>
            ))}
          </fieldset>
        );
      })}
    </section>
  );
}

function authorOf(author: Record<string, unknown>): string {
  const { kind, name, email, tokenId } = author as Record<string, string | undefined>;
  return name ?? email ?? (kind && tokenId ? `${kind} ${tokenId.slice(0, 8)}` : (kind ?? ''));
}

export function OrderPage(props: {
  page: PageContext;
  order: OrderRow;
  activities: readonly Activity[];
  documents: readonly OrderDocument[] | null;
  attempts: readonly Attempt[] | null;
  refundKey: string;
  mayWrite: boolean;
  mayWriteDocuments: boolean;
  notice?: Notice | undefined;
  enteredAmount?: string | undefined;
  /** The installed apps' data cards on the order mounts. */
  appBlocks: Child;
}) {
  const { page, order, activities, documents, attempts, refundKey, mayWrite, mayWriteDocuments, notice } =
    props;
  const { t, csrf } = page;
  const base = `/admin/orders/${order.id}`;
  const total = totalOf(order);
  const remaining = (attempts ?? []).reduce((sum, attempt) => sum + remainingOf(attempt), 0);
  return (
    <Layout page={page} title={t.t('orders.order.title', { number: order.number })}>
      <p>
        <a href="/admin/orders">{t.t('orders.back')}</a>
      </p>
      <h1>{t.t('orders.order.title', { number: order.number })}</h1>
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      <section aria-labelledby="order-summary">
        <h2 id="order-summary">{t.t('orders.order.summary')}</h2>
        <dl class="facts">
          <dt>{t.t('orders.col.placed')}</dt>
          <dd>{t.date(order.placedAt)}</dd>
          <dt>{t.t('orders.col.customer')}</dt>
          <dd>{customerOf(order)}</dd>
          <dt>{t.t('orders.col.total')}</dt>
          <dd>{total === null ? '' : t.money(total, order.currency)}</dd>
          <dt>{t.t('orders.col.state')}</dt>
          <dd data-state={order.state}>{stateLabel('order', order.state, t.locale)}</dd>
          <dt>{t.t('orders.col.payment')}</dt>
          <dd data-state={order.paymentState}>{stateLabel('payment', order.paymentState, t.locale)}</dd>
          <dt>{t.t('orders.col.delivery')}</dt>
          <dd data-state={order.deliveryState}>{stateLabel('delivery', order.deliveryState, t.locale)}</dd>
        </dl>
        {mayWrite ? <Transitions page={page} order={order} /> : null}
        <h3>{t.t('orders.order.lines')}</h3>
        <ul>
          {order.lines.map((line) => (
            <li>
              {t.t('orders.order.line', {
                quantity: typeof line.quantity === 'number' ? line.quantity : 1,
                name: String(line.name ?? line.label ?? line.sku ?? ''),
              })}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="order-timeline">
        <h2 id="order-timeline">{t.t('orders.timeline.title')}</h2>
        {activities.length === 0 ? (
          <p>{t.t('orders.timeline.empty')}</p>
        ) : (
          <ol class="timeline">
            {activities.map((activity) => (
              <li data-kind={activity.kind}>
                <time datetime={activity.createdAt}>{t.date(activity.createdAt)}</time>{' '}
                <ActivityText page={page} activity={activity} />{' '}
                <span class="meta">{authorOf(activity.author)}</span>
              </li>
            ))}
          </ol>
        )}
        {mayWrite ? (
          <form method="post" action={`${base}/notes`} class="field">
            <CsrfField token={csrf} />
            <label for="order-note">{t.t('orders.note.label')}</label>
            <textarea id="order-note" name="text" required maxlength={5000} rows={2}></textarea>
            <button type="submit" class="secondary">
              {t.t('orders.note.submit')}
            </button>
          </form>
        ) : null}
      </section>
      {documents ? (
        <section aria-labelledby="order-documents">
          <h2 id="order-documents">{t.t('orders.documents.title')}</h2>
          {documents.length === 0 ? (
            <p>{t.t('orders.documents.empty')}</p>
          ) : (
            <ul>
              {documents.map((document) => (
                <li>
                  <a href={`${base}/documents/${document.id}`} hx-boost="false" download={document.fileName}>
                    {t.t(`orders.documents.${document.type}`, { number: document.number })}
                  </a>
                </li>
              ))}
            </ul>
          )}
          {mayWriteDocuments ? (
            <div class="row-actions">
              <form method="post" action={`${base}/documents`}>
                <CsrfField token={csrf} />
                <input type="hidden" name="type" value="invoice" />
                <button type="submit" class="secondary">
                  {t.t('orders.documents.createInvoice')}
                </button>
              </form>
              <form method="post" action={`${base}/documents`}>
                <CsrfField token={csrf} />
                <input type="hidden" name="type" value="delivery_note" />
                <button type="submit" class="secondary">
                  {t.t('orders.documents.createDeliveryNote')}
                </button>
              </form>
            </div>
          ) : null}
        </section>
      ) : null}
      {attempts ? (
        <section aria-labelledby="order-payments">
          <h2 id="order-payments">{t.t('orders.payments.title')}</h2>
          {attempts.length === 0 ? <p>{t.t('orders.payments.none')}</p> : null}
          {attempts.map((attempt) => (
            <div class="card" data-attempt={attempt.id}>
              <h3>
                {t.t('orders.payments.attempt', {
                  provider: attempt.provider,
                  environment: attempt.environment,
                  status: attemptStatusLabel(page, attempt.status),
                })}
              </h3>
              <dl class="facts">
                <dt>{t.t('orders.payments.amount')}</dt>
                <dd>{t.money(attempt.amount, attempt.currency)}</dd>
                <dt>{t.t('orders.payments.capture')}</dt>
                <dd>
                  {attempt.capture
                    ? `${attempt.capture.status}${attempt.capture.amount === null ? '' : `: ${t.money(attempt.capture.amount, attempt.currency)}`}`
                    : t.t('orders.payments.noCapture')}
                </dd>
                {attempt.balance ? (
                  <>
                    <dt>{t.t('orders.payments.captured')}</dt>
                    <dd>{t.money(attempt.balance.captured, attempt.currency)}</dd>
                    <dt>{t.t('orders.payments.confirmed')}</dt>
                    <dd>{t.money(attempt.balance.confirmed, attempt.currency)}</dd>
                    <dt>{t.t('orders.payments.pending')}</dt>
                    <dd>{t.money(attempt.balance.pending, attempt.currency)}</dd>
                  </>
                ) : null}
                <dt>{t.t('orders.payments.remaining')}</dt>
                <dd data-remaining={String(remainingOf(attempt))}>
                  {t.money(remainingOf(attempt), attempt.currency)}
                </dd>
              </dl>
              {attempt.refunds.length > 0 ? (
                <>
                  <h4>{t.t('orders.payments.refunds')}</h4>
                  <ul>
                    {attempt.refunds.map((refund) => (
                      <li>
                        {t.t('orders.payments.refund', {
                          amount: t.money(refund.amount, attempt.currency),
                          status: refund.status,
                        })}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          ))}
          {mayWrite && remaining > 0 ? (
            <form method="post" action={`${base}/refunds`} class="card" aria-labelledby="refund-title">
              <h3 id="refund-title">{t.t('orders.refund.title')}</h3>
              <CsrfField token={csrf} />
              <input type="hidden" name="idempotencyKey" value={refundKey} />
              <div class="field">
                <label for="refund-amount">{t.t('orders.refund.amount', { currency: order.currency })}</label>
                <input
                  id="refund-amount"
                  name="amount"
                  inputmode="decimal"
                  required
                  value={props.enteredAmount ?? ''}
                  aria-describedby="refund-hint"
                />
                <p class="hint" id="refund-hint">
                  {t.t('orders.refund.hint', { remaining: t.money(remaining, order.currency) })}
                </p>
              </div>
              <button type="submit">{t.t('orders.refund.submit')}</button>
            </form>
          ) : null}
        </section>
      ) : null}
      {props.appBlocks}
    </Layout>
  );
}

/** An example amount as the UI language writes it (for the refund form's message). */
export function exampleAmount(locale: string, currency: string): string {
  return formatAmount(490, locale, currency);
}
