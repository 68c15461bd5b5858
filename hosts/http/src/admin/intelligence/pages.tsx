/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { MessageKey, Translator } from '../i18n.ts';
import { CsrfField, Layout, Message, type PageContext } from '../layout.tsx';

// The intelligence page (decisions 0045, 0046, 0047): co-purchase pairs with their review forms
// and AI proposals with their plans, as `intelligence.list` and `intelligence.proposals.list` answer.

export interface PairProduct {
  readonly id: string;
  readonly sku: string | null;
  readonly name: string | null;
}
export interface Pair {
  readonly id: string;
  readonly status: 'candidate' | 'dismissed' | 'experiment' | 'published';
  readonly revision: number;
  readonly productA: PairProduct;
  readonly productB: PairProduct;
  readonly counts: { observed: number; manual: number; simulated: number; sandbox: number };
}
export type PlanOperation =
  | { kind: 'intelligence.publish_pair'; hypothesisId: string; revision: number }
  | { kind: 'automation.save_rule'; ruleId: string; revision: number; active?: boolean }
  | {
      kind: 'apps.record.set';
      appId: string;
      entity: string;
      recordId: string;
      data: Record<string, unknown>;
    };
export interface Proposal {
  readonly id: string;
  readonly status: 'pending' | 'approved' | 'rejected' | 'stale';
  readonly summary: string;
  readonly reason: string | null;
  readonly operations: readonly PlanOperation[];
  readonly decision: Record<string, unknown> | null;
  readonly createdAt: string;
}

export type Notice = { kind: 'ok' | 'error' | 'warning'; text: string } | null;

export function productLabel(product: PairProduct): string {
  return product.name ?? product.sku ?? product.id;
}

function statusText(t: Translator, status: Pair['status']): string {
  return t.t(`intelligence.status.${status}` as MessageKey);
}

export function pairStatusText(t: Translator, status: Pair['status']): string {
  return statusText(t, status);
}

/** One plan operation as a sentence. */
function operationText(t: Translator, operation: PlanOperation, pairs: readonly Pair[]): string {
  switch (operation.kind) {
    case 'intelligence.publish_pair': {
      const pair = pairs.find((item) => item.id === operation.hypothesisId);
      const id = pair
        ? `${productLabel(pair.productA)} + ${productLabel(pair.productB)}`
        : operation.hypothesisId;
      return t.t('intelligence.op.publish', { id, revision: operation.revision });
    }
    case 'automation.save_rule':
      return t.t('intelligence.op.rule', {
        id: operation.ruleId,
        revision: operation.revision,
        active: operation.active === undefined ? 'unset' : operation.active ? 'yes' : 'no',
      });
    case 'apps.record.set':
      return t.t('intelligence.op.record', {
        fields: Object.keys(operation.data).join(', '),
        entity: operation.entity,
        id: operation.recordId,
        app: operation.appId,
      });
  }
}

function PairRow({ page, pair, writes }: { page: PageContext; pair: Pair; writes: boolean }) {
  const { t, csrf } = page;
  const a = productLabel(pair.productA);
  const b = productLabel(pair.productB);
  const action = `/admin/intelligence/pairs/${pair.id}`;
  return (
    <tr>
      <th scope="row">
        {a} + {b}
      </th>
      <td class="num">
        {new Intl.NumberFormat(t.locale).format(pair.counts.observed + pair.counts.sandbox)}
      </td>
      <td class="num">{new Intl.NumberFormat(t.locale).format(pair.counts.manual)}</td>
      <td class="num">{new Intl.NumberFormat(t.locale).format(pair.counts.simulated)}</td>
      <td>
        <span class={`badge status-${pair.status}`}>{statusText(t, pair.status)}</span>
      </td>
      {writes ? (
        <td>
          <div class="row-actions">
            <form method="post" action={action}>
              <CsrfField token={csrf} />
              <input type="hidden" name="revision" value={String(pair.revision)} />
              <input type="hidden" name="status" value="dismissed" />
              <button type="submit" class="secondary">
                {t.t('intelligence.dismiss')}
              </button>
            </form>
            <form method="post" action={action}>
              <CsrfField token={csrf} />
              <input type="hidden" name="revision" value={String(pair.revision)} />
              <input type="hidden" name="status" value="experiment" />
              <button type="submit" class="secondary">
                {t.t('intelligence.experiment')}
              </button>
            </form>
            <form method="post" action={action} class="publish">
              <CsrfField token={csrf} />
              <input type="hidden" name="revision" value={String(pair.revision)} />
              <input type="hidden" name="status" value="published" />
              <input type="checkbox" name="approve" value="yes" id={`approve-${pair.id}`} />
              <label for={`approve-${pair.id}`} class="inline">
                {t.t('intelligence.approve', { a, b })}
              </label>
              <button type="submit">{t.t('intelligence.publish')}</button>
            </form>
          </div>
        </td>
      ) : null}
    </tr>
  );
}

