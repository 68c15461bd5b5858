import {
  type ChannelRow,
  type DefinitionRow,
  definitionTables,
  deleteRevisioned,
  type Executor,
  findDefinitions,
  findReferences,
  findRevisioned,
  listChannels,
  listDefinitions,
  listOpenJobsNaming,
  readOnlyTransaction,
  saveRevisioned,
} from '@cartwright/repository';
import {
  type ConditionTree,
  catalogDocument,
  FactsSchema,
  importCondition,
  LANGUAGES,
  referencedRuleIds,
  validateCondition,
} from '@cartwright/rules-engine';
import * as v from 'valibot';
import { currentCartOf, factsOfCart } from '../carts/cart.ts';
import { ChannelIdentity } from '../channels/settings.ts';
import { resolveShopContext } from '../customers/contexts.ts';
import {
  checkTrigger,
  conditionsOf,
  parseFlowData,
  permissionsOfActions,
  ruleIdsOfFlow,
  TranslatedName,
  TranslatedText,
} from '../flows/definition.ts';
import { Executions, latestExecutions } from '../flows/executions.ts';
import { actorOf, type Principal } from '../kernel/auth.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { defineOperation, fieldErrors } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { EmptyInput, iso, Revision, Timestamp, Uuid } from '../kernel/schemas.ts';
import { compileWithSavedRules, conditionOf, ruleFailure } from './rules.ts';

