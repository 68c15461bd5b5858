import { ProposalOperation, ProposalPlan } from '@cartwright/flow-graph';
import { findProposal, listProposals, PROPOSAL_STATUSES, type ProposalRow } from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { iso, Limit, NullableTimestamp, Timestamp, Uuid } from '../kernel/schemas.ts';
import { approveProposal, createProposal, rejectProposal } from './proposals.ts';

// AI proposals' operations (decision 0046), with the permissions of shop intelligence (decision
// 0045): reading proposals is `settings.read`; making, approving and rejecting one
// `settings.write`, and making or approving one also needs each operation's own permission.

const Status = v.picklist(PROPOSAL_STATUSES);

const Proposal = v.object({
  id: Uuid,
  status: Status,
  /** Moves on with the decision. */
  revision: v.number(),
  summary: v.string(),
  reason: v.nullable(v.string()),
  /** The plan, in order, each operation with the versions it read. */
  operations: v.array(ProposalOperation),
  /** A member's or token's actor, or a flow step's (`kind: 'flow'`, flow, job, node, on behalf of). */
  createdBy: v.record(v.string(), v.unknown()),
  /** What the making flow acted on. */
  subject: v.object({ orderId: v.optional(Uuid), customerId: v.optional(Uuid) }),
  decidedBy: v.nullable(v.record(v.string(), v.unknown())),
  decidedAt: NullableTimestamp,
  /** `results` (approved: each operation's answer), `stale` (the findings) or `note` (rejected). */
  decision: v.nullable(v.record(v.string(), v.unknown())),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
type ProposalView = v.InferOutput<typeof Proposal>;

function proposalView(row: ProposalRow): ProposalView {
  return {
    id: row.id,
    status: row.status,
    revision: row.revision,
    summary: row.summary,
    reason: row.reason,
    operations: row.operations as ProposalView['operations'],
    createdBy: row.createdBy,
    subject: row.subject,
    decidedBy: row.decidedBy,
    decidedAt: iso(row.decidedAt),
    decision: row.decision,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function viewOf(result: Result<ProposalRow>): Result<ProposalView> {
  return result.ok ? ok(proposalView(result.value)) : result;
}

export const listProposalsOperation = defineOperation({
  name: 'intelligence.proposals.list',
  summary:
    'The shop’s AI proposals, newest first (page with `after`, a proposal id), optionally of some statuses (pending, approved, rejected, stale): each with its summary, reason, plan, maker and decision.',
  http: { method: 'GET', path: '/api/intelligence/proposals' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({
    status: v.optional(v.pipe(v.array(Status), v.minLength(1), v.maxLength(PROPOSAL_STATUSES.length))),
    limit: Limit,
    after: v.optional(Uuid),
  }),
  output: v.object({ items: v.array(Proposal), next: v.nullable(Uuid) }),
  async handler({ services, tenantId }, input) {
    const rows = await listProposals(services.database.db, tenantId, {
      statuses: input.status,
      after: input.after,
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    return ok({
      items: page.map(proposalView),
      next: rows.length > input.limit ? page.at(-1)!.id : null,
    });
  },
});

export const getProposal = defineOperation({
  name: 'intelligence.proposals.get',
  summary: 'One AI proposal: its plan, maker, status and decision.',
  http: { method: 'GET', path: '/api/intelligence/proposals/:id' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({ id: Uuid }),
  output: Proposal,
  async handler({ services, tenantId }, input) {
    const row = await findProposal(services.database.db, tenantId, input.id);
    return row ? ok(proposalView(row)) : fail('NOT_FOUND', `No proposal ${input.id} exists in this shop.`);
  },
});

export const createProposalOperation = defineOperation({
  name: 'intelligence.proposals.create',
  summary:
    'Stores a plan as a pending proposal for review (for MCP clients and merchants; flows make them with the action ai_proposal): operations intelligence.publish_pair, automation.save_rule and apps.record.set, each naming the versions it read. Refused, storing nothing: an operation you may not do (403), data its target refuses (422), a target named twice (422), or versions that are not current (409 PROPOSAL_STALE).',
  http: { method: 'POST', path: '/api/intelligence/proposals', status: 201 },
  permission: 'settings.write',
  readOnly: false,
  input: ProposalPlan,
  output: Proposal,
  async handler({ services, tenantId, principal }, input) {
    return viewOf(
      await services.database.transaction((tx) =>
        createProposal(tx, services, tenantId, { kind: 'staff', principal }, input),
      ),
    );
  },
});

export const approveProposalOperation = defineOperation({
  name: 'intelligence.proposals.approve',
  summary:
    'Approves a pending proposal: in one transaction your current rights are checked for every operation (403, the proposal stays pending), every record, app package, rule and pair it names must be as the plan read it (else 409 PROPOSAL_STALE: nothing applied, the proposal is marked stale), and every operation is applied with its usual events; an operation refused while applying rolls everything back (its code; the proposal stays pending). A decided proposal answers 409 PROPOSAL_DECIDED.',
  http: { method: 'POST', path: '/api/intelligence/proposals/:id/approve' },
  permission: 'settings.write',
  readOnly: false,
  input: v.object({ id: Uuid }),
  output: Proposal,
  async handler({ services, tenantId, principal }, input) {
    return viewOf(await approveProposal(services, tenantId, principal, input.id));
  },
});

export const rejectProposalOperation = defineOperation({
  name: 'intelligence.proposals.reject',
  summary:
    'Rejects a pending proposal, with an optional note; nothing of its plan is applied. A decided proposal answers 409 PROPOSAL_DECIDED.',
  http: { method: 'POST', path: '/api/intelligence/proposals/:id/reject' },
  permission: 'settings.write',
  readOnly: false,
  input: v.object({
    id: Uuid,
    note: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2000))),
  }),
  output: Proposal,
  async handler({ services, tenantId, principal }, input) {
    return viewOf(await rejectProposal(services, tenantId, principal, input.id, input.note));
  },
});

export const proposalOperations: readonly AnyOperation[] = [
  listProposalsOperation,
  getProposal,
  createProposalOperation,
  approveProposalOperation,
  rejectProposalOperation,
];
