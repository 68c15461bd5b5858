/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { ADMIN_ASSETS } from '../assets.ts';
import type { MessageKey, Translator } from '../i18n.ts';
import { CsrfField, Layout, Message, NoticeMessage, type PageContext } from '../layout.tsx';
import { AppBlocks, type InstalledApp, type LoadedBlock, MOUNT_CONTEXT, textIn } from './blocks.tsx';

// The apps pages (issue 20 Build 7, decision 0047): the installed apps and the two ways to install
// (a manifest, an assistant), an app's page with its data cards and its own iframe panels.

export type Notice = { kind: 'ok' | 'error' | 'warning'; text: string; reasons?: readonly string[] } | null;

export interface Question {
  readonly id: string;
  readonly type: string;
  readonly label: string;
  readonly help: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly choices?: readonly { value: string; label: string }[];
}
export interface Assistant {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly questions: readonly Question[];
}
export interface Preview {
  readonly manifest: Record<string, unknown>;
  readonly revision: number;
  readonly installedVersion: string | null;
  readonly diff: {
    compatible: boolean;
    unchanged: boolean;
    reasons: readonly { pointer: string; message: string }[];
  } | null;
}

export function AppsPage({
  page,
  apps,
  assistants,
  notice,
  manifestText,
}: {
  page: PageContext;
  apps: readonly InstalledApp[];
  assistants: readonly Assistant[];
  notice: Notice;
  manifestText?: string;
}) {
  const { t, csrf } = page;
  const manages = page.session?.principal.permissions.has('apps.manage') ?? false;
  return (
    <Layout page={page} title={t.t('apps.title')}>
      <h1>{t.t('apps.title')}</h1>
      {notice ? <NoticeMessage kind={notice.kind} text={notice.text} items={notice.reasons} /> : null}
      <section aria-labelledby="installed-heading">
        <h2 id="installed-heading">{t.t('apps.installed')}</h2>
        {apps.length === 0 ? (
          <p>{t.t('apps.none')}</p>
        ) : (
          <table class="data">
            <thead>
              <tr>
                <th scope="col">{t.t('apps.name')}</th>
                <th scope="col">{t.t('apps.id')}</th>
                <th scope="col">{t.t('apps.version')}</th>
              </tr>
            </thead>
            <tbody>
              {apps.map((app) => (
                <tr>
                  <th scope="row">
                    <a href={`/admin/apps/${app.appId}`} hx-boost="false">
                      {textIn(app.manifest.name, t.locale, app.appId)}
                    </a>
                  </th>
                  <td>{app.appId}</td>
                  <td>{app.version}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {manages ? (
        <>
          <section aria-labelledby="assistant-heading">
            <h2 id="assistant-heading">{t.t('apps.fromAssistant')}</h2>
            <ul class="assistants">
              {assistants.map((assistant) => (
                <li>
                  <a href={`/admin/apps/assistants/${assistant.id}`}>{assistant.title}</a>
                  <span class="hint"> {assistant.description}</span>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="manifest-heading">
            <h2 id="manifest-heading">{t.t('apps.fromManifest')}</h2>
            <ManifestForm t={t} csrf={csrf} manifestText={manifestText ?? ''} submit={t.t('apps.install')} />
          </section>
        </>
      ) : null}
    </Layout>
  );
}

function ManifestForm({
  t,
  csrf,
  manifestText,
  submit,
}: {
  t: Translator;
  csrf: string;
  manifestText: string;
  submit: string;
}) {
  return (
    <form method="post" action="/admin/apps/install" hx-boost="false">
      <CsrfField token={csrf} />
      <div class="field">
        <label for="manifest">{t.t('apps.manifest')}</label>
        <textarea id="manifest" name="manifest" rows={12} cols={80} required>
          {manifestText}
        </textarea>
      </div>
      <div class="field">
        <label for="module">{t.t('apps.module')}</label>
        <textarea id="module" name="module" rows={4} cols={80}></textarea>
      </div>
      <button type="submit">{submit}</button>
    </form>
  );
}

function QuestionInput({ question, value }: { question: Question; value: unknown }) {
  const id = `q-${question.id}`;
  const name = `q.${question.id}`;
  const current = value === undefined ? question.default : value;
  const described = `${id}-help`;
  const help = (
    <p class="hint" id={described}>
      {question.help}
    </p>
  );
  switch (question.type) {
    case 'boolean':
      return (
        <div class="field">
          <input
            type="checkbox"
            id={id}
            name={name}
            value="yes"
            checked={current === true}
            aria-describedby={described}
          />{' '}
          <label for={id} class="inline">
            {question.label}
          </label>
          {help}
        </div>
      );
    case 'choice':
      return (
        <div class="field">
          <label for={id}>{question.label}</label>
          <select id={id} name={name} aria-describedby={described}>
            {question.required ? null : <option value=""></option>}
            {(question.choices ?? []).map((choice) => (
              <option value={choice.value} selected={choice.value === current}>
                {choice.label}
              </option>
            ))}
          </select>
          {help}
        </div>
      );
    case 'choices': {
      const picked = Array.isArray(current) ? current : [];
      return (
        <fieldset aria-describedby={described}>
          <legend>{question.label}</legend>
          {(question.choices ?? []).map((choice) => (
            <div>
              <input
                type="checkbox"
                id={`${id}-${choice.value}`}
                name={`${name}.${choice.value}`}
                value="yes"
                checked={picked.includes(choice.value)}
              />{' '}
              <label for={`${id}-${choice.value}`} class="inline">
                {choice.label}
              </label>
            </div>
          ))}
          {help}
        </fieldset>
      );
    }
    case 'integer':
      return (
        <div class="field">
          <label for={id}>{question.label}</label>
          <input
            type="number"
            step="1"
            id={id}
            name={name}
            value={current === undefined ? '' : String(current)}
            required={question.required}
            aria-describedby={described}
          />
          {help}
        </div>
      );
    case 'events':
    case 'fields':
    case 'json':
    case 'text': {
      const text =
        current === undefined
          ? ''
          : question.type === 'events' && Array.isArray(current)
            ? current.join('\n')
            : typeof current === 'string' && question.type === 'text'
              ? current
              : typeof current === 'string'
                ? current
                : JSON.stringify(current);
      return (
        <div class="field">
          <label for={id}>{question.label}</label>
          <textarea
            id={id}
            name={name}
            rows={4}
            cols={70}
            required={question.required}
            aria-describedby={described}
          >
            {text}
          </textarea>
          {help}
        </div>
      );
    }
    default:
      return (
        <div class="field">
          <label for={id}>{question.label}</label>
          <input
            type="text"
            id={id}
            name={name}
            value={current === undefined ? '' : String(current)}
            required={question.required}
            aria-describedby={described}
          />
          {help}
        </div>
      );
  }
}

export function AssistantPage({
  page,
  assistant,
  answers,
  preview,
  notice,
}: {
  page: PageContext;
  assistant: Assistant;
  answers: Record<string, unknown>;
  preview: Preview | null;
  notice: Notice;
}) {
  const { t, csrf } = page;
  const action = `/admin/apps/assistants/${assistant.id}`;
  return (
    <Layout page={page} title={assistant.title}>
      <h1>{assistant.title}</h1>
      <p>{assistant.description}</p>
      {notice ? <NoticeMessage kind={notice.kind} text={notice.text} items={notice.reasons} /> : null}
      <form method="post" action={`${action}/preview`}>
        <CsrfField token={csrf} />
        {assistant.questions.map((question) => (
          <QuestionInput question={question} value={answers[question.id]} />
        ))}
        <button type="submit">{t.t('apps.preview')}</button>
      </form>
      {preview ? (
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading">{t.t('apps.previewTitle')}</h2>
          {preview.diff === null ? (
            <p>{t.t('apps.diff.new')}</p>
          ) : (
            <div>
              <p>{t.t('apps.diff', { version: preview.installedVersion ?? '' })}</p>
              {preview.diff.unchanged ? (
                <p>{t.t('apps.diff.unchanged')}</p>
              ) : preview.diff.compatible ? (
                <p>{t.t('apps.diff.compatible')}</p>
              ) : (
                <Message kind="warning">
                  <p>{t.t('apps.diff.incompatible')}</p>
                  <ul>
                    {preview.diff.reasons.map((reason) => (
                      <li>
                        <code>{reason.pointer}</code> {reason.message}
                      </li>
                    ))}
                  </ul>
                </Message>
              )}
            </div>
          )}
          <pre class="manifest">{JSON.stringify(preview.manifest, null, 2)}</pre>
          {preview.diff === null || preview.diff.compatible ? (
            <form method="post" action={`${action}/install`} hx-boost="false">
              <CsrfField token={csrf} />
              <input type="hidden" name="answers" value={JSON.stringify(answers)} />
              <input type="hidden" name="revision" value={String(preview.revision)} />
              <button type="submit">
                {preview.diff === null ? t.t('apps.install') : t.t('apps.upgrade')}
              </button>
            </form>
          ) : null}
        </section>
      ) : null}
    </Layout>
  );
}

export function AppPage({
  page,
  app,
  blocks,
  context,
  panels,
  notice,
}: {
  page: PageContext;
  app: InstalledApp;
  blocks: readonly LoadedBlock[];
  context: Partial<Record<string, string>>;
  /** The app's own panels (decision 0048), each with its frame's nonce; none for readers. */
  panels: readonly { id: string; label: string; nonce: string; src: string }[];
  notice: Notice;
}) {
  const { t, csrf } = page;
  const name = textIn(app.manifest.name, t.locale, app.appId);
  const writes = page.session?.principal.permissions.has('apps.write') ?? false;
  const manages = page.session?.principal.permissions.has('apps.manage') ?? false;
  const keys = [
    ...new Set(
      (app.manifest.blocks ?? []).flatMap((block) => {
        const key = (MOUNT_CONTEXT as Record<string, string>)[block.mount];
        return key ? [key] : [];
      }),
    ),
  ];
  const back = `/admin/apps/${app.appId}${
    keys.some((key) => context[key])
      ? `?${new URLSearchParams(keys.flatMap((key): [string, string][] => (context[key] ? [[key, context[key]!]] : []))).toString()}`
      : ''
  }`;
  return (
    <Layout page={page} title={name}>
      <div hx-boost="false">
        <h1>
          {name} <span class="meta">{app.version}</span>
        </h1>
        {notice ? <NoticeMessage kind={notice.kind} text={notice.text} items={notice.reasons} /> : null}
        <p>
          <a href={`/admin/apps/${app.appId}/deliveries`}>{t.t('apps.deliveries')}</a>
        </p>
        <section aria-labelledby="actions-heading">
          <h2 id="actions-heading">{t.t('apps.actions')}</h2>
          <ul>
            {(app.manifest.actions ?? []).map((action) => (
              <li>
                <code>{action.id}</code> {textIn(action.label, t.locale, '')}{' '}
                <span class="meta">({action.kind})</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="blocks-heading">
          <h2 id="blocks-heading">{t.t('apps.blocks')}</h2>
          {blocks.length === 0 ? (
            <p>{t.t('apps.blocks.none')}</p>
          ) : (
            <>
              {keys.map((key) => (
                <form method="get" action={`/admin/apps/${app.appId}`} class="row-actions">
                  <div class="field">
                    <label for={`context-${key}`}>{t.t(`apps.context.${key}` as MessageKey)}</label>
                    <input type="text" id={`context-${key}`} name={key} value={context[key] ?? ''} />
                  </div>
                  <button type="submit" class="secondary">
                    {t.t('apps.show')}
                  </button>
                </form>
              ))}
              <AppBlocks page={page} blocks={blocks} writes={writes} back={back} />
            </>
          )}
        </section>
        {panels.length > 0 ? (
          <section aria-labelledby="panels-heading">
            <h2 id="panels-heading">{t.t('apps.panel')}</h2>
            {panels.map((panel) => (
              <section aria-labelledby={`panel-${panel.id}`} data-panel={panel.id}>
                <h3 id={`panel-${panel.id}`}>{panel.label}</h3>
                <iframe
                  class="app-panel"
                  title={t.t('apps.panel.title', { name: panel.label })}
                  src={panel.src}
                  sandbox="allow-scripts allow-forms"
                  referrerpolicy="no-referrer"
                  data-panel-nonce={panel.nonce}
                  data-panel-csrf={csrf}
                  data-panel-invoke={`/admin/apps/${app.appId}/panel/invoke`}
                  data-panel-actions={(app.manifest.actions ?? []).map((action) => action.id).join(' ')}
                ></iframe>
              </section>
            ))}
            <script src={ADMIN_ASSETS.appsBridge.path} defer></script>
          </section>
        ) : null}
        {manages ? (
          <section aria-labelledby="upgrade-heading">
            <h2 id="upgrade-heading">{t.t('apps.upgrade')}</h2>
            <ManifestForm
              t={t}
              csrf={csrf}
              manifestText={JSON.stringify(app.manifest, null, 2)}
              submit={t.t('apps.upgrade')}
            />
          </section>
        ) : null}
      </div>
    </Layout>
  );
}

/** An attempt of a delivery, as `apps.deliveries.list` answers it (never a body, header or credential). */
export interface DeliveryAttempt {
  readonly attempt: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly statusCode: number | null;
  readonly outcome: 'delivered' | 'failed';
  readonly error: string | null;
}
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];
export interface Delivery {
  readonly id: string;
  readonly event: { id: string; name: string; sequence: number; occurredAt: string };
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly availableAt: string;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: string | null;
  readonly log: readonly DeliveryAttempt[];
}
export interface DeliveryCircuit {
  readonly open: boolean;
  readonly consecutiveFailures: number;
  readonly openedAt: string | null;
}

/** The last answer of a delivery: its HTTP status and the adapter's one-line error. */
function lastAnswer(t: Translator, delivery: Delivery): string {
  const parts = [
    delivery.lastStatusCode === null
      ? ''
      : t.t('apps.deliveries.http', { code: String(delivery.lastStatusCode) }),
    delivery.lastError ?? '',
  ].filter((part) => part !== '');
  return parts.join(' · ');
}

export function DeliveriesPage({
  page,
  app,
  deliveries,
  circuit,
  status,
  more,
  notice,
}: {
  page: PageContext;
  app: InstalledApp;
  deliveries: readonly Delivery[];
  circuit: DeliveryCircuit;
  status: DeliveryStatus | null;
  /** The `after` of the next (older) page, when there may be one. */
  more: string | null;
  notice: Notice;
}) {
  const { t, csrf } = page;
  const name = textIn(app.manifest.name, t.locale, app.appId);
  const base = `/admin/apps/${app.appId}/deliveries`;
  const writes = page.session?.principal.permissions.has('apps.write') ?? false;
  const manages = page.session?.principal.permissions.has('apps.manage') ?? false;
  const number = new Intl.NumberFormat(t.locale);
  const statusQuery = status ? `status=${status}` : '';
  return (
    <Layout page={page} title={t.t('apps.deliveries.title', { name })}>
      <p>
        <a href={`/admin/apps/${app.appId}`}>{name}</a>
      </p>
      <h1>{t.t('apps.deliveries.title', { name })}</h1>
      {notice ? <NoticeMessage kind={notice.kind} text={notice.text} items={notice.reasons} /> : null}
      <p>{t.t('apps.deliveries.intro')}</p>
      {circuit.open ? (
        <div class="message warning circuit" role="alert">
          <p>
            {t.t('apps.deliveries.paused', {
              date: circuit.openedAt ? t.date(circuit.openedAt) : '',
              count: circuit.consecutiveFailures,
            })}
          </p>
          {manages ? (
            <form method="post" action={`${base}/resume`}>
              <CsrfField token={csrf} />
              <button type="submit">{t.t('apps.deliveries.resume')}</button>
            </form>
          ) : null}
        </div>
      ) : (
        <p class="meta circuit">{t.t('apps.deliveries.failures', { count: circuit.consecutiveFailures })}</p>
      )}
      <form method="get" action={base} class="row-actions">
        <div class="field">
          <label for="delivery-status">{t.t('apps.deliveries.filter')}</label>
          <select id="delivery-status" name="status">
            <option value="" selected={status === null}>
              {t.t('apps.deliveries.all')}
            </option>
            {DELIVERY_STATUSES.map((item) => (
              <option value={item} selected={status === item}>
                {t.t(`apps.deliveries.status.${item}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="secondary">
          {t.t('apps.deliveries.show')}
        </button>
      </form>
      {deliveries.length === 0 ? (
        <p>{t.t('apps.deliveries.none')}</p>
      ) : (
        <table class="data deliveries">
          <thead>
            <tr>
              <th scope="col">{t.t('apps.deliveries.event')}</th>
              <th scope="col">{t.t('apps.deliveries.status')}</th>
              <th scope="col">{t.t('apps.deliveries.attempts')}</th>
              <th scope="col">{t.t('apps.deliveries.last')}</th>
              <th scope="col">{t.t('apps.deliveries.next')}</th>
              {writes ? <th scope="col">{t.t('apps.deliveries.redeliver')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr data-delivery={delivery.id}>
                <th scope="row">
                  <code>{delivery.event.name}</code>{' '}
                  <span class="meta">
                    <time datetime={delivery.event.occurredAt}>{t.date(delivery.event.occurredAt)}</time>
                  </span>
                </th>
                <td>
                  <span class={`badge status-${delivery.status}`}>
                    {t.t(`apps.deliveries.status.${delivery.status}` as MessageKey)}
                  </span>
                </td>
                <td class="num">{number.format(delivery.attempts)}</td>
                <td>
                  {lastAnswer(t, delivery)}
                  {delivery.log.length > 0 ? (
                    <details>
                      <summary>{t.t('apps.deliveries.log')}</summary>
                      <ol>
                        {delivery.log.map((entry) => (
                          <li>
                            {t.t('apps.deliveries.log.attempt', {
                              attempt: entry.attempt,
                              date: t.date(entry.startedAt),
                              duration: entry.durationMs,
                              outcome: entry.outcome,
                            })}
                            {entry.statusCode === null
                              ? ''
                              : ` · ${t.t('apps.deliveries.http', { code: String(entry.statusCode) })}`}
                            {entry.error ? ` · ${entry.error}` : ''}
                          </li>
                        ))}
                      </ol>
                    </details>
                  ) : null}
                </td>
                <td>
                  {delivery.status === 'pending' ? (
                    circuit.open ? (
                      t.t('apps.deliveries.waits')
                    ) : (
                      <time datetime={delivery.availableAt}>{t.date(delivery.availableAt)}</time>
                    )
                  ) : delivery.deliveredAt ? (
                    t.t('apps.deliveries.deliveredAt', { date: t.date(delivery.deliveredAt) })
                  ) : (
                    ''
                  )}
                </td>
                {writes ? (
                  <td>
                    {delivery.status === 'pending' ? null : (
                      <form method="post" action={`${base}/${delivery.id}/redeliver`}>
                        <CsrfField token={csrf} />
                        <button type="submit" class="secondary">
                          {t.t('apps.deliveries.redeliver')}
                        </button>
                      </form>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="row-actions pager" aria-label={t.t('apps.deliveries')}>
        {more ? (
          <a
            href={`${base}?${[statusQuery, `after=${more}`].filter((part) => part !== '').join('&')}`}
            rel="next"
          >
            {t.t('apps.deliveries.more')}
          </a>
        ) : null}
        <a href={statusQuery ? `${base}?${statusQuery}` : base}>{t.t('apps.deliveries.first')}</a>
      </nav>
    </Layout>
  );
}
