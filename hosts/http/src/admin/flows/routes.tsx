/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { FLOW_NODE_KINDS, type FlowNodeKind } from '@cartwright/flow-graph';
import { type AdminSession, FLOW_TRIGGERS } from '@cartwright/service';
import type { Context } from 'hono';
import type { AdminArea } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  checkDraft,
  type Draft,
  type DraftIssue,
  draftFromForm,
  draftOf,
  issuesOfRefusal,
  newDraft,
  withNode,
  withoutNode,
} from './draft.ts';
import {
  type AppActions,
  type CatalogAction,
  EXECUTIONS_SHOWN,
  ExecutionsFragment,
  ExecutionsPage,
  type ExecutionsView,
  FlowEditorPage,
  type FlowSummary,
  FlowsPage,
  type SavedRule,
} from './pages.tsx';

// The flow builder and the executions page (issue 20, build 4; decision 0047, "Flows"): every
// read and write through the registry's operations with the member's rights — `automation.list`,
// `automation.catalog`, `automation.save` (kind flows, revision-bound), `automation.executions`
// and `automation.executions.resolve`. The pure `validatePipeline` runs on the draft so problems
// are pinned to their nodes before a save is even sent.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The executions fragment is long-polled: a request names the fingerprint of the list it shows
 * (`seen`), and the answer waits until the list differs, checking every LIVE_CHECK_MS with one
 * bounded read (`automation.executions`, no transaction held between checks), for at most
 * LIVE_WAIT_MS; the page asks again as soon as an answer is swapped in. A session holds at most
 * LIVE_WAITS_PER_SESSION such waits; a further request is answered as a plain poll would be (one
 * read after LIVE_WAIT_MS).
 */
const LIVE_WAIT_MS = 3000;
const LIVE_CHECK_MS = 250;
const LIVE_WAITS_PER_SESSION = 2;

/** A short digest of what the executions list shows (its jobs and the unresolved counts). */
export function executionsFingerprint(view: ExecutionsView): string {
  return createHash('sha256').update(JSON.stringify(view)).digest('base64url').slice(0, 22);
}

interface StoredDefinition {
  readonly id: string;
  readonly revision: number;
  readonly active: boolean;
  readonly data: {
    name?: Record<string, string>;
    trigger?: string;
    pipeline?: { nodes?: unknown[] };
  } & Record<string, unknown>;
}

function nameOf(names: Record<string, string> | undefined, locale: string, fallback: string): string {
  if (!names) return fallback;
  return names[locale] ?? names.en ?? Object.values(names)[0] ?? fallback;
}

