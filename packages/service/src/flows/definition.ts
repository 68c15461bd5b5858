import { type FlowIssue, type FlowPipeline, ruleIdsOf, validatePipeline } from '@cartwright/flow-graph';
import { ACTIONS, type ConditionTree, validateCondition } from '@cartwright/rules-engine';
import * as v from 'valibot';
import { type ErrorCode, type Failure, fail, type Result } from '../kernel/errors.ts';
import type { Permission } from '../kernel/permissions.ts';
import { fieldErrors } from '../kernel/registry.ts';
import { LanguageCode, Translated } from '../kernel/schemas.ts';

/** Event names a flow can start from: `order.placed`, `order_payment.paid`, `app.<app>.<action>`. */
const Trigger = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_-]+)+$/, 'expected an event name such as order.placed'),
  v.maxLength(200),
);

const ConditionInput = v.custom<ConditionTree>(
  (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
  'expected a condition node object',
);

/** A flow's `data`: translated name and instruction, locale, trigger, top-level condition, graph. */
const FlowDataSchema = v.strictObject({
  name: v.pipe(
    Translated,
    v.check((name) => Object.keys(name).length > 0, 'give the flow a name'),
  ),
  instruction: v.optional(Translated, {}),
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
  }
  return needed;
}
