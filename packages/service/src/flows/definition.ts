import { MachineName, STATE_MACHINES, transitionEvent } from '@cartwright/commerce';
import { type FlowIssue, type FlowPipeline, ruleIdsOf, validatePipeline } from '@cartwright/flow-graph';
import { ACTIONS, type ConditionTree, validateCondition } from '@cartwright/rules-engine';
import * as v from 'valibot';
import { type ErrorCode, type Failure, fail, type Result } from '../kernel/errors.ts';
import type { Permission } from '../kernel/permissions.ts';
import { fieldErrors } from '../kernel/registry.ts';
import { LanguageCode } from '../kernel/schemas.ts';

/** The longest name of a definition or channel per language (the reference's rule name column). */
export const NAME_MAX = 255;
/** The longest description or instruction per language (as other translated long texts). */
export const TEXT_MAX = 10_000;

/** A translated name: at most `NAME_MAX` characters per language. */
export const TranslatedName = v.record(LanguageCode, v.pipe(v.string(), v.maxLength(NAME_MAX)));
/** A translated description or instruction: at most `TEXT_MAX` characters per language. */
export const TranslatedText = v.record(LanguageCode, v.pipe(v.string(), v.maxLength(TEXT_MAX)));

/**
 * The events a flow can start from (spec, "Events"): order placement, payment capture, and every
 * state the order, payment and delivery machines can enter (`order.cancelled`,
 * `order_payment.paid`, `order_delivery.shipped`, the events `transitionOrder` records). Other
 * recorded events (audit and settings events, order edits and notes, which flows themselves
 * write) start no flow. Besides these, every app event `app.<app>.<action>` (an emitting action,
 * a schedule's tick, a signed incoming webhook) starts flows: `APP_EVENT_TRIGGER`.
 */
export const FLOW_TRIGGERS: readonly string[] = [
  'order.placed',
  'payment.captured',
  ...MachineName.options.flatMap((machine) =>
    [...new Set(STATE_MACHINES[machine].transitions.map((transition) => transition.to))].map((to) =>
      transitionEvent(machine, to),
    ),
  ),
];
const TRIGGERS: ReadonlySet<string> = new Set(FLOW_TRIGGERS);

/**
 * An app's event as a trigger: `app.<app id>.<action id>`. The app need not be installed when the
 * flow is saved (it starts once the app emits); the ids follow the manifest's rules.
 */
