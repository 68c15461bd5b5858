import {
  type ChannelRow,
  countRedemptionsByPromotion,
  type DefinitionRow,
  definitionTables,
  deleteRevisioned,
  type Executor,
  findChannel,
  findDefinitions,
  findReferences,
  findRevisioned,
  listChannels,
  listDefinitions,
  listOpenJobsNaming,
  readOnlyTransaction,
} from '@cartwright/repository';
import {
  type ConditionTree,
  catalogDocument,
  FactsSchema,
  importCondition,
  LANGUAGES,
  referencedRuleIds,
  type TraceNode,
  validateCondition,
} from '@cartwright/rules-engine';
import * as v from 'valibot';
import { currentCartOf, factsOfCart } from '../carts/cart.ts';
import {
  ChannelSaveBody,
  ChannelView,
  channelBlockers,
  DeletedChannel,
  deleteChannelAt,
  saveSalesChannel,
} from '../channels/records.ts';
import { ChannelIdentity, overridesOf } from '../channels/settings.ts';
import { resolveShopContext } from '../customers/contexts.ts';
import { parseFlowData, ruleIdsOfFlow } from '../flows/definition.ts';
import { Executions, latestExecutions } from '../flows/executions.ts';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { defineOperation } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { EmptyInput, iso, Revision, Timestamp, Uuid } from '../kernel/schemas.ts';
import { promotionOf, ruleIdsOfPromotion } from '../promotions/definition.ts';
import { Definition, definitionView, KIND_OF, saveDefinition } from './definitions.ts';
import { compileWithSavedRules, conditionOf, ruleFailure } from './rules.ts';
import { ConditionInput, conditionIssues } from './schemas.ts';

const Channel = v.object({
  ...ChannelIdentity,
  data: v.unknown(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

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
    const promotions = of('promotion');
    const redemptions = await countRedemptionsByPromotion(
      db,
      tenantId,
      promotions.map((promotion) => promotion.id),
    );
    return ok({
      rules: of('rule'),
      flows: of('flow'),
      promotions: promotions.map((promotion) => ({
        ...promotion,
        redemptions: redemptions.get(promotion.id) ?? 0,
      })),
      channels: channels.map(channelView),
      executions: executions.value,
    });
  },
});

// Rules: the catalog, revision-bound saves and deletes, dependencies, preview, explain, import.

/**
 * The kinds of `/api/automation/{kind}/{id}`. Rules, flows and promotions are definitions;
 * channels are answered by the merchant channel endpoints' own implementation.
 */
const KIND = v.picklist(['rules', 'flows', 'promotions', 'channels']);
const NOUN = { rules: 'rule', flows: 'flow', promotions: 'promotion' } as const;

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
    'Creates (revision 0) or replaces (the stored revision) a rule, flow, promotion or channel. Conditions are validated against the catalog and saved-rule references resolved (missing, inactive, cyclic, too deep or too many are refused); a flow graph is validated (edges, ids, cycles, reachability, 1–100 nodes, delays ≤ 30 days, actions and their configs) and its actions must be within the saver’s rights; a promotion’s codes must be the shop’s only ones of their spelling. A channel takes the body of `PUT /api/merchant/commerce/channels/{id}` and answers as it does.',
  http: { method: 'PUT', path: '/api/automation/:kind/:id' },
  permission: 'settings.write',
  readOnly: false,
  // One object (MCP tools take object schemas): a definition sends `active` and `data`, a channel
  // the body of the merchant channel save.
  input: v.pipe(
    v.strictObject({
      kind: KIND,
      id: Uuid,
      revision: Revision,
      active: v.optional(v.boolean()),
      data: v.optional(v.unknown()),
      baseRevision: v.optional(ChannelSaveBody.baseRevision),
      language: ChannelSaveBody.language,
      channel: v.optional(ChannelSaveBody.channel),
      overrides: ChannelSaveBody.overrides,
    }),
    v.check(
      (input) =>
        input.kind === 'channels'
          ? input.baseRevision !== undefined && input.channel !== undefined && input.data === undefined
          : input.channel === undefined && input.baseRevision === undefined,
      'a channel takes baseRevision, channel and optionally language and overrides; a rule, flow or promotion takes data and optionally active',
    ),
  ),
  output: v.union([Definition, ChannelView]),
  async handler(context, input) {
    if (input.kind === 'channels') {
      const { revision, baseRevision, language, channel, overrides } = input;
      return saveSalesChannel(context, {
        channelId: input.id,
        revision,
        baseRevision: baseRevision!,
        language,
        channel: channel!,
        overrides,
      });
    }
    const { services, tenantId, principal } = context;
    const save = {
      kind: input.kind,
      id: input.id,
      revision: input.revision,
      active: input.active,
      data: input.data,
    };
    return services.database.transaction((tx) => saveDefinition(tx, services, tenantId, principal, save));
  },
});

