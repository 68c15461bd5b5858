import {
  actionPermission,
  checkRow,
  type Entity,
  type EntityAction,
  entityOf,
} from '@cartwright/app-manifest';
import { type ProposalOperation, ProposalOperations, type ProposalPlan } from '@cartwright/flow-graph';
import {
  decideProposal,
  definitionTables,
  type Executor,
  findApp,
  findAppRecord,
  findIntelligencePair,
  findProposal,
  findProposalBySource,
  findRevisioned,
  findToken,
  insertProposal,
  type ProposalRow,
} from '@cartwright/repository';
import * as v from 'valibot';
import { invokeAppAction } from '../apps/invoke.ts';
import { manifestOf } from '../apps/lifecycle.ts';
import { valueFailure } from '../apps/records.ts';
import { checkDefinition, saveDefinition } from '../automation/definitions.ts';
import { actorOf, grantOfToken, type Principal } from '../kernel/auth.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { PERMISSIONS, type Permission } from '../kernel/permissions.ts';
import type { Services } from '../kernel/services.ts';
import { setHypothesisStatus } from './review.ts';

// AI proposals (issue 19, item 5; decision 0046). A proposal is a typed plan of operations
// (`@cartwright/flow-graph`'s ProposalPlan) kept for a merchant's review. Making one checks that
// its maker may do every operation and that each names the current versions of what it changes;
// approving one checks both again for the approver and under row locks, then applies every
// operation through the same use cases the staff operations run, in ONE transaction: a plan
// applies whole or not at all. No model is called here.

/** Who makes a proposal: a member or token of the shop, or a flow's `ai_proposal` step. */
export type ProposalMaker =
  | { readonly kind: 'staff'; readonly principal: Principal }
  | {
      readonly kind: 'flow';
      /** The step's actor (`kind: 'flow'`), acting for whoever last saved the flow. */
      readonly actor: Extract<Actor, { kind: 'flow' }>;
      /** `flow:<job>:<node>`: one proposal per step, however often the step runs. */
      readonly stepKey: string;
      /** What the flow acts on (`orderId`, `customerId`). */
      readonly subject: Readonly<Record<string, string>>;
    };

/** What changed since the plan was made: one operation's target, the versions it named and the current ones (null: gone). */
export interface StaleFinding {
  readonly operation: number;
  readonly kind: ProposalOperation['kind'];
  readonly target: string;
  readonly expected: Readonly<Record<string, unknown>>;
  readonly actual: Readonly<Record<string, unknown>> | null;
}

/** One operation as the shop holds its target now: the permission it needs and whether it is stale. */
interface Inspection {
  readonly permission: Permission;
  readonly finding: StaleFinding | null;
  /** apps.record.set: the entity and its declared update action. */
  readonly update?: { readonly action: EntityAction; readonly entity: Entity };
}

/** A key per target, so a plan changes each rule, record and pair at most once. */
function targetOf(operation: ProposalOperation): string {
  switch (operation.kind) {
    case 'intelligence.publish_pair':
      return `pair ${operation.hypothesisId}`;
    case 'automation.save_rule':
      return `rule ${operation.ruleId}`;
    case 'apps.record.set':
      return `${operation.appId} ${operation.entity} record ${operation.recordId}`;
  }
}

/** A failure of one operation, its pointers moved under `/operations/<index>`. */
function underOperation(failure: Failure, index: number, what: string): Failure {
  return fail(failure.code, `Operation ${index} (${what}): ${failure.detail}`, {
    ...(failure.errors
      ? {
          errors: failure.errors.map((error) => ({
            ...error,
            pointer: `/operations/${index}${error.pointer}`,
          })),
        }
      : {}),
    extensions: { ...failure.extensions, operation: index },
  });
}

function stale(index: number, operation: ProposalOperation, expected: object, actual: object | null) {
  return {
    operation: index,
    kind: operation.kind,
    target: targetOf(operation),
    expected: { ...expected },
    actual: actual === null ? null : { ...actual },
  } satisfies StaleFinding;
}

/**
 * Reads the target of one operation as it is now (locked when `lock`: an approval holds every
 * target until it commits) and checks the operation's data against it. A failure here is a plan
 * that cannot apply whatever the versions (data the types refuse, an entity without an update
 * action); staleness is a finding, not a failure.
 */
