import { referencedRuleIds } from '@cartwright/rules-engine';
import type { FlowNode, FlowPipeline } from './model.ts';

/**
 * The id of the node that follows `node`, or `null` when the graph ends there. A condition node
 * needs the `outcome` of its condition; stop nodes always end the graph.
 */
export function nextNodeId(node: FlowNode, outcome?: boolean): string | null {
  switch (node.kind) {
    case 'condition':
      if (typeof outcome !== 'boolean') {
        throw new TypeError(
          `The condition node ${JSON.stringify(node.id)} needs the outcome of its condition.`,
        );
      }
      return outcome ? node.on_true : node.on_false;
    case 'action':
    case 'delay':
      return node.next;
    case 'stop':
      return null;
  }
}

/** The pipeline's nodes by id (the first node wins if a validated pipeline could ever repeat one). */
export function nodeById(pipeline: FlowPipeline): ReadonlyMap<string, FlowNode> {
  const map = new Map<string, FlowNode>();
  for (const node of pipeline.nodes) if (!map.has(node.id)) map.set(node.id, node);
  return map;
}

/** The ids of the saved rules the condition nodes reference directly, each once, in node order. */
export function ruleIdsOf(pipeline: FlowPipeline): string[] {
  const ids = new Set<string>();
  for (const node of pipeline.nodes) {
    if (node.kind === 'condition') for (const id of referencedRuleIds(node.condition)) ids.add(id);
  }
  return [...ids];
}
