import {
  type DefinitionRow,
  definitionTables,
  type Executor,
  findRevisioned,
  listDefinitions,
  saveRevisioned,
} from '@cartwright/repository';
import type { ConditionTree } from '@cartwright/rules-engine';
import * as v from 'valibot';
import {
  checkTrigger,
  conditionsOf,
  parseFlowData,
  permissionsOfActions,
  TranslatedName,
  TranslatedText,
} from '../flows/definition.ts';
import { actorOf, type Principal } from '../kernel/auth.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import type { Permission } from '../kernel/permissions.ts';
import { fieldErrors } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { Count, iso, Timestamp, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import {
  codeKey,
  codesOf,
  type PromotionData,
  parsePromotion,
  promotionOf,
} from '../promotions/definition.ts';
import { compileWithSavedRules } from './rules.ts';
import { Campaign, ConditionInput, conditionIssues, Priority } from './schemas.ts';

// Rules, flows and promotions saved whole at a revision: the core of `automation.save`, in the
// caller's transaction, so an approved proposal (`automation.save_rule`) saves a rule the same way.

export const Definition = v.object({
  id: Uuid,
  key: v.nullable(v.string()),
  revision: v.number(),
  active: v.boolean(),
  data: v.unknown(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** Promotions only: how many orders redeemed it. */
  redemptions: v.optional(Count),
});

export function definitionView(row: DefinitionRow): v.InferOutput<typeof Definition> {
  return {
    id: row.id,
    key: row.key,
    revision: row.revision,
    active: row.active,
    data: row.data,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** The definition kinds of `/api/automation/{kind}/{id}` (channels are saved by their own code). */
export const DEFINITION_KIND = v.picklist(['rules', 'flows', 'promotions']);
export type DefinitionKindName = v.InferOutput<typeof DEFINITION_KIND>;
export const KIND_OF = { rules: 'rule', flows: 'flow', promotions: 'promotion' } as const;

/** A rule's `data`. */
export const RuleData = v.strictObject({
  name: v.pipe(
    TranslatedName,
    v.check((name) => Object.keys(name).length > 0, 'give the rule a name'),
  ),
  description: v.optional(TranslatedText),
  priority: Priority,
  condition: ConditionInput,
  campaign: v.optional(Campaign),
});

/** What `automation.save` writes of a rule, flow or promotion. */
export interface DefinitionSave {
  readonly kind: DefinitionKindName;
  readonly id: string;
  /** The revision the caller read: 0 to create, the stored one to replace. */
  readonly revision: number;
  readonly active?: boolean | undefined;
  readonly data: unknown;
}

/**
 * Saves a rule, flow or promotion as `principal` in the caller's transaction `tx` (the core of
 * `automation.save`, shared with an approved proposal's `automation.save_rule`): the data checked,
 * the revision compared under the row's lock, conditions compiled against the saved rules,
 * promotion codes kept unique, the row written and `automation.<kind>.saved` recorded.
 */
export async function saveDefinition(
  tx: Executor,
  services: Services,
  tenantId: string,
  principal: Principal,
  input: DefinitionSave,
): Promise<Result<v.InferOutput<typeof Definition>>> {
  const checked = checkDefinition(input.kind, input.data, principal.permissions);
  if (!checked.ok) return checked;
  const { data, conditions } = checked.value;
  const kind = KIND_OF[input.kind];
  const table = definitionTables[kind];
  const current = await findRevisioned(tx, table, tenantId, input.id, 'update');
  if ((current?.revision ?? 0) !== input.revision) {
    return staleRevision(input.revision, current?.revision ?? 0);
  }
  const active = input.active ?? current?.active ?? true;
  for (const { tree, pointer } of conditions) {
    // A rule is checked as it will be (its new version stands in for the stored one), so a
    // reference through other rules back to it is a cycle.
    const compiled = await compileWithSavedRules(tx, tenantId, tree, pointer, {
      ...(kind === 'rule' ? { replace: { id: input.id, active: true, condition: tree } } : {}),
      lock: true,
    });
    if (!compiled.ok) return compiled;
  }
  if (kind === 'promotion') {
    const taken = await codesTaken(tx, tenantId, input.id, data as PromotionData);
    if (taken) return taken;
  }
  const saved = await saveRevisioned(
    tx,
    table,
    tenantId,
    input.id,
    input.revision,
    { kind, id: input.id, key: current?.key ?? null, active, data, savedBy: actorOf(principal) },
    services.clock.now(),
  );
  if (!saved.ok) return staleRevision(input.revision, saved.actual);
  await recordEvent(tx, services, tenantId, actorOf(principal), `automation.${kind}.saved`, {
    id: input.id,
    revision: saved.row.revision,
  });
  return ok(definitionView(saved.row));
}

/**
 * A definition's data checked for saving, with the conditions to compile against the saved
 * rules. A flow's actions must be within the saver's own rights: it acts for them later.
 */
export function checkDefinition(
  kind: DefinitionKindName,
  input: unknown,
  permissions: ReadonlySet<Permission>,
): Result<{ data: unknown; conditions: { tree: ConditionTree; pointer: string }[] }> {
  if (kind === 'promotions') return parsePromotion(input);
  if (kind === 'flows') {
    const flow = parseFlowData(input);
    if (!flow.ok) return flow;
    const unknownTrigger = checkTrigger(flow.value.trigger);
    if (unknownTrigger) return unknownTrigger;
    const missing = permissionsOfActions(flow.value).find(({ permission }) => !permissions.has(permission));
    if (missing) {
      return fail(
        'FORBIDDEN',
        `The flow's action ${missing.action} needs ${missing.permission}, which you do not hold.`,
      );
    }
    return ok({
      data: flow.value,
      conditions: [{ tree: conditionsOf(flow.value), pointer: '/data/condition' }],
    });
  }
  const parsed = v.safeParse(RuleData, input);
  if (!parsed.success) {
    return fail('VALIDATION_FAILED', 'The rule does not match its schema.', {
      errors: fieldErrors(parsed.issues).map((error) => ({ ...error, pointer: `/data${error.pointer}` })),
    });
  }
  const invalid = conditionIssues(parsed.output.condition, '/data/condition');
  if (invalid) return invalid;
  return ok({
    data: parsed.output,
    conditions: [{ tree: parsed.output.condition, pointer: '/data/condition' }],
  });
}

/**
 * A code must name one promotion: a code another promotion of the shop holds (compared without
 * regard to case) is refused. The shop's promotions are read FOR UPDATE, so two saves claiming
 * the same code take turns and the second sees the first.
 */
async function codesTaken(
  tx: Executor,
  tenantId: string,
  id: string,
  promotion: PromotionData,
): Promise<Failure | null> {
  const own = new Set(codesOf(promotion).map(codeKey));
  if (own.size === 0) return null;
  const others = await listDefinitions(tx, tenantId, 'promotion', 'update');
  for (const other of others) {
    if (other.id === id) continue;
    const clash = codesOf(promotionOf(other.data) ?? ({ codes: null } as PromotionData)).find((code) =>
      own.has(codeKey(code)),
    );
    if (clash) {
      return fail('CONFLICT', `The code ${clash} already belongs to another promotion of this shop.`, {
        errors: [{ pointer: '/data/codes', message: `${clash} is taken` }],
        extensions: { promotionId: other.id, code: clash },
      });
    }
  }
  return null;
}