async function inspect(
  tx: Executor,
  tenantId: string,
  operation: ProposalOperation,
  index: number,
  lock: boolean,
): Promise<Result<Inspection>> {
  switch (operation.kind) {
    case 'intelligence.publish_pair': {
      const pair = await findIntelligencePair(
        tx,
        tenantId,
        operation.hypothesisId,
        lock ? 'update' : undefined,
      );
      const expected = { revision: operation.revision };
      return ok({
        permission: 'settings.write',
        finding:
          pair?.revision === operation.revision
            ? null
            : stale(
                index,
                operation,
                expected,
                pair ? { revision: pair.revision, status: pair.status } : null,
              ),
      });
    }
    case 'automation.save_rule': {
      const checked = checkDefinition('rules', operation.data, new Set(PERMISSIONS));
      if (!checked.ok) return underOperation(checked, index, operation.kind);
      const rule = await findRevisioned(
        tx,
        definitionTables.rule,
        tenantId,
        operation.ruleId,
        lock ? 'update' : undefined,
      );
      const actual = rule?.revision ?? 0;
      return ok({
        permission: 'settings.write',
        finding:
          actual === operation.revision
            ? null
            : stale(index, operation, { revision: operation.revision }, { revision: actual }),
      });
    }
    case 'apps.record.set': {
      const app = await findApp(tx, tenantId, operation.appId, lock ? 'share' : undefined);
      const expected = {
        appVersion: operation.appVersion,
        appRevision: operation.appRevision,
        revision: operation.revision,
      };
      if (!app) return ok({ permission: 'apps.write', finding: stale(index, operation, expected, null) });
      const manifest = manifestOf(app);
      const action = manifest.actions.find(
        (item): item is EntityAction => item.kind === 'update' && item.entity === operation.entity,
      );
      const entity = action ? entityOf(manifest, action) : null;
      const packageMoved = app.version !== operation.appVersion || app.revision !== operation.appRevision;
      if (packageMoved) {
        return ok({
          permission: action ? actionPermission(action) : 'apps.write',
          finding: stale(index, operation, expected, { appVersion: app.version, appRevision: app.revision }),
        });
      }
      if (!action || !entity) {
        return underOperation(
          fail(
            'APP_ACTION_NOT_FOUND',
            `The app ${operation.appId} declares no update action of an entity ${operation.entity}.`,
            { errors: [{ pointer: '/entity', message: 'no update action of this entity' }] },
          ),
          index,
          operation.kind,
        );
      }
      const patch = checkRow(entity, operation.data, { partial: true });
      if (!patch.ok) return underOperation(valueFailure(patch, '/data', 'change'), index, operation.kind);
      const record = await findAppRecord(
        tx,
        tenantId,
        operation.appId,
        operation.entity,
        operation.recordId,
        lock ? 'update' : undefined,
      );
      const current = { appVersion: app.version, appRevision: app.revision };
      return ok({
        permission: actionPermission(action),
        update: { action, entity },
        finding:
          record?.revision === operation.revision
            ? null
            : stale(index, operation, expected, record ? { ...current, revision: record.revision } : null),
      });
    }
  }
}

/** Every operation inspected in order; the first that cannot apply at all fails the lot. */
async function inspectAll(
  tx: Executor,
  tenantId: string,
  operations: readonly ProposalOperation[],
  lock: boolean,
): Promise<Result<Inspection[]>> {
  const inspections: Inspection[] = [];
  for (const [index, operation] of operations.entries()) {
    const inspected = await inspect(tx, tenantId, operation, index, lock);
    if (!inspected.ok) return inspected;
    inspections.push(inspected.value);
  }
  return ok(inspections);
}

/** FORBIDDEN for the first operation whose permission `permissions` lacks, else null. */
function missingRight(
  operations: readonly ProposalOperation[],
  inspections: readonly Inspection[],
  permissions: ReadonlySet<Permission>,
  who: string,
): Failure | null {
  const index = inspections.findIndex((inspection) => !permissions.has(inspection.permission));
  if (index < 0) return null;
  const { permission } = inspections[index]!;
  return fail(
    'FORBIDDEN',
    `Operation ${index} (${operations[index]!.kind}) needs the permission ${permission}, which ${who} not hold.`,
    { extensions: { operation: index, permission } },
  );
}

function staleFailure(findings: readonly StaleFinding[], made: boolean, extra: Record<string, unknown> = {}) {
  const names = findings.map((finding) => `${finding.target} (operation ${finding.operation})`).join(', ');
  return fail(
    'PROPOSAL_STALE',
    made
      ? `What the proposal would change moved since it was made: ${names}. Nothing was applied; the proposal is marked stale.`
      : `The plan names versions that are no longer current: ${names}. Nothing was stored.`,
    { extensions: { stale: findings, ...extra } },
  );
}

