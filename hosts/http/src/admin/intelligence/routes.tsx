/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AdminSession } from '@cartwright/service';
import type { Context } from 'hono';
import type { AdminArea, AdminKit } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  IntelligencePage,
  type Notice,
  type Pair,
  type Proposal,
  pairStatusText,
  productLabel,
} from './pages.tsx';

// /admin/intelligence (issue 20 Build 6, decisions 0045, 0046, 0047): pairs reviewed and proposals
// decided through `intelligence.review` and `intelligence.proposals.approve|reject`.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES = ['dismissed', 'experiment', 'published'] as const;

async function renderPage(
  kit: AdminKit,
  c: Context,
  page: PageContext,
  session: AdminSession,
  notice: Notice,
  status = 200,
): Promise<Response> {
  const pairs = await kit.act(session, 'intelligence.list', {});
  if (!pairs.ok) return kit.problem(c, page, pairs);
  const proposals = await kit.act(session, 'intelligence.proposals.list', { limit: 50 });
  if (!proposals.ok) return kit.problem(c, page, proposals);
  return kit.render(
    c,
    <IntelligencePage
      page={page}
      pairs={(pairs.value as { items: Pair[] }).items}
      proposals={(proposals.value as { items: Proposal[] }).items}
      notice={notice}
    />,
    status,
  );
}

export const intelligenceArea: AdminArea = (app, kit) => {
  app.get(
    '/admin/intelligence',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('settings.read')) return kit.notFound(c, page);
      return renderPage(kit, c, page, session, null);
    }),
  );

  app.post('/admin/intelligence/pairs/:id', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const { t } = page;
    const id = c.req.param('id');
    const status = STATUSES.find((item) => item === form.status);
    const revision = Number(form.revision);
    if (!UUID.test(id) || !status || !Number.isInteger(revision)) return kit.notFound(c, page);
    if (status === 'published' && form.approve !== 'yes') {
      return renderPage(
        kit,
        c,
        page,
        session,
        { kind: 'error', text: t.t('intelligence.approveRequired') },
        422,
      );
    }
    const reviewed = await kit.act(session, 'intelligence.review', {
      id,
      revision,
      status,
      ...(status === 'published' ? { approve: true } : {}),
    });
    if (!reviewed.ok) {
      if (reviewed.code === 'STALE_REVISION') {
        return renderPage(kit, c, page, session, { kind: 'warning', text: t.t('intelligence.stale') }, 409);
      }
      return kit.problem(c, page, reviewed);
    }
    const listed = await kit.act(session, 'intelligence.list', {});
    const pair = listed.ok
      ? (listed.value as { items: Pair[] }).items.find((item) => item.id === id)
      : undefined;
    const text = pair
      ? t.t('intelligence.reviewed', {
          a: productLabel(pair.productA),
          b: productLabel(pair.productB),
          status: pairStatusText(t, status),
        })
      : pairStatusText(t, status);
    return renderPage(kit, c, page, session, { kind: 'ok', text });
  });

  const decide = (decision: 'approve' | 'reject') => async (c: Context) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const { t } = page;
    const id = c.req.param('id') ?? '';
    if (!UUID.test(id)) return kit.notFound(c, page);
    const note = typeof form.note === 'string' && form.note.trim() !== '' ? form.note.trim() : undefined;
    const decided = await kit.act(
      session,
      `intelligence.proposals.${decision}`,
      decision === 'reject' && note !== undefined ? { id, note } : { id },
    );
    if (!decided.ok) {
      if (decided.code === 'PROPOSAL_STALE') {
        return renderPage(
          kit,
          c,
          page,
          session,
          { kind: 'warning', text: t.t('intelligence.proposal.staleNow', { detail: decided.detail }) },
          409,
        );
      }
      if (decided.code === 'PROPOSAL_DECIDED') {
        return renderPage(
          kit,
          c,
          page,
          session,
          { kind: 'warning', text: t.t('intelligence.proposal.decided') },
          409,
        );
      }
      return kit.problem(c, page, decided);
    }
    return renderPage(kit, c, page, session, {
      kind: 'ok',
      text: t.t(decision === 'approve' ? 'intelligence.proposal.approved' : 'intelligence.proposal.rejected'),
    });
  };
  app.post('/admin/intelligence/proposals/:id/approve', decide('approve'));
  app.post('/admin/intelligence/proposals/:id/reject', decide('reject'));
};
