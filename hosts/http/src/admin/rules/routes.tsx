/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import type { AdminSession } from '@cartwright/service';
import { type Locale, nameIn } from '../i18n.ts';
import type { AdminArea, AdminKit, FormBody } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import { type EditorState, type Notice, RuleEditorPage, type RuleSummary, RulesListPage } from './pages.tsx';
import { type ReferenceChoices, referenceChoices } from './references.ts';
import {
  applyAction,
  applyFields,
  type CatalogCondition,
  errorsByNode,
  parseTree,
  referencedKinds,
  type TreeNode,
  traceByPointer,
  treeOf,
} from './rule-form.ts';
import {
  composeTestCart,
  EMPTY_TEST_CART,
  type TestCartForm,
  testCartChoices,
  testCartFormOf,
} from './test-cart.ts';

// /admin/rules (issue 20 Build 3, decisions 0016, 0017, 0047): the shop's rules from
// `automation.list`, an editor built from `automation.catalog`, saves through `automation.save`
// and a live preview with its trace through `automation.preview` (explain: true) against a
// storefront cart context token: the test cart the page composes through the storefront
// operations (test-cart.ts), or a visitor's token pasted in.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface StoredRule {
  readonly id: string;
  readonly revision: number;
  readonly active: boolean;
  readonly updatedAt: string;
  readonly data: { name?: Record<string, string>; condition?: unknown } & Record<string, unknown>;
}

interface StoredChannel {
  readonly id: string;
  readonly isMain: boolean;
  readonly data: { name?: Record<string, string> };
}

interface Loaded {
  readonly rules: readonly StoredRule[];
  readonly catalog: readonly CatalogCondition[];
  readonly channels: readonly StoredChannel[];
}

async function load(kit: AdminKit, session: AdminSession, locale: Locale) {
  const [listed, catalog] = await Promise.all([
    kit.act(session, 'automation.list', {}),
    kit.act(session, 'automation.catalog', { language: locale }),
  ]);
  if (!listed.ok) return listed;
  if (!catalog.ok) return catalog;
  return {
    ok: true as const,
    value: {
      rules: (listed.value as { rules: StoredRule[] }).rules,
      channels: (listed.value as { channels: StoredChannel[] }).channels,
      catalog: (catalog.value as { conditions: CatalogCondition[] }).conditions,
    } satisfies Loaded,
  };
}