export const APP_EVENT_TRIGGER = /^app\.[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*\.[a-z][a-z0-9_]*$/;

/** An event name a flow names as its trigger; which ones start flows is `checkTrigger`'s to say. */
const Trigger = v.pipe(v.string(), v.maxLength(200));

const ConditionInput = v.custom<ConditionTree>(
  (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
  'expected a condition node object',
);

/** A flow's `data`: translated name and instruction, locale, trigger, top-level condition, graph. */
const FlowDataSchema = v.strictObject({
  name: v.pipe(
    TranslatedName,
    v.check((name) => Object.keys(name).length > 0, 'give the flow a name'),
  ),
  instruction: v.optional(TranslatedText, {}),
  locale: v.optional(LanguageCode, 'en'),
  trigger: Trigger,
  condition: v.optional(v.nullable(ConditionInput), null),
  pipeline: v.unknown(),
});

export interface FlowData {
  readonly name: Readonly<Record<string, string>>;
  readonly instruction: Readonly<Record<string, string>>;
  readonly locale: string;
  readonly trigger: string;
  readonly condition: ConditionTree | null;
  readonly pipeline: FlowPipeline;
}

function flowFailure(issues: readonly FlowIssue[], prefix: string): Failure {
  const [first] = issues;
  return fail(first!.code satisfies ErrorCode, first!.message, {
    errors: issues.map((issue) => ({
      pointer: `${prefix}/pipeline${issue.pointer}`,
      message: issue.message,
    })),
    extensions: {
      codes: [...new Set(issues.map((issue) => issue.code))],
      nodeIds: [...new Set(issues.flatMap((issue) => issue.nodeIds))],
    },
  });
}

/**
 * Checks a flow's data for saving (or, frozen in a job, for running): the schema, the graph
 * (`@cartwright/flow-graph`: edges, ids, cycles, reachability, size, delays, actions and their
 * configs) and the top-level condition. Answers the data with normalized action configs.
 */
export function parseFlowData(input: unknown, prefix = '/data'): Result<FlowData> {
  const parsed = v.safeParse(FlowDataSchema, input);
  if (!parsed.success) {
    return fail('VALIDATION_FAILED', 'The flow does not match its schema.', {
      errors: fieldErrors(parsed.issues).map((error) => ({ ...error, pointer: `${prefix}${error.pointer}` })),
    });
  }
  const graph = validatePipeline(parsed.output.pipeline);
  if (!graph.ok) return flowFailure(graph.issues, prefix);
  if (parsed.output.condition !== null) {
    const issues = validateCondition(parsed.output.condition);
    if (issues.length > 0) {
      return fail(issues[0]!.code, issues[0]!.message, {
        errors: issues.map((issue) => ({
          pointer: `${prefix}/condition${issue.pointer}`,
          message: issue.message,
        })),
      });
    }
  }
  return { ok: true, value: { ...parsed.output, pipeline: graph.pipeline } };
}

/**
 * Refuses a trigger no event carries (a flow on it would never start). Checked when a flow is
 * saved, not when a stored one is read: a flow saved before keeps the trigger it was saved with.
 */
export function checkTrigger(trigger: string, pointer = '/data/trigger'): Failure | null {
  if (TRIGGERS.has(trigger) || APP_EVENT_TRIGGER.test(trigger)) return null;
  // The schema bounds a trigger to 200 characters, so the message may quote it whole.
  return fail('VALIDATION_FAILED', `No event starts a flow on ${JSON.stringify(trigger)}.`, {
    errors: [
      { pointer, message: `expected one of ${FLOW_TRIGGERS.join(', ')}, or an app event app.<app>.<action>` },
    ],
    extensions: { triggers: FLOW_TRIGGERS },
  });
}

/** Every condition the flow evaluates (its own and its condition nodes'), as one tree to compile. */
export function conditionsOf(flow: FlowData): ConditionTree {
  const children: ConditionTree[] = [];
  if (flow.condition) children.push(flow.condition);
  for (const node of flow.pipeline.nodes) if (node.kind === 'condition') children.push(node.condition);
  return { type: 'andContainer', children };
}

/** The saved rules the flow names directly. */
export function ruleIdsOfFlow(flow: FlowData): string[] {
  return [
    ...new Set([...ruleIdsOf(flow.pipeline), ...(flow.condition ? ruleIdsOfTree(flow.condition) : [])]),
  ];
}

function ruleIdsOfTree(tree: ConditionTree): string[] {
  return ruleIdsOf({
    entry: 'c',
    nodes: [{ id: 'c', kind: 'condition', condition: tree, on_true: null, on_false: null }],
  });
}

/** The area permission each action of the flow needs (besides settings.write to save it). */
export function permissionsOfActions(flow: FlowData): { action: string; permission: Permission }[] {
  const needed: { action: string; permission: Permission }[] = [];
  for (const node of flow.pipeline.nodes) {
    if (node.kind !== 'action') continue;
    const area = ACTIONS.find((action) => action.name === node.action)?.area;
    if (area) needed.push({ action: node.action, permission: `${area}.write` as Permission });
    if (node.action === 'ai_proposal') needed.push(...permissionsOfPlan(node.config));
  }
  return needed;
}

/**
 * What the operations of an `ai_proposal` plan need (decision 0046): the saver plans within their
 * own rights, as the step and the approval check again. An app record is written through its
 * entity's update action, which needs apps.write; pairs and rules need settings.write.
 */
function permissionsOfPlan(
  config: Readonly<Record<string, unknown>>,
): { action: string; permission: Permission }[] {
  const operations = Array.isArray(config.operations) ? (config.operations as { kind?: unknown }[]) : [];
  return operations.map((operation) => ({
    action: `ai_proposal (${String(operation.kind)})`,
    permission: operation.kind === 'apps.record.set' ? 'apps.write' : 'settings.write',
  }));
}