export const flowsArea: AdminArea = (app, kit) => {
  /** The shop's flows and saved rules (null: the member may not read them). */
  const listed = async (session: AdminSession) => {
    const result = await kit.act(session, 'automation.list', {});
    if (!result.ok) return null;
    return result.value as { flows: StoredDefinition[]; rules: StoredDefinition[] };
  };

  const catalogActions = async (session: AdminSession, locale: string): Promise<CatalogAction[]> => {
    const result = await kit.act(session, 'automation.catalog', { language: locale });
    if (!result.ok) return [];
    return (result.value as { actions: CatalogAction[] }).actions;
  };

  /** The installed apps and their actions, offered by an app action's inputs (none without `apps.read`). */
  const installedApps = async (session: AdminSession): Promise<AppActions[]> => {
    const result = await kit.act(session, 'apps.list', {});
    if (!result.ok) return [];
    return (result.value as { items: { appId: string; manifest: { actions?: unknown } }[] }).items.map(
      (app) => ({
        appId: app.appId,
        actions: (Array.isArray(app.manifest.actions) ? app.manifest.actions : []).flatMap(
          (action: unknown) =>
            action !== null &&
            typeof action === 'object' &&
            typeof (action as { id?: unknown }).id === 'string'
              ? [(action as { id: string }).id]
              : [],
        ),
      }),
    );
  };

  const refuse = (c: Context, page: PageContext) =>
    kit.problem(c, page, { code: 'FORBIDDEN', detail: page.t.t('error.forbidden') });

  app.get(
    '/admin/flows',
    kit.page(async (c, page, session) => {
      const all = await listed(session);
      if (!all) return refuse(c, page);
      const flows: FlowSummary[] = all.flows.map((flow) => ({
        id: flow.id,
        name: nameOf(flow.data.name, page.t.locale, page.t.t('flows.untitled')),
        trigger: flow.data.trigger ?? '',
        active: flow.active,
        revision: flow.revision,
        nodes: flow.data.pipeline?.nodes?.length ?? 0,
      }));
      return kit.render(c, <FlowsPage page={page} flows={flows} />);
    }),
  );

  /** Renders the editor for a draft (with its problems, or null when it was not checked). */
  const editor = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    flowId: string,
    draft: Draft,
    extra: {
      issues?: DraftIssue[] | null;
      notice?: { kind: 'ok' | 'error' | 'warning'; text: string };
      status?: number;
      isNew?: boolean;
      rules?: readonly StoredDefinition[];
      actions?: readonly CatalogAction[];
    } = {},
  ) => {
    const rules: SavedRule[] = (extra.rules ?? (await listed(session))?.rules ?? []).map((rule) => ({
      id: rule.id,
      name: nameOf(rule.data.name, page.t.locale, rule.id),
    }));
    const triggers = [...new Set([draft.trigger, ...FLOW_TRIGGERS].filter((trigger) => trigger !== ''))];
    return kit.render(
      c,
      <FlowEditorPage
        page={page}
        flowId={flowId}
        draft={draft}
        issues={extra.issues ?? null}
        notice={extra.notice}
        actions={extra.actions ?? (await catalogActions(session, page.t.locale))}
        apps={await installedApps(session)}
        rules={rules}
        triggers={triggers}
        isNew={extra.isNew ?? draft.revision === 0}
      />,
      extra.status ?? 200,
    );
  };

  app.get(
    '/admin/flows/new',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('settings.write')) return refuse(c, page);
      return editor(c, page, session, crypto.randomUUID(), newDraft(), { isNew: true });
    }),
  );

  /** The newest jobs (one bounded page), null when the member may not read them. */
  const newestJobs = async (session: AdminSession): Promise<ExecutionsView | null> => {
    const jobs = await kit.act(session, 'automation.executions', { limit: EXECUTIONS_SHOWN });
    return jobs.ok ? (jobs.value as ExecutionsView) : null;
  };

  /** The executions page's view: the newest jobs (or those given) and the flows' names. */
  const executions = async (session: AdminSession, locale: string, read?: ExecutionsView) => {
    const [view, all] = await Promise.all([read ?? newestJobs(session), listed(session)]);
    if (!view || !all) return null;
    const flowNames = new Map(all.flows.map((flow) => [flow.id, nameOf(flow.data.name, locale, flow.id)]));
    return { view, flowNames, fingerprint: executionsFingerprint(view) };
  };

  /** Long-polls in progress per session id. */
  const waits = new Map<string, number>();

  /** The newest jobs once they differ from `seen`, or after LIVE_WAIT_MS (see LIVE_WAIT_MS). */
  const changedJobs = async (session: AdminSession, seen: string, signal: AbortSignal) => {
    let view = await newestJobs(session);
    if (!view || seen === '' || executionsFingerprint(view) !== seen) return view;
    const held = waits.get(session.id) ?? 0;
    if (held >= LIVE_WAITS_PER_SESSION) {
      await sleep(LIVE_WAIT_MS);
      return newestJobs(session);
    }
    waits.set(session.id, held + 1);
    try {
      const until = Date.now() + LIVE_WAIT_MS;
      while (Date.now() < until && !signal.aborted) {
        await sleep(Math.min(LIVE_CHECK_MS, until - Date.now()));
        const next = await newestJobs(session);
        if (!next) return null;
        view = next;
        if (executionsFingerprint(view) !== seen) break;
      }
      return view;
    } finally {
      const left = (waits.get(session.id) ?? 1) - 1;
      if (left > 0) waits.set(session.id, left);
      else waits.delete(session.id);
    }
  };

  app.get(
    '/admin/flows/executions',
    kit.page(async (c, page, session) => {
      const read = await executions(session, page.t.locale);
      if (!read) return refuse(c, page);
      const resolved = c.req.query('resolved');
      const notice =
        resolved === 'retry' || resolved === 'done' || resolved === 'abandon'
          ? { kind: 'ok' as const, text: page.t.t('executions.resolved', { resolution: resolved }) }
          : undefined;
      return kit.render(c, <ExecutionsPage page={page} {...read} notice={notice} />);
    }),
  );

  // The long-polled fragment: only the list, no page shell, answered once it differs from `seen`.
  app.get(
    '/admin/flows/executions/live',
    kit.page(async (c, page, session) => {
      const seen = c.req.query('seen') ?? '';
      const jobs = await changedJobs(session, seen.length <= 64 ? seen : '', c.req.raw.signal);
      const read = jobs ? await executions(session, page.t.locale, jobs) : null;
      if (!read) return refuse(c, page);
      return c.html((<ExecutionsFragment page={page} {...read} />).toString());
    }),
  );

  app.post('/admin/flows/executions/:id/resolve', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const id = c.req.param('id');
    if (!UUID.test(id)) return kit.notFound(c, page);
    const resolution = typeof form.resolution === 'string' ? form.resolution : '';
    const result = await kit.act(session, 'automation.executions.resolve', { id, resolution });
    if (!result.ok) return kit.problem(c, page, result);
    return kit.redirect(c, `/admin/flows/executions?resolved=${resolution}`);
  });

  app.get(
    '/admin/flows/:id',
    kit.page(async (c, page, session) => {
      const id = c.req.param('id') ?? '';
      if (!UUID.test(id)) return kit.notFound(c, page);
      const all = await listed(session);
      if (!all) return refuse(c, page);
      const flow = all.flows.find((candidate) => candidate.id === id);
      if (!flow) return kit.notFound(c, page);
      const saved = c.req.query('saved');
      return editor(c, page, session, id, draftOf(flow.data, flow.revision, flow.active, page.t.locale), {
        rules: all.rules,
        isNew: false,
        ...(saved && /^\d+$/.test(saved)
          ? { notice: { kind: 'ok' as const, text: page.t.t('flows.saved', { revision: Number(saved) }) } }
          : {}),
      });
    }),
  );

  app.post('/admin/flows/:id', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const id = c.req.param('id');
    if (!UUID.test(id)) return kit.notFound(c, page);
    // Only a member who may save gets the editor's working steps (they change nothing stored, and
    // a reader has no editor); a save goes to `automation.save`, which refuses a reader itself.
    const op = typeof form.op === 'string' ? form.op : 'check';
    if (op !== 'save' && !session.principal.permissions.has('settings.write')) return refuse(c, page);
    const actions = await catalogActions(session, page.t.locale);
    let draft = draftFromForm(form, actions, page.t.locale);
    if (op === 'add') {
      const kind = (FLOW_NODE_KINDS as readonly string[]).includes(String(form.addKind))
        ? (form.addKind as FlowNodeKind)
        : 'action';
      draft = withNode(draft, kind, 'note');
    } else if (op.startsWith('remove:')) {
      draft = withoutNode(draft, Number.parseInt(op.slice('remove:'.length), 10));
    }
    const { pipeline, issues } = checkDraft(draft, actions);
    if (op !== 'save') return editor(c, page, session, id, draft, { issues, actions });
    if (issues.length > 0) return editor(c, page, session, id, draft, { issues, status: 422, actions });

    // The stored flow's other data (translated names, instruction, locale, top-level condition) is kept.
    const all = await listed(session);
    const stored = all?.flows.find((candidate) => candidate.id === id);
    const data = {
      ...(stored?.data ?? {}),
      name: { ...(stored?.data.name ?? {}), [page.t.locale]: draft.name },
      trigger: draft.trigger,
      pipeline,
    };
    const saved = await kit.act(session, 'automation.save', {
      kind: 'flows',
      id,
      revision: draft.revision,
      active: draft.active,
      data,
    });
    if (saved.ok) {
      const revision = (saved.value as { revision: number }).revision;
      return kit.redirect(c, `/admin/flows/${id}?saved=${revision}`);
    }
    if (saved.code === 'STALE_REVISION') {
      const actual = Number(saved.extensions?.actual ?? stored?.revision ?? 0);
      return editor(c, page, session, id, draft, {
        status: 409,
        notice: { kind: 'warning', text: page.t.t('flows.stale', { actual, expected: draft.revision }) },
        rules: all?.rules ?? [],
        actions,
      });
    }
    if (saved.code === 'FORBIDDEN' || saved.code === 'NOT_FOUND') return kit.problem(c, page, saved);
    return editor(c, page, session, id, draft, {
      status: 422,
      issues: issuesOfRefusal(draft, saved, actions),
      notice: { kind: 'error', text: page.t.t('flows.refused', { detail: saved.detail }) },
      rules: all?.rules ?? [],
      actions,
    });
  });
};