function summaries(rules: readonly StoredRule[], page: PageContext): RuleSummary[] {
  return rules
    .map((rule) => ({
      id: rule.id,
      name: nameIn(rule.data.name ?? {}, page.t.locale, '') || page.t.t('rules.unnamed'),
      active: rule.active,
      revision: rule.revision,
      updatedAt: rule.updatedAt,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, page.t.locale));
}

function editorState(
  page: PageContext,
  session: AdminSession,
  loaded: Loaded,
  rule: {
    id: string;
    stored: StoredRule | undefined;
    revision: number;
    name: string;
    active: boolean;
    tree: TreeNode;
  },
  references: ReferenceChoices,
  testCart: EditorState['testCart'],
  more: Partial<Pick<EditorState, 'errors' | 'notice' | 'token' | 'preview'>> = {},
): EditorState {
  return {
    id: rule.id,
    isNew: rule.stored === undefined,
    revision: rule.revision,
    name: rule.name,
    active: rule.active,
    tree: rule.tree,
    catalog: loaded.catalog,
    byName: new Map(loaded.catalog.map((condition) => [condition.name, condition])),
    savedRules: summaries(loaded.rules, page),
    references,
    canWrite: session.principal.permissions.has('settings.write'),
    errors: more.errors ?? new Map(),
    notice: more.notice,
    testCart,
    token: more.token ?? '',
    preview: more.preview,
  };
}

const text = (form: FormBody, key: string): string | undefined =>
  typeof form[key] === 'string' ? (form[key] as string) : undefined;

/** The shop's choices for the id parameters `tree` uses: only those kinds' lists are loaded. */
function choicesFor(
  kit: AdminKit,
  session: AdminSession,
  page: PageContext,
  loaded: Loaded,
  tree: TreeNode,
): Promise<ReferenceChoices> {
  const byName = new Map(loaded.catalog.map((condition) => [condition.name, condition]));
  return referenceChoices(kit, session, page.t, referencedKinds(tree, byName), loaded.channels);
}

/** The composer as posted (the main channel until one is chosen) and what it offers. */
async function testCartOf(
  kit: AdminKit,
  session: AdminSession,
  page: PageContext,
  loaded: Loaded,
  posted: TestCartForm,
): Promise<EditorState['testCart']> {
  const main = loaded.channels.find((channel) => channel.isMain) ?? loaded.channels[0];
  const form = posted.channelId === '' ? { ...posted, channelId: main?.id ?? '' } : posted;
  return { form, choices: await testCartChoices(kit, session, page.t.locale, loaded.channels, form) };
}

export const rulesArea: AdminArea = (app, kit) => {
  app.get(
    '/admin/rules',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('settings.read')) return kit.notFound(c, page);
      const loaded = await load(kit, session, page.t.locale);
      if (!loaded.ok) return kit.problem(c, page, loaded);
      const saved = loaded.value.rules.find((rule) => rule.id === c.req.query('saved'));
      const notice: Notice | undefined = saved
        ? {
            kind: 'ok',
            text: page.t.t('rules.saved', {
              name: nameIn(saved.data.name ?? {}, page.t.locale, '') || page.t.t('rules.unnamed'),
              revision: saved.revision,
            }),
          }
        : undefined;
      return kit.render(
        c,
        <RulesListPage
          page={page}
          rules={summaries(loaded.value.rules, page)}
          canWrite={session.principal.permissions.has('settings.write')}
          notice={notice}
        />,
      );
    }),
  );

  app.get(
    '/admin/rules/:id',
    kit.page(async (c, page, session) => {
      const permissions = session.principal.permissions;
      if (!permissions.has('settings.read')) return kit.notFound(c, page);
      const id = c.req.param('id') ?? '';
      const isNew = id === 'new';
      if (isNew && !permissions.has('settings.write')) {
        return kit.problem(c, page, { code: 'FORBIDDEN', detail: 'settings.write' });
      }
      if (!isNew && !UUID.test(id)) return kit.notFound(c, page);
      const loaded = await load(kit, session, page.t.locale);
      if (!loaded.ok) return kit.problem(c, page, loaded);
      const stored = loaded.value.rules.find((rule) => rule.id === id);
      if (!isNew && !stored) return kit.notFound(c, page);
      const tree = (stored && treeOf(stored.data.condition)) ?? { type: 'andContainer', children: [] };
      return kit.render(
        c,
        <RuleEditorPage
          page={page}
          state={editorState(
            page,
            session,
            loaded.value,
            {
              id: stored?.id ?? randomUUID(),
              stored,
              revision: stored?.revision ?? 0,
              name: nameIn(stored?.data.name ?? {}, page.t.locale, ''),
              active: stored?.active ?? true,
              tree,
            },
            await choicesFor(kit, session, page, loaded.value, tree),
            await testCartOf(kit, session, page, loaded.value, EMPTY_TEST_CART),
          )}
        />,
      );
    }),
  );

  app.post('/admin/rules/:id', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const { t } = page;
    const id = c.req.param('id') ?? '';
    if (!UUID.test(id) || !session.principal.permissions.has('settings.read')) return kit.notFound(c, page);
    const loaded = await load(kit, session, t.locale);
    if (!loaded.ok) return kit.problem(c, page, loaded);
    const stored = loaded.value.rules.find((rule) => rule.id === id);
    const canWrite = session.principal.permissions.has('settings.write');
    // A reader's form carries no tree: the preview evaluates the saved rule.
    const posted = form.tree === undefined ? null : parseTree(form.tree);
    const tree = posted ?? (form.tree === undefined && stored ? treeOf(stored.data.condition) : null);
    const revisionText = text(form, 'revision') ?? String(stored?.revision ?? 0);
    const revision = /^\d{1,9}$/.test(revisionText) ? Number(revisionText) : Number.NaN;
    if (!tree || Number.isNaN(revision)) {
      if (!stored && form.tree === undefined) return kit.notFound(c, page);
      return kit.problem(c, page, { code: 'VALIDATION_FAILED', detail: t.t('rules.badTree') });
    }
    const byName = new Map(loaded.value.catalog.map((condition) => [condition.name, condition]));
    if (canWrite) applyFields(tree, form, byName, t.locale);
    const name = (text(form, 'name') ?? nameIn(stored?.data.name ?? {}, t.locale, '')).trim();
    const active = form.activeShown === undefined ? (stored?.active ?? true) : form.active === 'on';
    const token = (text(form, 'token') ?? '').trim();
    const op = text(form, 'op') ?? 'apply';
    const wanted = form['tc:channel'] === undefined ? EMPTY_TEST_CART : testCartFormOf(form);
    let testCart = await testCartOf(kit, session, page, loaded.value, wanted);
    const rule = { id, stored, revision, name, active, tree };
    const show = async (more: Parameters<typeof editorState>[6], status = 200) => {
      const references = await choicesFor(kit, session, page, loaded.value, tree);
      return kit.render(
        c,
        <RuleEditorPage
          page={page}
          state={editorState(page, session, loaded.value, rule, references, testCart, { token, ...more })}
        />,
        status,
      );
    };

    if (op.startsWith('add:') || op.startsWith('remove:')) {
      applyAction(tree, op, form, byName);
      return show({});
    }
    if (op === 'save') {
      const names = { ...(stored?.data.name ?? {}) };
      if (name === '') delete names[t.locale];
      else names[t.locale] = name;
      const saved = await kit.act(session, 'automation.save', {
        kind: 'rules',
        id,
        revision,
        active,
        data: { ...(stored?.data ?? {}), name: names, condition: tree },
      });
      if (saved.ok) return kit.redirect(c, `/admin/rules?saved=${id}`);
      if (saved.code === 'FORBIDDEN') return kit.problem(c, page, saved);
      if (saved.code === 'STALE_REVISION') {
        const actual = Number((saved.extensions as { actual?: number } | undefined)?.actual ?? revision);
        return kit.render(
          c,
          <RuleEditorPage
            page={page}
            state={editorState(
              page,
              session,
              loaded.value,
              { ...rule, revision: actual },
              await choicesFor(kit, session, page, loaded.value, tree),
              testCart,
              { token, notice: { kind: 'warning', text: t.t('rules.stale', { actual }) } },
            )}
          />,
          409,
        );
      }
      return show(
        {
          errors: errorsByNode(tree, saved.errors ?? [], '/data/condition'),
          notice: { kind: 'error', text: t.t('rules.refused', { detail: saved.detail }) },
        },
        422,
      );
    }
    if (op === 'preview' || op === 'previewToken') {
      // The test cart is built (or brought to the composed lines) through the storefront
      // operations; its context token is what the preview sends, as a visitor's would be.
      let contextToken = token;
      if (op === 'preview') {
        const composed = await composeTestCart(kit, session, t.locale, testCart.form, testCart.choices);
        testCart = { ...testCart, form: { ...testCart.form, token: composed.token } };
        if (!composed.ok) {
          const issue = t.t(composed.issue.key, { detail: composed.issue.detail });
          testCart = { ...testCart, issue: { field: composed.issue.field, text: issue } };
          return show(
            { notice: { kind: 'error', text: t.t('rules.previewFailed', { detail: issue }) } },
            422,
          );
        }
        testCart = { ...testCart, summary: composed.summary };
        contextToken = composed.token;
      }
      const previewed = await kit.act(session, 'automation.preview', {
        condition: tree,
        ...(contextToken !== '' ? { contextToken } : {}),
        explain: true,
      });
      if (!previewed.ok) {
        return show(
          {
            errors: errorsByNode(tree, previewed.errors ?? [], '/condition'),
            notice: { kind: 'error', text: t.t('rules.previewFailed', { detail: previewed.detail }) },
          },
          422,
        );
      }
      const { result, trace } = previewed.value as { result: boolean; trace?: unknown };
      return show({ preview: { result, marks: traceByPointer(trace) } });
    }
    return show({});
  });
};
