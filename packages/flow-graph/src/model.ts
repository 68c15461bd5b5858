import type { ConditionTree } from '@cartwright/rules-engine';

/**
 * A flow's graph (`data.pipeline`): the job starts at `entry` and follows the nodes' edges. An
 * edge of `null` means the graph ends there and the job is finished.
 */
export interface FlowPipeline {
  readonly entry: string;
  readonly nodes: readonly FlowNode[];
}

export type FlowNode = ConditionStep | ActionStep | DelayStep | StopStep;
export type FlowNodeKind = FlowNode['kind'];

/** Evaluates a condition tree (or a `ruleReference` to a saved rule) and takes one of two edges. */
export interface ConditionStep {
  readonly id: string;
  readonly kind: 'condition';
  readonly condition: ConditionTree;
  readonly on_true: string | null;
  readonly on_false: string | null;
}

/** Runs one catalog action with its canonical config (see `normalizeActionConfig`). */
export interface ActionStep {
  readonly id: string;
  readonly kind: 'action';
  readonly action: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly next: string | null;
}

/** Suspends the job for `seconds` (a positive integer, at most `FLOW_LIMITS.delaySeconds`). */
export interface DelayStep {
  readonly id: string;
  readonly kind: 'delay';
  readonly seconds: number;
  readonly next: string | null;
}

/** Ends the graph. */
export interface StopStep {
  readonly id: string;
  readonly kind: 'stop';
}

export const FLOW_NODE_KINDS: readonly FlowNodeKind[] = ['condition', 'action', 'delay', 'stop'];

/**
 * `reachableNodes`: a graph has 1 to this many nodes reachable from its entry (the spec's limit).
 * `delaySeconds`: thirty days. `nodesInInput`: Cartwright's own bound on the `nodes` array, a guard
 * against abusive payloads checked before any graph walk.
 */
export const FLOW_LIMITS = {
  reachableNodes: 100,
  delaySeconds: 30 * 24 * 3600,
  nodesInInput: 1000,
} as const;

/** Stable codes of the reasons a graph cannot be saved. */
export type FlowIssueCode =
  | 'FLOW_INVALID_GRAPH'
  | 'FLOW_DUPLICATE_NODE'
  | 'FLOW_EDGE_MISSING'
  | 'FLOW_CYCLE'
  | 'FLOW_UNREACHABLE'
  | 'FLOW_SIZE'
  | 'FLOW_DELAY_TOO_LONG'
  | 'FLOW_UNKNOWN_ACTION'
  | 'FLOW_INVALID_ACTION_CONFIG'
  | 'FLOW_UNSUPPORTED_OPTION';