function ProposalCard({
  page,
  proposal,
  pairs,
  writes,
}: {
  page: PageContext;
  proposal: Proposal;
  pairs: readonly Pair[];
  writes: boolean;
}) {
  const { t, csrf } = page;
  const stale = proposal.status === 'stale' ? proposal.decision?.stale : undefined;
  return (
    <article class="card" aria-labelledby={`proposal-${proposal.id}`}>
      <h3 id={`proposal-${proposal.id}`}>{proposal.summary}</h3>
      <p>
        <span class={`badge status-${proposal.status}`}>
          {t.t(`intelligence.proposal.status.${proposal.status}` as MessageKey)}
        </span>{' '}
        <span class="meta">{t.t('intelligence.proposal.created', { date: t.date(proposal.createdAt) })}</span>
      </p>
      {proposal.reason ? <p>{t.t('intelligence.proposal.reason', { reason: proposal.reason })}</p> : null}
      <h4>{t.t('intelligence.proposal.plan')}</h4>
      {proposal.operations.length === 0 ? (
        <p>{t.t('intelligence.proposal.empty')}</p>
      ) : (
        <ol>
          {proposal.operations.map((operation) => (
            <li>{operationText(t, operation, pairs)}</li>
          ))}
        </ol>
      )}
      {stale !== undefined ? (
        <p class="hint">{t.t('intelligence.proposal.staleNow', { detail: '' })}</p>
      ) : null}
      {writes && proposal.status === 'pending' ? (
        <div class="row-actions">
          <form method="post" action={`/admin/intelligence/proposals/${proposal.id}/approve`}>
            <CsrfField token={csrf} />
            <button type="submit">{t.t('intelligence.proposal.approve')}</button>
          </form>
          <form method="post" action={`/admin/intelligence/proposals/${proposal.id}/reject`}>
            <CsrfField token={csrf} />
            <label for={`note-${proposal.id}`}>{t.t('intelligence.proposal.note')}</label>
            <input type="text" id={`note-${proposal.id}`} name="note" maxlength={2000} />
            <button type="submit" class="secondary">
              {t.t('intelligence.proposal.reject')}
            </button>
          </form>
        </div>
      ) : null}
    </article>
  );
}

export function IntelligencePage({
  page,
  pairs,
  proposals,
  notice,
}: {
  page: PageContext;
  pairs: readonly Pair[];
  proposals: readonly Proposal[];
  notice: Notice;
}) {
  const { t } = page;
  const writes = page.session?.principal.permissions.has('settings.write') ?? false;
  return (
    <Layout page={page} title={t.t('intelligence.title')}>
      <h1>{t.t('intelligence.title')}</h1>
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      <section aria-labelledby="pairs-heading">
        <h2 id="pairs-heading">{t.t('intelligence.pairs')}</h2>
        {pairs.length === 0 ? (
          <p>{t.t('intelligence.pairs.none')}</p>
        ) : (
          <table class="data">
            <thead>
              <tr>
                <th scope="col">{t.t('intelligence.pair')}</th>
                <th scope="col">{t.t('intelligence.observed')}</th>
                <th scope="col">{t.t('intelligence.manual')}</th>
                <th scope="col">{t.t('intelligence.simulated')}</th>
                <th scope="col">{t.t('intelligence.status')}</th>
                {writes ? <th scope="col">{t.t('intelligence.review')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {pairs.map((pair) => (
                <PairRow page={page} pair={pair} writes={writes} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="proposals-heading">
        <h2 id="proposals-heading">{t.t('intelligence.proposals')}</h2>
        {proposals.length === 0 ? (
          <p>{t.t('intelligence.proposals.none')}</p>
        ) : (
          <div class="cards">
            {proposals.map((proposal) => (
              <ProposalCard page={page} proposal={proposal} pairs={pairs} writes={writes} />
            ))}
          </div>
        )}
      </section>
    </Layout>
  );
}
