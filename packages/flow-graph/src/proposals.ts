import * as v from 'valibot';
import { isJsonValue } from './json.ts';

// The plan of an AI proposal (issue 19, decision 0046): the config of the flow action
// `ai_proposal` and the input of `intelligence.proposals.create`. Each operation names the exact
// versions it read (a record's revision, an app's installed version and revision, a rule's or a
// pair's revision), so an approval can tell that what it would change has moved since.

const MAX_TEXT = 2000;
const MAX_NAME = 100;
/** The most operations one plan holds. */
export const MAX_PROPOSAL_OPERATIONS = 20;
/** The most fields one `apps.record.set` changes (an entity declares at most 64). */
const MAX_RECORD_FIELDS = 64;

const text = (max: number) =>
  v.pipe(
    v.string('expected text'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `at most ${max} characters`),
  );

const Id = v.pipe(v.string('expected a UUID'), v.maxLength(36, 'expected a UUID'), v.uuid('expected a UUID'));
const INT32_MAX = 2_147_483_647;
const revision = (min: number) =>
  v.pipe(
    v.number('expected a revision'),
    v.integer('expected a revision (an integer)'),
    v.minValue(min, `expected a revision from ${min}`),
    v.maxValue(INT32_MAX, `expected a revision up to ${INT32_MAX}`),
  );

const JsonObject = v.pipe(
  v.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && isJsonValue(value),
    'expected a JSON object',
  ),
);

/** Publishes a co-purchase pair the merchant reviews (its hypothesis at the revision the plan read). */
export const PublishPairOperation = v.strictObject({
  kind: v.literal('intelligence.publish_pair'),
  hypothesisId: Id,
  revision: revision(1),
});

/**
 * Saves a rule as `automation.save` does: `revision` 0 creates it (no rule may hold the id),
 * otherwise the rule's stored revision; `data` is the rule's data (name, condition, …).
 */
export const SaveRuleOperation = v.strictObject({
  kind: v.literal('automation.save_rule'),
  ruleId: Id,
  revision: revision(0),
  active: v.optional(v.boolean('expected true or false')),
  data: JsonObject,
});

/**
 * Sets fields of an app's entity record through the entity's declared `update` action, bound to
 * the record's revision and the app's installed version and revision the plan read.
 */
export const SetAppRecordOperation = v.strictObject({
  kind: v.literal('apps.record.set'),
  appId: text(MAX_NAME),
  appVersion: text(MAX_NAME),
  appRevision: revision(1),
  entity: text(MAX_NAME),
  recordId: Id,
  revision: revision(1),
  data: v.pipe(
    JsonObject,
    v.check((data) => Object.keys(data).length > 0, 'name at least one field'),
    v.check((data) => Object.keys(data).length <= MAX_RECORD_FIELDS, `at most ${MAX_RECORD_FIELDS} fields`),
  ),
});

/** One operation of a plan. */
export const ProposalOperation = v.variant(
  'kind',
  [PublishPairOperation, SaveRuleOperation, SetAppRecordOperation],
  'expected an operation of kind intelligence.publish_pair, automation.save_rule or apps.record.set',
);
export type ProposalOperation = v.InferOutput<typeof ProposalOperation>;
export type ProposalOperationKind = ProposalOperation['kind'];

export const ProposalOperations = v.pipe(
  v.array(ProposalOperation, 'expected a list of operations'),
  v.maxLength(MAX_PROPOSAL_OPERATIONS, `at most ${MAX_PROPOSAL_OPERATIONS} operations`),
);

/** A plan: what it does in a sentence, optionally why, and its operations in order. */
export const ProposalPlan = v.strictObject({
  summary: text(MAX_TEXT),
  reason: v.optional(text(MAX_TEXT)),
  operations: ProposalOperations,
});
export type ProposalPlan = v.InferOutput<typeof ProposalPlan>;

/**
 * The `ai_proposal` action's config. Its canonical form is a plan; the older form `{ instruction }`
 * (a note for the merchant, before proposals held operations) is still accepted and read as a plan
 * with that summary and no operations.
 */
export const AI_PROPOSAL_CONFIG = v.pipe(
  v.strictObject({
    summary: v.optional(text(MAX_TEXT)),
    reason: v.optional(text(MAX_TEXT)),
    operations: v.optional(ProposalOperations),
    instruction: v.optional(text(MAX_TEXT)),
  }),
  v.check(
    (config) =>
      config.instruction === undefined
        ? config.summary !== undefined
        : config.summary === undefined && config.reason === undefined && config.operations === undefined,
    'give a summary and operations (or, as older flows do, only an instruction)',
  ),
  v.transform(
    (config): ProposalPlan => ({
      summary: (config.summary ?? config.instruction)!,
      ...(config.reason === undefined ? {} : { reason: config.reason }),
      operations: config.operations ?? [],
    }),
  ),
);