/** A plan names each target once: a second change of one target could only be stale. */
function repeatedTarget(operations: readonly ProposalOperation[]): Failure | null {
  const seen = new Set<string>();
  for (const [index, operation] of operations.entries()) {
    const target = targetOf(operation);
    if (seen.has(target)) {
      return fail('VALIDATION_FAILED', `The plan changes ${target} more than once.`, {
        errors: [{ pointer: `/operations/${index}`, message: 'names a target an earlier operation names' }],
      });
    }
    seen.add(target);
  }
  return null;
}

/**
 * The permissions a flow acts with now: the flow's saver's token (none once it is revoked, expired
 * or its membership gone), or every permission for the shop's own starter flows.
 */
async function flowPermissions(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Extract<Actor, { kind: 'flow' }>,
): Promise<ReadonlySet<Permission>> {
  const owner = actor.onBehalfOf;
  if (owner.kind === 'system') return new Set(PERMISSIONS);
  const token = await findToken(tx, tenantId, owner.tokenId);
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= services.clock.now()))
    return new Set();
  return (await grantOfToken(tx, tenantId, token))?.permissions ?? new Set();
}

/**
 * Stores a pending proposal made by `maker` in the caller's transaction `tx`. Refused, storing
 * nothing: a target named twice (VALIDATION_FAILED), data the target refuses, an operation the
 * maker may not do (FORBIDDEN: spec Authentication 5, planning within current rights), or a plan
 * already stale (PROPOSAL_STALE). A flow step that made its proposal already answers that one.
 */
export async function createProposal(
  tx: Executor,
  services: Services,
  tenantId: string,
  maker: ProposalMaker,
  plan: ProposalPlan,
): Promise<Result<ProposalRow>> {
  if (maker.kind === 'flow') {
    const earlier = await findProposalBySource(tx, tenantId, maker.stepKey);
    if (earlier) return ok(earlier);
  }
  const repeated = repeatedTarget(plan.operations);
  if (repeated) return repeated;
  const inspections = await inspectAll(tx, tenantId, plan.operations, false);
  if (!inspections.ok) return inspections;
  const permissions =
    maker.kind === 'staff'
      ? maker.principal.permissions
      : await flowPermissions(tx, services, tenantId, maker.actor);
  const refused = missingRight(
    plan.operations,
    inspections.value,
    permissions,
    maker.kind === 'staff' ? 'you do' : 'the flow’s actor does',
  );
  if (refused) return refused;
  const findings = inspections.value.flatMap((inspection) =>
    inspection.finding ? [inspection.finding] : [],
  );
  if (findings.length > 0) return staleFailure(findings, false);
  const actor = maker.kind === 'staff' ? actorOf(maker.principal) : maker.actor;
  const now = services.clock.now();
  const row = await insertProposal(tx, {
    tenantId,
    id: services.ids.next(),
    status: 'pending',
    summary: plan.summary,
    reason: plan.reason ?? null,
    operations: plan.operations.map((operation) => ({ ...operation })),
    createdBy: { ...actor },
    sourceKey: maker.kind === 'flow' ? maker.stepKey : null,
    subject: maker.kind === 'flow' ? { ...maker.subject } : {},
    createdAt: now,
    updatedAt: now,
  });
  await recordEvent(tx, services, tenantId, actor, 'intelligence.proposal.created', {
    id: row.id,
    operations: plan.operations.length,
  });
  return ok(row);
}

/** The plan as stored (it was checked when made; a row that no longer parses is a bug). */
function storedOperations(row: ProposalRow): ProposalOperation[] {
  return v.parse(ProposalOperations, row.operations);
}

/** An operation refused while the plan applied: thrown so the whole transaction rolls back. */
class PlanRefused extends Error {
  constructor(readonly failure: Failure) {
    super(failure.detail);
  }
}

/** Applies one operation as `principal` through the use case its staff operation runs. */
async function apply(
  tx: Executor,
  services: Services,
  tenantId: string,
  principal: Principal,
  operation: ProposalOperation,
  inspection: Inspection,
): Promise<Result<unknown>> {
  switch (operation.kind) {
    case 'intelligence.publish_pair':
      // The plan's approval is the merchant's approval to publish.
      return setHypothesisStatus(tx, services, tenantId, actorOf(principal), {
        id: operation.hypothesisId,
        revision: operation.revision,
        status: 'published',
        approve: true,
      });
    case 'automation.save_rule':
      return saveDefinition(tx, services, tenantId, principal, {
        kind: 'rules',
        id: operation.ruleId,
        revision: operation.revision,
        active: operation.active,
        data: operation.data,
      });
    case 'apps.record.set':
      return invokeAppAction(
        services,
        tenantId,
        { kind: 'approval', principal, tx },
        {
          appId: operation.appId,
          actionId: inspection.update!.action.id,
          input: { id: operation.recordId, revision: operation.revision, data: operation.data },
        },
      );
  }
}

