/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AdminSession } from '@cartwright/service';
import type { Context } from 'hono';
import type { MessageKey } from '../i18n.ts';
import type { AdminArea, AdminKit, FormBody } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import { ADMIN_POLICY } from '../security.ts';
import {
  ADMIN_MOUNTS,
  type BlockContext,
  blockFieldsOf,
  blockValues,
  type ContextKey,
  type InstalledApp,
  loadAppBlocks,
  textIn,
} from './blocks.tsx';
import {
  AppPage,
  AppsPage,
  type Assistant,
  AssistantPage,
  DELIVERY_STATUSES,
  DeliveriesPage,
  type Delivery,
  type DeliveryCircuit,
  type Notice,
  type Preview,
} from './pages.tsx';
import { panelHtml, panelNonce, panelNonceValid, panelPolicy } from './panel.ts';

// /admin/apps (issue 20 Build 7, decisions 0035, 0038, 0042, 0047): install from a manifest or an
// assistant, upgrade with the compatibility diff, app data cards, the app's iframe panels. Every
// read and write is an operation called as the member (`kit.act`).

// A lookup guard only: the app is then found among the installed ones (ids: @cartwright/app-manifest).
const APP_ID = /^[a-z][a-z0-9_-]{0,63}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTEXT_KEYS: readonly ContextKey[] = ['productId', 'customerId', 'orderId'];
/** Deliveries per page of the log. */
const DELIVERY_PAGE = 25;
const DELIVERY_NOTICES: Readonly<Record<string, { kind: 'ok' | 'warning'; key: MessageKey }>> = {
  redelivered: { kind: 'ok', key: 'apps.deliveries.redelivered' },
  resumed: { kind: 'ok', key: 'apps.deliveries.resumed' },
  unchanged: { kind: 'warning', key: 'apps.deliveries.notPaused' },
};

async function installedApps(kit: AdminKit, session: AdminSession): Promise<InstalledApp[]> {
  const listed = await kit.act(session, 'apps.list', {});
  return listed.ok ? (listed.value as { items: InstalledApp[] }).items : [];
}

async function assistantsOf(kit: AdminKit, session: AdminSession, locale: string): Promise<Assistant[]> {
  const listed = await kit.act(session, 'apps.assistants.list', { language: locale });
  return listed.ok ? (listed.value as { items: Assistant[] }).items : [];
}

/** A refusal as a notice, with each field error's pointer and message as a reason. */
function refusal(
  page: PageContext,
  failure: {
    detail: string;
    errors?: readonly { pointer: string; message: string }[];
    extensions?: Readonly<Record<string, unknown>>;
  },
): Notice {
  const fromErrors = (failure.errors ?? []).map((error) => `${error.pointer} ${error.message}`);
  const reasons = failure.extensions?.reasons;
  const fromReasons = Array.isArray(reasons)
    ? reasons.map(
        (reason: { pointer?: string; message?: string }) => `${reason.pointer ?? ''} ${reason.message ?? ''}`,
      )
    : [];
  return {
    kind: 'error',
    text: page.t.t('apps.refused', { detail: failure.detail }),
    reasons: [...fromReasons, ...fromErrors],
  };
}

/** The answers of an assistant's form, typed as its questions want them; a JSON answer that does not parse is kept as text. */
function answersOf(assistant: Assistant, form: FormBody): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of assistant.questions) {
    const name = `q.${question.id}`;
    const raw = form[name];
    switch (question.type) {
      case 'boolean':
        answers[question.id] = raw === 'yes';
        break;
      case 'choices': {
        const picked = (question.choices ?? []).filter((choice) => form[`${name}.${choice.value}`] === 'yes');
        if (picked.length > 0) answers[question.id] = picked.map((choice) => choice.value);
        break;
      }
      case 'integer':
        if (typeof raw === 'string' && raw.trim() !== '') answers[question.id] = Number(raw);
        break;
      case 'events':
        if (typeof raw === 'string' && raw.trim() !== '') {
          answers[question.id] = raw
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== '');
        }
        break;
      case 'fields':
      case 'json':
        if (typeof raw === 'string' && raw.trim() !== '') {
          try {
            answers[question.id] = JSON.parse(raw);
          } catch {
            answers[question.id] = raw;
          }
        }
        break;
      default:
        if (typeof raw === 'string' && raw !== '') answers[question.id] = raw;
    }
  }
  return answers;
}