/** A definition's blocker names a record; a channel's counts its uses (as its delete answers them). */
const Blocker = v.object({
  kind: v.string(),
  id: v.optional(v.string()),
  key: v.optional(v.nullable(v.string())),
  count: v.optional(v.number()),
  /** A channel's overridden fields. */
  fields: v.optional(v.array(v.string())),
  /** The definitions that name a channel. */
  references: v.optional(v.array(v.unknown())),
});

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
    'What blocks the deletion of a rule, flow, promotion or channel (references from rules, flows, promotions and channels, redemptions, unfinished jobs; for a channel its customers, carts, orders and overrides, as its delete lists them), and the saved rules it references itself.',
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
    if (input.kind === 'channels') {
      const channel = await findChannel(db, tenantId, input.id);
      if (!channel) return fail('NOT_FOUND', `No channel ${input.id} exists in this shop.`);
      return ok({
        kind: input.kind,
        id: input.id,
        blockers: await channelBlockers(db, tenantId, channel),
        references: channelRuleIds(channel),
      });
    }
    const [row] = await findDefinitions(db, tenantId, KIND_OF[input.kind], [input.id]);
    if (!row) return fail('NOT_FOUND', `No such ${NOUN[input.kind]} exists in this shop.`);
    return ok({
      kind: input.kind,
      id: input.id,
      blockers: await blockersOf(db, tenantId, input.id),
      references: definitionRuleIds(row),
    });
  },
});

/** The saved rules a definition names itself. */
function definitionRuleIds(row: DefinitionRow): string[] {
  if (row.kind === 'flow') {
    const parsed = parseFlowData(row.data);
    return parsed.ok ? ruleIdsOfFlow(parsed.value) : [];
  }
  if (row.kind === 'promotion') {
    const promotion = promotionOf(row.data);
    return promotion ? ruleIdsOfPromotion(promotion) : [];
  }
  return referencedRuleIds(conditionOf(row.data));
}

/** The saved rules a channel's tax destination rules name. */
function channelRuleIds(channel: ChannelRow): string[] {
  const rules = (overridesOf(channel).taxRules ?? {}) as Record<string, { ruleId?: unknown } | null>;
  return [
    ...new Set(
      Object.values(rules).flatMap((rule) => (typeof rule?.ruleId === 'string' ? [rule.ruleId] : [])),
    ),
  ];
}

export const deleteAutomationDefinition = defineOperation({
  name: 'automation.delete',
  summary:
    'Deletes a rule, flow, promotion or channel at its stored revision. Refused while anything references it, redemptions and unfinished jobs included (the answer lists the blockers): deactivate it instead. A channel is deleted as `DELETE /api/merchant/commerce/channels/{id}` does it, with its answers.',
  http: { method: 'DELETE', path: '/api/automation/:kind/:id' },
  permission: 'settings.write',
  readOnly: false,
  input: v.strictObject({ kind: KIND, id: Uuid, revision: Revision }),
  output: v.union([v.object({ kind: v.string(), id: Uuid, deleted: v.literal(true) }), DeletedChannel]),
  async handler(context, input) {
    if (input.kind === 'channels') {
      return deleteChannelAt(context, { channelId: input.id, revision: input.revision });
    }
    const { services, tenantId, principal } = context;
    const kind = KIND_OF[input.kind];
    const noun = NOUN[input.kind];
    return services.database.transaction(async (tx) => {
      // Locked first: saves that reference it hold it FOR SHARE, so no new use slips in.
      const current = await findRevisioned(tx, definitionTables[kind], tenantId, input.id, 'update');
      if (!current) return fail('NOT_FOUND', `No such ${noun} exists in this shop.`);
      if (current.revision !== input.revision) return staleRevision(input.revision, current.revision);
      const blockers = await blockersOf(tx, tenantId, input.id);
      if (blockers.length > 0) {
        return fail('REFERENCED', `The ${noun} is still referenced; deactivate it instead.`, {
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
    'Evaluates a condition against the server-owned facts of a storefront cart context. The context token is required, the same one storefront cart operations take (send it as x-context-token): without it the answer is CONTEXT_REQUIRED (400), a token of no live context of the shop 404. Answers the Boolean and, with `explain: true`, the decision of every node (true or false, without the facts compared: a preview shows no private facts); writes nothing. Order-source conditions fail here: a cart is not an order.',
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
    explain: v.optional(v.boolean(), false),
  }),
  output: v.strictObject({ result: v.boolean(), trace: v.optional(v.unknown()) }),
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
      if (input.explain) {
        const trace = compiled.value.explain(facts);
        return trace.ok
          ? ok({ result: trace.value.result, trace: decisionsOf(trace.value) })
          : ruleFailure(trace, '/condition');
      }
      const decided = compiled.value.evaluate(facts);
      return decided.ok ? ok({ result: decided.value }) : ruleFailure(decided, '/condition');
    });
  },
});

/**
 * A trace with each node's decision only: the facts it compared (`actual`) stay on the server, as
 * a preview shows no private facts (spec). The decisions tell nothing a preview of each subtree
 * would not. Bounded by the compiled tree (depth, references).
 */
function decisionsOf(node: TraceNode): TraceNode {
  return {
    pointer: node.pointer,
    type: node.type,
    result: node.result,
    ...(node.ruleId === undefined ? {} : { ruleId: node.ruleId }),
    ...(node.children === undefined ? {} : { children: node.children.map(decisionsOf) }),
  };
}

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