function decidedFailure(row: ProposalRow): Failure {
  return fail('PROPOSAL_DECIDED', `The proposal was already decided: it is ${row.status}.`, {
    extensions: { proposalStatus: row.status, decidedAt: row.decidedAt?.toISOString() ?? null },
  });
}

function noSuchProposal(id: string): Failure {
  return fail('NOT_FOUND', `No proposal ${id} exists in this shop.`);
}

/**
 * Approves a pending proposal as `principal`, in ONE transaction: the proposal's row locked, every
 * target read under its lock, the approver's current rights checked for every operation
 * (FORBIDDEN: nothing changes, the proposal stays pending), every named version compared
 * (PROPOSAL_STALE: nothing applied, the proposal marked `stale` for good), then every operation
 * applied in order with its usual events. An operation refused while applying rolls the whole
 * transaction back (its code, `extensions.operation`; the proposal stays pending). A decided
 * proposal answers PROPOSAL_DECIDED.
 */
export async function approveProposal(
  services: Services,
  tenantId: string,
  principal: Principal,
  id: string,
): Promise<Result<ProposalRow>> {
  try {
    return await services.database.transaction(async (tx): Promise<Result<ProposalRow>> => {
      const row = await findProposal(tx, tenantId, id, 'update');
      if (!row) return noSuchProposal(id);
      if (row.status !== 'pending') return decidedFailure(row);
      const operations = storedOperations(row);
      const inspections = await inspectAll(tx, tenantId, operations, true);
      if (!inspections.ok) return inspections;
      const refused = missingRight(operations, inspections.value, principal.permissions, 'you do');
      if (refused) return refused;
      const actor = actorOf(principal);
      const findings = inspections.value.flatMap((inspection) =>
        inspection.finding ? [inspection.finding] : [],
      );
      if (findings.length > 0) {
        // Nothing was applied: the stale mark is the transaction's only write.
        await decideProposal(
          tx,
          tenantId,
          id,
          { status: 'stale', decidedBy: { ...actor }, decision: { stale: findings } },
          services.clock.now(),
        );
        await recordEvent(tx, services, tenantId, actor, 'intelligence.proposal.stale', {
          id,
          stale: findings.length,
        });
        return staleFailure(findings, true);
      }
      const results: unknown[] = [];
      for (const [index, operation] of operations.entries()) {
        const applied = await apply(tx, services, tenantId, principal, operation, inspections.value[index]!);
        if (!applied.ok) throw new PlanRefused(underOperation(applied, index, operation.kind));
        results.push(applied.value);
      }
      const decided = await decideProposal(
        tx,
        tenantId,
        id,
        { status: 'approved', decidedBy: { ...actor }, decision: { results } },
        services.clock.now(),
      );
      // The row is locked and was pending, so it cannot have been decided meanwhile.
      if (!decided) throw new Error(`proposal ${id} changed under its lock`);
      await recordEvent(tx, services, tenantId, actor, 'intelligence.proposal.approved', {
        id,
        operations: operations.length,
      });
      return ok(decided);
    });
  } catch (error) {
    if (error instanceof PlanRefused) {
      return fail(
        error.failure.code,
        `${error.failure.detail} Nothing was applied; the proposal stays pending.`,
        {
          ...(error.failure.errors ? { errors: error.failure.errors } : {}),
          ...(error.failure.extensions ? { extensions: error.failure.extensions } : {}),
        },
      );
    }
    throw error;
  }
}

/** Rejects a pending proposal as `principal`, with an optional note; PROPOSAL_DECIDED once decided. */
export function rejectProposal(
  services: Services,
  tenantId: string,
  principal: Principal,
  id: string,
  note: string | undefined,
): Promise<Result<ProposalRow>> {
  return services.database.transaction(async (tx): Promise<Result<ProposalRow>> => {
    const row = await findProposal(tx, tenantId, id, 'update');
    if (!row) return noSuchProposal(id);
    if (row.status !== 'pending') return decidedFailure(row);
    const actor = actorOf(principal);
    const decided = await decideProposal(
      tx,
      tenantId,
      id,
      { status: 'rejected', decidedBy: { ...actor }, decision: note === undefined ? {} : { note } },
      services.clock.now(),
    );
    if (!decided) throw new Error(`proposal ${id} changed under its lock`);
    await recordEvent(tx, services, tenantId, actor, 'intelligence.proposal.rejected', { id });
    return ok(decided);
  });
}