const Definition = v.object({
  id: Uuid,
  key: v.nullable(v.string()),
  revision: v.number(),
  active: v.boolean(),
  data: v.unknown(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Channel = v.object({
  ...ChannelIdentity,
  data: v.unknown(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

function definitionView(row: DefinitionRow): v.InferOutput<typeof Definition> {
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

function channelView(row: ChannelRow): v.InferOutput<typeof Channel> {
  return {
    id: row.id,
    key: row.key,
    isMain: row.isMain,
    accessKey: row.accessKey,
    revision: row.revision,
    baseRevision: row.baseRevision,
    data: row.data,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** How many of the newest flow executions `automation.list` carries. */
const LATEST_EXECUTIONS = 20;

export const listAutomation = defineOperation({
  name: 'automation.list',
  summary:
    'The shop’s automation configuration (rules, flows, promotions and channels) and its latest flow executions (the first page of `automation.executions`, with the counts of uncertain and failed jobs).',
  http: { method: 'GET', path: '/api/automation' },
  permission: 'settings.read',
  readOnly: true,
  input: EmptyInput,
  output: v.object({
    rules: v.array(Definition),
    flows: v.array(Definition),
    promotions: v.array(Definition),
    channels: v.array(Channel),
    executions: Executions,
  }),
  async handler({ services, tenantId }) {
    const db = services.database.db;
    const [definitions, channels, executions] = await Promise.all([
      listDefinitions(db, tenantId),
      listChannels(db, tenantId),
      latestExecutions(db, tenantId, { limit: LATEST_EXECUTIONS }),
    ]);
    if (!executions.ok) return executions;
    const of = (kind: DefinitionRow['kind']) =>
      definitions.filter((row) => row.kind === kind).map(definitionView);
    return ok({
      rules: of('rule'),
      flows: of('flow'),
      promotions: of('promotion'),
      channels: channels.map(channelView),
      executions: executions.value,
    });
  },
});

// Rules: the catalog, revision-bound saves and deletes, dependencies, preview, explain, import.

const KIND = v.picklist(['rules', 'flows']);
const KIND_OF = { rules: 'rule', flows: 'flow' } as const;
const NOUN = { rules: 'rule', flows: 'flow' } as const;

/**
 * A priority: a 32-bit signed integer, as the reference's `rule.priority` column (`int`). Stored in
 * the definition's JSON, so the bound is ours to keep: beyond it, ranks lose their meaning.
 */
const Priority = v.optional(
  v.pipe(v.number(), v.integer(), v.minValue(-(2 ** 31)), v.maxValue(2 ** 31 - 1)),
  0,
);

/** Campaign attributes: when a definition applies, how it ranks, whether it excludes others. */
const Campaign = v.pipe(
  v.strictObject({
    start: v.optional(v.nullable(Timestamp), null),
    end: v.optional(v.nullable(Timestamp), null),
    priority: Priority,
    exclusive: v.optional(v.boolean(), false),
  }),
  v.check(
    (campaign) => campaign.start === null || campaign.end === null || campaign.start < campaign.end,
    'the campaign must start before it ends',
  ),
);

const ConditionInput = v.custom<ConditionTree>(
  (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
  'expected a condition node object',
);

const RuleData = v.strictObject({
  name: v.pipe(
    TranslatedName,
    v.check((name) => Object.keys(name).length > 0, 'give the rule a name'),
  ),
  description: v.optional(TranslatedText),
  priority: Priority,
  condition: ConditionInput,
  campaign: v.optional(Campaign),
});

/** Strict validation of a condition tree for saving or evaluating; the first issue names the code. */
function conditionIssues(tree: ConditionTree, pointer: string): Failure | null {
  const issues = validateCondition(tree);
  if (issues.length === 0) return null;
  const [first] = issues;
  return fail(first!.code, first!.message, {
    errors: issues.map((issue) => ({ pointer: `${pointer}${issue.pointer}`, message: issue.message })),
  });
}

export const readAutomationCatalog = defineOperation({
  name: 'automation.catalog',
  summary:
    'The condition and action catalog: 114 source-named conditions (108 enabled, 6 disabled with the reason) and 19 actions, labels in EN, DE, ES and FR.',
  http: { method: 'GET', path: '/api/automation/catalog' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({ language: v.optional(v.picklist(LANGUAGES), 'en') }),
  output: v.object({
    language: v.string(),
    isComplete: v.literal(false),
    conditions: v.array(v.unknown()),
    actions: v.array(v.unknown()),
  }),
  async handler(_context, input) {
    const catalog = catalogDocument(input.language);
    return ok({
      ...catalog,
      isComplete: false as const,
      conditions: [...catalog.conditions],
      actions: [...catalog.actions],
    });
  },
});

export const saveAutomationDefinition = defineOperation({
  name: 'automation.save',
  summary:
    'Creates (revision 0) or replaces (the stored revision) a rule or a flow. Conditions are validated against the catalog and saved-rule references resolved (missing, inactive, cyclic, too deep or too many are refused); a flow graph is validated (edges, ids, cycles, reachability, 1–100 nodes, delays ≤ 30 days, actions and their configs) and its actions must be within the saver’s rights.',
  http: { method: 'PUT', path: '/api/automation/:kind/:id' },
  permission: 'settings.write',
  readOnly: false,
  input: v.strictObject({
    kind: KIND,
    id: Uuid,
    revision: Revision,
    active: v.optional(v.boolean()),
    data: v.unknown(),
  }),
  output: Definition,
  async handler({ services, tenantId, principal }, input) {
    const checked = checkDefinition(input.kind, input.data, principal);
    if (!checked.ok) return checked;
    const { data, conditions } = checked.value;
    const kind = KIND_OF[input.kind];
    return services.database.transaction(async (tx) => {
      const table = definitionTables[kind];
      const current = await findRevisioned(tx, table, tenantId, input.id, 'update');
      if ((current?.revision ?? 0) !== input.revision) {
        return staleRevision(input.revision, current?.revision ?? 0);
      }
      const active = input.active ?? current?.active ?? true;
      // A rule is checked as it will be (its new version stands in for the stored one), so a
      // reference through other rules back to it is a cycle.
      const compiled = await compileWithSavedRules(tx, tenantId, conditions, '/data/condition', {
        ...(kind === 'rule' ? { replace: { id: input.id, active: true, condition: conditions } } : {}),
        lock: true,
      });
      if (!compiled.ok) return compiled;
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
    });
  },
});

/**
 * A definition's data checked for saving, with the conditions to compile against the saved
 * rules. A flow's actions must be within the saver's own rights: it acts for them later.
 */
function checkDefinition(
  kind: v.InferOutput<typeof KIND>,
  input: unknown,
  principal: Principal,
): Result<{ data: unknown; conditions: ConditionTree }> {
  if (kind === 'flows') {
    const flow = parseFlowData(input);
    if (!flow.ok) return flow;
    const unknownTrigger = checkTrigger(flow.value.trigger);
    if (unknownTrigger) return unknownTrigger;
    const missing = permissionsOfActions(flow.value).find(
      ({ permission }) => !principal.permissions.has(permission),
    );
    if (missing) {
      return fail(
        'FORBIDDEN',
        `The flow's action ${missing.action} needs ${missing.permission}, which you do not hold.`,
      );
    }
    return ok({ data: flow.value, conditions: conditionsOf(flow.value) });
  }
  const parsed = v.safeParse(RuleData, input);
  if (!parsed.success) {
    return fail('VALIDATION_FAILED', 'The rule does not match its schema.', {
      errors: fieldErrors(parsed.issues).map((error) => ({ ...error, pointer: `/data${error.pointer}` })),
    });
  }
  const invalid = conditionIssues(parsed.output.condition, '/data/condition');
  if (invalid) return invalid;
  return ok({ data: parsed.output, conditions: parsed.output.condition });
}

const Blocker = v.object({ kind: v.string(), id: v.string(), key: v.optional(v.nullable(v.string())) });

/**
 * What still names a definition: any exact id in rule, flow or promotion JSON, channels, and
 * flow jobs that have not ended (queued, running, waiting, uncertain or failed) of the flow or
 * holding the rule frozen.
 */
async function blockersOf(tx: Executor, tenantId: string, id: string) {
  const references = (await findReferences(tx, tenantId, id)).filter((reference) => reference.id !== id);
  const jobs = await listOpenJobsNaming(tx, tenantId, id);
  return [...references, ...jobs.map((job) => ({ kind: 'job', id: job.id, key: job.status }))];
}

export const listAutomationDependencies = defineOperation({
  name: 'automation.dependencies',
  summary:
    'What references a definition and so blocks its deletion (rules, flows, promotions, channels), and the saved rules it references itself.',
  http: { method: 'GET', path: '/api/automation/:kind/:id/dependencies' },
  permission: 'settings.read',
  readOnly: true,
  input: v.strictObject({ kind: KIND, id: Uuid }),
  output: v.object({
    kind: v.string(),
    id: Uuid,
    blockers: v.array(Blocker),
    references: v.array(v.string()),
  }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const [row] = await findDefinitions(db, tenantId, KIND_OF[input.kind], [input.id]);
    if (!row) return fail('NOT_FOUND', `No such ${NOUN[input.kind]} exists in this shop.`);
    return ok({
      kind: input.kind,
      id: input.id,
      blockers: await blockersOf(db, tenantId, input.id),
      references:
        row.kind === 'flow'
          ? ((parsed) => (parsed.ok ? ruleIdsOfFlow(parsed.value) : []))(parseFlowData(row.data))
          : referencedRuleIds(conditionOf(row.data)),
    });
  },
});

export const deleteAutomationDefinition = defineOperation({
  name: 'automation.delete',
  summary:
    'Deletes a rule or flow at its stored revision. Refused while anything references it, unfinished jobs included (the answer lists the blockers): deactivate it instead.',
  http: { method: 'DELETE', path: '/api/automation/:kind/:id' },
  permission: 'settings.write',
  readOnly: false,
  input: v.strictObject({ kind: KIND, id: Uuid, revision: Revision }),
  output: v.object({ kind: v.string(), id: Uuid, deleted: v.literal(true) }),
  async handler({ services, tenantId, principal }, input) {
    const kind = KIND_OF[input.kind];
    return services.database.transaction(async (tx) => {
      // Locked first: saves that reference it hold it FOR SHARE, so no new use slips in.
      const current = await findRevisioned(tx, definitionTables[kind], tenantId, input.id, 'update');
      if (!current) return fail('NOT_FOUND', `No such ${NOUN[input.kind]} exists in this shop.`);
      if (current.revision !== input.revision) return staleRevision(input.revision, current.revision);
      const blockers = await blockersOf(tx, tenantId, input.id);
      if (blockers.length > 0) {
        return fail('REFERENCED', `The ${NOUN[input.kind]} is still referenced; deactivate it instead.`, {
          extensions: { references: blockers },
        });
      }
      const deleted = await deleteRevisioned(tx, definitionTables[kind], tenantId, input.id, input.revision);
      if (!deleted.ok) return staleRevision(input.revision, deleted.actual);
      await recordEvent(tx, services, tenantId, actorOf(principal), `automation.${kind}.deleted`, {
        id: input.id,
      });
      return ok({ kind: input.kind, id: input.id, deleted: true as const });
    });
  },
});

export const previewRule = defineOperation({
  name: 'automation.preview',
  summary:
    'Evaluates a condition against the server-owned facts of a storefront cart context (send its token as x-context-token). Answers only the Boolean; writes nothing. Order-source conditions fail here: a cart is not an order.',
  http: {
    method: 'POST',
    path: '/api/automation/rules/preview',
    headers: { 'x-context-token': 'contextToken' },
  },
  permission: 'settings.read',
  readOnly: true,
  input: v.strictObject({
    condition: ConditionInput,
    contextToken: v.optional(v.pipe(v.string(), v.maxLength(200))),
  }),
  output: v.strictObject({ result: v.boolean() }),
  async handler({ services, tenantId }, input) {
    const invalid = conditionIssues(input.condition, '/condition');
    if (invalid) return invalid;
    return services.database.transaction(async (tx) => {
      // Read-only: the database itself refuses any write the preview might attempt.
      await readOnlyTransaction(tx);
      if (input.contextToken === undefined) {
        return fail(
          'CONTEXT_REQUIRED',
          'Preview needs the cart context token of a storefront (x-context-token).',
        );
      }
      const context = await resolveShopContext(tx, services, tenantId, input.contextToken);
      if (!context) return fail('NOT_FOUND', 'No live cart context with this token exists in this shop.');
      const compiled = await compileWithSavedRules(tx, tenantId, input.condition, '/condition');
      if (!compiled.ok) return compiled;
      const order = compiled.value.needs.get('order');
      if (order !== undefined) {
        return fail(
          'RULE_SCOPE_MISSING',
          'The condition reads order facts, which a cart preview does not have: order-source rules run on real order events.',
          {
            errors: [{ pointer: `/condition${order}`, message: 'needs the order scope' }],
          },
        );
      }
      const facts = await factsOfCart(
        tx,
        services,
        tenantId,
        await currentCartOf(tx, services, tenantId, context),
        context,
      );
      const decided = compiled.value.evaluate(facts);
      return decided.ok ? ok({ result: decided.value }) : ruleFailure(decided, '/condition');
    });
  },
});

export const explainRule = defineOperation({
  name: 'automation.explain',
  summary:
    'Evaluates a condition (or a saved rule) against facts the caller supplies and returns the decision of every node with the fact it compared: why a rule matches or not.',
  http: { method: 'POST', path: '/api/automation/rules/explain' },
  permission: 'settings.read',
  readOnly: true,
  input: v.pipe(
    v.strictObject({ condition: v.optional(ConditionInput), ruleId: v.optional(Uuid), facts: FactsSchema }),
    v.check(
      (input) => (input.condition === undefined) !== (input.ruleId === undefined),
      'send either condition or ruleId',
    ),
  ),
  output: v.object({ result: v.boolean(), trace: v.unknown() }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    if (
      input.ruleId !== undefined &&
      (await findDefinitions(db, tenantId, 'rule', [input.ruleId])).length === 0
    ) {
      return fail('NOT_FOUND', 'No such rule exists in this shop.');
    }
    const tree: ConditionTree = input.condition ?? { type: 'ruleReference', ruleId: input.ruleId! };
    const invalid = conditionIssues(tree, '/condition');
    if (invalid) return invalid;
    const compiled = await compileWithSavedRules(db, tenantId, tree, '/condition');
    if (!compiled.ok) return compiled;
    const trace = compiled.value.explain(input.facts);
    return trace.ok
      ? ok({ result: trace.value.result, trace: trace.value })
      : ruleFailure(trace, '/condition');
  },
});

export const importRuleCondition = defineOperation({
  name: 'automation.import',
  summary:
    'Normalizes a source condition (the reference’s flat parentId list, nested children, or serialized _name/rules form) into the native tree. Unknown condition types are refused; other problems are listed as issues.',
  http: { method: 'POST', path: '/api/automation/import-condition' },
  permission: 'settings.write',
  readOnly: true,
  input: v.strictObject({ condition: v.unknown() }),
  output: v.object({
    condition: v.unknown(),
    issues: v.array(v.object({ pointer: v.string(), code: v.string(), message: v.string() })),
  }),
  async handler(_context, input) {
    const condition = importCondition(input.condition);
    return condition.ok
      ? ok({ condition: condition.value, issues: validateCondition(condition.value) })
      : ruleFailure(condition, '/condition');
  },
});
