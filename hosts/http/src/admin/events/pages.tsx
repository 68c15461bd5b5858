/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Translator } from '../i18n.ts';
import { Layout, Message, type PageContext } from '../layout.tsx';

// The event log page (decision 0047): how far each consumer has processed the shop's outbox
// (`events.status`) above a window of its events in sequence order (`events.list`).

export interface ShopEvent {
  readonly sequence: number;
  readonly id: string;
  readonly name: string;
  readonly payload: unknown;
  readonly actor: unknown;
  readonly occurredAt: string;
}
export interface EventStatus {
  readonly head: number;
  readonly consumers: readonly {
    consumer: string;
    position: number;
    lag: number;
    leaseExpiresAt: string | null;
  }[];
  readonly counts: readonly { name: string; count: number; lastSequence: number }[];
}
/** The window shown: events after `after`, of type `name` when set. */
export interface EventWindow {
  readonly after: number;
  readonly name: string;
  readonly size: number;
}

/** Who caused the event, in the UI language (the actor's kind and its id). */
export function actorText(t: Translator, actor: unknown): string {
  if (!actor || typeof actor !== 'object') return '';
  const fields = actor as Record<string, unknown>;
  const kind = typeof fields.kind === 'string' ? fields.kind : '';
  const id =
    kind === 'token'
      ? fields.tokenId
      : kind === 'system'
        ? fields.process
        : kind === 'customer'
          ? fields.customerId
          : kind === 'flow'
            ? fields.flowId
            : '';
  return t.t('events.actor.kind', { kind, id: typeof id === 'string' ? id : '' });
}

/** The object an event is about: its payload's `id`, else the first string field named `…Id`. */
export function subjectOf(payload: unknown): string {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return '';
  const fields = Object.entries(payload as Record<string, unknown>);
  const found =
    fields.find(([key, value]) => key === 'id' && typeof value === 'string') ??
    fields.find(([key, value]) => /Id$/.test(key) && typeof value === 'string');
  return found ? (found[1] as string) : '';
}

function windowHref(after: number, name: string): string {
  const query = new URLSearchParams({ after: String(after) });
  if (name !== '') query.set('name', name);
  return `/admin/events?${query.toString()}`;
}

export function EventsPage({
  page,
  status,
  events,
  next,
  window,
  problem,
}: {
  page: PageContext;
  status: EventStatus;
  events: readonly ShopEvent[];
  next: number | null;
  window: EventWindow;
  problem: string | null;
}) {
  const { t } = page;
  const number = (value: number) => new Intl.NumberFormat(t.locale).format(value);
  return (
    <Layout page={page} title={t.t('events.title')}>
      <h1>{t.t('events.title')}</h1>
      {problem ? <Message kind="error">{problem}</Message> : null}
      <section aria-labelledby="status-heading">
        <h2 id="status-heading">{t.t('events.status')}</h2>
        <p class="event-head">{t.t('events.head', { head: status.head })}</p>
        {status.consumers.length === 0 ? (
          <p>{t.t('events.consumers.none')}</p>
        ) : (
          <table class="data consumers">
            <thead>
              <tr>
                <th scope="col">{t.t('events.consumer')}</th>
                <th scope="col">{t.t('events.position')}</th>
                <th scope="col">{t.t('events.lag')}</th>
                <th scope="col">{t.t('events.lease')}</th>
              </tr>
            </thead>
            <tbody>
              {status.consumers.map((consumer) => (
                <tr data-consumer={consumer.consumer}>
                  <th scope="row">
                    <code>{consumer.consumer}</code>
                  </th>
                  <td class="num">{number(consumer.position)}</td>
                  <td class="num">{number(consumer.lag)}</td>
                  <td>
                    {consumer.leaseExpiresAt ? t.date(consumer.leaseExpiresAt) : t.t('events.lease.none')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {status.counts.length > 0 ? (
          <details>
            <summary>{t.t('events.counts')}</summary>
            <table class="data counts">
              <thead>
                <tr>
                  <th scope="col">{t.t('events.type')}</th>
                  <th scope="col">{t.t('events.count')}</th>
                  <th scope="col">{t.t('events.lastSequence')}</th>
                </tr>
              </thead>
              <tbody>
                {status.counts.map((row) => (
                  <tr>
                    <th scope="row">
                      <a href={windowHref(0, row.name)}>
                        <code>{row.name}</code>
                      </a>
                    </th>
                    <td class="num">{number(row.count)}</td>
                    <td class="num">{number(row.lastSequence)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        ) : null}
      </section>
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">{t.t('events.list')}</h2>
        <form method="get" action="/admin/events" class="row-actions event-filter">
          <div class="field">
            <label for="event-name">{t.t('events.name')}</label>
            <input
              type="text"
              id="event-name"
              name="name"
              value={window.name}
              maxlength={200}
              list="event-names"
            />
            <datalist id="event-names">
              {status.counts.map((row) => (
                <option value={row.name}></option>
              ))}
            </datalist>
          </div>
          <div class="field">
            <label for="event-after">{t.t('events.from')}</label>
            <input
              type="number"
              id="event-after"
              name="after"
              min={0}
              step={1}
              value={String(window.after)}
            />
          </div>
          <button type="submit" class="secondary">
            {t.t('events.show')}
          </button>
        </form>
        <p class="meta">{t.t('events.range', { after: window.after })}</p>
        {events.length === 0 ? (
          <p>{t.t('events.none')}</p>
        ) : (
          <table class="data events">
            <thead>
              <tr>
                <th scope="col">{t.t('events.sequence')}</th>
                <th scope="col">{t.t('events.type')}</th>
                <th scope="col">{t.t('events.time')}</th>
                <th scope="col">{t.t('events.actor')}</th>
                <th scope="col">{t.t('events.subject')}</th>
                <th scope="col">{t.t('events.payload')}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr data-event={event.id}>
                  <td class="num">{number(event.sequence)}</td>
                  <th scope="row">
                    <code>{event.name}</code>
                  </th>
                  <td>
                    <time datetime={event.occurredAt}>{t.date(event.occurredAt)}</time>
                  </td>
                  <td>{actorText(t, event.actor)}</td>
                  <td>
                    <code>{subjectOf(event.payload)}</code>
                  </td>
                  <td>
                    <details>
                      <summary>{t.t('events.payload')}</summary>
                      <pre>{JSON.stringify(event.payload, null, 2)}</pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <nav class="row-actions pager" aria-label={t.t('events.list')}>
          {window.after > 0 ? (
            <a href={windowHref(Math.max(0, window.after - window.size), window.name)} rel="prev">
              {t.t('events.older')}
            </a>
          ) : null}
          {next !== null ? (
            <a href={windowHref(next, window.name)} rel="next">
              {t.t('events.newer')}
            </a>
          ) : null}
          <a
            href={
              window.name === '' ? '/admin/events' : `/admin/events?name=${encodeURIComponent(window.name)}`
            }
          >
            {t.t('events.latest')}
          </a>
        </nav>
      </section>
    </Layout>
  );
}