function contextOf(c: Context): BlockContext {
  const context: BlockContext = {};
  for (const key of CONTEXT_KEYS) {
    const value = c.req.query(key);
    if (value && UUID.test(value)) context[key] = value;
  }
  return context;
}

export const appsArea: AdminArea = (app, kit) => {
  const listPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    notice: Notice,
    status = 200,
    manifestText?: string,
  ) =>
    kit.render(
      c,
      <AppsPage
        page={page}
        apps={await installedApps(kit, session)}
        assistants={await assistantsOf(kit, session, page.t.locale)}
        notice={notice}
        manifestText={manifestText}
      />,
      status,
    );

  app.get(
    '/admin/apps',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('apps.read')) return kit.notFound(c, page);
      return listPage(c, page, session, null);
    }),
  );

  app.post('/admin/apps/install', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const text = typeof form.manifest === 'string' ? form.manifest : '';
    let manifest: unknown;
    try {
      manifest = JSON.parse(text);
    } catch (error) {
      return listPage(
        c,
        page,
        session,
        { kind: 'error', text: page.t.t('apps.badJson', { detail: String((error as Error).message) }) },
        422,
        text,
      );
    }
    const appId = (manifest as { id?: unknown } | null)?.id;
    const current =
      typeof appId === 'string'
        ? (await installedApps(kit, session)).find((item) => item.appId === appId)
        : undefined;
    const module = typeof form.module === 'string' && form.module.trim() !== '' ? form.module : undefined;
    const installed = await kit.act(session, 'apps.install', {
      appId: typeof appId === 'string' ? appId : '',
      revision: current?.revision ?? 0,
      manifest,
      ...(module ? { module } : {}),
    });
    if (!installed.ok) {
      if (installed.code === 'FORBIDDEN' || installed.code === 'NOT_FOUND')
        return kit.problem(c, page, installed);
      return listPage(
        c,
        page,
        session,
        refusal(page, installed),
        installed.code === 'APP_INCOMPATIBLE' ? 409 : 422,
        text,
      );
    }
    const { app: done } = installed.value as { app: InstalledApp };
    return kit.redirect(c, `/admin/apps/${done.appId}`);
  });

  const assistantPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    id: string,
    answers: Record<string, unknown>,
    preview: Preview | null,
    notice: Notice,
    status = 200,
  ) => {
    const assistant = (await assistantsOf(kit, session, page.t.locale)).find((item) => item.id === id);
    if (!assistant) return kit.notFound(c, page);
    return kit.render(
      c,
      <AssistantPage page={page} assistant={assistant} answers={answers} preview={preview} notice={notice} />,
      status,
    );
  };

  app.get(
    '/admin/apps/assistants/:id',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('apps.manage')) return kit.notFound(c, page);
      return assistantPage(c, page, session, c.req.param('id') ?? '', {}, null, null);
    }),
  );

  app.post('/admin/apps/assistants/:id/preview', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const id = c.req.param('id') ?? '';
    const assistant = (await assistantsOf(kit, session, page.t.locale)).find((item) => item.id === id);
    if (!assistant) return kit.notFound(c, page);
    const answers = answersOf(assistant, form);
    const previewed = await kit.act(session, 'apps.assistants.preview', { assistant: id, answers });
    if (!previewed.ok) {
      if (previewed.code === 'FORBIDDEN') return kit.problem(c, page, previewed);
      return assistantPage(c, page, session, id, answers, null, refusal(page, previewed), 422);
    }
    return assistantPage(c, page, session, id, answers, previewed.value as Preview, null);
  });

  app.post('/admin/apps/assistants/:id/install', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const id = c.req.param('id') ?? '';
    let answers: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(typeof form.answers === 'string' ? form.answers : '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) answers = parsed;
    } catch {
      answers = {};
    }
    const installed = await kit.act(session, 'apps.assistants.install', {
      assistant: id,
      answers,
      revision: Number(form.revision),
    });
    if (!installed.ok) {
      if (installed.code === 'FORBIDDEN' || installed.code === 'NOT_FOUND')
        return kit.problem(c, page, installed);
      return assistantPage(
        c,
        page,
        session,
        id,
        answers,
        null,
        refusal(page, installed),
        installed.code === 'APP_INCOMPATIBLE' || installed.code === 'STALE_REVISION' ? 409 : 422,
      );
    }
    const { app: done } = installed.value as { app: InstalledApp };
    return kit.redirect(c, `/admin/apps/${done.appId}`);
  });

  const findApp = async (session: AdminSession, appId: string) =>
    APP_ID.test(appId) ? (await installedApps(kit, session)).find((item) => item.appId === appId) : undefined;

  app.get(
    '/admin/apps/:appId',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('apps.read')) return kit.notFound(c, page);
      const found = await findApp(session, c.req.param('appId') ?? '');
      if (!found) return kit.notFound(c, page);
      const context = contextOf(c);
      const blocks = await loadAppBlocks(kit, session, [found], ADMIN_MOUNTS, context);
      const writes = session.principal.permissions.has('apps.write');
      // The app's own panels (decision 0048), for writers only, each with a nonce of this render.
      const panels = writes
        ? (found.manifest.admin?.panels ?? []).map((panel) => {
            const nonce = panelNonce(page.csrf, found.appId);
            return {
              id: panel.id,
              label: textIn(panel.label, page.t.locale, panel.id),
              nonce,
              src: `/admin/apps/${found.appId}/panels/${panel.id}?nonce=${encodeURIComponent(nonce)}`,
            };
          })
        : [];
      const notice: Notice =
        c.req.query('done') === 'saved' ? { kind: 'ok', text: page.t.t('apps.saved') } : null;
      // A page that frames the app's panels: the admin's policy plus frame-src 'self'.
      if (panels.length > 0) c.header('content-security-policy', `${ADMIN_POLICY}; frame-src 'self'`);
      return kit.render(
        c,
        <AppPage page={page} app={found} blocks={blocks} context={context} panels={panels} notice={notice} />,
      );
    }),
  );

  // The app's delivery log (`apps.deliveries.list`), newest first, a page of 25 after a delivery id.
  const deliveriesPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    found: InstalledApp,
    notice: Notice,
    status = 200,
  ) => {
    const filter = DELIVERY_STATUSES.find((item) => item === c.req.query('status')) ?? null;
    const after = c.req.query('after');
    const listed = await kit.act(session, 'apps.deliveries.list', {
      appId: found.appId,
      limit: DELIVERY_PAGE,
      ...(after && UUID.test(after) ? { after } : {}),
      ...(filter ? { status: [filter] } : {}),
    });
    if (!listed.ok) return kit.problem(c, page, listed);
    const { items, circuit } = listed.value as { items: Delivery[]; circuit: DeliveryCircuit };
    return kit.render(
      c,
      <DeliveriesPage
        page={page}
        app={found}
        deliveries={items}
        circuit={circuit}
        status={filter}
        more={items.length === DELIVERY_PAGE ? items.at(-1)!.id : null}
        notice={notice}
      />,
      status,
    );
  };

  app.get(
    '/admin/apps/:appId/deliveries',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('apps.read')) return kit.notFound(c, page);
      const found = await findApp(session, c.req.param('appId') ?? '');
      if (!found) return kit.notFound(c, page);
      // The answer of a redeliver or resume (post, then redirect here).
      const done = DELIVERY_NOTICES[c.req.query('done') ?? ''];
      const notice: Notice = done ? { kind: done.kind, text: page.t.t(done.key) } : null;
      return deliveriesPage(c, page, session, found, notice);
    }),
  );

  // Redeliver (`apps.write`) and resume (`apps.manage`): the operation refuses a member without the
  // right (403); another refusal is shown on the log with its detail.
  app.post('/admin/apps/:appId/deliveries/:deliveryId/redeliver', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { page, session } = checked;
    const found = await findApp(session, c.req.param('appId') ?? '');
    const deliveryId = c.req.param('deliveryId') ?? '';
    if (!found || !UUID.test(deliveryId)) return kit.notFound(c, page);
    const done = await kit.act(session, 'apps.deliveries.redeliver', { appId: found.appId, deliveryId });
    if (!done.ok) {
      if (done.code === 'FORBIDDEN') return kit.problem(c, page, done);
      return deliveriesPage(
        c,
        page,
        session,
        found,
        refusal(page, done),
        done.code === 'NOT_FOUND' ? 404 : 422,
      );
    }
    return kit.redirect(c, `/admin/apps/${found.appId}/deliveries?done=redelivered`);
  });

  app.post('/admin/apps/:appId/deliveries/resume', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { page, session } = checked;
    const found = await findApp(session, c.req.param('appId') ?? '');
    if (!found) return kit.notFound(c, page);
    const done = await kit.act(session, 'apps.deliveries.resume', { appId: found.appId });
    if (!done.ok) {
      if (done.code === 'FORBIDDEN' || done.code === 'NOT_FOUND') return kit.problem(c, page, done);
      return deliveriesPage(c, page, session, found, refusal(page, done), 422);
    }
    const { wasOpen } = done.value as { wasOpen: boolean };
    return kit.redirect(c, `/admin/apps/${found.appId}/deliveries?done=${wasOpen ? 'resumed' : 'unchanged'}`);
  });

  // A block's form (create a record) or button (run the service), bound to the block's context.
  app.post('/admin/apps/:appId/blocks/:blockId', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const found = await findApp(session, c.req.param('appId') ?? '');
    const block = found?.manifest.blocks?.find((item) => item.id === c.req.param('blockId'));
    if (!found || !block || (block.kind !== 'form' && block.kind !== 'action')) return kit.notFound(c, page);
    const input = block.kind === 'form' ? blockValues(blockFieldsOf(found, block), form) : {};
    const binding = block.contextBinding;
    if (binding) {
      const bound = typeof form.context === 'string' && UUID.test(form.context) ? form.context : null;
      if (!bound)
        return kit.problem(c, page, { code: 'VALIDATION_FAILED', detail: page.t.t('apps.needContext') });
      input[binding.field] = bound;
    }
    const done = await kit.act(session, 'apps.actions.invoke', {
      ...input,
      appId: found.appId,
      actionId: block.action,
    });
    if (!done.ok) return kit.problem(c, page, done);
    const back =
      typeof form.back === 'string' && /^\/admin\/[A-Za-z0-9/_?&=.-]*$/.test(form.back)
        ? form.back
        : `/admin/apps/${found.appId}`;
    return kit.redirect(c, `${back}${back.includes('?') ? '&' : '?'}done=saved`);
  });

  // A panel document (opaque origin in its sandbox): the app's markup under the admin's head and
  // its own strict policy, framed only by the admin.
  app.get(
    '/admin/apps/:appId/panels/:panelId',
    kit.page(async (c, page, session) => {
      const found = await findApp(session, c.req.param('appId') ?? '');
      const panel = found?.manifest.admin?.panels?.find((item) => item.id === c.req.param('panelId'));
      const nonce = c.req.query('nonce');
      if (
        !found ||
        !panel ||
        !session.principal.permissions.has('apps.write') ||
        !panelNonceValid(page.csrf, found.appId, nonce)
      ) {
        return kit.notFound(c, page);
      }
      c.header('content-security-policy', panelPolicy(panel));
      c.header('x-frame-options', 'SAMEORIGIN');
      const title = page.t.t('apps.panel.title', { name: textIn(panel.label, page.t.locale, panel.id) });
      return c.html(panelHtml(panel, nonce!, page.t.locale, title));
    }),
  );

  // The bridge's door: only this app's declared actions, with a nonce this session issued for it.
  app.post('/admin/apps/:appId/panel/invoke', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const found = await findApp(session, c.req.param('appId') ?? '');
    if (!found || !panelNonceValid(page.csrf, found.appId, form.nonce)) {
      return c.json({ code: 'FORBIDDEN', detail: 'This panel may not act for this app.' }, 403);
    }
    const action = (found.manifest.actions ?? []).find((item) => item.id === form.action);
    if (!action) {
      return c.json(
        { code: 'APP_ACTION_NOT_FOUND', detail: `The app ${found.appId} declares no such action.` },
        404,
      );
    }
    let input: unknown;
    try {
      input = JSON.parse(typeof form.input === 'string' ? form.input : '{}');
    } catch {
      input = null;
    }
    if (!input || typeof input !== 'object' || Array.isArray(input)) {
      return c.json({ code: 'VALIDATION_FAILED', detail: 'The input is a JSON object.' }, 422);
    }
    const done = await kit.act(session, 'apps.actions.invoke', {
      ...(input as Record<string, unknown>),
      appId: found.appId,
      actionId: action.id,
    });
    if (!done.ok) {
      const status = done.code === 'FORBIDDEN' ? 403 : done.code === 'NOT_FOUND' ? 404 : 422;
      return c.json({ code: done.code, detail: done.detail, errors: done.errors ?? [] }, status);
    }
    return c.json({ value: done.value });
  });
};
